/* hex.c — base16 (RFC 4648 §8): `hex` / `hex:upper`; decode takes both cases. */
#include "compose/stage_internal.h"

static const char digits_lower[] = "0123456789abcdef";
static const char digits_upper[] = "0123456789ABCDEF";

/* The chosen alphabet is the stage state (no allocation). */
static int hex_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    const char *digits = s->state;
    if (n == 0) /* out->data may still be NULL: no pointer arithmetic on it */
        return CODEC_OK;
    if (n > SIZE_MAX / 2 || codec_buf_reserve(out, n * 2))
        return CODEC_FAIL(err, s, CODEC_E_NOMEM, 0, CODEC_NO_OFFSET, "out of memory");
    uint8_t *dst = out->data + out->len;
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = (uint8_t)digits[src[i] >> 4];
        dst[2 * i + 1] = (uint8_t)digits[src[i] & 15];
    }
    out->len += n * 2;
    return CODEC_OK;
}

static int nibble(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int hex_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err)
{
    if (n % 2)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "odd number of hex digits");
    int rc = codec_stage_check_cap(s, n / 2, err);
    if (rc || n == 0)
        return rc;
    if (codec_buf_reserve(out, n / 2))
        return CODEC_FAIL(err, s, CODEC_E_NOMEM, 0, CODEC_NO_OFFSET, "out of memory");
    uint8_t *dst = out->data + out->len;
    for (size_t i = 0; i < n; i += 2) {
        int hi = nibble(src[i]), lo = nibble(src[i + 1]);
        if (hi < 0 || lo < 0)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT,
                              hi < 0 ? i : i + 1, "not a hex digit");
        dst[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    out->len += n / 2;
    return CODEC_OK;
}

static const codec_stage_ops hex_ops = {.encode = hex_encode, .decode = hex_decode};

int codec_stage_ctor_hex(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    static const char *const cases[] = {"lower", "upper", NULL};
    size_t which;
    int rc = codec_args_choice(a, "case", true, cases, 0, &which, err);
    if (rc)
        return rc;
    s->ops = &hex_ops;
    s->state = (void *)(which ? digits_upper : digits_lower);
    return CODEC_OK;
}
