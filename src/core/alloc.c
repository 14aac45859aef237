/* alloc.c — the libc allocator behind every NULL allocator argument. */
#include "codec/core.h"

#include <stdlib.h>

static void *libc_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size ? size : 1);
}

static void *libc_resize(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size ? new_size : 1);
}

static void libc_release(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

static const codec_allocator libc_allocator = {libc_alloc, libc_resize, libc_release, NULL};

const codec_allocator *codec_default_allocator(void)
{
    return &libc_allocator;
}
