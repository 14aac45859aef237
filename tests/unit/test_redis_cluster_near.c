/* test_redis_cluster_near.c — the near cache on a redis-cluster:// handle,
 * against a real Redis Cluster the test starts (tests/redis_cluster.h: six
 * redis-server processes, three masters with a replica each). Each node
 * connection tracks with REDIRECT to its own invalidation connection:
 *   - another client's write, on every master, is seen by the next get
 *     once its invalidation arrived;
 *   - killing one node's invalidation connection empties every node's
 *     cache (nothing is served from it), and tracking comes back;
 *   - a slot migrated to another master: the cached key is not served,
 *     the new owner's value is;
 *   - a master stopped (SIGSTOP, its connections stay open) and replaced
 *     by its replica: the value cached from it is never served once the
 *     replica took writes;
 *   - 8 threads with a handle each reading and writing keys on every
 *     master, a version in every value: once the writes stop, no cache
 *     holds a version older than the server's. */
#ifdef CODEC_HAVE_REDIS
#include "redis_cluster.h"   /* first: it needs _GNU_SOURCE */
#endif

#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis_cluster_near: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "codec/redis.h"
#include "redis_checks.h"

static redis_cluster cluster;

static codec_redis *connect_near(uint32_t timeout_ms)
{
    char url[128];
    snprintf(url, sizeof url, "redis-cluster://127.0.0.1:%d,127.0.0.1:%d,127.0.0.1:%d",
             cluster.node[0].port, cluster.node[1].port, cluster.node[2].port);
    codec_redis *r = redis_test_connect(url, timeout_ms, 0);
    codec_error err = {0};
    int rc = r ? codec_redis_enable_near_cache(r, NULL, &err) : -1;
    if (rc)
        fprintf(stderr, "near cache: %s\n", err.message);
    CHECK_INT(rc, 0);
    return r;
}

/* Stores `text` (through crc32c) under key on node i, as another client;
 * false when the node refused it (MOVED: not its slot). */
static bool plant_on(int i, const char *key, const char *text)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    codec_error err;
    codec_bytes v = {(const uint8_t *)text, strlen(text)};
    CHECK_INT(codec_encode(plain, &v, &b, &err), 0);
    redisContext *c = cluster_node_connect(&cluster, i);
    redisReply *r = c ? redisCommand(c, "SET %b %b", key, strlen(key), b.data, b.len) : NULL;
    bool ok = r && r->type == REDIS_REPLY_STATUS;
    freeReplyObject(r);
    redisFree(c);
    codec_buf_free(&b);
    return ok;
}

/* Stores on the master that serves the key now. */
static void plant(const char *key, const char *text)
{
    int m = cluster_master_of(&cluster, codec_redis_slot(key, strlen(key)));
    CHECK(m >= 0 && plant_on(m, key, text));
}

/* Gets until `want` is read (up to 2 s: the invalidation is one hop away);
 * returns how many gets read something else before. */
static int get_until(codec_redis *r, const char *key, const char *want, codec_arena *arena)
{
    int before = 0;
    for (; before < 2000 && strcmp(near_get(r, key, arena, NULL), want) != 0; before++)
        redis_server_sleep_ms(1);
    CHECK_STR(near_get(r, key, arena, NULL), want);
    return before;
}

/* One key per master: keys[m] is served by the master of index masters[m]. */
static void key_per_master(char keys[3][16], int masters[3])
{
    int found = 0;
    for (int t = 0; found < 3 && t < 10000; t++) {
        char key[16];
        snprintf(key, sizeof key, "cn:%d", t);
        int m = cluster_master_of(&cluster, codec_redis_slot(key, strlen(key)));
        bool seen = false;
        for (int j = 0; j < found; j++)
            seen |= masters[j] == m;
        if (m >= 0 && !seen) {
            masters[found] = m;
            snprintf(keys[found++], 16, "%s", key);
        }
    }
    CHECK_INT(found, 3);
}

/* Another client plants `text` under key; r reads it (from the server,
 * or a hit when it had it), then reads it again as a hit. */
static void cache_key(codec_redis *r, const char *key, const char *text, codec_arena *arena)
{
    plant(key, text);
    CHECK_STR(near_get(r, key, arena, NULL), text);
    codec_redis_near_stats s = near_stats(r);
    CHECK_STR(near_get(r, key, arena, NULL), text);
    CHECK_INT(near_stats(r).hits, s.hits + 1);
}

/* A new handle (command timeout `timeout_ms`) with `text` cached under key. */
static codec_redis *with_cached(const char *key, const char *text, uint32_t timeout_ms,
                                codec_arena *arena)
{
    codec_redis *r = connect_near(timeout_ms);
    cache_key(r, key, text, arena);
    return r;
}

/* A new handle with `text` cached under one key of each master. */
static codec_redis *with_cached_per_master(char keys[3][16], int masters[3], const char *text,
                                           codec_arena *arena)
{
    codec_redis *r = connect_near(2000);
    key_per_master(keys, masters);
    for (int m = 0; m < 3; m++)
        cache_key(r, keys[m], text, arena);
    return r;
}

static void test_writes_seen(void)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char keys[3][16];
    int masters[3];
    codec_redis *r = with_cached_per_master(keys, masters, "v1", &arena);
    codec_redis_near_stats s = near_stats(r);
    CHECK_INT(s.misses, 3);
    CHECK_INT(s.hits, 3);
    CHECK_INT(s.entries, 3);
    for (int m = 0; m < 3; m++)
        plant(keys[m], "v2");
    int stale = 0;
    for (int m = 0; m < 3; m++)
        stale += get_until(r, keys[m], "v2", &arena);
    printf("writes on all 3 masters: seen after %d stale gets in all\n", stale);
    CHECK(near_stats(r).invalidations >= 3);
    /* Own writes and deletes drop the key at once, on the node that has it. */
    codec_bytes v3 = {(const uint8_t *)"v3", 2};
    codec_error err;
    CHECK_INT(codec_redis_set(r, keys[1], strlen(keys[1]), plain, &v3, 0, &err), 0);
    CHECK_STR(near_get(r, keys[1], &arena, NULL), "v3");
    CHECK_INT(codec_redis_del(r, keys[1], strlen(keys[1]), NULL, &err), 0);
    int rc;
    near_get(r, keys[1], &arena, &rc);
    CHECK_INT(rc, CODEC_E_NOT_FOUND);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* Closes every pub/sub connection node i has (the invalidation ones). */
static void kill_invalidations(int i)
{
    char out[64];
    cluster_node_text(&cluster, i, out, sizeof out, "CLIENT KILL TYPE pubsub");
    CHECK(atoi(out) >= 1);
}

static void test_invalidation_lost(void)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char keys[3][16];
    int masters[3];
    codec_redis *r = with_cached_per_master(keys, masters, "k1", &arena);
    codec_redis_near_stats s = near_stats(r);
    CHECK_INT(s.entries, 3);
    kill_invalidations(masters[0]);
    /* The server has closed it; the handle learns at its next get on that
     * node (the close is on the socket): from then on nothing is served
     * from any node's cache until tracking is back. A get before the
     * close arrives may still be a hit of the (unchanged) value. */
    codec_redis_near_stats after = s;
    for (int i = 0; i < 2000 && after.flushes == s.flushes; i++) {
        CHECK_STR(near_get(r, keys[0], &arena, NULL), "k1");
        after = near_stats(r);
        if (after.flushes == s.flushes)
            redis_server_sleep_ms(1);
    }
    CHECK(after.flushes > s.flushes);
    /* Every node's cache was emptied, not only the one that lost it (the get
     * that noticed then cached its own key again). */
    CHECK(after.entries <= 1);
    /* The other masters' keys are asked from the server once, then cached again. */
    for (int m = 1; m < 3; m++) {
        codec_redis_near_stats b = near_stats(r);
        CHECK_STR(near_get(r, keys[m], &arena, NULL), "k1");
        CHECK_INT(near_stats(r).misses, b.misses + 1);
        CHECK_STR(near_get(r, keys[m], &arena, NULL), "k1");
        CHECK_INT(near_stats(r).hits, b.hits + 1);
    }
    /* Tracking is back on the first node: cached again, and invalidated. */
    near_get(r, keys[0], &arena, NULL);
    codec_redis_near_stats b = near_stats(r);
    CHECK_STR(near_get(r, keys[0], &arena, NULL), "k1");
    CHECK_INT(near_stats(r).hits, b.hits + 1);
    plant(keys[0], "k2");
    get_until(r, keys[0], "k2", &arena);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* A cached key's slot moves to another master; the new owner then takes
 * a write from another client. */
static void test_slot_migrated(void)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *key = "{mig}near";
    unsigned slot = codec_redis_slot(key, strlen(key));
    codec_redis *r = with_cached(key, "m1", 2000, &arena);   /* from the old owner */
    int from = cluster_master_of(&cluster, slot);
    int to = cluster_master_of(&cluster, (slot + 5461) % 16384);
    if (to == from)
        to = cluster_master_of(&cluster, (slot + 10922) % 16384);
    CHECK(from >= 0 && to >= 0 && from != to);
    codec_redis_near_stats s = near_stats(r);
    CHECK(cluster_migrate_slot(&cluster, slot, from, to, true));
    CHECK(cluster_wait_owner(&cluster, slot, key, to));
    CHECK(plant_on(to, key, "m2"));
    /* The old owner deleted the key when MIGRATE moved it, and sent its
     * invalidation before it answered the commands that followed (the
     * SETSLOTs, the waits): the first get cannot serve m1. The handle's map
     * still names the old owner: MOVED, the map changes, every cache is
     * emptied. */
    CHECK_STR(near_get(r, key, &arena, NULL), "m2");
    codec_redis_near_stats after = near_stats(r);
    CHECK(after.invalidations > s.invalidations);
    CHECK_INT(after.hits, s.hits);
    CHECK_STR(near_get(r, key, &arena, NULL), "m2");   /* cached from the new owner */
    CHECK_INT(near_stats(r).hits, s.hits + 1);
    plant_on(to, key, "m3");
    get_until(r, key, "m3", &arena);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* A master stops (its sockets stay open, nothing is said) and its replica
 * takes over; another client writes the key on the new master. The handle
 * cached the old value from the stopped master: it must not serve it. */
static void test_master_stopped(void)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *key = "{stop}near";
    unsigned slot = codec_redis_slot(key, strlen(key));
    codec_redis *r = with_cached(key, "s1", 500, &arena);
    int old = cluster_master_of(&cluster, slot);
    CHECK(old >= 0);
    kill(cluster.node[old].pid, SIGSTOP);
    int now = old;
    for (int i = 0; i < 600 && (now < 0 || now == old); i++) {   /* up to 60 s */
        redis_server_sleep_ms(100);
        now = cluster_master_of(&cluster, slot);
    }
    CHECK(now >= 0 && now != old);
    bool written = now >= 0 && now != old && plant_on(now, key, "s2");
    CHECK(written);
    /* The old master's invalidation connection looks open, but it has not
     * proved itself for over a second: the handle PINGs it, gets no
     * answer within the timeout, and empties the cache. The get then fails
     * (the map still names the stopped node) or reads s2; never s1. */
    int served_old = 0, rc = -1, tries = 0;
    for (; tries < 50 && rc != 0; tries++) {
        const char *v = near_get(r, key, &arena, &rc);
        served_old += strcmp(v, "s1") == 0;
        CHECK(rc == 0 || rc == CODEC_E_TRANSIENT);
        if (rc == 0)
            CHECK_STR(v, "s2");
    }
    printf("stopped master replaced: %d gets until s2 was read, %d served the old value\n",
           tries, served_old);
    CHECK_INT(served_old, 0);
    CHECK_INT(rc, 0);
    CHECK(near_stats(r).flushes >= 1);
    kill(cluster.node[old].pid, SIGCONT);
    CHECK(cluster_wait_ok(&cluster, 60));   /* it rejoins as a replica */
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* ---------------------------------------------------------------------------
 * 8 threads, 16 keys over every master, versions
 * ------------------------------------------------------------------------ */

static codec_redis *connect_default(void)
{
    return connect_near(2000);
}

/* The server's value of key, read from its master and decoded as text. */
static void server_text(const char *key, char *out, size_t cap)
{
    int m = cluster_master_of(&cluster, codec_redis_slot(key, strlen(key)));
    redisContext *c = m >= 0 ? cluster_node_connect(&cluster, m) : NULL;
    redisReply *rr = c ? redisCommand(c, "GET %s", key) : NULL;
    near_reply_text(rr, out, cap);
    redisFree(c);
}

static void test_threads(void)
{
    int on[CLUSTER_NODES] = {0}, masters = 0;
    for (int k = 0; k < NEAR_KEYS; k++) {   /* the 16 keys are on every master */
        char key[16];
        snprintf(key, sizeof key, "ver:%d", k);
        int m = cluster_master_of(&cluster, codec_redis_slot(key, strlen(key)));
        masters += m >= 0 && !on[m];
        if (m >= 0)
            on[m] = 1;
    }
    CHECK_INT(masters, 3);
    near_threads_check(connect_default, server_text, 2000, "8 threads on the cluster");
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    codec_error err;
    plain = codec_parse("crc32c", NULL, &err);
    bool up = redis_cluster_start(&cluster);
    CHECK(up);   /* make test installs redis-server and redis-tools */
    if (!up) {
        codec_free(plain);
        return check_done("test_redis_cluster_near");
    }
    test_writes_seen();
    test_invalidation_lost();
    test_slot_migrated();
    test_threads();
    test_master_stopped();   /* last: the cluster has a new master after it */
    redis_cluster_stop(&cluster);
    codec_free(plain);
    return check_done("test_redis_cluster_near");
}
#endif
