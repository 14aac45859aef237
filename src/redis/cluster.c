/* cluster.c — Redis Cluster: the slot map (CLUSTER SLOTS), one connection
 * per node (an ordinary codec_redis, opened on first use), and the
 * redirects: MOVED updates the map, ASK is followed once with ASKING,
 * TRYAGAIN and CLUSTERDOWN are retried after a bounded backoff. A call is
 * retried only when the cluster said the command was not run (a redirect)
 * or nothing was sent (the node could not be reached); a reply lost after
 * sending stays "outcome unknown", as on one server. */
#include "redis_internal.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Elements a CLUSTER SLOTS reply may hold: 16384 ranges, each with its
 * bounds and a few nodes of 4 fields. */
#define SLOTS_REPLY_ELEMENTS ((size_t)REDIS_SLOTS * 32)

void codec__redis_cluster_backoff(int attempt)
{
    long ms = 10L << (attempt < 5 ? attempt : 5);   /* 10, 20, 40 .. 320 ms */
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int codec__redis_cluster_node(codec_redis *r, size_t i, codec_redis **out, codec_error *err)
{
    redis_node *n = &r->cluster->nodes[i];
    int rc = n->conn ? CODEC_OK : codec__redis_connect_like(r, n->host, n->port, &n->conn, err);
    *out = n->conn;
    if (rc)
        return rc;
    n->conn->owner = r;
    if (r->cluster->near_on && !n->conn->near) {
        codec_error ignored;   /* without it the node is asked every time; retried next use */
        (void)codec__redis_near_attach_node(r, n->conn, &ignored);
    }
    return CODEC_OK;
}

/* The index of host:port, added when new; REDIS_NO_NODE when full. */
static size_t node_index(redis_cluster *c, const char *host, size_t host_len, int port)
{
    for (size_t i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].port == port && strlen(c->nodes[i].host) == host_len &&
            memcmp(c->nodes[i].host, host, host_len) == 0)
            return i;
    if (c->n_nodes == REDIS_CLUSTER_MAX_NODES || host_len >= REDIS_HOST_CAP)
        return REDIS_NO_NODE;
    redis_node *n = &c->nodes[c->n_nodes];
    memcpy(n->host, host, host_len);
    n->host[host_len] = '\0';
    n->port = port;
    n->conn = NULL;
    return c->n_nodes++;
}

/* One entry of CLUSTER SLOTS: [start, end, [ip, port, id...], replicas...].
 * An empty ip means the node that answered. */
static bool apply_range(redis_cluster *c, const redis_reply *e, const redis_node *asked)
{
    if (e->type != REDIS_REPLY_ARRAY || e->elements < 3)
        return false;
    const redis_reply *lo = e->element[0], *hi = e->element[1], *m = e->element[2];
    if (lo->type != REDIS_REPLY_INTEGER || hi->type != REDIS_REPLY_INTEGER ||
        lo->integer < 0 || hi->integer < lo->integer || hi->integer >= REDIS_SLOTS ||
        m->type != REDIS_REPLY_ARRAY || m->elements < 2 ||
        m->element[0]->type != REDIS_REPLY_STRING || m->element[1]->type != REDIS_REPLY_INTEGER ||
        m->element[1]->integer < 1 || m->element[1]->integer > 65535)
        return false;
    const redis_reply *ip = m->element[0];
    size_t ni = ip->len ? node_index(c, ip->str, ip->len, (int)m->element[1]->integer)
                        : node_index(c, asked->host, strlen(asked->host),
                                     (int)m->element[1]->integer);
    if (ni == REDIS_NO_NODE)
        return false;
    memset(c->slot_node + lo->integer, (int)ni, (size_t)(hi->integer - lo->integer + 1));
    return true;
}

/* Asks node i for the slot map and installs it. */
static int refresh_from(codec_redis *r, size_t i, codec_error *err)
{
    redis_cluster *c = r->cluster;
    codec_redis *node;
    int rc = codec__redis_cluster_node(r, i, &node, err);
    if (rc || (rc = codec__redis_ready(node, err)))
        return rc;
    redis_reply *reply;
    rc = codec__redis_command(node, "CLUSTER SLOTS", NULL, SLOTS_REPLY_ELEMENTS, &reply, err,
                              "CLUSTER SLOTS");
    if (rc)
        return rc;
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_command_error(reply, "CLUSTER SLOTS", err);
    if (reply->type != REDIS_REPLY_ARRAY || reply->elements == 0)
        return codec__redis_reply_unexpected(reply, "CLUSTER SLOTS", err);
    redis_node asked = c->nodes[i];   /* node_index may move nothing, but copy the name */
    uint8_t before[REDIS_SLOTS];
    memcpy(before, c->slot_node, sizeof before);
    memset(c->slot_node, REDIS_NO_NODE, sizeof c->slot_node);
    for (size_t k = 0; k < reply->elements; k++) {
        if (!apply_range(c, reply->element[k], &asked)) {
            memcpy(c->slot_node, before, sizeof before);
            return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_CORRUPT, "redis",
                                   CODEC_NO_OFFSET,
                                   "CLUSTER SLOTS on %s:%d: entry %zu is not [start, end, "
                                   "[ip, port, ...], ...]", asked.host, asked.port, k);
        }
    }
    if (memcmp(before, c->slot_node, sizeof before) != 0)
        codec__redis_near_topology_changed(r);
    c->stale = false;
    return CODEC_OK;
}

/* Learns the map from the first node that answers, starting after the one
 * that failed last (so a dead node is not asked first every time). */
static int refresh(codec_redis *r, codec_error *err)
{
    redis_cluster *c = r->cluster;
    int rc = CODEC_E_TRANSIENT;
    for (size_t k = 0; k < c->n_nodes; k++) {
        size_t i = (c->refresh_from + k) % c->n_nodes;
        if (!(rc = refresh_from(r, i, err))) {
            c->refresh_from = i;
            return CODEC_OK;
        }
    }
    c->refresh_from = (c->refresh_from + 1) % (c->n_nodes ? c->n_nodes : 1);
    return rc;
}

size_t codec__redis_cluster_route(codec_redis *r, unsigned slot, codec_error *err)
{
    redis_cluster *c = r->cluster;
    if ((c->stale || c->slot_node[slot] == REDIS_NO_NODE) && refresh(r, err))
        return REDIS_NO_NODE;
    if (c->slot_node[slot] == REDIS_NO_NODE)
        codec_error_set(err, CODEC_E_TRANSIENT, 0, "redis", CODEC_NO_OFFSET,
                        "slot %u is served by no node (CLUSTERDOWN)", slot);
    return c->slot_node[slot];
}

size_t codec__redis_cluster_follow(codec_redis *r, const redis_redirect *rd)
{
    redis_cluster *c = r->cluster;
    size_t ni = node_index(c, rd->host, strlen(rd->host), rd->port);
    if (rd->kind == REDIS_MOVED && ni != REDIS_NO_NODE) {
        if (c->slot_node[rd->slot] != ni)
            codec__redis_near_topology_changed(r);   /* the slot's keys are elsewhere now */
        c->slot_node[rd->slot] = (uint8_t)ni;
        c->stale = true;   /* one slot moved: others probably did too */
    }
    return ni;
}

/* "MOVED 3999 127.0.0.1:6381" / "ASK ..." after the prefix. */
static bool parse_target(const char *s, redis_redirect *out)
{
    char *end;
    unsigned long slot = strtoul(s, &end, 10);
    if (end == s || *end != ' ' || slot >= REDIS_SLOTS)
        return false;
    const char *host = end + 1, *colon = strrchr(host, ':');
    if (!colon || (size_t)(colon - host) >= sizeof out->host)
        return false;
    long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || port < 1 || port > 65535)
        return false;
    memcpy(out->host, host, (size_t)(colon - host));
    out->host[colon - host] = '\0';
    out->slot = (unsigned)slot;
    out->port = (int)port;
    return true;
}

redis_redirect_kind codec__redis_redirect_of(int rc, const codec_error *e, redis_redirect *out)
{
    out->kind = REDIS_NOT_REDIRECTED;
    if (rc != CODEC_E_TRANSIENT || e->detail != 0)
        return out->kind;   /* not an error reply */
    /* An error reply is quoted after "key '...': " (a quote in a key is
     * always escaped, so the first "': " ends the label) or "WHAT: ". */
    const char *text = strstr(e->message, "': ");
    text = text ? text + 3 : strstr(e->message, ": ");
    if (!text)
        return out->kind;
    text += text[0] == ':' ? 2 : 0;
    if (strncmp(text, "MOVED ", 6) == 0 && parse_target(text + 6, out))
        out->kind = REDIS_MOVED;
    else if (strncmp(text, "ASK ", 4) == 0 && parse_target(text + 4, out))
        out->kind = REDIS_ASK;
    else if (strncmp(text, "TRYAGAIN", 8) == 0 || strncmp(text, "CLUSTERDOWN", 11) == 0)
        out->kind = REDIS_TRYAGAIN;
    return out->kind;
}

/* ---------------------------------------------------------------------------
 * One key: route, call the node, follow what the cluster says
 * ------------------------------------------------------------------------ */

typedef int (*node_call)(codec_redis *node, void *args, codec_error *err);

static int call_routed(codec_redis *r, const char *key, size_t key_len, node_call fn,
                       void *args, codec_error *err)
{
    redis_cluster *c = r->cluster;
    unsigned slot = codec_redis_slot(key, key_len);
    size_t ask = REDIS_NO_NODE;
    int rc = CODEC_E_TRANSIENT;
    for (int attempt = 0; attempt < REDIS_CLUSTER_ATTEMPTS; attempt++) {
        size_t ni = ask != REDIS_NO_NODE ? ask : codec__redis_cluster_route(r, slot, err);
        codec_redis *node = NULL;
        if (ni == REDIS_NO_NODE || (rc = codec__redis_cluster_node(r, ni, &node, err))) {
            rc = CODEC_E_TRANSIENT;   /* nothing was sent: relearn the map, retry */
            c->stale = true;
            codec__redis_cluster_backoff(attempt);
            continue;
        }
        node->asking = ask != REDIS_NO_NODE;
        rc = fn(node, args, err);
        node->asking = false;
        ask = REDIS_NO_NODE;
        redis_redirect rd;
        switch (rc ? codec__redis_redirect_of(rc, err, &rd) : REDIS_NOT_REDIRECTED) {
        case REDIS_MOVED:
            codec__redis_cluster_follow(r, &rd);
            /* Nodes learn a slot's new owner at their own pace and can send
             * a client back and forth meanwhile: from the third attempt
             * on, give them time to agree. */
            if (attempt >= 2)
                codec__redis_cluster_backoff(attempt - 2);
            break;
        case REDIS_ASK:
            ask = codec__redis_cluster_follow(r, &rd);
            break;
        case REDIS_TRYAGAIN:
            c->stale = true;
            codec__redis_cluster_backoff(attempt);
            break;
        default:
            if (rc && node->not_sent) {   /* the node is down: relearn, retry */
                c->stale = true;
                codec__redis_cluster_backoff(attempt);
                break;
            }
            if (rc == CODEC_E_TRANSIENT && !node->ctx)
                c->stale = true;          /* lost mid-call: relearn before the next */
            return rc;
        }
    }
    return rc;
}

typedef struct one_key {
    const char *key;
    size_t key_len;
    const codec *c;
    const void *value;
    void *value_out;
    codec_arena *arena;
    int64_t ttl_ms;
    int *removed;
    codec_redis_item *fields;
    size_t n;
    codec_redis_item *items;
} one_key;

static int node_set(codec_redis *node, void *p, codec_error *err)
{
    one_key *a = p;
    return codec_redis_set(node, a->key, a->key_len, a->c, a->value, a->ttl_ms, err);
}

static int node_get(codec_redis *node, void *p, codec_error *err)
{
    one_key *a = p;
    return codec_redis_get(node, a->key, a->key_len, a->c, a->value_out, a->arena, err);
}

static int node_del(codec_redis *node, void *p, codec_error *err)
{
    one_key *a = p;
    return codec_redis_del(node, a->key, a->key_len, a->removed, err);
}

static int node_hset(codec_redis *node, void *p, codec_error *err)
{
    one_key *a = p;
    return codec_redis_hset(node, a->key, a->key_len, a->fields, a->n, a->ttl_ms, err);
}

static int node_hget(codec_redis *node, void *p, codec_error *err)
{
    one_key *a = p;
    return codec_redis_hget(node, a->key, a->key_len, a->fields, a->n, a->arena, err);
}

static int node_mset(codec_redis *node, void *p, codec_error *err)
{
    one_key *a = p;
    return codec_redis_mset(node, a->items, a->n, err);
}

int codec__redis_cluster_set(codec_redis *r, const char *key, size_t key_len, const codec *c,
                             const void *value, int64_t ttl_ms, codec_error *err)
{
    one_key a = {.key = key, .key_len = key_len, .c = c, .value = value, .ttl_ms = ttl_ms};
    return call_routed(r, key, key_len, node_set, &a, err);
}

int codec__redis_cluster_get(codec_redis *r, const char *key, size_t key_len, const codec *c,
                             void *value_out, codec_arena *arena, codec_error *err)
{
    one_key a = {.key = key, .key_len = key_len, .c = c, .value_out = value_out,
                 .arena = arena};
    return call_routed(r, key, key_len, node_get, &a, err);
}

int codec__redis_cluster_del(codec_redis *r, const char *key, size_t key_len, int *removed,
                             codec_error *err)
{
    one_key a = {.key = key, .key_len = key_len, .removed = removed};
    return call_routed(r, key, key_len, node_del, &a, err);
}

int codec__redis_cluster_hset(codec_redis *r, const char *key, size_t key_len,
                              codec_redis_item *fields, size_t n, int64_t ttl_ms, codec_error *err)
{
    one_key a = {.key = key, .key_len = key_len, .fields = fields, .n = n, .ttl_ms = ttl_ms};
    return call_routed(r, key, key_len, node_hset, &a, err);
}

int codec__redis_cluster_hget(codec_redis *r, const char *key, size_t key_len,
                              codec_redis_item *fields, size_t n, codec_arena *arena,
                              codec_error *err)
{
    one_key a = {.key = key, .key_len = key_len, .fields = fields, .n = n, .arena = arena};
    return call_routed(r, key, key_len, node_hget, &a, err);
}

int codec__redis_cluster_mset(codec_redis *r, codec_redis_item *items, size_t n, codec_error *err)
{
    unsigned slot = codec_redis_slot(items[0].key, items[0].key_len);
    for (size_t i = 1; i < n; i++) {
        if (codec_redis_slot(items[i].key, items[i].key_len) != slot)
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "redis",
                                   CODEC_NO_OFFSET,
                                   "MSET on a cluster: items 0 and %zu are in slots %u and %u; "
                                   "a write across slots cannot be atomic (nothing was sent): "
                                   "give the keys one {tag}, or use codec_redis_batch for "
                                   "per-item writes", i, slot,
                                   codec_redis_slot(items[i].key, items[i].key_len));
    }
    one_key a = {.items = items, .n = n};
    return call_routed(r, items[0].key, items[0].key_len, node_mset, &a, err);
}

/* ---------------------------------------------------------------------------
 * The handle
 * ------------------------------------------------------------------------ */

int codec__redis_cluster_open(codec_redis *r, const char *url, codec_error *err)
{
    redis_cluster *c = r->alloc->alloc(r->alloc->ctx, sizeof *c);
    if (!c)
        return codec__nomem(err, "redis");
    memset(c, 0, sizeof *c);
    memset(c->slot_node, REDIS_NO_NODE, sizeof c->slot_node);
    r->cluster = c;
    int rc = codec__redis_parse_cluster_url(url, r, c, err);
    if (rc)
        return rc;
    snprintf(r->host, sizeof r->host, "%s", c->nodes[0].host);
    r->port = c->nodes[0].port;
    return refresh(r, err);
}

void codec__redis_cluster_free(codec_redis *r)
{
    redis_cluster *c = r->cluster;
    if (!c)
        return;
    for (size_t i = 0; i < c->n_nodes; i++)
        codec_redis_free(c->nodes[i].conn);
    r->alloc->release(r->alloc->ctx, c, sizeof *c);
    r->cluster = NULL;
}
