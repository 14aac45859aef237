/* redis_internal.h — the connection handle and the helpers shared by the
 * Redis calls (one concept per file: url.c, connection.c, reply.c,
 * scratch.c, single.c, multi.c, batch.c). */
#ifndef CODEC_REDIS_INTERNAL_H
#define CODEC_REDIS_INTERNAL_H

#include "codec/redis.h"
#include "core/escape_internal.h"
#include "libhiredis_internal.h"

#include <stdbool.h>

#define REDIS_HOST_CAP 256
#define REDIS_SECRET_CAP 512
#define REDIS_SLOTS 16384
/* Most nodes a cluster handle knows (seeds, masters and redirect targets). */
#define REDIS_CLUSTER_MAX_NODES 128

struct redis_cluster;

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
    uint32_t wait_replicas;       /* WAIT after writes when nonzero */
    uint32_t wait_timeout_ms;
    bool asking;                  /* cluster: send ASKING before the next command */
    bool not_sent;                /* the last call failed before sending anything */
    struct redis_cluster *cluster; /* non-NULL: a cluster router (ctx unused) */
    struct redis_near *near;      /* non-NULL: the near cache in front of get */
    struct codec_redis *owner;    /* a cluster node's connection: the cluster handle */
    uint64_t generation;          /* counts the connections opened (tracking is per connection) */
    codec_buf buf;                /* encoded values, reused by every call */
    /* Scratch for multi-key commands, grown on demand and reused. */
    const char **argv;
    size_t *argvlen;
    size_t *ends;                 /* end offset in buf of each encoded value */
    size_t scratch_cap;           /* entries in argv/argvlen (ends has as many) */
    /* wire.c: the reader's state. */
    int64_t deadline_ms;          /* CLOCK_MONOTONIC ms when the current call times out */
    codec_arena replies;          /* reply nodes and lines of the latest reply */
    size_t in_pos, in_len;        /* unread bytes are in[in_pos..in_len) */
    char in[16384];               /* REDIS_LINE_MAX: a reply line must fit */
};

/* One reply, read by wire.c: the fields of hiredis's redisReply. Lives in
 * the connection's reply arena until the next codec__redis_read(), except a bulk
 * string read with a value arena, which lives in that arena. */
typedef struct redis_reply {
    int type;                     /* REDIS_REPLY_STRING, _ARRAY, _INTEGER, ... */
    long long integer;
    size_t len;                   /* of str, which is NUL-terminated too */
    char *str;
    size_t elements;
    struct redis_reply **element;
} redis_reply;

/* One node of a cluster: its address and, once used, its connection. */
typedef struct redis_node {
    char host[REDIS_HOST_CAP];
    int port;
    codec_redis *conn;
} redis_node;

typedef struct redis_cluster {
    redis_node nodes[REDIS_CLUSTER_MAX_NODES];
    size_t n_nodes;
    uint8_t slot_node[REDIS_SLOTS];   /* index into nodes, NO_NODE when unknown */
    bool stale;                       /* refresh the map before the next routing */
    size_t refresh_from;              /* node to ask first, rotated on failure */
    /* Near cache: one per node connection (tracking REDIRECT per node). */
    bool near_on;
    codec_redis_near_cache_options near_opts;
} redis_cluster;
#define REDIS_NO_NODE 0xff

/* Array elements a one-key reply may hold (none expected; a little slack
 * for unexpected replies, reported as such). */
#define REDIS_SMALL_REPLY 16

/* wire.c: starts the deadline of a call (command_timeout_ms from now). */
void codec__redis_begin(codec_redis *r);
/* wire.c: closes the connection; the next call reconnects. */
void codec__redis_drop(codec_redis *r);
/* wire.c: writes what was appended to the context (redisAppendCommand...)
 * before the deadline. On failure the connection is dropped. */
int codec__redis_send(codec_redis *r, const char *what, codec_error *err);
/* wire.c: reads one reply before the deadline, bounded: every bulk string
 * at most max_value (else CODEC_E_INVALID_PAYLOAD / CODEC_D_LIMIT), at most
 * `max_elements` array elements in all. Bulk strings go into `values` when
 * it is not NULL. Any failure drops the connection; the message starts
 * with `what`. */
int codec__redis_read(codec_redis *r, const char *what, codec_arena *values, size_t max_elements,
                      redis_reply **out, codec_error *err);
/* wire.c: append (printf-like, as redisCommand), send, read one reply. */
int codec__redis_command(codec_redis *r, const char *what, codec_arena *values, size_t max_elements,
                         redis_reply **out, codec_error *err, const char *fmt, ...);
/* wire.c: the same with r->argv[0..argc) / r->argvlen. */
int codec__redis_command_argv(codec_redis *r, const char *what, codec_arena *values,
                              size_t max_elements, size_t argc, redis_reply **out,
                              codec_error *err);

/* connection.c: another connection with r's credentials, db, timeouts and
 * limits, to host:port (a cluster node, the near cache's second one). */
int codec__redis_connect_like(const codec_redis *r, const char *host, int port, codec_redis **out,
                              codec_error *err);

/* connection.c: (re)connects when the context is missing, then starts
 * the call's deadline (codec__redis_begin). */
int codec__redis_ready(codec_redis *r, codec_error *err);

/* Who a reply is about: a key, or one field of the hash at a key. */
typedef struct redis_subject {
    const char *key;
    size_t key_len;
    const char *field;      /* NULL: the key itself */
    size_t field_len;
} redis_subject;

/* Room for "key '...' field '...'" with both parts cut and escaped. */
#define REDIS_SUBJECT_CAP (2 * CODEC_QUOTE_CAP(CODEC_REDIS_KEY_IN_MESSAGE) + 20)

/* reply.c: "key 'K'" or "key 'K' field 'F'", printable and bounded (long
 * parts cut with "...", other bytes as \xNN). */
void codec__redis_subject_text(const redis_subject *s, char *dst, size_t cap);

/* reply.c: outcome of one reply. Each takes the reply of its command. */
int codec__redis_reply_set(const redis_reply *reply, const redis_subject *s, codec_error *err);
/* A value reply must have been read with `arena` as its value arena: the
 * decoded value may point into those bytes. */
int codec__redis_reply_get(const redis_reply *reply, const redis_subject *s, const codec *c,
                           void *value_out, codec_arena *arena, codec_error *err);
/* Puts "key 'NAME': " in front of err's message, keeping the rest. */
int codec__redis_name_subject(int rc, const redis_subject *s, codec_error *err);
int codec__redis_reply_del(const redis_reply *reply, const redis_subject *s, int *removed,
                           codec_error *err);
/* An error reply: WRONGTYPE is the key's fault (invalid payload), anything
 * else is the server's (transient). */
int codec__redis_reply_error(const redis_reply *reply, const redis_subject *s, codec_error *err);
/* An error reply to a multi-key command (CROSSSLOT, OOM...): transient. */
int codec__redis_command_error(const redis_reply *reply, const char *what, codec_error *err);
/* A reply of an unexpected type. */
int codec__redis_reply_unexpected(const redis_reply *reply, const char *what, codec_error *err);

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
int codec__redis_check_items(const codec_redis *r, const codec_redis_item *items, size_t n,
                             int op, codec_error *err);

/* batch.c: one connection's share of a pipelined batch, run a window
 * (1024 commands) at a time, so that a caller can have a window in flight
 * on several connections at once: send every connection's window, then
 * read each one's replies (cluster_batch.c). Items get their status as in
 * codec_redis_batch(). */
typedef struct redis_pipe {
    codec_redis *r;
    codec_redis_item *items;
    size_t n;
    size_t from, to;        /* the window: items [from, to) */
    bool sent;              /* the window was sent, its replies not yet read */
    bool done;              /* every item has its status */
    codec_error lost;       /* how the connection broke */
} redis_pipe;
/* Reserves scratch, connects when needed and encodes the SETs' values.
 * On failure every item gets the status, the pipe is done, and the
 * status is returned. */
int codec__redis_pipe_start(redis_pipe *p, codec_redis *r, codec_redis_item *items, size_t n,
                            codec_error *err);
/* Writes the next window (nothing when done or already sent). */
void codec__redis_pipe_send(redis_pipe *p);
/* Reads the sent window's replies (WAIT after its writes when asked);
 * `restart_deadline` gives the reading its own command timeout (when
 * other connections were read first). */
void codec__redis_pipe_read(redis_pipe *p, codec_arena *arena, bool restart_deadline);

/* batch.c: 0 when every item is OK or NOT_FOUND, else the first other
 * item's status (its error copied to err). */
int codec__redis_batch_status(const codec_redis_item *items, size_t n, codec_error *err);

/* near_cache.c: a get through the near cache. Returns true when it was
 * served from the cache (*rc is then the decode's status); false when
 * the server must be asked (nothing cached, or tracking is not on). */
bool codec__redis_near_lookup(codec_redis *r, const redis_subject *s, const codec *c,
                              void *value_out, codec_arena *arena, int *rc, codec_error *err);
/* near_cache.c: keeps the bytes a GET returned, when tracking vouches. */
void codec__redis_near_store(codec_redis *r, const char *key, size_t key_len, const char *value,
                             size_t len);
/* near_cache.c: drops one key (own writes). */
void codec__redis_near_forget(codec_redis *r, const char *key, size_t key_len);
/* near_cache.c: drops the keys of the items that write (all of them when
 * `all_write`, as for MSET; else the SETs and DELs of a batch). */
void codec__redis_near_forget_writes(codec_redis *r, const codec_redis_item *items, size_t n,
                                     bool all_write);
void codec__redis_near_free(codec_redis *r);
/* near_cache.c: gives a cluster node's connection its near cache (the
 * cluster handle's options) when the handle has one and the node has not. */
int codec__redis_near_attach_node(codec_redis *cluster_handle, codec_redis *node,
                                  codec_error *err);
/* near_cache.c: the slot map changed, or a node lost its tracking: every
 * node's near cache is emptied before it serves again. */
void codec__redis_near_topology_changed(codec_redis *cluster_handle);

/* single.c: WAIT for r->wait_replicas after a write that succeeded;
 * CODEC_E_TRANSIENT when fewer replicas acknowledged in time. */
int codec__redis_wait(codec_redis *r, const char *what, codec_error *err);

/* url.c: redis-cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT...]: the
 * credentials into r, the seeds into c->nodes. */
int codec__redis_parse_cluster_url(const char *url, codec_redis *r, redis_cluster *c,
                                   codec_error *err);

/* cluster.c: the cluster forms of the public calls (r->cluster != NULL). */
int codec__redis_cluster_open(codec_redis *r, const char *url, codec_error *err);
void codec__redis_cluster_free(codec_redis *r);
int codec__redis_cluster_set(codec_redis *r, const char *key, size_t key_len, const codec *c,
                             const void *value, int64_t ttl_ms, codec_error *err);
int codec__redis_cluster_get(codec_redis *r, const char *key, size_t key_len, const codec *c,
                             void *value_out, codec_arena *arena, codec_error *err);
int codec__redis_cluster_del(codec_redis *r, const char *key, size_t key_len, int *removed,
                             codec_error *err);
int codec__redis_cluster_hset(codec_redis *r, const char *key, size_t key_len,
                              codec_redis_item *fields, size_t n, int64_t ttl_ms, codec_error *err);
int codec__redis_cluster_hget(codec_redis *r, const char *key, size_t key_len,
                              codec_redis_item *fields, size_t n, codec_arena *arena,
                              codec_error *err);
int codec__redis_cluster_mset(codec_redis *r, codec_redis_item *items, size_t n, codec_error *err);
/* cluster_batch.c */
int codec__redis_cluster_batch(codec_redis *r, codec_redis_item *items, size_t n,
                               codec_arena *arena, codec_error *err);
int codec__redis_cluster_mget(codec_redis *r, codec_redis_item *items, size_t n, codec_arena *arena,
                              codec_error *err);

/* cluster.c, for cluster_batch.c */
typedef enum redis_redirect_kind {
    REDIS_NOT_REDIRECTED = 0,
    REDIS_MOVED,
    REDIS_ASK,
    REDIS_TRYAGAIN,      /* TRYAGAIN, CLUSTERDOWN: wait and retry */
} redis_redirect_kind;
typedef struct redis_redirect {
    redis_redirect_kind kind;
    unsigned slot;
    char host[REDIS_HOST_CAP];
    int port;
} redis_redirect;
/* What a failed call's error says the cluster wants (a MOVED, ASK,
 * TRYAGAIN or CLUSTERDOWN reply), or REDIS_NOT_REDIRECTED. */
redis_redirect_kind codec__redis_redirect_of(int rc, const codec_error *e, redis_redirect *out);
/* The node serving `slot` after refreshing a stale map, or REDIS_NO_NODE. */
size_t codec__redis_cluster_route(codec_redis *r, unsigned slot, codec_error *err);
/* The connection to node i, opened on first use. */
int codec__redis_cluster_node(codec_redis *r, size_t i, codec_redis **out, codec_error *err);
/* Applies a MOVED (map update) and returns the index of the node a
 * redirect names (added when new), or REDIS_NO_NODE when the table is full. */
size_t codec__redis_cluster_follow(codec_redis *r, const redis_redirect *rd);
/* Sleeps the bounded backoff of attempt `attempt` (TRYAGAIN, CLUSTERDOWN). */
void codec__redis_cluster_backoff(int attempt);
/* Attempts a cluster call makes before giving up. */
#define REDIS_CLUSTER_ATTEMPTS 8

#endif /* CODEC_REDIS_INTERNAL_H */
