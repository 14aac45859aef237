/* cmd_validate.c — `codec validate -f FORMAT [FILE]`: is the input one valid
 * document of FORMAT? The input is decoded as a schemaless value, so FORMAT
 * is any backend spec with its limits (`json:max-depth=1000`). */
#include "cli.h"

#include <getopt.h>
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
    const char *cmd = argv[0], *format = NULL;
    size_t max_input = CLI_DEFAULT_MAX_INPUT;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":f:h", longs, NULL)) != -1) {
        switch (opt) {
        case 'f': format = optarg; break;
        case 'm':
            if (cli_set_max_input(cmd, optarg, &max_input))
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(usage, stdout); return CLI_EXIT_OK;
        default: return cli_option_error(cmd, opt, argv);
        }
    }
    if (!format)
        return cli_usage_error(cmd, "missing -f FORMAT (e.g. -f json)");
    if (argc - optind > 1)
        return cli_usage_error(cmd, "one input file at most, got '%s' and '%s'", argv[optind],
                               argv[optind + 1]);
    codec_error err;
    codec *c = codec_parse(format, codec_value_type(), &err);
    if (!c)
        return cli_fail(&err);
    cli_input in;
    int rc = cli_read_input(optind < argc ? argv[optind] : NULL, max_input, &in, &err);
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
