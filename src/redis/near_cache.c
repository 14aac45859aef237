/* near_cache.c — values read by codec_redis_get kept in process (LRU by
 * entries and bytes, optional TTL), kept correct by Redis's server-assisted
 * client-side caching: CLIENT TRACKING with REDIRECT to a second
 * connection subscribed to __redis__:invalidate. REDIRECT rather than
 * BCAST: it works with RESP2 (Debian's hiredis 0.14 has no RESP3) and the
 * server only reports keys this handle actually read, where BCAST reports
 * every write under a prefix. No thread: every get first drains the
 * invalidation connection (without waiting) and drops what it names; when
 * that connection is lost, or the data connection was re-opened (its
 * tracking is gone), the cache is emptied before anything is served, and
 * tracking is set up again. A connection can also die without closing (a
 * stopped or cut-off server): a hit is served only when the invalidation
 * connection proved itself alive at most NEAR_VOUCH_MS before (tracking
 * set up, or a PING on it answered; PING's answer comes after every
 * invalidation the server queued before it), else it is PINGed first.
 *
 * On a cluster handle every node's connection has its own near cache and
 * its own invalidation connection (REDIRECT works per node: the server
 * that holds the key reports its changes). A change of the slot map (a
 * refresh that differs, a MOVED) or any node losing its tracking empties
 * every node's cache (codec__redis_near_topology_changed). */
#include "redis_internal.h"
#include "core/error_internal.h"

#include <poll.h>
#include <string.h>
#include <time.h>

#define NEAR_DEFAULT_ENTRIES 10000
#define NEAR_DEFAULT_BYTES ((size_t)64 << 20)
#define NEAR_ENTRY_OVERHEAD 64
/* Keys one invalidation message may name. */
#define NEAR_MAX_KEYS 65536
/* A hit needs the invalidation connection to have proved itself alive at
 * most this long before (else it is PINGed first). */
#define NEAR_VOUCH_MS 1000

typedef struct near_entry {
    struct near_entry *hnext;           /* bucket chain */
    struct near_entry *prev, *next;     /* LRU: head is the most recent */
    uint64_t hash;
    int64_t expires_ms;                 /* 0 = never */
    size_t key_len, val_len;
    char data[];                        /* key, then value */
} near_entry;

struct redis_near {
    size_t max_entries, max_bytes;
    uint32_t ttl_ms;
    near_entry **table;
    size_t buckets;                     /* a power of two */
    near_entry *head, *tail;
    size_t entries, bytes;
    codec_redis *inv;                   /* the invalidation connection */
    uint64_t inv_generation;            /* inv->generation it was subscribed on */
    char inv_id[24];                    /* its CLIENT ID */
    bool tracking;                      /* invalidations are flowing */
    uint64_t tracking_generation;       /* r->generation tracking was set up on */
    int64_t vouched_ms;                 /* every invalidation sent before this has arrived */
    codec_redis_near_stats stats;
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t hash_key(const char *k, size_t n)
{
    uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * 0x100000001b3u;
    return h;
}

static size_t entry_size(const near_entry *e)
{
    return sizeof *e + e->key_len + e->val_len;
}

static near_entry **bucket_of(struct redis_near *nc, uint64_t h)
{
    return &nc->table[h & (nc->buckets - 1)];
}

static near_entry *find(struct redis_near *nc, const char *key, size_t key_len, uint64_t h)
{
    for (near_entry *e = *bucket_of(nc, h); e; e = e->hnext)
        if (e->hash == h && e->key_len == key_len && memcmp(e->data, key, key_len) == 0)
            return e;
    return NULL;
}

static void lru_unlink(struct redis_near *nc, near_entry *e)
{
    *(e->prev ? &e->prev->next : &nc->head) = e->next;
    *(e->next ? &e->next->prev : &nc->tail) = e->prev;
}

static void lru_push(struct redis_near *nc, near_entry *e)
{
    e->prev = NULL;
    e->next = nc->head;
    *(nc->head ? &nc->head->prev : &nc->tail) = e;
    nc->head = e;
}

static void drop(codec_redis *r, near_entry *e)
{
    struct redis_near *nc = r->near;
    near_entry **p = bucket_of(nc, e->hash);
    while (*p != e)
        p = &(*p)->hnext;
    *p = e->hnext;
    lru_unlink(nc, e);
    nc->entries--;
    nc->bytes -= e->key_len + e->val_len + NEAR_ENTRY_OVERHEAD;
    r->alloc->release(r->alloc->ctx, e, entry_size(e));
}

static void flush(codec_redis *r)
{
    struct redis_near *nc = r->near;
    if (nc->entries)
        nc->stats.invalidations += nc->entries;
    while (nc->head)
        drop(r, nc->head);
    nc->stats.flushes++;
}

void codec__redis_near_forget(codec_redis *r, const char *key, size_t key_len)
{
    near_entry *e = find(r->near, key, key_len, hash_key(key, key_len));
    if (e)
        drop(r, e);
}

void codec__redis_near_forget_writes(codec_redis *r, const codec_redis_item *items, size_t n,
                                     bool all_write)
{
    for (size_t i = 0; r->near && i < n; i++)
        if (all_write || items[i].op != CODEC_REDIS_GET)
            codec__redis_near_forget(r, items[i].key ? items[i].key : "", items[i].key_len);
}

/* One message from __redis__:invalidate: the keys, or nil for all. */
static void apply_invalidation(codec_redis *r, const redis_reply *m)
{
    if (m->type != REDIS_REPLY_ARRAY || m->elements != 3 ||
        m->element[0]->type != REDIS_REPLY_STRING || strcmp(m->element[0]->str, "message"))
        return;   /* a subscribe confirmation, or anything else: not an invalidation */
    const redis_reply *keys = m->element[2];
    if (keys->type != REDIS_REPLY_ARRAY) {
        flush(r);
        return;
    }
    for (size_t i = 0; i < keys->elements; i++) {
        const redis_reply *k = keys->element[i];
        if (k->type != REDIS_REPLY_STRING)
            continue;
        r->near->stats.invalidations++;
        codec__redis_near_forget(r, k->str, k->len);
    }
}

/* Tracking is lost: empty the cache, serve nothing until it is back. On a
 * cluster node, every other node's cache is emptied too: a lost
 * connection is how a failover usually shows. */
static void lose_tracking(codec_redis *r)
{
    struct redis_near *nc = r->near;
    bool was = nc->tracking;
    if (nc->tracking || nc->entries)
        flush(r);
    nc->tracking = false;
    nc->vouched_ms = 0;
    if (was && r->owner)
        codec__redis_near_topology_changed(r->owner);
}

void codec__redis_near_topology_changed(codec_redis *handle)
{
    redis_cluster *c = handle->cluster;
    for (size_t i = 0; c && i < c->n_nodes; i++) {
        codec_redis *node = c->nodes[i].conn;
        if (node && node->near && node->near->entries)
            flush(node);
    }
}

/* One setup command on connection c, expecting a reply of `type`. */
static int setup(codec_redis *c, const char *what, int type, redis_reply **out,
                 codec_error *err, const char *fmt, const char *arg)
{
    int rc = codec__redis_command(c, what, NULL, REDIS_SMALL_REPLY, out, err, fmt, arg);
    if (rc)
        return rc;
    if ((*out)->type == REDIS_REPLY_ERROR)
        return codec_error_set(err, CODEC_E_UNSUPPORTED, 0, "redis", CODEC_NO_OFFSET,
                               "near cache: %s: %.*s", what, (int)(*out)->len, (*out)->str);
    if ((*out)->type != type)
        return codec__redis_reply_unexpected(*out, what, err);
    return CODEC_OK;
}

/* Connects the invalidation connection, subscribes it, and points the data
 * connection's tracking at it. */
static int start_tracking(codec_redis *r, codec_error *err)
{
    struct redis_near *nc = r->near;
    codec_redis *inv = nc->inv;
    redis_reply *reply;
    int rc = codec__redis_ready(inv, err);
    if (!rc && (!nc->inv_id[0] || inv->generation != nc->inv_generation)) {
        nc->inv_id[0] = '\0';   /* a new connection: a new id, subscribe again */
        rc = setup(inv, "CLIENT ID", REDIS_REPLY_INTEGER, &reply, err, "CLIENT ID%s", "");
        if (!rc)
            snprintf(nc->inv_id, sizeof nc->inv_id, "%lld", reply->integer);
        if (!rc)
            rc = setup(inv, "SUBSCRIBE", REDIS_REPLY_ARRAY, &reply, err, "SUBSCRIBE %s",
                       "__redis__:invalidate");
        if (rc) {
            nc->inv_id[0] = '\0';
            return rc;
        }
        nc->inv_generation = inv->generation;
    }
    if (rc ||
        (rc = setup(r, "CLIENT TRACKING", REDIS_REPLY_STATUS, &reply, err,
                    "CLIENT TRACKING off%s", "")) ||
        (rc = setup(r, "CLIENT TRACKING", REDIS_REPLY_STATUS, &reply, err,
                    "CLIENT TRACKING on REDIRECT %s", nc->inv_id)))
        return rc;
    nc->tracking = true;
    nc->tracking_generation = r->generation;
    nc->vouched_ms = now_ms();   /* SUBSCRIBE was answered: the connection is alive */
    return CODEC_OK;
}

/* Reads every invalidation already on its way, without waiting for more. */
static void drain(codec_redis *r)
{
    struct redis_near *nc = r->near;
    codec_redis *inv = nc->inv;
    for (;;) {
        if (!inv->ctx) {
            lose_tracking(r);
            return;
        }
        struct pollfd p = {inv->ctx->fd, POLLIN, 0};
        if (inv->in_pos == inv->in_len && poll(&p, 1, 0) <= 0)
            return;
        redis_reply *m;
        codec_error e;
        codec__redis_begin(inv);
        if (codec__redis_read(inv, "near cache invalidations", NULL, NEAR_MAX_KEYS, &m, &e)) {
            lose_tracking(r);   /* closed, reset or garbage: nothing can be vouched for */
            return;
        }
        apply_invalidation(r, m);
    }
}

/* Before a get: the data connection is up, tracking is on and every
 * invalidation that arrived has been applied. On failure the cache is
 * empty and not tracking (the get then goes to the server). */
static void sync_tracking(codec_redis *r)
{
    struct redis_near *nc = r->near;
    if (nc->tracking && nc->tracking_generation == r->generation && nc->inv->ctx) {
        drain(r);
        if (nc->tracking)
            return;
    }
    codec_error e;
    lose_tracking(r);
    if (!codec__redis_ready(r, &e) && !start_tracking(r, &e))
        drain(r);
}

static bool is_pong(const redis_reply *m)
{
    return m->type == REDIS_REPLY_ARRAY && m->elements >= 1 &&
           m->element[0]->type == REDIS_REPLY_STRING && strcmp(m->element[0]->str, "pong") == 0;
}

/* PINGs the invalidation connection and applies every invalidation that
 * comes before the answer, within the command timeout. False (tracking
 * lost, cache emptied) when it does not answer. */
static bool vouch(codec_redis *r)
{
    struct redis_near *nc = r->near;
    codec_redis *inv = nc->inv;
    int64_t sent = now_ms();
    codec_error e;
    codec__redis_begin(inv);
    if (redisAppendCommand(inv->ctx, "PING") != REDIS_OK ||
        codec__redis_send(inv, "near cache PING", &e)) {
        codec__redis_drop(inv);
        lose_tracking(r);
        return false;
    }
    for (;;) {
        redis_reply *m;
        if (codec__redis_read(inv, "near cache PING", NULL, NEAR_MAX_KEYS, &m, &e)) {
            lose_tracking(r);   /* timed out, closed or garbage */
            return false;
        }
        if (is_pong(m)) {
            nc->vouched_ms = sent;
            return true;
        }
        apply_invalidation(r, m);
    }
}

bool codec__redis_near_lookup(codec_redis *r, const redis_subject *s, const codec *c,
                              void *value_out, codec_arena *arena, int *rc, codec_error *err)
{
    struct redis_near *nc = r->near;
    sync_tracking(r);
    if (!nc->tracking) {
        nc->stats.misses++;
        return false;
    }
    near_entry *e = find(nc, s->key, s->key_len, hash_key(s->key, s->key_len));
    if (e && e->expires_ms && now_ms() >= e->expires_ms) {
        nc->stats.evictions++;
        drop(r, e);
        e = NULL;
    }
    if (e && now_ms() - nc->vouched_ms > NEAR_VOUCH_MS)   /* is anyone still telling? */
        e = vouch(r) ? find(nc, s->key, s->key_len, hash_key(s->key, s->key_len)) : NULL;
    if (!e) {
        nc->stats.misses++;
        return false;
    }
    nc->stats.hits++;
    lru_unlink(nc, e);
    lru_push(nc, e);
    uint8_t *copy = codec_arena_alloc(arena, e->val_len + 1, 1);   /* lives with the value */
    if (!copy) {
        *rc = codec__nomem(err, "redis");
        return true;
    }
    memcpy(copy, e->data + e->key_len, e->val_len);
    *rc = codec_decode(c, copy, e->val_len, value_out, arena, err);
    if (*rc)
        codec__redis_name_subject(*rc, s, err);
    return true;
}

void codec__redis_near_store(codec_redis *r, const char *key, size_t key_len, const char *value,
                             size_t len)
{
    struct redis_near *nc = r->near;
    size_t cost = key_len + len + NEAR_ENTRY_OVERHEAD;
    if (!nc->tracking || nc->tracking_generation != r->generation || !nc->inv->ctx ||
        cost > nc->max_bytes)
        return;   /* not vouched for, or too big to keep */
    uint64_t h = hash_key(key, key_len);
    near_entry *old = find(nc, key, key_len, h);
    if (old)
        drop(r, old);
    while (nc->tail && (nc->entries + 1 > nc->max_entries || nc->bytes + cost > nc->max_bytes)) {
        nc->stats.evictions++;
        drop(r, nc->tail);
    }
    near_entry *e = r->alloc->alloc(r->alloc->ctx, sizeof *e + key_len + len);
    if (!e)
        return;
    e->hash = h;
    e->key_len = key_len;
    e->val_len = len;
    e->expires_ms = nc->ttl_ms ? now_ms() + nc->ttl_ms : 0;
    memcpy(e->data, key, key_len);
    memcpy(e->data + key_len, value, len);
    near_entry **b = bucket_of(nc, h);
    e->hnext = *b;
    *b = e;
    lru_push(nc, e);
    nc->entries++;
    nc->bytes += cost;
}

void codec__redis_near_free(codec_redis *r)
{
    struct redis_near *nc = r->near;
    if (!nc)
        return;
    while (nc->head)
        drop(r, nc->head);
    codec_redis_free(nc->inv);
    r->alloc->release(r->alloc->ctx, nc->table, nc->buckets * sizeof *nc->table);
    r->alloc->release(r->alloc->ctx, nc, sizeof *nc);
    r->near = NULL;
}

/* Gives connection r a near cache with options o (checked) and starts
 * tracking. */
static int attach(codec_redis *r, const codec_redis_near_cache_options *o, codec_error *err)
{
    struct redis_near *nc = r->alloc->alloc(r->alloc->ctx, sizeof *nc);
    if (!nc)
        return codec__nomem(err, "redis");
    memset(nc, 0, sizeof *nc);
    nc->max_entries = o->max_entries ? o->max_entries : NEAR_DEFAULT_ENTRIES;
    nc->max_bytes = o->max_bytes ? o->max_bytes : NEAR_DEFAULT_BYTES;
    nc->ttl_ms = o->ttl_ms;
    nc->buckets = 16;
    while (nc->buckets < nc->max_entries && nc->buckets < ((size_t)1 << 24))
        nc->buckets *= 2;
    nc->table = r->alloc->alloc(r->alloc->ctx, nc->buckets * sizeof *nc->table);
    r->near = nc;
    if (!nc->table) {
        nc->buckets = 0;
        codec__redis_near_free(r);
        return codec__nomem(err, "redis");
    }
    memset(nc->table, 0, nc->buckets * sizeof *nc->table);
    int rc = codec__redis_connect_like(r, r->host, r->port, &nc->inv, err);
    if (!rc && !(rc = codec__redis_ready(r, err)))
        rc = start_tracking(r, err);
    if (rc)
        codec__redis_near_free(r);
    return rc;
}

int codec__redis_near_attach_node(codec_redis *handle, codec_redis *node, codec_error *err)
{
    if (!handle->cluster->near_on || node->near)
        return CODEC_OK;
    return attach(node, &handle->cluster->near_opts, err);
}

/* A cluster handle: every node connection opened from now on gets a near
 * cache; those already open get theirs now. A server without tracking is
 * refused at once; a node that cannot be reached now tries again when it
 * is next used. */
static int enable_cluster(codec_redis *r, const codec_redis_near_cache_options *o,
                          codec_error *err)
{
    redis_cluster *c = r->cluster;
    c->near_on = true;
    c->near_opts = *o;
    size_t attached = 0;
    int rc = CODEC_OK;
    for (size_t i = 0; i < c->n_nodes; i++) {
        codec_redis *node = c->nodes[i].conn;
        if (!node)
            continue;
        rc = codec__redis_near_attach_node(r, node, err);
        if (rc && rc != CODEC_E_TRANSIENT)
            break;
        attached += rc == CODEC_OK;
        rc = CODEC_OK;
    }
    if (!rc && !attached)
        rc = codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                             "near cache: no cluster node could be reached");
    if (rc) {
        c->near_on = false;
        for (size_t i = 0; i < c->n_nodes; i++)
            if (c->nodes[i].conn)
                codec__redis_near_free(c->nodes[i].conn);
    }
    return rc;
}

int codec_redis_enable_near_cache(codec_redis *r, const codec_redis_near_cache_options *o,
                                  codec_error *err)
{
    static const codec_redis_near_cache_options defaults;
    if (!o)
        o = &defaults;
    if (!r || r->near || (r->cluster && r->cluster->near_on) || o->reserved[0] ||
        o->reserved[1] || o->reserved[2])
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_enable_near_cache needs a handle without a near "
                               "cache and zero reserved fields");
    return r->cluster ? enable_cluster(r, o, err) : attach(r, o, err);
}

static void add_stats(codec_redis_near_stats *to, const codec_redis *r)
{
    if (!r || !r->near)
        return;
    const codec_redis_near_stats *s = &r->near->stats;
    to->hits += s->hits;
    to->misses += s->misses;
    to->evictions += s->evictions;
    to->invalidations += s->invalidations;
    to->flushes += s->flushes;
    to->entries += r->near->entries;
    to->bytes += r->near->bytes;
}

void codec_redis_near_cache_stats(const codec_redis *r, codec_redis_near_stats *out)
{
    memset(out, 0, sizeof *out);
    if (r && r->cluster)
        for (size_t i = 0; i < r->cluster->n_nodes; i++)
            add_stats(out, r->cluster->nodes[i].conn);
    else
        add_stats(out, r);
}
