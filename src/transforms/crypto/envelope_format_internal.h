/* envelope_format_internal.h — the envelope's wire layout, format version 1
 * (docs/formats/envelope.md):
 *
 *   0      2   magic "JC"
 *   2      1   version 0x01
 *   3      1   algorithm 0x01 = AES-256-GCM
 *   4      2   key id length k (>= 1), big-endian
 *   6      k   key id
 *   6+k    2   wrapped key length w (>= 1), big-endian
 *   8+k    w   wrapped data key
 *   8+k+w  12  nonce
 *   20+k+w     ciphertext, then the 16-byte tag
 *
 * Reading a header needs no key and no OpenSSL, so envelope_format.c is
 * built in every configuration: `codec inspect` describes envelopes even
 * where the stage itself answers "built without openssl". */
#ifndef CODEC_ENVELOPE_FORMAT_INTERNAL_H
#define CODEC_ENVELOPE_FORMAT_INTERNAL_H

#include "compose/stage_internal.h"

#include <stddef.h>
#include <stdint.h>

#define ENV_MAGIC0 0x4A
#define ENV_MAGIC1 0x43
#define ENV_VERSION 0x01
#define ENV_ALG_AES256GCM 0x01
#define ENV_NONCE_SIZE 12
#define ENV_TAG_SIZE 16
#define ENV_MIN_LEN 38                       /* k = w = 1, empty plaintext */
#define ENV_FIXED_OVERHEAD 36                /* 8 header + 12 nonce + 16 tag */

/* Which data key a message names: its key id and wrapped key, in place. */
typedef struct crypto_dek_ref {
    const uint8_t *key_id;
    size_t key_id_len;
    const uint8_t *wrapped;
    size_t wrapped_len;
} crypto_dek_ref;

/* The parsed fields of a message whose structure has been checked. */
typedef struct envelope_view {
    crypto_dek_ref ref;
    size_t header_len;          /* 8 + k + w: the nonce starts here */
    const uint8_t *body;        /* ciphertext */
    size_t body_len;
} envelope_view;

/* Everything that can be checked without a key, in the documented order,
 * filling *v. codec inspect runs the same checks (codec__inspect_envelope),
 * with `field` reporting what they read; the decoder passes NULL. */
int codec__envelope_parse(const uint8_t *src, size_t n, envelope_view *v,
                          codec_inspect_fn field, void *ctx, codec_error *err);

#endif
