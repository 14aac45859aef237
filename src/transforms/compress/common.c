/* common.c — the context pool and the output helpers shared by the
 * compression stages (see compress_internal.h). */
#include "compress_internal.h"

#include "codec/compress.h"
#include "core/buf_internal.h"
#include "core/error_internal.h"

#include <pthread.h>
#include <stdio.h>

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
}

void *codec__pool_get(codec_pool *p)
{
    void *mine = unkeep(p);
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
    if (keep(p, ctx))
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

int codec__compress_nomem(const codec_stage *s, codec_error *err)
{
    return codec__nomem(err, s->name);
}

int codec__out_over(const codec_stage *s, codec_error *err)
{
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                      "decoded size exceeds the limit of %zu bytes (raise max=)", s->max_output);
}

/* The failure half of codec__check_declared (compress_internal.h). */
int codec__declared_fail(const codec_stage *s, uint64_t declared, size_t n, uint64_t ratio,
                         uint64_t offset, codec_error *err)
{
    if (declared > SIZE_MAX || (s->max_output && declared > s->max_output))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, offset,
                          "declared size %llu exceeds the limit of %zu bytes (raise max=)",
                          (unsigned long long)declared, s->max_output);
    if (declared / ratio > n)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, offset,
                          "declared size %llu is impossible for %zu compressed bytes",
                          (unsigned long long)declared, n);
    return CODEC_OK;
}

codec *codec__make_leveled(const char *name, int level, const char *extra, codec_error *err)
{
    char args[320];
    int w;
    if (level == CODEC_LEVEL_DEFAULT)
        w = snprintf(args, sizeof args, "%s", extra ? extra : "");
    else
        w = snprintf(args, sizeof args, "%d%s%s", level, extra ? "," : "", extra ? extra : "");
    if (w < 0 || (size_t)w >= sizeof args) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, name, CODEC_NO_OFFSET,
                        "arguments too long");
        return NULL;
    }
    return codec__make(name, args, NULL, err);
}

int codec__redisson_length(const codec_stage *s, const uint8_t *src, size_t n, uint32_t *len,
                           codec_error *err)
{
    if (n < 4)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "missing the 4-byte length prefix");
    *len = codec_load_be32(src);
    if (*len > INT32_MAX)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0,
                          "negative length prefix");
    return CODEC_OK;
}
