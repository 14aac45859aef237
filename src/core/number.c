/* number.c — double <-> decimal text (see number_internal.h).
 * Reference implementation over the C library: the shortest round-trip
 * precision is searched with snprintf and checked with strtod. */
#include "number_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rewrites "%.{p}e" output (d.ddde±xx) into codec's style. */
static size_t style(const char *sci, char *dst)
{
    const char *p = sci;
    char digits[24];
    size_t nd = 0;
    int neg = *p == '-';
    if (neg)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    int exp = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    size_t len = 0;
    if (neg)
        dst[len++] = '-';
    if (exp >= -7 && exp < 21) {
        if (exp < 0) {
            dst[len++] = '0';
            dst[len++] = '.';
            for (int i = -1; i > exp; i--)
                dst[len++] = '0';
            memcpy(dst + len, digits, nd);
            len += nd;
        } else {
            for (int i = 0; i <= exp; i++)
                dst[len++] = (size_t)i < nd ? digits[i] : '0';
            dst[len++] = '.';
            if ((size_t)exp + 1 < nd) {
                memcpy(dst + len, digits + exp + 1, nd - (size_t)exp - 1);
                len += nd - (size_t)exp - 1;
            } else {
                dst[len++] = '0';
            }
        }
        return len;
    }
    dst[len++] = digits[0];
    if (nd > 1) {
        dst[len++] = '.';
        memcpy(dst + len, digits + 1, nd - 1);
        len += nd - 1;
    }
    len += (size_t)sprintf(dst + len, "e%c%d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return len;
}

size_t codec_format_double(double v, char *dst)
{
    char sci[40];
    for (int prec = 0; prec < 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec, v);
        if (strtod(sci, NULL) == v)
            return style(sci, dst);
    }
    snprintf(sci, sizeof sci, "%.16e", v);
    return style(sci, dst);
}

size_t codec_format_float(float v, char *dst)
{
    char sci[40];
    for (int prec = 0; prec < 9; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec, (double)v);
        if (strtof(sci, NULL) == v)
            return style(sci, dst);
    }
    snprintf(sci, sizeof sci, "%.8e", (double)v);
    return style(sci, dst);
}

int codec_parse_double(const char *s, size_t n, double *out)
{
    char tmp[512];
    char *heap = NULL, *text = tmp;
    if (n >= sizeof tmp) {
        heap = malloc(n + 1);
        if (!heap)
            return -1;
        text = heap;
    }
    memcpy(text, s, n);
    text[n] = '\0';
    char *end;
    double v = strtod(text, &end);
    int ok = end == text + n && n > 0 && !isinf(v);
    free(heap);
    if (!ok)
        return -1;
    *out = v;
    return 0;
}
