/* text.c — the JSON string forms of the kinds JSON has no syntax for:
 * bytes (base64, RFC 4648 §4, padded), UUID (8-4-4-4-12 lower-case hex),
 * date (YYYY-MM-DD) and timestamp (RFC 3339). */
#include "formats/json/json_text.h"

#include <string.h>

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t json_base64_encode(const uint8_t *src, size_t n, char *dst)
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

int json_base64_decode(const char *s, size_t n, uint8_t *dst, size_t *out_len)
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
        uint32_t v = (uint32_t)d[0] << 18 | (uint32_t)d[1] << 12 | (uint32_t)d[2] << 6 | (uint32_t)d[3];
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

size_t json_format_uuid(const codec_uuid *u, char *dst)
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

int json_parse_uuid(const char *s, size_t n, codec_uuid *u)
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

/* Writes `v` as exactly `w` decimal digits. */
static void digits(char *dst, unsigned v, int w)
{
    for (int i = w - 1; i >= 0; i--, v /= 10)
        dst[i] = (char)('0' + v % 10);
}

/* Reads exactly `w` digits; -1 when one is not a digit. */
static int read_digits(const char *s, int w)
{
    int v = 0;
    for (int i = 0; i < w; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

int json_format_date(codec_date d, char *dst)
{
    int32_t y;
    int m, day;
    codec_date_to_ymd(d, &y, &m, &day);
    if (y < 0 || y > 9999)
        return -1;
    digits(dst, (unsigned)y, 4);
    dst[4] = '-';
    digits(dst + 5, (unsigned)m, 2);
    dst[7] = '-';
    digits(dst + 8, (unsigned)day, 2);
    return 10;
}

int json_parse_date(const char *s, size_t n, codec_date *d)
{
    if (n != 10 || s[4] != '-' || s[7] != '-')
        return -1;
    int y = read_digits(s, 4), m = read_digits(s + 5, 2), day = read_digits(s + 8, 2);
    if (y < 0 || m < 0 || day < 0)
        return -1;
    return codec_date_from_ymd(y, m, day, d);
}

#define DAY 86400

int json_format_timestamp(const codec_timestamp *t, char *dst)
{
    if (t->nanos < 0 || t->nanos > 999999999 || t->offset_minutes < -1439 ||
        t->offset_minutes > 1439)
        return -1;
    /* Keep the arithmetic inside years 0..9999 (and far from overflow). */
    if (t->seconds < -62167219200 - DAY || t->seconds > 253402300799 + DAY)
        return -1;
    int64_t local = t->seconds + (int64_t)t->offset_minutes * 60;
    int64_t days = local >= 0 ? local / DAY : -((-local + DAY - 1) / DAY);
    int64_t sod = local - days * DAY;
    int len = json_format_date((codec_date){(int32_t)days}, dst);
    if (len < 0)
        return -1;
    dst[10] = 'T';
    digits(dst + 11, (unsigned)(sod / 3600), 2);
    dst[13] = ':';
    digits(dst + 14, (unsigned)(sod / 60 % 60), 2);
    dst[16] = ':';
    digits(dst + 17, (unsigned)(sod % 60), 2);
    len = 19;
    if (t->nanos) {
        int w = t->nanos % 1000000 == 0 ? 3 : t->nanos % 1000 == 0 ? 6 : 9;
        unsigned frac = (unsigned)t->nanos / (w == 3 ? 1000000u : w == 6 ? 1000u : 1u);
        dst[len++] = '.';
        digits(dst + len, frac, w);
        len += w;
    }
    if (t->offset_minutes == 0) {
        dst[len++] = 'Z';
    } else {
        int off = t->offset_minutes < 0 ? -t->offset_minutes : t->offset_minutes;
        dst[len++] = t->offset_minutes < 0 ? '-' : '+';
        digits(dst + len, (unsigned)(off / 60), 2);
        dst[len + 2] = ':';
        digits(dst + len + 3, (unsigned)(off % 60), 2);
        len += 5;
    }
    return len;
}

int json_parse_timestamp(const char *s, size_t n, codec_timestamp *t)
{
    codec_date d;
    if (n < 20 || json_parse_date(s, 10, &d) || (s[10] != 'T' && s[10] != 't') ||
        s[13] != ':' || s[16] != ':')
        return -1;
    int hh = read_digits(s + 11, 2), mm = read_digits(s + 14, 2), ss = read_digits(s + 17, 2);
    if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59)
        return -1;
    size_t i = 19;
    int32_t nanos = 0;
    if (s[i] == '.') {
        int w = 0;
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, w++) {
            if (w == 9)
                return -1;
            nanos = nanos * 10 + (s[i] - '0');
        }
        if (w == 0)
            return -1;
        for (; w < 9; w++)
            nanos *= 10;
    }
    int offset = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i < n && (s[i] == '+' || s[i] == '-')) {
        if (n - i < 6 || s[i + 3] != ':')
            return -1;
        int oh = read_digits(s + i + 1, 2), om = read_digits(s + i + 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59)
            return -1;
        offset = (oh * 60 + om) * (s[i] == '-' ? -1 : 1);
        i += 6;
    } else {
        return -1;
    }
    if (i != n)
        return -1;
    t->seconds = (int64_t)d.days * DAY + hh * 3600 + mm * 60 + ss - (int64_t)offset * 60;
    t->nanos = nanos;
    t->offset_minutes = offset;
    return 0;
}
