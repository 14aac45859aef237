/* strategy.c — the bounded data-key strategy: every thread seals with the
 * current data key until it has sealed max_messages messages or is
 * max_age_ns old, then a new key replaces it.
 *
 * The count is taken under the lock before a message is sealed, so a key is
 * never used late. A new key is made outside the lock (a KMS call may take
 * milliseconds); when two threads roll at once, the one that comes second
 * uses the first one's key if it is still fresh and discards its own, or
 * installs its own, retiring the other a little early. Either way no key
 * exceeds its bounds. */
#include "crypto_internal.h"
#include "core/error_internal.h"

#include <stdlib.h>

struct crypto_bounded {
    pthread_mutex_t lock;   /* registered with fork.c */
    codec__fork_locks fork;
    crypto_dek *current;   /* NULL until the first message */
    crypto_bounded_config cfg;
};

crypto_bounded *codec__crypto_bounded_new(const crypto_bounded_config *cfg)
{
    crypto_bounded *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    pthread_mutex_init(&b->lock, NULL);
    codec__fork_locks_add(&b->fork, &b->lock, 1);
    b->cfg = *cfg;
    return b;
}

void codec__crypto_dek_release(crypto_dek *dek)
{
    if (dek && atomic_fetch_sub(&dek->refs, 1) == 1) {
        OPENSSL_cleanse(dek, sizeof *dek);
        free(dek);
    }
}

void codec__crypto_bounded_free(crypto_bounded *b)
{
    if (!b)
        return;
    codec__crypto_dek_release(b->current);
    codec__fork_locks_remove(&b->fork);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static uint64_t bounded_now(const crypto_bounded *b)
{
    return b->cfg.clock_ns ? b->cfg.clock_ns(b->cfg.clock_ctx) : codec__crypto_monotonic_ns();
}

/* May `dek` seal one more message at `now`? (Caller holds the lock.) */
static bool dek_usable(const crypto_bounded *b, const crypto_dek *dek, uint64_t now,
                       unsigned generation)
{
    return dek && dek->used < b->cfg.max_messages && dek->fork_generation == generation &&
           (now < dek->born_ns || now - dek->born_ns < b->cfg.max_age_ns);
}

/* Counts one message against `dek` and moves the caller's reference to it.
 * Returns the key the caller held before, to release outside the lock. */
static crypto_dek *take_use(crypto_dek *dek, crypto_dek **held)
{
    dek->used++;
    crypto_dek *old = *held;
    if (old == dek)
        return NULL;
    atomic_fetch_add(&dek->refs, 1);
    *held = dek;
    return old;
}

static int make_dek(crypto_bounded *b, const codec_byte_source *random, uint64_t now,
                    crypto_dek **out, codec_error *err)
{
    crypto_dek *dek = malloc(sizeof *dek);
    if (!dek)
        return codec__nomem(err, "envelope");
    atomic_init(&dek->refs, 1);
    dek->used = 0;
    dek->born_ns = now;
    dek->fork_generation = codec__crypto_fork_generation();
    int rc = b->cfg.make(b->cfg.make_ctx, random, dek, err);
    if (rc) {
        codec__crypto_dek_release(dek);
        return rc;
    }
    dek->serial = codec__crypto_next_serial();
    *out = dek;
    return CODEC_OK;
}

int codec__crypto_bounded_next(crypto_bounded *b, crypto_dek **held,
                               const codec_byte_source *random, codec_error *err)
{
    unsigned generation = codec__crypto_fork_generation();
    uint64_t now = bounded_now(b);
    crypto_dek *old = NULL;

    pthread_mutex_lock(&b->lock);
    if (dek_usable(b, b->current, now, generation)) {
        old = take_use(b->current, held);
        pthread_mutex_unlock(&b->lock);
        codec__crypto_dek_release(old);
        return CODEC_OK;
    }
    pthread_mutex_unlock(&b->lock);

    crypto_dek *fresh = NULL;
    int rc = make_dek(b, random, now, &fresh, err);
    if (rc)
        return rc;

    crypto_dek *retired = NULL;
    pthread_mutex_lock(&b->lock);
    if (dek_usable(b, b->current, now, generation)) {
        retired = fresh; /* another thread rolled meanwhile: use its key */
    } else {
        retired = b->current;
        b->current = fresh;
    }
    old = take_use(b->current, held);
    pthread_mutex_unlock(&b->lock);
    codec__crypto_dek_release(retired);
    codec__crypto_dek_release(old);
    return CODEC_OK;
}
