/* cmd_unpack.c — `codec unpack -p SPEC [FILE...]`: undoes the stages, right to left. */
#include "cli.h"

static const char usage[] =
    "usage: codec unpack -p SPEC [-c|-o FILE] [-k] [-f] [-q|-v] [--max-output SIZE]\n"
    "                    [--max-input SIZE] [--] [FILE...]\n"
    "\n"
    "Decodes each FILE.<suffix> with the pipeline SPEC, undoing its stages from\n"
    "right to left (the SPEC given to 'codec pack'), into FILE, and removes\n"
    "FILE.<suffix>; standard input goes to standard output. Everything streams;\n"
    "checksums are verified at the end, and output files appear only after.\n"
    "Decompressors stop at an explicit max= in SPEC, and --max-output caps the\n"
    "output, against decompression bombs.\n"
    "\n"
    "  -p, --pipeline SPEC   the pipeline the data was packed with\n"
    "  -c, --stdout          write standard output; keep the input files\n"
    "  -o, --output FILE     write FILE (one input)\n"
    "  -k, --keep            keep the input files\n"
    "  -f, --force           overwrite outputs; read from a terminal\n"
    "  -q, --quiet           no warnings, no progress line\n"
    "  -v, --verbose         sizes of each file\n"
    "      --max-input SIZE  refuse inputs over SIZE bytes (k, m, g; default none)\n"
    "      --max-output SIZE refuse outputs over SIZE bytes (default none)\n"
    "  -h, --help            show this text\n"
    "\n"
    "examples: codec unpack -p zstd big.log.zst     (writes big.log)\n"
    "          codec unpack -p 'zstd:3 | base64' < out > data\n";

int cmd_unpack(int argc, char **argv)
{
    return cli_run_pipeline(argc, argv, usage, true);
}
