/* base64.c — RFC 4648 §4/§5 base64: `base64`, `base64:url`,
 * `base64:url-nopad`, `base64:mime` (docs/formats/text.md).
 *
 * The bulk of every call runs in a kernel chosen when the stage is built
 * (kernel=auto|scalar|avx2|avx512); this file holds the scalar kernels, the
 * tails, padding, line breaks and every error decision, so all kernels
 * agree byte for byte and offset for offset. */
#include "text_internal.h"
#include "core/error_internal.h"

#include <string.h>

typedef enum b64_variant { B64_STD, B64_URL, B64_URL_NOPAD, B64_MIME } b64_variant;

#define MIME_LINE 76                     /* characters per line */
#define MIME_LINE_BYTES (MIME_LINE / 4 * 3)

typedef struct b64_state {
    b64_tables t;
    b64_variant variant;
    bool padded;
    text_code code;         /* points into t */
    b64_encode_fn encode_bulk;
    b64_decode_fn decode_bulk;
    text_lines lines;       /* wrap= and lines= */
} b64_state;

static const char std_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char url_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* ---- scalar kernels -------------------------------------------------- */

static size_t b64_encode_scalar(const b64_tables *t, const uint8_t *src, size_t n,
                                uint8_t *dst)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3, dst += 4) {
        uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
        uint16_t pair[2] = {t->enc12[v >> 12], t->enc12[v & 0xFFF]};
        memcpy(dst, pair, 4);
    }
    return i;
}

static size_t b64_decode_scalar(const b64_tables *t, const uint8_t *src, size_t n,
                                uint8_t *dst)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4, dst += 3) {
        uint32_t v = t->dec24[0][src[i]] | t->dec24[1][src[i + 1]] | t->dec24[2][src[i + 2]] |
                     t->dec24[3][src[i + 3]];
        if (v >> 31)
            break;
        dst[0] = (uint8_t)(v >> 16);
        dst[1] = (uint8_t)(v >> 8);
        dst[2] = (uint8_t)v;
    }
    return i;
}

/* ---- encode ---------------------------------------------------------- */

static size_t encoded_chars(const b64_state *st, size_t n)
{
    size_t full = n / 3 * 4, rem = n % 3;
    if (!rem)
        return full;
    return full + (st->padded ? 4 : rem + 1);
}

/* Encodes src[0..n) at dst without line breaks; returns the characters written. */
static size_t encode_run(const b64_state *st, const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t done = st->encode_bulk(&st->t, src, n, dst);
    done += b64_encode_scalar(&st->t, src + done, n - done, dst + done / 3 * 4);
    uint8_t *p = dst + done / 3 * 4;
    const char *abc = st->t.alphabet;
    size_t rem = n - done;
    if (rem) {
        uint32_t v = (uint32_t)src[done] << 16 | (rem == 2 ? (uint32_t)src[done + 1] << 8 : 0);
        *p++ = (uint8_t)abc[v >> 18];
        *p++ = (uint8_t)abc[v >> 12 & 63];
        if (rem == 2)
            *p++ = (uint8_t)abc[v >> 6 & 63];
        if (st->padded) {
            *p++ = '=';
            if (rem == 1)
                *p++ = '=';
        }
    }
    return (size_t)(p - dst);
}

static int b64_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const b64_state *st = s->state;
    if (n == 0) /* nothing to write, and out may have no memory yet */
        return CODEC_OK;
    if (n > SIZE_MAX / 2)
        return codec__nomem(err, s->name);
    size_t chars = encoded_chars(st, n);
    size_t total = chars;
    if (st->variant == B64_MIME && chars)
        total += (chars - 1) / MIME_LINE * 2;
    if (codec_buf_reserve(out, total))
        return codec__nomem(err, s->name);
    uint8_t *dst = out->data + out->len;
    if (st->variant != B64_MIME) {
        encode_run(st, src, n, dst);
    } else {
        for (size_t i = 0; i < n; i += MIME_LINE_BYTES) {
            size_t line = n - i < MIME_LINE_BYTES ? n - i : MIME_LINE_BYTES;
            dst += encode_run(st, src + i, line, dst);
            if (i + line < n) {
                *dst++ = '\r';
                *dst++ = '\n';
            }
        }
    }
    size_t base = out->len;
    out->len += total;
    return codec__text_wrap(s, &st->lines, out, base, err);
}

/* ---- decode ---------------------------------------------------------- */

static int after_padding(const codec_stage *s, size_t off, codec_error *err)
{
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, off,
                      "data after padding");
}

/* Decodes the last quantum q[0..len) (len 1..4; symbols, then '=' where
 * padded); off[] are the input offsets of q[]. Writes 1..3 bytes at dst
 * and their count to *written. */
static int decode_quantum(const codec_stage *s, const uint8_t *q, const size_t *off, size_t len,
                          uint8_t *dst, size_t *written, codec_error *err)
{
    const b64_state *st = s->state;
    size_t syms;
    int rc = codec__text_last_group_symbols(s, &st->code, q, off, len, &syms, err);
    if (rc)
        return rc;
    if (syms < 2)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, off[len - 1] + 1,
                          "a lone base64 character at the end");
    uint32_t v = 0;
    for (size_t j = 0; j < syms; j++)
        v |= (uint32_t)st->t.dec[q[j]] << (18 - 6 * j);
    /* 2 symbols carry 8 bits (+4 spare), 3 carry 16 (+2 spare): spare must be 0. */
    if (syms < 4 && (v & (syms == 2 ? 0xFFFFu : 0xFFu)))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, off[syms - 1],
                          "nonzero trailing bits");
    dst[0] = (uint8_t)(v >> 16);
    dst[1] = (uint8_t)(v >> 8);
    dst[2] = (uint8_t)v;
    *written = syms - 1;
    return CODEC_OK;
}

/* Whole quanta of symbols from src[0..n): kernel first, scalar after it.
 * Stops before the first quantum that holds anything else. */
static size_t decode_bulk(const b64_state *st, const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t done = st->decode_bulk(&st->t, src, n, dst);
    return done + b64_decode_scalar(&st->t, src + done, n - done, dst + done / 4 * 3);
}

/* base64, base64:url, base64:url-nopad: nothing but symbols (and padding). */
static int decode_plain(const codec_stage *s, const uint8_t *src, size_t n, uint8_t *dst,
                        size_t *out_len, codec_error *err)
{
    const b64_state *st = s->state;
    size_t p = decode_bulk(st, src, n / 4 * 4, dst);
    size_t tail;
    int rc = codec__text_find_last_group(s, &st->code, src, n, p, &tail, err);
    if (rc)
        return rc;
    size_t written = 0;
    if (tail) {
        size_t off[4] = {p, p + 1, p + 2, p + 3};
        rc = decode_quantum(s, src + p, off, tail, dst + p / 4 * 3, &written, err);
        if (rc)
            return rc;
    }
    *out_len = p / 4 * 3 + written;
    return CODEC_OK;
}

static bool is_break(uint8_t c)
{
    return c == '\r' || c == '\n';
}

/* base64:mime: CR and LF anywhere are skipped; quanta may span lines; after
 * the padded quantum only line breaks may follow. */
static int decode_mime(const codec_stage *s, const uint8_t *src, size_t n, uint8_t *dst,
                       size_t *out_len, codec_error *err)
{
    const b64_state *st = s->state;
    uint8_t q[4];
    size_t off[4], qn = 0, i = 0;
    uint8_t *w = dst;
    while (i < n) {
        if (is_break(src[i])) {
            i++;
            continue;
        }
        if (qn == 0) {
            /* The bulk stops before the quantum holding the next line break;
             * on a full line, end it there so the kernel takes the whole line. */
            size_t span = n - i;
            if (span > MIME_LINE && is_break(src[i + MIME_LINE]))
                span = MIME_LINE;
            size_t k = decode_bulk(st, src + i, span / 4 * 4, w);
            i += k;
            w += k / 4 * 3;
            if (i == n)
                break;
            if (is_break(src[i]))
                continue;
        }
        uint8_t c = src[i];
        if (st->t.dec[c] == 0xFF && c != '=')
            return codec__text_bad_symbol(s, i, c, err);
        q[qn] = c;
        off[qn++] = i++;
        if (qn < 4)
            continue;
        size_t k;
        int rc = decode_quantum(s, q, off, 4, w, &k, err);
        if (rc)
            return rc;
        w += k;
        qn = 0;
        for (; k < 3 && i < n; i++)
            if (!is_break(src[i]))
                return after_padding(s, i, err);
    }
    if (qn)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "incomplete final quantum");
    *out_len = (size_t)(w - dst);
    return CODEC_OK;
}

static int b64_decode_text(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                           codec_error *err)
{
    const b64_state *st = s->state;
    if (n == 0) /* nothing to write, and out may have no memory yet */
        return CODEC_OK;
    size_t bound = n / 4 * 3 + 3;
    int rc = codec__stage_check_cap(s, n / 4 * 3, err);
    if (rc)
        return rc;
    if (codec_buf_reserve(out, bound))
        return codec__nomem(err, s->name);
    size_t len = 0;
    rc = st->variant == B64_MIME ? decode_mime(s, src, n, out->data + out->len, &len, err)
                                 : decode_plain(s, src, n, out->data + out->len, &len, err);
    if (rc)
        return rc;
    out->len += len;
    return CODEC_OK;
}

/* ---- construction ---------------------------------------------------- */

/* Fills the AVX2 decode tables. Both alphabets need 4 classes (at most 8
 * fit in a byte): the low nibbles valid under high nibble 2, 3, 4/6, 5/7. */
static void b64_build_nibble_classes(b64_tables *t)
{
    uint16_t set[16] = {0}, classes[8];
    size_t count = 0;
    memset(t->class_hi, 0, sizeof t->class_hi);
    memset(t->class_lo, 0, sizeof t->class_lo);
    memset(t->offset, 0, sizeof t->offset);
    for (size_t c = 0; c < 128; c++)
        if (t->dec[c] != 0xFF) {
            set[c >> 4] |= (uint16_t)(1u << (c & 15));
            if (t->dec[c] < 62)
                t->offset[c >> 4] = (int8_t)(t->dec[c] - c);
        }
    for (size_t h = 0; h < 8; h++) {
        if (!set[h])
            continue;
        size_t k = 0;
        while (k < count && classes[k] != set[h])
            k++;
        if (k == count)
            classes[count++] = set[h];
        t->class_hi[h] = (uint8_t)(1u << k);
        for (size_t l = 0; l < 16; l++)
            if (set[h] >> l & 1)
                t->class_lo[l] |= (uint8_t)(1u << k);
    }
}

static void b64_build_tables(b64_tables *t, const char *alphabet)
{
    memcpy(t->alphabet, alphabet, 65);
    memset(t->dec, 0xFF, sizeof t->dec);
    for (size_t i = 0; i < 64; i++)
        t->dec[(uint8_t)alphabet[i]] = (uint8_t)i;
    for (size_t k = 0; k < 4; k++)
        for (size_t c = 0; c < 256; c++)
            t->dec24[k][c] = t->dec[c] == 0xFF ? 1u << 31 : (uint32_t)t->dec[c] << (18 - 6 * k);
    for (size_t v = 0; v < 4096; v++) {
        uint8_t two[2] = {(uint8_t)alphabet[v >> 6], (uint8_t)alphabet[v & 63]};
        memcpy(&t->enc12[v], two, 2);
    }
    codec__text_build_decode128(t->dec128, t->dec);
    b64_build_nibble_classes(t);
}

static int b64_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const b64_state *st = s->state;
    return st->lines.skip ? codec__text_decode_skipping(s, src, n, out, b64_decode_text, err)
                          : b64_decode_text(s, src, n, out, err);
}

static int b64_stream_open(const codec_stage *s, bool decode, struct codec__sstream **out,
                           codec_error *err)
{
    const b64_state *st = s->state;
    return codec__text_stream_open(s, &st->lines, decode, out, err);
}

static void b64_destroy(codec_stage *s)
{
    codec_default_allocator()->release(NULL, s->state, sizeof(b64_state));
}

static const codec_stage_ops b64_ops = {.encode = b64_encode,
                                        .decode = b64_decode,
                                        .destroy = b64_destroy,
                                        .stream_open = b64_stream_open};

int codec__stage_ctor_base64(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    static const char *const variants[] = {"std", "url", "url-nopad", "mime", NULL};
    size_t which;
    text_isa isa;
    int rc = codec__args_choice(a, "variant", true, variants, B64_STD, &which, err);
    if (!rc)
        rc = codec__text_args_kernel(a, TEXT_ISA_BIT(TEXT_ISA_AVX2) | TEXT_ISA_BIT(TEXT_ISA_AVX512),
                              &isa, err);
    const text_layout shape = {3, 4, which != B64_URL_NOPAD, which == B64_MIME ? MIME_LINE : 0,
                               "\r\n"};
    text_lines lines;
    if (!rc)
        rc = codec__text_args_lines(a, &shape, &lines, err);
    if (!rc && lines.wrap && which == B64_MIME)
        rc = codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                             "base64:mime has its own 76-character lines: no wrap=");
    if (rc)
        return rc;
    b64_state *st = codec_default_allocator()->alloc(NULL, sizeof *st);
    if (!st)
        return codec__nomem(err, s->name);
    st->lines = lines;
    st->variant = (b64_variant)which;
    st->padded = st->variant != B64_URL_NOPAD;
    st->code = (text_code){st->t.dec, 4, st->padded};
    b64_build_tables(&st->t, st->variant == B64_URL || st->variant == B64_URL_NOPAD
                                 ? url_alphabet : std_alphabet);
    static const b64_encode_fn encoders[] = {b64_encode_scalar,
                                             CODEC_KERNEL(codec__b64_encode_avx2),
                                             CODEC_KERNEL(codec__b64_encode_avx512)};
    static const b64_decode_fn decoders[] = {b64_decode_scalar,
                                             CODEC_KERNEL(codec__b64_decode_avx2),
                                             CODEC_KERNEL(codec__b64_decode_avx512)};
    st->encode_bulk = encoders[isa];
    st->decode_bulk = decoders[isa];
    s->ops = &b64_ops;
    s->state = st;
    return CODEC_OK;
}
