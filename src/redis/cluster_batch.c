/* cluster_batch.c — batches on a Redis Cluster: the items are split by the
 * node serving their slot, every node's share is pipelined on that node's
 * connection at the same time (each node's window is written before any
 * reply is read: the nodes work in parallel, one thread reads them all),
 * and each item's status lands in the caller's order. Items the cluster redirected (MOVED,
 * TRYAGAIN, CLUSTERDOWN) or that could not be sent go round again after
 * the map is relearned; an ASK is followed at once for its item. */
#include "redis_internal.h"
#include "core/error_internal.h"

#include <string.h>

typedef struct split {
    codec_redis_item *sub;   /* one node's share, copied */
    size_t *where;           /* sub[j] is items[where[j]] */
    size_t *pending;         /* items still to run */
    size_t *retry;           /* items to run again after this round */
    uint8_t *node_of;        /* node of pending[k] */
    size_t n;
} split;

static void split_free(codec_redis *r, split *s)
{
    const codec_allocator *a = r->alloc;
    if (s->sub)
        a->release(a->ctx, s->sub, s->n * sizeof *s->sub);
    if (s->where)
        a->release(a->ctx, s->where, s->n * sizeof *s->where);
    if (s->pending)
        a->release(a->ctx, s->pending, s->n * sizeof *s->pending);
    if (s->retry)
        a->release(a->ctx, s->retry, s->n * sizeof *s->retry);
    if (s->node_of)
        a->release(a->ctx, s->node_of, s->n * sizeof *s->node_of);
}

static int split_init(codec_redis *r, split *s, size_t n, codec_error *err)
{
    const codec_allocator *a = r->alloc;
    memset(s, 0, sizeof *s);
    s->n = n;
    s->sub = a->alloc(a->ctx, n * sizeof *s->sub);
    s->where = a->alloc(a->ctx, n * sizeof *s->where);
    s->pending = a->alloc(a->ctx, n * sizeof *s->pending);
    s->retry = a->alloc(a->ctx, n * sizeof *s->retry);
    s->node_of = a->alloc(a->ctx, n * sizeof *s->node_of);
    if (s->sub && s->where && s->pending && s->retry && s->node_of)
        return CODEC_OK;
    split_free(r, s);
    return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                           "out of memory splitting %zu items by node", n);
}

/* Runs one item on the node an ASK named, with ASKING first. */
static void follow_ask(codec_redis *r, codec_redis_item *it, const redis_redirect *rd,
                       codec_arena *arena)
{
    size_t ni = codec__redis_cluster_follow(r, rd);
    codec_redis *node;
    if (ni == REDIS_NO_NODE || (it->status = codec__redis_cluster_node(r, ni, &node, &it->error)))
        return;
    node->asking = true;
    switch (it->op) {
    case CODEC_REDIS_SET:
        it->status = codec_redis_set(node, it->key, it->key_len, it->codec, it->value,
                                     it->ttl_ms, &it->error);
        break;
    case CODEC_REDIS_DEL:
        it->status = codec_redis_del(node, it->key, it->key_len, NULL, &it->error);
        break;
    default:
        it->status = codec_redis_get(node, it->key, it->key_len, it->codec, it->value_out,
                                     arena, &it->error);
    }
    node->asking = false;
}

/* One node's share of a round: s->sub[start, start + m). */
typedef struct node_job {
    codec_redis *node;      /* NULL: the node could not be reached */
    size_t start, m;
    bool unsent;            /* nothing of it was sent */
    codec_error e;
    redis_pipe pipe;
} node_job;

/* Files the outcome of a job's items; the ones to run again go to
 * s->retry. Returns true when a retry wants a backoff first. */
static bool collect(codec_redis *r, split *s, const node_job *j, codec_redis_item *items,
                    codec_arena *arena, size_t *next)
{
    bool backoff = j->unsent;
    for (size_t k = j->start; k < j->start + j->m; k++) {
        codec_redis_item *it = &items[s->where[k]];
        if (j->unsent) {
            it->status = CODEC_E_TRANSIENT;
            it->error = j->e;
            s->retry[(*next)++] = s->where[k];
            continue;
        }
        it->status = s->sub[k].status;
        it->error = s->sub[k].error;
        redis_redirect rd;
        switch (codec__redis_redirect_of(it->status, &it->error, &rd)) {
        case REDIS_MOVED:
            codec__redis_cluster_follow(r, &rd);
            s->retry[(*next)++] = s->where[k];
            break;
        case REDIS_TRYAGAIN:
            backoff = true;
            s->retry[(*next)++] = s->where[k];
            break;
        case REDIS_ASK:
            follow_ask(r, it, &rd, arena);
            break;
        default:
            break;
        }
    }
    if (backoff)
        r->cluster->stale = true;
    return backoff;
}

/* One round: the routed pending items grouped by node into s->sub, and
 * every node's share pipelined at once from this thread: each node's
 * window (1024 commands) is written before any node's replies are read, so
 * the nodes work in parallel, and the GETs decode into the caller's arena
 * from one thread. */
static bool run_round(codec_redis *r, split *s, size_t np, codec_redis_item *items,
                      codec_arena *arena, size_t *next)
{
    size_t nodes = r->cluster->n_nodes, start = 0;
    node_job jobs[REDIS_CLUSTER_MAX_NODES];
    for (size_t ni = 0; ni < nodes; ni++) {
        node_job *j = &jobs[ni];
        *j = (node_job){.start = start};
        for (size_t k = 0; k < np; k++) {
            if (s->node_of[k] == ni) {
                s->where[start + j->m] = s->pending[k];
                s->sub[start + j->m++] = items[s->pending[k]];
            }
        }
        start += j->m;
        j->pipe.done = true;
        if (!j->m)
            continue;
        if (codec__redis_cluster_node(r, ni, &j->node, &j->e))
            j->unsent = true;   /* not connected: nothing was sent */
        else if (codec__redis_pipe_start(&j->pipe, j->node, s->sub + j->start, j->m, &j->e))
            j->unsent = j->node->not_sent;   /* else each item has its status */
    }
    for (bool busy = true; busy;) {
        busy = false;
        for (size_t ni = 0; ni < nodes; ni++)
            codec__redis_pipe_send(&jobs[ni].pipe);
        for (size_t ni = 0; ni < nodes; ni++) {
            codec__redis_pipe_read(&jobs[ni].pipe, arena, true);
            busy |= !jobs[ni].pipe.done;
        }
    }
    bool backoff = false;
    for (size_t ni = 0; ni < nodes; ni++) {
        if (jobs[ni].m)
            backoff |= collect(r, s, &jobs[ni], items, arena, next);
    }
    return backoff;
}

int codec__redis_cluster_batch(codec_redis *r, codec_redis_item *items, size_t n,
                               codec_arena *arena, codec_error *err)
{
    split s;
    int rc = split_init(r, &s, n, err);
    if (rc)
        return rc;
    size_t np = n;
    for (size_t i = 0; i < n; i++)
        s.pending[i] = i;
    for (int attempt = 0; np && attempt < REDIS_CLUSTER_ATTEMPTS; attempt++) {
        size_t routed = 0;
        for (size_t k = 0; k < np; k++) {   /* unroutable items keep their error */
            codec_redis_item *it = &items[s.pending[k]];
            size_t ni = codec__redis_cluster_route(r, codec_redis_slot(it->key, it->key_len),
                                                   &it->error);
            if (ni == REDIS_NO_NODE) {
                it->status = CODEC_E_TRANSIENT;
                continue;
            }
            s.pending[routed] = s.pending[k];
            s.node_of[routed++] = (uint8_t)ni;
        }
        size_t next = 0;
        bool backoff = run_round(r, &s, routed, items, arena, &next) || routed < np;
        size_t *t = s.pending;   /* the retries are the next round's items */
        s.pending = s.retry;
        s.retry = t;
        np = next;
        if (np && (backoff || attempt >= 1))   /* a third round: the nodes disagree */
            codec__redis_cluster_backoff(attempt);
    }
    split_free(r, &s);
    return codec__redis_batch_status(items, n, err);
}

int codec__redis_cluster_mget(codec_redis *r, codec_redis_item *items, size_t n, codec_arena *arena,
                              codec_error *err)
{
    codec_redis_op *ops = r->alloc->alloc(r->alloc->ctx, n * sizeof *ops);
    if (!ops)
        return codec__nomem(err, "redis");
    for (size_t i = 0; i < n; i++) {   /* MGET ignores op: a batch of GETs needs it */
        ops[i] = items[i].op;
        items[i].op = CODEC_REDIS_GET;
    }
    int rc = codec__redis_cluster_batch(r, items, n, arena, err);
    for (size_t i = 0; i < n; i++)
        items[i].op = ops[i];
    r->alloc->release(r->alloc->ctx, ops, n * sizeof *ops);
    /* As on one server: 0 once the commands ran, each item has its status. */
    for (size_t i = 0; i < n && rc; i++)
        if (items[i].status == CODEC_E_TRANSIENT)
            return rc;
    return CODEC_OK;
}
