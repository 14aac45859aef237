/* test_redis_cluster.c — the adapter against a real Redis Cluster that the
 * test starts (tests/redis_cluster.h: six redis-server processes on
 * 127.0.0.1, three masters with a replica each): hash slots against
 * CLUSTER KEYSLOT, routing over every master, batches split by node with
 * per-item status in the caller's order, cross-slot MSET refused, MOVED
 * and ASK during a slot migration, slots migrating during a 100,000-item
 * batch and during GET/SET batches over all 16384 slots, a stopped node (timeouts, not hangs) and a master killed
 * mid-batch with its replica promoted. "Nothing acknowledged is lost" is
 * checked by reading every acknowledged key back, byte-identical. */
#ifdef CODEC_HAVE_REDIS
#include "redis_cluster.h"   /* first: it needs _GNU_SOURCE */
#endif

#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis_cluster: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "codec/redis.h"
#include "redis_checks.h"

#include <pthread.h>
#include <stdatomic.h>

static redis_cluster cluster;
static codec *hex;

static codec_redis *connect_cluster(uint32_t timeout_ms, uint32_t wait_replicas)
{
    char url[128];
    /* Two seeds, the first of them a replica's port as often as not. */
    snprintf(url, sizeof url, "redis-cluster://127.0.0.1:%d,127.0.0.1:%d",
             cluster.node[5].port, cluster.node[0].port);
    return redis_test_connect(url, timeout_ms, wait_replicas);
}

static redisContext *node_connect(int i)
{
    redisContext *c = cluster_node_connect(&cluster, i);
    CHECK(c != NULL);
    return c;
}

#define node_text(i, out, cap, ...) cluster_node_text(&cluster, i, out, cap, __VA_ARGS__)

/* The slot function against the server's own CLUSTER KEYSLOT. */
static void test_slots(void)
{
    const char *keys[] = {"", "a", "foo", "order:42", "{user1000}.following",
                          "{user1000}.followers", "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}",
                          "{", "}", "{}", "x{y", "\xff\x00\x01"};
    size_t lens[] = {0, 1, 3, 8, 20, 20, 10, 13, 13, 1, 1, 2, 3, 3};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        redisContext *c = node_connect(0);
        redisReply *r = redisCommand(c, "CLUSTER KEYSLOT %b", keys[i], lens[i]);
        CHECK(r && r->type == REDIS_REPLY_INTEGER);
        if (r)
            CHECK_INT(codec_redis_slot(keys[i], lens[i]), (unsigned)r->integer);
        freeReplyObject(r);
        redisFree(c);
    }
    CHECK_INT(codec_redis_slot("{user1000}.following", 20),
              codec_redis_slot("{user1000}.followers", 20));
}

static void value_of(size_t i, uint32_t round, uint8_t v[16])
{
    for (int b = 0; b < 8; b++)
        v[b] = (uint8_t)(i >> (8 * b));
    for (int b = 0; b < 4; b++)
        v[8 + b] = (uint8_t)(round >> (8 * b));
    memcpy(v + 12, "cv01", 4);
}

typedef struct keyset {
    size_t n;
    char (*key)[24];
    uint8_t (*val)[16];
    codec_bytes *in, *out;
    codec_redis_item *items;
} keyset;

static void keyset_init(keyset *k, size_t n, const char *prefix, uint32_t round)
{
    k->n = n;
    k->key = calloc(n, sizeof *k->key);
    k->val = calloc(n, sizeof *k->val);
    k->in = calloc(n, sizeof *k->in);
    k->out = calloc(n, sizeof *k->out);
    k->items = calloc(n, sizeof *k->items);
    for (size_t i = 0; i < n; i++) {
        snprintf(k->key[i], sizeof k->key[i], "%s:%zu", prefix, i);
        value_of(i, round, k->val[i]);
        k->in[i] = (codec_bytes){k->val[i], 16};
    }
}

static void keyset_items(keyset *k, codec_redis_op op)
{
    for (size_t i = 0; i < k->n; i++)
        k->items[i] = (codec_redis_item){.op = op, .key = k->key[i],
                                         .key_len = strlen(k->key[i]), .codec = hex,
                                         .value = &k->in[i], .value_out = &k->out[i]};
}

static void keyset_free(keyset *k)
{
    free(k->key), free(k->val), free(k->in), free(k->out), free(k->items);
}

/* Reads every key whose item has status 0 back and compares the bytes. */
static size_t check_acknowledged(codec_redis *r, keyset *k, const int *status)
{
    size_t acked = 0, lost = 0;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t i = 0; i < k->n; i++) {
        if (status[i])
            continue;
        acked++;
        codec_bytes out;
        codec_error err;
        int rc = codec_redis_get(r, k->key[i], strlen(k->key[i]), hex, &out, &arena, &err);
        /* A read that fails (the nodes still disagree on a moving slot's
         * owner, a failover not finished) is asked again until the cluster
         * answers, for up to 20 s: only an answer can show a loss. */
        for (int again = 0; rc == CODEC_E_TRANSIENT && again < 400; again++) {
            redis_server_sleep_ms(50);
            rc = codec_redis_get(r, k->key[i], strlen(k->key[i]), hex, &out, &arena, &err);
        }
        if (rc || out.len != 16 || memcmp(out.data, k->val[i], 16)) {
            if (lost++ < 5)
                fprintf(stderr, "acknowledged %s: rc %d %s\n", k->key[i], rc,
                        rc ? err.message : "(different bytes)");
        }
        codec_arena_reset(&arena);
    }
    codec_arena_free(&arena);
    CHECK_INT(lost, 0);
    return acked;
}

static void test_routing(codec_redis *r)
{
    codec_error err;
    keyset k;
    keyset_init(&k, 3000, "route", 1);
    for (size_t i = 0; i < k.n; i++)
        CHECK_INT(codec_redis_set(r, k.key[i], strlen(k.key[i]), hex, &k.in[i], 0, &err), 0);
    /* Every master holds some: DBSIZE of the three masters sums to all. */
    long long total = 0;
    int masters = 0;
    for (int i = 0; i < CLUSTER_NODES; i++) {
        char role[64], size[32];
        node_text(i, role, sizeof role, "ROLE");
        node_text(i, size, sizeof size, "DBSIZE");
        redisContext *c = node_connect(i);
        redisReply *rr = redisCommand(c, "ROLE");
        bool master = rr && rr->type == REDIS_REPLY_ARRAY &&
                      strcmp(rr->element[0]->str, "master") == 0;
        freeReplyObject(rr);
        redisFree(c);
        if (master) {
            masters++;
            CHECK(atoll(size) > 0);
            total += atoll(size);
        }
    }
    CHECK_INT(masters, 3);
    CHECK_INT(total, 3000);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out;
    CHECK_INT(codec_redis_get(r, k.key[7], strlen(k.key[7]), hex, &out, &arena, &err), 0);
    CHECK_MEM(out.data, out.len, k.val[7], 16);
    int removed = 0;
    CHECK_INT(codec_redis_del(r, k.key[7], strlen(k.key[7]), &removed, &err), 0);
    CHECK_INT(removed, 1);
    CHECK_INT(codec_redis_get(r, k.key[7], strlen(k.key[7]), hex, &out, &arena, &err),
              CODEC_E_NOT_FOUND);

    /* MGET across every slot: per-item status, in the caller's order. */
    keyset_items(&k, CODEC_REDIS_GET);
    CHECK_INT(codec_redis_mget(r, k.items, k.n, &arena, &err), 0);
    for (size_t i = 0; i < k.n; i++) {
        CHECK_INT(k.items[i].status, i == 7 ? CODEC_E_NOT_FOUND : 0);
        if (i != 7)
            CHECK_MEM(k.out[i].data, k.out[i].len, k.val[i], 16);
    }

    /* MSET: one slot is atomic and fine; several slots are refused whole. */
    codec_redis_item two[2] = {
        {.key = "{t}a", .key_len = 4, .codec = hex, .value = &k.in[0]},
        {.key = "{t}b", .key_len = 4, .codec = hex, .value = &k.in[1]}};
    CHECK_INT(codec_redis_mset(r, two, 2, &err), 0);
    two[1].key = "other";
    two[1].key_len = 5;
    CHECK_INT(codec_redis_mset(r, two, 2, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "cannot be atomic") != NULL);
    CHECK_INT(codec_redis_get(r, "other", 5, hex, &out, &arena, &err), CODEC_E_NOT_FOUND);

    /* Hash fields route by their key. */
    codec_redis_item f[1] = {{.key = "f", .key_len = 1, .codec = hex, .value = &k.in[3],
                              .value_out = &k.out[3]}};
    CHECK_INT(codec_redis_hset(r, "h:{t}", 5, f, 1, 0, &err), 0);
    CHECK_INT(codec_redis_hget(r, "h:{t}", 5, f, 1, &arena, &err), 0);
    CHECK_MEM(k.out[3].data, k.out[3].len, k.val[3], 16);
    codec_arena_free(&arena);
    keyset_free(&k);
}

static void migrate_slot(unsigned slot, int from, int to, bool finish)
{
    CHECK(cluster_migrate_slot(&cluster, slot, from, to, finish));
}

/* The handle learned the map before the move; MOVED sends it on. */
static void test_moved_and_ask(codec_redis *r)
{
    codec_error err;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    uint8_t v[16];
    value_of(1, 77, v);
    codec_bytes in = {v, 16}, out;
    const char *key = "{mv}k";
    unsigned slot = codec_redis_slot(key, 5);
    CHECK_INT(codec_redis_set(r, key, 5, hex, &in, 0, &err), 0);
    int from = cluster_master_of(&cluster, slot);
    int to = cluster_master_of(&cluster, (slot + 8192) % 16384);
    if (to == from)
        to = cluster_master_of(&cluster, (slot + 5461) % 16384);
    CHECK(from >= 0 && to >= 0 && from != to);

    /* Half migrated: the key moved, the slot not yet: ASK. */
    migrate_slot(slot, from, to, false);
    CHECK_INT(codec_redis_get(r, key, 5, hex, &out, &arena, &err), 0);
    CHECK_MEM(out.data, out.len, v, 16);
    /* A new key of the slot during the migration lands on the target. */
    CHECK_INT(codec_redis_set(r, "{mv}new", 7, hex, &in, 0, &err), 0);
    /* Finished: MOVED. */
    migrate_slot(slot, from, to, true);
    CHECK_INT(codec_redis_get(r, key, 5, hex, &out, &arena, &err), 0);
    CHECK_MEM(out.data, out.len, v, 16);
    CHECK_INT(codec_redis_get(r, "{mv}new", 7, hex, &out, &arena, &err), 0);
    CHECK_INT(cluster_master_of(&cluster, slot), to);
    codec_arena_free(&arena);
}

typedef struct mover {
    unsigned slots[8];
    const char *keys[8];   /* one key of each slot */
    int n;
    atomic_int started;    /* the first slot's move has begun */
    atomic_int done;       /* read by the batch loop while the thread runs */
} mover;

static void wait_for_owner(unsigned slot, const char *key, int to)
{
    CHECK(cluster_wait_owner(&cluster, slot, key, to) ||
          !"every node agrees on the slot's new owner within 10 s");
}

static void *move_slots(void *p)
{
    mover *m = p;
    redis_server_sleep_ms(50);   /* lets the batch start first */
    m->started = 1;
    for (int i = 0; i < m->n; i++) {
        int from = cluster_master_of(&cluster, m->slots[i]);
        int to = cluster_master_of(&cluster, (m->slots[i] + 5461) % 16384);
        if (from >= 0 && to >= 0 && from != to) {
            migrate_slot(m->slots[i], from, to, true);
            wait_for_owner(m->slots[i], m->keys[i], to);
        }
    }
    m->done = 1;
    return NULL;
}

/* Runs k's items as one batch while `fault` runs on a thread; returns
 * each item's status (free it) and counts the acknowledged ones. */
static int *batch_under_fault(codec_redis *r, keyset *k, void *(*fault)(void *), void *arg,
                              int *rc, size_t *acked, codec_error *err)
{
    pthread_t t;
    pthread_create(&t, NULL, fault, arg);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    *rc = codec_redis_batch(r, k->items, k->n, &arena, err);
    pthread_join(t, NULL);
    codec_arena_free(&arena);
    int *status = calloc(k->n, sizeof *status);
    *acked = 0;
    for (size_t i = 0; i < k->n; i++) {
        status[i] = k->items[i].status;
        *acked += status[i] == 0;
    }
    return status;
}

/* 100,000 SETs in one batch while a thread migrates 8 of their slots. */
static void test_batch_during_migration(codec_redis *r)
{
    keyset k;
    keyset_init(&k, 100000, "mig", 2);
    keyset_items(&k, CODEC_REDIS_SET);
    mover m = {.n = 8};
    for (int i = 0; i < 8; i++) {
        m.keys[i] = k.key[i * 977];
        m.slots[i] = codec_redis_slot(m.keys[i], strlen(m.keys[i]));
    }
    codec_error err;
    int rc;
    size_t ok;
    int *status = batch_under_fault(r, &k, move_slots, &m, &rc, &ok, &err);
    size_t failed = k.n - ok;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    printf("batch of %zu during the migration of 8 slots: rc %d, %zu failed%s%s\n", k.n, rc,
           failed, rc ? ": " : "", rc ? err.message : "");
    /* MOVED/ASK are followed. An item may still fail when a node is slow to
     * answer while MIGRATE blocks it (a loaded machine): then its status
     * says so, it is retryable, and sending it again after the moves lands
     * it. Nothing acknowledged may be lost. */
    CHECK_INT(check_acknowledged(r, &k, status), ok);
    size_t retried = 0;
    for (size_t i = 0; i < k.n; i++) {
        if (!status[i])
            continue;
        CHECK_INT(status[i], CODEC_E_TRANSIENT);
        k.items[i].status = -1;
        CHECK_INT(codec_redis_batch(r, &k.items[i], 1, &arena, &err), 0);
        retried += k.items[i].status == 0;
    }
    CHECK_INT(retried, failed);
    /* MGET of all of them, in order, after the moves. */
    keyset_items(&k, CODEC_REDIS_GET);
    CHECK_INT(codec_redis_mget(r, k.items, k.n, &arena, &err), 0);
    size_t wrong = 0;
    for (size_t i = 0; i < k.n; i++)
        wrong += k.items[i].status || k.out[i].len != 16 || memcmp(k.out[i].data, k.val[i], 16);
    CHECK_INT(wrong, 0);
    free(status);
    codec_arena_free(&arena);
    keyset_free(&k);
}

/* One key in every one of the 16384 slots (so every master's share is in
 * every batch): the first "all:N" whose slot is still free. */
static void keyset_all_slots(keyset *k, uint32_t round)
{
    keyset_init(k, 16384, "all", round);
    bool *have = calloc(16384, 1);
    size_t filled = 0;
    for (unsigned long t = 0; filled < 16384; t++) {
        char key[24];
        snprintf(key, sizeof key, "all:%lu", t);
        unsigned slot = codec_redis_slot(key, strlen(key));
        if (!have[slot]) {
            have[slot] = true;
            memcpy(k->key[slot], key, sizeof key);
            filled++;
        }
    }
    free(have);
}

/* Batches of GETs and SETs mixed over all 16384 slots, each split by node
 * and pipelined to the three masters at once, run again and again while a
 * thread migrates 8 slots: per-item status in the caller's order, every
 * GET that succeeded read the bytes stored, every SET acknowledged reads
 * back, and a failed item (TRANSIENT only) lands when sent again. */
static void test_mixed_batch_all_slots(codec_redis *r)
{
    keyset k;
    keyset_all_slots(&k, 4);
    codec_error err;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    keyset_items(&k, CODEC_REDIS_SET);
    CHECK_INT(codec_redis_batch(r, k.items, k.n, &arena, &err), 0);
    mover m = {.n = 8};
    for (int i = 0; i < 8; i++) {
        m.slots[i] = (unsigned)(i * 2039 + 11);
        m.keys[i] = k.key[m.slots[i]];
    }
    pthread_t t;
    pthread_create(&t, NULL, move_slots, &m);
    while (!m.started)   /* the first batch goes out once the moves have begun */
        redis_server_sleep_ms(1);
    size_t rounds = 0, during = 0, failed = 0, wrong = 0;
    int *status = calloc(k.n, sizeof *status);
    for (uint32_t round = 5; round < 5 + 40 && (rounds == 0 || !m.done); round++) {
        bool moving = !m.done;
        for (size_t i = 1; i < k.n; i += 2)   /* odd items write this round's value */
            value_of(i, round, k.val[i]);
        keyset_items(&k, CODEC_REDIS_SET);
        for (size_t i = 0; i < k.n; i += 2)
            k.items[i].op = CODEC_REDIS_GET;
        codec_arena_reset(&arena);
        int rc = codec_redis_batch(r, k.items, k.n, &arena, &err);
        CHECK(rc == 0 || rc == CODEC_E_TRANSIENT);
        for (size_t i = 0; i < k.n; i++) {
            status[i] = k.items[i].status;
            if (status[i]) {
                CHECK_INT(status[i], CODEC_E_TRANSIENT);
                failed++;
            } else if (i % 2 == 0) {
                wrong += k.out[i].len != 16 || memcmp(k.out[i].data, k.val[i], 16) != 0;
            }
        }
        /* Read back before the next round overwrites: nothing acknowledged lost. */
        check_acknowledged(r, &k, status);
        for (size_t i = 0; i < k.n; i++) {   /* the failed ones, sent again, land */
            if (!status[i])
                continue;
            k.items[i].status = -1;
            CHECK_INT(codec_redis_batch(r, &k.items[i], 1, &arena, &err), 0);
            if (i % 2 == 0)
                wrong += k.out[i].len != 16 || memcmp(k.out[i].data, k.val[i], 16) != 0;
        }
        rounds++;
        during += moving;
    }
    pthread_join(t, NULL);
    printf("mixed GET/SET batches over all 16384 slots: %zu rounds, %zu of them during the "
           "migration of 8 slots; %zu items failed and landed when sent again\n",
           rounds, during, failed);
    CHECK_INT(wrong, 0);
    CHECK(during > 0);
    CHECK(m.done);
    free(status);
    codec_arena_free(&arena);
    keyset_free(&k);
}

/* A stopped master: a call on its slots times out, never hangs. */
static void test_stopped_node(void)
{
    codec_redis *r = connect_cluster(300, 0);
    codec_error err;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out;
    unsigned slot = codec_redis_slot("stop:1", 6);
    int m = cluster_master_of(&cluster, slot);
    CHECK_INT(codec_redis_get(r, "stop:1", 6, hex, &out, &arena, &err), CODEC_E_NOT_FOUND);
    kill(cluster.node[m].pid, SIGSTOP);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = codec_redis_get(r, "stop:1", 6, hex, &out, &arena, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    kill(cluster.node[m].pid, SIGCONT);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("stopped master: get failed after %.0f ms: %s\n", ms, err.message);
    CHECK_INT(rc, CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "timed out after 300 ms") != NULL);
    CHECK(ms < 1500);   /* generous: one attempt, 300 ms */
    CHECK(cluster_wait_ok(&cluster, 20));
    codec_arena_free(&arena);
    codec_redis_free(r);
}

typedef struct killer {
    int victim;
    long long from, enough;   /* kill once DBSIZE went from `from` up by `enough` */
} killer;

static long long dbsize(int i)
{
    char out[32];
    node_text(i, out, sizeof out, "DBSIZE");
    return atoll(out);
}

/* Kills the victim master once part of its share of the batch is in. */
static void *kill_master(void *p)
{
    killer *k = p;
    for (int spin = 0; spin < 4000 && dbsize(k->victim) - k->from < k->enough; spin++)
        redis_server_sleep_ms(5);
    redis_server_kill(&cluster.node[k->victim]);
    return NULL;
}

/* A master killed mid-batch; its replica is promoted. With WAIT 1, every
 * acknowledged item had reached a replica: none may be lost. */
static void test_failover(void)
{
    codec_redis *r = connect_cluster(2000, 1);
    keyset k;
    keyset_init(&k, 60000, "fo", 3);
    keyset_items(&k, CODEC_REDIS_SET);
    int victim = cluster_master_of(&cluster, codec_redis_slot(k.key[0], strlen(k.key[0])));
    killer kl = {victim, dbsize(victim), (long long)k.n / 12};
    codec_error err;
    int rc;
    size_t ok;
    int *status = batch_under_fault(r, &k, kill_master, &kl, &rc, &ok, &err);
    printf("failover: batch rc %d, %zu of %zu acknowledged (WAIT 1)%s%s\n", rc, ok, k.n,
           rc ? ": " : "", rc ? err.message : "");
    /* Wait until the replica took over (2 s node timeout, then election). */
    unsigned slot = codec_redis_slot(k.key[0], strlen(k.key[0]));
    int promoted = -1;
    for (int i = 0; i < 400 && (promoted < 0 || promoted == victim || !cluster_ok(&cluster));
         i++) {
        redis_server_sleep_ms(100);
        promoted = cluster_master_of(&cluster, slot);
    }
    printf("failover: node %d (was master) replaced by node %d\n", victim, promoted);
    CHECK(promoted >= 0 && promoted != victim);
    size_t acked = check_acknowledged(r, &k, status);
    CHECK_INT(acked, ok);
    /* The handle carries on against the promoted replica, which has no
     * replica left: WAIT 1 cannot be met, and the write is not reported
     * as acknowledged. Without WAIT it is. */
    CHECK_INT(codec_redis_set(r, k.key[0], strlen(k.key[0]), hex, &k.in[0], 0, &err),
              CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "acknowledged by 0 of 1 replicas") != NULL);
    codec_redis *no_wait = connect_cluster(2000, 0);
    CHECK_INT(codec_redis_set(no_wait, k.key[0], strlen(k.key[0]), hex, &k.in[0], 0, &err), 0);
    codec_redis_free(no_wait);
    free(status);
    keyset_free(&k);
    codec_redis_free(r);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    codec_error err;
    hex = codec_parse("hex", NULL, &err);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bool up = redis_cluster_start(&cluster);
    CHECK(up);   /* make test installs redis-server and redis-tools */
    if (!up) {
        codec_free(hex);
        return check_done("test_redis_cluster");
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("cluster of 6 up in %.1f s\n",
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    test_slots();
    codec_redis *r = connect_cluster(2000, 0);
    if (r) {
        test_routing(r);
        test_moved_and_ask(r);
        test_batch_during_migration(r);
        test_mixed_batch_all_slots(r);
    }
    codec_redis_free(r);
    test_stopped_node();
    test_failover();
    redis_cluster_stop(&cluster);
    codec_free(hex);
    return check_done("test_redis_cluster");
}
#endif
