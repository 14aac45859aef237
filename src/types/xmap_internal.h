/* xmap_internal.h — the one way every backend runs an xmap adapter, so the
 * wire buffer is always zeroed to the wire type's size before the adapter
 * or the wire decoder fills it. */
#ifndef CODEC_TYPES_XMAP_INTERNAL_H
#define CODEC_TYPES_XMAP_INTERNAL_H

#include <string.h>

#include "codec/types.h"

/* The caller's frame for one adapter call: the wire value and the scratch
 * the adapter may point its strings into (valid until the wire value is
 * written). Kept in the backend's frame because the wire value is walked
 * after the call. */
typedef struct codec_xmap_frame {
    _Alignas(16) uint8_t wire[CODEC_XMAP_MAX_WIRE];
    char scratch[CODEC_XMAP_SCRATCH];
} codec_xmap_frame;

/* Converts the C value `v` of XMAP type `t` to its wire value in f->wire.
 * Non-zero when the adapter rejects it (the backend reports
 * CODEC_E_INVALID_VALUE). */
static inline int codec_xmap_to_wire(const codec_type *t, const void *v, codec_xmap_frame *f)
{
    memset(f->wire, 0, t->xmap->wire->size);
    return t->xmap->to_wire(t->xmap->ctx, v, f->wire, f->scratch);
}

/* Zeroes the wire value of XMAP type `t` before the backend decodes into it. */
static inline void codec_xmap_clear_wire(const codec_type *t, void *wire)
{
    memset(wire, 0, t->xmap->wire->size);
}

/* Converts a decoded wire value back to the C value `v`; non-zero when the
 * adapter rejects it (the backend reports CODEC_E_INVALID_PAYLOAD). */
static inline int codec_xmap_from_wire(const codec_type *t, const void *wire, void *v,
                                       codec_arena *arena)
{
    return t->xmap->from_wire(t->xmap->ctx, wire, v, arena);
}

#endif
