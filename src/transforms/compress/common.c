/* common.c — the context pool and the output helpers shared by the
 * compression stages (see compress_internal.h). */
#include "compress_internal.h"

#include "codec/compress.h"
#include "core/buf_internal.h"
#include "core/error_internal.h"

#include <stdio.h>

void codec__pool_init(codec_pool *p, void *(*make)(const void *), void (*drop)(void *),
                      const void *cfg)
{
    for (size_t i = 0; i < CODEC_POOL_SLOTS; i++)
        atomic_init(&p->slots[i], NULL);
    p->make = make;
    p->drop = drop;
    p->cfg = cfg;
}

void *codec__pool_get(codec_pool *p)
{
    for (size_t i = 0; i < CODEC_POOL_SLOTS; i++) {
        /* A plain load first, so empty slots cost no exclusive cache line. */
        if (atomic_load_explicit(&p->slots[i], memory_order_relaxed)) {
            void *ctx = atomic_exchange_explicit(&p->slots[i], NULL, memory_order_acquire);
            if (ctx)
                return ctx;
        }
    }
    return p->make(p->cfg);
}

void codec__pool_put(codec_pool *p, void *ctx)
{
    for (size_t i = 0; i < CODEC_POOL_SLOTS; i++) {
        void *empty = NULL;
        if (atomic_compare_exchange_strong_explicit(&p->slots[i], &empty, ctx,
                                                    memory_order_release,
                                                    memory_order_relaxed))
            return;
    }
    p->drop(ctx);
}

void codec__pool_clear(codec_pool *p)
{
    for (size_t i = 0; i < CODEC_POOL_SLOTS; i++) {
        void *ctx = atomic_exchange_explicit(&p->slots[i], NULL, memory_order_acquire);
        if (ctx)
            p->drop(ctx);
    }
}

int codec__compress_nomem(const codec_stage *s, codec_error *err)
{
    return codec__nomem(err, s->name);
}

/* Smallest first chunk of a sizeless decode; later chunks double the output. */
#define FIRST_CHUNK ((size_t)64 << 10)
/* The first chunk is this many times the compressed input: text and JSON
 * rarely expand more, so most streams decode without growing the output
 * (each growth may copy everything decoded so far). */
#define FIRST_CHUNK_RATIO 8

int codec__out_room(const codec_stage *s, codec_buf *out, size_t base, size_t in_len, size_t *room,
                    codec_error *err)
{
    size_t produced = out->len - base;
    int rc = codec__out_check(s, out, base, err);
    if (rc)
        return rc;
    size_t limit = SIZE_MAX;
    if (s->max_output && s->max_output < SIZE_MAX)
        limit = s->max_output + 1 - produced;
    size_t first = in_len > SIZE_MAX / FIRST_CHUNK_RATIO ? SIZE_MAX : in_len * FIRST_CHUNK_RATIO;
    if (first < FIRST_CHUNK)
        first = FIRST_CHUNK;
    size_t want = produced < first ? first : produced;
    if (want > limit)
        want = limit;
    /* Never more capacity than the cap allows to be written (+1 to see it
     * passed): a bomb costs the cap, not the cap and half again. */
    size_t ceiling = limit == SIZE_MAX ? SIZE_MAX : out->len + limit;
    if (out->cap - out->len < want && codec__buf_reserve_capped(out, want, ceiling))
        return codec__compress_nomem(s, err);
    *room = out->cap - out->len < limit ? out->cap - out->len : limit;
    return CODEC_OK;
}

int codec__out_check(const codec_stage *s, const codec_buf *out, size_t base, codec_error *err)
{
    return codec__out_check_count(s, out->len - base, err);
}

int codec__out_check_count(const codec_stage *s, uint64_t produced, codec_error *err)
{
    if (s->max_output && produced > s->max_output)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                          "decoded size exceeds the limit of %zu bytes (raise max=)",
                          s->max_output);
    return CODEC_OK;
}

int codec__check_declared(const codec_stage *s, uint64_t declared, size_t n, uint64_t ratio,
                          uint64_t offset, codec_error *err)
{
    if (declared > SIZE_MAX || (s->max_output && declared > s->max_output))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, offset,
                          "declared size %llu exceeds the limit of %zu bytes (raise max=)",
                          (unsigned long long)declared, s->max_output);
    if (declared / ratio > n)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, offset,
                          "declared size %llu is impossible for %zu compressed bytes",
                          (unsigned long long)declared, n);
    return CODEC_OK;
}

codec *codec__make_leveled(const char *name, int level, const char *extra, codec_error *err)
{
    char args[320];
    int w;
    if (level == CODEC_LEVEL_DEFAULT)
        w = snprintf(args, sizeof args, "%s", extra ? extra : "");
    else
        w = snprintf(args, sizeof args, "%d%s%s", level, extra ? "," : "", extra ? extra : "");
    if (w < 0 || (size_t)w >= sizeof args) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, name, CODEC_NO_OFFSET,
                        "arguments too long");
        return NULL;
    }
    return codec__make(name, args, NULL, err);
}

int codec__redisson_length(const codec_stage *s, const uint8_t *src, size_t n, uint32_t *len,
                           codec_error *err)
{
    if (n < 4)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "missing the 4-byte length prefix");
    *len = codec_load_be32(src);
    if (*len > INT32_MAX)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0,
                          "negative length prefix");
    return CODEC_OK;
}
