/* test_cbor_appendix.c — every example of RFC 8949 Appendix A
 * (tests/data/cbor/appendix_a.json): each decodes to its "decoded" JSON
 * value (through codec_value) or prints as its "diagnostic" notation, and
 * each marked "roundtrip" encodes back to the same bytes, both through a
 * generic item copy (tags, simple values) and through codec_value where
 * the value has that form. Bignums beyond 64 bits decode into a decimal
 * field and are rejected by codec_value with an invalid-payload error.
 * RFC 7049's simple(24) (f8 18) is not well-formed under RFC 8949 and must
 * be rejected. */
#include "check.h"
#include "value_util.h"
#include "formats/cbor/cbor_internal.h"

static codec_arena arena;

/* Re-encodes one item in preferred form (shortest heads and floats). */
static int copy_item(cbor_rd *r, codec_buf *out)
{
    cbor_head h;
    int rc = cbor_read_head(r, &h);
    if (rc || cbor_room(out, 9, NULL))
        return -1;
    if (h.major == CBOR_SIMPLE) {
        if (h.ai >= 25 && h.ai <= 27)
            return cbor_out_double(out, cbor_head_double(&h), NULL);
        return codec_buf_append(out, r->base + h.at, (size_t)(r->p - r->base) - h.at);
    }
    if (h.indefinite)
        return -1;
    if (cbor_out_head(out, h.major, h.arg, NULL))
        return -1;
    switch (h.major) {
    case CBOR_BYTES:
    case CBOR_TEXT:
        if (codec__cbor_check_string(r, &h) || codec_buf_append(out, r->p, (size_t)h.arg))
            return -1;
        r->p += h.arg;
        return 0;
    case CBOR_ARRAY:
    case CBOR_MAP:
        for (uint64_t i = 0; i < h.arg * (h.major == CBOR_MAP ? 2 : 1); i++)
            if (copy_item(r, out))
                return -1;
        return 0;
    case CBOR_TAG: return copy_item(r, out);
    default: return 0;
    }
}

static void check_vector(const codec_value *vec, const codec *vc, const codec *dc, int index)
{
    const codec_value *hex = codec_value_get(vec, "hex", 3);
    const codec_value *rt = codec_value_get(vec, "roundtrip", 9);
    const codec_value *decoded = codec_value_get(vec, "decoded", 7);
    const codec_value *diag = codec_value_get(vec, "diagnostic", 10);
    uint8_t bytes[512];
    long n = vu_hex(hex->as.s.ptr, hex->as.s.len, bytes, sizeof bytes);
    CHECK(n > 0);
    codec_value v;
    codec_error err;
    int rc = codec_decode(vc, bytes, (size_t)n, &v, &arena, &err);
    bool ok = true;
    if (n == 2 && bytes[0] == 0xf8 && bytes[1] < 32) {
        /* RFC 7049's simple(24) example: RFC 8949 §3.3 made a two-byte
         * simple value below 32 not well-formed, so it must be rejected. */
        codec_buf out;
        codec_buf_init(&out, NULL);
        ok = rc == CODEC_E_INVALID_PAYLOAD && err.detail == CODEC_D_CORRUPT &&
             codec_cbor_diagnose(bytes, (size_t)n, &out, &err) == CODEC_E_INVALID_PAYLOAD;
        codec_buf_free(&out);
        CHECK(ok);
        return;
    }
    if (decoded && !rc) {
        ok = vu_equal(&v, decoded);
    } else if (decoded) {
        /* Only integers beyond 64 bits lack a codec_value form: they must
         * come out exactly as decimal text. */
        codec_string text;
        char digits[64] = "";
        ok = err.family == CODEC_E_INVALID_PAYLOAD && decoded->kind == CODEC_V_DOUBLE &&
             !codec_decode(dc, bytes, (size_t)n, &text, &arena, &err);
        if (ok)
            snprintf(digits, sizeof digits, "%.*s", (int)text.len, text.ptr);
        ok = ok && strspn(digits, "-0123456789") == text.len &&
             strtod(digits, NULL) == decoded->as.d;
    } else {
        codec_buf out;
        codec_buf_init(&out, NULL);
        ok = !codec_cbor_diagnose(bytes, (size_t)n, &out, &err) && out.len == diag->as.s.len &&
             memcmp(out.data, diag->as.s.ptr, out.len) == 0;
        if (!ok)
            fprintf(stderr, "diag %.*s vs %.*s\n", (int)out.len, out.data,
                    (int)diag->as.s.len, diag->as.s.ptr);
        /* codec_value either holds it or says why not. */
        ok = ok && (rc == 0 || err.family == CODEC_E_INVALID_PAYLOAD);
        codec_buf_free(&out);
    }
    if (ok && rt->as.b) {
        codec_buf out;
        codec_buf_init(&out, NULL);
        codec_cbor_options o;
        codec__cbor_options_resolve(NULL, &o);
        cbor_rd r = {.base = bytes, .p = bytes, .end = bytes + n, .o = &o, .arena = &arena};
        ok = !copy_item(&r, &out) && out.len == (size_t)n && !memcmp(out.data, bytes, out.len);
        if (ok && decoded && !rc) {
            codec_buf_clear(&out);
            ok = !codec_encode(vc, &v, &out, &err) && out.len == (size_t)n &&
                 !memcmp(out.data, bytes, out.len);
        }
        codec_buf_free(&out);
    }
    if (!ok)
        fprintf(stderr, "appendix A vector %d (%.*s) failed\n", index, (int)hex->as.s.len,
                hex->as.s.ptr);
    CHECK(ok);
}

int main(void)
{
    codec_arena_init(&arena, NULL, 0);
    size_t n;
    uint8_t *text = vu_read_file(CODEC_TEST_DATA "/cbor/appendix_a.json", &n, &arena);
    CHECK(text != NULL);
    codec_value all;
    CHECK(text && vu_parse_json(text, n, &all, &arena) == 0);
    codec_error err;
    codec *vc = codec_parse("cbor", codec_value_type(), &err);
    codec *dc = codec_parse("cbor", CODEC_DECIMAL, &err);
    CHECK(vc && dc);
    CHECK_INT(all.as.array.count, 82);
    for (size_t i = 0; i < all.as.array.count; i++)
        check_vector(&all.as.array.items[i], vc, dc, (int)i);
    codec_free(vc);
    codec_free(dc);
    codec_arena_free(&arena);
    return check_done("test_cbor_appendix");
}
