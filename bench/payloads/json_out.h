/* json_out.h — a small exact JSON printer for the benchmark's own use:
 * rendering the C payloads for --dump and for the size checks of PAYLOADS.md
 * (compact, keys in declaration order, doubles shortest-round-trip with a
 * fraction, as codec's JSON backend writes them). Appends to a codec_buf;
 * allocation failures are sticky in `failed`. */
#ifndef BENCH_JSON_OUT_H
#define BENCH_JSON_OUT_H

#include "codec/core.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct json_out {
    codec_buf *buf;
    bool comma;      /* the next value/key needs a separating comma */
    bool failed;
} json_out;

void jo_init(json_out *j, codec_buf *buf);
void jo_begin_object(json_out *j);
void jo_end_object(json_out *j);
void jo_begin_array(json_out *j);
void jo_end_array(json_out *j);
void jo_key(json_out *j, const char *key);
/* A key of n bytes (decoded keys are not NUL-terminated). */
void jo_key_n(json_out *j, const char *key, size_t n);
void jo_string(json_out *j, const char *s);        /* NULL writes null */
void jo_string_n(json_out *j, const char *s, size_t n);
void jo_int(json_out *j, int64_t v);
void jo_bool(json_out *j, bool v);
void jo_double(json_out *j, double v);
void jo_float(json_out *j, float v);
/* A number or string written verbatim (already valid JSON). */
void jo_raw(json_out *j, const char *text, size_t n);

#endif
