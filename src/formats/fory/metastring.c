/* metastring.c — Fory's meta-string packing of field names in TypeDefs:
 * 5 bits a character for lower-case names (encoding 1, ALL_TO_LOWER_SPECIAL,
 * '|' escaping upper case), 6 bits for names with digits or capitals
 * (encoding 2, LOWER_UPPER_DIGIT_SPECIAL with '$' and '_'), UTF-8 otherwise
 * (encoding 0). The first bit says whether the last decoded character is
 * padding. */
#include "formats/fory/fory_internal.h"

#include <string.h>

static const char lower_special[] = "abcdefghijklmnopqrstuvwxyz._$|";
static const char luds[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$_";

static int code_of(const char *table, size_t n, char c)
{
    const char *p = memchr(table, c, n);
    return p ? (int)(p - table) : -1;
}

/* Packs n codes of `bits` bits after the strip flag; returns the byte count. */
static size_t pack(const uint8_t *codes, size_t n, unsigned bits, uint8_t *out)
{
    size_t total = n * bits + 1;
    size_t bytes = (total + 7) / 8;
    bool strip = bytes * 8 >= total + bits;
    memset(out, 0, bytes);
    size_t pos = 0;
    if (strip)
        out[0] = 0x80;
    pos = 1;
    for (size_t i = 0; i < n; i++)
        for (unsigned b = 0; b < bits; b++, pos++)
            if (codes[i] >> (bits - 1 - b) & 1)
                out[pos / 8] |= (uint8_t)(0x80 >> (pos % 8));
    return bytes;
}

size_t codec__fory_metastring_encode(const char *s, size_t n, uint8_t *out, int *encoding)
{
    uint8_t codes[256];
    bool lower = n <= sizeof codes, ludsok = n <= sizeof codes;
    for (size_t i = 0; i < n && (lower || ludsok); i++) {
        if (code_of(lower_special, 28, s[i]) < 0)
            lower = false;
        if (code_of(luds, 64, s[i]) < 0)
            ludsok = false;
    }
    if (lower) {
        for (size_t i = 0; i < n; i++)
            codes[i] = (uint8_t)code_of(lower_special, 30, s[i]);
        *encoding = 1;
        return pack(codes, n, 5, out);
    }
    if (ludsok) {
        for (size_t i = 0; i < n; i++)
            codes[i] = (uint8_t)code_of(luds, 64, s[i]);
        *encoding = 2;
        return pack(codes, n, 6, out);
    }
    memcpy(out, s, n);
    *encoding = 0;
    return n;
}

int codec__fory_metastring_decode(const uint8_t *in, size_t n, int encoding, char *out, size_t cap,
                                  size_t *out_len)
{
    if (encoding == 0) {
        if (n > cap)
            return -1;
        memcpy(out, in, n);
        *out_len = n;
        return 0;
    }
    if (encoding != 1 && encoding != 2)
        return -1;
    if (n == 0) {
        *out_len = 0;
        return 0;
    }
    unsigned bits = encoding == 1 ? 5 : 6;
    size_t chars = (n * 8 - 1) / bits;
    if (in[0] & 0x80) {
        if (chars == 0)
            return -1;
        chars--;
    }
    size_t o = 0, pos = 1;
    bool upper_next = false;
    for (size_t i = 0; i < chars; i++) {
        unsigned c = 0;
        for (unsigned b = 0; b < bits; b++, pos++)
            c = c << 1 | (unsigned)(in[pos / 8] >> (7 - pos % 8) & 1);
        if (encoding == 2) {
            if (o == cap)
                return -1;
            out[o++] = luds[c];
            continue;
        }
        if (c >= 30)
            return -1;
        if (lower_special[c] == '|') {
            upper_next = true;
            continue;
        }
        if (o == cap)
            return -1;
        char ch = lower_special[c];
        out[o++] = upper_next && ch >= 'a' && ch <= 'z' ? (char)(ch - 32) : ch;
        upper_next = false;
    }
    *out_len = o;
    return 0;
}
