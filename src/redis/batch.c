/* batch.c — a pipelined batch: commands go out in windows of
 * BATCH_WINDOW, each window's replies are read before the next is sent;
 * each item reports its own outcome. */
#include "redis_internal.h"

#include <errno.h>

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

static int item_result(codec_redis *r, codec_redis_item *it, const redisReply *reply,
                       codec_arena *arena)
{
    const redis_subject s = {it->key, it->key_len, NULL, 0};
    switch (it->op) {
    case CODEC_REDIS_SET:
        return codec__redis_reply_set(reply, &s, &it->error);
    case CODEC_REDIS_DEL:
        return codec__redis_reply_del(reply, &s, NULL, &it->error);
    default:
        return codec__redis_reply_get(r, reply, &s, it->codec, it->value_out, arena, &it->error);
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
        void *reply = NULL;
        if (!broken && redisGetReply(r->ctx, &reply) != REDIS_OK) {
            codec__redis_io_error(r, "batch: no reply (a SET or DEL may have been applied)", errno,
                                  lost);
            broken = true;
        }
        if (broken) {
            it->status = CODEC_E_TRANSIENT;
            it->error = *lost;
            continue;
        }
        it->status = item_result(r, it, reply, arena);
        freeReplyObject(reply);
    }
    return !broken;
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
    if ((rc = codec__redis_scratch_reserve(r, n, err)) || (rc = codec__redis_ready(r, err))) {
        for (size_t i = 0; i < n; i++) {
            items[i].status = rc;
            items[i].error = *err;
        }
        return rc;
    }
    (void)codec__redis_encode_items(r, items, n, false, is_set, err);
    codec_error lost;
    for (size_t from = 0; from < n;) {
        size_t to = send_window(r, items, from, n);
        if (!read_window(r, items, from, to, arena, &lost)) {
            fail_unsent(items, to, n, &lost);
            break;
        }
        from = to;
    }
    for (size_t i = 0; i < n; i++) {
        if (items[i].status && items[i].status != CODEC_E_NOT_FOUND) {
            *err = items[i].error;
            return items[i].status;
        }
    }
    return CODEC_OK;
}
