/* json_out.c — see json_out.h. */
#include "json_out.h"

#include "core/number_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void jo_init(json_out *j, codec_buf *buf)
{
    j->buf = buf;
    j->comma = false;
    j->failed = false;
}

static void put(json_out *j, const void *s, size_t n)
{
    if (codec_buf_append(j->buf, s, n) != 0)
        j->failed = true;
}

static void separate(json_out *j)
{
    if (j->comma)
        put(j, ",", 1);
    j->comma = true;
}

void jo_begin_object(json_out *j)
{
    separate(j);
    put(j, "{", 1);
    j->comma = false;
}

void jo_end_object(json_out *j)
{
    put(j, "}", 1);
    j->comma = true;
}

void jo_begin_array(json_out *j)
{
    separate(j);
    put(j, "[", 1);
    j->comma = false;
}

void jo_end_array(json_out *j)
{
    put(j, "]", 1);
    j->comma = true;
}

static void put_escaped(json_out *j, const char *s, size_t n)
{
    put(j, "\"", 1);
    for (const char *p = s; p < s + n; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            put(j, e, 2);
        } else if (c < 0x20) {
            char e[8];
            snprintf(e, sizeof e, "\\u%04x", c);
            put(j, e, 6);
        } else {
            put(j, p, 1);
        }
    }
    put(j, "\"", 1);
}

void jo_key(json_out *j, const char *key)
{
    jo_key_n(j, key, strlen(key));
}

void jo_key_n(json_out *j, const char *key, size_t n)
{
    separate(j);
    put_escaped(j, key, n);
    put(j, ":", 1);
    j->comma = false;
}

void jo_string(json_out *j, const char *s)
{
    separate(j);
    if (s)
        put_escaped(j, s, strlen(s));
    else
        put(j, "null", 4);
}

void jo_string_n(json_out *j, const char *s, size_t n)
{
    separate(j);
    put_escaped(j, s, n);
}

void jo_int(json_out *j, int64_t v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%" PRId64, v);
    jo_raw(j, t, (size_t)n);
}

void jo_bool(json_out *j, bool v)
{
    jo_raw(j, v ? "true" : "false", v ? 4 : 5);
}

void jo_double(json_out *j, double v)
{
    char t[CODEC_NUMBER_MAX_CHARS];
    jo_raw(j, t, codec__format_double(v, t));
}

void jo_float(json_out *j, float v)
{
    char t[CODEC_NUMBER_MAX_CHARS];
    jo_raw(j, t, codec__format_float(v, t));
}

void jo_raw(json_out *j, const char *text, size_t n)
{
    separate(j);
    put(j, text, n);
}
