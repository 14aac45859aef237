/* pool.c — a mutex-guarded free list of reusable objects. A codec handle is
 * shared by threads but an OpenSSL cipher context is not, and making one per
 * message costs more than sealing a small message, so each call borrows an
 * idle one and gives it back. The pool grows to the peak concurrency. Its
 * lock is registered with fork.c, so fork() never leaves it held. */
#include "crypto_internal.h"

void codec__crypto_pool_init(crypto_pool *p)
{
    pthread_mutex_init(&p->lock, NULL);
    codec__fork_locks_add(&p->fork, &p->lock, 1);
    p->free = NULL;
}

void *codec__crypto_pool_take(crypto_pool *p)
{
    pthread_mutex_lock(&p->lock);
    crypto_pool_link *item = p->free;
    if (item)
        p->free = item->next;
    pthread_mutex_unlock(&p->lock);
    return item;
}

void codec__crypto_pool_give(crypto_pool *p, void *item)
{
    crypto_pool_link *link = item;
    pthread_mutex_lock(&p->lock);
    link->next = p->free;
    p->free = link;
    pthread_mutex_unlock(&p->lock);
}

void codec__crypto_pool_destroy(crypto_pool *p, void (*destroy)(void *item))
{
    crypto_pool_link *item = p->free;
    while (item) {
        crypto_pool_link *next = item->next;
        destroy(item);
        item = next;
    }
    p->free = NULL;
    codec__fork_locks_remove(&p->fork);
    pthread_mutex_destroy(&p->lock);
}
