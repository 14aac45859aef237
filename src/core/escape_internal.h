/* escape_internal.h — making external bytes safe to show: every error
 * message that quotes input (a key, a field name, a server's error text)
 * goes through these, so no terminal escape sequence or control byte from
 * a file, a payload or a network peer reaches the caller's terminal. */
#ifndef CODEC_ESCAPE_INTERNAL_H
#define CODEC_ESCAPE_INTERNAL_H

#include <stddef.h>

/* Room codec__quote_bytes() needs for `max_in` input bytes. */
#define CODEC_QUOTE_CAP(max_in) (4 * (size_t)(max_in) + 4)

/* Writes a printable rendering of src[0..n) to dst (cap bytes, always
 * NUL-terminated when cap > 0): printable ASCII as itself, every other byte
 * (and ' and \) as \xNN, at most `max_in` input bytes, then "..." when cut.
 * Returns dst. For quoting names and bytes that came from outside. */
char *codec__quote_bytes(char *dst, size_t cap, const void *src, size_t n, size_t max_in);

/* Copies the NUL-terminated text src to dst (cap bytes, cut to fit, always
 * NUL-terminated) with every control character written as \xNN: C0 bytes,
 * DEL, C1 controls encoded in UTF-8, and bytes that are not valid UTF-8.
 * Valid UTF-8 text otherwise passes unchanged. codec_error_set() runs every
 * message through it. */
void codec__escape_controls(char *dst, size_t cap, const char *src);

#endif
