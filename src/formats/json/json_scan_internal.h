/* json_scan_internal.h — the string scan and short copies shared by the reader
 * (reader.c), the fast decoder and validator (decode.c) and the encoder
 * (encode.c). Inline: they sit on every string. */
#ifndef CODEC_JSON_SCAN_H
#define CODEC_JSON_SCAN_H

#include "formats/json/json_internal.h"
#include "core/cpu_internal.h"
#include "core/load_internal.h"

#include <string.h>
#if CODEC_SSE2
#include <emmintrin.h>
#endif

/* A long-string kernel (codec__json_scan_string_avx2's contract), or NULL. */
typedef const uint8_t *(*json_scan_fn)(const uint8_t *p, const uint8_t *end);

/* The kernel for this CPU (codec_cpu_features(), chosen once), or NULL. */
json_scan_fn codec__json_long_scanner(void);

/* A string-body copier (codec__json_copy_string's contract). */
typedef const uint8_t *(*json_copy_fn)(const uint8_t *p, const uint8_t *end, uint8_t *dst,
                                       const uint8_t *dst_end);

/* The copier for this CPU (chosen once): the AVX2 kernel, or the portable
 * codec__json_copy_string; never NULL. */
json_copy_fn codec__json_string_copier(void);

/* A container skipper (codec__json_skip_avx512's contract), or NULL. */
typedef const uint8_t *(*json_skip_fn)(const uint8_t *p, const uint8_t *end, uint32_t room,
                                       size_t max_string);

/* The container skipper for this CPU (chosen once), or NULL. */
json_skip_fn codec__json_container_skipper(void);

#define JSON_ONES 0x0101010101010101u
#define JSON_HIGHS 0x8080808080808080u

/* The high bit of each byte of x that is '"', '\\', below 0x20 or 0x80 and
 * above; the lowest one is exact (higher ones may be spurious), so it
 * answers "is there one" and "where is the first". */
static inline uint64_t json_special_bytes(uint64_t x)
{
    uint64_t q = x ^ (JSON_ONES * '"'), b = x ^ (JSON_ONES * '\\');
    return (((q - JSON_ONES) & ~q) | ((b - JSON_ONES) & ~b) | ((x - JSON_ONES * 0x20) & ~x) | x) &
           JSON_HIGHS;
}

#if CODEC_SSE2
/* The bytes of x that are '"', '\\', control or 0x80 and above (a signed
 * compare with 0x20 flags the last two). */
static inline __m128i json_special_in(__m128i x)
{
    return _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                     _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
                        _mm_cmplt_epi8(x, _mm_set1_epi8(0x20)));
}

/* Bit i set when byte i of x is '"', '\\', a control byte or 0x80 and
 * above. */
static inline unsigned json_special16v(__m128i x)
{
    return (unsigned)_mm_movemask_epi8(json_special_in(x));
}

/* json_special16v of p[0..16). */
static inline unsigned json_special16(const uint8_t *p)
{
    return json_special16v(_mm_loadu_si128((const __m128i *)p));
}
#endif

#if CODEC_SSE2
/* Bit i set when p[i] (of 16) is JSON white space: ' ', '\n', '\r', '\t'. */
static inline unsigned json_space16(const uint8_t *p)
{
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
                              _mm_cmpeq_epi8(x, _mm_set1_epi8('\n')));
    __m128i other = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\r')),
                                 _mm_cmpeq_epi8(x, _mm_set1_epi8('\t')));
    __m128i hit = _mm_or_si128(sp, other);
    return (unsigned)_mm_movemask_epi8(hit);
}
#endif

/* Scans a string body from p: returns its closing quote; or the first byte
 * that is not allowed there (a control byte, or the start of invalid UTF-8);
 * or end when the input ends first (also inside an escape). *escaped tells
 * whether a backslash was seen; escapes are checked when the body is
 * unescaped. With a kernel, non-ASCII text and what is left of a string
 * longer than 64 bytes go to it (16-byte SSE2 steps before that, which is
 * all most strings need; 8-byte SWAR steps without SSE2), and NULL means it
 * found invalid UTF-8 without saying where: scan again without it. */
static inline const uint8_t *json_string_scan(const uint8_t *p, const uint8_t *end,
                                              bool *escaped, json_scan_fn scan)
{
#if CODEC_SSE2
    const uint8_t *start = p;
#else
    (void)scan;   /* the long-string kernels need SSE2 */
#endif
    for (;;) {
#if CODEC_SSE2
        while (end - p >= 16) {
            unsigned m = json_special16(p);
            if (m) {
                p += __builtin_ctz(m);
                goto special;
            }
            p += 16;
            if (scan && p - start >= 64 && end - p >= 32) {
                if (!(p = scan(p, end)))
                    return NULL;
                break;
            }
        }
        if (end - p >= 16)
            continue;
#endif
        while (end - p >= 8) {
            uint64_t m = json_special_bytes(codec_load_le64(p));
            if (m) {
                p += __builtin_ctzll(m) >> 3;
                goto special;
            }
            p += 8;
        }
        while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            p++;
        if (p == end)
            return end;
    special:
        if (*p == '"' || *p < 0x20)
            return p;
        if (*p == '\\') {
            *escaped = true;
            if (end - p < 2)
                return end;
            p += 2;
        } else if (scan && end - p >= 32) {
            if (!(p = scan(p, end)))
                return NULL;
        } else {
            size_t k = codec_utf8_sequence(p, end);
            if (!k)
                return p;
            p += k;
        }
    }
}

/* How many of the 8 bytes in x (first byte lowest) are ASCII digits before
 * the first other byte. A carry out of a byte >= 0xFA can only disturb the
 * bytes after it, which do not count. */
static inline unsigned json_leading_digits8(uint64_t x)
{
    uint64_t hi = (x & 0xF0F0F0F0F0F0F0F0u) ^ 0x3030303030303030u;
    uint64_t over = ((x + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) ^ 0x3030303030303030u;
    uint64_t other = hi | over;
    return other ? (unsigned)__builtin_ctzll(other) >> 3 : 8;
}

/* The end of the run of ASCII digits at p, eight bytes at a time. */
static inline const uint8_t *json_skip_digits(const uint8_t *p, const uint8_t *end)
{
    for (; end - p >= 8; p += 8) {
        unsigned n = json_leading_digits8(codec_load_le64(p));
        if (n < 8)
            return p + n;
    }
    while (p < end && (unsigned)(*p - '0') < 10)
        p++;
    return p;
}

/* The end of a number in JSON grammar at p (p < end), or NULL. */
static inline const uint8_t *json_number_end(const uint8_t *p, const uint8_t *end)
{
    p += *p == '-';
    if (p == end)
        return NULL;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        p = json_skip_digits(p, end);
    else
        return NULL;
    if (p < end && *p == '.') {
        if (++p == end || (unsigned)(*p - '0') >= 10)
            return NULL;
        p = json_skip_digits(p, end);
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p == end || (unsigned)(*p - '0') >= 10)
            return NULL;
        p = json_skip_digits(p, end);
    }
    return p;
}

/* Copies s[0..n) to d (exactly n bytes written) and tells whether the text
 * is printable ASCII without '"' and '\\', i.e. written as is. One pass:
 * every byte is loaded once, stored and tested (short strings by
 * overlapping loads, never reading outside s[0..n)). */
static inline bool json_copy_plain(uint8_t *d, const uint8_t *s, size_t n)
{
#if CODEC_SSE2
    __m128i x;
    if (n >= 16) {
        __m128i hit = _mm_setzero_si128();
        for (size_t i = 0; i + 16 < n; i += 16) {
            x = _mm_loadu_si128((const __m128i *)(s + i));
            _mm_storeu_si128((__m128i *)(d + i), x);
            hit = _mm_or_si128(hit, json_special_in(x));
        }
        x = _mm_loadu_si128((const __m128i *)(s + n - 16));
        _mm_storeu_si128((__m128i *)(d + n - 16), x);
        return !_mm_movemask_epi8(_mm_or_si128(hit, json_special_in(x)));
    }
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
        x = _mm_set_epi64x((long long)b, (long long)a);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4), memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4), memcpy(d + n - 4, &b, 4);
        x = _mm_set_epi32((int)b, (int)a, (int)b, (int)a);
    } else if (n) {
        /* 1..3 bytes: the first, middle and last one cover them. */
        uint8_t a = s[0], b = s[n >> 1], c = s[n - 1];
        d[0] = a, d[n >> 1] = b, d[n - 1] = c;
        x = _mm_set1_epi32((int)((uint32_t)a | (uint32_t)b << 8 | (uint32_t)c << 16 |
                                 (uint32_t)a << 24));
    } else {
        return true;
    }
    return !_mm_movemask_epi8(json_special_in(x));
#else
    bool plain = true;
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
        plain &= s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' && s[i] != '\\';
    }
    return plain;
#endif
}

/* memcpy without a call for the short names and strings most are: two
 * overlapping moves cover 4..32 bytes. */
static inline void json_copy_short(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n > 16) {
#if CODEC_SSE2
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));
        _mm_storeu_si128((__m128i *)d, a);
        _mm_storeu_si128((__m128i *)(d + n - 16), b);
#else
        memcpy(d, s, n);
#endif
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4), memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4), memcpy(d + n - 4, &b, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

#endif
