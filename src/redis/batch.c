/* batch.c — a pipelined batch: commands go out in windows of
 * BATCH_WINDOW, each window's replies are read before the next is sent;
 * each item reports its own outcome. */
#include "redis_internal.h"


/* Commands in flight at once. Deep enough that the round trip is paid once
 * per thousand commands; bounded so that hiredis's output buffer stays
 * small and, when the connection breaks, every reply that arrived before
 * the break has been read (a batch written in one piece would lose them). */
#define BATCH_WINDOW 1024

static bool is_set(const codec_redis_item *it)
{
    return it->op == CODEC_REDIS_SET;
}

static int append_item(codec_redis *r, const codec_redis_item *it, size_t i)
{
    const char *k = it->key ? it->key : "";
    size_t len;
    const char *v;
    switch (it->op) {
    case CODEC_REDIS_SET:
        v = codec__redis_value_of(r, i, &len);
        if (it->ttl_ms > 0)
            return redisAppendCommand(r->ctx, "SET %b %b PX %lld", k, it->key_len, v, len,
                                      (long long)it->ttl_ms);
        return redisAppendCommand(r->ctx, "SET %b %b", k, it->key_len, v, len);
    case CODEC_REDIS_DEL:
        return redisAppendCommand(r->ctx, "DEL %b", k, it->key_len);
    default:
        return redisAppendCommand(r->ctx, "GET %b", k, it->key_len);
    }
}

static int item_result(codec_redis_item *it, const redis_reply *reply, codec_arena *arena)
{
    const redis_subject s = {it->key, it->key_len, NULL, 0};
    switch (it->op) {
    case CODEC_REDIS_SET:
        return codec__redis_reply_set(reply, &s, &it->error);
    case CODEC_REDIS_DEL:
        return codec__redis_reply_del(reply, &s, NULL, &it->error);
    default:
        return codec__redis_reply_get(reply, &s, it->codec, it->value_out, arena, &it->error);
    }
}

/* Appends the commands of items [from, n) that are to be sent, up to a
 * window's worth. Returns the end of the window. */
static size_t send_window(codec_redis *r, codec_redis_item *items, size_t from, size_t n)
{
    size_t i = from, queued = 0;
    for (; i < n && queued < BATCH_WINDOW; i++) {
        if (items[i].status)
            continue;   /* failed to encode: not sent */
        if (append_item(r, &items[i], i) == REDIS_OK)
            queued++;
        else
            items[i].status = codec_error_set(&items[i].error, CODEC_E_NOMEM, 0, "redis",
                                              CODEC_NO_OFFSET,
                                              "out of memory queueing the command (not sent)");
    }
    return i;
}

/* Reads the reply of one sent item. Returns false when the connection
 * broke (the item then has the reason, and `lost` what the items after it
 * are told). */
static bool read_item(codec_redis *r, codec_redis_item *it, codec_arena *arena,
                      codec_error *lost)
{
    static const char what[] = "batch: no reply (a SET or DEL may have been applied)";
    const redis_subject s = {it->key, it->key_len, NULL, 0};
    redis_reply *reply;
    int rc = codec__redis_read(r, what, it->op == CODEC_REDIS_GET ? arena : NULL, REDIS_SMALL_REPLY,
                               &reply, &it->error);
    if (!rc) {
        it->status = item_result(it, reply, arena);
        return true;
    }
    it->status = rc;
    *lost = it->error;
    if (rc == CODEC_E_INVALID_PAYLOAD) {   /* a value over max_value closed the connection */
        codec__redis_name_subject(rc, &s, &it->error);
        codec_error_set(lost, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                        "%s on %s:%d: the connection was closed after an earlier value "
                        "over max_value", what, r->host, r->port);
    }
    return false;
}

/* Reads the replies of the items of [from, to) that were sent. Returns
 * false when the connection broke; `lost` then says how, and the items
 * without a reply have it as their error. */
static bool read_window(codec_redis *r, codec_redis_item *items, size_t from, size_t to,
                        codec_arena *arena, codec_error *lost)
{
    bool broken = false;
    for (size_t i = from; i < to; i++) {
        codec_redis_item *it = &items[i];
        if (it->status)
            continue;
        if (broken) {
            it->status = CODEC_E_TRANSIENT;
            it->error = *lost;
            continue;
        }
        broken = !read_item(r, it, arena, lost);
    }
    return !broken;
}

/* The send of a window failed: its items may or may not have reached the
 * server. */
static void fail_window(codec_redis_item *items, size_t from, size_t to,
                        const codec_error *lost)
{
    for (size_t i = from; i < to; i++) {
        if (items[i].status)
            continue;
        items[i].status = CODEC_E_TRANSIENT;
        items[i].error = *lost;
    }
}

/* After a break: the items never sent fail, and say they were not sent. */
static void fail_unsent(codec_redis_item *items, size_t from, size_t n, const codec_error *lost)
{
    for (size_t i = from; i < n; i++) {
        if (items[i].status)
            continue;
        items[i].status = codec_error_set(&items[i].error, CODEC_E_TRANSIENT, CODEC_D_IO,
                                          "redis", CODEC_NO_OFFSET,
                                          "not sent: the connection broke earlier in the "
                                          "batch (%s)", lost->message);
    }
}

int codec__redis_batch_status(const codec_redis_item *items, size_t n, codec_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (items[i].status && items[i].status != CODEC_E_NOT_FOUND) {
            *err = items[i].error;
            return items[i].status;
        }
    }
    return CODEC_OK;
}

/* With wait_replicas: one WAIT after each window; when too few replicas
 * acknowledged (or the connection broke first), no SET or DEL of the
 * window is reported as done. */
static void wait_for_writes(codec_redis *r, codec_redis_item *items, size_t from, size_t to,
                            codec_error *lost)
{
    bool wrote = false;
    for (size_t i = from; i < to; i++)
        wrote |= items[i].status == CODEC_OK && items[i].op != CODEC_REDIS_GET;
    if (!wrote || !r->wait_replicas)
        return;
    codec_error e;
    if (!r->ctx) {
        codec_error_set(&e, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                        "batch: written on the master, but the connection broke before WAIT");
    } else if (!codec__redis_wait(r, "batch", &e)) {
        return;
    } else if (!r->ctx) {
        *lost = e;   /* WAIT broke the connection: the later items are not sent */
    }
    for (size_t i = from; i < to; i++) {
        if (items[i].status == CODEC_OK && items[i].op != CODEC_REDIS_GET) {
            items[i].status = e.family;
            items[i].error = e;
        }
    }
}

int codec__redis_pipe_start(redis_pipe *p, codec_redis *r, codec_redis_item *items, size_t n,
                            codec_error *err)
{
    *p = (redis_pipe){.r = r, .items = items, .n = n, .done = n == 0};
    int rc;
    if ((rc = codec__redis_scratch_reserve(r, n, err)) || (rc = codec__redis_ready(r, err))) {
        for (size_t i = 0; i < n; i++) {
            items[i].status = rc;
            items[i].error = *err;
        }
        p->done = true;
        return rc;
    }
    (void)codec__redis_encode_items(r, items, n, false, is_set, err);
    codec__redis_near_forget_writes(r, items, n, false);
    return CODEC_OK;
}

void codec__redis_pipe_send(redis_pipe *p)
{
    if (p->done || p->sent)
        return;
    codec_redis *r = p->r;
    codec__redis_begin(r);   /* each window has the whole command timeout */
    p->to = send_window(r, p->items, p->from, p->n);
    if (codec__redis_send(r, "batch: sending (a SET or DEL may have been applied)", &p->lost)) {
        fail_window(p->items, p->from, p->to, &p->lost);
        fail_unsent(p->items, p->to, p->n, &p->lost);
        p->done = true;
        return;
    }
    p->sent = true;
}

void codec__redis_pipe_read(redis_pipe *p, codec_arena *arena, bool restart_deadline)
{
    if (p->done || !p->sent)
        return;
    codec_redis *r = p->r;
    if (restart_deadline)
        codec__redis_begin(r);
    bool read = read_window(r, p->items, p->from, p->to, arena, &p->lost);
    wait_for_writes(r, p->items, p->from, p->to, &p->lost);
    p->sent = false;
    if (!read || !r->ctx) {
        fail_unsent(p->items, p->to, p->n, &p->lost);
        p->done = true;
        return;
    }
    p->from = p->to;
    p->done = p->from == p->n;
}

int codec_redis_batch(codec_redis *r, codec_redis_item *items, size_t n, codec_arena *arena,
                      codec_error *err)
{
    codec_error local;
    if (!err)
        err = &local;
    int rc = codec__redis_check_items(r, items, n, -1, err);
    if (rc || n == 0)
        return rc;
    if (!arena)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_batch needs an arena");
    if (r->cluster)
        return codec__redis_cluster_batch(r, items, n, arena, err);
    redis_pipe p;
    if ((rc = codec__redis_pipe_start(&p, r, items, n, err)))
        return rc;
    while (!p.done) {
        codec__redis_pipe_send(&p);
        codec__redis_pipe_read(&p, arena, false);
    }
    return codec__redis_batch_status(items, n, err);
}
