/* test_number.c — shortest formatting and correctly rounded parsing of
 * binary64 and binary32, checked against glibc: strtod/strtof (correctly
 * rounded) and printf("%.*e") (exact decimal expansion).
 *
 * Shortest and nearest: for a value v and a digit count p, glibc's "%.{p-1}e"
 * is the p-digit decimal nearest to v (ties to even); the p-digit decimals
 * that read back as v form a run around v, so if any does, the nearest one
 * is that rounding or one of its two lattice neighbours. Our text must have
 * p digits where no (p-1)-digit decimal reads back, and be exactly that
 * nearest p-digit decimal. */
#include <float.h>
#include <math.h>

#include "check.h"
#include "core/number_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
/* Iterations scale down in unoptimised or sanitised builds. */
#if defined(__OPTIMIZE__) && !defined(SANITIZED)
#define SCALE 10
#else
#define SCALE 3
#endif

static uint64_t rng = 0x243F6A8885A308D3u;
static int reported;

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static double double_of(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint32_t bits_of_float(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static void report(const char *what, const char *text, double v)
{
    if (reported++ < 20)
        fprintf(stderr, "  %s: \"%.200s\" (value %a)\n", what, text, v);
}

/* ---------------------------------------------------------------------------
 * Formatting */

/* A decimal as significant digits (no leading or trailing zeros) and the
 * exponent of its first digit. */
typedef struct {
    char digits[32];
    int nd;
    int exp;
} sci;

/* Reads "-ddd.ddd", "0.000ddd" or "d.ddde±x" into sci form. */
static sci to_sci(const char *s)
{
    sci r = {.nd = 0, .exp = 0};
    int point = -1, pos = 0, first = -1;
    const char *p = s + (*s == '-');
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') {
            point = pos;
            continue;
        }
        if (first < 0 && *p != '0')
            first = pos;
        if (first >= 0 && r.nd < 31)
            r.digits[r.nd++] = *p;
        pos++;
    }
    if (point < 0)
        point = pos;
    while (r.nd > 0 && r.digits[r.nd - 1] == '0')
        r.nd--;
    r.digits[r.nd] = '\0';
    r.exp = (first < 0 ? 0 : point - first - 1) + (*p == 'e' ? atoi(p + 1) : 0);
    return r;
}

static int reads_back(const char *text, double v, int is_float)
{
    if (is_float)
        return bits_of_float(strtof(text, NULL)) == bits_of_float((float)v);
    return bits_of(strtod(text, NULL)) == bits_of(v);
}

/* The nearest p-digit decimal to v that reads back as v, into out; 0 if no
 * p-digit decimal does. */
static int nearest_reading_back(double v, int p, int is_float, char *out, size_t cap)
{
    char text[48];
    snprintf(text, sizeof text, "%.*e", p - 1, fabs(v));
    sci r = to_sci(text);
    uint64_t m = 0;
    for (int i = 0; i < p; i++)
        m = m * 10 + (uint64_t)(i < r.nd ? r.digits[i] - '0' : 0);
    uint64_t low = 1;
    for (int i = 1; i < p; i++)
        low *= 10;
    int e = r.exp - p + 1; /* value = m * 10^e */
    /* Neighbours on the p-digit lattice; below a power of ten it is finer. */
    uint64_t cand_m[3] = {m, m == low ? low * 10 - 1 : m - 1, m + 1};
    int cand_e[3] = {e, m == low ? e - 1 : e, e};
    for (int i = 0; i < 3; i++) {
        snprintf(out, cap, "%s%" PRIu64 "e%d", signbit(v) ? "-" : "", cand_m[i], cand_e[i]);
        if (reads_back(out, v, is_float))
            return 1;
    }
    return 0;
}

/* Every rule the text of v must follow; returns 1 when it does. */
static int style_ok(const char *s, size_t n, double v, int is_float)
{
    if (v == 0)
        return strcmp(s, signbit(v) ? "-0.0" : "0.0") == 0;
    const char *e = strchr(s, 'e');
    double a = fabs(v);
    int decimal = is_float ? (float)a >= 1e-7f && (float)a < 1e21f : a >= 1e-7 && a < 1e21;
    if (decimal != (e == NULL))
        return 0;
    const char *dot = strchr(s, '.');
    if (decimal) {
        /* A fraction ends in a non-zero digit unless it is the lone "0". */
        if (!dot || dot == s + n - 1)
            return 0;
        return s[n - 1] != '0' || (dot == s + n - 2);
    }
    const char *m = s + (*s == '-');
    if (m[0] < '1' || m[0] > '9' || (dot && (dot != m + 1 || e[-1] == '0' || e == dot + 1)))
        return 0;
    if (!dot && e != m + 1)
        return 0;
    return (e[1] == '+' || e[1] == '-') && e[2] >= '1' && e[2] <= '9';
}

/* Formats v (a double, or a float widened) and checks it against glibc. */
static void check_format(double v, int is_float)
{
    char out[CODEC_NUMBER_MAX_CHARS + 1];
    memset(out, 'x', sizeof out);
    size_t n = is_float ? codec__format_float((float)v, out) : codec__format_double(v, out);
    int ok = n > 0 && n <= CODEC_NUMBER_MAX_CHARS && memchr(out, 'x', n) == NULL;
    out[n < sizeof out ? n : sizeof out - 1] = '\0';
    ok = ok && style_ok(out, n, v, is_float);
    ok = ok && reads_back(out, v, is_float);
    if (is_float) {
        float mine;
        ok = ok && codec__parse_float(out, n, &mine) == 0 &&
             bits_of_float(mine) == bits_of_float((float)v);
    } else {
        double mine;
        ok = ok && codec__parse_double(out, n, &mine) == 0 && bits_of(mine) == bits_of(v);
    }
    if (ok && v != 0) {
        sci ours = to_sci(out);
        char ref[48];
        ok = !(ours.nd > 1 && nearest_reading_back(v, ours.nd - 1, is_float, ref, sizeof ref));
        ok = ok && nearest_reading_back(v, ours.nd, is_float, ref, sizeof ref);
        sci want = to_sci(ref);
        ok = ok && strcmp(ours.digits, want.digits) == 0 && ours.exp == want.exp;
    }
    CHECK(ok);
    if (!ok)
        report(is_float ? "format float" : "format double", out, v);
}

static void test_format_examples(void)
{
    static const struct {
        double v;
        const char *text;
    } cases[] = {
        {12.0, "12.0"},
        {0.1, "0.1"},
        {100.0, "100.0"},
        {-0.0, "-0.0"},
        {0.0, "0.0"},
        {1e21, "1e+21"},
        {2.5e-8, "2.5e-8"},
        {5e-324, "5e-324"},
        {DBL_MAX, "1.7976931348623157e+308"},
        {DBL_MIN, "2.2250738585072014e-308"},
        {123.25, "123.25"},
        {0.000001, "0.000001"},
        {1e-7, "0.0000001"},
        {1.5e-7, "0.00000015"},
        {9.999999999999998e-8, "9.999999999999998e-8"},
        {999999999999999900000.0, "999999999999999900000.0"},
        {1e20, "100000000000000000000.0"},
        {-1.2345678901234567e20, "-123456789012345670000.0"},
        {9007199254740993.0, "9007199254740992.0"},
        {1e22, "1e+22"},
        {1e23, "1e+23"},
        {0.3, "0.3"},
        {2.0 / 3.0, "0.6666666666666666"},
        {-1e-300, "-1e-300"},
        {1.7976931348623155e308, "1.7976931348623155e+308"},
        {5.447603722011605e-270, "5.447603722011605e-270"},
    };
    char out[CODEC_NUMBER_MAX_CHARS + 1];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = codec__format_double(cases[i].v, out);
        out[n] = '\0';
        CHECK_STR(out, cases[i].text);
        if (strcmp(out, cases[i].text) != 0)
            fprintf(stderr, "  got %s, want %s\n", out, cases[i].text);
    }
    static const struct {
        float v;
        const char *text;
    } fcases[] = {
        {0.1f, "0.1"},
        {16777216.0f, "16777216.0"},
        {FLT_MAX, "3.4028235e+38"},
        {FLT_MIN, "1.1754944e-38"},
        {FLT_TRUE_MIN, "1e-45"},
        {-0.0f, "-0.0"},
        {1.0f / 3.0f, "0.33333334"},
        {1e21f, "1e+21"},
        {3.0e10f, "30000000000.0"},
    };
    for (size_t i = 0; i < sizeof fcases / sizeof fcases[0]; i++) {
        size_t n = codec__format_float(fcases[i].v, out);
        out[n] = '\0';
        CHECK_STR(out, fcases[i].text);
        if (strcmp(out, fcases[i].text) != 0)
            fprintf(stderr, "  got %s, want %s\n", out, fcases[i].text);
    }
}

/* A finite double of one of several classes, chosen by the draw. */
static double random_double(void)
{
    uint64_t r = check_rand(&rng), b;
    switch (r % 8) {
    case 0: /* subnormal */
        b = check_rand(&rng) & ((UINT64_C(1) << 52) - 1);
        break;
    case 1: /* power of two, or a few units away */
        b = ((check_rand(&rng) % 2047) << 52) + ((r >> 8) % 5) - 2;
        break;
    case 2: { /* integer, mostly above 2^53 */
        double v = (double)(check_rand(&rng) >> ((r >> 8) % 40));
        b = bits_of(v);
        break;
    }
    case 3: { /* short decimal, as typed by people */
        char text[40];
        snprintf(text, sizeof text, "%" PRIu64 "e%d", check_rand(&rng) % 100000,
                 (int)((r >> 8) % 40) - 25);
        b = bits_of(strtod(text, NULL));
        break;
    }
    case 4: /* near the largest and smallest magnitudes */
        b = check_rand(&rng) % 2 ? UINT64_C(0x7FEFFFFFFFFFFFFF) - check_rand(&rng) % 1000
                                 : (check_rand(&rng) % 3000) + (((r >> 8) % 3) << 52);
        break;
    default: /* any bit pattern */
        b = check_rand(&rng);
        break;
    }
    if ((b & UINT64_C(0x7FF0000000000000)) == UINT64_C(0x7FF0000000000000))
        b ^= UINT64_C(1) << 62; /* keep it finite */
    return double_of(b ^ (r & UINT64_C(1) << 63));
}

static float random_float(void)
{
    uint64_t r = check_rand(&rng);
    uint32_t b;
    switch (r % 6) {
    case 0:
        b = (uint32_t)check_rand(&rng) & ((UINT32_C(1) << 23) - 1);
        break;
    case 1:
        b = (uint32_t)((check_rand(&rng) % 255) << 23) + (uint32_t)((r >> 8) % 5) - 2;
        break;
    case 2: {
        char text[40];
        snprintf(text, sizeof text, "%" PRIu64 "e%d", check_rand(&rng) % 10000,
                 (int)((r >> 8) % 30) - 20);
        b = bits_of_float(strtof(text, NULL));
        break;
    }
    default:
        b = (uint32_t)check_rand(&rng);
        break;
    }
    if ((b & 0x7F800000u) == 0x7F800000u)
        b ^= UINT32_C(1) << 30;
    return float_of(b ^ (uint32_t)(r >> 63 << 31));
}

static void test_format_random(void)
{
    for (int e = -1074; e <= 1023; e++) /* every power of two and its neighbours */
        for (int d = -1; d <= 1; d++)
            check_format(nextafter(ldexp(1.0, e), d < 0 ? 0.0 : d > 0 ? INFINITY : 1.0), 0);
    for (int e = -323; e <= 308; e++) { /* every power of ten */
        char text[16];
        snprintf(text, sizeof text, "1e%d", e);
        check_format(strtod(text, NULL), 0);
    }
    for (long i = 0; i < 100000L * SCALE; i++)
        check_format(random_double(), 0);
    for (int e = -149; e <= 127; e++)
        check_format((double)ldexpf(1.0f, e), 1);
    for (long i = 0; i < 100000L * SCALE; i++)
        check_format((double)random_float(), 1);
}

/* ---------------------------------------------------------------------------
 * Parsing */

/* Parses text with ours and with glibc; both must agree on the bits, and
 * ours must refuse exactly when glibc overflows to infinity. */
static void check_parse(const char *text, size_t n)
{
    double mine = 0, ref = strtod(text, NULL);
    int rc = codec__parse_double(text, n, &mine);
    int ok = isinf(ref) ? rc == -1 : rc == 0 && bits_of(mine) == bits_of(ref);
    CHECK(ok);
    if (!ok)
        report("parse double", text, ref);
    float fmine = 0, fref = strtof(text, NULL);
    rc = codec__parse_float(text, n, &fmine);
    ok = isinf(fref) ? rc == -1 : rc == 0 && bits_of_float(fmine) == bits_of_float(fref);
    CHECK(ok);
    if (!ok)
        report("parse float", text, (double)fref);
}

static void check_parse_str(const char *text)
{
    check_parse(text, strlen(text));
}

static size_t random_digits(char *p, size_t n, int first_nonzero)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (char)('0' + check_rand(&rng) % 10);
    if (first_nonzero && n > 0)
        p[0] = (char)('1' + check_rand(&rng) % 9);
    return n;
}

/* A random number in the JSON grammar: lengths and exponents of all sizes. */
static size_t random_number_text(char *buf)
{
    static const size_t int_lens[] = {1, 1, 2, 3, 5, 9, 16, 17, 19, 20, 25, 40, 300, 800};
    static const int exp_spans[] = {0, 5, 30, 330, 400};
    char *p = buf;
    if (check_rand(&rng) % 2)
        *p++ = '-';
    size_t il = int_lens[check_rand(&rng) % 14];
    if (check_rand(&rng) % 4 == 0)
        *p++ = '0';
    else
        p += random_digits(p, 1 + check_rand(&rng) % il, 1);
    if (check_rand(&rng) % 2) {
        *p++ = '.';
        size_t flen = int_lens[check_rand(&rng) % 14];
        size_t fl = 1 + check_rand(&rng) % flen;
        if (check_rand(&rng) % 3 == 0) { /* leading zeros in the fraction */
            size_t z = check_rand(&rng) % 30;
            memset(p, '0', z);
            p += z;
        }
        p += random_digits(p, fl, 0);
    }
    int span = exp_spans[check_rand(&rng) % 5];
    if (span) {
        int e = (int)(check_rand(&rng) % (uint64_t)(2 * span + 1)) - span;
        p += sprintf(p, "%s%d", check_rand(&rng) % 2 ? "e" : "E", e);
    }
    *p = '\0';
    return (size_t)(p - buf);
}

/* Decimals at, just below and just above the halfway point between two
 * neighbouring doubles (or floats): the hard cases for rounding. */
static void check_halfway(double a, int is_float)
{
    static char text[1000];
    long double lo = a, hi = is_float ? nextafterf((float)a, INFINITY) : nextafter(a, INFINITY);
    long double mid = lo + (hi - lo) / 2; /* exact: 54 or 25 bits */
    if (isinf(hi))
        return;
    int len = snprintf(text, sizeof text, "%.780Le", mid);
    char *e = strchr(text, 'e');
    char exp[8];
    snprintf(exp, sizeof exp, "%s", e);
    /* The last non-zero digit of the exact expansion. */
    char *last = e - 1;
    while (*last == '0')
        last--;
    check_parse(text, (size_t)len); /* exactly halfway: ties to even */
    size_t keep = (size_t)(last - text);
    char cut[1000];
    /* Just below: the expansion cut before its last digit. */
    snprintf(cut, sizeof cut, "%.*s%s", (int)keep, text, exp);
    if (cut[keep - 1] != '.')
        check_parse_str(cut);
    /* Just above: a 1 far after the last digit. */
    snprintf(cut, sizeof cut, "%.*s00000000000000000001%s", (int)(keep + 1), text, exp);
    check_parse_str(cut);
    /* A few digits only: the short neighbours of a tie. */
    size_t few = keep < 20 ? keep + 1 : 20;
    if (text[few - 1] == '.') /* a one-digit tie, as 9e9 is for floats */
        few--;
    snprintf(cut, sizeof cut, "%.*s%s", (int)few, text, exp);
    check_parse_str(cut);
}

static void test_parse_random(void)
{
    static char text[4096];
    for (long i = 0; i < 20000L * SCALE; i++) {
        size_t n = random_number_text(text);
        check_parse(text, n);
    }
    /* glibc's own renderings of random values, at every precision. */
    for (long i = 0; i < 20000L * SCALE; i++) {
        double v = random_double();
        int n = snprintf(text, sizeof text, "%.*e", (int)(check_rand(&rng) % 26), v);
        check_parse(text, (size_t)n);
        if (fabs(v) < 1e30 && fabs(v) > 1e-30) {
            n = snprintf(text, sizeof text, "%.*f", (int)(check_rand(&rng) % 40), v);
            check_parse(text, (size_t)n);
        }
    }
    for (long i = 0; i < 2000L * SCALE; i++) {
        check_halfway(fabs(random_double()), 0);
        check_halfway((double)fabsf(random_float()), 1);
    }
}

/* codec__double_from_decimal (the JSON decoders' way: all digits in w)
 * against strtod: w of 1 to 19 digits and exponents over the whole table,
 * most of them in the coordinate range (17 digits, 10^-18..10^-12) that
 * the one-product Eisel-Lemire step decides, and w ending in ...5, ...50,
 * ...499 or ...501 (near a halfway point between doubles) as often as not.
 * It may decline (1): then it must only be where the exact parser decides. */
static void test_from_decimal_random(void)
{
    static const uint64_t tails[4] = {5, 50, 499, 501};
    char text[64];
    long decided = 0, n = 200000L * SCALE;
    for (long i = 0; i < n; i++) {
        uint64_t r = check_rand(&rng);
        int nd = i & 1 ? 17 : 1 + (int)(r % 19);
        uint64_t w = 0;
        for (int d = 0; d < nd; d++)
            w = w * 10 + (check_rand(&rng) % 10);
        if (r >> 20 & 1) {
            uint64_t t = tails[r >> 21 & 3], p = t < 10 ? 10 : t < 100 ? 100 : 1000;
            w = w / p * p + t;
        }
        if (!w)
            w = 1;
        int q = i & 1 ? -12 - (int)(r >> 32 & 7) : -360 + (int)((r >> 32) % 680);
        bool neg = r >> 40 & 1;
        snprintf(text, sizeof text, "%s%" PRIu64 "e%d", neg ? "-" : "", w, q);
        double mine = 0, ref = strtod(text, NULL);
        if (codec__double_from_decimal(w, q, neg, &mine))
            continue;
        decided++;
        int ok = bits_of(mine) == bits_of(ref);
        CHECK(ok);
        if (!ok)
            report("double from decimal", text, ref);
    }
    CHECK(decided > n / 2);   /* the test reaches the fast steps */
}

static void test_parse_edges(void)
{
    static const char *cases[] = {
        "0", "-0", "0.0", "-0.0", "0e0", "0e-99999999999999999999", "0E+5", "1", "-1",
        "12.34", "-0.5", "1234567.125", "1e23", "8.98846567431158e307",
        "9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000001",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.79769313486231580793e308",
        "1.7976931348623159e308", "1e309", "1e99999999999999999999", "-1e400",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272e-324",
        "1e-324", "1e-400", "1e-99999999999999999999", "123456789012345678901234567890e-330",
        "3.4028235e38", "3.4028235677973366e38", "3.4028236e38", "1.4e-45", "7.006e-46",
        "7.0064923216240854e-46", "7.0064923216240862e-46", "1.17549435e-38",
        "0.000000000000000000000000000000000000000000001", "100000000000000000000000",
        "0.1e1", "10e-1", "1E22", "1e22", "4.35679e-10", "2.5e-8",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_parse_str(cases[i]);
}

/* Mantissas of 10,000 and 1,000,000 digits: bounded work, still exact. */
static void test_parse_long(void)
{
    size_t cap = 1000100;
    char *text = malloc(cap);
    for (int round = 0; round < 6; round++) {
        size_t n = round < 3 ? 10000 : 1000000;
        char *p = text;
        if (round % 3 == 0) { /* 0.000...0001 */
            memcpy(p, "0.", 2);
            memset(p + 2, '0', n);
            p += 2 + n;
            *p++ = '1';
        } else {
            p += random_digits(p, n, 1);
            if (round % 3 == 2) /* many digits, then the halfway point of 1 and 1+2^-52 */
                memcpy(text, "100000000000000011102230246251565404236316680908203125", 54),
                    memset(text + 54, '0', n - 54);
        }
        p += sprintf(p, "e-%zu", round % 3 == 1 ? n + 100 : round % 3 == 2 ? n - 1 : 0);
        check_parse(text, (size_t)(p - text));
        memset(text, '0', n + 2); /* all zeros: "000..." is not JSON, "0.000..." is */
        text[1] = '.';
        check_parse(text, n + 2);
    }
    /* Digits and exponent that cancel out: 0.(400 zeros)1e400, 1(400 zeros)e-400. */
    memcpy(text, "0.", 2);
    memset(text + 2, '0', 400);
    memcpy(text + 402, "1e400", 6);
    check_parse_str(text);
    memset(text, '0', 401);
    text[0] = '1';
    memcpy(text + 401, "e-400", 6);
    check_parse_str(text);
    free(text);
}

static void test_grammar(void)
{
    static const char *bad[] = {
        "", "-", "+1", "01", "-01", "00", "1.", ".5", "-.5", "1e", "1e+", "1e-", "1.e5",
        "1e5.5", "--1", "1..2", "0x10", "inf", "-inf", "nan", "Infinity", "NaN", " 1", "1 ",
        "1,5", "1e 5", "e5", "1.5f", "1_000", "١", "0.5.", "1ee5", "1e+-5", "\t1",
    };
    double v = 42;
    float f = 42;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(codec__parse_double(bad[i], strlen(bad[i]), &v), -1);
        CHECK_INT(codec__parse_float(bad[i], strlen(bad[i]), &f), -1);
    }
    CHECK(v == 42 && f == 42); /* untouched on failure */
    CHECK_INT(codec__parse_double("1\0", 2, &v), -1);
    CHECK_INT(codec__parse_double("12", 1, &v), 0);
    CHECK(v == 1);
    CHECK_INT(codec__parse_double("1e400", 5, &v), -1);
    CHECK_INT(codec__parse_float("1e39", 4, &f), -1);
    CHECK_INT(codec__parse_float("3.4028236e38", 12, &f), -1);
    CHECK_INT(codec__parse_double("-1E-400", 7, &v), 0);
    CHECK(v == 0 && signbit(v));
}

int main(void)
{
    test_format_examples();
    test_format_random();
    test_grammar();
    test_parse_edges();
    test_parse_long();
    test_parse_random();
    test_from_decimal_random();
    return check_done("test_number");
}
