/* cmd_pack.c — `codec pack -p SPEC [FILE...]`: bytes through the stages, left to right. */
#include "cli.h"

static const char usage[] =
    "usage: codec pack -p SPEC [-d] [-c|-o FILE] [-k] [-f] [-q|-v] [-T N] [--no-check]\n"
    "                  [--max-input SIZE] [--] [FILE...]\n"
    "\n"
    "Encodes each FILE through the pipeline SPEC, stage by stage from left to\n"
    "right, into FILE.<suffix> (.zst, .gz, .lz4, .br, .b64...: the last stage\n"
    "with one), and removes FILE; standard input goes to standard output.\n"
    "Everything streams. Output files appear only once complete. zstd and LZ4\n"
    "frames carry their content checksum unless --no-check.\n"
    "\n"
    "  -d, --decompress      undo SPEC instead (codec unpack)\n"
    "  -T, --threads N       zstd worker threads\n"
    "      --no-check        no zstd/LZ4 content checksum\n"
    "  -p, --pipeline SPEC   stages separated by '|', e.g. 'zstd:3 | base64'\n"
    "                        ('codec list' shows the stages and their arguments)\n"
    "  -c, --stdout          write standard output; keep the input files\n"
    "  -o, --output FILE     write FILE (one input)\n"
    "  -k, --keep            keep the input files\n"
    "  -f, --force           overwrite outputs; binary to a terminal\n"
    "  -q, --quiet           no warnings, no progress line\n"
    "  -v, --verbose         sizes of each file\n"
    "      --max-input SIZE  refuse inputs over SIZE bytes (k, m, g; default none)\n"
    "  -h, --help            show this text\n"
    "\n"
    "examples: codec pack -p zstd big.log          (writes big.log.zst)\n"
    "          codec pack -p 'zstd:3 | base64' < data > out\n";

int cmd_pack(int argc, char **argv)
{
    return cli_run_pipeline(argc, argv, usage, false);
}
