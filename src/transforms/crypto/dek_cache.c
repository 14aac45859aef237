/* dek_cache.c — decoded data keys by (key id, wrapped bytes), so that the
 * many messages sealed under one bounded-strategy key cost one unwrap.
 *
 * A two-way set-associative table: a fixed number of entries (no growth, so
 * hostile input cannot make it large), each valid for max_age_ns after it
 * was stored. Sets are guarded by striped locks. The full identity is
 * compared, so a hash collision only costs an unwrap. The hash is seeded
 * from random bytes so that chosen inputs cannot aim at one set. */
#include "crypto_internal.h"

#include <stdlib.h>
#include <string.h>

#define CACHE_WAYS 2
#define CACHE_LOCKS 64
#define CACHE_MAX_ENTRIES ((size_t)1 << 20)

typedef struct cache_entry {
    uint64_t serial;        /* 0 = empty */
    uint64_t born_ns;
    uint8_t *ident;         /* key id then wrapped bytes, heap */
    size_t ident_cap;
    size_t key_id_len;
    size_t wrapped_len;
    uint8_t key[CRYPTO_KEY_SIZE];
} cache_entry;

struct crypto_dek_cache {
    size_t set_mask;
    size_t count;           /* entries: (set_mask + 1) * CACHE_WAYS */
    uint64_t max_age_ns;
    uint64_t seed;
    pthread_mutex_t locks[CACHE_LOCKS];   /* registered with fork.c */
    codec__fork_locks fork;
    cache_entry entries[];
};

crypto_dek_cache *codec__crypto_dek_cache_new(size_t entries, uint64_t max_age_ns)
{
    size_t sets = 1;
    while (sets * CACHE_WAYS < entries && sets * CACHE_WAYS < CACHE_MAX_ENTRIES)
        sets <<= 1;
    crypto_dek_cache *c = calloc(1, sizeof *c + sets * CACHE_WAYS * sizeof c->entries[0]);
    if (!c)
        return NULL;
    if (codec__random_bytes((uint8_t *)&c->seed, sizeof c->seed) != 0) {
        free(c);
        return NULL;
    }
    c->set_mask = sets - 1;
    c->count = sets * CACHE_WAYS;
    c->max_age_ns = max_age_ns;
    for (size_t i = 0; i < CACHE_LOCKS; i++)
        pthread_mutex_init(&c->locks[i], NULL);
    codec__fork_locks_add(&c->fork, c->locks, CACHE_LOCKS);
    return c;
}

static void entry_clear(cache_entry *e)
{
    OPENSSL_cleanse(e->key, sizeof e->key);
    e->serial = 0;
}

void codec__crypto_dek_cache_free(crypto_dek_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++) {
        entry_clear(&c->entries[i]);
        free(c->entries[i].ident);
    }
    codec__fork_locks_remove(&c->fork);
    for (size_t i = 0; i < CACHE_LOCKS; i++)
        pthread_mutex_destroy(&c->locks[i]);
    free(c);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9E3779B97F4A7C15u;
    return h ^ (h >> 29);
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    h = mix(h, n);
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = mix(h, v);
    }
    uint64_t tail = 0;
    memcpy(&tail, p, n);
    return mix(h, tail);
}

static size_t set_of(const crypto_dek_cache *c, const crypto_dek_ref *ref)
{
    uint64_t h = hash_bytes(c->seed, ref->key_id, ref->key_id_len);
    h = hash_bytes(h, ref->wrapped, ref->wrapped_len);
    return (size_t)(h >> 7) & c->set_mask;
}

static bool entry_matches(const cache_entry *e, const crypto_dek_ref *ref)
{
    return e->serial && e->key_id_len == ref->key_id_len && e->wrapped_len == ref->wrapped_len &&
           memcmp(e->ident, ref->key_id, ref->key_id_len) == 0 &&
           memcmp(e->ident + ref->key_id_len, ref->wrapped, ref->wrapped_len) == 0;
}

static bool entry_expired(const crypto_dek_cache *c, const cache_entry *e, uint64_t now)
{
    return now >= e->born_ns && now - e->born_ns >= c->max_age_ns;
}

bool codec__crypto_dek_cache_get(crypto_dek_cache *c, const crypto_dek_ref *ref, uint64_t now_ns,
                                 uint8_t key[CRYPTO_KEY_SIZE], uint64_t *serial)
{
    size_t set = set_of(c, ref);
    cache_entry *way = &c->entries[set * CACHE_WAYS];
    bool hit = false;
    pthread_mutex_lock(&c->locks[set % CACHE_LOCKS]);
    for (size_t i = 0; i < CACHE_WAYS && !hit; i++) {
        if (!entry_matches(&way[i], ref))
            continue;
        if (entry_expired(c, &way[i], now_ns)) {
            entry_clear(&way[i]);
            break;
        }
        memcpy(key, way[i].key, CRYPTO_KEY_SIZE);
        *serial = way[i].serial;
        hit = true;
    }
    pthread_mutex_unlock(&c->locks[set % CACHE_LOCKS]);
    return hit;
}

/* The way to overwrite: an empty or expired one, else the older one. */
static cache_entry *victim(const crypto_dek_cache *c, cache_entry *way, uint64_t now)
{
    cache_entry *oldest = &way[0];
    for (size_t i = 0; i < CACHE_WAYS; i++) {
        if (!way[i].serial || entry_expired(c, &way[i], now))
            return &way[i];
        if (way[i].born_ns < oldest->born_ns)
            oldest = &way[i];
    }
    return oldest;
}

uint64_t codec__crypto_dek_cache_put(crypto_dek_cache *c, const crypto_dek_ref *ref,
                                     uint64_t now_ns, const uint8_t key[CRYPTO_KEY_SIZE])
{
    size_t set = set_of(c, ref);
    size_t need = ref->key_id_len + ref->wrapped_len;
    uint64_t serial = 0;
    pthread_mutex_lock(&c->locks[set % CACHE_LOCKS]);
    cache_entry *e = victim(c, &c->entries[set * CACHE_WAYS], now_ns);
    entry_clear(e);
    if (e->ident_cap < need) {
        uint8_t *p = realloc(e->ident, need);
        if (p) {
            e->ident = p;
            e->ident_cap = need;
        }
    }
    if (e->ident_cap >= need) {
        memcpy(e->ident, ref->key_id, ref->key_id_len);
        memcpy(e->ident + ref->key_id_len, ref->wrapped, ref->wrapped_len);
        e->key_id_len = ref->key_id_len;
        e->wrapped_len = ref->wrapped_len;
        e->born_ns = now_ns;
        memcpy(e->key, key, CRYPTO_KEY_SIZE);
        e->serial = serial = codec__crypto_next_serial();
    }
    pthread_mutex_unlock(&c->locks[set % CACHE_LOCKS]);
    return serial;
}
