/* multi.c — many keys in one command: MGET, and MSET (or MULTI / SET PX /
 * EXEC when values carry TTLs), all or nothing. */
#include "redis_internal.h"


/* Fails every item with `rc` (err filled by the caller). */
static int fail_all(codec_redis_item *items, size_t n, int rc, const codec_error *err)
{
    for (size_t i = 0; i < n; i++) {
        items[i].status = rc;
        items[i].error = *err;
    }
    return rc;
}

int codec_redis_mget(codec_redis *r, codec_redis_item *items, size_t n, codec_arena *arena,
                     codec_error *err)
{
    codec_error local;
    if (!err)
        err = &local;
    int rc = codec__redis_check_items(r, items, n, CODEC_REDIS_GET, err);
    if (rc || n == 0)
        return rc;
    if (!arena)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_mget needs an arena");
    if (r->cluster)
        return codec__redis_cluster_mget(r, items, n, arena, err);
    if ((rc = codec__redis_scratch_reserve(r, n + 1, err)) || (rc = codec__redis_ready(r, err)))
        return fail_all(items, n, rc, err);
    r->argv[0] = "MGET";
    r->argvlen[0] = 4;
    for (size_t i = 0; i < n; i++) {
        r->argv[i + 1] = items[i].key ? items[i].key : "";
        r->argvlen[i + 1] = items[i].key_len;
    }
    redis_reply *reply;
    rc = codec__redis_command_argv(r, "MGET", arena, n, n + 1, &reply, err);
    if (rc)
        return fail_all(items, n, rc, err);
    if (reply->type == REDIS_REPLY_ERROR)
        rc = codec__redis_command_error(reply, "MGET", err);
    else if (reply->type != REDIS_REPLY_ARRAY || reply->elements != n)
        rc = codec__redis_reply_unexpected(reply, "MGET", err);
    if (rc)
        return fail_all(items, n, rc, err);
    for (size_t i = 0; i < n; i++)
        items[i].status = codec__redis_reply_get(reply->element[i],
                                                 &(redis_subject){items[i].key, items[i].key_len,
                                                                  NULL, 0},
                                                 items[i].codec, items[i].value_out, arena,
                                                 &items[i].error);
    return CODEC_OK;
}

/* MSET k1 v1 .. kn vn: atomic, no TTL. */
static int mset_plain(codec_redis *r, codec_redis_item *items, size_t n, codec_error *err)
{
    r->argv[0] = "MSET";
    r->argvlen[0] = 4;
    for (size_t i = 0; i < n; i++) {
        r->argv[2 * i + 1] = items[i].key ? items[i].key : "";
        r->argvlen[2 * i + 1] = items[i].key_len;
        r->argv[2 * i + 2] = codec__redis_value_of(r, i, &r->argvlen[2 * i + 2]);
    }
    redis_reply *reply;
    int rc = codec__redis_command_argv(r, "MSET (outcome unknown)", NULL, REDIS_SMALL_REPLY,
                                       2 * n + 1, &reply, err);
    if (rc)
        return rc;
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_command_error(reply, "MSET", err);
    if (reply->type != REDIS_REPLY_STATUS)
        return codec__redis_reply_unexpected(reply, "MSET", err);
    return CODEC_OK;
}

/* MULTI, SET k v [PX t] per item, EXEC: atomic, with TTLs. */
static int mset_transaction(codec_redis *r, codec_redis_item *items, size_t n,
                            codec_error *err)
{
    int ok = redisAppendCommand(r->ctx, "MULTI");
    for (size_t i = 0; ok == REDIS_OK && i < n; i++) {
        size_t len;
        const char *v = codec__redis_value_of(r, i, &len);
        const char *k = items[i].key ? items[i].key : "";
        ok = items[i].ttl_ms > 0
                 ? redisAppendCommand(r->ctx, "SET %b %b PX %lld", k, items[i].key_len, v, len,
                                      (long long)items[i].ttl_ms)
                 : redisAppendCommand(r->ctx, "SET %b %b", k, items[i].key_len, v, len);
    }
    if (ok != REDIS_OK || redisAppendCommand(r->ctx, "EXEC") != REDIS_OK)
        return codec__redis_tx_unsent(r, err);
    return codec__redis_tx_exec(r, n, err);
}

int codec_redis_mset(codec_redis *r, codec_redis_item *items, size_t n, codec_error *err)
{
    codec_error local;
    if (!err)
        err = &local;
    int rc = codec__redis_check_items(r, items, n, CODEC_REDIS_SET, err);
    if (rc || n == 0)
        return rc;
    if (r->cluster)
        return codec__redis_cluster_mset(r, items, n, err);
    if ((rc = codec__redis_scratch_reserve(r, 2 * n + 1, err)))
        return fail_all(items, n, rc, err);
    if ((rc = codec__redis_encode_items(r, items, n, true, codec__redis_every_item, err)))
        return rc;
    if ((rc = codec__redis_ready(r, err)))
        return fail_all(items, n, rc, err);
    codec__redis_near_forget_writes(r, items, n, true);
    bool ttl = false;
    for (size_t i = 0; i < n; i++)
        ttl |= items[i].ttl_ms > 0;
    rc = ttl ? mset_transaction(r, items, n, err) : mset_plain(r, items, n, err);
    if (!rc)
        rc = codec__redis_wait(r, "MSET", err);
    return rc ? fail_all(items, n, rc, err) : CODEC_OK;
}
