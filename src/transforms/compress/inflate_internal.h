/* inflate_internal.h — codec's own streaming inflate (RFC 1951), with the
 * zlib (RFC 1950) and gzip (RFC 1952) wrappers, for the stream decode of
 * the `gzip` and `deflate` stages (flate_stream.c). The one-shot decode
 * keeps libdeflate (flate.c), which needs the whole input.
 *
 * Input and output come in pieces of any size, down to one byte. What the
 * inflater has read but not yet used (at most 8 bytes) it holds in its
 * bit buffer; the last 32 KiB of output are kept in its window, so the
 * output can be drained in pieces. It accepts and rejects what zlib's
 * inflate() does (windowBits 15, or 31 for gzip): the same checks on
 * headers, block types, code sets, distances and trailers. */
#ifndef CODEC_INFLATE_INTERNAL_H
#define CODEC_INFLATE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum codec_inflate_wrap {
    CODEC_INFLATE_RAW,   /* bare deflate data; bytes after it are trailing */
    CODEC_INFLATE_ZLIB,  /* one zlib stream (2-byte header, Adler-32) */
    CODEC_INFLATE_GZIP   /* gzip members back to back, as gzip -d reads them */
} codec_inflate_wrap;

typedef struct codec_inflater codec_inflater;

/* A ready inflater (about 80 KiB), or NULL when out of memory. */
codec_inflater *codec__inflater_new(codec_inflate_wrap wrap);
/* Makes z as codec__inflater_new() made it (same wrapper), for reuse. */
void codec__inflater_reset(codec_inflater *z);
void codec__inflater_free(codec_inflater *z);

/* Decodes from *in (up to in_end) into *out (up to out_end) and moves both
 * pointers past what it used and wrote. Returns when the input is used up,
 * the output is full, the stream is finished, or at an error: 0, or -1 at
 * an error (sticky; codec__inflate_error() says which). Never reads before
 * *in or at in_end, never writes at out_end or beyond (it may write scratch
 * bytes between the returned *out and out_end). */
int codec__inflate(codec_inflater *z, const uint8_t **in, const uint8_t *in_end, uint8_t **out,
                   uint8_t *out_end);

/* Whether the stream (gzip: the last member so far) has ended with its
 * trailer checked and every byte read has been used. */
bool codec__inflate_finished(const codec_inflater *z);

/* The error of the last -1: a message (zlib's wording) and the detail
 * (CODEC_D_CORRUPT, _BAD_MAGIC, _CHECKSUM, _TRAILING); *unsupported is set
 * for a stream that needs a preset dictionary. */
const char *codec__inflate_error(const codec_inflater *z, int *detail, bool *unsupported);

#endif /* CODEC_INFLATE_INTERNAL_H */
