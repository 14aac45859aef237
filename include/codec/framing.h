/* codec/framing.h — the versioned header and a reader table that routes
 * each version to its own codec.
 *
 * Layer `transforms/framing`. Layout (docs/formats/versioned.md):
 *
 *   [0xC0 0xDC][version: 1 byte, 1..255][payload to the end of the buffer]
 *
 * 0xC0 is never a UTF-8 lead byte and the magic differs from gzip (1F 8B),
 * zlib (78 ..) and JSON, so a reader can tell a versioned value apart.
 * Decode errors: fewer than 3 bytes is CODEC_E_INVALID_PAYLOAD /
 * CODEC_D_TRUNCATED; wrong magic is CODEC_E_INVALID_PAYLOAD /
 * CODEC_D_BAD_MAGIC; version 0 (reserved, never written) is
 * CODEC_E_INVALID_PAYLOAD / CODEC_D_CORRUPT; a version this reader does not
 * accept is CODEC_E_UNSUPPORTED / CODEC_D_VERSION, and the message carries
 * the number ("unsupported version 7 (accepted: 1-3)"), offset 2.
 */
#ifndef CODEC_FRAMING_H
#define CODEC_FRAMING_H

#include "compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** codec_versioned_header() — the spec stage `versioned:V[,accept=LIST]`:
 * encode writes the header with `write_version` before the payload; decode
 * accepts the versions in `accept` and passes the payload on unchanged.
 * @param write_version  1..255.
 * @param accept  NULL (only write_version) or a list such as "1-3,7":
 *                versions and inclusive ranges, comma separated.
 * @return a codec or NULL with CODEC_E_USAGE (bad version or list) or
 *         CODEC_E_NOMEM.
 * Encode appends 3 + n bytes, allocating nothing once `out` has room.
 * Threads: the codec may be shared. Since: 0.1 */
CODEC_API codec *codec_versioned_header(unsigned write_version, const char *accept,
                                        codec_error *err);

/** One row of a reader table: payloads with header version `version` are
 * decoded (and, for the write version, encoded) by `codec`. */
typedef struct codec_version_route {
    uint8_t version;   /* 1..255 */
    codec *codec;      /* a bytes codec (no backend), ownership passes on;
                          NULL = the payload is stored as it is */
} codec_version_route;

/** codec_versioned() — a bytes codec that routes by header version.
 *
 * Encode runs the route of `write_version` over the input and writes the
 * header with `write_version` before its output. Decode reads the header,
 * picks the route of that version and decodes the payload through it; a
 * version without a route is CODEC_E_UNSUPPORTED (see above). Example: a
 * reader table {1 → "base64", 2 → "zstd | base64"} writing version 2 reads
 * both generations of stored data.
 *
 * @param write_version  must have a route.
 * @param routes  n rows; versions 1..255, each at most once. Every route
 *                codec must be a bytes pipeline (built with a NULL type).
 *                The table itself is copied; the codecs in it are taken
 *                over and freed with the result, or at once on failure.
 * @return the codec (a single stage named "versioned"; chain it with
 *         codec_then()), or NULL: CODEC_E_USAGE (version 0, a repeated
 *         version, no route for write_version, a typed route codec, n == 0),
 *         CODEC_E_NOMEM.
 * Limits: routes with typed backends (e.g. version 1 → "json") cannot be
 * expressed, since a stage sees bytes only; put the shared backend in
 * front instead: codec_then(codec_parse("json", type, e), codec_versioned(2,
 * {{1, NULL}, {2, codec_parse("zstd", NULL, e)}}, 2, e)) reads version 1 as
 * plain JSON and version 2 as zstd-compressed JSON.
 * codec_spec() shows "versioned:W,accept=LIST" (routes are not spec text).
 * Allocates: nothing per encode once `out` and its spares have grown.
 * Threads: the result is immutable and may be shared like any codec.
 * Since: 0.1 */
CODEC_API codec *codec_versioned(uint8_t write_version, const codec_version_route *routes,
                                 size_t n, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_FRAMING_H */
