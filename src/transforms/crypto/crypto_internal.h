/* crypto_internal.h — the pieces the envelope stage and the key ring share:
 * AES-256-GCM and AES key wrap over OpenSSL, a pool of reusable cipher
 * contexts, a buffered random source, the bounded data-key strategy and the
 * decode-side cache of unwrapped keys. One concept per .c file. */
#ifndef CODEC_CRYPTO_INTERNAL_H
#define CODEC_CRYPTO_INTERNAL_H

#include "codec/envelope.h"
#include "envelope_format_internal.h"

#include "libcrypto_internal.h"
#include "core/pool_internal.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define CRYPTO_NONCE_SIZE ENV_NONCE_SIZE
#define CRYPTO_TAG_SIZE ENV_TAG_SIZE
#define CRYPTO_KEY_SIZE CODEC_ENVELOPE_KEY_SIZE
#define CRYPTO_WRAPPED_KEY_SIZE (CRYPTO_KEY_SIZE + 8) /* RFC 3394 adds one block half */

/* ---------------------------------------------------------------------------
 * fork.c — fork() while other threads work: every lock of this layer is
 * registered, taken before fork() and released after it in parent and
 * child; calls into OpenSSL that may take its global locks go through
 * codec__openssl_enter/leave, so no codec thread holds one at fork().
 * ------------------------------------------------------------------------ */

typedef struct codec__fork_locks {
    struct codec__fork_locks *prev, *next;
    pthread_mutex_t *locks;
    size_t count;
} codec__fork_locks;

/* Registers locks[0..count) (initialised; taken in that order) until
 * codec__fork_locks_remove(), which must come before they are destroyed. */
void codec__fork_locks_add(codec__fork_locks *l, pthread_mutex_t *locks, size_t count);
void codec__fork_locks_remove(codec__fork_locks *l);
/* Around OpenSSL calls that may take OpenSSL's own global locks: random
 * bytes, fetching a cipher (making a context). Nothing else is locked
 * between the two. */
void codec__openssl_enter(void);
void codec__openssl_leave(void);
/* n random bytes from OpenSSL's private generator (RAND_priv_bytes: data
 * keys, nonces and KEKs never share a generator with the bytes other code
 * may publish); 0, or -1 when it has none. */
int codec__random_bytes(uint8_t *dst, size_t n);
/* Changes in every child after fork(): state drawn from random bytes in the
 * parent (buffers, a bounded data key) must not be reused in the child. */
unsigned codec__crypto_fork_generation(void);

/* Objects that calls borrow (cipher contexts are costly to create; a
 * handle is shared by threads) come from a core/pool_internal.h pool with
 * keep_in_thread off: codec__crypto_pool_init(). */
static inline void codec__crypto_pool_init(codec_pool *p, void *(*make)(const void *),
                                           void (*drop)(void *), const void *cfg)
{
    codec__pool_init(p, make, drop, cfg);
    p->keep_in_thread = false; /* their keys go when the codec does */
}

/* ---------------------------------------------------------------------------
 * gcm.c — AES-256-GCM with a 12-byte nonce and a 16-byte tag, OpenSSL's.
 * ------------------------------------------------------------------------ */

/* A context for codec__crypto_gcm_seal/open; NULL when out of memory. */
EVP_CIPHER_CTX *codec__crypto_gcm_new(void);

/* Additional data in two parts (header, then the codec's fixed AAD). */
typedef struct crypto_aad {
    const uint8_t *a;
    size_t a_len;
    const uint8_t *b;
    size_t b_len;
} crypto_aad;

/* Encrypts src[0..n) into dst (n bytes) and writes the tag. `key` NULL
 * keeps the key the context already holds (the bounded strategy). */
bool codec__crypto_gcm_seal(EVP_CIPHER_CTX *ctx, const uint8_t *key, const uint8_t *nonce,
                            const crypto_aad *aad, const uint8_t *src, size_t n, uint8_t *dst,
                            uint8_t *tag);
/* Decrypts and verifies; false on any failure (dst is then wiped). */
bool codec__crypto_gcm_open(EVP_CIPHER_CTX *ctx, const uint8_t *key, const uint8_t *nonce,
                            const crypto_aad *aad, const uint8_t *src, size_t n, const uint8_t *tag,
                            uint8_t *dst);

/* ---------------------------------------------------------------------------
 * keywrap.c — AES key wrap (RFC 3394, default IV) of a 32-byte key.
 * ------------------------------------------------------------------------ */

/* A context holding the expanded KEK, for wrapping or for unwrapping. */
EVP_CIPHER_CTX *codec__crypto_kw_new(const uint8_t kek[CRYPTO_KEY_SIZE], bool wrap);
bool codec__crypto_kw_wrap(EVP_CIPHER_CTX *kek, const uint8_t key[CRYPTO_KEY_SIZE],
                           uint8_t out[CRYPTO_WRAPPED_KEY_SIZE]);
/* False when the integrity check fails; `key` is then wiped. */
bool codec__crypto_kw_unwrap(EVP_CIPHER_CTX *kek, const uint8_t in[CRYPTO_WRAPPED_KEY_SIZE],
                             uint8_t key[CRYPTO_KEY_SIZE]);

/* ---------------------------------------------------------------------------
 * random.c — OpenSSL random bytes, drawn in blocks (one RAND_priv_bytes call
 * costs about as much as a whole small message) and discarded after fork.
 * ------------------------------------------------------------------------ */

#define CRYPTO_RANDOM_BLOCK 1024

typedef struct crypto_random {
    unsigned fork_generation;
    size_t avail;                   /* unread bytes at the end of buf */
    uint8_t buf[CRYPTO_RANDOM_BLOCK];
} crypto_random;

void codec__crypto_random_init(crypto_random *r);
/* codec_byte_source.fill over a crypto_random; bytes handed out are wiped
 * from the buffer. */
int codec__crypto_random_fill(void *r, uint8_t *dst, size_t n);
void codec__crypto_random_wipe(crypto_random *r);

/* A process-wide serial for data keys: equal serials mean the same key, so
 * a context keyed with it need not be keyed again. Never 0. */
uint64_t codec__crypto_next_serial(void);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t codec__crypto_monotonic_ns(void);

/* ---------------------------------------------------------------------------
 * strategy.c — the bounded data-key strategy: one key for at most N
 * messages or a maximum age, shared by all threads.
 * ------------------------------------------------------------------------ */

#define CRYPTO_MAX_HEADER (8 + CODEC_ENVELOPE_MAX_KEY_ID + CODEC_ENVELOPE_MAX_WRAPPED)

/* A data key in use by the bounded strategy, with the message header that
 * names it already built. Reference counted: the strategy holds the current
 * one and each encode slot holds the one its context is keyed with. */
typedef struct crypto_dek {
    atomic_uint refs;
    uint64_t serial;
    uint64_t used;          /* messages sealed; guarded by the strategy lock */
    uint64_t born_ns;
    unsigned fork_generation;
    uint8_t key[CRYPTO_KEY_SIZE];
    size_t header_len;
    uint8_t header[CRYPTO_MAX_HEADER];
} crypto_dek;

/* Fills dek->key and dek->header (the envelope layout lives in envelope.c). */
typedef int (*crypto_dek_make_fn)(void *ctx, const codec_byte_source *random, crypto_dek *dek,
                                  codec_error *err);

typedef struct crypto_bounded_config {
    uint64_t max_messages;
    uint64_t max_age_ns;
    uint64_t (*clock_ns)(void *ctx);
    void *clock_ctx;
    crypto_dek_make_fn make;
    void *make_ctx;
} crypto_bounded_config;

typedef struct crypto_bounded crypto_bounded;

crypto_bounded *codec__crypto_bounded_new(const crypto_bounded_config *cfg);
void codec__crypto_bounded_free(crypto_bounded *b);
/* Counts one message against the current key and makes *held point at it
 * (adjusting references), rolling to a new key first when the current one
 * is used up, too old or inherited across fork. */
int codec__crypto_bounded_next(crypto_bounded *b, crypto_dek **held,
                               const codec_byte_source *random, codec_error *err);
void codec__crypto_dek_release(crypto_dek *dek);

/* ---------------------------------------------------------------------------
 * dek_cache.c — unwrapped data keys by (key id, wrapped bytes), bounded in
 * entries and age, shared by all decoding threads.
 * ------------------------------------------------------------------------ */

typedef struct crypto_dek_cache crypto_dek_cache;

crypto_dek_cache *codec__crypto_dek_cache_new(size_t entries, uint64_t max_age_ns);
void codec__crypto_dek_cache_free(crypto_dek_cache *c);
/* On a hit copies the key out, sets *serial and returns true. */
bool codec__crypto_dek_cache_get(crypto_dek_cache *c, const crypto_dek_ref *ref, uint64_t now_ns,
                                 uint8_t key[CRYPTO_KEY_SIZE], uint64_t *serial);
/* Stores a key and returns its serial (0 when it could not be stored). */
uint64_t codec__crypto_dek_cache_put(crypto_dek_cache *c, const crypto_dek_ref *ref,
                                     uint64_t now_ns, const uint8_t key[CRYPTO_KEY_SIZE]);

/* ---------------------------------------------------------------------------
 * keyring.c — codec_keyring_parse() and codec_keyring_load() with the ring
 * (and the file's text) in memory from `alloc`, so that a test allocator
 * can check that every block that held a KEK is wiped before release.
 * ------------------------------------------------------------------------ */

codec_keyring *codec__keyring_parse_with(const char *text, size_t len,
                                         const codec_allocator *alloc, codec_error *err);
codec_keyring *codec__keyring_load_with(const char *path, const codec_allocator *alloc,
                                        codec_error *err);

/* ---------------------------------------------------------------------------
 * envelope.c — fills an `envelope` stage from options (codec_envelope() and
 * the spec constructor in envelope_spec.c). Ownership of o->provider passes
 * to the stage, even on failure.
 * ------------------------------------------------------------------------ */

struct codec_stage;
int codec__crypto_envelope_fill(struct codec_stage *s, const codec_envelope_options *o,
                                codec_error *err);

#endif /* CODEC_CRYPTO_INTERNAL_H */
