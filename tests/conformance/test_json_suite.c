/* test_json_suite.c — JSONTestSuite (nst/JSONTestSuite, MIT, copied under
 * tests/data/json/JSONTestSuite): every y_ case accepted, every n_ case
 * rejected, each i_ case as docs/formats/json.md documents, both by the
 * syntax validator (codec_json_validate) and by schemaless decoding. Every
 * accepted document also round-trips: decode, encode, decode, encode gives
 * the same text twice. */
#include "check.h"
#include "codec/codec.h"

#include <dirent.h>

#define SUITE CODEC_TEST_DATA "/json/JSONTestSuite/test_parsing"

/* The i_ cases codec accepts; every other i_ case is rejected.
 * `syntax` is the validator's answer, `value` schemaless decoding's. */
static const struct {
    const char *name;
    bool syntax, value;
} accepted_i[] = {
    /* Numbers are grammatical; as values, integers beyond 64 bits become the
     * nearest double, underflow becomes 0, overflow to infinity is refused. */
    {"i_number_double_huge_neg_exp.json", true, true},
    {"i_number_real_underflow.json", true, true},
    {"i_number_too_big_neg_int.json", true, true},
    {"i_number_too_big_pos_int.json", true, true},
    {"i_number_very_big_negative_int.json", true, true},
    {"i_number_huge_exp.json", true, false},
    {"i_number_neg_int_huge_exp.json", true, false},
    {"i_number_pos_double_huge_exp.json", true, false},
    {"i_number_real_neg_overflow.json", true, false},
    {"i_number_real_pos_overflow.json", true, false},
};

static int find_i(const char *name, bool *syntax, bool *value)
{
    *syntax = *value = false;
    for (size_t i = 0; i < sizeof accepted_i / sizeof accepted_i[0]; i++)
        if (strcmp(accepted_i[i].name, name) == 0) {
            *syntax = accepted_i[i].syntax;
            *value = accepted_i[i].value;
            return 1;
        }
    return 0;
}

/* Encodes v, decodes the text, encodes again: both texts must match. */
static void round_trip(const codec *c, const codec_value *v, const char *name)
{
    codec_buf a, b;
    codec_buf_init(&a, NULL);
    codec_buf_init(&b, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err = {0};
    codec_value back;
    bool ok = codec_encode(c, v, &a, &err) == 0 &&
              codec_decode(c, a.data, a.len, &back, &arena, &err) == 0 &&
              codec_encode(c, &back, &b, &err) == 0 && a.len == b.len &&
              memcmp(a.data, b.data, a.len) == 0;
    if (!ok) {
        fprintf(stderr, "%s: round trip failed: %s\n", name, err.message);
        CHECK(0);
    }
    codec_arena_free(&arena);
    codec_buf_free(&a);
    codec_buf_free(&b);
}

int main(void)
{
    codec_error err = {0};
    /* The suite has duplicate keys among its y_ cases (RFC 8259 allows
     * them), so the value decoder runs with duplicates=allow here. */
    codec *c = codec_parse("json:duplicates=allow", codec_value_type(), &err);
    CHECK(c != NULL);
    DIR *d = opendir(SUITE);
    CHECK(d != NULL);
    if (!d || !c)
        return check_done("test_json_suite");
    int y = 0, n = 0, i_count = 0, i_listed = 0;
    struct dirent *e;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        if (strlen(name) < 6 || strcmp(name + strlen(name) - 5, ".json") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", SUITE, name);
        size_t len;
        unsigned char *doc = check_read_file(path, &len);
        CHECK(doc != NULL);
        if (!doc)
            continue;
        bool want_syntax, want_value;
        if (name[0] == 'y')
            want_syntax = want_value = true, y++;
        else if (name[0] == 'n')
            want_syntax = want_value = false, n++;
        else
            i_listed += find_i(name, &want_syntax, &want_value), i_count++;
        bool got_syntax = codec_json_validate(doc, len, NULL, NULL) == 0;
        codec_value v;
        codec_arena_reset(&arena);
        bool got_value = codec_decode(c, doc, len, &v, &arena, &err) == 0;
        if (got_syntax != want_syntax || got_value != want_value) {
            fprintf(stderr, "%s: syntax %d (want %d), value %d (want %d): %s\n", name,
                    got_syntax, want_syntax, got_value, want_value,
                    got_value ? "" : err.message);
            CHECK(0);
        }
        if (got_value)
            round_trip(c, &v, name);
        free(doc);
    }
    closedir(d);
    CHECK_INT(y, 95);
    CHECK_INT(n, 188);
    CHECK_INT(i_count, 35);
    CHECK_INT(i_listed, (int)(sizeof accepted_i / sizeof accepted_i[0]));

    /* Default decoding refuses duplicate keys, which the y_ cases contain. */
    codec *strict = codec_parse("json", codec_value_type(), &err);
    codec_value v;
    const char *dup = "{\"a\":\"b\",\"a\":\"c\"}";
    CHECK_INT(codec_decode(strict, (const uint8_t *)dup, strlen(dup), &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    /* 500 nested arrays exceed the default depth of 128 but pass with more. */
    char deep[1001];
    memset(deep, '[', 500);
    memset(deep + 500, ']', 500);
    CHECK_INT(codec_decode(strict, (const uint8_t *)deep, 1000, &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(err.offset, 128);
    codec *deeper = codec_parse("json:max-depth=500", codec_value_type(), &err);
    CHECK_INT(codec_decode(deeper, (const uint8_t *)deep, 1000, &v, &arena, &err), 0);
    codec_free(deeper);
    codec_free(strict);
    codec_arena_free(&arena);
    codec_free(c);
    return check_done("test_json_suite");
}
