/* nomem_checks.h — running out of memory at each allocation a decode makes.
 * The arena gets one block of N bytes and an allocator that refuses every
 * block after it, so as N grows from 1 the decode runs out at each of its
 * arena allocations in turn. Each such run must fail with CODEC_E_NOMEM
 * (never a payload error, never a crash), and once N is enough the value
 * decodes and encodes back to the same bytes. Include after check.h. */
#ifndef CODEC_TEST_NOMEM_CHECKS_H
#define CODEC_TEST_NOMEM_CHECKS_H

#include "codec/codec.h"

static void *nomem_alloc(void *ctx, size_t size)
{
    int *blocks_left = ctx;
    return (*blocks_left)-- > 0 ? malloc(size) : NULL;
}

static void *nomem_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx, (void)ptr, (void)old_size, (void)new_size;
    return NULL;
}

static void nomem_release(void *ctx, void *ptr, size_t size)
{
    (void)ctx, (void)size;
    free(ptr);
}

/* Decodes `in` (n bytes, a valid encoding by c of a value of c's type,
 * value_size bytes in C) with arenas of 1, 2, ... 4096 bytes, then larger
 * by 1/64 each time; returns how many sizes ran out of memory. */
static inline int nomem_check_decode(const codec *c, const uint8_t *in, size_t n,
                                     size_t value_size)
{
    void *value = calloc(1, value_size);
    codec_buf again;
    codec_buf_init(&again, NULL);
    int nomem = 0;
    for (size_t block = 1; block < ((size_t)1 << 24); block += block < 4096 ? 1 : block / 64) {
        int blocks_left = 1;
        codec_allocator once = {nomem_alloc, nomem_resize, nomem_release, &blocks_left};
        codec_arena arena;
        codec_arena_init(&arena, &once, block);
        codec_error err;
        int rc = codec_decode(c, in, n, value, &arena, &err);
        if (rc == CODEC_OK) {
            CHECK_INT(codec_encode(c, value, &again, &err), CODEC_OK);
            CHECK_MEM(again.data, again.len, in, n);
            codec_arena_free(&arena);
            break;
        }
        codec_arena_free(&arena);
        if (rc != CODEC_E_NOMEM) {
            fprintf(stderr, "%s: with a %zu-byte arena: %s\n", codec_spec(c), block, err.message);
            CHECK_INT(rc, CODEC_E_NOMEM);
            break;
        }
        nomem++;
    }
    codec_buf_free(&again);
    free(value);
    return nomem;
}

/* The same for a value: encoded by c first. Returns the sizes that ran out. */
static inline int nomem_check_value(const codec *c, const void *v, size_t value_size)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    int nomem = -1;
    CHECK_INT(codec_encode(c, v, &out, &err), CODEC_OK);
    if (out.len)
        nomem = nomem_check_decode(c, out.data, out.len, value_size);
    codec_buf_free(&out);
    return nomem;
}

#endif
