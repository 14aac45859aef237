/* json_tape.c — the token list of the stream cells, and codec's reader and
 * writer over it (the codec side of those cells: bench/codec_json_api.c). */
#include "json_tape.h"

#include "codec/json.h"

#include <stdlib.h>
#include <string.h>

bool bench_tape_grow(bench_tape *t)
{
    size_t cap = t->cap ? 2 * t->cap : 1024;
    bench_tape_item *items = t->failed ? NULL : realloc(t->items, cap * sizeof *items);
    if (!items) {
        t->failed = true;
        return false;
    }
    t->items = items;
    t->cap = cap;
    return true;
}

void bench_tape_free(bench_tape *t)
{
    free(t->items);
    memset(t, 0, sizeof *t);
}

static bool item_equal(const bench_tape_item *a, const bench_tape_item *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TAPE_KEY:
    case TAPE_STRING: return a->len == b->len && memcmp(a->v.s, b->v.s, a->len) == 0;
    case TAPE_INT: return a->v.i == b->v.i;
    case TAPE_DOUBLE: return a->v.d == b->v.d;
    default: return true;
    }
}

bool bench_tape_equal(const bench_tape *a, const bench_tape *b)
{
    if (a->failed || b->failed || a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (!item_equal(&a->items[i], &b->items[i]))
            return false;
    return true;
}

/* The reader's current NUMBER as an int64 when it is one, else a double. */
static bench_tape_item number_item(const codec_json_reader *r)
{
    bench_tape_item it = {TAPE_INT, 0, {.i = 0}};
    if (codec_json_reader_int64(r, &it.v.i) != 0) {
        it.kind = TAPE_DOUBLE;
        /* Out of range gives -1 with the infinity written: kept as is. */
        int out_of_range = codec_json_reader_double(r, &it.v.d);
        (void)out_of_range;
    }
    return it;
}

int bench_tape_read(bench_tape *t, const uint8_t *in, size_t n, codec_arena *arena)
{
    static const bench_tape_kind KIND[] = {
        [CODEC_JSON_OBJECT_START] = TAPE_OBJECT_START, [CODEC_JSON_OBJECT_END] = TAPE_OBJECT_END,
        [CODEC_JSON_ARRAY_START] = TAPE_ARRAY_START, [CODEC_JSON_ARRAY_END] = TAPE_ARRAY_END,
        [CODEC_JSON_KEY] = TAPE_KEY, [CODEC_JSON_STRING] = TAPE_STRING,
        [CODEC_JSON_TRUE] = TAPE_TRUE, [CODEC_JSON_FALSE] = TAPE_FALSE,
        [CODEC_JSON_NULL] = TAPE_NULL};
    codec_json_reader r;
    codec_json_token tok = CODEC_JSON_NULL;
    int rc;
    bench_tape_clear(t);
    codec_json_reader_init(&r, in, n, arena, NULL);
    while ((rc = codec_json_next(&r, &tok, NULL)) == 0 && tok != CODEC_JSON_END) {
        if (tok == CODEC_JSON_NUMBER) {
            bench_tape_push(t, number_item(&r));
        } else if (tok == CODEC_JSON_KEY || tok == CODEC_JSON_STRING) {
            codec_string s = codec_json_reader_text(&r);
            bench_tape_push(t, (bench_tape_item){KIND[tok], s.len, {.s = s.ptr}});
        } else {
            bench_tape_push(t, (bench_tape_item){KIND[tok], 0, {.s = NULL}});
        }
    }
    return rc == 0 && !t->failed ? 0 : -1;
}

static int write_item(codec_json_writer *w, const bench_tape_item *it)
{
    switch (it->kind) {
    case TAPE_OBJECT_START: return codec_json_write_object_start(w);
    case TAPE_OBJECT_END: return codec_json_write_object_end(w);
    case TAPE_ARRAY_START: return codec_json_write_array_start(w);
    case TAPE_ARRAY_END: return codec_json_write_array_end(w);
    case TAPE_KEY: return codec_json_write_key(w, it->v.s, it->len);
    case TAPE_STRING: return codec_json_write_string(w, it->v.s, it->len);
    case TAPE_INT: return codec_json_write_int64(w, it->v.i);
    case TAPE_DOUBLE: return codec_json_write_double(w, it->v.d);
    case TAPE_TRUE: return codec_json_write_bool(w, true);
    case TAPE_FALSE: return codec_json_write_bool(w, false);
    default: return codec_json_write_null(w);
    }
}

int bench_tape_write(const bench_tape *t, codec_buf *out)
{
    codec_json_writer w;
    codec_json_writer_init(&w, out, false);
    for (size_t i = 0; i < t->n; i++)
        if (write_item(&w, &t->items[i]) != 0)
            return -1;
    return 0;
}

int bench_tape_load(bench_tape *t, const bench_payload *p, codec_arena *arena)
{
    return bench_tape_read(t, p->bytes, p->len, arena);
}
