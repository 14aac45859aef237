/* redis_internal.h — the connection handle and the helpers shared by the
 * Redis calls (one concept per file: url.c, connection.c, reply.c,
 * scratch.c, single.c, multi.c, batch.c). */
#ifndef CODEC_REDIS_INTERNAL_H
#define CODEC_REDIS_INTERNAL_H

#include "codec/redis.h"

#include <hiredis/hiredis.h>
#include <stdbool.h>

#define REDIS_HOST_CAP 256
#define REDIS_SECRET_CAP 512

struct codec_redis {
    redisContext *ctx;            /* NULL or failed: reconnect before the next call */
    const codec_allocator *alloc;
    char host[REDIS_HOST_CAP];
    char username[REDIS_SECRET_CAP];
    char password[REDIS_SECRET_CAP];
    int port;
    int db;
    uint32_t connect_timeout_ms;
    uint32_t command_timeout_ms;
    size_t max_value;
    codec_buf buf;                /* encoded values, reused by every call */
    /* Scratch for multi-key commands, grown on demand and reused. */
    const char **argv;
    size_t *argvlen;
    size_t *ends;                 /* end offset in buf of each encoded value */
    size_t scratch_cap;           /* entries in argv/argvlen (ends has as many) */
};

/* connection.c: (re)connects when the context is missing or broken. */
int codec__redis_ready(codec_redis *r, codec_error *err);

/* connection.c: the transient error of a failed hiredis call (ctx->err set)
 * for command `what`; a read or write that timed out says so. `errno_now`
 * is errno right after the call. */
int codec__redis_io_error(codec_redis *r, const char *what, int errno_now, codec_error *err);

/* Who a reply is about: a key, or one field of the hash at a key. */
typedef struct redis_subject {
    const char *key;
    size_t key_len;
    const char *field;      /* NULL: the key itself */
    size_t field_len;
} redis_subject;

/* Room for "key '...' field '...'" with both parts cut and escaped. */
#define REDIS_SUBJECT_CAP (8 * CODEC_REDIS_KEY_IN_MESSAGE + 40)

/* reply.c: "key 'K'" or "key 'K' field 'F'", printable and bounded (long
 * parts cut with "...", other bytes as \xNN). */
void codec__redis_subject_text(const redis_subject *s, char *dst, size_t cap);

/* reply.c: outcome of one reply. Each takes the reply of its command. */
int codec__redis_reply_set(const redisReply *reply, const redis_subject *s, codec_error *err);
int codec__redis_reply_get(codec_redis *r, const redisReply *reply, const redis_subject *s,
                           const codec *c, void *value_out, codec_arena *arena, codec_error *err);
int codec__redis_reply_del(const redisReply *reply, const redis_subject *s, int *removed,
                           codec_error *err);
/* An error reply: WRONGTYPE is the key's fault (invalid payload), anything
 * else is the server's (transient). */
int codec__redis_reply_error(const redisReply *reply, const redis_subject *s, codec_error *err);
/* An error reply to a multi-key command (CROSSSLOT, OOM...): transient. */
int codec__redis_command_error(const redisReply *reply, const char *what, codec_error *err);
/* A reply of an unexpected type. */
int codec__redis_reply_unexpected(const redisReply *reply, const char *what, codec_error *err);

/* tx.c: after MULTI, `queued` commands and EXEC were appended: sends them,
 * reads every reply and succeeds only when EXEC ran every command without
 * an error reply. The first problem is reported. */
int codec__redis_tx_exec(codec_redis *r, size_t queued, codec_error *err);
/* tx.c: appending a transaction failed half way: drops the connection so
 * the partial transaction is never sent. Returns CODEC_E_NOMEM. */
int codec__redis_tx_unsent(codec_redis *r, codec_error *err);

/* scratch.c: room for `args` command arguments and `values` value ends. */
int codec__redis_scratch_reserve(codec_redis *r, size_t args, codec_error *err);
/* scratch.c: encodes each item's value that `wants` selects into r->buf,
 * recording r->ends[i]; an item that fails gets its status and error.
 * With `stop_on_error`, returns the first failure at once. */
int codec__redis_encode_items(codec_redis *r, codec_redis_item *items, size_t n, bool stop_on_error,
                              bool (*wants)(const codec_redis_item *), codec_error *err);
/* The selector of codec__redis_encode_items() that takes every item. */
bool codec__redis_every_item(const codec_redis_item *it);
/* The bytes r->buf holds for item i after codec__redis_encode_items(). */
const char *codec__redis_value_of(const codec_redis *r, size_t i, size_t *len);

/* Checks the arguments common to every call; `op` is the command every
 * item gets (mget, mset) or -1 for each item's own (batch). */
int codec__redis_check_key(const char *key, size_t key_len, codec_error *err);
int codec__redis_check_items(const codec_redis *r, const codec_redis_item *items, size_t n, int op,
                             codec_error *err);

#endif /* CODEC_REDIS_INTERNAL_H */
