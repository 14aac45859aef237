/* codec/compose.h — the codec handle: build, chain, parse, encode, decode.
 *
 * A codec is one backend (a wire format over a typed value) followed by any
 * number of transforms (bytes to bytes). A codec with no backend is a bytes
 * pipeline: its value is a `codec_bytes`.
 *
 *   codec_error err;
 *   codec *c = codec_parse("zstd:3 | crc32c | base64", NULL, &err);
 *   codec_buf out; codec_buf_init(&out, NULL);
 *   codec_bytes in = { data, len };
 *   if (codec_encode(c, &in, &out, &err) != 0) ...;
 *   ...
 *   codec_buf_free(&out);
 *   codec_free(c);
 *
 * Encode runs the backend, then each transform left to right; decode undoes
 * them right to left. Handles are immutable once built and may be shared by
 * any number of threads.
 */
#ifndef CODEC_COMPOSE_H
#define CODEC_COMPOSE_H

#include "core.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The opaque codec handle. */
typedef struct codec codec;

/** The value of a bytes pipeline (a codec without a backend). */
typedef struct codec_bytes {
    const uint8_t *data;
    size_t len;
} codec_bytes;

/** Type descriptors live in codec/types.h; a bytes pipeline needs none. */
typedef struct codec_type codec_type;

/** codec_parse() — builds a codec from a pipeline spec.
 *
 * Grammar: stages separated by `|`, each `name[:arg[,key=value...]]`;
 * white space around names and separators is ignored. The first argument
 * may be positional (`zstd:3`, `base64:url`) or a key (`zstd:level=3`).
 * Items without `=` after a `key=value` continue its value as a list:
 * `versioned:2,accept=1-3,7` gives accept the value "1-3,7".
 * Example: "zstd:19,max=256m | crc32c | base64:url-nopad".
 * `codec list` (or codec_registry_describe()) prints every stage.
 *
 * @param spec   NUL-terminated; not kept.
 * @param type   the type descriptor for a backend stage (json, cbor, ...);
 *               NULL for a bytes pipeline. Not copied: must outlive the codec.
 * @param err    may be NULL; filled on failure (stage = the offending stage
 *               name, or "spec"; offset = position in `spec`).
 * @return a new codec (free with codec_free()), or NULL: CODEC_E_USAGE for an
 *         unknown stage, a bad argument or a malformed spec (the message names
 *         what is allowed); CODEC_E_NOMEM; CODEC_E_TRANSIENT when a stage's
 *         resource (a dictionary or key file) cannot be read.
 * Threads: safe. Since 0.1. */
CODEC_API codec *codec_parse(const char *spec, const codec_type *type, codec_error *err);

/** codec_then() — `first` followed by `next`: encode runs first then next,
 * decode runs next's inverse then first's. Takes ownership of both (even on
 * failure). `next` must not have a backend. @return the combined codec, or
 * NULL (both are freed) with CODEC_E_USAGE or CODEC_E_NOMEM in `err`. Since 0.1. */
CODEC_API codec *codec_then(codec *first, codec *next, codec_error *err);

/** codec_free() — releases a codec. NULL is allowed. Since 0.1. */
CODEC_API void codec_free(codec *c);

/** codec_encode() — runs the backend of `c` on `value` (or takes the
 * `codec_bytes` at `value` for a bytes pipeline), then each transform in
 * order, appending the result to `out`.
 * @param c     read only; may be shared by threads.
 * @param value the C value `c` was built for; read only, not kept.
 * @param out   caller owned; on failure its length is restored.
 * @param err   may be NULL; written only on failure.
 * @return 0, or CODEC_E_INVALID_VALUE, CODEC_E_NOMEM, CODEC_E_TRANSIENT,
 *         CODEC_E_USAGE.
 * Allocates: nothing once `out` (and its spare) have reached their peak size.
 * Threads: safe while no other thread touches `out` or `err`. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_encode(const codec *c, const void *value, codec_buf *out,
                                           codec_error *err);

/** codec_decode() — undoes the transforms right to left, then the backend,
 * writing the value to `value_out` (a `codec_bytes` for a bytes pipeline).
 * Everything the value points at (strings, lists, the bytes of a bytes
 * pipeline) and all intermediate scratch lives in `arena`; reset the arena
 * between calls to reuse its memory.
 * @param in    the encoded bytes; never read past in[n-1]; not kept.
 * @return 0, or CODEC_E_INVALID_PAYLOAD (corrupt, truncated, over a limit),
 *         CODEC_E_UNSUPPORTED (unknown version/format), CODEC_E_TRANSIENT,
 *         CODEC_E_NOMEM, CODEC_E_USAGE. On failure `value_out` is unspecified
 *         and `err` names the stage and the offset in that stage's input.
 * Limits: every decompressor stops at its `max` (64 MiB by default).
 * Threads: safe while no other thread touches `arena` or `err`. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_decode(const codec *c, const uint8_t *in, size_t n,
                                           void *value_out, codec_arena *arena,
                                           codec_error *err);

/** codec_decode_view() — codec_decode() of a bytes pipeline that borrows
 * the input instead of copying it where it can. The stages whose decoded
 * bytes are a sub-range of their input — the checksum trailers (crc32c,
 * crc32, adler32), the versioned header (and codec_versioned()'s "as is"
 * routes), a gated compressor's value stored raw — check it where it is:
 * when every stage is one, `out` points into `in` and nothing is copied.
 * A stage that must produce new bytes (decompression, base64, envelope, a
 * routed version) decodes into `arena` as in codec_decode(), and the stages
 * after it view that; the result then lives in the arena.
 * Why a fallback rather than an error: whether a stage copies can depend on
 * the input (a gated value stored raw or compressed, the version of a
 * routed header), so one call serves every input; `*borrowed` says which
 * case this one was, and a NULL `arena` turns the fallback into an error.
 * @param c        a bytes pipeline (no backend): a typed codec's value is
 *                 no byte range (CODEC_E_USAGE; use codec_decode()).
 * @param in       the encoded bytes; never read past in[n-1]; not written.
 * @param out      on success, the decoded bytes: inside in[0..n) when
 *                 *borrowed is true (valid as long as `in` is, whatever
 *                 happens to the arena), else in `arena`.
 * @param borrowed may be NULL; on success, whether `out` points into `in`.
 * @param arena    where new bytes go; NULL: a stage that would produce
 *                 them fails with CODEC_E_USAGE naming it (the stages
 *                 before it have been verified, nothing is returned).
 * @return the statuses of codec_decode(), with the same errors (family,
 *         detail, stage, offset in that stage's input) for the same input:
 *         a checksum mismatch is CODEC_E_INVALID_PAYLOAD, never a view.
 *         On failure `out` and `*borrowed` are unspecified.
 * Allocates: nothing when the result borrows.
 * Threads: safe while no other thread touches `arena` or `err`. Since 0.2. */
CODEC_API CODEC_NODISCARD int codec_decode_view(const codec *c, const uint8_t *in, size_t n,
                                                codec_bytes *out, bool *borrowed,
                                                codec_arena *arena, codec_error *err);

/** codec_spec() — the normalised spec of `c` ("zstd:3 | base64"); a string
 * owned by `c`. Since 0.1. */
CODEC_API const char *codec_spec(const codec *c);

/** codec_stage_count() — number of stages (backend included). Since 0.1. */
CODEC_API size_t codec_stage_count(const codec *c);

/* ---------------------------------------------------------------------------
 * Registry
 * ------------------------------------------------------------------------ */

/** What a registered stage is. */
typedef enum codec_stage_kind {
    CODEC_KIND_BACKEND = 1,      /* typed value <-> bytes */
    CODEC_KIND_COMPRESSION = 2,  /* bytes -> fewer bytes */
    CODEC_KIND_TEXT = 3,         /* bytes -> printable text */
    CODEC_KIND_INTEGRITY = 4,    /* checksum trailers */
    CODEC_KIND_FRAMING = 5,      /* headers and envelopes */
    CODEC_KIND_CRYPTO = 6
} codec_stage_kind;

/** codec_stage_info.flags: the stage's output is text (a backend's
 * encoding, or a text transform's). Since 0.1. */
#define CODEC_STAGE_TEXT 1u
/** codec_stage_info.flags: codec_inspect() reads this stage's header.
 * Since 0.1. */
#define CODEC_STAGE_INSPECT 2u

/** Public description of one registered stage, for listings. The library
 * owns it; callers read it through a pointer, so fields are only ever
 * appended. */
typedef struct codec_stage_info {
    const char *name;        /* "zstd" */
    codec_stage_kind kind;
    const char *args;        /* "LEVEL (1..22, -7..-1; default 3), dict=FILE, max=SIZE" */
    const char *summary;     /* one line */
    unsigned flags;          /* CODEC_STAGE_TEXT | CODEC_STAGE_INSPECT */
    /* Backends: bit (1u << k) is set for each codec_value_kind k (types.h)
     * this format has no form for, so a schemaless value holding one cannot
     * be encoded (json: CODEC_V_BYTES). protobuf, which takes no codec_value
     * at all, lists none: its encoder refuses the value whole. */
    unsigned lacks;
} codec_stage_info;

/** codec_registry_count() / codec_registry_info() — iterate the stages this
 * build knows, in registry order. codec_registry_info() returns NULL past
 * the end. Since 0.1. */
CODEC_API size_t codec_registry_count(void);
CODEC_API const codec_stage_info *codec_registry_info(size_t i);

/** codec_stage_missing() — whether this build has stage `name`: NULL when
 * it does (or no stage has that name), else the name of the optional
 * library it was built without ("brotli", "snappy", "openssl"). Such a
 * stage is still listed; building it fails with CODEC_E_UNSUPPORTED and
 * the message "built without LIB". Since 0.1. */
CODEC_API const char *codec_stage_missing(const char *name);

/** codec_registry_lookup() — the info of the stage named `name` (exact
 * match), or NULL when this build has none. Since 0.1. */
CODEC_API const codec_stage_info *codec_registry_lookup(const char *name);

/* ---------------------------------------------------------------------------
 * Inspecting a header
 * ------------------------------------------------------------------------ */

/** Receives one field of a header from codec_inspect(): `key` ("version")
 * and `len` bytes of value. `from_payload` is true when the value is bytes
 * copied from the input (a key id): escape them before printing. Otherwise
 * the value is text the library formatted ("1 (aes-256-gcm)"). */
typedef void (*codec_inspect_fn)(void *ctx, const char *key, const char *value, size_t len,
                                 bool from_payload);

/** codec_inspect() — reads the header of stage `name` at the start of
 * p[0..n) without keys or settings, and reports each field it declares, in
 * wire order, through `field`. The checks are the ones the stage's decoder
 * makes, in its order, with its errors (family, detail, offset): a header
 * the decoder would reject is rejected here the same way. Nothing is
 * decrypted, decompressed or verified.
 * @param header_len  may be NULL; on success, the bytes of the header (the
 *        stage's payload follows).
 * @return CODEC_OK; the decoder's status for a bad header, with `err`
 *         filled (the fields read before the problem have been reported);
 *         CODEC_E_USAGE when `name` is no stage of this build or its info
 *         lacks CODEC_STAGE_INSPECT.
 * Threads: safe. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_inspect(const char *name, const uint8_t *p, size_t n,
                                            codec_inspect_fn field, void *ctx,
                                            size_t *header_len, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_COMPOSE_H */
