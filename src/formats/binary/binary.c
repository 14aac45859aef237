/* binary.c — helpers shared by the CBOR and MessagePack backends. */
#include "formats/binary/binary_internal.h"

#include <math.h>

double codec__bin_half_to_double(uint16_t h)
{
    int exp = h >> 10 & 0x1f;
    double mant = h & 0x3ff;
    double v;
    /* exact products, as ldexp() would give (no libm: see
     * docs/ARCHITECTURE.md, "Libraries opened on first use") */
    if (exp == 0)
        v = mant * 0x1p-24;
    else if (exp != 31)
        v = (mant + 1024) * (double)(1u << exp) * 0x1p-25;
    else
        v = mant == 0 ? INFINITY : NAN;
    return h & 0x8000 ? -v : v;
}

bool codec__bin_float_to_half(float f, uint16_t *h)
{
    uint32_t u = bin_float_bits(f);
    uint16_t sign = (uint16_t)(u >> 16 & 0x8000);
    int exp = (int)(u >> 23 & 0xff) - 127;
    uint32_t mant = u & 0x7fffff;
    if (exp == 128) {
        if (mant)
            return false;
        *h = sign | 0x7c00;
        return true;
    }
    if (exp == -127 && mant == 0) {
        *h = sign;
        return true;
    }
    if (exp >= -14 && exp <= 15) {
        if (mant & 0x1fff)
            return false;
        *h = (uint16_t)(sign | (exp + 15) << 10 | mant >> 13);
        return true;
    }
    if (exp >= -24 && exp < -14) {
        /* A half subnormal: the value is m * 2^-24 with m < 1024. */
        uint32_t full = mant | 0x800000;
        int shift = 13 + (-14 - exp);
        if (full & ((1u << shift) - 1))
            return false;
        *h = (uint16_t)(sign | full >> shift);
        return true;
    }
    return false;
}

size_t codec__bin_bignum_to_text(const uint8_t *mag, size_t n, bool neg, char *dst)
{
    /* Base 10^9 limbs, most significant first, built by multiply-add. */
    uint32_t limbs[BIN_BIGNUM_MAX_BYTES * 2 / 7 + 2];
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t carry = mag[i];
        for (size_t j = count; j-- > 0;) {
            uint64_t x = (uint64_t)limbs[j] * 256 + carry;
            limbs[j] = (uint32_t)(x % 1000000000u);
            carry = x / 1000000000u;
        }
        while (carry) {
            memmove(limbs + 1, limbs, count * sizeof limbs[0]);
            limbs[0] = (uint32_t)(carry % 1000000000u);
            carry /= 1000000000u;
            count++;
        }
    }
    char *p = dst;
    if (neg)
        *p++ = '-';
    if (count == 0) {
        *p++ = '0';
        return (size_t)(p - dst);
    }
    char tmp[10];
    int len = 0;
    for (uint32_t v = limbs[0]; v; v /= 10)
        tmp[len++] = (char)('0' + v % 10);
    while (len)
        *p++ = tmp[--len];
    for (size_t j = 1; j < count; j++) {
        uint32_t v = limbs[j];
        for (int k = 8; k >= 0; k--, v /= 10)
            p[k] = (char)('0' + v % 10);
        p += 9;
    }
    return (size_t)(p - dst);
}

/* mag = mag * 10 + digit; false when it outgrows the buffer. */
static bool mag_push_digit(bin_decimal *d, unsigned digit)
{
    unsigned carry = digit;
    for (size_t i = d->len; i-- > 0;) {
        unsigned x = d->mag[i] * 10u + carry;
        d->mag[i] = (uint8_t)x;
        carry = x >> 8;
    }
    if (carry) {
        if (d->len == BIN_BIGNUM_MAX_BYTES)
            return false;
        memmove(d->mag + 1, d->mag, d->len);
        d->mag[0] = (uint8_t)carry;
        d->len++;
    }
    return true;
}

int codec__bin_decimal_parse(const char *s, size_t n, bin_decimal *out)
{
    size_t i = 0;
    out->neg = false;
    out->exponent = 0;
    out->len = 0;
    if (i < n && s[i] == '-')
        out->neg = true, i++;
    if (i == n || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < n && s[i + 1] >= '0' &&
                                               s[i + 1] <= '9'))
        return -1;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        if (!mag_push_digit(out, (unsigned)(s[i] - '0')))
            return -1;
    if (i < n && s[i] == '.') {
        if (++i == n || s[i] < '0' || s[i] > '9')
            return -1;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, out->exponent--)
            if (!mag_push_digit(out, (unsigned)(s[i] - '0')))
                return -1;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        bool eneg = false;
        int64_t e = 0;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        if (i == n || s[i] < '0' || s[i] > '9')
            return -1;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            e = e * 10 + (s[i] - '0');
            if (e > ((int64_t)1 << 62))
                return -1;
        }
        out->exponent += eneg ? -e : e;
    }
    return i == n ? 0 : -1;
}
