/* tx.c — reading a pipelined MULTI ... EXEC: atomic writes with TTLs
 * (mset) and hash writes with an expiry (hset). */
#include "redis_internal.h"


int codec__redis_tx_unsent(codec_redis *r, codec_error *err)
{
    codec__redis_drop(r);
    return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                           "out of memory queueing MULTI/EXEC (nothing was sent)");
}

/* Reads the replies to MULTI and each queued command: the first error wins. */
static int read_queued(codec_redis *r, size_t queued, codec_error *err)
{
    int rc = CODEC_OK;
    for (size_t i = 0; i < queued + 1; i++) {
        redis_reply *reply;
        int io = codec__redis_read(r, "MULTI/EXEC (outcome unknown)", NULL, REDIS_SMALL_REPLY,
                                   &reply, err);
        if (io)
            return io;
        if (!rc && reply->type == REDIS_REPLY_ERROR)
            rc = codec__redis_command_error(reply, i ? "MULTI/EXEC" : "MULTI", err);
    }
    return rc;
}

int codec__redis_tx_exec(codec_redis *r, size_t queued, codec_error *err)
{
    codec_error first;
    int rc = codec__redis_send(r, "MULTI/EXEC (outcome unknown)", err);
    if (rc)
        return rc;
    int queue_rc = read_queued(r, queued, &first);
    if (queue_rc && !r->ctx) {   /* the connection broke */
        *err = first;
        return queue_rc;
    }
    redis_reply *exec;
    rc = codec__redis_read(r, "EXEC (outcome unknown)", NULL, queued, &exec, err);
    if (queue_rc) {
        *err = first;
        return queue_rc;
    }
    if (rc)
        return rc;
    if (exec->type == REDIS_REPLY_ERROR)
        return codec__redis_command_error(exec, "EXEC", err);
    if (exec->type != REDIS_REPLY_ARRAY || exec->elements != queued)
        return codec__redis_reply_unexpected(exec, "EXEC", err);
    for (size_t i = 0; i < queued; i++)
        if (exec->element[i]->type == REDIS_REPLY_ERROR)
            return codec__redis_command_error(exec->element[i], "EXEC", err);
    return CODEC_OK;
}
