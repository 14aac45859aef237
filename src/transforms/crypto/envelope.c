/* envelope.c — the `envelope` stage: AES-256-GCM under a wrapped data key,
 * format version 1 (the layout: envelope_format_internal.h, reader in
 * envelope_format.c; docs/formats/envelope.md).
 *
 * AAD = bytes 0 .. 19+k+w, then the codec's fixed AAD if any. */
#include "compose/stage_internal.h"
#include "core/load_internal.h"
#include "crypto_internal.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENV_MAX_PLAINTEXT (((uint64_t)1 << 36) - 32) /* GCM: 2^32 - 2 blocks */
#define NS_PER_MS 1000000u
#define STAGE "envelope"                     /* the error stage, as the registry names it */

typedef struct envelope_state {
    codec_key_provider provider;
    uint8_t *aad;
    size_t aad_len;
    crypto_bounded *bounded;        /* NULL for the direct strategy */
    crypto_dek_cache *cache;        /* NULL when off */
    codec_envelope_test_hooks test;
    codec_pool slots;               /* of envelope_slot */
} envelope_state;

/* What one call borrows: a GCM context, the serial of the key it holds
 * (0 = none or unknown), the bounded key it is keyed with, random bytes. */
typedef struct envelope_slot {
    EVP_CIPHER_CTX *gcm;
    uint64_t keyed_serial;
    crypto_dek *dek;
    crypto_random random;
} envelope_slot;

static int env_nomem(const codec_stage *s, codec_error *err)
{
    return codec__nomem(err, s->name);
}

static int unable_to_decrypt(const codec_stage *s, codec_error *err)
{
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_DECRYPT, CODEC_NO_OFFSET,
                      "unable to decrypt");
}

static uint64_t state_now(const envelope_state *st)
{
    return st->test.clock_ns ? st->test.clock_ns(st->test.clock_ctx) : codec__crypto_monotonic_ns();
}

/* ---------------------------------------------------------------------------
 * Slots
 * ------------------------------------------------------------------------ */

static void slot_destroy(void *item)
{
    envelope_slot *slot = item;
    EVP_CIPHER_CTX_free(slot->gcm);
    codec__crypto_dek_release(slot->dek);
    codec__crypto_random_wipe(&slot->random);
    free(slot);
}

/* A new slot (the pool's make). */
static void *slot_make(const void *unused)
{
    (void)unused;
    envelope_slot *slot = calloc(1, sizeof *slot);
    if (!slot)
        return NULL;
    codec__crypto_random_init(&slot->random);
    slot->gcm = codec__crypto_gcm_new();
    if (!slot->gcm) {
        slot_destroy(slot);
        return NULL;
    }
    return slot;
}

/* A slot for one call, NULL when out of memory; back with slot_give. */
static envelope_slot *slot_take(envelope_state *st)
{
    return codec__pool_get(&st->slots);
}

static void slot_give(envelope_state *st, envelope_slot *slot)
{
    codec__pool_put(&st->slots, slot);
}

static codec_byte_source slot_random(const envelope_state *st, envelope_slot *slot)
{
    if (st->test.random.fill)
        return st->test.random;
    codec_byte_source src = {codec__crypto_random_fill, &slot->random};
    return src;
}

/* ---------------------------------------------------------------------------
 * Encode
 * ------------------------------------------------------------------------ */

/* Writes bytes 0 .. 7+k+w (everything before the nonce). */
static size_t header_write(uint8_t *dst, const codec_data_key *dk)
{
    dst[0] = ENV_MAGIC0;
    dst[1] = ENV_MAGIC1;
    dst[2] = ENV_VERSION;
    dst[3] = ENV_ALG_AES256GCM;
    codec_store_be16(dst + 4, (uint16_t)dk->key_id_len);
    memcpy(dst + 6, dk->key_id, dk->key_id_len);
    codec_store_be16(dst + 6 + dk->key_id_len, (uint16_t)dk->wrapped_len);
    memcpy(dst + 8 + dk->key_id_len, dk->wrapped, dk->wrapped_len);
    return 8 + dk->key_id_len + dk->wrapped_len;
}

/* Asks the provider for a data key and checks what it returned. Any
 * provider failure but out-of-memory is transient: the value is fine. */
static int provider_generate(const envelope_state *st, const codec_byte_source *random,
                             codec_data_key *dk, codec_error *err)
{
    codec_error perr = {0};
    int rc = st->provider.generate(st->provider.ctx, random, dk, &perr);
    if (rc)
        OPENSSL_cleanse(dk->key, sizeof dk->key);
    if (rc == CODEC_E_NOMEM)
        return codec__nomem(err, "envelope");
    if (rc)
        return codec_error_set(err, CODEC_E_TRANSIENT, 0, "envelope", CODEC_NO_OFFSET,
                               "key provider failed: %s", perr.message);
    if (dk->key_id_len == 0 || dk->key_id_len > CODEC_ENVELOPE_MAX_KEY_ID ||
        dk->wrapped_len == 0 || dk->wrapped_len > CODEC_ENVELOPE_MAX_WRAPPED) {
        OPENSSL_cleanse(dk->key, sizeof dk->key);
        return codec_error_set(err, CODEC_E_USAGE, 0, "envelope", CODEC_NO_OFFSET,
                               "key provider returned a key id of %zu bytes and a wrapped "
                               "key of %zu (allowed: 1..%d and 1..%d)",
                               dk->key_id_len, dk->wrapped_len, CODEC_ENVELOPE_MAX_KEY_ID,
                               CODEC_ENVELOPE_MAX_WRAPPED);
    }
    return CODEC_OK;
}

/* crypto_dek_make_fn for the bounded strategy. */
static int make_bounded_dek(void *ctx, const codec_byte_source *random, crypto_dek *dek,
                            codec_error *err)
{
    codec_data_key dk;
    int rc = provider_generate(ctx, random, &dk, err);
    if (rc)
        return rc;
    memcpy(dek->key, dk.key, sizeof dek->key);
    OPENSSL_cleanse(dk.key, sizeof dk.key);
    dek->header_len = header_write(dek->header, &dk);
    return CODEC_OK;
}

/* Appends header, nonce, ciphertext and tag. `key` NULL = the slot's
 * context already holds the key. */
static int seal_message(const codec_stage *s, const envelope_state *st, envelope_slot *slot,
                        const uint8_t *header, size_t header_len, const uint8_t *key,
                        const uint8_t *src, size_t n, codec_buf *out, codec_error *err)
{
    size_t total = header_len + CRYPTO_NONCE_SIZE + n + CRYPTO_TAG_SIZE;
    if (codec_buf_reserve(out, total))
        return env_nomem(s, err);
    uint8_t *dst = out->data + out->len;
    memcpy(dst, header, header_len);
    uint8_t *nonce = dst + header_len;
    codec_byte_source random = slot_random(st, slot);
    if (random.fill(random.ctx, nonce, CRYPTO_NONCE_SIZE) != 0)
        return CODEC_FAIL(err, s, CODEC_E_TRANSIENT, 0, CODEC_NO_OFFSET,
                          "no random bytes for a nonce");
    uint8_t *body = nonce + CRYPTO_NONCE_SIZE;
    crypto_aad aad = {dst, header_len + CRYPTO_NONCE_SIZE, st->aad, st->aad_len};
    if (!codec__crypto_gcm_seal(slot->gcm, key, nonce, &aad, src, n, body, body + n))
        return CODEC_FAIL(err, s, CODEC_E_TRANSIENT, 0, CODEC_NO_OFFSET,
                          "OpenSSL could not encrypt");
    out->len += total;
    return CODEC_OK;
}

static int encode_direct(const codec_stage *s, envelope_state *st, envelope_slot *slot,
                         const uint8_t *src, size_t n, codec_buf *out, codec_error *err)
{
    codec_data_key dk;
    codec_byte_source random = slot_random(st, slot);
    int rc = provider_generate(st, &random, &dk, err);
    if (rc)
        return rc;
    uint8_t header[CRYPTO_MAX_HEADER];
    size_t header_len = header_write(header, &dk);
    slot->keyed_serial = 0; /* a direct key is never used again */
    rc = seal_message(s, st, slot, header, header_len, dk.key, src, n, out, err);
    OPENSSL_cleanse(dk.key, sizeof dk.key);
    return rc;
}

static int encode_bounded(const codec_stage *s, envelope_state *st, envelope_slot *slot,
                          const uint8_t *src, size_t n, codec_buf *out, codec_error *err)
{
    codec_byte_source random = slot_random(st, slot);
    int rc = codec__crypto_bounded_next(st->bounded, &slot->dek, &random, err);
    if (rc)
        return rc;
    const crypto_dek *dek = slot->dek;
    const uint8_t *key = slot->keyed_serial == dek->serial ? NULL : dek->key;
    slot->keyed_serial = 0;
    rc = seal_message(s, st, slot, dek->header, dek->header_len, key, src, n, out, err);
    if (rc == CODEC_OK)
        slot->keyed_serial = dek->serial;
    return rc;
}

static int envelope_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                           codec_error *err)
{
    envelope_state *st = s->state;
    if ((uint64_t)n > ENV_MAX_PLAINTEXT)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                          "%zu bytes is over the AES-GCM limit of 2^36 - 32 per message", n);
    envelope_slot *slot = slot_take(st);
    if (!slot)
        return env_nomem(s, err);
    size_t base = out->len;
    int rc = st->bounded ? encode_bounded(s, st, slot, src, n, out, err)
                         : encode_direct(s, st, slot, src, n, out, err);
    if (rc)
        out->len = base;
    slot_give(st, slot);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Decode
 * ------------------------------------------------------------------------ */

/* The data key of a message, from the cache or the provider. *serial is
 * the cache serial, 0 when the key was not cached. */
static int find_data_key(const codec_stage *s, envelope_state *st, const crypto_dek_ref *ref,
                         uint8_t key[CRYPTO_KEY_SIZE], uint64_t *serial, codec_error *err)
{
    uint64_t now = st->cache ? state_now(st) : 0;
    if (st->cache && codec__crypto_dek_cache_get(st->cache, ref, now, key, serial))
        return CODEC_OK;
    codec_error perr = {0};
    int rc = st->provider.unwrap(st->provider.ctx, ref->key_id, ref->key_id_len, ref->wrapped,
                                 ref->wrapped_len, key, &perr);
    if (rc == CODEC_E_TRANSIENT)
        return CODEC_FAIL(err, s, CODEC_E_TRANSIENT, 0, CODEC_NO_OFFSET,
                          "key provider unavailable: %s", perr.message);
    if (rc == CODEC_E_NOMEM)
        return env_nomem(s, err);
    if (rc) {
        OPENSSL_cleanse(key, CRYPTO_KEY_SIZE);
        return unable_to_decrypt(s, err);
    }
    *serial = st->cache ? codec__crypto_dek_cache_put(st->cache, ref, now, key) : 0;
    return CODEC_OK;
}

static int open_message(const codec_stage *s, envelope_state *st, envelope_slot *slot,
                        const uint8_t *src, const envelope_view *v, codec_buf *out,
                        codec_error *err)
{
    uint8_t key[CRYPTO_KEY_SIZE];
    uint64_t serial = 0;
    int rc = find_data_key(s, st, &v->ref, key, &serial, err);
    if (rc)
        return rc;
    if (codec_buf_reserve(out, v->body_len)) {
        OPENSSL_cleanse(key, sizeof key);
        return env_nomem(s, err);
    }
    bool keyed = serial && slot->keyed_serial == serial;
    slot->keyed_serial = 0;
    crypto_aad aad = {src, v->header_len + CRYPTO_NONCE_SIZE, st->aad, st->aad_len};
    uint8_t none; /* an empty plaintext may leave `out` without memory */
    uint8_t *dst = v->body_len ? out->data + out->len : &none;
    bool ok = codec__crypto_gcm_open(slot->gcm, keyed ? NULL : key, src + v->header_len, &aad,
                                     v->body, v->body_len, v->body + v->body_len, dst);
    OPENSSL_cleanse(key, sizeof key);
    if (!ok)
        return unable_to_decrypt(s, err);
    slot->keyed_serial = serial;
    out->len += v->body_len;
    return CODEC_OK;
}

static int envelope_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                           codec_error *err)
{
    envelope_state *st = s->state;
    envelope_view v;
    int rc = codec__envelope_parse(src, n, &v, NULL, NULL, err);
    if (rc)
        return rc;
    if (!st->provider.allows(st->provider.ctx, v.ref.key_id, v.ref.key_id_len))
        return unable_to_decrypt(s, err);
    envelope_slot *slot = slot_take(st);
    if (!slot)
        return env_nomem(s, err);
    rc = open_message(s, st, slot, src, &v, out, err);
    slot_give(st, slot);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Construction
 * ------------------------------------------------------------------------ */

static void state_free(envelope_state *st)
{
    if (!st)
        return;
    codec__pool_clear(&st->slots);
    codec__crypto_bounded_free(st->bounded);
    codec__crypto_dek_cache_free(st->cache);
    free(st->aad);
    if (st->provider.release)
        st->provider.release(st->provider.ctx);
    free(st);
}

static void envelope_destroy(codec_stage *s)
{
    state_free(s->state);
}

static const codec_stage_ops envelope_ops = {
    .encode = envelope_encode, .decode = envelope_decode, .destroy = envelope_destroy};

static int bad_option(codec_error *err, const char *what)
{
    return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "envelope",
                           CODEC_NO_OFFSET, "%s", what);
}

static int check_options(const codec_envelope_options *o, codec_error *err)
{
    const codec_key_provider *p = &o->provider;
    if (!p->generate || !p->allows || !p->unwrap)
        return bad_option(err, "the key provider needs generate, allows and unwrap");
    if (o->aad_len && !o->aad)
        return bad_option(err, "aad_len is set but aad is NULL");
    if (o->strategy != CODEC_ENVELOPE_DIRECT && o->strategy != CODEC_ENVELOPE_BOUNDED)
        return bad_option(err, "unknown data-key strategy");
    if (o->strategy == CODEC_ENVELOPE_DIRECT && (o->max_messages || o->max_age_ms))
        return bad_option(err, "max_messages and max_age_ms need the bounded strategy");
    if (o->max_messages > CODEC_ENVELOPE_LIMIT_MAX_MESSAGES)
        return bad_option(err, "max_messages must be from 1 to 2^24");
    if (o->max_age_ms > UINT64_MAX / NS_PER_MS || o->cache_max_age_ms > UINT64_MAX / NS_PER_MS)
        return bad_option(err, "an age is too large");
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
        if (o->reserved[i])
            return bad_option(err, "reserved option fields must be zero");
    return CODEC_OK;
}

static int state_parts(envelope_state *st, const codec_envelope_options *o, codec_error *err)
{
    if (o->aad_len) {
        st->aad = malloc(o->aad_len);
        if (!st->aad)
            return codec__nomem(err, "envelope");
        memcpy(st->aad, o->aad, o->aad_len);
        st->aad_len = o->aad_len;
    }
    if (o->strategy == CODEC_ENVELOPE_BOUNDED) {
        crypto_bounded_config cfg = {
            .max_messages = o->max_messages ? o->max_messages
                                            : CODEC_ENVELOPE_DEFAULT_MAX_MESSAGES,
            .max_age_ns = (o->max_age_ms ? o->max_age_ms : CODEC_ENVELOPE_DEFAULT_MAX_AGE_MS) *
                          NS_PER_MS,
            .clock_ns = o->test.clock_ns,
            .clock_ctx = o->test.clock_ctx,
            .make = make_bounded_dek,
            .make_ctx = st};
        st->bounded = codec__crypto_bounded_new(&cfg);
        if (!st->bounded)
            return codec__nomem(err, "envelope");
    }
    if (!o->no_cache) {
        size_t entries = o->cache_entries ? o->cache_entries
                                          : CODEC_ENVELOPE_DEFAULT_CACHE_ENTRIES;
        uint64_t age = o->cache_max_age_ms ? o->cache_max_age_ms
                                           : CODEC_ENVELOPE_DEFAULT_CACHE_AGE_MS;
        st->cache = codec__crypto_dek_cache_new(entries, age * NS_PER_MS);
        if (!st->cache)
            return codec__nomem(err, "envelope");
    }
    return CODEC_OK;
}

int codec__crypto_envelope_fill(codec_stage *s, const codec_envelope_options *o, codec_error *err)
{
    int rc = codec__dynlib_open(&codec__libcrypto, "envelope", err);
    if (!rc)
        rc = check_options(o, err);
    envelope_state *st = rc ? NULL : calloc(1, sizeof *st);
    if (!st) {
        if (o->provider.release)
            o->provider.release(o->provider.ctx);
        return rc ? rc : codec__nomem(err, "envelope");
    }
    st->provider = o->provider;
    st->test = o->test;
    codec__crypto_pool_init(&st->slots, slot_make, slot_destroy, NULL);
    rc = state_parts(st, o, err);
    if (rc) {
        state_free(st);
        return rc;
    }
    s->ops = &envelope_ops;
    s->state = st;
    return CODEC_OK;
}

/* Without CODEC_STATIC_LINKING_ONLY, codec/envelope.h shows the hooks as
 * four pointers; the two views must agree. */
_Static_assert(sizeof(codec_envelope_test_hooks) == 4 * sizeof(void *),
               "codec_envelope_test_hooks: update the private view in envelope.h");

codec *codec_envelope(const codec_envelope_options *o, codec_error *err)
{
    if (!o) {
        codec_error_set(err, CODEC_E_USAGE, 0, "envelope", CODEC_NO_OFFSET,
                        "codec_envelope needs options with a key provider");
        return NULL;
    }
    codec_stage s;
    memset(&s, 0, sizeof s);
    s.kind = CODEC_KIND_CRYPTO;
    snprintf(s.name, sizeof s.name, "envelope");
    snprintf(s.spec, sizeof s.spec, "envelope%s",
             o->strategy == CODEC_ENVELOPE_BOUNDED ? ":strategy=bounded" : "");
    if (codec__crypto_envelope_fill(&s, o, err))
        return NULL;
    return codec__from_stage(&s, err);
}
