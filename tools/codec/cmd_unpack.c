/* cmd_unpack.c — `codec unpack -p SPEC [FILE]`: undoes the stages, right to left. */
#include "cli.h"

static const char usage[] =
    "usage: codec unpack -p SPEC [--max-input SIZE] [FILE]\n"
    "\n"
    "Decodes the bytes of FILE (or standard input) with the pipeline SPEC,\n"
    "undoing its stages from right to left (the SPEC given to 'codec pack'),\n"
    "and writes the original bytes to standard output. Nothing is written\n"
    "when a stage fails; decompressors stop at their max= (64 MiB default).\n"
    "\n"
    "  -p, --pipeline SPEC   the pipeline the data was packed with\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec unpack -p 'zstd:3 | base64' < out > data\n";

int cmd_unpack(int argc, char **argv)
{
    return cli_run_pipeline(argc, argv, usage, true);
}
