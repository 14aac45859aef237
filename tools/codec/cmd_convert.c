/* cmd_convert.c — `codec convert -f FROM -t TO [--pretty] [FILE]`: decodes
 * the input as a schemaless value with the FROM spec and writes it to
 * standard output with the TO spec (e.g. json to json:pretty, or between
 * formats once more backends exist). Exit 0, 1 for invalid input, 2 usage,
 * 5 when the value cannot be written in TO. */
#include "cmd_input.h"

#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: codec convert -f FROM -t TO [--pretty] [FILE]\n"
                    "  FROM, TO  backend specs, e.g. json, json:pretty\n"
                    "  --pretty  the same as adding `pretty` to TO\n");
    return CODEC_E_USAGE;
}

/* TO with `pretty` added as its first argument (its positional style). */
static int pretty_spec(const char *to, char *dst, size_t cap)
{
    const char *colon = strchr(to, ':');
    int n = colon ? snprintf(dst, cap, "%.*s:pretty,%s", (int)(colon - to), to, colon + 1)
                  : snprintf(dst, cap, "%s:pretty", to);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int convert(const codec *from, const codec *to, const codec_buf *in, codec_error *err)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, in->len + 4096);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_value v;
    int rc = codec_decode(from, in->data, in->len, &v, &arena, err);
    if (!rc)
        rc = codec_encode(to, &v, &out, err);
    if (!rc && (fwrite(out.data, 1, out.len, stdout) != out.len || fputc('\n', stdout) == EOF))
        rc = codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                             "cannot write standard output");
    codec_buf_free(&out);
    codec_arena_free(&arena);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    const char *from_spec = NULL, *to_spec = NULL, *path = NULL;
    bool pretty = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-f") == 0 && i + 1 < argc)
            from_spec = argv[++i];
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
            to_spec = argv[++i];
        else if (strcmp(argv[i], "--pretty") == 0)
            pretty = true;
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return usage(), 0;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage();
        else if (!path)
            path = argv[i];
        else
            return usage();
    }
    if (!from_spec || !to_spec)
        return usage();
    char spec[512];
    if (pretty && pretty_spec(to_spec, spec, sizeof spec))
        return usage();
    codec_error err = {0};
    codec *from = codec_parse(from_spec, codec_value_type(), &err);
    codec *to = from ? codec_parse(pretty ? spec : to_spec, codec_value_type(), &err) : NULL;
    int rc = CODEC_E_USAGE;
    if (from && to) {
        codec_buf in;
        codec_buf_init(&in, NULL);
        rc = cmd_read_input(path, &in, &err);
        if (!rc)
            rc = convert(from, to, &in, &err);
        codec_buf_free(&in);
    }
    if (rc)
        cmd_print_error("convert", &err);
    codec_free(from);
    codec_free(to);
    if (rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED)
        return 1;
    return rc;
}
