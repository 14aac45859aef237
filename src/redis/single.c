/* single.c — one key: SET [PX], GET, DEL. */
#include "redis_internal.h"

#include <errno.h>

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
    codec_buf_clear(&r->buf);
    if ((rc = codec_encode(c, value, &r->buf, err)) || (rc = codec__redis_ready(r, err)))
        return rc;
    const char *data = r->buf.data ? (const char *)r->buf.data : "";
    redisReply *reply =
        ttl_ms > 0 ? redisCommand(r->ctx, "SET %b %b PX %lld", key ? key : "", key_len, data,
                                  r->buf.len, (long long)ttl_ms)
                   : redisCommand(r->ctx, "SET %b %b", key ? key : "", key_len, data,
                                  r->buf.len);
    if (!reply)
        return codec__redis_io_error(r, "SET (outcome unknown)", errno, err);
    rc = codec__redis_reply_set(reply, &(redis_subject){key, key_len, NULL, 0}, err);
    freeReplyObject(reply);
    return rc;
}

int codec_redis_get(codec_redis *r, const char *key, size_t key_len, const codec *c,
                    void *value_out, codec_arena *arena, codec_error *err)
{
    if (!r || !c || !value_out || !arena)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_get needs a connection, a codec, value_out and "
                               "an arena");
    int rc = codec__redis_check_key(key, key_len, err);
    if (rc || (rc = codec__redis_ready(r, err)))
        return rc;
    redisReply *reply = redisCommand(r->ctx, "GET %b", key ? key : "", key_len);
    if (!reply)
        return codec__redis_io_error(r, "GET", errno, err);
    rc = codec__redis_reply_get(r, reply, &(redis_subject){key, key_len, NULL, 0}, c, value_out,
                                arena, err);
    freeReplyObject(reply);
    return rc;
}

int codec_redis_del(codec_redis *r, const char *key, size_t key_len, int *removed,
                    codec_error *err)
{
    if (!r)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_del needs a connection");
    int rc = codec__redis_check_key(key, key_len, err);
    if (rc || (rc = codec__redis_ready(r, err)))
        return rc;
    redisReply *reply = redisCommand(r->ctx, "DEL %b", key ? key : "", key_len);
    if (!reply)
        return codec__redis_io_error(r, "DEL (outcome unknown)", errno, err);
    rc = codec__redis_reply_del(reply, &(redis_subject){key, key_len, NULL, 0}, removed, err);
    freeReplyObject(reply);
    return rc;
}
