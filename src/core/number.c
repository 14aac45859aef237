/* number.c — binary64/binary32 <-> decimal text (see number_internal.h and
 * docs/formats/numbers.md).
 *
 * Formatting follows the Schubfach idea (R. Giulietti, "The Schubfach way to
 * render doubles", 2020): pick k so that the rounding interval of v holds at
 * most one multiple of 10^(k+1) and at least one of 10^k, compute the
 * interval ends and v scaled by 10^-k rounded to odd with one 128-bit
 * (binary64) or 64-bit (binary32) multiplication each, then choose the
 * shortest candidate, or among equally short ones the nearest to v (ties to
 * an even last digit).
 *
 * Parsing: the JSON grammar is checked in one pass that also gathers the
 * first 19 significant digits w and the decimal exponent q. Then
 *   1. Clinger's fast path: w and 10^|q| are exact doubles, so one IEEE
 *      multiplication or division rounds correctly;
 *   2. the Eisel-Lemire idea: w * 10^q from a 64 x 128-bit product with a
 *      truncated power of ten; the result is final unless the bits that
 *      decide the rounding could still change by the truncation error;
 *   3. otherwise an exact comparison of the decimal with the halfway point
 *      between two neighbouring candidates, in bounded big integers.
 *
 * Everything is pure: no state, no allocation, safe from any thread. The
 * right shifts of negative ints below are arithmetic (gcc and clang). */
#include "number_internal.h"

#include <assert.h>
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "number_pow10_table_internal.h"

typedef unsigned __int128 u128;

/* floor(log2(10^e)), floor(log10(2^q)) and floor(log10(3/4 * 2^q)); the
 * generator script checks these against exact arithmetic over the ranges
 * used here. */
static inline int floor_log2_pow10(int e)
{
    return (e * 1741647) >> 19;
}

static inline int floor_log10_pow2(int q)
{
    return (q * 1262611) >> 22;
}

static inline int floor_log10_three_quarters_pow2(int q)
{
    return (q * 1262611 - 524031) >> 22;
}

static inline u128 pow10_128(int e)
{
    const uint64_t *t = codec_pow10[e - CODEC_POW10_MIN];
    return (u128)t[0] << 64 | t[1];
}

/* ---------------------------------------------------------------------------
 * Formatting */

/* A finite non-negative value as sig * 10^exp10. */
typedef struct {
    uint64_t sig;
    int exp10;
} decimal;

/* floor(g * cp / 2^128), made odd when the rest is not zero. g overestimates
 * the power of ten by less than one unit, so a rest of 0 or 1 is treated as
 * an exact product. */
static inline uint64_t round_to_odd_64(u128 g, uint64_t cp)
{
    u128 lo = (u128)(uint64_t)g * cp;
    u128 hi = (u128)(uint64_t)(g >> 64) * cp + (lo >> 64);
    return (uint64_t)(hi >> 64) | ((uint64_t)hi > 1);
}

static inline uint32_t round_to_odd_32(uint64_t g, uint32_t cp)
{
    u128 p = (u128)g * cp;
    return (uint32_t)(p >> 64) | ((uint32_t)(p >> 32) > 1);
}

/* The choice shared by both widths, from the interval [lower, upper] and
 * vb, all four times v / 10^k (vb rounded to odd). */
static inline decimal choose_digits(uint64_t lower, uint64_t vb, uint64_t upper, int k)
{
    uint64_t s = vb >> 2;
    if (s >= 10) {
        /* At most one multiple of 10^(k+1) lies inside: take it if it does. */
        uint64_t sp = s / 10;
        int up_inside = lower <= 40 * sp;
        int wp_inside = 40 * sp + 40 <= upper;
        if (up_inside != wp_inside)
            return (decimal){sp + (uint64_t)wp_inside, k + 1};
    }
    int u_inside = lower <= 4 * s;
    int w_inside = 4 * s + 4 <= upper;
    if (u_inside != w_inside)
        return (decimal){s + (uint64_t)w_inside, k};
    /* Both inside: the nearer to v, ties to even. */
    uint64_t mid = 4 * s + 2;
    int round_up = vb > mid || (vb == mid && (s & 1));
    return (decimal){s + (uint64_t)round_up, k};
}

/* bits: a finite, non-zero binary64 without its sign. */
static decimal shortest_64(uint64_t bits)
{
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
    int field = (int)(bits >> 52);
    uint64_t c = field ? frac | UINT64_C(1) << 52 : frac;
    int q = field ? field - 1075 : -1074;
    /* The gap below v is half the gap above at the bottom of a binade. */
    int closer = frac == 0 && field > 1;
    int k = closer ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    int h = q + floor_log2_pow10(-k) + 1; /* 1..4 */
    u128 g = pow10_128(-k) + 1;
    uint64_t cb = 4 * c, cbl = cb - 2 + (uint64_t)closer, cbr = cb + 2;
    uint64_t vbl = round_to_odd_64(g, cbl << h);
    uint64_t vb = round_to_odd_64(g, cb << h);
    uint64_t vbr = round_to_odd_64(g, cbr << h);
    /* The interval ends belong to it only when c is even (ties to even). */
    uint64_t odd = c & 1;
    return choose_digits(vbl + odd, vb, vbr - odd, k);
}

static decimal shortest_32(uint32_t bits)
{
    uint32_t frac = bits & ((UINT32_C(1) << 23) - 1);
    int field = (int)(bits >> 23);
    uint32_t c = field ? frac | UINT32_C(1) << 23 : frac;
    int q = field ? field - 150 : -149;
    int closer = frac == 0 && field > 1;
    int k = closer ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    int h = q + floor_log2_pow10(-k) + 1;
    uint64_t g = codec_pow10[-k - CODEC_POW10_MIN][0] + 1;
    uint32_t cb = 4 * c, cbl = cb - 2 + (uint32_t)closer, cbr = cb + 2;
    uint32_t vbl = round_to_odd_32(g, cbl << h);
    uint32_t vb = round_to_odd_32(g, cb << h);
    uint32_t vbr = round_to_odd_32(g, cbr << h);
    uint32_t odd = c & 1;
    return choose_digits(vbl + odd, vb, vbr - odd, k);
}

const char codec__digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Drops the trailing zeros of d.sig (at most 16 for 17 digits) in halving
 * steps rather than one digit at a time; most values have none. */
static decimal strip_zeros(decimal d)
{
    static const uint64_t p10[5] = {10000000000000000u, 100000000u, 10000u, 100u, 10u};
    static const int n10[5] = {16, 8, 4, 2, 1};
    if (d.sig % 10 != 0)
        return d;
    for (int i = 0; i < 5; i++)
        if (d.sig % p10[i] == 0) {
            d.sig /= p10[i];
            d.exp10 += n10[i];
        }
    return d;
}

/* Writes exactly 8 digits of v < 10^8; the four pairs are independent. */
static void write_8_digits(uint32_t v, char *p)
{
    uint32_t a = v / 10000, b = v % 10000;
    memcpy(p, codec__digit_pairs + 2 * (a / 100), 2);
    memcpy(p + 2, codec__digit_pairs + 2 * (a % 100), 2);
    memcpy(p + 4, codec__digit_pairs + 2 * (b / 100), 2);
    memcpy(p + 6, codec__digit_pairs + 2 * (b % 100), 2);
}

/* Writes the digits of v right-aligned to end at `end`, eight at a
 * time below the leading group; returns how many. */
static int write_digits(uint64_t v, char *end)
{
    int n = 0;
    while (v >= 100000000) {
        uint64_t q = v / 100000000;
        n += 8;
        write_8_digits((uint32_t)(v - q * 100000000), end - n);
        v = q;
    }
    return n + codec_write_digits(v, end - n);
}

/* Lays out sign, digits and exponent in codec's style (see the header).
 * The copies have fixed sizes (a few vector moves, no calls); they may
 * write scratch bytes past the text but stay within CODEC_NUMBER_MAX_CHARS. */
static size_t write_text(int neg, decimal d, char *dst)
{
    char buf[48]; /* digits end at buf + 24; fixed-size copies read on past them */
    char *end = buf + 24;
    memset(end, '0', 24);
    d = strip_zeros(d);
    int nd = write_digits(d.sig, end);
    const char *digits = end - nd;
    int e = d.exp10 + nd - 1; /* scientific exponent: d.ddd * 10^e */
    char *p = dst;
    *p = '-';
    p += neg;
    if (e >= 0 && e < 21) {
        if (nd <= e + 1) { /* an integer: digits, zeros, ".0" */
            memcpy(p, digits, 24);
            memcpy(p + e + 1, ".0", 2);
            p += e + 3;
        } else { /* nd <= 17, so e <= 15 */
            memcpy(p, digits, 16);
            p[e + 1] = '.';
            if (nd - e - 1 <= 8)
                memcpy(p + e + 2, digits + e + 1, 8);
            else /* then e < 8 */
                memcpy(p + e + 2, digits + e + 1, 16);
            p += nd + 1;
        }
    } else if (e < 0 && e >= -7) {
        memcpy(p, "0.000000", 8);
        p += 1 - e;
        memcpy(p, digits, 17);
        p += nd;
    } else {
        p[0] = digits[0];
        p[1] = '.';
        memcpy(p + 2, digits + 1, 16);
        p += nd > 1 ? nd + 1 : 1;
        *p++ = 'e';
        *p++ = e < 0 ? '-' : '+';
        unsigned ae = (unsigned)(e < 0 ? -e : e);
        if (ae >= 100) {
            *p++ = (char)('0' + ae / 100);
            ae %= 100;
            memcpy(p, codec__digit_pairs + 2 * ae, 2);
            p += 2;
        } else if (ae >= 10) {
            memcpy(p, codec__digit_pairs + 2 * ae, 2);
            p += 2;
        } else {
            *p++ = (char)('0' + ae);
        }
    }
    return (size_t)(p - dst);
}

static size_t write_zero(int neg, char *dst)
{
    size_t len = neg ? 4 : 3;
    memcpy(dst, neg ? "-0.0" : "0.0", len);
    return len;
}

size_t codec__format_double(double v, char *dst)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int neg = (int)(bits >> 63);
    bits &= ~(UINT64_C(1) << 63);
    if (bits == 0)
        return write_zero(neg, dst);
    return write_text(neg, shortest_64(bits), dst);
}

size_t codec__format_float(float v, char *dst)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    int neg = (int)(bits >> 31);
    bits &= ~(UINT32_C(1) << 31);
    if (bits == 0)
        return write_zero(neg, dst);
    return write_text(neg, shortest_32(bits), dst);
}

/* ---------------------------------------------------------------------------
 * Parsing */

/* An IEEE binary interchange format, as far as rounding needs it. */
typedef struct {
    int frac_bits; /* stored significand bits: 52, 23 */
    int bias;      /* 1023, 127 */
    uint64_t inf;  /* bit pattern of +infinity */
} ieee_format;

static const ieee_format binary64 = {52, 1023, UINT64_C(0x7FF0000000000000)};
static const ieee_format binary32 = {23, 127, UINT64_C(0x7F800000)};

/* Digits kept exactly by the fallback. A halfway point between two doubles
 * has at most 767 significant digits, so beyond 800 only "is any digit
 * non-zero" can matter, and it is kept as one extra digit 1. */
#define EXACT_DIGITS 800
/* Explicit exponents saturate here; any larger magnitude over- or
 * underflows whatever the digits (inputs are far shorter than 10^15). */
#define EXP_SATURATE 1000000000000000

/* The text of a number that passed the grammar, and w * 10^q built from its
 * first 19 significant digits (truncated: non-zero digits were dropped). */
typedef struct {
    const char *int_begin, *int_end;   /* integer digits */
    const char *frac_begin, *frac_end; /* fraction digits, maybe none */
    int64_t exp;                       /* the explicit exponent, saturated */
    int neg;
    int truncated;
    uint64_t w;
    int64_t q;
} number_text;

static inline int is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

/* Walks the digits of both parts as one sequence. */
typedef struct {
    const char *p, *end, *frac_begin, *frac_end;
} digit_cursor;

static inline int cursor_next(digit_cursor *c, char *d)
{
    if (c->p == c->end) {
        if (c->end == c->frac_end || c->frac_begin == c->frac_end)
            return 0;
        c->p = c->frac_begin;
        c->end = c->frac_end;
    }
    *d = *c->p++;
    return 1;
}

/* Leaves *c just past the first non-zero digit, which goes to *d; returns
 * the number of significant digits (0 when every digit is zero). */
static int64_t first_significant(const number_text *t, digit_cursor *c, char *d)
{
    *c = (digit_cursor){t->int_begin, t->int_end, t->frac_begin, t->frac_end};
    int64_t leading = 0;
    while (cursor_next(c, d) && *d == '0')
        leading++;
    return (t->int_end - t->int_begin) + (t->frac_end - t->frac_begin) - leading;
}

/* For more than 19 digits: skips leading zeros, keeps 19, notes the rest. */
static void take_long_significand(number_text *t)
{
    digit_cursor c;
    char d;
    int64_t nsig = first_significant(t, &c, &d);
    if (nsig <= 19) /* the wrapped accumulation was exact after all */
        return;
    uint64_t w = (uint64_t)(d - '0');
    for (int i = 1; i < 19; i++) {
        cursor_next(&c, &d);
        w = w * 10 + (uint64_t)(d - '0');
    }
    int truncated = 0;
    while (!truncated && cursor_next(&c, &d))
        truncated = d != '0';
    t->w = w;
    t->q += nsig - 19;
    t->truncated = truncated;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Eight ASCII bytes, the first in the low byte, all '0'..'9'? A byte below
 * '0' sets bit 7 of v - 0x30 per byte, one above '9' bit 7 of v + 0x46;
 * borrows and carries start only at such a byte, so the lowest one is
 * always seen and an all-digit word never disturbed. */
static inline int eight_digits(uint64_t v)
{
    return (((v - UINT64_C(0x3030303030303030)) | (v + UINT64_C(0x4646464646464646))) &
            UINT64_C(0x8080808080808080)) == 0;
}

/* Their value, by merging neighbours: 8 digits -> 4 pairs -> 2 quads -> 1. */
static inline uint64_t eight_digits_value(uint64_t v)
{
    v -= UINT64_C(0x3030303030303030);
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
    return (v * 10000 + (v >> 32)) & UINT64_C(0xFFFFFFFF);
}
#endif

/* Accumulates the digits from p into *w (wrapping past 19 digits, which
 * take_long_significand redoes); returns the first non-digit. */
static inline const char *scan_digits(const char *p, const char *end, uint64_t *w)
{
    uint64_t acc = *w;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    while (end - p >= 8 && (memcpy(&v, p, 8), eight_digits(v))) {
        acc = acc * 100000000 + eight_digits_value(v);
        p += 8;
    }
#endif
    while (p < end && is_digit(*p))
        acc = acc * 10 + (uint64_t)(*p++ - '0');
    *w = acc;
    return p;
}

/* Checks the JSON number grammar and fills t; -1 when s[0..n) is not one. */
static int scan_number(const char *s, size_t n, number_text *t)
{
    const char *p = s, *end = s + n;
    uint64_t w = 0;
    t->neg = p < end && *p == '-';
    p += t->neg;
    t->int_begin = p;
    if (p == end || !is_digit(*p))
        return -1;
    p = *p == '0' ? p + 1 : scan_digits(p, end, &w);
    t->int_end = t->frac_begin = t->frac_end = p;
    if (p < end && *p == '.') {
        t->frac_begin = ++p;
        p = scan_digits(p, end, &w);
        if (p == t->frac_begin)
            return -1;
        t->frac_end = p;
    }
    int64_t exp = 0;
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        int exp_neg = p < end && *p == '-';
        if (p < end && (*p == '-' || *p == '+'))
            p++;
        const char *exp_begin = p;
        for (; p < end && is_digit(*p); p++)
            if (exp < EXP_SATURATE)
                exp = exp * 10 + (*p - '0');
        if (p == exp_begin)
            return -1;
        if (exp_neg)
            exp = -exp;
    }
    if (p != end)
        return -1;
    t->exp = exp;
    t->w = w;
    t->q = exp - (t->frac_end - t->frac_begin);
    t->truncated = 0;
    if ((t->int_end - t->int_begin) + (t->frac_end - t->frac_begin) > 19)
        take_long_significand(t);
    return 0;
}

/* Eisel-Lemire: rounds w * 10^q (w != 0, q within the table) to fmt's bits
 * without sign; a result at or above fmt->inf means overflow. Returns 0 when
 * the result is certain, 1 when the truncated power of ten leaves the
 * rounding open; *bits is then within one unit of the right answer. */
static int eisel_lemire(uint64_t w, int q, const ieee_format *fmt, uint64_t *bits)
{
    int lz = __builtin_clzll(w);
    uint64_t wn = w << lz;
    const uint64_t *t = codec_pow10[q - CODEC_POW10_MIN];
    /* P = wn * T, 192 bits: top : mid : low. */
    u128 lo = (u128)wn * t[1];
    u128 hi = (u128)wn * t[0] + (lo >> 64);
    uint64_t top = (uint64_t)(hi >> 64), mid = (uint64_t)hi, low = (uint64_t)lo;
    int upper = (int)(top >> 63);
    int e2 = 63 + upper + floor_log2_pow10(q) - lz; /* floor(log2(w * 10^q)) */
    int min_e2 = 1 - fmt->bias - fmt->frac_bits;    /* exponent of the smallest subnormal */
    int keep = e2 - min_e2 + 1;                     /* significand bits the result can hold */
    if (keep > fmt->frac_bits + 1)
        keep = fmt->frac_bits + 1;
    if (keep < 0) { /* below half the smallest subnormal, even at a tie */
        *bits = 0;
        return 0;
    }
    int shift = 63 + upper - keep; /* bits of `top` below the kept ones, 1..64 */
    uint64_t m = shift == 64 ? 0 : top >> shift;
    uint64_t round = (top >> (shift - 1)) & 1;
    uint64_t below_mask = (UINT64_C(1) << (shift - 1)) - 1;
    uint64_t below = top & below_mask;
    /* T is exact for 0 <= q <= 55; otherwise the true product exceeds P by
     * less than 2^64 units of `low`, which can reach the round bit only
     * through a run of ones. */
    int exact = q >= 0 && q <= 55;
    int open = !exact && below == below_mask && mid == UINT64_MAX;
    int sticky = !exact || below || mid || low;
    m += round & ((uint64_t)sticky | (m & 1));
    /* A normal significand carries its hidden bit into the exponent field,
     * and a rounding carry moves it up one binade, as the encoding wants. */
    if (keep == fmt->frac_bits + 1)
        *bits = ((uint64_t)(e2 + fmt->bias - 1) << fmt->frac_bits) + m;
    else
        *bits = m;
    return open;
}

/* Exact arithmetic for the hard cases. The largest number compared is below
 * 2^2720 (800 digits, or 2^54 * 5^1142 for the most negative exponent),
 * so 64 words always suffice. */
#define BIG_WORDS 64

typedef struct {
    uint64_t w[BIG_WORDS]; /* little-endian */
    int n;                 /* words in use */
} bigint;

static void big_set(bigint *a, uint64_t v)
{
    a->w[0] = v;
    a->n = v != 0;
}

static void big_mul_add(bigint *a, uint64_t m, uint64_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < a->n; i++) {
        u128 p = (u128)a->w[i] * m + carry;
        a->w[i] = (uint64_t)p;
        carry = (uint64_t)(p >> 64);
    }
    if (carry) {
        assert(a->n < BIG_WORDS);
        a->w[a->n++] = carry;
    }
}

static void big_mul_pow5(bigint *a, int64_t e)
{
    static const uint64_t pow5_27 = 7450580596923828125u; /* the largest power of 5 below 2^63 */
    for (; e >= 27; e -= 27)
        big_mul_add(a, pow5_27, 0);
    uint64_t m = 1;
    for (; e > 0; e--)
        m *= 5;
    big_mul_add(a, m, 0);
}

static void big_shl(bigint *a, int64_t s)
{
    if (a->n == 0)
        return;
    int words = (int)(s / 64), bits = (int)(s % 64);
    assert(a->n + words + 1 <= BIG_WORDS);
    a->w[a->n + words] = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t v = a->w[i];
        if (bits) {
            a->w[i + words + 1] |= v >> (64 - bits);
            v <<= bits;
        }
        a->w[i + words] = v;
    }
    memset(a->w, 0, (size_t)words * sizeof a->w[0]);
    a->n += words + 1;
    while (a->n > 0 && a->w[a->n - 1] == 0)
        a->n--;
}

static int big_cmp(const bigint *a, const bigint *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* The significant digits of t as an integer D (at most EXACT_DIGITS, then a
 * digit 1 if any dropped digit was non-zero), so the value is D * 10^*e10. */
static void load_digits(const number_text *t, bigint *d, int64_t *e10)
{
    digit_cursor c;
    char ch;
    int64_t nsig = first_significant(t, &c, &ch), taken = 0;
    big_set(d, 0);
    uint64_t chunk = 0, scale = 1;
    while (taken < nsig && taken < EXACT_DIGITS) {
        if (taken > 0)
            cursor_next(&c, &ch);
        chunk = chunk * 10 + (uint64_t)(ch - '0');
        scale *= 10;
        taken++;
        if (scale == 10000000000000000000u) {
            big_mul_add(d, scale, chunk);
            chunk = 0, scale = 1;
        }
    }
    big_mul_add(d, scale, chunk);
    *e10 = t->exp - (t->frac_end - t->frac_begin) + (nsig - taken);
    int sticky = 0;
    while (!sticky && cursor_next(&c, &ch))
        sticky = ch != '0';
    if (sticky) {
        big_mul_add(d, 10, 1);
        --*e10;
    }
}

/* The sign of D * 10^e10 minus the point halfway between bits and bits + 1. */
static int compare_halfway(const bigint *d, int64_t e10, uint64_t bits, const ieee_format *fmt)
{
    uint64_t frac = bits & ((UINT64_C(1) << fmt->frac_bits) - 1);
    int64_t field = (int64_t)(bits >> fmt->frac_bits);
    uint64_t m = field ? frac | UINT64_C(1) << fmt->frac_bits : frac;
    int64_t e2 = (field ? field : 1) - fmt->bias - fmt->frac_bits;
    /* halfway = (2m + 1) * 2^(e2 - 1); compare D * 5^e10 * 2^e10 with it. */
    bigint a = *d, b;
    big_set(&b, 2 * m + 1);
    if (e10 >= 0)
        big_mul_pow5(&a, e10);
    else
        big_mul_pow5(&b, -e10);
    if (e10 > e2 - 1)
        big_shl(&a, e10 - (e2 - 1));
    else
        big_shl(&b, (e2 - 1) - e10);
    return big_cmp(&a, &b);
}

/* Moves the estimate to the correctly rounded result (ties to even). It
 * never moves back, so it stops after at most a step or two. */
static uint64_t round_exactly(const number_text *t, uint64_t bits, const ieee_format *fmt)
{
    bigint d;
    int64_t e10;
    load_digits(t, &d, &e10);
    if (bits > fmt->inf)
        bits = fmt->inf;
    for (;;) {
        if (bits < fmt->inf) {
            int c = compare_halfway(&d, e10, bits, fmt);
            if (c > 0 || (c == 0 && (bits & 1))) {
                bits++;
                continue;
            }
        }
        if (bits > 0) {
            int c = compare_halfway(&d, e10, bits - 1, fmt);
            if (c < 0 || (c == 0 && (bits & 1))) {
                bits--;
                continue;
            }
        }
        return bits;
    }
}

/* The correctly rounded magnitude of t in fmt; -1 on overflow. */
static int decimal_to_bits(const number_text *t, const ieee_format *fmt, uint64_t *bits)
{
    if (t->w == 0 || t->q < CODEC_POW10_MIN) { /* 0, or w * 10^q < 10^19 * 10^-343 */
        *bits = 0;
        return 0;
    }
    if (t->q > 308) /* at least 10^309 */
        return -1;
    int q = (int)t->q;
    int open = eisel_lemire(t->w, q, fmt, bits);
    if (!open && t->truncated) {
        /* The value lies strictly between w and w + 1 times 10^q. */
        uint64_t above;
        open = eisel_lemire(t->w + 1, q, fmt, &above) || above != *bits;
    }
    if (open)
        *bits = round_exactly(t, *bits, fmt);
    return *bits >= fmt->inf ? -1 : 0;
}

/* Clinger's fast path needs each IEEE operation rounded once, in its own
 * width (no x87 excess precision). */
#if FLT_EVAL_METHOD == 0
#define CODEC_CLINGER 1
#else
#define CODEC_CLINGER 0
#endif

/* Eisel-Lemire for a normal binary64 result with one 64 x 64-bit product
 * (the high word of T): 0 and *bits (without sign) when that decides it,
 * 1 to leave it to eisel_lemire(). The low word of T adds less than 2^64
 * units of the product's middle word, so at most 1 to `top`: that changes
 * neither the kept bits nor the round bit unless the bits below the round
 * bit are all ones. The sticky bit is set when T is truncated (q outside
 * 0..55: the true product is above P) or when those bits are not all
 * zero; then a set round bit rounds up, and the result is eisel_lemire()'s
 * (whose `open` needs those bits all ones). canada.json's 17-digit
 * coordinates take this path: 88 instructions a number before. */
static inline int eisel_lemire_normal64(uint64_t w, int q, uint64_t *bits)
{
    int lz = __builtin_clzll(w);
    uint64_t wn = w << lz;
    uint64_t top = (uint64_t)(((u128)wn * codec_pow10[q - CODEC_POW10_MIN][0]) >> 64);
    int upper = (int)(top >> 63);
    int shift = 10 + upper; /* 63 + upper - 53: bits of `top` below the kept ones */
    uint64_t below_mask = (UINT64_C(1) << (shift - 1)) - 1;
    uint64_t below = top & below_mask;
    int e2 = 63 + upper + floor_log2_pow10(q) - lz; /* floor(log2(w * 10^q)) */
    if (below == below_mask || (below == 0 && q >= 0 && q <= 55) || e2 < 1 - binary64.bias)
        return 1;
    uint64_t m = (top >> shift) + ((top >> (shift - 1)) & 1);
    /* The hidden bit carries into the exponent field (and a rounding carry
     * one binade up), as in eisel_lemire(). */
    *bits = ((uint64_t)(e2 + binary64.bias - 1) << binary64.frac_bits) + m;
    return 0;
}

uint64_t codec__double_bits_from_decimal(uint64_t w, int64_t q, bool neg)
{
    static const double exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                           1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                           1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    uint64_t bits;
    if (CODEC_CLINGER && w <= UINT64_C(1) << 53 && q >= -22 && q <= 22) {
        double v = (double)w;
        v = q < 0 ? v / exact_pow10[-q] : v * exact_pow10[q];
        memcpy(&bits, &v, sizeof bits);
        return bits | (uint64_t)neg << 63;
    }
    if (w == 0 || q < CODEC_POW10_MIN || q > 308 ||
        (eisel_lemire_normal64(w, (int)q, &bits) && eisel_lemire(w, (int)q, &binary64, &bits)) ||
        bits >= binary64.inf)
        return CODEC_DECIMAL_DECLINED;
    return bits | (uint64_t)neg << 63;
}

int codec__double_from_decimal(uint64_t w, int64_t q, bool neg, double *out)
{
    uint64_t bits = codec__double_bits_from_decimal(w, q, neg);
    if (bits == CODEC_DECIMAL_DECLINED)
        return 1;
    memcpy(out, &bits, sizeof *out);
    return 0;
}

int codec__parse_double(const char *s, size_t n, double *out)
{
    number_text t;
    if (scan_number(s, n, &t))
        return -1;
    /* All digits kept: the fast paths; else (or left open) the exact one. */
    if (!t.truncated && !codec__double_from_decimal(t.w, t.q, t.neg, out))
        return 0;
    uint64_t bits;
    if (decimal_to_bits(&t, &binary64, &bits))
        return -1;
    bits |= (uint64_t)t.neg << 63;
    memcpy(out, &bits, sizeof *out);
    return 0;
}

int codec__parse_float(const char *s, size_t n, float *out)
{
    static const float exact_pow10[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                          1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    number_text t;
    if (scan_number(s, n, &t))
        return -1;
    if (CODEC_CLINGER && !t.truncated && t.w <= UINT64_C(1) << 24 && t.q >= -10 && t.q <= 10) {
        float v = (float)t.w;
        v = t.q < 0 ? v / exact_pow10[-t.q] : v * exact_pow10[t.q];
        *out = t.neg ? -v : v;
        return 0;
    }
    uint64_t bits;
    if (decimal_to_bits(&t, &binary32, &bits))
        return -1;
    uint32_t b32 = (uint32_t)bits | (uint32_t)t.neg << 31;
    memcpy(out, &b32, sizeof *out);
    return 0;
}
