/* test_fork_safety.c — fork() while other threads encode and decode
 * envelopes (issue 21, finding 3). Four threads hammer a bounded-strategy
 * codec (a new data key every few messages: the strategy lock, the context
 * pools, the random source and the key cache are all busy) and a direct one;
 * the main thread forks 300 times and every child must seal and open one
 * message with the same codecs.
 *
 * A child whose first encode waits on a lock that a parent thread held at
 * fork() never returns: each child arms alarm(CHILD_SECONDS), so a hang ends
 * as SIGALRM and is counted. A healthy child needs milliseconds; the alarm
 * only bounds the test. */
#include "check.h"
#include "codec/codec.h"
#include "sanitizers.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>

#define FORKS 300
#define THREADS 4
#ifndef CHILD_SECONDS
#define CHILD_SECONDS 20
#endif
#define KEK "5ec2e7a1b0c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d"

static atomic_bool stop;
static atomic_long encoded;

static codec *envelope(codec_envelope_strategy strategy, uint32_t max_messages)
{
    codec_error err;
    const char ring[] = "k " KEK "\n";
    codec_envelope_options o = {0};
    o.provider = codec_keyring_provider(codec_keyring_parse(ring, sizeof ring - 1, &err));
    o.strategy = strategy;
    o.max_messages = max_messages;
    o.cache_entries = 4; /* small: decodes keep replacing entries under its locks */
    codec *c = codec_envelope(&o, &err);
    if (!c)
        fprintf(stderr, "codec_envelope: %s\n", err.message);
    return c;
}

/* Seals and opens one message; 0 when it came back intact. */
static int round_trip(const codec *c, codec_buf *out, codec_arena *arena, uint32_t payload)
{
    codec_bytes in = {(const uint8_t *)&payload, sizeof payload}, back;
    codec_error err;
    codec_buf_clear(out);
    codec_arena_reset(arena);
    if (codec_encode(c, &in, out, &err) ||
        codec_decode(c, out->data, out->len, &back, arena, &err))
        return 1;
    return back.len != sizeof payload || memcmp(back.data, &payload, sizeof payload) != 0;
}

static void *worker(void *arg)
{
    codec **cs = arg;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (uint32_t i = 0; !atomic_load(&stop); i++) {
        if (round_trip(cs[i % 2], &out, &arena, i))
            fprintf(stderr, "worker: round trip %u failed\n", i);
        atomic_fetch_add(&encoded, 1);
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
    return NULL;
}

/* The child: seal and open with both codecs, then exit without running the
 * parent's atexit handlers. */
static void child(codec **cs)
{
    alarm(CHILD_SECONDS);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int rc = round_trip(cs[0], &out, &arena, 7) | round_trip(cs[1], &out, &arena, 8);
    _exit(rc);
}

int main(void)
{
    if (TEST_UNDER_ASAN) {
        /* GCC 12's libasan takes no lock of its allocator around fork(): a
         * child can hang inside malloc whatever codec does (seen: a child
         * waiting in SizeClassAllocator64::GetFromAllocator, called from
         * make_dek's malloc). ThreadSanitizer's runtime does lock around
         * fork(), and `make tsan` runs this test. */
        printf("fork_safety: skipped under AddressSanitizer (its allocator is not "
               "fork-safe)\n");
        return TEST_SKIPPED;
    }
    codec *cs[2] = {envelope(CODEC_ENVELOPE_BOUNDED, 3), envelope(CODEC_ENVELOPE_DIRECT, 0)};
    CHECK(cs[0] && cs[1]);
    if (!cs[0] || !cs[1])
        return check_done("fork_safety");
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        CHECK_INT(pthread_create(&th[t], NULL, worker, cs), 0);
    int hung = 0, failed = 0;
    for (int i = 0; i < FORKS; i++) {
        /* let the workers get going again between forks */
        long before = atomic_load(&encoded);
        while (atomic_load(&encoded) < before + THREADS)
            sched_yield();
        pid_t pid = fork();
        if (pid == 0)
            child(cs);
        CHECK(pid > 0);
        int status = 0;
        waitpid(pid, &status, 0);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
            hung++;
        else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed++;
    }
    atomic_store(&stop, true);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    printf("fork_safety: %d forks under %d threads (%ld messages): %d children hung, "
           "%d failed\n",
           FORKS, THREADS, atomic_load(&encoded), hung, failed);
    CHECK_INT(hung, 0);
    CHECK_INT(failed, 0);
    codec_free(cs[0]);
    codec_free(cs[1]);
    return check_done("fork_safety");
}
