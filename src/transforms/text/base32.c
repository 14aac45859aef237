/* base32.c — RFC 4648 §6/§7 base32 and the unpadded presets crockford,
 * z-base-32 and geohash (docs/formats/text.md; the table is in
 * WIRE-FORMATS.md).
 *
 * Decoding is strict: symbols outside the alphabet, a padded length that is
 * not a multiple of 8, a pad count other than 1, 3, 4 or 6, padding before
 * the end and nonzero trailing bits are all rejected, with the offset of the
 * first offending character. Bulk work runs in the kernel chosen at
 * construction; tails and every error decision are here. */
#include "text_internal.h"
#include "core/error_internal.h"

#include <string.h>

typedef enum b32_variant { B32_STD, B32_HEX, B32_CROCKFORD, B32_Z, B32_GEOHASH } b32_variant;

typedef struct b32_state {
    b32_tables t;
    bool padded;
    text_code code;         /* points into t */
    b32_fn encode_bulk;     /* NULL: scalar only */
    b32_fn decode_bulk;
    text_lines lines;       /* wrap= and lines= */
} b32_state;

static const char *const alphabets[] = {
    [B32_STD] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    [B32_HEX] = "0123456789ABCDEFGHIJKLMNOPQRSTUV",
    [B32_CROCKFORD] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
    [B32_Z] = "ybndrfg8ejkmcpqxot1uwisza345h769",
    [B32_GEOHASH] = "0123456789bcdefghjkmnpqrstuvwxyz",
};

/* ---- scalar kernels -------------------------------------------------- */

static uint64_t load40(const uint8_t *p)
{
    return (uint64_t)p[0] << 32 | (uint64_t)p[1] << 24 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 8 | p[4];
}

static size_t b32_encode_scalar(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; i + 5 <= n; i += 5, dst += 8) {
        uint64_t v = load40(src + i);
        uint16_t four[4] = {t->enc10[v >> 30], t->enc10[v >> 20 & 1023], t->enc10[v >> 10 & 1023],
                            t->enc10[v & 1023]};
        memcpy(dst, four, 8);
    }
    return i;
}

static size_t b32_decode_scalar(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8, dst += 5) {
        const uint8_t *q = src + i;
        uint64_t v =
            (t->dec40[0][q[0]] | t->dec40[1][q[1]]) | (t->dec40[2][q[2]] | t->dec40[3][q[3]]) |
            ((t->dec40[4][q[4]] | t->dec40[5][q[5]]) | (t->dec40[6][q[6]] | t->dec40[7][q[7]]));
        if (v >> 63)
            break;
        for (size_t j = 0; j < 5; j++)
            dst[j] = (uint8_t)(v >> (32 - 8 * j));
    }
    return i;
}

/* ---- encode ---------------------------------------------------------- */

static int b32_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const b32_state *st = s->state;
    if (n == 0) /* nothing to write, and out may have no memory yet */
        return CODEC_OK;
    if (n > SIZE_MAX / 2)
        return codec__nomem(err, s->name);
    size_t rem = n % 5;
    size_t rem_syms = (rem * 8 + 4) / 5;
    size_t total = n / 5 * 8 + (rem && st->padded ? 8 : rem_syms);
    if (codec_buf_reserve(out, total))
        return codec__nomem(err, s->name);
    uint8_t *dst = out->data + out->len;
    size_t done = st->encode_bulk ? st->encode_bulk(&st->t, src, n, dst) : 0;
    done += b32_encode_scalar(&st->t, src + done, n - done, dst + done / 5 * 8);
    if (rem) {
        uint8_t last[5] = {0};
        memcpy(last, src + done, rem);
        uint64_t v = load40(last);
        uint8_t *p = dst + done / 5 * 8;
        for (size_t j = 0; j < rem_syms; j++)
            p[j] = (uint8_t)st->t.alphabet[v >> (35 - 5 * j) & 31];
        if (st->padded)
            memset(p + rem_syms, '=', 8 - rem_syms);
    }
    size_t base = out->len;
    out->len += total;
    return codec__text_wrap(s, &st->lines, out, base, err);
}

/* ---- decode ---------------------------------------------------------- */

/* Decodes the last group q[0..len) (len 1..8; symbols, then '=' where
 * padded) starting at input offset `at`; writes its bytes at dst. */
static int decode_last(const codec_stage *s, const uint8_t *q, size_t len, size_t at,
                       uint8_t *dst, size_t *written, codec_error *err)
{
    const b32_state *st = s->state;
    size_t off[8], syms;
    for (size_t j = 0; j < len; j++)
        off[j] = at + j;
    int rc = codec__text_last_group_symbols(s, &st->code, q, off, len, &syms, err);
    if (rc)
        return rc;
    /* 8 - syms pads (or missing symbols) must be 0, 1, 3, 4 or 6. */
    static const uint8_t bytes_of[9] = {0xFF, 0xFF, 1, 0xFF, 2, 3, 0xFF, 4, 5};
    if (bytes_of[syms] == 0xFF) {
        if (st->padded)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at + syms,
                              "%zu padding characters (expected 1, 3, 4 or 6)", 8 - syms);
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, at + len,
                          "a final group of %zu symbols is impossible", syms);
    }
    uint64_t v = 0;
    for (size_t j = 0; j < 8; j++)
        v = v << 5 | (j < syms ? st->t.dec[q[j]] : 0);
    size_t nbytes = bytes_of[syms];
    if (nbytes < 5 && (v & (((uint64_t)1 << (40 - 8 * nbytes)) - 1)))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at + syms - 1,
                          "nonzero trailing bits");
    for (size_t j = 0; j < nbytes; j++)
        dst[j] = (uint8_t)(v >> (32 - 8 * j));
    *written = nbytes;
    return CODEC_OK;
}

static int b32_decode_text(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                           codec_error *err)
{
    const b32_state *st = s->state;
    if (n == 0) /* nothing to write, and out may have no memory yet */
        return CODEC_OK;
    int rc = codec__stage_check_cap(s, n / 8 * 5 + 4, err);
    if (rc)
        return rc;
    if (codec_buf_reserve(out, n / 8 * 5 + 5))
        return codec__nomem(err, s->name);
    uint8_t *dst = out->data + out->len;
    size_t full = n / 8 * 8;
    size_t p = st->decode_bulk ? st->decode_bulk(&st->t, src, full, dst) : 0;
    p += b32_decode_scalar(&st->t, src + p, full - p, dst + p / 8 * 5);
    size_t tail;
    rc = codec__text_find_last_group(s, &st->code, src, n, p, &tail, err);
    if (rc)
        return rc;
    size_t written = 0;
    if (tail) {
        rc = decode_last(s, src + p, tail, p, dst + p / 8 * 5, &written, err);
        if (rc)
            return rc;
    }
    out->len += p / 8 * 5 + written;
    return CODEC_OK;
}

/* ---- construction ---------------------------------------------------- */

static void b32_build_tables(b32_tables *t, b32_variant v)
{
    const char *abc = alphabets[v];
    memcpy(t->alphabet, abc, 33);
    memset(t->dec, 0xFF, sizeof t->dec);
    for (uint8_t i = 0; i < 32; i++) {
        uint8_t c = (uint8_t)abc[i];
        t->dec[c] = i;
        if (v == B32_CROCKFORD && c >= 'A' && c <= 'Z')
            t->dec[c | 0x20] = i;
    }
    if (v == B32_CROCKFORD) {
        t->dec['I'] = t->dec['i'] = t->dec['L'] = t->dec['l'] = 1;
        t->dec['O'] = t->dec['o'] = 0;
    }
    for (size_t k = 0; k < 8; k++)
        for (size_t c = 0; c < 256; c++)
            t->dec40[k][c] = t->dec[c] == 0xFF ? (uint64_t)1 << 63
                                               : (uint64_t)t->dec[c] << (35 - 5 * k);
    for (size_t x = 0; x < 1024; x++) {
        uint8_t two[2] = {(uint8_t)abc[x >> 5], (uint8_t)abc[x & 31]};
        memcpy(&t->enc10[x], two, 2);
    }
    codec__text_build_decode128(t->dec128, t->dec);
}

static int b32_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const b32_state *st = s->state;
    return st->lines.skip ? codec__text_decode_skipping(s, src, n, out, b32_decode_text, err)
                          : b32_decode_text(s, src, n, out, err);
}

static int b32_stream_open(const codec_stage *s, bool decode, struct codec__sstream **out,
                           codec_error *err)
{
    const b32_state *st = s->state;
    return codec__text_stream_open(s, &st->lines, decode, out, err);
}

static void b32_destroy(codec_stage *s)
{
    codec_default_allocator()->release(NULL, s->state, sizeof(b32_state));
}

static const codec_stage_ops b32_ops = {.encode = b32_encode,
                                        .decode = b32_decode,
                                        .destroy = b32_destroy,
                                        .stream_open = b32_stream_open};

int codec__stage_ctor_base32(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    static const char *const presets[] = {"std", "hex", "crockford", "z", "geohash", NULL};
    size_t which;
    text_isa isa;
    int rc = codec__args_choice(a, "preset", true, presets, B32_STD, &which, err);
    if (!rc)
        rc = codec__text_args_kernel(a, TEXT_ISA_BIT(TEXT_ISA_AVX2) | TEXT_ISA_BIT(TEXT_ISA_AVX512),
                              &isa, err);
    const text_layout shape = {5, 8, which == B32_STD || which == B32_HEX, 0, NULL};
    text_lines lines;
    if (!rc)
        rc = codec__text_args_lines(a, &shape, &lines, err);
    if (rc)
        return rc;
    b32_state *st = codec_default_allocator()->alloc(NULL, sizeof *st);
    if (!st)
        return codec__nomem(err, s->name);
    st->lines = lines;
    b32_build_tables(&st->t, (b32_variant)which);
    st->padded = which == B32_STD || which == B32_HEX;
    st->code = (text_code){st->t.dec, 8, st->padded};
    static const b32_fn encoders[] = {NULL, CODEC_KERNEL(codec__b32_encode_avx2),
                                      CODEC_KERNEL(codec__b32_encode_avx512)};
    static const b32_fn decoders[] = {NULL, CODEC_KERNEL(codec__b32_decode_avx2),
                                      CODEC_KERNEL(codec__b32_decode_avx512)};
    st->encode_bulk = encoders[isa];
    st->decode_bulk = decoders[isa];
    s->ops = &b32_ops;
    s->state = st;
    return CODEC_OK;
}
