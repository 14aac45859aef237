/* text.c — the checks the protobuf backend makes on text: proto3 `string`
 * fields must be UTF-8 (Google's parsers reject anything else, so codec
 * neither writes nor accepts it), and decimals keep the JSON number grammar
 * of codec_type_decimal. */
#include "formats/protobuf/pb_internal.h"

/* Length of the UTF-8 sequence starting at s[0..n), or 0 when invalid
 * (overlong forms, surrogates, beyond U+10FFFF, truncated). */
static size_t utf8_sequence(const uint8_t *s, size_t n)
{
    uint8_t c = s[0];
    if (c >= 0xC2 && c <= 0xDF)
        return n >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F))
            return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))
            return 0;
        return 4;
    }
    return 0;
}

int pb_utf8_check(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        /* ASCII runs, eight bytes at a time. */
        while (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ull)
                break;
            i += 8;
        }
        if (i == n)
            break;
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = utf8_sequence(s + i, n - i);
        if (!len)
            return -1;
        i += len;
    }
    return 0;
}

static size_t digits(const char *s, size_t i, size_t n)
{
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i - start;
}

int pb_decimal_check(const char *s, size_t n)
{
    size_t i = 0, k;
    if (i < n && s[i] == '-')
        i++;
    if (!(k = digits(s, i, n)) || (k > 1 && s[i] == '0'))
        return -1;
    i += k;
    if (i < n && s[i] == '.') {
        if (!(k = digits(s, ++i, n)))
            return -1;
        i += k;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (!(k = digits(s, i, n)))
            return -1;
        i += k;
    }
    return i == n ? 0 : -1;
}
