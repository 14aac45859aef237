/* cmd_pack.c — `codec pack -p SPEC [FILE]`: bytes through the stages, left to right. */
#include "cli.h"

static const char usage[] =
    "usage: codec pack -p SPEC [--max-input SIZE] [FILE]\n"
    "\n"
    "Encodes the bytes of FILE (or standard input) through the pipeline SPEC,\n"
    "stage by stage from left to right, and writes the result to standard\n"
    "output. Nothing is written when a stage fails.\n"
    "\n"
    "  -p, --pipeline SPEC   stages separated by '|', e.g. 'zstd:3 | base64'\n"
    "                        ('codec list' shows the stages and their arguments)\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec pack -p 'zstd:3 | base64' < data > out\n";

int cmd_pack(int argc, char **argv)
{
    return cli_run_pipeline(argc, argv, usage, false);
}
