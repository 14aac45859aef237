/* cmd_inspect.c — `codec inspect [FILE]`: what the outer layer is, and its sizes. */
#include "cli.h"
#include "inspect.h"

#include <getopt.h>
#include <stdio.h>

static const char usage[] =
    "usage: codec inspect [--max-input SIZE] [FILE]\n"
    "\n"
    "Names the outer layer of FILE (or standard input) from its magic bytes\n"
    "and prints what its header declares, one 'key: value' per line: format\n"
    "(gzip, zlib, zstd, lz4, versioned, envelope, json, hex, base64, empty,\n"
    "unknown), size, then the fields of that format (docs/guides/cli.md).\n"
    "Headers are parsed defensively; checksums are not verified.\n"
    "Exit 1 when a recognised header is truncated or inconsistent, 3 when\n"
    "its version or algorithm is unknown (the fields read so far are printed).\n"
    "\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec inspect message.bin\n";

static void print_report(const inspect_report *r)
{
    printf("format: %s\nsize: %llu\n", r->format, (unsigned long long)r->size);
    for (size_t i = 0; i < r->count; i++)
        printf("%s: %s\n", r->fields[i].key, r->fields[i].value);
}

int cmd_inspect(int argc, char **argv)
{
    static const struct option longs[] = {
        {"max-input", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    size_t max_input = CLI_DEFAULT_MAX_INPUT;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longs, NULL)) != -1) {
        switch (opt) {
        case 'm':
            if (cli_set_max_input("inspect", optarg, &max_input))
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(usage, stdout); return CLI_EXIT_OK;
        default: return cli_option_error("inspect", opt, argv);
        }
    }
    if (argc - optind > 1)
        return cli_usage_error("inspect", "one input file at most");
    codec_error err;
    cli_input in;
    if (cli_read_input(optind < argc ? argv[optind] : NULL, max_input, &in, &err))
        return cli_fail(&err);
    inspect_report r;
    int status = inspect_bytes(in.data, in.len, INSPECT_DEFAULT_WALK, &r);
    cli_input_free(&in);
    print_report(&r);
    if (cli_write_output(NULL, 0, &err))
        return cli_fail(&err);
    return status ? cli_fail(&r.err) : CLI_EXIT_OK;
}
