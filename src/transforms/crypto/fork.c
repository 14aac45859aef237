/* fork.c — what keeps fork() safe while other threads encode or decode.
 *
 * A child process has only the thread that called fork(); a lock that
 * another thread held at that moment stays locked in the child forever, and
 * the child's first envelope encode would wait on it. So every lock of the
 * crypto layer is registered here, and a pthread_atfork handler takes all of
 * them before fork() and releases them after it, in the parent and in the
 * child: the child starts with every lock free and every structure they
 * guard consistent.
 *
 * OpenSSL's own locks (its random generators', its cipher fetch cache) are
 * out of our reach. codec enters OpenSSL where it may take one of them only
 * between codec__openssl_enter() and codec__openssl_leave(), whose lock the
 * same handler takes, so no codec thread is inside such a call at fork().
 * Other threads of the program that use OpenSSL are the application's to
 * quiesce (docs/threat-model.md, "fork()").
 *
 * The child also gets a new fork generation: state drawn from random bytes
 * in the parent (buffered bytes, a bounded data key) is not reused there. */
#include "crypto_internal.h"

#include <limits.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static codec__fork_locks registry = {&registry, &registry, NULL, 0};
static pthread_mutex_t openssl_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint fork_generation;
static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

static void before_fork(void)
{
    pthread_mutex_lock(&registry_lock);
    pthread_mutex_lock(&openssl_lock);
    for (codec__fork_locks *l = registry.next; l != &registry; l = l->next)
        for (size_t i = 0; i < l->count; i++)
            pthread_mutex_lock(&l->locks[i]);
}

static void after_fork(void)
{
    for (codec__fork_locks *l = registry.prev; l != &registry; l = l->prev)
        for (size_t i = l->count; i-- > 0;)
            pthread_mutex_unlock(&l->locks[i]);
    pthread_mutex_unlock(&openssl_lock);
    pthread_mutex_unlock(&registry_lock);
}

static void after_fork_child(void)
{
    atomic_fetch_add(&fork_generation, 1);
    after_fork();
}

static void register_handlers(void)
{
    pthread_atfork(before_fork, after_fork, after_fork_child);
}

void codec__fork_locks_add(codec__fork_locks *l, pthread_mutex_t *locks, size_t count)
{
    pthread_once(&handlers_once, register_handlers);
    l->locks = locks;
    l->count = count;
    pthread_mutex_lock(&registry_lock);
    l->prev = registry.prev;
    l->next = &registry;
    registry.prev->next = l;
    registry.prev = l;
    pthread_mutex_unlock(&registry_lock);
}

void codec__fork_locks_remove(codec__fork_locks *l)
{
    pthread_mutex_lock(&registry_lock);
    l->prev->next = l->next;
    l->next->prev = l->prev;
    pthread_mutex_unlock(&registry_lock);
}

void codec__openssl_enter(void)
{
    pthread_once(&handlers_once, register_handlers);
    pthread_mutex_lock(&openssl_lock);
}

void codec__openssl_leave(void)
{
    pthread_mutex_unlock(&openssl_lock);
}

unsigned codec__crypto_fork_generation(void)
{
    pthread_once(&handlers_once, register_handlers);
    return atomic_load_explicit(&fork_generation, memory_order_relaxed);
}

int codec__random_bytes(uint8_t *dst, size_t n)
{
    if (n > INT_MAX || codec__dynlib_open(&codec__libcrypto, "envelope", NULL))
        return -1;
    codec__openssl_enter();
    int ok = RAND_priv_bytes(dst, (int)n);
    codec__openssl_leave();
    return ok == 1 ? 0 : -1;
}
