/* hex.c — base16 (RFC 4648 §8): `hex` / `hex:upper`; decode takes both cases.
 *
 * Bulk work runs in the kernel chosen at construction
 * (kernel=auto|scalar|avx2|avx512); tails and every error decision are here,
 * so all kernels agree on bytes, error family and offset. */
#include "text_internal.h"
#include "core/error_internal.h"

#include <string.h>

typedef struct hex_state {
    const char *digits;     /* "0123456789abcdef" or upper case */
    uint16_t enc[256];      /* the two digits of every byte */
    uint8_t nib[256];       /* digit value (either case), or 0xFF */
    uint16_t high[256];     /* digit value << 4, or 0x100 for a non-digit */
    uint16_t low[256];      /* digit value, or 0x100 */
    hex_encode_fn encode_bulk;
    hex_decode_fn decode_bulk;
    text_lines lines;       /* wrap= and lines= */
} hex_state;

static const char digits_lower[] = "0123456789abcdef";
static const char digits_upper[] = "0123456789ABCDEF";

/* The scalar kernels double as the tails of the SIMD ones. */
static size_t hex_encode_scalar(const hex_state *st, const uint8_t *src, size_t n, uint8_t *dst)
{
    for (size_t i = 0; i < n; i++)
        memcpy(dst + 2 * i, &st->enc[src[i]], 2);
    return n;
}

static size_t hex_decode_scalar(const hex_state *st, const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        unsigned v = st->high[src[i]] | st->low[src[i + 1]];
        if (v >> 8)
            break;
        dst[i / 2] = (uint8_t)v;
    }
    return i;
}

static int hex_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const hex_state *st = s->state;
    if (n == 0) /* nothing to write, and out may have no memory yet */
        return CODEC_OK;
    if (n > SIZE_MAX / 2 || codec_buf_reserve(out, n * 2))
        return codec__nomem(err, s->name);
    uint8_t *dst = out->data + out->len;
    size_t done = st->encode_bulk ? st->encode_bulk(st->digits, src, n, dst) : 0;
    hex_encode_scalar(st, src + done, n - done, dst + 2 * done);
    size_t base = out->len;
    out->len += n * 2;
    return codec__text_wrap(s, &st->lines, out, base, err);
}

static int hex_decode_text(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                           codec_error *err)
{
    const hex_state *st = s->state;
    if (n == 0) /* nothing to write, and out may have no memory yet */
        return CODEC_OK;
    int rc = codec__stage_check_cap(s, n / 2, err);
    if (rc)
        return rc;
    if (codec_buf_reserve(out, n / 2))
        return codec__nomem(err, s->name);
    uint8_t *dst = out->data + out->len;
    size_t even = n & ~(size_t)1;
    size_t done = st->decode_bulk ? st->decode_bulk(src, even, dst) : 0;
    done += hex_decode_scalar(st, src + done, even - done, dst + done / 2);
    if (done < n) {
        /* Stopped at a pair holding a non-digit, or at a lone last digit. */
        size_t bad = st->nib[src[done]] == 0xFF ? done : done + 1;
        if (bad < n)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, bad,
                              "not a hex digit");
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "odd number of hex digits");
    }
    out->len += n / 2;
    return CODEC_OK;
}

static int hex_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const hex_state *st = s->state;
    return st->lines.skip ? codec__text_decode_skipping(s, src, n, out, hex_decode_text, err)
                          : hex_decode_text(s, src, n, out, err);
}

static int hex_stream_open(const codec_stage *s, bool decode, struct codec__sstream **out,
                           codec_error *err)
{
    const hex_state *st = s->state;
    return codec__text_stream_open(s, &st->lines, decode, out, err);
}

static void hex_destroy(codec_stage *s)
{
    codec_default_allocator()->release(NULL, s->state, sizeof(hex_state));
}

static const codec_stage_ops hex_ops = {.encode = hex_encode,
                                        .decode = hex_decode,
                                        .destroy = hex_destroy,
                                        .stream_open = hex_stream_open};

int codec__stage_ctor_hex(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    static const char *const cases[] = {"lower", "upper", NULL};
    size_t which;
    text_isa isa;
    int rc = codec__args_choice(a, "case", true, cases, 0, &which, err);
    if (!rc)
        rc = codec__text_args_kernel(a, TEXT_ISA_BIT(TEXT_ISA_AVX2) | TEXT_ISA_BIT(TEXT_ISA_AVX512),
                              &isa, err);
    static const text_layout shape = {1, 2, false, 0, NULL};
    text_lines lines;
    if (!rc)
        rc = codec__text_args_lines(a, &shape, &lines, err);
    if (rc)
        return rc;
    hex_state *st = codec_default_allocator()->alloc(NULL, sizeof *st);
    if (!st)
        return codec__nomem(err, s->name);
    st->lines = lines;
    st->digits = which ? digits_upper : digits_lower;
    for (size_t b = 0; b < 256; b++) {
        uint8_t two[2] = {(uint8_t)st->digits[b >> 4], (uint8_t)st->digits[b & 15]};
        memcpy(&st->enc[b], two, 2);
    }
    memset(st->nib, 0xFF, sizeof st->nib);
    for (uint8_t v = 0; v < 16; v++) {
        st->nib[(uint8_t)digits_lower[v]] = v;
        st->nib[(uint8_t)digits_upper[v]] = v;
    }
    for (size_t c = 0; c < 256; c++) {
        st->high[c] = st->nib[c] == 0xFF ? 0x100 : (uint16_t)(st->nib[c] << 4);
        st->low[c] = st->nib[c] == 0xFF ? 0x100 : st->nib[c];
    }
    static const hex_encode_fn encoders[] = {NULL, CODEC_KERNEL(codec__hex_encode_avx2),
                                             CODEC_KERNEL(codec__hex_encode_avx512)};
    static const hex_decode_fn decoders[] = {NULL, CODEC_KERNEL(codec__hex_decode_avx2),
                                             CODEC_KERNEL(codec__hex_decode_avx512)};
    st->encode_bulk = encoders[isa];
    st->decode_bulk = decoders[isa];
    s->ops = &hex_ops;
    s->state = st;
    return CODEC_OK;
}
