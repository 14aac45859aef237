/* escape.c — external bytes made safe to show in a message. */
#include "core/escape_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Appends "\xNN" if it fits (with the NUL). */
static bool put_hex(char *dst, size_t cap, size_t *o, unsigned char c)
{
    if (*o + 5 > cap)
        return false;
    snprintf(dst + *o, cap - *o, "\\x%02x", c);
    *o += 4;
    return true;
}

char *codec__quote_bytes(char *dst, size_t cap, const void *src, size_t n, size_t max_in)
{
    if (cap == 0)
        return dst;
    const unsigned char *s = src;
    size_t o = 0, i = 0;
    for (; i < n && i < max_in; i++) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
            if (o + 2 > cap)
                break;
            dst[o++] = (char)c;
        } else if (!put_hex(dst, cap, &o, c)) {
            break;
        }
    }
    if (i < n && o + 4 <= cap) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o] = '\0';
    return dst;
}

/* The length of the valid UTF-8 sequence at s that is not a C1 control
 * (U+0080..U+009F), or 0. s is NUL-terminated, so the checks stop there. */
static size_t printable_utf8(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t len = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xc2 && s[1] < 0xa0) ||      /* C1 controls */
        (c == 0xe0 && s[1] < 0xa0) ||      /* overlong */
        (c == 0xed && s[1] >= 0xa0) ||     /* surrogates */
        (c == 0xf0 && s[1] < 0x90) ||      /* overlong */
        (c == 0xf4 && s[1] >= 0x90))       /* beyond U+10FFFF */
        return 0;
    return len;
}

void codec__escape_controls(char *dst, size_t cap, const char *src)
{
    if (cap == 0)
        return;
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    while (*s) {
        size_t len = *s >= 0x80 ? printable_utf8(s) : (*s >= 0x20 && *s != 0x7f);
        if (len == 0) {
            if (!put_hex(dst, cap, &o, *s))
                break;
            s++;
            continue;
        }
        if (o + len + 1 > cap)
            break;
        memcpy(dst + o, s, len);
        o += len;
        s += len;
    }
    dst[o] = '\0';
}
