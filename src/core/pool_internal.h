/* pool_internal.h — a lock-free pool of contexts that a shared, immutable
 * codec handle lends to the threads calling it: zstd, LZ4F, libdeflate and
 * zlib contexts (compress/), the envelope's GCM slots and the key ring's
 * KEK contexts (crypto/). Each call borrows a context and gives it back, so
 * a steady-state call creates none.
 *
 * A thread keeps the contexts it gave back of up to four pools itself (no
 * atomic operation: two lock-prefixed exchanges cost about 12 ns, more than
 * the rest of an `lz4` decode's fixed path); the slots behind take the
 * others, with two atomic exchanges on a cache line no other thread uses.
 * A pool whose contexts hold keys turns the thread's keeping off
 * (keep_in_thread): a kept context outlives its pool until the thread
 * exits, and key material must go when the codec does. */
#ifndef CODEC_POOL_INTERNAL_H
#define CODEC_POOL_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Contexts kept for reuse; more borrowers than this at once get fresh
 * contexts that are dropped on return. */
#define CODEC_POOL_SLOTS 16
/* Slot i lives at slots[(i + 1) * CODEC_POOL_STRIDE]: 64 bytes apart, with
 * 64 bytes before the first and after the last, so no two slots, and no
 * slot and a neighbouring field, share a cache line, whatever the pool's
 * alignment. Each thread starts at a slot of its own (pool.c), so
 * threads calling one stage at once touch different lines and the
 * context each puts back is the one it takes next. */
#define CODEC_POOL_STRIDE (64 / sizeof(void *))

typedef struct codec_pool {
    _Atomic(void *) slots[(CODEC_POOL_SLOTS + 2) * CODEC_POOL_STRIDE];
    void *(*make)(const void *cfg);   /* a ready context, or NULL (out of memory) */
    void (*drop)(void *ctx);
    const void *cfg;                  /* passed to make; owned by the stage */
    uint64_t id;                      /* unique per pool, never reused (pool.c) */
    bool keep_in_thread;              /* true unless the contexts hold keys */
} codec_pool;

void codec__pool_init(codec_pool *p, void *(*make)(const void *), void (*drop)(void *),
                      const void *cfg);
/* A context from the pool or a new one; NULL only when making one fails. */
void *codec__pool_get(codec_pool *p);
void codec__pool_put(codec_pool *p, void *ctx);
/* Drops every pooled context (no borrower may be outstanding), including
 * those the calling thread keeps. A context another thread keeps for a
 * pool that is gone stays until that thread exits (at most four per
 * thread), and its entry is then unused. */
void codec__pool_clear(codec_pool *p);

#endif /* CODEC_POOL_INTERNAL_H */
