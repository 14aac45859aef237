/* buf_internal.h — the two ways encoders grow a codec_buf as they write,
 * shared by every encoder: a room check before appending, and a cursor
 * writer's grow step (the write position lives in a register and the
 * length is committed only when the buffer must grow). */
#ifndef CODEC_BUF_INTERNAL_H
#define CODEC_BUF_INTERNAL_H

#include "codec/core.h"

/* Room for n more bytes past out->len (out->data is then never NULL): one
 * compare unless it must grow. @return 0 or CODEC_E_NOMEM. */
static inline int codec__buf_room(codec_buf *out, size_t n)
{
    return n <= out->cap - out->len && out->data ? CODEC_OK : codec_buf_reserve(out, n);
}

/* A cursor writer at p (inside out's room) needs n more bytes: commits p
 * as out->len and makes room. @return the cursor in the (maybe moved)
 * buffer, whose room now ends at out->data + out->cap; NULL when out of
 * memory (out->len stays at p). */
static inline uint8_t *codec__buf_grow(codec_buf *out, uint8_t *p, size_t n)
{
    out->len = (size_t)(p - out->data);
    return codec_buf_reserve(out, n) ? NULL : out->data + out->len;
}

#endif /* CODEC_BUF_INTERNAL_H */
