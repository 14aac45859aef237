/* cmd_dict.c — `codec dict train -o FILE [--size BYTES] SAMPLES...`: a zstd
 * dictionary from sample values (one file each), for `zstd:3,dict=FILE`. */
#include "cli.h"
#include "outfile.h"

#include "codec/zstd_dict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cap on one sample file: samples are values, not archives. */
#define SAMPLE_MAX ((size_t)64 << 20)

static const char usage[] =
    "usage: codec dict train -o FILE [--size BYTES] SAMPLE...\n"
    "\n"
    "Trains a zstd dictionary on the SAMPLE files (one typical value each: at\n"
    "least 8 files and 1 KiB in all; hundreds of values, about 100 times the\n"
    "dictionary size in total, train well) and writes it to FILE, for use as\n"
    "'zstd:3,dict=FILE'. FILE is written only when training succeeded, through\n"
    "a temporary file beside it that is renamed over it when complete.\n"
    "\n"
    "  -o, --output FILE     where the dictionary goes\n"
    "      --size BYTES      largest dictionary (default 110k; 256 to 16m; k, m)\n"
    "  -h, --help            show this text\n"
    "\n"
    "example: codec dict train -o orders.dict samples/order-*.json\n";

/* Reads every sample; on failure frees what was read. */
static int read_samples(char **paths, size_t n, cli_input *in, codec_bytes *samples,
                        codec_error *err)
{
    for (size_t i = 0; i < n; i++) {
        int rc = cli_read_input(paths[i], SAMPLE_MAX, &in[i], err);
        if (rc) {
            while (i--)
                cli_input_free(&in[i]);
            return rc;
        }
        samples[i] = (codec_bytes){in[i].data, in[i].len};
    }
    return CODEC_OK;
}

static int train(const char *out_path, size_t size, char **paths, size_t n)
{
    codec_error err;
    cli_input *in = calloc(n, sizeof *in);
    codec_bytes *samples = calloc(n, sizeof *samples);
    if (!in || !samples) {
        free(in);
        free(samples);
        fprintf(stderr, "codec: dict: out of memory\n");
        return CLI_EXIT_TRANSIENT;
    }
    int rc = read_samples(paths, n, in, samples, &err);
    codec_buf dict;
    codec_buf_init(&dict, NULL);
    if (!rc) {
        rc = codec_zstd_train_dict(samples, n, size, &dict, &err);
        for (size_t i = 0; i < n; i++)
            cli_input_free(&in[i]);
    }
    if (!rc)
        rc = cli_write_file(out_path, dict.data, dict.len, &err);
    if (!rc)
        fprintf(stderr, "codec: dict: %zu-byte dictionary from %zu samples in %s\n", dict.len,
                n, out_path);
    codec_buf_free(&dict);
    free(in);
    free(samples);
    return rc ? cli_fail(&err) : CLI_EXIT_OK;
}

int cmd_dict(int argc, char **argv)
{
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"size", required_argument, NULL, 's'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    if (argc < 2 || strcmp(argv[1], "train") != 0)
        return cli_usage_error("dict", "expected 'train'%s%s", argc < 2 ? "" : ", not ",
                               argc < 2 ? "" : argv[1]);
    argc--, argv++;
    cli_options o;
    cli_options_start(&o, argv, usage, ":o:h", longs);
    o.cmd = "dict";
    const char *out = NULL;
    size_t size = 0;
    int opt;
    while ((opt = cli_next_option(&o, argc, argv)) >= 0) {
        if (opt == 'o')
            out = optarg;
        else if (opt == 's' && (!cli_parse_size(optarg, &size) || size == 0))
            return cli_usage_error("dict", "bad --size '%s': a size such as 4096 or 110k", optarg);
    }
    if (opt == CLI_OPTIONS_EXIT)
        return o.exit;
    if (!out)
        return cli_usage_error("dict", "-o FILE is required");
    if (optind >= argc)
        return cli_usage_error("dict", "no SAMPLE files");
    return train(out, size, argv + optind, (size_t)(argc - optind));
}
