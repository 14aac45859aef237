/* arena.c — bump allocation in blocks that survive reset. */
#include "core/arena_internal.h"

#include <string.h>

/* Under AddressSanitizer the bytes of a block that no allocation holds are
 * poisoned, so a read or write past an arena allocation (or into a reset
 * arena's old values) is reported like one past a malloc block. */

#define ARENA_DEFAULT_FIRST ((size_t)4096)
#define ARENA_MAX_ALIGN ((size_t)64)

static void *arena_view_resize(void *ctx, void *ptr, size_t old_size, size_t new_size);
static void arena_view_release(void *ctx, void *ptr, size_t size);

void codec_arena_init(codec_arena *arena, const codec_allocator *alloc, size_t first_block)
{
    arena->head = NULL;
    arena->free = NULL;
    arena->alloc = alloc ? alloc : codec_default_allocator();
    arena->block_size = first_block ? first_block : ARENA_DEFAULT_FIRST;
    arena->used = 0;
    arena->as_allocator = (codec_allocator){codec__arena_view_alloc, arena_view_resize,
                                            arena_view_release, arena};
}

/* Offset of the next free byte of `b` aligned to `align`. */
static size_t block_offset(const struct codec_arena_block *b, size_t align)
{
    return codec__arena_block_offset_at(b, b->used, align);
}

/* Takes a kept block large enough for `need` bytes, or makes a new one. */
static struct codec_arena_block *arena_block_for(codec_arena *arena, size_t need)
{
    for (struct codec_arena_block **pp = &arena->free; *pp; pp = &(*pp)->next) {
        if ((*pp)->size >= need) {
            struct codec_arena_block *b = *pp;
            *pp = b->next;
            return b;
        }
    }
    size_t size = arena->block_size > need ? arena->block_size : need;
    if (size > SIZE_MAX - sizeof(struct codec_arena_block))
        return NULL;
    struct codec_arena_block *b =
        arena->alloc->alloc(arena->alloc->ctx, sizeof(struct codec_arena_block) + size);
    if (!b)
        return NULL;
    b->size = size;
    CODEC_POISON(b->data, size);
    /* Geometric growth keeps the number of blocks logarithmic. */
    if (arena->block_size < ((size_t)1 << 30))
        arena->block_size *= 2;
    return b;
}

void *codec_arena_alloc(codec_arena *arena, size_t size, size_t align)
{
    if (align == 0)
        align = 16;
    if (align > ARENA_MAX_ALIGN || (align & (align - 1)))
        return NULL;
    void *p = codec__arena_bump(arena, size, align);
    if (p)
        return p;
    struct codec_arena_block *b;
    if (size > SIZE_MAX - ARENA_MAX_ALIGN)
        return NULL;
    /* The slack lets any alignment fit, whatever the block's address. */
    b = arena_block_for(arena, size + align - 1);
    if (!b)
        return NULL;
    b->used = 0;
    size_t start = block_offset(b, align);
    b->used = start + size;
    b->next = arena->head;
    arena->head = b;
    arena->used += size;
    CODEC_UNPOISON(b->data + start, size);
    return b->data + start;
}

/* The head block (the newest, so the largest) stays the head, empty: the
 * first allocation after a reset (a decoder's output, every call) then
 * takes the bump-pointer path instead of searching the free list. */
void codec_arena_reset(codec_arena *arena)
{
    struct codec_arena_block *keep = arena->head;
    arena->used = 0;
    if (!keep)
        return;
    while (keep->next) {
        struct codec_arena_block *b = keep->next;
        keep->next = b->next;
        b->used = 0;
        CODEC_POISON(b->data, b->size);
        b->next = arena->free;
        arena->free = b;
    }
    keep->used = 0;
    CODEC_POISON(keep->data, keep->size);
}

static void release_list(codec_arena *arena, struct codec_arena_block *b)
{
    while (b) {
        struct codec_arena_block *next = b->next;
        CODEC_UNPOISON(b->data, b->size);
        arena->alloc->release(arena->alloc->ctx, b, sizeof *b + b->size);
        b = next;
    }
}

void codec_arena_free(codec_arena *arena)
{
    if (!arena)
        return;
    release_list(arena, arena->head);
    release_list(arena, arena->free);
    arena->head = NULL;
    arena->free = NULL;
    arena->used = 0;
}

size_t codec_arena_used(const codec_arena *arena)
{
    return arena->used;
}

const codec_allocator *codec_arena_allocator(codec_arena *arena)
{
    return &arena->as_allocator;
}

/* Inline bump (align 16, a constant) in the allocator view that decoders
 * grow their output through. */
void *codec__arena_view_alloc(void *ctx, size_t size)
{
    void *p = codec__arena_bump(ctx, size, 16);
    return p ? p : codec_arena_alloc(ctx, size, 16);
}

/* Grows the allocation `ptr` that the head block holds alone by resizing
 * the block itself, so the old bytes are not kept beside the new ones: a
 * buffer growing in an arena (a decoder's output) costs its final size,
 * not the sum of every size it passed through. */
static void *resize_block(codec_arena *arena, void *ptr, size_t old_size, size_t new_size)
{
    struct codec_arena_block *b = arena->head;
    size_t pad = (size_t)((uint8_t *)ptr - b->data);
    if (new_size > SIZE_MAX - sizeof *b - 2 * ARENA_MAX_ALIGN)
        return NULL;
    /* Room for any realignment: the block may come back at another address. */
    size_t size = new_size + 15;
    CODEC_UNPOISON(b->data, b->size);
    struct codec_arena_block *nb =
        arena->alloc->resize(arena->alloc->ctx, b, sizeof *b + b->size, sizeof *b + size);
    if (!nb) {
        CODEC_POISON(b->data + pad + old_size, b->size - pad - old_size);
        return NULL;
    }
    size_t start = codec__arena_block_offset_at(nb, 0, 16);
    if (start != pad)
        memmove(nb->data + start, nb->data + pad, old_size);
    nb->size = size;
    nb->used = start + new_size;
    arena->head = nb;
    arena->used = arena->used - old_size + new_size;
    CODEC_POISON(nb->data, start);
    CODEC_POISON(nb->data + nb->used, nb->size - nb->used);
    return nb->data + start;
}

static void *arena_view_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    codec_arena *arena = ctx;
    struct codec_arena_block *b = arena->head;
    /* The latest allocation can grow or shrink in place. */
    if (ptr && b && (uint8_t *)ptr + old_size == b->data + b->used &&
        (size_t)((uint8_t *)ptr - b->data) + new_size <= b->size) {
        b->used = (size_t)((uint8_t *)ptr - b->data) + new_size;
        if (new_size > old_size)
            CODEC_UNPOISON((uint8_t *)ptr + old_size, new_size - old_size);
        else
            CODEC_POISON((uint8_t *)ptr + new_size, old_size - new_size);
        arena->used = arena->used - old_size + new_size;
        return ptr;
    }
    if (new_size <= old_size)
        return ptr;
    if (ptr && b && (uint8_t *)ptr + old_size == b->data + b->used &&
        (uint8_t *)ptr == b->data + codec__arena_block_offset_at(b, 0, 16))
        return resize_block(arena, ptr, old_size, new_size);
    void *p = codec_arena_alloc(arena, new_size, 16);
    if (p && ptr)
        memcpy(p, ptr, old_size);
    return p;
}

static void arena_view_release(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)ptr;
    (void)size;
}
