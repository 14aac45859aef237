/* cmd_validate.c — `codec validate -f FORMAT [FILE]`: is the input one valid
 * document of FORMAT? The input is decoded as a schemaless value, so FORMAT
 * is any backend spec with its limits (`json:max-depth=1000`). */
#include "cli.h"

#include <stdio.h>

static const char usage[] =
    "usage: codec validate -f FORMAT [--max-input SIZE] [FILE]\n"
    "\n"
    "Checks that FILE (or standard input) is exactly one valid document of\n"
    "FORMAT, with FORMAT's limits. Exit 0 when it is; 1 when it is not, with\n"
    "the reason and its byte offset on standard error. Nothing is printed\n"
    "on success.\n"
    "\n"
    "  -f, --format SPEC     a backend and its options, e.g. json or\n"
    "                        json:max-depth=1000,duplicates=allow\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec validate -f json doc.json || echo invalid\n";

int cmd_validate(int argc, char **argv)
{
    static const struct option longs[] = {{"format", required_argument, NULL, 'f'},
                                          {"max-input", required_argument, NULL, 'm'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *format = NULL, *path;
    cli_options o;
    cli_options_start(&o, argv, usage, ":f:h", longs);
    int opt;
    while ((opt = cli_next_option(&o, argc, argv)) == 'f')
        format = optarg;
    if (opt == CLI_OPTIONS_EXIT)
        return o.exit;
    if (!format)
        return cli_usage_error(o.cmd, "missing -f FORMAT (e.g. -f json)");
    if (cli_input_path(&o, argc, argv, &path))
        return CLI_EXIT_USAGE;
    codec_error err;
    codec *c = codec_parse(format, codec_value_type(), &err);
    if (!c)
        return cli_fail(&err);
    cli_input in;
    int rc = cli_read_input(path, o.max_input, &in, &err);
    if (rc == CODEC_OK) {
        codec_arena arena;
        codec_arena_init(&arena, NULL, in.len + 4096);
        codec_value v;
        rc = codec_decode(c, in.data, in.len, &v, &arena, &err);
        codec_arena_free(&arena);
        cli_input_free(&in);
    }
    codec_free(c);
    return rc == CODEC_OK ? CLI_EXIT_OK : cli_fail(&err);
}
