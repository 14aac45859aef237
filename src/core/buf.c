/* buf.c — the caller-owned growable output buffer. */
#include "core/buf_internal.h"

#include <string.h>

void codec_buf_init(codec_buf *buf, const codec_allocator *alloc)
{
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
    buf->alloc = alloc ? alloc : codec_default_allocator();
    buf->spare = NULL;
}

int codec__buf_reserve_capped(codec_buf *buf, size_t extra, size_t max_cap)
{
    /* Never leave data NULL: stages may compute data + len before writing. */
    if (extra <= buf->cap - buf->len && buf->data)
        return CODEC_OK;
    if (extra > SIZE_MAX - buf->len)
        return CODEC_E_NOMEM;
    size_t need = buf->len + extra;
    /* Grow by half again so appends are amortised O(1), up to the ceiling. */
    size_t cap = buf->cap < 64 ? 64 : buf->cap + buf->cap / 2;
    if (cap > max_cap || cap < buf->cap)
        cap = max_cap;
    if (cap < need)
        cap = need;
    uint8_t *p = buf->data ? buf->alloc->resize(buf->alloc->ctx, buf->data, buf->cap, cap)
                           : buf->alloc->alloc(buf->alloc->ctx, cap);
    if (!p)
        return CODEC_E_NOMEM;
    buf->data = p;
    buf->cap = cap;
    return CODEC_OK;
}

int codec_buf_reserve(codec_buf *buf, size_t extra)
{
    return codec__buf_reserve_capped(buf, extra, SIZE_MAX);
}

int codec_buf_append(codec_buf *buf, const void *src, size_t n)
{
    if (n == 0)
        return CODEC_OK;
    int rc = codec_buf_reserve(buf, n);
    if (rc)
        return rc;
    memcpy(buf->data + buf->len, src, n);
    buf->len += n;
    return CODEC_OK;
}

void codec_buf_clear(codec_buf *buf)
{
    buf->len = 0;
}

void codec_buf_free(codec_buf *buf)
{
    if (!buf)
        return;
    if (buf->spare) {
        codec_buf_free(buf->spare);
        buf->alloc->release(buf->alloc->ctx, buf->spare, sizeof *buf->spare);
    }
    if (buf->data)
        buf->alloc->release(buf->alloc->ctx, buf->data, buf->cap);
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
    buf->spare = NULL;
}
