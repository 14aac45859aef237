/* inspect.h — names the outer layer of a payload from its magic bytes and
 * reads the sizes its header declares, without trusting any of them.
 *
 * A pure function over bytes, apart from the `codec inspect` command, so a
 * unit test and a fuzz target can drive it. Every header is bounds-checked:
 * inspect_bytes() never reads outside p[0..n), whatever the bytes claim.
 * Checksums are not verified (`codec unpack` does that). hex, base64, cbor
 * and msgpack are named only when the library's decoder accepts the whole
 * input; the bytes inside hex and base64 are inspected in turn ("inner ..."
 * fields), up to 4 levels deep. */
#ifndef CODEC_CLI_INSPECT_H
#define CODEC_CLI_INSPECT_H

#include "codec/core.h"

#include <stddef.h>
#include <stdint.h>

#define INSPECT_MAX_FIELDS 16

/* How many bytes inspect_bytes() may inflate to walk the members of a
 * gzip file (or a zlib stream) in the `codec inspect` command. */
#define INSPECT_DEFAULT_WALK ((uint64_t)1 << 30)

typedef struct inspect_field {
    char key[32];     /* "content size", "inner content size" */
    char value[112];  /* "1048576"; text from the payload is escaped (\xNN) */
} inspect_field;

typedef struct inspect_report {
    const char *format;   /* static: "gzip", "zlib", "zstd", "lz4", "versioned",
                             "envelope", "json", "hex", "base64", "cbor",
                             "msgpack", "empty", "unknown" */
    uint64_t size;        /* n */
    size_t count;
    inspect_field fields[INSPECT_MAX_FIELDS];
    int status;           /* CODEC_OK, or the family of the first problem found */
    codec_error err;      /* filled when status != CODEC_OK; stage = format */
} inspect_report;

/** inspect_bytes() — fills `r` with the format of p[0..n) and the fields
 * its header declares, in a fixed order (docs/guides/cli.md lists them).
 * `walk_budget` bounds how many bytes may be inflated to count gzip members
 * and measure deflate streams; past it, those fields say so.
 * @return r->status: 0; CODEC_E_INVALID_PAYLOAD when a recognised header is
 *         truncated or inconsistent (the fields read before the problem
 *         stay in `r`); CODEC_E_UNSUPPORTED for an unknown version or
 *         algorithm; CODEC_E_NOMEM. Unrecognised bytes are format "unknown"
 *         with status 0.
 * Threads: safe (no shared state). */
int inspect_bytes(const uint8_t *p, size_t n, uint64_t walk_budget, inspect_report *r);

/** inspect_field_value() — the value of field `key`, or NULL. */
const char *inspect_field_value(const inspect_report *r, const char *key);

#endif /* CODEC_CLI_INSPECT_H */
