/* cmd_convert.c — `codec convert -f FROM -t TO [--pretty] [FILE]`: decodes
 * the input as a schemaless value with the FROM spec and writes it to
 * standard output with the TO spec (json, json:pretty, cbor, msgpack, any
 * of them followed by transforms). Exit 0, 1 for invalid input, 2 usage,
 * 5 when the value cannot be written in TO (e.g. a byte string into JSON,
 * which has no bytes: the error names where it is). */
#include "cmd_input.h"

#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: codec convert -f FROM -t TO [--pretty] [FILE]\n"
                    "  FROM, TO  backend specs, e.g. json, json:pretty, cbor, msgpack\n"
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

/* What each backend cannot hold, and whether its output is text (then a
 * newline ends it). One row per backend; an unlisted one is binary and is
 * left to its own encoder's checks. */
static const struct target {
    const char *name;
    bool text;
    unsigned lacks;   /* bits 1 << codec_value_kind */
} targets[] = {
    {"json", true, 1u << CODEC_V_BYTES},
    {"cbor", false, 0},
    {"msgpack", false, 0},
};

static const struct target *target_of(const char *spec)
{
    size_t n = strcspn(spec, ":| \t");
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
        if (strlen(targets[i].name) == n && strncmp(spec, targets[i].name, n) == 0)
            return &targets[i];
    return NULL;
}

/* The path ($.a[3]) of the first value of a kind in `lacks`, or false. */
static bool find_lacking(const codec_value *v, unsigned lacks, char *path, size_t cap,
                         size_t len)
{
    if (lacks >> v->kind & 1)
        return true;
    if (v->kind == CODEC_V_ARRAY) {
        for (size_t i = 0; i < v->as.array.count; i++) {
            int w = snprintf(path + len, cap - len, "[%zu]", i);
            size_t at = len + (w > 0 && (size_t)w < cap - len ? (size_t)w : 0);
            if (find_lacking(&v->as.array.items[i], lacks, path, cap, at))
                return true;
        }
    } else if (v->kind == CODEC_V_OBJECT) {
        for (size_t i = 0; i < v->as.object.count; i++) {
            const codec_member *m = &v->as.object.members[i];
            int w = snprintf(path + len, cap - len, ".%.*s", (int)(m->key.len > 40 ? 40 : m->key.len),
                             m->key.ptr ? m->key.ptr : "");
            size_t at = len + (w > 0 && (size_t)w < cap - len ? (size_t)w : 0);
            if (find_lacking(&m->value, lacks, path, cap, at))
                return true;
        }
    }
    path[len] = '\0';
    return false;
}

static int check_representable(const codec_value *v, const char *to_spec, codec_error *err)
{
    const struct target *t = target_of(to_spec);
    char path[160] = "$";
    if (!t || !t->lacks || !find_lacking(v, t->lacks, path, sizeof path, 1))
        return CODEC_OK;
    return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "convert", CODEC_NO_OFFSET,
                           "the byte string at %s has no %s form", path, t->name);
}

static int convert(const codec *from, const codec *to, const char *to_spec, const codec_buf *in,
                   codec_error *err)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, in->len + 4096);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_value v;
    const struct target *t = target_of(to_spec);
    bool newline = t && t->text && !strchr(to_spec, '|');
    int rc = codec_decode(from, in->data, in->len, &v, &arena, err);
    if (!rc)
        rc = check_representable(&v, to_spec, err);
    if (!rc)
        rc = codec_encode(to, &v, &out, err);
    if (!rc && (fwrite(out.data, 1, out.len, stdout) != out.len ||
                (newline && fputc('\n', stdout) == EOF)))
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
            rc = convert(from, to, pretty ? spec : to_spec, &in, &err);
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
