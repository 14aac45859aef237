/* connection.c — opening, re-opening and closing the connection: timeouts,
 * AUTH and SELECT, and the transient errors of a broken socket. */
#include "redis_internal.h"
#include "core/error_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static struct timeval to_timeval(uint32_t ms)
{
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000};
    return tv;
}

/* Runs one setup command (AUTH, SELECT) and expects +OK. */
static int setup_command(codec_redis *r, const char *what, codec_error *err, const char *fmt,
                         const char *a1, const char *a2)
{
    redis_reply *reply;
    int rc = codec__redis_command(r, what, NULL, REDIS_SMALL_REPLY, &reply, err, fmt, a1, a2);
    if (rc)
        return rc;
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_command_error(reply, what, err);
    if (reply->type != REDIS_REPLY_STATUS)
        return codec__redis_reply_unexpected(reply, what, err);
    return CODEC_OK;
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
        codec__redis_drop(r);
        return rc;
    }
    codec__redis_begin(r);   /* AUTH and SELECT share one command timeout */
    char db[16];
    snprintf(db, sizeof db, "%d", r->db);
    int rc = CODEC_OK;
    r->generation++;
    if (r->password[0] && r->username[0])
        rc = setup_command(r, "AUTH", err, "AUTH %s %s", r->username, r->password);
    else if (r->password[0])
        rc = setup_command(r, "AUTH", err, "AUTH %s", r->password, NULL);
    if (!rc && r->db)
        rc = setup_command(r, "SELECT", err, "SELECT %s", db, NULL);
    if (rc)
        codec__redis_drop(r);
    return rc;
}

int codec__redis_ready(codec_redis *r, codec_error *err)
{
    int rc = CODEC_OK;
    if (!r->ctx || r->ctx->err) {
        codec__redis_drop(r);
        rc = open_context(r, err);
    }
    r->not_sent = rc != CODEC_OK;
    codec__redis_begin(r);
    return rc;
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
    r->wait_replicas = o->wait_replicas;
    r->wait_timeout_ms = o->wait_timeout_ms ? o->wait_timeout_ms : 1000;
    if (o->url && strncmp(o->url, "redis-cluster://", 16) == 0)
        return CODEC_OK;   /* parsed by codec__redis_cluster_open() */
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
    int rc = codec__dynlib_open(&codec__libhiredis, "redis", err);
    if (rc)
        return rc;   /* a handle exists only with hiredis open: its users need not check */
    if (!o)
        o = &defaults;
    const codec_allocator *alloc = o->alloc ? o->alloc : codec_default_allocator();
    codec_redis *r = alloc->alloc(alloc->ctx, sizeof *r);
    if (!r)
        return codec__nomem(err, "redis");
    memset(r, 0, sizeof *r);
    r->alloc = alloc;
    codec_buf_init(&r->buf, alloc);
    codec_arena_init(&r->replies, alloc, 0);
    rc = apply_options(r, o, err);
    if (!rc && o->url && strncmp(o->url, "redis-cluster://", 16) == 0)
        rc = codec__redis_cluster_open(r, o->url, err);
    else if (!rc)
        rc = open_context(r, err);
    if (rc) {
        codec_redis_free(r);
        return rc;
    }
    *out = r;
    return CODEC_OK;
}

int codec__redis_connect_like(const codec_redis *r, const char *host, int port, codec_redis **out,
                              codec_error *err)
{
    codec_redis_options o = {0};
    o.host = host;
    o.port = port;
    o.username = r->username[0] ? r->username : NULL;
    o.password = r->password[0] ? r->password : NULL;
    o.db = r->db;
    o.connect_timeout_ms = r->connect_timeout_ms;
    o.command_timeout_ms = r->command_timeout_ms;
    o.max_value = r->max_value;
    o.alloc = r->alloc;
    o.wait_replicas = r->wait_replicas;
    o.wait_timeout_ms = r->wait_timeout_ms;
    return codec_redis_connect(&o, out, err);
}

void codec_redis_free(codec_redis *r)
{
    if (!r)
        return;
    codec__redis_near_free(r);
    codec__redis_drop(r);
    codec__redis_cluster_free(r);
    codec_buf_free(&r->buf);
    codec_arena_free(&r->replies);
    if (r->scratch_cap) {
        r->alloc->release(r->alloc->ctx, r->argv, r->scratch_cap * sizeof *r->argv);
        r->alloc->release(r->alloc->ctx, r->argvlen, r->scratch_cap * sizeof *r->argvlen);
        r->alloc->release(r->alloc->ctx, r->ends, r->scratch_cap * sizeof *r->ends);
    }
    explicit_bzero(r->password, sizeof r->password);
    r->alloc->release(r->alloc->ctx, r, sizeof *r);
}
