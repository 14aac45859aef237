/* codec/envelope.h — envelope encryption: AES-256-GCM under a fresh or
 * bounded-use data key (DEK) that a key-encryption key (KEK) wraps.
 *
 * The `envelope` transform encrypts and authenticates whatever the stages
 * before it produced. Its layout is format version 1 of the Java codec
 * library's envelope (docs/formats/envelope.md), byte for byte:
 *
 *   "JC" | 0x01 | 0x01 | u16 k | key id | u16 w | wrapped DEK | nonce(12) |
 *   ciphertext | tag(16)
 *
 * Keys come from a key provider (codec_key_provider): the built-in key ring
 * (codec_keyring_load()) or your own, e.g. a KMS client. In a spec:
 *
 *   envelope:keyring=FILE[,aad=TEXT][,strategy=bounded,max-messages=N,max-age=DURATION]
 *            [,max=SIZE]
 *
 * Streams (codec/stream.h): a message is one AEAD message, so a stream of
 * it holds the whole message and never releases plaintext before the tag
 * verifies; it holds at most max= bytes (64 MiB by default, and for
 * codec_envelope()) and fails with CODEC_D_LIMIT beyond.
 *
 * and in C:
 *
 *   codec_keyring *ring = codec_keyring_load("/etc/app/keys.ring", &err);
 *   codec_envelope_options o = {0};
 *   o.provider = codec_keyring_provider(ring);   // the codec now owns the ring
 *   codec *c = codec_envelope(&o, &err);
 *
 * Decryption failures caused by a wrong key, an unknown key id or tampering
 * all report the one status CODEC_E_INVALID_PAYLOAD / CODEC_D_DECRYPT with
 * the message "unable to decrypt" and no offset, so a failure tells an
 * attacker nothing. docs/guides/encryption.md explains strategies, key
 * rotation and KMS providers; docs/threat-model.md what is defended.
 */
#ifndef CODEC_ENVELOPE_H
#define CODEC_ENVELOPE_H

#include "compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of a data key and of a key-ring KEK: AES-256. */
#define CODEC_ENVELOPE_KEY_SIZE 32
/** Longest key id this build writes or reads (the field allows 65535). */
#define CODEC_ENVELOPE_MAX_KEY_ID 255
/** Longest wrapped data key this build writes or reads. Key-ring keys wrap
 * to 41 bytes; KMS ciphertext blobs are typically 100..200 bytes. */
#define CODEC_ENVELOPE_MAX_WRAPPED 1024
/** Bytes an envelope adds to the plaintext: 36 + key id + wrapped DEK. */
#define CODEC_ENVELOPE_OVERHEAD(key_id_len, wrapped_len) (36u + (key_id_len) + (wrapped_len))

/* ---------------------------------------------------------------------------
 * Key providers
 * ------------------------------------------------------------------------ */

/** A source of random bytes. `fill` writes n bytes to dst and returns 0, or
 * nonzero when it cannot (the caller then fails with CODEC_E_TRANSIENT). */
typedef struct codec_byte_source {
    int (*fill)(void *ctx, uint8_t *dst, size_t n);
    void *ctx;
} codec_byte_source;

/** A data key as a provider returns it: the plaintext key, the id of the KEK
 * that wrapped it and the wrapped bytes that go into the message.
 * The envelope wipes `key` (OPENSSL_cleanse) as soon as it is done with it. */
typedef struct codec_data_key {
    uint8_t key[CODEC_ENVELOPE_KEY_SIZE];
    size_t key_id_len;                          /* 1..CODEC_ENVELOPE_MAX_KEY_ID */
    uint8_t key_id[CODEC_ENVELOPE_MAX_KEY_ID];  /* UTF-8, not NUL-terminated */
    size_t wrapped_len;                         /* 1..CODEC_ENVELOPE_MAX_WRAPPED */
    uint8_t wrapped[CODEC_ENVELOPE_MAX_WRAPPED];
} codec_data_key;

/** What the envelope needs from a key service. Plug a KMS in by filling
 * this struct; docs/guides/encryption.md has a worked example.
 *
 * Every function may be called by many threads at once and must be
 * thread-safe. `ctx` is passed to each of them unchanged.
 *
 * generate — makes a new data key under the current KEK and wraps it,
 *   filling every field of `out`. A provider that makes the key locally
 *   must take its bytes from `random` (so tests can make messages
 *   reproducible); a KMS that returns a plaintext key ignores it.
 *   @return 0, or a status with `err` filled: the envelope reports any
 *   failure as CODEC_E_TRANSIENT (retry later) except CODEC_E_NOMEM.
 * allows — the allowlist: nonzero when messages naming this key id may be
 *   decrypted. Called before any unwrap; an id it refuses fails the message
 *   with "unable to decrypt" and unwrap is never called.
 * unwrap — recovers the data key of a message into `key`.
 *   @return 0; CODEC_E_TRANSIENT when the key service cannot be reached
 *   (the message is not bad, retry later); CODEC_E_NOMEM; any other status
 *   means the wrapped bytes are not valid under that key, which the
 *   envelope reports as "unable to decrypt" (the provider's message is
 *   dropped so it cannot become an oracle).
 * release — frees `ctx` when the codec that owns the provider is freed.
 *   May be NULL. */
typedef struct codec_key_provider {
    int (*generate)(void *ctx, const codec_byte_source *random, codec_data_key *out,
                    codec_error *err);
    int (*allows)(void *ctx, const uint8_t *key_id, size_t key_id_len);
    int (*unwrap)(void *ctx, const uint8_t *key_id, size_t key_id_len, const uint8_t *wrapped,
                  size_t wrapped_len, uint8_t key[CODEC_ENVELOPE_KEY_SIZE], codec_error *err);
    void (*release)(void *ctx);
    void *ctx;
} codec_key_provider;

/* ---------------------------------------------------------------------------
 * The built-in key ring
 * ------------------------------------------------------------------------ */

/** A set of AES-256 KEKs by key id; the first is current (wraps new data
 * keys), every one of them may unwrap. The ring is also the allowlist.
 * Immutable once loaded; safe to share between threads. */
typedef struct codec_keyring codec_keyring;

/** Most keys a ring may hold. */
#define CODEC_KEYRING_MAX_KEYS 1024

/** codec_keyring_load() — reads a key-ring file.
 *
 * Format: one key per line, `<key-id> <64 hex digits>` separated by spaces
 * or tabs; the first key is the current one; blank lines and lines whose
 * first non-blank character is `#` are ignored. Key ids are 1..255 visible
 * ASCII characters (no spaces) and must be unique.
 *
 * The file must be a regular file that neither group nor others may read,
 * write or execute (mode 0600 or 0400): a ring with wider permissions is
 * refused, because anyone who can read it can decrypt everything. Whoever
 * can replace it can install their own KEK, so, like OpenSSH's StrictModes,
 * the file must be owned by the caller (effective uid) or root, and so must
 * every directory above it (of the path given and, for a symbolic link, of
 * its target), none of them writable by group or others unless it has the
 * sticky bit (as /tmp). Each refusal names the file or directory and the
 * command that fixes it (chmod / chown).
 *
 * @param path  NUL-terminated; not kept.
 * @param err   may be NULL; filled on failure.
 * @return a ring (free with codec_keyring_free() or hand it to
 *   codec_keyring_provider()), or NULL: CODEC_E_TRANSIENT with CODEC_D_IO
 *   when the file cannot be read; CODEC_E_USAGE when its permissions,
 *   owner or directories are unsafe or a line is malformed (the message
 *   names the line, never a key); CODEC_E_NOMEM.
 * The file's bytes are wiped from memory after parsing. Threads: safe. Since 0.1. */
CODEC_API codec_keyring *codec_keyring_load(const char *path, codec_error *err);

/** codec_keyring_parse() — the same format from memory (for keys that come
 * from a secret store rather than a file). `text` is not kept; wipe it
 * yourself. @return a ring, or NULL with CODEC_E_USAGE / CODEC_E_NOMEM. Since 0.1. */
CODEC_API codec_keyring *codec_keyring_parse(const char *text, size_t len, codec_error *err);

/** codec_keyring_free() — wipes and frees a ring. NULL is allowed. Do not
 * call it on a ring given to codec_keyring_provider(). Since 0.1. */
CODEC_API void codec_keyring_free(codec_keyring *ring);

/** codec_keyring_provider() — the ring as a key provider. Ownership of
 * `ring` passes to the provider: its `release` frees the ring.
 *
 * A NULL ring (a failed load) gives an empty provider, which
 * codec_envelope() refuses with CODEC_E_USAGE, so the calls may be chained.
 *
 * Data keys are 32 bytes from the envelope's random source, wrapped with
 * AES key wrap (RFC 3394, no padding) under the current KEK; the wrapped
 * field is `[0x01][40 bytes]` (41 bytes). Unwrap accepts only that scheme. Since 0.1. */
CODEC_API codec_key_provider codec_keyring_provider(codec_keyring *ring);

/** codec_keyring_generate_line() — one new ring line, `<id> <64 hex>\n`,
 * with a fresh KEK from OpenSSL's private random generator (seeded by the
 * operating system). This is what `codec keygen [--id NAME]` prints.
 * @param id   the key id (1..255 visible ASCII characters), or NULL for
 *             `kek-YYYYMMDD-XXXXXXXX` (UTC date, 8 random hex digits).
 * @param dst  receives the NUL-terminated line; wipe it after use.
 * @param cap  at least 322 bytes is always enough.
 * @return 0, CODEC_E_USAGE for a bad id or a small `dst`,
 *         CODEC_E_TRANSIENT when no random bytes are available. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_keyring_generate_line(const char *id, char *dst, size_t cap,
                                          codec_error *err);

/* ---------------------------------------------------------------------------
 * The envelope codec
 * ------------------------------------------------------------------------ */

/** How data keys are used. */
typedef enum codec_envelope_strategy {
    /** A fresh data key for every message (one wrap per encode). The default. */
    CODEC_ENVELOPE_DIRECT = 0,
    /** One data key for up to max_messages messages or max_age_ms, whichever
     * comes first; then a new one. Much faster when wrapping is costly (a
     * KMS round trip); decoders unwrap each key once thanks to their cache. */
    CODEC_ENVELOPE_BOUNDED = 1
} codec_envelope_strategy;

#define CODEC_ENVELOPE_DEFAULT_MAX_MESSAGES (1u << 20)
#define CODEC_ENVELOPE_LIMIT_MAX_MESSAGES (1u << 24)
#define CODEC_ENVELOPE_DEFAULT_MAX_AGE_MS (60u * 60 * 1000)     /* one hour */
#define CODEC_ENVELOPE_DEFAULT_CACHE_ENTRIES 1024u
#define CODEC_ENVELOPE_DEFAULT_CACHE_AGE_MS (5u * 60 * 1000)    /* five minutes */

#if defined(CODEC_STATIC_LINKING_ONLY) || defined(CODEC_BUILDING)
/** TEST ONLY, and only with CODEC_STATIC_LINKING_ONLY (not part of the ABI
 * promise). Deterministic hooks that make messages reproducible. Never
 * set them in production: a fixed byte source repeats nonces and keys. */
typedef struct codec_envelope_test_hooks {
    /** Replaces OpenSSL's random bytes for data keys and nonces. Called
     * for the data key (32 bytes, through the provider) then the nonce
     * (12 bytes), in that order. fill == NULL = OpenSSL. */
    codec_byte_source random;
    /** Replaces the monotonic clock (nanoseconds) used for max_age_ms and
     * the cache age. NULL = CLOCK_MONOTONIC. */
    uint64_t (*clock_ns)(void *ctx);
    void *clock_ctx;
} codec_envelope_test_hooks;
#endif

/** Options of codec_envelope(). All-zero means defaults, except that a
 * provider is required. */
typedef struct codec_envelope_options {
    /** Required. Ownership passes to the codec (even when building fails):
     * the codec calls provider.release when it is freed. */
    codec_key_provider provider;
    /** Optional fixed additional authenticated data, bound into every
     * message's tag after the header: a message only decrypts with the same
     * AAD. Copied. */
    const uint8_t *aad;
    size_t aad_len;
    /** Data-key strategy; 0 = CODEC_ENVELOPE_DIRECT. */
    codec_envelope_strategy strategy;
    /** Bounded only: messages per data key, 1..2^24; 0 = 2^20. */
    uint32_t max_messages;
    /** Bounded only: the most milliseconds a data key is used for, on a
     * monotonic clock; 0 = one hour. */
    uint64_t max_age_ms;
    /** Decode cache of unwrapped data keys, keyed by (key id, wrapped
     * bytes): entries 0 = 1024 (rounded up to a power of two, at most 2^20),
     * age 0 = five minutes. no_cache != 0 turns it off (every decode
     * unwraps). */
    uint32_t cache_entries;
    uint64_t cache_max_age_ms;
    int no_cache;
    /** TEST ONLY (CODEC_STATIC_LINKING_ONLY); leave zeroed. */
#if defined(CODEC_STATIC_LINKING_ONLY) || defined(CODEC_BUILDING)
    codec_envelope_test_hooks test;
#else
    struct {
        void *private_[4];   /* the hooks' layout: four pointers */
    } test;
#endif
    /** Must be zero (room to grow without breaking the ABI). */
    uint64_t reserved[4];
} codec_envelope_options;

/** codec_envelope() — builds the envelope transform as a codec (chain it
 * after a backend or other transforms with codec_then()).
 *
 * Encode: appends header, nonce, ciphertext and tag to `out`. Fails with
 * CODEC_E_TRANSIENT when the provider or the random source fails,
 * CODEC_E_INVALID_VALUE for a plaintext over 2^36 - 32 bytes (the GCM limit),
 * CODEC_E_USAGE when the provider returns a key id or wrapped key outside
 * the limits above. A steady-state encode allocates nothing.
 * Decode, in this order: shorter than 2 bytes → invalid payload; magic not
 * "JC" → invalid payload "not an envelope"; shorter than 38 → truncated;
 * version other than 1 or algorithm other than 1 → CODEC_E_UNSUPPORTED;
 * length fields outside the message or the limits → invalid payload naming
 * the field and its offset; then key-id allowlist, unwrap (through the
 * cache) and GCM open, whose failures all read "unable to decrypt".
 * A provider that cannot be reached → CODEC_E_TRANSIENT.
 *
 * @param o    required; read only, not kept (the AAD is copied).
 * @param err  may be NULL; filled on failure.
 * @return a codec (free with codec_free()), or NULL with CODEC_E_USAGE for
 *         missing provider functions, out-of-range options or nonzero
 *         reserved fields; CODEC_E_NOMEM.
 * Threads: the codec may be shared by any number of threads. Since 0.1. */
CODEC_API codec *codec_envelope(const codec_envelope_options *o, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_ENVELOPE_H */
