/* time_text.c — the text forms of dates (YYYY-MM-DD) and timestamps
 * (RFC 3339), shared by the formats that write them as text (JSON) or in
 * tagged text (CBOR tag 0). */
#include "types/time_text_internal.h"

#include <string.h>

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

int codec__format_date(codec_date d, char *dst)
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

int codec__parse_date(const char *s, size_t n, codec_date *d)
{
    if (n != 10 || s[4] != '-' || s[7] != '-')
        return -1;
    int y = read_digits(s, 4), m = read_digits(s + 5, 2), day = read_digits(s + 8, 2);
    if (y < 0 || m < 0 || day < 0)
        return -1;
    return codec_date_from_ymd(y, m, day, d);
}

#define DAY 86400

int codec__format_timestamp(const codec_timestamp *t, char *dst)
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
    int len = codec__format_date((codec_date){(int32_t)days}, dst);
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

int codec__parse_timestamp(const char *s, size_t n, codec_timestamp *t)
{
    codec_date d;
    if (n < 20 || codec__parse_date(s, 10, &d) || (s[10] != 'T' && s[10] != 't') || s[13] != ':' ||
        s[16] != ':')
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
