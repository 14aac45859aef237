/* test_redis_near_cache.c — the near cache in front of codec_redis_get,
 * against a real redis-server the test starts: hits and misses, another
 * client's write seen after its invalidation, the invalidation connection
 * killed (the cache is flushed and serves nothing until tracking is back),
 * LRU by entries and by bytes, TTL, a stopped server (its silent
 * invalidation connection is PINGed, and the cache emptied), and 8
 * threads reading and writing the same keys with a version in every value:
 * once the writes stop, no cache holds a version older than the server's. */
#ifdef CODEC_HAVE_REDIS
#include "redis_server.h"   /* first: it needs _GNU_SOURCE */
#endif

#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis_near_cache: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "codec/redis.h"
#include "redis_checks.h"

static redis_server server;

static codec_redis *connect_near(const codec_redis_near_cache_options *nco)
{
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", server.port);
    codec_redis *r = redis_test_connect(url, 0, 0);
    codec_error err = {0};
    int rc = r ? codec_redis_enable_near_cache(r, nco, &err) : -1;
    if (rc)
        fprintf(stderr, "near cache: %s\n", err.message);
    CHECK_INT(rc, 0);
    return r;
}

static void raw(const char *fmt, const char *a, size_t alen, const char *b, size_t blen)
{
    struct timeval tv = {2, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", server.port, tv);
    redisReply *r = b ? redisCommand(c, fmt, a, alen, b, blen) : redisCommand(c, fmt, a, alen);
    CHECK(r != NULL && r->type != REDIS_REPLY_ERROR);
    freeReplyObject(r);
    redisFree(c);
}

/* Stores `text` under key through the crc32c pipeline, as another client. */
static void plant(const char *key, const char *text)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    codec_error err;
    codec_bytes v = {(const uint8_t *)text, strlen(text)};
    CHECK_INT(codec_encode(plain, &v, &b, &err), 0);
    raw("SET %b %b", key, strlen(key), (const char *)b.data, b.len);
    codec_buf_free(&b);
}

static void test_hits_and_invalidation(void)
{
    codec_redis *r = connect_near(NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    plant("n:a", "v1");
    CHECK_STR(near_get(r, "n:a", &arena, NULL), "v1");   /* miss: from the server */
    CHECK_STR(near_get(r, "n:a", &arena, NULL), "v1");   /* hit */
    codec_redis_near_stats s = near_stats(r);
    CHECK_INT(s.misses, 1);
    CHECK_INT(s.hits, 1);
    CHECK_INT(s.entries, 1);

    /* Another client writes: once the invalidation is in, the next get
     * goes to the server. Until then a get may serve v1, never garbage. */
    plant("n:a", "v2");
    int stale = 0;
    const char *now = "";
    for (int i = 0; i < 2000; i++) {
        now = near_get(r, "n:a", &arena, NULL);
        if (strcmp(now, "v1") != 0)
            break;
        stale++;
        redis_server_sleep_ms(1);
    }
    printf("another client's write: seen after %d stale gets\n", stale);
    CHECK_STR(now, "v2");
    CHECK(near_stats(r).invalidations >= 1);
    CHECK_STR(near_get(r, "n:a", &arena, NULL), "v2");   /* cached again, hit */

    /* Own writes drop the key at once. */
    codec_bytes v3 = {(const uint8_t *)"v3", 2};
    codec_error err;
    CHECK_INT(codec_redis_set(r, "n:a", 3, plain, &v3, 0, &err), 0);
    CHECK_STR(near_get(r, "n:a", &arena, NULL), "v3");
    int rc;
    int removed;
    CHECK_INT(codec_redis_del(r, "n:a", 3, &removed, &err), 0);
    near_get(r, "n:a", &arena, &rc);
    CHECK_INT(rc, CODEC_E_NOT_FOUND);

    /* Kill the invalidation connection: the cache empties, the next get
     * goes to the server, and tracking comes back for the one after. */
    plant("n:b", "b1");
    CHECK_STR(near_get(r, "n:b", &arena, NULL), "b1");
    CHECK_STR(near_get(r, "n:b", &arena, NULL), "b1");   /* hit */
    s = near_stats(r);
    raw("CLIENT KILL TYPE %b", "pubsub", 6, NULL, 0);
    redis_server_sleep_ms(50);   /* the FIN reaches the handle */
    CHECK_STR(near_get(r, "n:b", &arena, NULL), "b1");
    codec_redis_near_stats after = near_stats(r);
    CHECK_INT(after.flushes, s.flushes + 1);
    CHECK_INT(after.misses, s.misses + 1);   /* not served from the cache */
    CHECK_INT(after.hits, s.hits);
    CHECK_STR(near_get(r, "n:b", &arena, NULL), "b1");
    CHECK_INT(near_stats(r).hits, s.hits + 1);    /* tracking is back */
    plant("n:b", "b2");                      /* and invalidations flow again */
    for (int i = 0; i < 2000 && strcmp(near_get(r, "n:b", &arena, NULL), "b2"); i++)
        redis_server_sleep_ms(1);
    CHECK_STR(near_get(r, "n:b", &arena, NULL), "b2");

    /* FLUSHALL: the server's nil invalidation empties everything. */
    raw("FLUSHALL%b", "", 0, NULL, 0);
    for (int i = 0; i < 2000 && near_stats(r).entries; i++) {
        near_get(r, "n:zz", &arena, &rc);
        redis_server_sleep_ms(1);
    }
    near_get(r, "n:b", &arena, &rc);
    CHECK_INT(rc, CODEC_E_NOT_FOUND);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* A server that stops answering without closing anything (SIGSTOP): once
 * the invalidation connection has not proved itself for a second, a get
 * PINGs it first; no answer within the timeout empties the cache, and
 * nothing is served from it. */
static void test_server_stopped(void)
{
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", server.port);
    codec_redis *r = redis_test_connect(url, 300, 0);
    codec_error err;
    CHECK_INT(codec_redis_enable_near_cache(r, NULL, &err), 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    plant("st:a", "a1");
    near_get(r, "st:a", &arena, NULL);
    CHECK_STR(near_get(r, "st:a", &arena, NULL), "a1");   /* a hit */
    codec_redis_near_stats s = near_stats(r);
    kill(server.pid, SIGSTOP);
    redis_server_sleep_ms(1100);   /* past the 1 s in which a hit needs no proof */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc;
    const char *v = near_get(r, "st:a", &arena, &rc);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    kill(server.pid, SIGCONT);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("stopped server: get after %.0f ms: rc %d '%s'\n", ms, rc, v);
    CHECK_INT(rc, CODEC_E_TRANSIENT);          /* not the cached a1 */
    CHECK_INT(near_stats(r).hits, s.hits);
    CHECK_INT(near_stats(r).flushes, s.flushes + 1);
    CHECK_INT(near_stats(r).entries, 0);
    CHECK(ms < 3000);                          /* a PING and a GET, 300 ms each */
    /* The server continues: the handle reconnects, caches, and hits again. */
    CHECK_STR(near_get(r, "st:a", &arena, NULL), "a1");
    s = near_stats(r);
    CHECK_STR(near_get(r, "st:a", &arena, NULL), "a1");
    CHECK_INT(near_stats(r).hits, s.hits + 1);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

static void test_bounds(void)
{
    codec_redis_near_cache_options o = {0};
    o.max_entries = 3;
    codec_redis *r = connect_near(&o);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *keys[] = {"l:0", "l:1", "l:2", "l:3"};
    for (int i = 0; i < 4; i++)
        plant(keys[i], keys[i]);
    for (int i = 0; i < 4; i++)
        near_get(r, keys[i], &arena, NULL);
    codec_redis_near_stats s = near_stats(r);
    CHECK_INT(s.entries, 3);
    CHECK_INT(s.evictions, 1);
    near_get(r, "l:3", &arena, NULL);                   /* most recent: a hit */
    CHECK_INT(near_stats(r).hits, s.hits + 1);
    near_get(r, "l:0", &arena, NULL);                   /* least recent: evicted */
    CHECK_INT(near_stats(r).misses, s.misses + 1);
    codec_redis_free(r);

    /* Bytes: each entry costs key + value + 64; 200 bytes hold one. */
    o.max_entries = 0;
    o.max_bytes = 200;
    r = connect_near(&o);
    near_get(r, "l:0", &arena, NULL);
    near_get(r, "l:1", &arena, NULL);
    s = near_stats(r);
    CHECK_INT(s.entries, 2);   /* 2 x (3 + 7 + 64) = 148 */
    near_get(r, "l:2", &arena, NULL);
    CHECK_INT(near_stats(r).entries, 2);
    CHECK(near_stats(r).bytes <= 200);
    CHECK_INT(near_stats(r).evictions, 1);
    codec_redis_free(r);

    /* TTL. */
    o.max_bytes = 0;
    o.ttl_ms = 50;
    r = connect_near(&o);
    near_get(r, "l:0", &arena, NULL);
    near_get(r, "l:0", &arena, NULL);
    CHECK_INT(near_stats(r).hits, 1);
    redis_server_sleep_ms(80);
    near_get(r, "l:0", &arena, NULL);
    CHECK_INT(near_stats(r).hits, 1);
    CHECK_INT(near_stats(r).misses, 2);
    CHECK_INT(near_stats(r).evictions, 1);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

static codec_redis *connect_default(void)
{
    return connect_near(NULL);
}

/* The server's value of key, read with hiredis and decoded as text. */
static void server_text(const char *key, char *out, size_t cap)
{
    struct timeval tv = {2, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", server.port, tv);
    redisReply *rr = c && !c->err ? redisCommand(c, "GET %s", key) : NULL;
    near_reply_text(rr, out, cap);
    redisFree(c);
}

/* 8 threads, 3,000 operations each, on 16 shared keys. */
static void test_threads(void)
{
    near_threads_check(connect_default, server_text, 3000, "8 threads");
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    codec_error err;
    plain = codec_parse("crc32c", NULL, &err);
    bool up = redis_server_start(&server, false);
    CHECK(up);   /* make test installs redis-server */
    if (!up) {
        codec_free(plain);
        return check_done("test_redis_near_cache");
    }
    test_hits_and_invalidation();
    test_bounds();
    test_server_stopped();
    test_threads();
    redis_server_stop(&server);
    codec_free(plain);
    return check_done("test_redis_near_cache");
}
#endif
