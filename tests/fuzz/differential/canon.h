/* canon.h — one text form for a decoded document, written by codec's side
 * and by a peer library's side of a differential fuzz target, so that the
 * two trees compare with one memcmp.
 *
 *   n  t  f  i<decimal>  d<%a>  s<len>:<bytes>  b<len>:<bytes>
 *   [<n> items ]   {<n> key value ... }
 *
 * An integer is written the same whether it came as signed or unsigned; a
 * double as its exact bits (%a, so -0 and 0 differ; NaN is "dnan"). Keys are
 * written as strings, in document order. */
#ifndef CODEC_TEST_CANON_H
#define CODEC_TEST_CANON_H

#include "codec/codec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct canon {
    char *text;
    size_t len, cap;
} canon;

void canon_init(canon *c);
void canon_free(canon *c);
void canon_null(canon *c);
void canon_bool(canon *c, bool b);
void canon_int(canon *c, int64_t i);
void canon_uint(canon *c, uint64_t u);
void canon_double(canon *c, double d);
void canon_string(canon *c, const void *p, size_t n);
void canon_bytes(canon *c, const void *p, size_t n);
void canon_open(canon *c, char bracket, size_t count);   /* '[' or '{' */
void canon_close(canon *c);
/* codec's side: a whole codec_value. */
void canon_value(canon *c, const codec_value *v);

/* RFC 3629 UTF-8 (shortest forms, no surrogates, at most U+10FFFF): the
 * peer side's own check, so that codec's validator is not judged by itself. */
bool canon_utf8_valid(const uint8_t *p, size_t n);

/* Names the input being compared, so that a disagreement prints it. */
void canon_input(const uint8_t *data, size_t size);
/* Aborts, printing both forms and what was compared, unless they agree. */
void canon_expect_same(const canon *ours, const canon *peer, const char *what);
/* Aborts with the message: the two sides disagree on acceptance. */
void canon_disagree(const char *what, const char *detail);

#ifdef __cplusplus
}
#endif

#endif
