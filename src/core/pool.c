/* pool.c — the context pool of pool_internal.h. */
#include "pool_internal.h"

#include <pthread.h>
#include <stddef.h>

/* Slot i of a pool. */
static _Atomic(void *) *pool_slot(codec_pool *p, unsigned i)
{
    return &p->slots[(i + 1) * CODEC_POOL_STRIDE];
}

/* This thread's first slot: threads are numbered as they first borrow, so
 * up to CODEC_POOL_SLOTS concurrent threads each have a home slot.
 * Initial-exec TLS: one load, also in the shared library. */
static _Atomic unsigned pool_threads;
static __thread unsigned pool_home_plus1 __attribute__((tls_model("initial-exec")));

static unsigned pool_home(void)
{
    unsigned h = pool_home_plus1;
    if (h == 0)
        pool_home_plus1 = h =
            atomic_fetch_add_explicit(&pool_threads, 1, memory_order_relaxed) % CODEC_POOL_SLOTS + 1;
    return h - 1;
}

/* Contexts this thread gave back, up to KEEP_MAX (of as many pools: an
 * encoder's and a decoder's, of a codec or two), each with its pool's id
 * and drop function (static functions, so they outlive any pool). A pool's
 * id is never reused, so a kept context only ever goes back to the pool it
 * came from. No atomic operation on this path. */
#define KEEP_MAX 4

typedef struct pool_keep {
    uint64_t id;
    void *ctx;    /* NULL: a free entry */
    void (*drop)(void *ctx);
} pool_keep;

static __thread pool_keep kept[KEEP_MAX] __attribute__((tls_model("initial-exec")));
static __thread bool kept_armed __attribute__((tls_model("initial-exec")));
static _Atomic uint64_t pool_ids;
static pthread_key_t keep_key;
static pthread_once_t keep_once = PTHREAD_ONCE_INIT;
static bool keep_key_ok;

/* At thread exit: drop what the thread keeps. */
static void keep_exit(void *unused)
{
    (void)unused;
    for (int i = 0; i < KEEP_MAX; i++)
        if (kept[i].ctx) {
            kept[i].drop(kept[i].ctx);
            kept[i].ctx = NULL;
        }
}

static void keep_key_make(void)
{
    keep_key_ok = pthread_key_create(&keep_key, keep_exit) == 0;
}

/* When the library is unloaded (dlclose), threads that outlive it must not
 * run keep_exit: the key goes first (their kept contexts are then left). */
__attribute__((destructor)) static void keep_key_unload(void)
{
    if (keep_key_ok)
        pthread_key_delete(keep_key);
    keep_key_ok = false;
}

/* Keeps ctx in this thread; false when every entry is taken or the thread
 * cannot keep anything (its exit could not drop it). */
static bool keep(const codec_pool *p, void *ctx)
{
    for (int i = 0; i < KEEP_MAX; i++) {
        if (kept[i].ctx)
            continue;
        if (!kept_armed) {
            pthread_once(&keep_once, keep_key_make);
            /* The destructor runs only for a non-NULL value. */
            if (!keep_key_ok || pthread_setspecific(keep_key, kept) != 0)
                return false;
            kept_armed = true;
        }
        kept[i] = (pool_keep){p->id, ctx, p->drop};
        return true;
    }
    return false;
}

/* Takes back a context this thread keeps for p, or NULL. */
static void *unkeep(const codec_pool *p)
{
    for (int i = 0; i < KEEP_MAX; i++)
        if (kept[i].ctx && kept[i].id == p->id) {
            void *ctx = kept[i].ctx;
            kept[i].ctx = NULL;
            return ctx;
        }
    return NULL;
}

void codec__pool_init(codec_pool *p, void *(*make)(const void *), void (*drop)(void *),
                      const void *cfg)
{
    for (size_t i = 0; i < sizeof p->slots / sizeof p->slots[0]; i++)
        atomic_init(&p->slots[i], NULL);
    p->make = make;
    p->drop = drop;
    p->cfg = cfg;
    p->id = atomic_fetch_add_explicit(&pool_ids, 1, memory_order_relaxed) + 1;
    p->keep_in_thread = true;
}

void *codec__pool_get(codec_pool *p)
{
    void *mine = p->keep_in_thread ? unkeep(p) : NULL;
    if (mine)
        return mine;
    unsigned home = pool_home();
    for (unsigned k = 0; k < CODEC_POOL_SLOTS; k++) {
        _Atomic(void *) *slot = pool_slot(p, (home + k) % CODEC_POOL_SLOTS);
        /* A plain load first, so empty slots cost no exclusive cache line. */
        if (atomic_load_explicit(slot, memory_order_relaxed)) {
            void *ctx = atomic_exchange_explicit(slot, NULL, memory_order_acquire);
            if (ctx)
                return ctx;
        }
    }
    return p->make(p->cfg);
}

void codec__pool_put(codec_pool *p, void *ctx)
{
    if (p->keep_in_thread && keep(p, ctx))
        return;
    unsigned home = pool_home();
    for (unsigned k = 0; k < CODEC_POOL_SLOTS; k++) {
        void *empty = NULL;
        if (atomic_compare_exchange_strong_explicit(pool_slot(p, (home + k) % CODEC_POOL_SLOTS),
                                                    &empty, ctx, memory_order_release,
                                                    memory_order_relaxed))
            return;
    }
    p->drop(ctx);
}

void codec__pool_clear(codec_pool *p)
{
    for (void *mine; (mine = unkeep(p));)
        p->drop(mine);
    for (unsigned i = 0; i < CODEC_POOL_SLOTS; i++) {
        void *ctx = atomic_exchange_explicit(pool_slot(p, i), NULL, memory_order_acquire);
        if (ctx)
            p->drop(ctx);
    }
}
