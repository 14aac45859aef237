/* test_json_python.c — interop with a real peer: Python's json module
 * (/usr/bin/python3) parses 300 random documents written by codec and
 * writes them back with every non-ASCII character escaped (\uXXXX, with
 * surrogate pairs); codec parses Python's text and must get the very same
 * values back: bit-identical doubles (subnormals, extremes), exact integers
 * beyond 2^53 and 2^63, every kind of string. */
#include "check.h"
#include "codec/codec.h"

#include <float.h>
#include <math.h>
#include <unistd.h>

#define DOCS 300

static codec_arena arena;

static double random_double(uint64_t *rng)
{
    static const double special[] = {0.0, -0.0, 5e-324, 2.2250738585072014e-308, DBL_MAX,
                                     -DBL_MAX, 9007199254740993.0, 1e21, 1e-7, 0.1, 123.0};
    uint64_t r = check_rand(rng);
    if (r % 3 == 0)
        return special[(r >> 8) % (sizeof special / sizeof special[0])];
    double d;
    uint64_t bits = check_rand(rng);
    memcpy(&d, &bits, 8);
    return isfinite(d) ? d : 1.5;
}

static codec_string random_string(uint64_t *rng)
{
    static const char *const parts[] = {"a", "\"", "\\", "/", "\n", "\x01", "\x7f", "\xc3\xa9",
                                        "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbf",
                                        "\xf4\x8f\xbf\xbf", " ", "key"};
    size_t n = check_rand(rng) % 8;
    char *p = codec_arena_alloc(&arena, n * 4 + 1, 1), *q = p;
    for (size_t i = 0; i < n; i++) {
        const char *part = parts[check_rand(rng) % 14];
        memcpy(q, part, strlen(part));
        q += strlen(part);
    }
    return (codec_string){p, (size_t)(q - p)};
}

static void random_value(codec_value *v, uint64_t *rng, int depth)
{
    uint64_t r = check_rand(rng);
    int kind = depth > 3 ? (int)(r % 6) : (int)(r % 8);
    memset(v, 0, sizeof *v);
    switch (kind) {
    case 0: v->kind = CODEC_V_NULL; break;
    case 1: v->kind = CODEC_V_BOOL, v->as.b = r >> 10 & 1; break;
    case 2: v->kind = CODEC_V_INT, v->as.i = (int64_t)check_rand(rng) >> (r >> 10) % 64; break;
    case 3: v->kind = CODEC_V_UINT, v->as.u = (uint64_t)INT64_MAX + 1 + (check_rand(rng) >> 1); break;
    case 4: v->kind = CODEC_V_DOUBLE, v->as.d = random_double(rng); break;
    case 5: v->kind = CODEC_V_STRING, v->as.s = random_string(rng); break;
    case 6: {
        size_t n = r >> 20 & 3;
        v->kind = CODEC_V_ARRAY;
        v->as.array.items = codec_arena_alloc(&arena, (n + 1) * sizeof(codec_value), 0);
        v->as.array.count = n;
        for (size_t i = 0; i < n; i++)
            random_value(&v->as.array.items[i], rng, depth + 1);
        break;
    }
    default: {
        size_t n = r >> 20 & 3;
        v->kind = CODEC_V_OBJECT;
        v->as.object.members = codec_arena_alloc(&arena, (n + 1) * sizeof(codec_member), 0);
        v->as.object.count = n;
        for (size_t i = 0; i < n; i++) {
            char *k = codec_arena_alloc(&arena, 24, 1);
            codec_string extra = random_string(rng);
            int len = snprintf(k, 24, "k%zu", i);   /* unique keys */
            char *key = codec_arena_alloc(&arena, (size_t)len + extra.len + 1, 1);
            memcpy(key, k, (size_t)len);
            memcpy(key + len, extra.ptr, extra.len);
            v->as.object.members[i].key = (codec_string){key, (size_t)len + extra.len};
            random_value(&v->as.object.members[i].value, rng, depth + 1);
        }
    }
    }
}

static bool same(const codec_value *a, const codec_value *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case CODEC_V_NULL: return true;
    case CODEC_V_BOOL: return a->as.b == b->as.b;
    case CODEC_V_INT: return a->as.i == b->as.i;
    case CODEC_V_UINT: return a->as.u == b->as.u;
    case CODEC_V_DOUBLE: return memcmp(&a->as.d, &b->as.d, 8) == 0;
    case CODEC_V_STRING:
        return a->as.s.len == b->as.s.len && (!a->as.s.len || !memcmp(a->as.s.ptr, b->as.s.ptr, a->as.s.len));
    case CODEC_V_ARRAY:
        if (a->as.array.count != b->as.array.count)
            return false;
        for (size_t i = 0; i < a->as.array.count; i++)
            if (!same(&a->as.array.items[i], &b->as.array.items[i]))
                return false;
        return true;
    case CODEC_V_OBJECT:
        if (a->as.object.count != b->as.object.count)
            return false;
        for (size_t i = 0; i < a->as.object.count; i++) {
            const codec_member *x = &a->as.object.members[i], *y = &b->as.object.members[i];
            codec_value kx = {.kind = CODEC_V_STRING, .as.s = x->key};
            codec_value ky = {.kind = CODEC_V_STRING, .as.s = y->key};
            if (!same(&kx, &ky) || !same(&x->value, &y->value))
                return false;
        }
        return true;
    default: return false;
    }
}

int main(void)
{
    if (access("/usr/bin/python3", X_OK) != 0) {
        printf("test_json_python: /usr/bin/python3 missing, skipped\n");
        return 0;
    }
    codec_arena_init(&arena, NULL, 0);
    codec_error err = {0};
    codec *c = codec_parse("json", codec_value_type(), &err);
    char path[] = "/tmp/codec_json_pyXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    static codec_value docs[DOCS];
    uint64_t rng = 20260811;
    codec_buf out;
    codec_buf_init(&out, NULL);
    for (int i = 0; i < DOCS; i++) {
        random_value(&docs[i], &rng, 0);
        codec_buf_clear(&out);
        CHECK_INT(codec_encode(c, &docs[i], &out, &err), 0);
        fwrite(out.data, 1, out.len, f);
        fputc('\n', f);
    }
    fclose(f);
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c 'import json,sys\n"
             "for line in open(sys.argv[1], encoding=\"utf-8\"):\n"
             "    print(json.dumps(json.loads(line)))' %s", path);
    FILE *py = popen(cmd, "r");
    CHECK(py != NULL);
    static char line[1 << 20];
    int agreed = 0;
    codec_arena back_arena;
    codec_arena_init(&back_arena, NULL, 0);
    for (int i = 0; i < DOCS && py && fgets(line, sizeof line, py); i++) {
        size_t n = strlen(line);
        codec_value back;
        codec_arena_reset(&back_arena);
        if (codec_decode(c, (const uint8_t *)line, n, &back, &back_arena, &err) == 0 &&
            same(&docs[i], &back))
            agreed++;
        else
            fprintf(stderr, "document %d differs after Python: %s%s", i, line, err.message);
    }
    CHECK(py && pclose(py) == 0);
    CHECK_INT(agreed, DOCS);
    unlink(path);
    codec_buf_free(&out);
    codec_arena_free(&back_arena);
    codec_arena_free(&arena);
    codec_free(c);
    return check_done("test_json_python");
}
