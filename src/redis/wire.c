/* wire.c — the bytes on the socket: sending the commands hiredis formatted
 * and reading their replies with codec's own bounded RESP2 reader.
 *
 * Why not hiredis's reader: Debian 12's hiredis (0.14) buffers a whole bulk
 * string before any callback sees it, allocates an array's element vector
 * from the count the server announces, and only knows per-read socket
 * timeouts. A hostile server (or anyone on the cleartext path) could make
 * it allocate gigabytes and keep a call alive for ever. This reader checks
 * every length before it allocates: a bulk over max_value, an array larger
 * than the command can answer, a line over REDIS_LINE_MAX or nesting over
 * REDIS_MAX_DEPTH ends the connection at once. Value bytes are read
 * straight into the caller's arena (one copy, no intermediate buffer), and
 * every wait is bounded by the call's deadline (codec__redis_begin). */
#include "redis_internal.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdalign.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* Deepest nesting of arrays accepted (EXEC of MGETs is 2). */
#define REDIS_MAX_DEPTH 8
/* The reply arena is freed rather than kept when a reply made it this big. */
#define REPLY_ARENA_KEEP ((size_t)256 << 10)
/* hiredis's output buffer is released rather than kept above this. */
#define OBUF_KEEP ((size_t)64 << 10)

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void codec__redis_begin(codec_redis *r)
{
    r->deadline_ms = now_ms() + (int64_t)r->command_timeout_ms;
}

void codec__redis_drop(codec_redis *r)
{
    redisFree(r->ctx);
    r->ctx = NULL;
    r->in_pos = r->in_len = 0;
}

/* The connection is unusable: closes it and reports why. */
static int lost(codec_redis *r, const char *what, int detail, codec_error *err,
                const char *fmt, ...)
{
    char why[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    codec__redis_drop(r);
    return codec_error_set(err, CODEC_E_TRANSIENT, detail, "redis", CODEC_NO_OFFSET,
                           "%s on %s:%d: %s", what, r->host, r->port, why);
}

static int protocol_error(codec_redis *r, const char *what, codec_error *err, const char *why)
{
    return lost(r, what, CODEC_D_CORRUPT, err, "protocol error: %s (connection closed)", why);
}

/* Waits until the socket is ready for `events`, or the call's deadline. */
static int wait_ready(codec_redis *r, short events, const char *what, codec_error *err)
{
    for (;;) {
        int64_t left = r->deadline_ms - now_ms();
        if (left <= 0)
            return lost(r, what, CODEC_D_IO, err, "timed out after %u ms",
                        r->command_timeout_ms);
        struct pollfd p = {r->ctx->fd, events, 0};
        int n = poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left);
        if (n > 0)
            return CODEC_OK;
        if (n < 0 && errno != EINTR)
            return lost(r, what, CODEC_D_IO, err, "%s", strerror(errno));
    }
}

int codec__redis_send(codec_redis *r, const char *what, codec_error *err)
{
    sds out = r->ctx->obuf;
    size_t len = sdslen(out), done = 0;
    while (done < len) {
        ssize_t n = send(r->ctx->fd, out + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return lost(r, what, CODEC_D_IO, err, "%s", strerror(errno));
        int rc = wait_ready(r, POLLOUT, what, err);
        if (rc)
            return rc;
    }
    if (sdsAllocSize(out) > OBUF_KEEP) {
        sdsfree(out);
        r->ctx->obuf = sdsempty();
        if (!r->ctx->obuf)
            return lost(r, what, 0, err, "%s", codec_status_name(CODEC_E_NOMEM));
    } else {
        sdsclear(out);
    }
    return CODEC_OK;
}

/* Reads at most `cap` bytes into dst, waiting up to the deadline. */
static int receive(codec_redis *r, char *dst, size_t cap, size_t *got, const char *what,
                   codec_error *err)
{
    for (;;) {
        ssize_t n = recv(r->ctx->fd, dst, cap, MSG_DONTWAIT);
        if (n > 0) {
            *got = (size_t)n;
            return CODEC_OK;
        }
        if (n == 0)
            return lost(r, what, CODEC_D_IO, err, "the server closed the connection");
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return lost(r, what, CODEC_D_IO, err, "%s", strerror(errno));
        int rc = wait_ready(r, POLLIN, what, err);
        if (rc)
            return rc;
    }
}

/* One reply line (without its CRLF), pointing into r->in: valid until the
 * next read. */
static int read_line(codec_redis *r, const char *what, const char **line, size_t *len,
                     codec_error *err)
{
    size_t scanned = r->in_pos;
    for (;;) {
        for (size_t i = scanned; i + 1 < r->in_len; i++) {
            if (r->in[i] == '\r' && r->in[i + 1] == '\n') {
                *line = r->in + r->in_pos;
                *len = i - r->in_pos;
                r->in_pos = i + 2;
                return CODEC_OK;
            }
        }
        if (r->in_pos) {   /* make room: the line moves to the front */
            memmove(r->in, r->in + r->in_pos, r->in_len - r->in_pos);
            r->in_len -= r->in_pos;
            r->in_pos = 0;
        }
        if (r->in_len == sizeof r->in)
            return protocol_error(r, what, err, "a reply line longer than 16 KiB");
        scanned = r->in_len ? r->in_len - 1 : 0;
        size_t got;
        int rc = receive(r, r->in + r->in_len, sizeof r->in - r->in_len, &got, what, err);
        if (rc)
            return rc;
        r->in_len += got;
    }
}

/* Exactly n bytes into dst: what r->in holds first, then straight from the
 * socket (a large value never passes through an intermediate buffer). */
static int read_exact(codec_redis *r, char *dst, size_t n, const char *what, codec_error *err)
{
    size_t have = r->in_len - r->in_pos, take = have < n ? have : n;
    memcpy(dst, r->in + r->in_pos, take);
    r->in_pos += take;
    for (size_t done = take; done < n;) {
        size_t got;
        int rc = receive(r, dst + done, n - done, &got, what, err);
        if (rc)
            return rc;
        done += got;
    }
    return CODEC_OK;
}

/* A RESP integer: an optional '-' and 1 to 19 digits, nothing else. */
static bool parse_integer(const char *s, size_t n, long long *out)
{
    bool neg = n && s[0] == '-';
    size_t i = neg;
    if (n == i || n - i > 19)
        return false;
    unsigned long long v = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    if (v > (unsigned long long)LLONG_MAX)
        return false;
    *out = neg ? -(long long)v : (long long)v;
    return true;
}

/* What one codec__redis_read() may still take. */
typedef struct read_budget {
    const char *what;
    codec_arena *values;    /* bulk strings go here when set */
    size_t elements_left;   /* array elements, summed over the whole reply */
} read_budget;

static int read_node(codec_redis *r, read_budget *b, int depth, redis_reply **out,
                     codec_error *err);

static int read_bulk(codec_redis *r, read_budget *b, long long n, redis_reply *node,
                     codec_error *err)
{
    if ((unsigned long long)n > r->max_value) {
        codec__redis_drop(r);
        return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "redis",
                               CODEC_NO_OFFSET,
                               "value of %lld bytes is over the limit of %zu (raise "
                               "max_value); the connection was closed without reading it",
                               n, r->max_value);
    }
    char *s = codec_arena_alloc(b->values ? b->values : &r->replies, (size_t)n + 1, 1);
    if (!s)
        return lost(r, b->what, 0, err, "out of memory for a value of %lld bytes", n);
    char crlf[2];
    int rc = read_exact(r, s, (size_t)n, b->what, err);
    if (!rc)
        rc = read_exact(r, crlf, 2, b->what, err);
    if (rc)
        return rc;
    if (crlf[0] != '\r' || crlf[1] != '\n')
        return protocol_error(r, b->what, err, "a bulk string not ended by CRLF");
    s[n] = '\0';
    node->type = REDIS_REPLY_STRING;
    node->str = s;
    node->len = (size_t)n;
    return CODEC_OK;
}

static int read_array(codec_redis *r, read_budget *b, int depth, long long n, redis_reply *node,
                      codec_error *err)
{
    if (depth >= REDIS_MAX_DEPTH)
        return protocol_error(r, b->what, err, "arrays nested too deep");
    if ((unsigned long long)n > b->elements_left) {
        char why[96];
        snprintf(why, sizeof why, "an array of %lld elements where at most %zu can come", n,
                 b->elements_left);
        return protocol_error(r, b->what, err, why);
    }
    b->elements_left -= (size_t)n;
    node->type = REDIS_REPLY_ARRAY;
    node->elements = (size_t)n;
    node->element = n ? codec_arena_alloc(&r->replies, (size_t)n * sizeof *node->element,
                                          alignof(redis_reply *))
                      : NULL;
    if (n && !node->element)
        return lost(r, b->what, 0, err, "out of memory for an array of %lld", n);
    for (size_t i = 0; i < node->elements; i++) {
        int rc = read_node(r, b, depth + 1, &node->element[i], err);
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

/* A status or error line, copied out of r->in. */
static int copy_line(codec_redis *r, read_budget *b, int type, const char *s, size_t n,
                     redis_reply *node, codec_error *err)
{
    char *copy = codec_arena_alloc(&r->replies, n + 1, 1);
    if (!copy)
        return lost(r, b->what, 0, err, "%s", codec_status_name(CODEC_E_NOMEM));
    memcpy(copy, s, n);
    copy[n] = '\0';
    node->type = type;
    node->str = copy;
    node->len = n;
    return CODEC_OK;
}

static int read_node(codec_redis *r, read_budget *b, int depth, redis_reply **out,
                     codec_error *err)
{
    const char *line = NULL;   /* set by read_line on success; gcc 12 cannot tell */
    size_t len = 0;
    int rc = read_line(r, b->what, &line, &len, err);
    if (rc)
        return rc;
    redis_reply *node = codec_arena_alloc(&r->replies, sizeof *node, alignof(redis_reply));
    if (!node)
        return lost(r, b->what, 0, err, "%s", codec_status_name(CODEC_E_NOMEM));
    memset(node, 0, sizeof *node);
    *out = node;
    long long n = 0;
    char kind = len ? line[0] : '\0';
    if (kind == '+' || kind == '-')
        return copy_line(r, b, kind == '+' ? REDIS_REPLY_STATUS : REDIS_REPLY_ERROR, line + 1,
                         len - 1, node, err);
    if ((kind != ':' && kind != '$' && kind != '*') || !parse_integer(line + 1, len - 1, &n)) {
        char why[64];
        snprintf(why, sizeof why, "a reply line starting with byte 0x%02x",
                 len ? (unsigned char)line[0] : 0);
        return protocol_error(r, b->what, err, why);
    }
    if (kind == ':') {
        node->type = REDIS_REPLY_INTEGER;
        node->integer = n;
        return CODEC_OK;
    }
    if (n == -1) {
        node->type = REDIS_REPLY_NIL;
        return CODEC_OK;
    }
    if (n < 0)
        return protocol_error(r, b->what, err, "a negative length");
    return kind == '$' ? read_bulk(r, b, n, node, err) : read_array(r, b, depth, n, node, err);
}

int codec__redis_read(codec_redis *r, const char *what, codec_arena *values, size_t max_elements,
                      redis_reply **out, codec_error *err)
{
    if (codec_arena_used(&r->replies) > REPLY_ARENA_KEEP) {
        codec_arena_free(&r->replies);
        codec_arena_init(&r->replies, r->alloc, 0);
    } else {
        codec_arena_reset(&r->replies);
    }
    if (!r->ctx)
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "redis", CODEC_NO_OFFSET,
                               "%s on %s:%d: the connection was closed earlier", what,
                               r->host, r->port);
    read_budget b = {what, values, max_elements};
    return read_node(r, &b, 0, out, err);
}

/* Sends what was appended and reads the command's reply; after a cluster
 * ASK, the ASKING that went first is answered first. */
static int exchange(codec_redis *r, const char *what, codec_arena *values,
                    size_t max_elements, redis_reply **out, codec_error *err)
{
    bool asking = r->asking;
    r->asking = false;
    int rc = codec__redis_send(r, what, err);
    if (!rc && asking) {
        rc = codec__redis_read(r, what, NULL, REDIS_SMALL_REPLY, out, err);
        if (!rc && (*out)->type != REDIS_REPLY_STATUS)
            rc = protocol_error(r, what, err, "ASKING was not answered +OK");
    }
    return rc ? rc : codec__redis_read(r, what, values, max_elements, out, err);
}

/* After a cluster ASK, ASKING goes first (then the command, pipelined). */
static bool append_asking(codec_redis *r)
{
    return !r->asking || redisAppendCommand(r->ctx, "ASKING") == REDIS_OK;
}

int codec__redis_command(codec_redis *r, const char *what, codec_arena *values, size_t max_elements,
                         redis_reply **out, codec_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int ok = append_asking(r) ? redisvAppendCommand(r->ctx, fmt, ap) : REDIS_ERR;
    va_end(ap);
    if (ok != REDIS_OK)
        return lost(r, what, 0, err, "out of memory formatting the command (not sent)");
    return exchange(r, what, values, max_elements, out, err);
}

int codec__redis_command_argv(codec_redis *r, const char *what, codec_arena *values,
                              size_t max_elements, size_t argc, redis_reply **out, codec_error *err)
{
    if (!append_asking(r) ||
        redisAppendCommandArgv(r->ctx, (int)argc, r->argv, r->argvlen) != REDIS_OK)
        return lost(r, what, 0, err, "out of memory formatting the command (not sent)");
    return exchange(r, what, values, max_elements, out, err);
}
