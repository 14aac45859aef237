/* envelope_format.c — reads an envelope's header (envelope_format_internal.h):
 * the checks the decoder makes before it needs a key, shared with
 * `codec inspect`. No OpenSSL here, so every build has it. */
#include "envelope_format_internal.h"

#include "compose/stages_internal.h"
#include "core/error_internal.h"
#include "core/load_internal.h"
#include "codec/envelope.h"

#define STAGE "envelope"                     /* the error stage, as the registry names it */

int codec__envelope_parse(const uint8_t *src, size_t n, envelope_view *v, codec_inspect_fn field,
                          void *ctx, codec_error *err)
{
    if (n < 2)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, STAGE, n,
                               "%zu bytes is too short for an envelope", n);
    if (src[0] != ENV_MAGIC0 || src[1] != ENV_MAGIC1)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, STAGE, 0,
                               "not an envelope (magic %02x %02x, expected 4a 43)", src[0],
                               src[1]);
    if (n < ENV_MIN_LEN)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, STAGE, n,
                               "truncated envelope: %zu bytes, at least %d needed", n,
                               ENV_MIN_LEN);
    codec__inspect_printf(field, ctx, "version", "%u", src[2]);
    if (src[2] != ENV_VERSION)
        return codec_error_set(err, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, STAGE, 2,
                               "envelope format version %u is not supported (this build "
                               "reads 1)",
                               src[2]);
    codec__inspect_printf(field, ctx, "algorithm", "%u (%s)", src[3],
                          src[3] == ENV_ALG_AES256GCM ? "aes-256-gcm"
                          : src[3] == 2               ? "reserved, key-committing"
                                                      : "unknown");
    if (src[3] != ENV_ALG_AES256GCM)
        return codec_error_set(err, CODEC_E_UNSUPPORTED, CODEC_D_VERSION, STAGE, 3,
                               "envelope algorithm %u is not supported (this build knows "
                               "1 = AES-256-GCM)",
                               src[3]);
    /* Both lengths are checked against the bytes present before anything
     * is read through them or allocated for them. */
    size_t k = codec_load_be16(src + 4);
    if (k == 0 || k > n - ENV_FIXED_OVERHEAD - 1)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, STAGE, 4,
                               "key id length %zu does not fit a %zu-byte envelope", k, n);
    if (k > CODEC_ENVELOPE_MAX_KEY_ID)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, STAGE, 4,
                               "key id length %zu is over the limit of %d", k,
                               CODEC_ENVELOPE_MAX_KEY_ID);
    if (field)
        field(ctx, "key id", (const char *)src + 6, k, true);
    size_t w = codec_load_be16(src + 6 + k);
    if (w == 0 || w > n - ENV_FIXED_OVERHEAD - k)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, STAGE, 6 + k,
                               "wrapped key length %zu does not fit a %zu-byte envelope", w, n);
    if (w > CODEC_ENVELOPE_MAX_WRAPPED)
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, STAGE, 6 + k,
                               "wrapped key length %zu is over the limit of %d", w,
                               CODEC_ENVELOPE_MAX_WRAPPED);
    v->ref.key_id = src + 6;
    v->ref.key_id_len = k;
    v->ref.wrapped = src + 8 + k;
    v->ref.wrapped_len = w;
    v->header_len = 8 + k + w;
    v->body = src + v->header_len + ENV_NONCE_SIZE;
    v->body_len = n - ENV_FIXED_OVERHEAD - k - w;
    codec__inspect_printf(field, ctx, "wrapped key length", "%zu", w);
    /* The first byte of a wrapped key names its scheme (envelope.md). */
    codec__inspect_printf(field, ctx, "wrap scheme", "%u (%s)", v->ref.wrapped[0],
                          v->ref.wrapped[0] == 1 ? "aes-kw" : "unknown");
    codec__inspect_printf(field, ctx, "ciphertext length", "%zu",
                          v->body_len + ENV_TAG_SIZE);
    codec__inspect_printf(field, ctx, "plaintext length", "%zu", v->body_len);
    return CODEC_OK;
}

int codec__inspect_envelope(const uint8_t *p, size_t n, codec_inspect_fn field, void *ctx,
                            size_t *header_len, codec_error *err)
{
    envelope_view v;
    int rc = codec__envelope_parse(p, n, &v, field, ctx, err);
    if (rc == CODEC_OK && header_len)
        *header_len = v.header_len + ENV_NONCE_SIZE;
    return rc;
}
