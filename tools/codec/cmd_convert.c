/* cmd_convert.c — `codec convert -f FROM -t TO [--pretty] [FILE]`: decodes
 * the input as a schemaless value with the FROM backend spec and writes it
 * with the TO spec (json to json:pretty today; between formats as more
 * backends land). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: codec convert -f FROM -t TO [--pretty] [--max-input SIZE] [FILE]\n"
    "\n"
    "Reads one document of format FROM from FILE (or standard input) and\n"
    "writes the same document in format TO to standard output, followed by a\n"
    "newline. Nothing is written when the input is invalid.\n"
    "\n"
    "  -f, --from SPEC       the input backend and its options, e.g. json\n"
    "  -t, --to SPEC         the output backend, e.g. json or json:pretty\n"
    "      --pretty          the same as adding `pretty` to TO\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec convert -f json -t json --pretty < doc.json\n";

/* TO with `pretty` as its first (positional) argument. */
static int pretty_spec(const char *to, char *dst, size_t cap)
{
    const char *colon = strchr(to, ':');
    int n = colon ? snprintf(dst, cap, "%.*s:pretty,%s", (int)(colon - to), to, colon + 1)
                  : snprintf(dst, cap, "%s:pretty", to);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int convert(const codec *from, const codec *to, const cli_input *in, codec_error *err)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, in->len + 4096);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_value v;
    int rc = codec_decode(from, in->data, in->len, &v, &arena, err);
    if (rc == CODEC_OK)
        rc = codec_encode(to, &v, &out, err);
    if (rc == CODEC_OK)
        rc = codec_buf_append(&out, "\n", 1);
    if (rc == CODEC_OK)
        rc = cli_write_output(out.data, out.len, err);
    else if (rc == CODEC_E_NOMEM)
        codec_error_set(err, rc, 0, "output", CODEC_NO_OFFSET, "out of memory");
    codec_buf_free(&out);
    codec_arena_free(&arena);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    static const struct option longs[] = {{"from", required_argument, NULL, 'f'},
                                          {"to", required_argument, NULL, 't'},
                                          {"pretty", no_argument, NULL, 'P'},
                                          {"max-input", required_argument, NULL, 'm'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *cmd = argv[0], *from_spec = NULL, *to_spec = NULL;
    bool pretty = false;
    size_t max_input = CLI_DEFAULT_MAX_INPUT;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":f:t:h", longs, NULL)) != -1) {
        switch (opt) {
        case 'f': from_spec = optarg; break;
        case 't': to_spec = optarg; break;
        case 'P': pretty = true; break;
        case 'm':
            if (cli_set_max_input(cmd, optarg, &max_input))
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(usage, stdout); return CLI_EXIT_OK;
        default: return cli_option_error(cmd, opt, argv);
        }
    }
    if (!from_spec || !to_spec)
        return cli_usage_error(cmd, "missing %s (e.g. -f json -t json)",
                               from_spec ? "-t TO" : "-f FROM");
    if (argc - optind > 1)
        return cli_usage_error(cmd, "one input file at most, got '%s' and '%s'", argv[optind],
                               argv[optind + 1]);
    char spec[512];
    if (pretty && pretty_spec(to_spec, spec, sizeof spec))
        return cli_usage_error(cmd, "output spec too long");
    codec_error err;
    codec *from = codec_parse(from_spec, codec_value_type(), &err);
    codec *to = from ? codec_parse(pretty ? spec : to_spec, codec_value_type(), &err) : NULL;
    int rc = from && to ? CODEC_OK : err.family;
    cli_input in;
    if (rc == CODEC_OK &&
        (rc = cli_read_input(optind < argc ? argv[optind] : NULL, max_input, &in, &err)) ==
            CODEC_OK) {
        rc = convert(from, to, &in, &err);
        cli_input_free(&in);
    }
    codec_free(from);
    codec_free(to);
    return rc == CODEC_OK ? CLI_EXIT_OK : cli_fail(&err);
}
