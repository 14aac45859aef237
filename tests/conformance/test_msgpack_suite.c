/* test_msgpack_suite.c — kawanet/msgpack-test-suite
 * (tests/data/msgpack/msgpack-test-suite.json): for each of its 85 cases,
 * every listed encoding decodes to the case's value (schemaless values;
 * timestamps into codec_timestamp; ext values into codec_msgpack_ext), and
 * our encoding of the value is the first listed encoding (the preferred
 * one), or a listed one of the same length (int 64 d3 vs uint 64 cf for
 * 2^63-1; floats that are integers are shorter but are not integers). */
#include "check.h"
#include "value_util.h"

#include <stdlib.h>

static codec_arena arena;
static codec *vc, *tc, *xc;

/* The expected value of a case as a codec_value (or the typed value). */
typedef struct expected {
    const codec *c;          /* the codec to use */
    codec_value v;           /* schemaless cases */
    codec_timestamp ts;
    codec_msgpack_ext ext;
    void *value;             /* what to encode: &v, &ts or &ext */
} expected;

static void bytes_value(const codec_value *hex, codec_value *out)
{
    uint8_t *p = codec_arena_alloc(&arena, hex->as.s.len / 2 + 1, 1);
    long n = vu_hex(hex->as.s.ptr, hex->as.s.len, p, hex->as.s.len / 2 + 1);
    CHECK(n >= 0);
    out->kind = CODEC_V_BYTES;
    out->as.bytes = (codec_bytes){p, (size_t)(n < 0 ? 0 : n)};
}

static void expected_of(const codec_value *cs, expected *e)
{
    memset(e, 0, sizeof *e);
    e->c = vc;
    e->value = &e->v;
    const codec_value *x;
    if ((x = codec_value_get(cs, "timestamp", 9))) {
        e->c = tc;
        e->value = &e->ts;
        e->ts.seconds = x->as.array.items[0].as.i;
        e->ts.nanos = (int32_t)x->as.array.items[1].as.i;
    } else if ((x = codec_value_get(cs, "ext", 3))) {
        codec_value data;
        bytes_value(&x->as.array.items[1], &data);
        e->c = xc;
        e->value = &e->ext;
        e->ext.type = (int8_t)x->as.array.items[0].as.i;
        e->ext.data = data.as.bytes;
    } else if ((x = codec_value_get(cs, "binary", 6))) {
        bytes_value(x, &e->v);
    } else if ((x = codec_value_get(cs, "number", 6))) {
        e->v = *x;
    } else if ((x = codec_value_get(cs, "bignum", 6))) {
        char text[32];
        snprintf(text, sizeof text, "%.*s", (int)x->as.s.len, x->as.s.ptr);
        if (text[0] == '-' || strtoull(text, NULL, 10) <= INT64_MAX)
            e->v.kind = CODEC_V_INT, e->v.as.i = strtoll(text, NULL, 10);
        else
            e->v.kind = CODEC_V_UINT, e->v.as.u = strtoull(text, NULL, 10);
    } else {
        static const char *const keys[] = {"nil", "bool", "string", "array", "map"};
        for (size_t i = 0; i < 5 && !x; i++)
            x = codec_value_get(cs, keys[i], strlen(keys[i]));
        CHECK(x != NULL);
        if (x)
            e->v = *x;
    }
}

static bool same(const expected *e, const void *got)
{
    if (e->value == &e->ts) {
        const codec_timestamp *t = got;
        return t->seconds == e->ts.seconds && t->nanos == e->ts.nanos;
    }
    if (e->value == &e->ext) {
        const codec_msgpack_ext *x = got;
        return x->type == e->ext.type && x->data.len == e->ext.data.len &&
               (x->data.len == 0 || memcmp(x->data.data, e->ext.data.data, x->data.len) == 0);
    }
    return vu_equal(&e->v, got);
}

static void check_case(const char *group, const codec_value *cs)
{
    expected e;
    expected_of(cs, &e);
    const codec_value *list = codec_value_get(cs, "msgpack", 7);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    CHECK_INT(codec_encode(e.c, e.value, &out, &err), 0);
    bool ours_listed = false;
    size_t first_len = 0;
    for (size_t i = 0; i < list->as.array.count; i++) {
        const codec_value *hex = &list->as.array.items[i];
        uint8_t bytes[512];
        long n = vu_hex(hex->as.s.ptr, hex->as.s.len, bytes, sizeof bytes);
        union {
            codec_value v;
            codec_timestamp ts;
            codec_msgpack_ext ext;
        } got;
        bool ok = n >= 0 && codec_decode(e.c, bytes, (size_t)n, &got, &arena, &err) == 0 &&
                  same(&e, &got);
        if (!ok)
            fprintf(stderr, "%s: %.*s does not decode to the value\n", group,
                    (int)hex->as.s.len, hex->as.s.ptr);
        CHECK(ok);
        if (i == 0)
            first_len = (size_t)n;
        if (n >= 0 && (size_t)n == out.len && memcmp(bytes, out.data, out.len) == 0)
            ours_listed = true;
    }
    if (!ours_listed || out.len != first_len) {
        fprintf(stderr, "%s: our encoding (%zu bytes) is not the first listed one or as short\n", group,
                out.len);
        CHECK(false);
    }
    codec_buf_free(&out);
}

int main(void)
{
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    vc = codec_parse("msgpack", codec_value_type(), &err);
    tc = codec_parse("msgpack", CODEC_TIMESTAMP, &err);
    xc = codec_parse("msgpack", CODEC_MSGPACK_EXT, &err);
    CHECK(vc && tc && xc);
    size_t n;
    uint8_t *text = vu_read_file(CODEC_TEST_DATA "/msgpack/msgpack-test-suite.json", &n, &arena);
    codec_value all;
    CHECK(text && vu_parse_json(text, n, &all, &arena) == 0);
    size_t cases = 0;
    for (size_t g = 0; g < all.as.object.count; g++) {
        const codec_member *m = &all.as.object.members[g];
        char group[64];
        snprintf(group, sizeof group, "%.*s", (int)m->key.len, m->key.ptr);
        for (size_t i = 0; i < m->value.as.array.count; i++, cases++)
            check_case(group, &m->value.as.array.items[i]);
    }
    CHECK_INT(cases, 85);
    codec_free(vc);
    codec_free(tc);
    codec_free(xc);
    codec_arena_free(&arena);
    return check_done("test_msgpack_suite");
}
