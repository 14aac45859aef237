/* hash.c — the fields of one Redis hash, each through its own codec:
 * HSET (a Lua script when there is a TTL) and HMGET. */
#include "redis_internal.h"

#include <stdio.h>

/* HSET then PEXPIRE, atomically. MULTI/EXEC would not do: when the key is
 * not a hash, EXEC fails the HSET but still runs the PEXPIRE. The script
 * checks the type first, so either everything is written or nothing. */
static const char hset_ttl_script[] =
    "local t = redis.call('TYPE', KEYS[1]).ok\n"
    "if t ~= 'hash' and t ~= 'none' then\n"
    "  return redis.error_reply('WRONGTYPE Operation against a key holding the wrong '\n"
    "                           .. 'kind of value')\n"
    "end\n"
    "for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end\n"
    "return redis.call('PEXPIRE', KEYS[1], ARGV[1])\n";

static int fail_fields(codec_redis_item *fields, size_t n, int rc, const codec_error *err)
{
    for (size_t i = 0; i < n; i++) {
        fields[i].status = rc;
        fields[i].error = *err;
    }
    return rc;
}

/* argv = the words of `head`, then f1 [v1] f2 [v2] ... */
static size_t hash_argv(codec_redis *r, const char *const *head, const size_t *head_len,
                        size_t heads, const codec_redis_item *fields, size_t n, bool values)
{
    size_t a = 0;
    for (; a < heads; a++) {
        r->argv[a] = head[a];
        r->argvlen[a] = head_len[a];
    }
    for (size_t i = 0; i < n; i++) {
        r->argv[a] = fields[i].key ? fields[i].key : "";
        r->argvlen[a++] = fields[i].key_len;
        if (values) {
            r->argv[a] = codec__redis_value_of(r, i, &r->argvlen[a]);
            a++;
        }
    }
    return a;
}

/* HSET key f1 v1 .. or, with a TTL, EVAL script 1 key ttl f1 v1 .. */
static int hset_now(codec_redis *r, const redis_subject *s, const codec_redis_item *fields,
                    size_t n, int64_t ttl_ms, codec_error *err)
{
    char ttl[24];
    int ttl_len = snprintf(ttl, sizeof ttl, "%lld", (long long)ttl_ms);
    const char *head[] = {"EVAL", hset_ttl_script, "1", s->key, ttl};
    size_t head_len[] = {4, sizeof hset_ttl_script - 1, 1, s->key_len, (size_t)ttl_len};
    size_t argc = ttl_ms > 0 ? hash_argv(r, head, head_len, 5, fields, n, true)
                             : hash_argv(r, (const char *const[]){"HSET", s->key},
                                         (const size_t[]){4, s->key_len}, 2, fields, n, true);
    redis_reply *reply;
    int rc = codec__redis_command_argv(r, "HSET (outcome unknown)", NULL, REDIS_SMALL_REPLY, argc,
                                       &reply, err);
    if (rc)
        return rc;
    return reply->type == REDIS_REPLY_ERROR     ? codec__redis_reply_error(reply, s, err)
           : reply->type != REDIS_REPLY_INTEGER ? codec__redis_reply_unexpected(reply, "HSET", err)
                                                : CODEC_OK;
}

int codec_redis_hset(codec_redis *r, const char *key, size_t key_len, codec_redis_item *fields,
                     size_t n, int64_t ttl_ms, codec_error *err)
{
    codec_error local;
    if (!err)
        err = &local;
    int rc = codec__redis_check_items(r, fields, n, CODEC_REDIS_SET, err);
    if (!rc)
        rc = codec__redis_check_key(key, key_len, err);
    if (!rc && (n == 0 || ttl_ms < 0))
        rc = codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                             "codec_redis_hset needs at least one field and ttl_ms >= 0");
    if (rc)
        return rc;
    if (r->cluster)
        return codec__redis_cluster_hset(r, key, key_len, fields, n, ttl_ms, err);
    if ((rc = codec__redis_scratch_reserve(r, 2 * n + 5, err)))
        return fail_fields(fields, n, rc, err);
    if ((rc = codec__redis_encode_items(r, fields, n, true, codec__redis_every_item, err)))
        return rc;
    if ((rc = codec__redis_ready(r, err)))
        return fail_fields(fields, n, rc, err);
    const redis_subject s = {key ? key : "", key_len, NULL, 0};
    rc = hset_now(r, &s, fields, n, ttl_ms, err);
    if (!rc)
        rc = codec__redis_wait(r, "HSET", err);
    return rc ? fail_fields(fields, n, rc, err) : CODEC_OK;
}

/* Decodes each field of an HMGET reply; CODEC_E_NOT_FOUND when none exists. */
static int decode_fields(const redis_reply *reply, const redis_subject *key,
                         codec_redis_item *fields, size_t n, codec_arena *arena,
                         codec_error *err)
{
    size_t missing = 0;
    for (size_t i = 0; i < n; i++) {
        const redis_subject s = {key->key, key->key_len, fields[i].key ? fields[i].key : "",
                                 fields[i].key_len};
        fields[i].status = codec__redis_reply_get(reply->element[i], &s, fields[i].codec,
                                                  fields[i].value_out, arena, &fields[i].error);
        missing += fields[i].status == CODEC_E_NOT_FOUND;
    }
    if (missing < n)
        return CODEC_OK;
    char label[REDIS_SUBJECT_CAP];
    codec__redis_subject_text(key, label, sizeof label);
    return codec_error_set(err, CODEC_E_NOT_FOUND, 0, "redis", CODEC_NO_OFFSET,
                           "%s not found (or none of its %zu fields)", label, n);
}

int codec_redis_hget(codec_redis *r, const char *key, size_t key_len, codec_redis_item *fields,
                     size_t n, codec_arena *arena, codec_error *err)
{
    codec_error local;
    if (!err)
        err = &local;
    int rc = codec__redis_check_items(r, fields, n, CODEC_REDIS_GET, err);
    if (!rc)
        rc = codec__redis_check_key(key, key_len, err);
    if (!rc && (n == 0 || !arena))
        rc = codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                             "codec_redis_hget needs at least one field and an arena");
    if (rc)
        return rc;
    if (r->cluster)
        return codec__redis_cluster_hget(r, key, key_len, fields, n, arena, err);
    if ((rc = codec__redis_scratch_reserve(r, n + 2, err)) || (rc = codec__redis_ready(r, err)))
        return fail_fields(fields, n, rc, err);
    const redis_subject s = {key ? key : "", key_len, NULL, 0};
    size_t argc = hash_argv(r, (const char *const[]){"HMGET", s.key},
                            (const size_t[]){5, key_len}, 2, fields, n, false);
    redis_reply *reply;
    rc = codec__redis_command_argv(r, "HMGET", arena, n, argc, &reply, err);
    if (rc == CODEC_E_INVALID_PAYLOAD)
        codec__redis_name_subject(rc, &s, err);
    if (rc)
        return fail_fields(fields, n, rc, err);
    if (reply->type == REDIS_REPLY_ERROR)
        rc = codec__redis_reply_error(reply, &s, err);
    else if (reply->type != REDIS_REPLY_ARRAY || reply->elements != n)
        rc = codec__redis_reply_unexpected(reply, "HMGET", err);
    else
        rc = decode_fields(reply, &s, fields, n, arena, err);
    if (rc && rc != CODEC_E_NOT_FOUND)
        fail_fields(fields, n, rc, err);
    return rc;
}
