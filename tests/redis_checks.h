/* redis_checks.h — what the Redis adapter's tests share once check.h and
 * codec/redis.h are included: connecting a handle (the test fails when it
 * cannot), and the near-cache checks both near-cache tests run (one
 * server, and a cluster): a get through a bytes pipeline as text, the
 * counters, and 8 threads reading and writing the same keys with a version
 * number in every value, after which no cache may hold a version older
 * than the server's once the invalidations are in. */
#ifndef CODEC_TEST_REDIS_CHECKS_H
#define CODEC_TEST_REDIS_CHECKS_H

#include <pthread.h>
#include <stdatomic.h>

/* A handle to `url` (CHECKed; NULL when it failed). */
static inline codec_redis *redis_test_connect(const char *url, uint32_t timeout_ms,
                                              uint32_t wait_replicas)
{
    codec_redis_options o = {0};
    o.url = url;
    o.command_timeout_ms = timeout_ms;
    o.wait_replicas = wait_replicas;
    codec_redis *r = NULL;
    codec_error err = {0};
    int rc = codec_redis_connect(&o, &r, &err);
    if (rc)
        fprintf(stderr, "connect: %s\n", err.message);
    CHECK_INT(rc, 0);
    return r;
}

/* The bytes pipeline of the near-cache tests: crc32c checks what it reads
 * (the other tests that include this header do not use it). */
static codec *plain __attribute__((unused));

/* A get through `plain`; the text read, or "" on failure (*rc_out says which). */
static inline const char *near_get(codec_redis *r, const char *key, codec_arena *arena,
                                   int *rc_out)
{
    codec_bytes out;
    codec_error err;
    int rc = codec_redis_get(r, key, strlen(key), plain, &out, arena, &err);
    if (rc_out)
        *rc_out = rc;
    if (rc)
        return "";
    char *s = codec_arena_alloc(arena, out.len + 1, 1);
    memcpy(s, out.data, out.len);
    s[out.len] = '\0';
    return s;
}

static inline codec_redis_near_stats near_stats(const codec_redis *r)
{
    codec_redis_near_stats s;
    codec_redis_near_cache_stats(r, &s);
    return s;
}

/* A raw GET reply (hiredis's), decoded through `plain`, as text into out:
 * "" when it is not a value that decodes. Frees the reply. */
static inline void near_reply_text(redisReply *rr, char *out, size_t cap)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes v;
    codec_error err;
    out[0] = '\0';
    if (rr && rr->type == REDIS_REPLY_STRING &&
        codec_decode(plain, (const uint8_t *)rr->str, rr->len, &v, &arena, &err) == 0)
        snprintf(out, cap, "%.*s", (int)v.len, (const char *)v.data);
    codec_arena_free(&arena);
    freeReplyObject(rr);
}

/* ---------------------------------------------------------------------------
 * 8 threads, 16 keys "ver:0".."ver:15", versions
 * ------------------------------------------------------------------------ */

#define NEAR_THREADS 8
#define NEAR_KEYS 16

static atomic_ullong near_next_version;

typedef struct near_worker {
    codec_redis *r;
    uint64_t seed;
    int ops;
    size_t reads, writes, bad, hits;
} near_worker;

static inline unsigned long long near_version_of(const char *s)
{
    return strtoull(s, NULL, 10);
}

/* ops random operations, one in four a set of a new version. */
static inline void *near_work(void *p)
{
    near_worker *w = p;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char key[16], text[32];
    for (int i = 0; i < w->ops; i++) {
        snprintf(key, sizeof key, "ver:%d", (int)(check_rand(&w->seed) % NEAR_KEYS));
        if (check_rand(&w->seed) % 4 == 0) {
            snprintf(text, sizeof text, "%llu", (unsigned long long)++near_next_version);
            codec_bytes v = {(const uint8_t *)text, strlen(text)};
            codec_error err;
            w->bad += codec_redis_set(w->r, key, strlen(key), plain, &v, 0, &err) != 0;
            w->writes++;
        } else {
            int rc;
            const char *s = near_get(w->r, key, &arena, &rc);
            w->bad += rc != 0 && rc != CODEC_E_NOT_FOUND;
            w->bad += rc == 0 && near_version_of(s) == 0;
            w->reads++;
        }
        codec_arena_reset(&arena);
    }
    codec_arena_free(&arena);
    return NULL;
}

/* Runs 8 workers, each on its own handle from `connect`, `ops` operations
 * each. Once the writes have stopped, every handle must come to the
 * server's version of every key (`server_text` reads it behind the
 * adapter, decoded: "" when it cannot) once the invalidations are in, and
 * then read it again as a hit. Frees the handles; prints a summary line
 * starting with `what`. */
static inline void near_threads_check(codec_redis *(*connect)(void),
                                      void (*server_text)(const char *key, char *out, size_t cap),
                                      int ops, const char *what)
{
    near_worker w[NEAR_THREADS];
    pthread_t t[NEAR_THREADS];
    for (int i = 0; i < NEAR_THREADS; i++) {
        w[i] = (near_worker){connect(), (uint64_t)i * 7919 + 1, ops, 0, 0, 0, 0};
        pthread_create(&t[i], NULL, near_work, &w[i]);
    }
    for (int i = 0; i < NEAR_THREADS; i++)
        pthread_join(t[i], NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    size_t stale = 0;
    for (int k = 0; k < NEAR_KEYS; k++) {
        char key[16], want[32];
        snprintf(key, sizeof key, "ver:%d", k);
        server_text(key, want, sizeof want);
        CHECK(want[0] != '\0');
        for (int i = 0; i < NEAR_THREADS; i++) {
            int tries = 0;
            while (near_version_of(near_get(w[i].r, key, &arena, NULL)) != near_version_of(want) &&
                   tries < 2000) {
                tries++;
                redis_server_sleep_ms(1);
            }
            stale += tries > 0;
            CHECK(tries < 2000);
            /* Settled: a second read is a hit of the same version. */
            CHECK_INT(near_version_of(near_get(w[i].r, key, &arena, NULL)),
                      near_version_of(want));
            codec_arena_reset(&arena);
        }
    }
    size_t reads = 0, writes = 0, bad = 0, hits = 0;
    for (int i = 0; i < NEAR_THREADS; i++) {
        hits += near_stats(w[i].r).hits;
        reads += w[i].reads, writes += w[i].writes, bad += w[i].bad;
        codec_redis_free(w[i].r);
    }
    printf("%s: %zu reads, %zu writes, %zu cache hits; %zu (handle, key) pairs needed the "
           "last invalidations to settle\n", what, reads, writes, hits, stale);
    CHECK_INT(bad, 0);
    CHECK(hits > 0);
    codec_arena_free(&arena);
}

#endif
