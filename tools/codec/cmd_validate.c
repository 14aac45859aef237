/* cmd_validate.c — `codec validate -f FORMAT [FILE]`: is the input one valid
 * document of FORMAT? The input is decoded as a schemaless value, so FORMAT
 * is any backend spec with its limits (`json:max-depth=1000`). Validity is
 * the format's own: RFC 8259 allows duplicate object keys, so validate
 * does too unless --reject-duplicates (or duplicates=reject in FORMAT);
 * typed decoding keeps rejecting them by default. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: codec validate -f FORMAT [--lines] [--reject-duplicates] [--max-input SIZE] [FILE]\n"
    "\n"
    "Checks that FILE (or standard input) is exactly one valid document of\n"
    "FORMAT, with FORMAT's limits. Exit 0 when it is; 1 when it is not, with\n"
    "the reason and its byte offset on standard error. Nothing is printed\n"
    "on success.\n"
    "\n"
    "  -l, --lines           one document per line (JSON lines; -f ndjson is\n"
    "                        -f json --lines); every invalid line is reported\n"
    "\n"
    "  -f, --format SPEC     a backend and its options, e.g. json or\n"
    "                        json:max-depth=1000\n"
    "      --reject-duplicates  a map or object with a key twice is invalid\n"
    "                        (valid JSON per RFC 8259, which says names SHOULD\n"
    "                        be unique; the default of typed decoding)\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec validate -f json doc.json || echo invalid\n";

/* Decodes in->data[start .. start + n); an error's offset is moved to the
 * whole input's and gains its line and column. */
static int validate_one(const codec *c, const cli_input *in, size_t start, size_t n,
                        codec_error *err)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, n + 4096);
    codec_value v;
    int rc = codec_decode(c, in->data + start, n, &v, &arena, err);
    if (rc && err->offset != CODEC_NO_OFFSET)
        err->offset += start;
    if (rc)
        cli_error_add_position(err, in->data, in->len);
    codec_arena_free(&arena);
    return rc;
}

/* Every line is one document; each invalid one is reported. @return the
 * exit code of the first failure, or 0. */
static int validate_lines(const codec *c, const cli_input *in)
{
    size_t pos = 0, start, len;
    int exit = CLI_EXIT_OK;
    while (cli_next_line(in, &pos, &start, &len)) {
        codec_error err;
        if (validate_one(c, in, start, len, &err)) {
            int code = cli_fail(&err);
            exit = exit ? exit : code;
        }
    }
    return exit;
}

int cmd_validate(int argc, char **argv)
{
    static const struct option longs[] = {{"format", required_argument, NULL, 'f'},
                                          {"reject-duplicates", no_argument, NULL, 'D'},
                                          {"lines", no_argument, NULL, 'l'},
                                          {"max-input", required_argument, NULL, 'm'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *format = NULL, *path;
    cli_options o;
    cli_options_start(&o, argv, usage, ":f:lh", longs);
    int opt;
    bool reject_duplicates = false, lines = false;
    while ((opt = cli_next_option(&o, argc, argv)) == 'f' || opt == 'D' || opt == 'l') {
        if (opt == 'f')
            format = optarg;
        else if (opt == 'l')
            lines = true;
        else
            reject_duplicates = true;
    }
    if (opt == CLI_OPTIONS_EXIT)
        return o.exit;
    if (!format)
        return cli_usage_error(o.cmd, "missing -f FORMAT (e.g. -f json)");
    if (cli_input_path(&o, argc, argv, &path))
        return CLI_EXIT_USAGE;
    codec_error err;
    char json[600], spec[600];
    format = cli_lines_format(format, &lines, json, sizeof json);
    size_t name = strcspn(format, ": ");
    bool has_policy = (name == 4 && strncmp(format, "json", 4) == 0) ||
                      (name == 4 && strncmp(format, "cbor", 4) == 0) ||
                      (name == 7 && strncmp(format, "msgpack", 7) == 0);
    if (has_policy && !strstr(format, "duplicates=") &&
        snprintf(spec, sizeof spec, "%s%sduplicates=%s", format, strchr(format, ':') ? "," : ":",
                 reject_duplicates ? "reject" : "allow") < (int)sizeof spec)
        format = spec;
    codec *c = codec_parse(format, codec_value_type(), &err);
    if (!c)
        return cli_fail(&err);
    cli_input in;
    int exit = CLI_EXIT_OK;
    int rc = cli_read_input(path, o.max_input, &in, &err);
    if (rc == CODEC_OK) {
        if (lines)
            exit = validate_lines(c, &in);
        else
            rc = validate_one(c, &in, 0, in.len, &err);
        cli_input_free(&in);
    }
    codec_free(c);
    return rc != CODEC_OK ? cli_fail(&err) : exit;
}
