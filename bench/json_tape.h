/* json_tape.h — the token list the json suite's "stream" cells move.
 *
 * A stream cell measures a library's event parser and generator with no
 * structs: decode reads every token of the document into a tape (strings
 * and keys as views of the input, or of an arena when they had escapes;
 * numbers converted to int64 or double, as a reader's user would), encode
 * writes a tape back as JSON token by token. The tape to encode is the
 * payload's, read once per worker with codec's reader (bench_tape_load);
 * a decoded tape must equal it token for token (bench_tape_equal), so every
 * stream cell is checked on the same terms. */
#ifndef BENCH_JSON_TAPE_H
#define BENCH_JSON_TAPE_H

#include "codec/core.h"
#include "payloads/payloads.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum bench_tape_kind {
    TAPE_OBJECT_START, TAPE_OBJECT_END, TAPE_ARRAY_START, TAPE_ARRAY_END,
    TAPE_KEY, TAPE_STRING, TAPE_INT, TAPE_DOUBLE, TAPE_TRUE, TAPE_FALSE, TAPE_NULL
} bench_tape_kind;

typedef struct bench_tape_item {
    bench_tape_kind kind;
    size_t len;              /* KEY, STRING: bytes at s */
    union {
        const char *s;
        int64_t i;
        double d;
    } v;
} bench_tape_item;

/* A growable list kept across documents; `failed` is sticky after an
 * allocation failure (cleared by bench_tape_clear). */
typedef struct bench_tape {
    bench_tape_item *items;
    size_t n, cap;
    bool failed;
} bench_tape;

bool bench_tape_grow(bench_tape *t);

static inline void bench_tape_push(bench_tape *t, bench_tape_item it)
{
    if (t->n < t->cap || bench_tape_grow(t))
        t->items[t->n++] = it;
}

static inline void bench_tape_clear(bench_tape *t)
{
    t->n = 0;
    t->failed = false;
}

void bench_tape_free(bench_tape *t);

/* Same tokens, same text, same numbers (doubles compared exactly). */
bool bench_tape_equal(const bench_tape *a, const bench_tape *b);

/* Reads in[0..n) with codec_json_reader into t (cleared first); strings
 * with escapes are unescaped into `arena`. @return 0 or -1 (invalid JSON,
 * out of memory). */
int bench_tape_read(bench_tape *t, const uint8_t *in, size_t n, codec_arena *arena);

/* Writes t with codec_json_writer, appending to out. @return 0 or -1. */
int bench_tape_write(const bench_tape *t, codec_buf *out);

/* The tape of p's JSON bytes (strings are views of p->bytes or of `arena`,
 * which must outlive the tape). @return 0 or -1. */
int bench_tape_load(bench_tape *t, const bench_payload *p, codec_arena *arena);

#endif
