/* batch.c — a pipelined batch: every command is sent, then every reply is
 * read; each item reports its own outcome. */
#include "redis_internal.h"

#include <errno.h>

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
        v = redis_value_of(r, i, &len);
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
        return redis_reply_set(reply, &s, &it->error);
    case CODEC_REDIS_DEL:
        return redis_reply_del(reply, &s, NULL, &it->error);
    default:
        return redis_reply_get(r, reply, &s, it->codec, it->value_out, arena, &it->error);
    }
}

/* Reads the reply of every item that was sent. After the connection breaks,
 * the remaining items get the break's error. */
static void read_replies(codec_redis *r, codec_redis_item *items, size_t n, codec_arena *arena)
{
    codec_error lost;
    bool broken = false;
    for (size_t i = 0; i < n; i++) {
        codec_redis_item *it = &items[i];
        if (it->status)
            continue;   /* never sent */
        void *reply = NULL;
        if (!broken && redisGetReply(r->ctx, &reply) != REDIS_OK) {
            redis_io_error(r, "batch: no reply (a SET or DEL may have been applied)", errno,
                           &lost);
            broken = true;
        }
        if (broken) {
            it->status = CODEC_E_TRANSIENT;
            it->error = lost;
            continue;
        }
        it->status = item_result(r, it, reply, arena);
        freeReplyObject(reply);
    }
}

int codec_redis_batch(codec_redis *r, codec_redis_item *items, size_t n, codec_arena *arena,
                      codec_error *err)
{
    codec_error local;
    if (!err)
        err = &local;
    int rc = redis_check_items(r, items, n, -1, err);
    if (rc || n == 0)
        return rc;
    if (!arena)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_batch needs an arena");
    if ((rc = redis_scratch_reserve(r, n, err)) || (rc = redis_ready(r, err))) {
        for (size_t i = 0; i < n; i++) {
            items[i].status = rc;
            items[i].error = *err;
        }
        return rc;
    }
    (void)redis_encode_items(r, items, n, false, is_set, err);
    for (size_t i = 0; i < n; i++)
        if (!items[i].status && append_item(r, &items[i], i) != REDIS_OK)
            items[i].status = codec_error_set(&items[i].error, CODEC_E_NOMEM, 0, "redis",
                                              CODEC_NO_OFFSET,
                                              "out of memory queueing the command (not sent)");
    read_replies(r, items, n, arena);
    for (size_t i = 0; i < n; i++) {
        if (items[i].status && items[i].status != CODEC_E_NOT_FOUND) {
            *err = items[i].error;
            return items[i].status;
        }
    }
    return CODEC_OK;
}
