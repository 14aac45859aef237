/* fuzz_redis_reply.c — the adapter's RESP2 reader (src/redis/wire.c) on
 * arbitrary bytes from a "server": the bytes are written to one end of a
 * socket pair, whose other end is the connection. Every reply read must
 * be well formed (lengths match, arrays within the budget, bulks within
 * max_value); reading ends with an error, never a crash, a hang or a read
 * past the input. */
#include "codec/codec.h"
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#ifdef CODEC_HAVE_REDIS
#include "redis/redis_internal.h"

#include <sys/socket.h>
#include <unistd.h>

#define MAX_VALUE 1024
#define ELEMENTS 64

/* Every node of a reply is what the reader promised. */
static void check(const redis_reply *n, int depth)
{
    if (depth > 8)
        abort();
    switch (n->type) {
    case REDIS_REPLY_STRING:
        if (n->len > MAX_VALUE || n->str[n->len] != '\0')
            abort();
        break;
    case REDIS_REPLY_STATUS:
    case REDIS_REPLY_ERROR:
        if (strlen(n->str) > n->len)
            abort();
        break;
    case REDIS_REPLY_ARRAY:
        if (n->elements > ELEMENTS)
            abort();
        for (size_t i = 0; i < n->elements; i++)
            check(n->element[i], depth + 1);
        break;
    case REDIS_REPLY_INTEGER:
    case REDIS_REPLY_NIL:
        break;
    default:
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fds[2];
    /* The reader is called without codec_redis_connect(), which would open
     * hiredis for it. */
    if (codec__dynlib_open(&codec__libhiredis, "redis", NULL))
        return 0;
    if (size > 65536 || socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return 0;
    if (write(fds[1], data, size) != (ssize_t)size) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    close(fds[1]);   /* the "server" is done: the reader meets EOF, not a wait */
    codec_redis *r = calloc(1, sizeof *r);
    r->alloc = codec_default_allocator();
    r->ctx = redisConnectFd(fds[0]);
    r->max_value = MAX_VALUE;
    r->command_timeout_ms = 1000;
    snprintf(r->host, sizeof r->host, "fuzz");
    codec_arena_init(&r->replies, NULL, 0);
    codec_arena values;
    codec_arena_init(&values, NULL, 0);
    for (int i = 0; i < 10000 && r->ctx; i++) {
        redis_reply *reply;
        codec_error err;
        codec__redis_begin(r);
        if (codec__redis_read(r, "fuzz", &values, ELEMENTS, &reply, &err))
            break;
        check(reply, 0);
        codec_arena_reset(&values);
    }
    codec__redis_drop(r);
    codec_arena_free(&r->replies);
    codec_arena_free(&values);
    free(r);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    return 0;
}
#endif
