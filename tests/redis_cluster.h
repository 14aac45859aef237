/* redis_cluster.h — tests run their own Redis Cluster: six redis-server
 * processes on 127.0.0.1 (cluster-enabled, each in a mkdtemp directory,
 * on free ports whose cluster-bus port, +10000, is free too), joined by
 * `redis-cli --cluster create --cluster-replicas 1`: three masters, each
 * with one replica. Every process dies with the test (PR_SET_PDEATHSIG);
 * redis_cluster_stop() removes the directories. Include redis_server.h
 * first.
 *
 *   redis_cluster k;
 *   if (!redis_cluster_start(&k)) -> skip
 *   ... redis-cluster://127.0.0.1:k.node[0].port ...
 *   redis_cluster_stop(&k);
 */
#ifndef CODEC_TEST_REDIS_CLUSTER_H
#define CODEC_TEST_REDIS_CLUSTER_H

#include "redis_server.h"

#include <stdarg.h>

#define REDIS_CLI_PATH "/usr/bin/redis-cli"
#define CLUSTER_NODES 6

typedef struct redis_cluster {
    redis_server node[CLUSTER_NODES];
} redis_cluster;

static inline bool cluster_port_free(int port)
{
    for (int p = port; p <= port + 10000; p += 10000) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons((uint16_t)p);
        bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0;
        if (fd >= 0)
            close(fd);
        if (!ok)
            return false;
    }
    return true;
}

/* Starts node s (s->dir and s->port set) with cluster mode on; a failed
 * master's replica takes over after 2 s. */
static inline bool cluster_spawn(redis_server *s)
{
    static const char *const cluster_args[] = {
        "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
        "--cluster-node-timeout", "2000", "--cluster-replica-validity-factor", "0", NULL};
    s->extra = cluster_args;
    return redis_server_spawn(s);
}

/* One line of `redis-cli -p PORT ARGS...` output (first line), or "". */
static inline bool cluster_cli(int port, const char *args, char *out, size_t cap)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, REDIS_CLI_PATH " -h 127.0.0.1 -p %d %s 2>&1", port, args);
    FILE *f = popen(cmd, "r");
    if (!f)
        return false;
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    return pclose(f) == 0;
}

/* True once every running node says cluster_state:ok and agrees on 3
 * masters covering all slots. */
static inline bool cluster_ok(const redis_cluster *k)
{
    char out[4096];
    for (int i = 0; i < CLUSTER_NODES; i++) {
        if (k->node[i].pid <= 0)
            continue;
        if (!cluster_cli(k->node[i].port, "CLUSTER INFO", out, sizeof out) ||
            !strstr(out, "cluster_state:ok") || !strstr(out, "cluster_slots_ok:16384"))
            return false;
    }
    return true;
}

static inline bool cluster_wait_ok(const redis_cluster *k, int seconds)
{
    for (int i = 0; i < seconds * 10; i++) {
        if (cluster_ok(k))
            return true;
        redis_server_sleep_ms(100);
    }
    return false;
}

static inline void redis_cluster_stop(redis_cluster *k)
{
    for (int i = 0; i < CLUSTER_NODES; i++)
        redis_server_stop(&k->node[i]);
}

static inline bool redis_cluster_start(redis_cluster *k)
{
    memset(k, 0, sizeof *k);
    if (access(REDIS_SERVER_PATH, X_OK) || access(REDIS_CLI_PATH, X_OK)) {
        printf("note: no redis-server or redis-cli: skipping the cluster tests\n");
        return false;
    }
    srand((unsigned)getpid());
    char create[1024] = "--cluster create";
    for (int i = 0; i < CLUSTER_NODES; i++) {
        redis_server *s = &k->node[i];
        snprintf(s->dir, sizeof s->dir, "/tmp/codec-cluster-XXXXXX");
        if (!mkdtemp(s->dir)) {
            s->dir[0] = '\0';
            redis_cluster_stop(k);
            return false;
        }
        bool up = false;
        for (int attempt = 0; attempt < 20 && !up; attempt++) {
            s->port = 20000 + rand() % 10000;
            up = cluster_port_free(s->port) && cluster_spawn(s);
            if (!up && s->pid > 0)
                redis_server_kill(s);
        }
        if (!up) {
            printf("note: cluster node %d did not start (see %s/server.log)\n", i, s->dir);
            redis_cluster_stop(k);
            return false;
        }
        size_t len = strlen(create);
        snprintf(create + len, sizeof create - len, " 127.0.0.1:%d", s->port);
    }
    strncat(create, " --cluster-replicas 1 --cluster-yes", sizeof create - strlen(create) - 1);
    char out[8192];
    if (!cluster_cli(k->node[0].port, create, out, sizeof out) || !cluster_wait_ok(k, 30)) {
        printf("note: the cluster did not form:\n%s\n", out);
        redis_cluster_stop(k);
        return false;
    }
    return true;
}

/* The node index (into k->node) of the master serving `slot`. */
static inline int cluster_master_of(const redis_cluster *k, unsigned slot)
{
    for (int i = 0; i < CLUSTER_NODES; i++) {
        if (k->node[i].pid <= 0)
            continue;
        struct timeval tv = {1, 0};
        redisContext *c = redisConnectWithTimeout("127.0.0.1", k->node[i].port, tv);
        int found = -1;
        if (c && !c->err) {
            redisSetTimeout(c, tv);
            redisReply *r = redisCommand(c, "CLUSTER SLOTS");
            for (size_t e = 0; r && r->type == REDIS_REPLY_ARRAY && e < r->elements; e++) {
                redisReply *x = r->element[e];
                if ((unsigned)x->element[0]->integer <= slot &&
                    slot <= (unsigned)x->element[1]->integer)
                    for (int j = 0; j < CLUSTER_NODES; j++)
                        if (k->node[j].port == (int)x->element[2]->element[1]->integer)
                            found = j;
            }
            freeReplyObject(r);
        }
        redisFree(c);
        if (found >= 0)
            return found;
    }
    return -1;
}

/* A connection to node i (2 s timeouts), or NULL. */
static inline redisContext *cluster_node_connect(const redis_cluster *k, int i)
{
    struct timeval tv = {2, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", k->node[i].port, tv);
    if (!c || c->err) {
        redisFree(c);
        return NULL;
    }
    redisSetTimeout(c, tv);
    return c;
}

/* Node i's one-line reply to a command, as text ("" on failure). */
static inline void cluster_node_text(const redis_cluster *k, int i, char *out, size_t cap,
                                     const char *fmt, ...)
{
    redisContext *c = cluster_node_connect(k, i);
    out[0] = '\0';
    if (!c)
        return;
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = redisvCommand(c, fmt, ap);
    va_end(ap);
    if (r && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS ||
              r->type == REDIS_REPLY_ERROR))
        snprintf(out, cap, "%s", r->str);
    else if (r && r->type == REDIS_REPLY_INTEGER)
        snprintf(out, cap, "%lld", r->integer);
    freeReplyObject(r);
    redisFree(c);
}

/* Moves `slot` from master `from` to master `to` key by key, as
 * redis-cli --cluster reshard does: IMPORTING, MIGRATING, MIGRATE, then
 * (when `finish`) SETSLOT NODE on every node. Without `finish` the slot is
 * left half migrated (for ASK). False when a step was refused. */
static inline bool cluster_migrate_slot(const redis_cluster *k, unsigned slot, int from, int to,
                                        bool finish)
{
    char id_from[64], id_to[64], out[256];
    bool ok = true;
    cluster_node_text(k, from, id_from, sizeof id_from, "CLUSTER MYID");
    cluster_node_text(k, to, id_to, sizeof id_to, "CLUSTER MYID");
    cluster_node_text(k, to, out, sizeof out, "CLUSTER SETSLOT %u IMPORTING %s", slot, id_from);
    ok &= strcmp(out, "OK") == 0;
    cluster_node_text(k, from, out, sizeof out, "CLUSTER SETSLOT %u MIGRATING %s", slot, id_to);
    ok &= strcmp(out, "OK") == 0;
    redisContext *c = cluster_node_connect(k, from);
    for (bool more = c != NULL; more;) {
        redisReply *keys = redisCommand(c, "CLUSTER GETKEYSINSLOT %u 100", slot);
        size_t n = keys && keys->type == REDIS_REPLY_ARRAY ? keys->elements : 0;
        for (size_t i = 0; i < n; i++) {
            redisReply *m = redisCommand(c, "MIGRATE 127.0.0.1 %d %b 0 5000", k->node[to].port,
                                         keys->element[i]->str, keys->element[i]->len);
            ok &= m && m->type == REDIS_REPLY_STATUS;
            freeReplyObject(m);
        }
        freeReplyObject(keys);
        more = n > 0;
    }
    redisFree(c);
    if (!finish)
        return ok && c;
    for (int i = 0; i < CLUSTER_NODES; i++)
        if (k->node[i].pid > 0)
            cluster_node_text(k, i, out, sizeof out, "CLUSTER SETSLOT %u NODE %s", slot, id_to);
    return ok && c;
}

/* Waits (up to 10 s) until every running node sends `key` (of `slot`) to
 * node `to`: `to` answers it, every other node redirects there. Nodes learn
 * a slot's new owner at their own pace; a client meanwhile can be sent
 * back and forth, so a test reads back only once the cluster agrees. */
static inline bool cluster_wait_owner(const redis_cluster *k, unsigned slot, const char *key,
                                      int to)
{
    char want[64];
    snprintf(want, sizeof want, "MOVED %u 127.0.0.1:%d", slot, k->node[to].port);
    for (int tries = 0; tries < 200; tries++) {
        bool agreed = true;
        for (int i = 0; i < CLUSTER_NODES && agreed; i++) {
            if (k->node[i].pid <= 0)
                continue;
            redisContext *c = cluster_node_connect(k, i);
            redisReply *r = c ? redisCommand(c, "GET %s", key) : NULL;
            bool error = r && r->type == REDIS_REPLY_ERROR;
            agreed = r && (i == to ? !error : error && !strcmp(r->str, want));
            if (r)
                freeReplyObject(r);
            if (c)
                redisFree(c);
        }
        if (agreed)
            return true;
        redis_server_sleep_ms(50);
    }
    return false;
}

#endif
