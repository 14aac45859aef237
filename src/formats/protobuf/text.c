/* text.c — the check the protobuf backend makes on decimal text: it keeps
 * the JSON number grammar of codec_type_decimal. (proto3 `string` fields
 * must be UTF-8, checked with codec_utf8_valid.) */
#include "formats/protobuf/pb_internal.h"

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
