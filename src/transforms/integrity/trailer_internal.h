/* trailer_internal.h — the checksum trailer shared by crc32c, crc32 and adler32:
 * [payload][checksum(payload) as 4 bytes big-endian].
 *
 * A checksum stage only supplies a `checksum_trailer` (its function, its
 * starting value and optionally a fused checksum-and-copy kernel); encode,
 * decode and the errors live once in trailer.c. Encode and decode both copy
 * the payload (to `out`, to the arena), and do it in the same pass as the
 * checksum; the view (codec_decode_view) checks it where it is. */
#ifndef CODEC_INTEGRITY_TRAILER_H
#define CODEC_INTEGRITY_TRAILER_H

#include "compose/stage_internal.h"

/* A running checksum with zlib's chaining convention. */
typedef uint32_t (*checksum_fn)(uint32_t sum, const void *p, size_t n);

/* The same checksum of src[0..n) while copying it to dst[0..n) (no
 * overlap) in one pass. */
typedef uint32_t (*checksum_copy_fn)(uint32_t sum, void *dst, const void *src, size_t n);

typedef struct checksum_trailer {
    checksum_fn fn;
    uint32_t init;      /* value that starts a checksum (0 for CRCs, 1 for Adler) */
    /* A fused kernel, or NULL: trailer.c then runs fn and memcpy over
     * L1-sized pieces, so the copy reads bytes the checksum just read. */
    checksum_copy_fn copy;
} checksum_trailer;

#define CHECKSUM_TRAILER_SIZE 4

/* Makes `s` a trailer stage over `t`, which must outlive the stage (the
 * descriptors are static, so the stage state needs no allocation). */
void codec__checksum_trailer_stage(codec_stage *s, const checksum_trailer *t);

#endif
