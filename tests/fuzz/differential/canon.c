/* canon.c — see canon.h. */
#include "canon.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void canon_init(canon *c)
{
    memset(c, 0, sizeof *c);
}

void canon_free(canon *c)
{
    free(c->text);
    canon_init(c);
}

static void put(canon *c, const void *p, size_t n)
{
    if (c->len + n + 1 > c->cap) {
        size_t cap = c->cap ? c->cap : 256;
        while (cap < c->len + n + 1)
            cap *= 2;
        c->text = realloc(c->text, cap);
        if (!c->text)
            abort();
        c->cap = cap;
    }
    if (n)   /* an empty string may come as NULL */
        memcpy(c->text + c->len, p, n);
    c->len += n;
    c->text[c->len] = 0;
}

static void putf(canon *c, const char *fmt, unsigned long long a, int negative)
{
    char tmp[48];
    int n = snprintf(tmp, sizeof tmp, fmt, negative ? "-" : "", a);
    put(c, tmp, (size_t)n);
}

void canon_null(canon *c)
{
    put(c, "n", 1);
}

void canon_bool(canon *c, bool b)
{
    put(c, b ? "t" : "f", 1);
}

void canon_int(canon *c, int64_t i)
{
    unsigned long long magnitude = i < 0 ? 0ull - (unsigned long long)i : (unsigned long long)i;
    putf(c, "i%s%llu ", magnitude, i < 0);
}

void canon_uint(canon *c, uint64_t u)
{
    putf(c, "i%s%llu ", u, 0);
}

void canon_double(canon *c, double d)
{
    char tmp[48];
    int n = isnan(d) ? snprintf(tmp, sizeof tmp, "dnan ") : snprintf(tmp, sizeof tmp, "d%a ", d);
    put(c, tmp, (size_t)n);
}

static void sized(canon *c, char kind, const void *p, size_t n)
{
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "%c%zu:", kind, n);
    put(c, tmp, (size_t)k);
    put(c, p, n);
}

void canon_string(canon *c, const void *p, size_t n)
{
    sized(c, 's', p, n);
}

void canon_bytes(canon *c, const void *p, size_t n)
{
    sized(c, 'b', p, n);
}

void canon_open(canon *c, char bracket, size_t count)
{
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "%c%zu ", bracket, count);
    put(c, tmp, (size_t)k);
}

void canon_close(canon *c)
{
    put(c, ".", 1);
}

void canon_value(canon *c, const codec_value *v)
{
    switch (v->kind) {
    case CODEC_V_NULL: canon_null(c); return;
    case CODEC_V_BOOL: canon_bool(c, v->as.b); return;
    case CODEC_V_INT: canon_int(c, v->as.i); return;
    case CODEC_V_UINT: canon_uint(c, v->as.u); return;
    case CODEC_V_DOUBLE: canon_double(c, v->as.d); return;
    case CODEC_V_STRING: canon_string(c, v->as.s.ptr, v->as.s.len); return;
    case CODEC_V_BYTES: canon_bytes(c, v->as.bytes.data, v->as.bytes.len); return;
    case CODEC_V_ARRAY:
        canon_open(c, '[', v->as.array.count);
        for (size_t i = 0; i < v->as.array.count; i++)
            canon_value(c, &v->as.array.items[i]);
        canon_close(c);
        return;
    case CODEC_V_OBJECT:
        canon_open(c, '{', v->as.object.count);
        for (size_t i = 0; i < v->as.object.count; i++) {
            const codec_member *m = &v->as.object.members[i];
            canon_string(c, m->key.ptr, m->key.len);
            canon_value(c, &m->value);
        }
        canon_close(c);
        return;
    }
    abort();
}

bool canon_utf8_valid(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        size_t len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (!len || i + len > n)
            return false;
        uint32_t cp = len == 1 ? b : b & (0x7Fu >> len);
        for (size_t k = 1; k < len; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[i + k] & 0x3Fu);
        }
        static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

static const uint8_t *input;
static size_t input_size;

void canon_input(const uint8_t *data, size_t size)
{
    input = data;
    input_size = size;
}

static void show_input(void)
{
    fprintf(stderr, "  input (%zu bytes):", input_size);
    for (size_t i = 0; i < input_size && i < 96; i++)
        fprintf(stderr, " %02x", input[i]);
    fprintf(stderr, "%s\n", input_size > 96 ? " ..." : "");
}

static void show(const char *side, const canon *c)
{
    fprintf(stderr, "  %s (%zu bytes): %.400s%s\n", side, c->len, c->text ? c->text : "",
            c->len > 400 ? "..." : "");
}

void canon_expect_same(const canon *ours, const canon *peer, const char *what)
{
    if (getenv("CANON_SHOW")) {   /* to see what a reproducer decodes to */
        show("codec", ours);
        show("peer ", peer);
    }
    if (ours->len == peer->len && (!ours->len || !memcmp(ours->text, peer->text, ours->len)))
        return;
    fprintf(stderr, "differential: %s: codec and the peer decoded different values\n", what);
    show_input();
    show("codec", ours);
    show("peer ", peer);
    abort();
}

void canon_disagree(const char *what, const char *detail)
{
    fprintf(stderr, "differential: %s: %s\n", what, detail);
    show_input();
    abort();
}
