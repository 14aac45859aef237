/* connection.c — opening, re-opening and closing the connection: timeouts,
 * AUTH and SELECT, and the transient errors of a broken socket. */
#include "redis_internal.h"

#include <errno.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static struct timeval to_timeval(uint32_t ms)
{
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000};
    return tv;
}

int codec__redis_io_error(codec_redis *r, const char *what, int errno_now, codec_error *err)
{
    const char *why = r->ctx && r->ctx->err ? r->ctx->errstr : "connection failed";
    if (r->ctx && r->ctx->err == REDIS_ERR_IO &&
        (errno_now == EAGAIN || errno_now == EWOULDBLOCK))
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                               "%s on %s:%d: timed out after %u ms", what, r->host, r->port,
                               r->command_timeout_ms);
    return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                           "%s on %s:%d: %s", what, r->host, r->port, why);
}

/* Runs one setup command (AUTH, SELECT) and expects +OK. */
static int setup_command(codec_redis *r, const char *what, redisReply *reply, codec_error *err)
{
    int saved = errno;
    if (!reply)
        return codec__redis_io_error(r, what, saved, err);
    int rc = CODEC_OK;
    if (reply->type == REDIS_REPLY_ERROR)
        rc = codec_error_set(err, CODEC_E_TRANSIENT, 0, "redis", CODEC_NO_OFFSET,
                             "%s on %s:%d: %.*s", what, r->host, r->port, (int)reply->len,
                             reply->str);
    else if (reply->type != REDIS_REPLY_STATUS)
        rc = codec__redis_reply_unexpected(reply, what, err);
    freeReplyObject(reply);
    return rc;
}

static void drop_context(codec_redis *r)
{
    redisFree(r->ctx);
    r->ctx = NULL;
}

static int open_context(codec_redis *r, codec_error *err)
{
    struct timeval ct = to_timeval(r->connect_timeout_ms);
    r->ctx = redisConnectWithTimeout(r->host, r->port, ct);
    if (!r->ctx)
        return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                               "out of memory making a connection");
    if (r->ctx->err) {
        int rc = codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                                 "connect to %s:%d: %s", r->host, r->port, r->ctx->errstr);
        drop_context(r);
        return rc;
    }
    int rc = CODEC_OK;
    if (redisSetTimeout(r->ctx, to_timeval(r->command_timeout_ms)) != REDIS_OK)
        rc = codec__redis_io_error(r, "setting the timeout", errno, err);
    if (!rc && r->password[0] && r->username[0])
        rc = setup_command(r, "AUTH",
                           redisCommand(r->ctx, "AUTH %s %s", r->username, r->password), err);
    else if (!rc && r->password[0])
        rc = setup_command(r, "AUTH", redisCommand(r->ctx, "AUTH %s", r->password), err);
    if (!rc && r->db)
        rc = setup_command(r, "SELECT", redisCommand(r->ctx, "SELECT %d", r->db), err);
    if (rc)
        drop_context(r);
    return rc;
}

int codec__redis_ready(codec_redis *r, codec_error *err)
{
    if (r->ctx && !r->ctx->err)
        return CODEC_OK;
    drop_context(r);
    return open_context(r, err);
}

static int copy_option(char *dst, size_t cap, const char *src, const char *name,
                       codec_error *err)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "redis",
                               CODEC_NO_OFFSET, "the %s is longer than %zu bytes", name,
                               cap - 1);
    memcpy(dst, src ? src : "", n + 1);
    return CODEC_OK;
}

static int apply_options(codec_redis *r, const codec_redis_options *o, codec_error *err)
{
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
        if (o->reserved[i])
            return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                                   "codec_redis_options.reserved must be zero");
    if (o->port < 0 || o->port > 65535 || o->db < 0)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "redis",
                               CODEC_NO_OFFSET, "port must be 1..65535 and db not negative");
    r->connect_timeout_ms = o->connect_timeout_ms ? o->connect_timeout_ms
                                                  : CODEC_REDIS_DEFAULT_TIMEOUT_MS;
    r->command_timeout_ms = o->command_timeout_ms ? o->command_timeout_ms
                                                  : CODEC_REDIS_DEFAULT_TIMEOUT_MS;
    r->max_value = o->max_value ? o->max_value : CODEC_REDIS_DEFAULT_MAX_VALUE;
    if (o->url)
        return codec_redis_parse_url(o->url, r->host, r->username, r->password,
                                     sizeof r->host, &r->port, &r->db, err);
    r->port = o->port ? o->port : CODEC_REDIS_DEFAULT_PORT;
    r->db = o->db;
    int rc = copy_option(r->host, sizeof r->host, o->host ? o->host : "127.0.0.1", "host", err);
    if (!rc)
        rc = copy_option(r->username, sizeof r->username, o->username, "user name", err);
    if (!rc)
        rc = copy_option(r->password, sizeof r->password, o->password, "password", err);
    if (!rc && !r->host[0])
        rc = codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "redis",
                             CODEC_NO_OFFSET, "empty host");
    return rc;
}

int codec_redis_connect(const codec_redis_options *o, codec_redis **out, codec_error *err)
{
    static const codec_redis_options defaults;
    if (!out)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_connect needs somewhere to put the handle");
    *out = NULL;
    if (!o)
        o = &defaults;
    const codec_allocator *alloc = o->alloc ? o->alloc : codec_default_allocator();
    codec_redis *r = alloc->alloc(alloc->ctx, sizeof *r);
    if (!r)
        return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                               "out of memory");
    memset(r, 0, sizeof *r);
    r->alloc = alloc;
    codec_buf_init(&r->buf, alloc);
    int rc = apply_options(r, o, err);
    if (!rc)
        rc = open_context(r, err);
    if (rc) {
        codec_redis_free(r);
        return rc;
    }
    *out = r;
    return CODEC_OK;
}

void codec_redis_free(codec_redis *r)
{
    if (!r)
        return;
    drop_context(r);
    codec_buf_free(&r->buf);
    if (r->scratch_cap) {
        r->alloc->release(r->alloc->ctx, r->argv, r->scratch_cap * sizeof *r->argv);
        r->alloc->release(r->alloc->ctx, r->argvlen, r->scratch_cap * sizeof *r->argvlen);
        r->alloc->release(r->alloc->ctx, r->ends, r->scratch_cap * sizeof *r->ends);
    }
    OPENSSL_cleanse(r->password, sizeof r->password);
    r->alloc->release(r->alloc->ctx, r, sizeof *r);
}
