/* tx.c — reading a pipelined MULTI ... EXEC: atomic writes with TTLs
 * (mset) and hash writes with an expiry (hset). */
#include "redis_internal.h"

#include <errno.h>

int codec__redis_tx_unsent(codec_redis *r, codec_error *err)
{
    redisFree(r->ctx);
    r->ctx = NULL;
    return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                           "out of memory queueing MULTI/EXEC (nothing was sent)");
}

/* Reads one reply; the first problem wins. Keeps EXEC's reply on success. */
static int read_tx_reply(codec_redis *r, int rc, redisReply **exec_out, bool last,
                         codec_error *err)
{
    void *p = NULL;
    if (redisGetReply(r->ctx, &p) != REDIS_OK)
        return rc ? rc : codec__redis_io_error(r, "MULTI/EXEC (outcome unknown)", errno, err);
    redisReply *reply = p;
    if (!rc && reply->type == REDIS_REPLY_ERROR)
        rc = codec__redis_command_error(reply, last ? "EXEC" : "MULTI", err);
    else if (!rc && last && reply->type != REDIS_REPLY_ARRAY)
        rc = codec__redis_reply_unexpected(reply, "EXEC", err);
    if (last && !rc)
        *exec_out = reply;
    else
        freeReplyObject(reply);
    return rc;
}

int codec__redis_tx_exec(codec_redis *r, size_t queued, codec_error *err)
{
    int rc = CODEC_OK;
    redisReply *exec = NULL;
    for (size_t i = 0; i < queued + 2; i++) {
        rc = read_tx_reply(r, rc, &exec, i == queued + 1, err);
        if (r->ctx->err)
            return rc;
    }
    if (!rc && exec->elements != queued)
        rc = codec__redis_reply_unexpected(exec, "EXEC", err);
    for (size_t i = 0; !rc && i < queued; i++)
        if (exec->element[i]->type == REDIS_REPLY_ERROR)
            rc = codec__redis_command_error(exec->element[i], "EXEC", err);
    freeReplyObject(exec);
    return rc;
}
