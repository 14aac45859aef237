/* arena_internal.h — the arena's block and its bump allocation, shared by
 * arena.c and by decoders that know their output's exact size before
 * writing it (codec__buf_room_exact), so that reservation is inline. */
#ifndef CODEC_ARENA_INTERNAL_H
#define CODEC_ARENA_INTERNAL_H

#include "codec/core.h"
#include "core/asan_internal.h"
#include "core/buf_internal.h"

#include <stdint.h>

struct codec_arena_block {
    struct codec_arena_block *next;
    size_t size;  /* usable bytes after the header */
    size_t used;
    uint8_t data[];
};

/* Offset of the first byte at or after `used` in `b` aligned (as an
 * address) to `align`. */
static inline size_t codec__arena_block_offset_at(const struct codec_arena_block *b,
                                                  size_t used, size_t align)
{
    uintptr_t at = (uintptr_t)(b->data + used);
    return used + (size_t)(((at + align - 1) & ~(uintptr_t)(align - 1)) - at);
}

/* The bump allocation in the head block, or NULL when it has no room. */
static inline void *codec__arena_bump(codec_arena *arena, size_t size, size_t align)
{
    struct codec_arena_block *b = arena->head;
    if (b) {
        size_t start = codec__arena_block_offset_at(b, b->used, align);
        if (start <= b->size && size <= b->size - start) {
            b->used = start + size;
            arena->used += size;
            CODEC_UNPOISON(b->data + start, size);
            return b->data + start;
        }
    }
    return NULL;
}

/* The `alloc` of an arena's allocator view (codec_arena_allocator()). */
void *codec__arena_view_alloc(void *ctx, size_t size);

/* codec__buf_room() for a decoder that knows it writes exactly n bytes:
 * when `out` is still empty and lives in an arena (a one-stage decode's
 * output, see codec_decode), the arena's bump allocation inline, of
 * exactly n bytes, instead of the call through codec_buf's growth and the
 * allocator view (about 60 instructions, 10-15 ns). */
static inline int codec__buf_room_exact(codec_buf *out, size_t n)
{
    if (!out->data && out->alloc->alloc == codec__arena_view_alloc) {
        void *p = codec__arena_bump(out->alloc->ctx, n, 16);
        if (p) {
            out->data = p;
            out->cap = out->len + n;
            return CODEC_OK;
        }
    }
    return codec__buf_room(out, n);
}

#endif
