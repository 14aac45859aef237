/* pipeline.c — what `codec pack` and `codec unpack` share: options, reading
 * the input, running the bytes pipeline one way, writing only on success. */
#include "cli.h"

#include <stdio.h>

static int encode_and_write(const codec *c, const cli_input *in, codec_error *err)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes value = {in->data, in->len};
    int rc = codec_encode(c, &value, &out, err);
    if (rc == CODEC_OK)
        rc = cli_write_output(out.data, out.len, err);
    codec_buf_free(&out);
    return rc;
}

static int decode_and_write(const codec *c, const cli_input *in, codec_error *err)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes value;
    int rc = codec_decode(c, in->data, in->len, &value, &arena, err);
    if (rc == CODEC_OK)
        rc = cli_write_output(value.data, value.len, err);
    codec_arena_free(&arena);
    return rc;
}

int cli_run_pipeline(int argc, char **argv, const char *usage, bool decode)
{
    static const struct option longs[] = {
        {"pipeline", required_argument, NULL, 'p'},
        {"max-input", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *spec = NULL, *path;
    cli_options o;
    cli_options_start(&o, argv, usage, ":p:h", longs);
    int opt;
    while ((opt = cli_next_option(&o, argc, argv)) == 'p')
        spec = optarg;
    if (opt == CLI_OPTIONS_EXIT)
        return o.exit;
    if (!spec)
        return cli_usage_error(o.cmd, "missing -p SPEC (the pipeline, e.g. -p 'zstd:3 | base64')");
    if (cli_input_path(&o, argc, argv, &path))
        return CLI_EXIT_USAGE;
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c)
        return cli_fail(&err);
    cli_input in;
    int rc = cli_read_input(path, o.max_input, &in, &err);
    if (rc == CODEC_OK) {
        rc = decode ? decode_and_write(c, &in, &err) : encode_and_write(c, &in, &err);
        cli_input_free(&in);
    }
    codec_free(c);
    return rc ? cli_fail(&err) : CLI_EXIT_OK;
}
