/* cmd_inspect.c — `codec inspect [FILE...]`: what the outer layer is, and its sizes. */
#include "cli.h"
#include "inspect.h"

#include <stdio.h>

static const char usage[] =
    "usage: codec inspect [--max-input SIZE] [FILE...]\n"
    "\n"
    "Names the outer layer of FILE (or standard input) from its magic bytes\n"
    "and prints what its header declares, one 'key: value' per line: format\n"
    "(gzip, zlib, zstd, lz4, versioned, envelope, json, hex, base64, cbor,\n"
    "msgpack, empty, unknown), size, then the fields of that format\n"
    "(docs/guides/cli.md). hex, base64, cbor and msgpack are named only when\n"
    "the decoder accepts all of the input; the bytes inside hex and base64\n"
    "text are inspected too ('inner ...' lines).\n"
    "Headers are parsed defensively; checksums are not verified.\n"
    "Exit 1 when a recognised header is truncated or inconsistent, 3 when\n"
    "its version or algorithm is unknown (the fields read so far are printed).\n"
    "With several FILEs, each report starts with 'file: NAME' and they are\n"
    "separated by an empty line; the exit code is the first failure's.\n"
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

/* Inspects one input (NULL: standard input); @return the exit code. */
static int inspect_one(const char *path, size_t max_input, bool named)
{
    codec_error err;
    cli_input in;
    if (named)
        printf("file: %s\n", path);
    if (cli_read_input(path, max_input, &in, &err))
        return cli_fail(&err);
    inspect_report r;
    int status = inspect_bytes(in.data, in.len, INSPECT_DEFAULT_WALK, &r);
    cli_input_free(&in);
    print_report(&r);
    if (cli_write_output(NULL, 0, &err))
        return cli_fail(&err);
    return status ? cli_fail(&r.err) : CLI_EXIT_OK;
}

int cmd_inspect(int argc, char **argv)
{
    static const struct option longs[] = {
        {"max-input", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    cli_options o;
    cli_options_start(&o, argv, usage, ":h", longs);
    if (cli_next_option(&o, argc, argv) == CLI_OPTIONS_EXIT) /* it has none of its own */
        return o.exit;
    if (optind >= argc - 1)
        return inspect_one(optind < argc ? argv[optind] : NULL, o.max_input, false);
    int exit = CLI_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        if (i > optind)
            putchar('\n');
        int rc = inspect_one(argv[i], o.max_input, true);
        exit = exit ? exit : rc;
    }
    return exit;
}
