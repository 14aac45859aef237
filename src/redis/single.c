/* single.c — one key: SET [PX], GET, DEL; and WAIT after writes. */
#include "redis_internal.h"

int codec__redis_wait(codec_redis *r, const char *what, codec_error *err)
{
    if (!r->wait_replicas)
        return CODEC_OK;
    r->deadline_ms += r->wait_timeout_ms;   /* the server may take that long */
    redis_reply *reply;
    int rc = codec__redis_command(r, "WAIT", NULL, REDIS_SMALL_REPLY, &reply, err, "WAIT %u %u",
                                  r->wait_replicas, r->wait_timeout_ms);
    if (rc)
        return rc;
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_command_error(reply, "WAIT", err);
    if (reply->type != REDIS_REPLY_INTEGER)
        return codec__redis_reply_unexpected(reply, "WAIT", err);
    if (reply->integer >= (long long)r->wait_replicas)
        return CODEC_OK;
    return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                           "%s: written on the master, acknowledged by %lld of %u replicas "
                           "within %u ms (it may be lost in a failover)",
                           what, reply->integer, r->wait_replicas, r->wait_timeout_ms);
}


int codec_redis_set(codec_redis *r, const char *key, size_t key_len, const codec *c,
                    const void *value, int64_t ttl_ms, codec_error *err)
{
    if (!r || !c || !value || ttl_ms < 0)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_set needs a connection, a codec, a value and "
                               "ttl_ms >= 0");
    int rc = codec__redis_check_key(key, key_len, err);
    if (rc)
        return rc;
    if (r->cluster)
        return codec__redis_cluster_set(r, key, key_len, c, value, ttl_ms, err);
    codec_buf_clear(&r->buf);
    if ((rc = codec_encode(c, value, &r->buf, err)) || (rc = codec__redis_ready(r, err)))
        return rc;
    if (r->near)
        codec__redis_near_forget(r, key ? key : "", key_len);
    const char *data = r->buf.data ? (const char *)r->buf.data : "";
    const char *what = "SET (outcome unknown)";
    redis_reply *reply;
    rc = ttl_ms > 0 ? codec__redis_command(r, what, NULL, REDIS_SMALL_REPLY, &reply, err,
                                           "SET %b %b PX %lld", key ? key : "", key_len, data,
                                           r->buf.len, (long long)ttl_ms)
                    : codec__redis_command(r, what, NULL, REDIS_SMALL_REPLY, &reply, err,
                                           "SET %b %b", key ? key : "", key_len, data, r->buf.len);
    if (!rc)
        rc = codec__redis_reply_set(reply, &(redis_subject){key, key_len, NULL, 0}, err);
    return rc ? rc : codec__redis_wait(r, "SET", err);
}

int codec_redis_get(codec_redis *r, const char *key, size_t key_len, const codec *c,
                    void *value_out, codec_arena *arena, codec_error *err)
{
    if (!r || !c || !value_out || !arena)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_get needs a connection, a codec, value_out and "
                               "an arena");
    int rc = codec__redis_check_key(key, key_len, err);
    if (rc)
        return rc;
    if (r->cluster)
        return codec__redis_cluster_get(r, key, key_len, c, value_out, arena, err);
    const redis_subject s = {key ? key : "", key_len, NULL, 0};
    /* After a cluster ASK the key is mid-migration: neither served from
     * nor kept in the cache. */
    bool near = r->near && !r->asking;
    if (near && codec__redis_near_lookup(r, &s, c, value_out, arena, &rc, err))
        return rc;
    if ((rc = codec__redis_ready(r, err)))
        return rc;
    redis_reply *reply;
    rc = codec__redis_command(r, "GET", arena, REDIS_SMALL_REPLY, &reply, err, "GET %b",
                              key ? key : "", key_len);
    if (rc)
        return rc == CODEC_E_INVALID_PAYLOAD ? codec__redis_name_subject(rc, &s, err) : rc;
    if (near && reply->type == REDIS_REPLY_STRING)
        codec__redis_near_store(r, s.key, key_len, reply->str, reply->len);
    return codec__redis_reply_get(reply, &s, c, value_out, arena, err);
}

int codec_redis_del(codec_redis *r, const char *key, size_t key_len, int *removed,
                    codec_error *err)
{
    if (!r)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_del needs a connection");
    int rc = codec__redis_check_key(key, key_len, err);
    if (rc)
        return rc;
    if (r->cluster)
        return codec__redis_cluster_del(r, key, key_len, removed, err);
    if (r->near)
        codec__redis_near_forget(r, key ? key : "", key_len);
    if ((rc = codec__redis_ready(r, err)))
        return rc;
    redis_reply *reply;
    rc = codec__redis_command(r, "DEL (outcome unknown)", NULL, REDIS_SMALL_REPLY, &reply, err,
                              "DEL %b", key ? key : "", key_len);
    if (!rc)
        rc = codec__redis_reply_del(reply, &(redis_subject){key, key_len, NULL, 0}, removed, err);
    return rc ? rc : codec__redis_wait(r, "DEL", err);
}
