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

#include <pthread.h>
#include <stdatomic.h>

static redis_cluster cluster;
static codec *plain;   /* crc32c: a bytes pipeline that checks what it reads */

static codec_redis *connect_near(uint32_t timeout_ms)
{
    char url[128];
    snprintf(url, sizeof url, "redis-cluster://127.0.0.1:%d,127.0.0.1:%d,127.0.0.1:%d",
             cluster.node[0].port, cluster.node[1].port, cluster.node[2].port);
    codec_redis_options o = {0};
    o.url = url;
    o.command_timeout_ms = timeout_ms;
    codec_redis *r = NULL;
    codec_error err = {0};
    int rc = codec_redis_connect(&o, &r, &err);
    if (rc)
        fprintf(stderr, "connect: %s\n", err.message);
    CHECK_INT(rc, 0);
    if (rc)
        return NULL;
    rc = codec_redis_enable_near_cache(r, NULL, &err);
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

/* A get; the text read, or "" on failure (*rc_out says which). */
static const char *get(codec_redis *r, const char *key, codec_arena *arena, int *rc_out)
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

static codec_redis_near_stats stats(const codec_redis *r)
{
    codec_redis_near_stats s;
    codec_redis_near_cache_stats(r, &s);
    return s;
}

/* Gets until `want` is read (up to 2 s: the invalidation is one hop away);
 * returns how many gets read something else before. */
static int get_until(codec_redis *r, const char *key, const char *want, codec_arena *arena)
{
    int before = 0;
    for (; before < 2000 && strcmp(get(r, key, arena, NULL), want) != 0; before++)
        redis_server_sleep_ms(1);
    CHECK_STR(get(r, key, arena, NULL), want);
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

static void test_writes_seen(void)
{
    codec_redis *r = connect_near(2000);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char keys[3][16];
    int masters[3];
    key_per_master(keys, masters);
    for (int m = 0; m < 3; m++) {
        plant(keys[m], "v1");
        CHECK_STR(get(r, keys[m], &arena, NULL), "v1");   /* miss: from its master */
        CHECK_STR(get(r, keys[m], &arena, NULL), "v1");   /* hit */
    }
    codec_redis_near_stats s = stats(r);
    CHECK_INT(s.misses, 3);
    CHECK_INT(s.hits, 3);
    CHECK_INT(s.entries, 3);
    for (int m = 0; m < 3; m++)
        plant(keys[m], "v2");
    int stale = 0;
    for (int m = 0; m < 3; m++)
        stale += get_until(r, keys[m], "v2", &arena);
    printf("writes on all 3 masters: seen after %d stale gets in all\n", stale);
    CHECK(stats(r).invalidations >= 3);
    /* Own writes and deletes drop the key at once, on the node that has it. */
    codec_bytes v3 = {(const uint8_t *)"v3", 2};
    codec_error err;
    CHECK_INT(codec_redis_set(r, keys[1], strlen(keys[1]), plain, &v3, 0, &err), 0);
    CHECK_STR(get(r, keys[1], &arena, NULL), "v3");
    CHECK_INT(codec_redis_del(r, keys[1], strlen(keys[1]), NULL, &err), 0);
    int rc;
    get(r, keys[1], &arena, &rc);
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
    codec_redis *r = connect_near(2000);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char keys[3][16];
    int masters[3];
    key_per_master(keys, masters);
    for (int m = 0; m < 3; m++) {
        plant(keys[m], "k1");
        get(r, keys[m], &arena, NULL);
        CHECK_STR(get(r, keys[m], &arena, NULL), "k1");   /* cached */
    }
    codec_redis_near_stats s = stats(r);
    CHECK_INT(s.entries, 3);
    kill_invalidations(masters[0]);
    /* The server has closed it; the handle learns at its next get on that
     * node (the close is on the socket): from then on nothing is served
     * from any node's cache until tracking is back. A get before the
     * close arrives may still be a hit of the (unchanged) value. */
    codec_redis_near_stats after = s;
    for (int i = 0; i < 2000 && after.flushes == s.flushes; i++) {
        CHECK_STR(get(r, keys[0], &arena, NULL), "k1");
        after = stats(r);
        if (after.flushes == s.flushes)
            redis_server_sleep_ms(1);
    }
    CHECK(after.flushes > s.flushes);
    /* Every node's cache was emptied, not only the one that lost it (the get
     * that noticed then cached its own key again). */
    CHECK(after.entries <= 1);
    /* The other masters' keys are asked from the server once, then cached again. */
    for (int m = 1; m < 3; m++) {
        codec_redis_near_stats b = stats(r);
        CHECK_STR(get(r, keys[m], &arena, NULL), "k1");
        CHECK_INT(stats(r).misses, b.misses + 1);
        CHECK_STR(get(r, keys[m], &arena, NULL), "k1");
        CHECK_INT(stats(r).hits, b.hits + 1);
    }
    /* Tracking is back on the first node: cached again, and invalidated. */
    get(r, keys[0], &arena, NULL);
    codec_redis_near_stats b = stats(r);
    CHECK_STR(get(r, keys[0], &arena, NULL), "k1");
    CHECK_INT(stats(r).hits, b.hits + 1);
    plant(keys[0], "k2");
    get_until(r, keys[0], "k2", &arena);
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* A cached key's slot moves to another master; the new owner then takes
 * a write from another client. */
static void test_slot_migrated(void)
{
    codec_redis *r = connect_near(2000);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *key = "{mig}near";
    unsigned slot = codec_redis_slot(key, strlen(key));
    plant(key, "m1");
    get(r, key, &arena, NULL);
    CHECK_STR(get(r, key, &arena, NULL), "m1");   /* cached from the old owner */
    int from = cluster_master_of(&cluster, slot);
    int to = cluster_master_of(&cluster, (slot + 5461) % 16384);
    if (to == from)
        to = cluster_master_of(&cluster, (slot + 10922) % 16384);
    CHECK(from >= 0 && to >= 0 && from != to);
    codec_redis_near_stats s = stats(r);
    CHECK(cluster_migrate_slot(&cluster, slot, from, to, true));
    CHECK(cluster_wait_owner(&cluster, slot, key, to));
    CHECK(plant_on(to, key, "m2"));
    /* The old owner deleted the key when MIGRATE moved it, and sent its
     * invalidation before it answered the commands that followed (the
     * SETSLOTs, the waits): the first get cannot serve m1. The handle's map
     * still names the old owner: MOVED, the map changes, every cache is
     * emptied. */
    CHECK_STR(get(r, key, &arena, NULL), "m2");
    codec_redis_near_stats after = stats(r);
    CHECK(after.invalidations > s.invalidations);
    CHECK_INT(after.hits, s.hits);
    CHECK_STR(get(r, key, &arena, NULL), "m2");   /* cached from the new owner */
    CHECK_INT(stats(r).hits, s.hits + 1);
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
    codec_redis *r = connect_near(500);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const char *key = "{stop}near";
    unsigned slot = codec_redis_slot(key, strlen(key));
    plant(key, "s1");
    get(r, key, &arena, NULL);
    CHECK_STR(get(r, key, &arena, NULL), "s1");
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
        const char *v = get(r, key, &arena, &rc);
        served_old += strcmp(v, "s1") == 0;
        CHECK(rc == 0 || rc == CODEC_E_TRANSIENT);
        if (rc == 0)
            CHECK_STR(v, "s2");
    }
    printf("stopped master replaced: %d gets until s2 was read, %d served the old value\n",
           tries, served_old);
    CHECK_INT(served_old, 0);
    CHECK_INT(rc, 0);
    CHECK(stats(r).flushes >= 1);
    kill(cluster.node[old].pid, SIGCONT);
    CHECK(cluster_wait_ok(&cluster, 60));   /* it rejoins as a replica */
    codec_arena_free(&arena);
    codec_redis_free(r);
}

/* ---------------------------------------------------------------------------
 * 8 threads, 16 keys over every master, versions
 * ------------------------------------------------------------------------ */

#define THREADS 8
#define KEYS 16
#define OPS 2000

static atomic_ullong next_version;

typedef struct worker {
    codec_redis *r;
    uint64_t seed;
    size_t reads, writes, bad;
} worker;

static unsigned long long version_of(const char *s)
{
    return strtoull(s, NULL, 10);
}

static void *work(void *p)
{
    worker *w = p;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char key[16], text[32];
    for (int i = 0; i < OPS; i++) {
        snprintf(key, sizeof key, "ver:%d", (int)(check_rand(&w->seed) % KEYS));
        if (check_rand(&w->seed) % 4 == 0) {
            snprintf(text, sizeof text, "%llu", (unsigned long long)++next_version);
            codec_bytes v = {(const uint8_t *)text, strlen(text)};
            codec_error err;
            w->bad += codec_redis_set(w->r, key, strlen(key), plain, &v, 0, &err) != 0;
            w->writes++;
        } else {
            int rc;
            const char *s = get(w->r, key, &arena, &rc);
            w->bad += rc != 0 && rc != CODEC_E_NOT_FOUND;
            w->bad += rc == 0 && version_of(s) == 0;
            w->reads++;
        }
        codec_arena_reset(&arena);
    }
    codec_arena_free(&arena);
    return NULL;
}

static void test_threads(void)
{
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){connect_near(2000), (uint64_t)i * 7919 + 1, 0, 0, 0};
        pthread_create(&t[i], NULL, work, &w[i]);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    size_t stale = 0, hits = 0;
    int masters_used[CLUSTER_NODES] = {0};
    for (int k = 0; k < KEYS; k++) {
        char key[16];
        snprintf(key, sizeof key, "ver:%d", k);
        int m = cluster_master_of(&cluster, codec_redis_slot(key, strlen(key)));
        CHECK(m >= 0);
        if (m < 0)
            continue;
        masters_used[m] = 1;
        /* The server's value, read from the key's master and decoded. */
        redisContext *c = cluster_node_connect(&cluster, m);
        redisReply *rr = c ? redisCommand(c, "GET %s", key) : NULL;
        CHECK(rr && rr->type == REDIS_REPLY_STRING);
        char want[32] = "";
        if (rr && rr->type == REDIS_REPLY_STRING) {
            codec_bytes sv;
            codec_error err;
            CHECK_INT(codec_decode(plain, (const uint8_t *)rr->str, rr->len, &sv, &arena, &err), 0);
            snprintf(want, sizeof want, "%.*s", (int)sv.len, (const char *)sv.data);
        }
        freeReplyObject(rr);
        redisFree(c);
        for (int i = 0; i < THREADS; i++) {
            int tries = 0;
            while (version_of(get(w[i].r, key, &arena, NULL)) != version_of(want) && tries < 2000) {
                tries++;
                redis_server_sleep_ms(1);
            }
            stale += tries > 0;
            CHECK(tries < 2000);
            /* Settled: read again (a hit), the same version. */
            CHECK_INT(version_of(get(w[i].r, key, &arena, NULL)), version_of(want));
        }
    }
    int masters = 0;
    for (int i = 0; i < CLUSTER_NODES; i++)
        masters += masters_used[i];
    size_t reads = 0, writes = 0, bad = 0;
    for (int i = 0; i < THREADS; i++) {
        hits += stats(w[i].r).hits;
        reads += w[i].reads, writes += w[i].writes, bad += w[i].bad;
        codec_redis_free(w[i].r);
    }
    printf("8 threads on the cluster (keys on %d masters): %zu reads, %zu writes, %zu cache "
           "hits; %zu (handle, key) pairs needed the last invalidations to settle\n",
           masters, reads, writes, hits, stale);
    CHECK_INT(masters, 3);
    CHECK_INT(bad, 0);
    CHECK(hits > 0);
    codec_arena_free(&arena);
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
