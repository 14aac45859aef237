/* pipeline.c — what `codec pack` and `codec unpack` share: options, reading
 * the input, running the bytes pipeline one way, writing only on success. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>

typedef struct pipeline_options {
    const char *spec;
    const char *path;      /* NULL = standard input */
    size_t max_input;
} pipeline_options;

/* @return -1 when the command should go on, else the exit code. */
static int parse_options(int argc, char **argv, const char *usage, pipeline_options *o)
{
    static const struct option longs[] = {
        {"pipeline", required_argument, NULL, 'p'},
        {"max-input", required_argument, NULL, 'm'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *cmd = argv[0];
    o->spec = NULL;
    o->path = NULL;
    o->max_input = CLI_DEFAULT_MAX_INPUT;
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, ":p:h", longs, NULL)) != -1) {
        switch (opt) {
        case 'p': o->spec = optarg; break;
        case 'm':
            if (cli_set_max_input(cmd, optarg, &o->max_input))
                return CLI_EXIT_USAGE;
            break;
        case 'h': fputs(usage, stdout); return CLI_EXIT_OK;
        default: return cli_option_error(cmd, opt, argv);
        }
    }
    if (!o->spec)
        return cli_usage_error(cmd, "missing -p SPEC (the pipeline, e.g. -p 'zstd:3 | base64')");
    if (argc - optind > 1)
        return cli_usage_error(cmd, "one input file at most, got '%s' and '%s'", argv[optind],
                               argv[optind + 1]);
    o->path = optind < argc ? argv[optind] : NULL;
    return -1;
}

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
    pipeline_options o;
    int done = parse_options(argc, argv, usage, &o);
    if (done >= 0)
        return done;
    codec_error err;
    codec *c = codec_parse(o.spec, NULL, &err);
    if (!c)
        return cli_fail(&err);
    cli_input in;
    int rc = cli_read_input(o.path, o.max_input, &in, &err);
    if (rc == CODEC_OK) {
        rc = decode ? decode_and_write(c, &in, &err) : encode_and_write(c, &in, &err);
        cli_input_free(&in);
    }
    codec_free(c);
    return rc ? cli_fail(&err) : CLI_EXIT_OK;
}
