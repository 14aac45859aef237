/* writer.c — compact or pretty JSON text with minimal escaping. */
#include "formats/json/json_internal.h"

#include <math.h>
#include <string.h>

#include "core/number_internal.h"
#include "formats/json/json_text.h"

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

static int newline_indent(codec_json_writer *w, uint32_t depth)
{
    if (codec_buf_reserve(w->out, 1 + (size_t)depth * 2))
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
    if (!w->first && codec_buf_append(w->out, ",", 1))
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
    if (rc || codec_buf_append(w->out, &c, 1))
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
    return codec_buf_append(w->out, &c, 1) ? nomem() : CODEC_OK;
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

/* Worst case 6 bytes per input byte + quotes. */
int json_put_string(codec_buf *out, const char *str, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const uint8_t *s = (const uint8_t *)str;
    if (n > (SIZE_MAX - 2) / 6 || codec_buf_reserve(out, n * 6 + 2))
        return nomem();
    uint8_t *d = out->data + out->len, *d0 = d;
    *d++ = '"';
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            *d++ = c;
            i++;
            continue;
        }
        if (c >= 0x80) {
            size_t k = codec_utf8_sequence(s + i, s + n);
            if (!k)
                return CODEC_E_INVALID_VALUE;
            memcpy(d, s + i, k);
            d += k, i += k;
            continue;
        }
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
        i++;
    }
    *d++ = '"';
    out->len += (size_t)(d - d0);
    return CODEC_OK;
}

int codec_json_write_key(codec_json_writer *w, const char *s, size_t n)
{
    int rc = before_item(w);
    if (rc || (rc = json_put_string(w->out, s, n)))
        return rc;
    if (codec_buf_append(w->out, ": ", w->pretty ? 2 : 1))
        return nomem();
    w->after_key = true;
    return CODEC_OK;
}

int codec_json_write_string(codec_json_writer *w, const char *s, size_t n)
{
    int rc = before_item(w);
    return rc ? rc : json_put_string(w->out, s, n);
}

int json_write_raw_number(codec_json_writer *w, const char *s, size_t n)
{
    int rc = before_item(w);
    if (rc)
        return rc;
    return codec_buf_append(w->out, s, n) ? nomem() : CODEC_OK;
}

int codec_json_write_uint64(codec_json_writer *w, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return json_write_raw_number(w, tmp + i, sizeof tmp - i);
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
    return json_write_raw_number(w, tmp + i, sizeof tmp - i);
}

int codec_json_write_double(codec_json_writer *w, double v)
{
    if (!isfinite(v))
        return CODEC_E_INVALID_VALUE;
    char tmp[CODEC_NUMBER_MAX_CHARS];
    return json_write_raw_number(w, tmp, codec_format_double(v, tmp));
}

int codec_json_write_bool(codec_json_writer *w, bool v)
{
    return json_write_raw_number(w, v ? "true" : "false", v ? 4 : 5);
}

int codec_json_write_null(codec_json_writer *w)
{
    return json_write_raw_number(w, "null", 4);
}

int json_write_base64(codec_json_writer *w, const codec_bytes *b)
{
    int rc = before_item(w);
    if (rc)
        return rc;
    size_t chars = (b->len + 2) / 3 * 4;
    if (b->len > SIZE_MAX / 2 || codec_buf_reserve(w->out, chars + 2))
        return nomem();
    uint8_t *d = w->out->data + w->out->len;
    d[0] = '"';
    json_base64_encode(b->data, b->len, (char *)d + 1);
    d[chars + 1] = '"';
    w->out->len += chars + 2;
    return CODEC_OK;
}
