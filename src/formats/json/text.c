/* text.c — the JSON string forms of the kinds JSON has no syntax for:
 * bytes (base64, RFC 4648 §4, padded) and UUID (8-4-4-4-12 lower-case hex).
 * Dates and timestamps use the format-neutral text of types/time_text.c. */
#include "formats/json/json_text_internal.h"

#include <string.h>

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t codec__json_base64_encode(const uint8_t *src, size_t n, char *dst)
{
    size_t o = 0, i = 0;
    for (; n - i >= 3; i += 3) {
        uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2];
        dst[o++] = b64[v >> 18];
        dst[o++] = b64[v >> 12 & 63];
        dst[o++] = b64[v >> 6 & 63];
        dst[o++] = b64[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)src[i] << 16;
        dst[o++] = b64[v >> 18];
        dst[o++] = b64[v >> 12 & 63];
        dst[o++] = '=';
        dst[o++] = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8;
        dst[o++] = b64[v >> 18];
        dst[o++] = b64[v >> 12 & 63];
        dst[o++] = b64[v >> 6 & 63];
        dst[o++] = '=';
    }
    return o;
}

static int b64_digit(char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

int codec__json_base64_decode(const char *s, size_t n, uint8_t *dst, size_t *out_len)
{
    if (n % 4)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int pad = 0;
        if (i + 4 == n)
            pad = (s[n - 1] == '=') + (s[n - 2] == '=' && s[n - 1] == '=');
        int d[4] = {0, 0, 0, 0};
        for (int k = 0; k < 4 - pad; k++)
            if ((d[k] = b64_digit(s[i + k])) < 0)
                return -1;
        uint32_t v =
            (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12 | (uint32_t)d[2] << 6 | (uint32_t)d[3];
        /* Canonical only: the bits under the padding must be zero. */
        if ((pad == 1 && (v & 0xFF)) || (pad == 2 && (v & 0xFFFF)))
            return -1;
        dst[o++] = (uint8_t)(v >> 16);
        if (pad < 2)
            dst[o++] = (uint8_t)(v >> 8);
        if (pad < 1)
            dst[o++] = (uint8_t)v;
    }
    *out_len = o;
    return 0;
}

size_t codec__json_format_uuid(const codec_uuid *u, char *dst)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            dst[o++] = '-';
        dst[o++] = hex[u->bytes[i] >> 4];
        dst[o++] = hex[u->bytes[i] & 15];
    }
    return o;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)(c | 0x20);
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

int codec__json_parse_uuid(const char *s, size_t n, codec_uuid *u)
{
    if (n != 36)
        return -1;
    size_t j = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            if (s[j++] != '-')
                return -1;
        }
        int hi = hexval(s[j]), lo = hexval(s[j + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        u->bytes[i] = (uint8_t)(hi << 4 | lo);
        j += 2;
    }
    return 0;
}
