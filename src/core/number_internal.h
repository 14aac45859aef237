/* number_internal.h — exact conversions between binary floating point and
 * decimal text, shared by every text format (JSON today).
 *
 * Formatting gives the shortest decimal that reads back to exactly the same
 * value (among equally short ones, the nearest to the value, ties to an even
 * last digit), and always shows a fraction or an exponent, so a reader can
 * tell a double from an integer: 12.0, 0.1, -0.0, 1.5e-7, 1e+21.
 *   - decimal notation when 1e-7 <= |v| < 1e21 ("123.25", "0.000001");
 *   - otherwise d[.ddd]e±x ("1e+21", "2.5e-8", "1.7976931348623157e+308").
 * Parsing is correctly rounded (round half to even) for any length of input,
 * takes time linear in the length and never allocates.
 * All functions are pure and safe to call from any number of threads.
 * Algorithms, tables and guarantees: docs/formats/numbers.md. */
#ifndef CODEC_NUMBER_INTERNAL_H
#define CODEC_NUMBER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The most characters codec__format_double/float write (no NUL is written). */
#define CODEC_NUMBER_MAX_CHARS 32

/* Writes finite `v` to dst and returns the length. dst must have room for
 * CODEC_NUMBER_MAX_CHARS bytes, all of which may be written (bytes past the
 * returned length are scratch). NaN and infinities are the caller's to
 * reject. */
size_t codec__format_double(double v, char *dst);

/* The same for a float: the shortest text that reads back as the same float. */
size_t codec__format_float(float v, char *dst);

/* Parses s[0..n), which must match the JSON number grammar
 * (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), to the nearest double.
 * Returns 0, or -1 when the text is not in that grammar or the value
 * overflows to infinity (magnitude too large); tiny values round to the
 * nearest subnormal or to (signed) 0. */
int codec__parse_double(const char *s, size_t n, double *out);

/* The double nearest to (neg ? -1 : 1) * w * 10^q, for a decoder that has
 * read the digits itself (w is all of them, none dropped): 0 when Clinger's
 * fast path or the Eisel-Lemire step decides it, 1 when they do not (q out
 * of the table, overflow, or a rounding that needs the exact comparison):
 * then call codec__parse_double on the text. */
int codec__double_from_decimal(uint64_t w, int64_t q, bool neg, double *out);

/* codec__double_from_decimal() with the double's bits returned in a
 * register (a decoder storing them needs no trip through memory), or
 * CODEC_DECIMAL_DECLINED (the bits of a NaN, which no decimal gives) where
 * that returns 1. */
#define CODEC_DECIMAL_DECLINED UINT64_MAX
uint64_t codec__double_bits_from_decimal(uint64_t w, int64_t q, bool neg);

/* The same grammar and rules, rounded once, directly to the nearest float
 * (not through a double, which could round twice). */
int codec__parse_float(const char *s, size_t n, float *out);

/* "00" "01" ... "99": two digits per entry. */
extern const char codec__digit_pairs[201];

/* Writes the decimal digits of v right-aligned to end at `end`, two at a
 * time; returns how many. */
static inline int codec_write_digits(uint64_t v, char *end)
{
    char *p = end;
    while (v >= 100) {
        uint64_t q = v / 100;
        p -= 2;
        memcpy(p, codec__digit_pairs + 2 * (v - q * 100), 2);
        v = q;
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, codec__digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    return (int)(end - p);
}

#endif
