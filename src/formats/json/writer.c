/* writer.c — compact or pretty JSON text with minimal escaping. */
#include "formats/json/json_scan_internal.h"
#include "core/buf_internal.h"

#include <math.h>
#include <string.h>

#include "core/number_internal.h"
#include "formats/json/json_text_internal.h"

void codec_json_writer_init(codec_json_writer *w, codec_buf *out, bool pretty)
{
    w->out = out;
    w->depth = 0;
    w->pretty = pretty;
    w->first = true;
    w->after_key = false;
}

static int nomem(void)
{
    return CODEC_E_NOMEM;
}

/* n bytes appended. */
static inline int put_bytes(codec_buf *out, const void *s, size_t n)
{
    if (codec__buf_room(out, n))
        return nomem();
    memcpy(out->data + out->len, s, n);
    out->len += n;
    return CODEC_OK;
}

/* One byte appended: a bracket, ',' or ':'. */
static inline int put_byte(codec_buf *out, uint8_t c)
{
    if (codec__buf_room(out, 1))
        return nomem();
    out->data[out->len++] = c;
    return CODEC_OK;
}

static int newline_indent(codec_json_writer *w, uint32_t depth)
{
    if (codec__buf_room(w->out, 1 + (size_t)depth * 2))
        return nomem();
    uint8_t *d = w->out->data + w->out->len;
    d[0] = '\n';
    memset(d + 1, ' ', (size_t)depth * 2);
    w->out->len += 1 + (size_t)depth * 2;
    return CODEC_OK;
}

/* Comma and indentation before a value or key. */
static int before_item(codec_json_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return CODEC_OK;
    }
    if (w->depth == 0)
        return CODEC_OK;
    if (!w->first && put_byte(w->out, ','))
        return nomem();
    w->first = false;
    return w->pretty ? newline_indent(w, w->depth) : CODEC_OK;
}

static int open_container(codec_json_writer *w, char c)
{
    /* Bounds the recursion of every encoder, whatever the value holds. */
    if (w->depth >= CODEC_JSON_MAX_DEPTH_LIMIT)
        return CODEC_E_INVALID_VALUE;
    int rc = before_item(w);
    if (rc || put_byte(w->out, (uint8_t)c))
        return rc ? rc : nomem();
    w->depth++;
    w->first = true;
    return CODEC_OK;
}

static int close_container(codec_json_writer *w, char c)
{
    if (w->depth == 0)
        return CODEC_E_USAGE;
    w->depth--;
    if (w->pretty && !w->first && newline_indent(w, w->depth))
        return nomem();
    w->first = false;
    return put_byte(w->out, (uint8_t)c);
}

int codec_json_write_object_start(codec_json_writer *w)
{
    return open_container(w, '{');
}

int codec_json_write_object_end(codec_json_writer *w)
{
    return close_container(w, '}');
}

int codec_json_write_array_start(codec_json_writer *w)
{
    return open_container(w, '[');
}

int codec_json_write_array_end(codec_json_writer *w)
{
    return close_container(w, ']');
}

/* The escape of the byte c (a quote, backslash or control byte) at d. */
static uint8_t *put_escape(uint8_t *d, uint8_t c)
{
    static const char hex[] = "0123456789abcdef";
    *d++ = '\\';
    switch (c) {
    case '"': *d++ = '"'; break;
    case '\\': *d++ = '\\'; break;
    case '\b': *d++ = 'b'; break;
    case '\f': *d++ = 'f'; break;
    case '\n': *d++ = 'n'; break;
    case '\r': *d++ = 'r'; break;
    case '\t': *d++ = 't'; break;
    default:
        *d++ = 'u', *d++ = '0', *d++ = '0';
        *d++ = (uint8_t)hex[c >> 4];
        *d++ = (uint8_t)hex[c & 15];
    }
    return d;
}

/* Worst case 6 bytes per input byte + quotes. A string with nothing to
 * escape and no non-ASCII byte is copied in one pass; the others go again
 * from the start: plain ASCII 16 bytes at a time (each block stored as it
 * is classified: while 16 input bytes are left, at least 96 bytes of the
 * room are), and non-ASCII text to the string scanner kernel when there is
 * one, which checks its UTF-8 up to the next byte to escape (about half
 * the time of a byte-by-byte copy on twitter.json: docs/formats/json.md). */
int codec__json_put_string(codec_buf *out, const char *str, size_t n)
{
    const uint8_t *s = (const uint8_t *)str, *end = s + n;
    if (n > (SIZE_MAX - 2) / 6 || codec__buf_room(out, n * 6 + 2))
        return nomem();
    uint8_t *d = out->data + out->len, *d0 = d;
    *d++ = '"';
    if (json_copy_plain(d, s, n)) {   /* most strings: one pass */
        d[n] = '"';
        out->len += n + 2;
        return CODEC_OK;
    }
    json_scan_fn scan = codec__json_long_scanner();
    while (s < end) {
#if CODEC_SSE2
        while (end - s >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)s);
            _mm_storeu_si128((__m128i *)d, x);
            unsigned m = json_special16v(x);
            if (m) {
                unsigned k = (unsigned)__builtin_ctz(m);
                s += k, d += k;
                goto special;
            }
            s += 16, d += 16;
        }
        if (s == end)
            break;
#endif
        if (*s >= 0x20 && *s < 0x80 && *s != '"' && *s != '\\') {
            *d++ = *s++;
            continue;
        }
#if CODEC_SSE2
    special:
#endif
        if (*s < 0x80) {
            d = put_escape(d, *s++);
        } else if (scan && end - s >= 32) {
            const uint8_t *q = scan(s, end);
            if (!q)
                return CODEC_E_INVALID_VALUE;
            memcpy(d, s, (size_t)(q - s));
            d += q - s, s = q;
        } else {
            size_t k = codec_utf8_sequence(s, end);
            if (!k)
                return CODEC_E_INVALID_VALUE;
            memcpy(d, s, k);
            d += k, s += k;
        }
    }
    *d++ = '"';
    out->len += (size_t)(d - d0);
    return CODEC_OK;
}

int codec_json_write_key(codec_json_writer *w, const char *s, size_t n)
{
    int rc = before_item(w);
    if (rc || (rc = codec__json_put_string(w->out, s, n)))
        return rc;
    if (put_bytes(w->out, ": ", w->pretty ? 2 : 1))
        return nomem();
    w->after_key = true;
    return CODEC_OK;
}

int codec_json_write_string(codec_json_writer *w, const char *s, size_t n)
{
    int rc = before_item(w);
    return rc ? rc : codec__json_put_string(w->out, s, n);
}

int codec__json_write_raw_number(codec_json_writer *w, const char *s, size_t n)
{
    int rc = before_item(w);
    if (rc)
        return rc;
    return put_bytes(w->out, s, n);
}

int codec_json_write_uint64(codec_json_writer *w, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return codec__json_write_raw_number(w, tmp + i, sizeof tmp - i);
}

int codec_json_write_int64(codec_json_writer *w, int64_t v)
{
    if (v >= 0)
        return codec_json_write_uint64(w, (uint64_t)v);
    char tmp[24];
    size_t i = sizeof tmp;
    uint64_t m = (uint64_t)0 - (uint64_t)v;
    do {
        tmp[--i] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    tmp[--i] = '-';
    return codec__json_write_raw_number(w, tmp + i, sizeof tmp - i);
}

int codec_json_write_double(codec_json_writer *w, double v)
{
    if (!isfinite(v))
        return CODEC_E_INVALID_VALUE;
    char tmp[CODEC_NUMBER_MAX_CHARS];
    return codec__json_write_raw_number(w, tmp, codec__format_double(v, tmp));
}

int codec_json_write_bool(codec_json_writer *w, bool v)
{
    return codec__json_write_raw_number(w, v ? "true" : "false", v ? 4 : 5);
}

int codec_json_write_null(codec_json_writer *w)
{
    return codec__json_write_raw_number(w, "null", 4);
}

int codec__json_write_base64(codec_json_writer *w, const codec_bytes *b)
{
    int rc = before_item(w);
    if (rc)
        return rc;
    size_t chars = (b->len + 2) / 3 * 4;
    if (b->len > SIZE_MAX / 2 || codec__buf_room(w->out, chars + 2))
        return nomem();
    uint8_t *d = w->out->data + w->out->len;
    d[0] = '"';
    codec__json_base64_encode(b->data, b->len, (char *)d + 1);
    d[chars + 1] = '"';
    w->out->len += chars + 2;
    return CODEC_OK;
}
