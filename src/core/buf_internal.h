/* buf_internal.h — how encoders and decoders grow a codec_buf as they
 * write: a room check before appending, a cursor writer's grow step (the
 * write position lives in a register and the length is committed only when
 * the buffer must grow), and growth for writers that know a ceiling. */
#ifndef CODEC_BUF_INTERNAL_H
#define CODEC_BUF_INTERNAL_H

#include "codec/core.h"

/* codec_buf_reserve(), except that geometric growth stops at a capacity of
 * `max_cap` bytes (it still grows to len + extra when that is more): a
 * decoder whose output is capped then holds at most the cap, not 1.5 times
 * it. codec_buf_reserve() is this with max_cap SIZE_MAX. */
int codec__buf_reserve_capped(codec_buf *buf, size_t extra, size_t max_cap);

/* Room for n more bytes past out->len (out->data is then never NULL): one
 * compare unless it must grow. @return 0 or CODEC_E_NOMEM. */
static inline int codec__buf_room(codec_buf *out, size_t n)
{
    /* codec_buf_reserve() itself is public, so a call from inside the
     * shared library would go through the PLT. */
    return n <= out->cap - out->len && out->data ? CODEC_OK
                                                  : codec__buf_reserve_capped(out, n, SIZE_MAX);
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
