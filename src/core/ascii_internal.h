/* ascii_internal.h — character helpers shared by the parsers of key files,
 * URLs and other text the library reads, and by the text encodings' line
 * handling. */
#ifndef CODEC_ASCII_INTERNAL_H
#define CODEC_ASCII_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The value of one hex digit (either case), or -1. */
static inline int codec_hex_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The first CR or LF in p[0..n), or NULL: memchr (vectorised) for each,
 * the CR search cut at the LF found. */
static inline const uint8_t *codec_find_line_break(const uint8_t *p, size_t n)
{
    const uint8_t *lf = memchr(p, '\n', n);
    const uint8_t *cr = memchr(p, '\r', lf ? (size_t)(lf - p) : n);
    return cr ? cr : lf;
}

/* Copies src[0..n) to dst without its CR and LF bytes, a run at a time
 * (text wrapped into lines is a few breaks per 64-76 characters).
 * @return the bytes written (dst needs room for n). */
static inline size_t codec_copy_skipping_line_breaks(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t len = 0;
    while (n) {
        const uint8_t *brk = codec_find_line_break(src, n);
        size_t run = brk ? (size_t)(brk - src) : n;
        memcpy(dst + len, src, run);
        len += run;
        run += brk != NULL; /* and the break itself */
        src += run;
        n -= run;
    }
    return len;
}

#endif
