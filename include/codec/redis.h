/* codec/redis.h — values in Redis through any codec pipeline (hiredis).
 *
 * Layer `integrations`: built only when hiredis is found (Debian
 * libhiredis-dev); the build then defines CODEC_HAVE_REDIS for you and for
 * every program that links codec.
 *
 *   codec_redis_options o = {0};
 *   o.url = "redis://127.0.0.1:6379/0";
 *   codec_redis *r;
 *   if (codec_redis_connect(&o, &r, &err)) ...;              // CODEC_E_TRANSIENT
 *   codec *c = codec_parse("zstd:3 | envelope:keyring=app.ring", NULL, &err);
 *   codec_bytes v = {data, len};
 *   rc = codec_redis_set(r, "order:42", 8, c, &v, 60000, &err);  // SET .. PX 60000
 *   rc = codec_redis_get(r, "order:42", 8, c, &back, &arena, &err);
 *   // rc: CODEC_OK, CODEC_E_NOT_FOUND, CODEC_E_TRANSIENT, CODEC_E_INVALID_PAYLOAD...
 *   codec_redis_free(r);
 *
 * Values: any codec. A bytes pipeline (no backend) takes and gives a
 * `codec_bytes`; a typed codec (json, cbor... over a codec_type) takes and
 * gives the C value it was built for. Keys are the caller's bytes, sent
 * binary-safe (they may hold NUL or any byte); nothing is prefixed.
 *
 * What each status means here (one table for every call):
 *   CODEC_OK                 done; for a set, the server acknowledged it.
 *   CODEC_E_NOT_FOUND        GET: the key does not exist (or has expired).
 *   CODEC_E_TRANSIENT        the connection or the server failed: refused,
 *                            reset, timed out, an error reply (NOAUTH, OOM,
 *                            READONLY, MOVED...). The message is Redis's or
 *                            the socket's own. For a write, the outcome is
 *                            unknown when the connection failed after the
 *                            command was sent (the message says so).
 *   CODEC_E_INVALID_PAYLOAD  the key's bytes did not decode (the codec's
 *                            detail, stage and offset are kept and the
 *                            message starts with `key 'NAME': `), the key
 *                            holds another Redis type (WRONGTYPE), or the
 *                            value is over `max_value`.
 *   CODEC_E_INVALID_VALUE,
 *   CODEC_E_UNSUPPORTED,
 *   CODEC_E_NOMEM            as the codec reports them (nothing was sent
 *                            when encoding failed).
 *   CODEC_E_USAGE            a bad argument or option.
 *
 * Reconnection: after a connection failure the handle reconnects (with
 * AUTH and SELECT again) at the start of the next call; a call is never
 * retried behind your back, so a write is never applied twice by codec.
 *
 * Timeouts: command_timeout_ms bounds each whole call (every byte sent
 * and every reply read), and each 1,024-command window of a batch.
 *
 * A hostile server: replies are read by codec's own bounded reader. A bulk
 * over max_value fails the call (CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT)
 * before any of it is buffered; an array larger than the command can
 * answer, a line over 16 KiB or arrays nested over 8 deep fail it as a
 * protocol error (CODEC_E_TRANSIENT, CODEC_D_CORRUPT). Either closes the
 * connection. Peak memory of a single-key call: max_value + 16 KiB + a few
 * reply nodes, whatever the server sends.
 *
 * Signals: codec writes with MSG_NOSIGNAL and leaves signal dispositions
 * alone; its writes never raise SIGPIPE.
 *
 * Threads: a codec_redis is one connection: use it from one thread at a
 * time (give each thread its own, or pool them). Codecs may be shared.
 *
 * Cluster (a redis-cluster:// URL): the same calls. Each key goes to the
 * master of its slot; MOVED updates the slot map (from a call's third
 * attempt on, after the backoff below: nodes still disagreeing on a slot's
 * owner can bounce a client), ASK is followed once
 * (ASKING), TRYAGAIN and CLUSTERDOWN are retried with backoff (10 ms
 * doubling, at most 8 attempts), and a node that cannot be reached makes
 * the handle relearn the map (after a failover, the promoted replica).
 * A call is retried only when the cluster said the command was not run or
 * nothing was sent; a write whose reply was lost stays "outcome unknown".
 * - codec_redis_batch() and codec_redis_mget() are split by node and keep
 *   per-item status in your order. Every node's share is pipelined at the
 *   same time from the calling thread (each node's 1,024-command window
 *   is written before any node's replies are read, so the nodes work in
 *   parallel; GETs decode into your arena from that one thread). Reading a
 *   node's window has its own command timeout.
 * - codec_redis_mset() stays atomic, so all its keys must share one slot
 *   (use a `{tag}`); keys in several slots are CODEC_E_USAGE, nothing is
 *   sent: a cross-slot MSET cannot be atomic on a cluster. Use
 *   codec_redis_batch() for per-item writes, with per-item status.
 * - hset/hget and the struct forms route by their key.
 * "Acknowledged" is the master's reply: Redis replicates asynchronously,
 * so a master that dies before its replica copied a write loses it. Set
 * wait_replicas for WAIT after each write. See docs/guides/redis.md.
 */
#ifndef CODEC_REDIS_H
#define CODEC_REDIS_H

#include "compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The opaque connection handle. */
typedef struct codec_redis codec_redis;

/** Default port, connect timeout and command timeout. */
#define CODEC_REDIS_DEFAULT_PORT 6379
#define CODEC_REDIS_DEFAULT_TIMEOUT_MS 2000u
/** Default cap on one value read from the server (max_value). */
#define CODEC_REDIS_DEFAULT_MAX_VALUE ((size_t)64 << 20)
/** Longest key named in an error message; longer keys are cut with "...". */
#define CODEC_REDIS_KEY_IN_MESSAGE 40

/** How to reach the server. All-zero means 127.0.0.1:6379, db 0, no AUTH,
 * 2 s timeouts, 64 MiB values.
 *
 * `url`, when set, replaces host, port, username, password and db:
 *   redis://[[USERNAME]:PASSWORD@]HOST[:PORT][/DB]
 * or, for a Redis Cluster (since 0.2), one or more seed nodes:
 *   redis-cluster://[[USERNAME]:PASSWORD@]HOST:PORT[,HOST:PORT...]
 * The handle then learns the slot map (CLUSTER SLOTS) from the first seed
 * that answers and routes every key to its node; see "Cluster" below.
 * HOST is a name, an IPv4 address or [IPv6]; PORT is 1..65535; DB is
 * 0..2147483647; USERNAME and PASSWORD may use %XX escapes. Nothing else is
 * accepted: no query string, no fragment, no rediss:// (TLS is not built
 * in), no unix: sockets; a malformed URL is CODEC_E_USAGE naming what is
 * wrong and where, and never falls back to a default. */
typedef struct codec_redis_options {
    const char *url;
    const char *host;                 /* NULL = "127.0.0.1" */
    int port;                         /* 0 = 6379 */
    const char *username;             /* ACL user (Redis 6+); NULL = none */
    const char *password;             /* NULL = no AUTH */
    int db;                           /* SELECT db when nonzero */
    uint32_t connect_timeout_ms;      /* 0 = 2000 */
    uint32_t command_timeout_ms;      /* per call (per batch window); 0 = 2000 */
    size_t max_value;                 /* largest value a get accepts; 0 = 64 MiB */
    const codec_allocator *alloc;     /* for the handle and its buffers; NULL = libc */
    /* Since 0.2: after every write (set, del, mset, hset, each batch's
     * SET/DEL), `WAIT wait_replicas wait_timeout_ms`; a write that fewer
     * replicas acknowledged in time is CODEC_E_TRANSIENT ("written on the
     * master, acknowledged by k of N replicas"), never 0. 0 = no WAIT. */
    uint32_t wait_replicas;
    uint32_t wait_timeout_ms;         /* 0 = 1000 when wait_replicas is set */
    uint64_t reserved[3];             /* must be zero */
} codec_redis_options;

/** codec_redis_connect() — opens a connection, authenticates and selects
 * the database.
 * @param o    may be NULL for the defaults; not kept (strings are copied).
 * @param out  receives the handle (free with codec_redis_free()); NULL on
 *             failure.
 * @return 0; CODEC_E_USAGE for a bad URL or option; CODEC_E_TRANSIENT when
 *         the server cannot be reached in time or refuses AUTH/SELECT
 *         (Redis's message, e.g. "WRONGPASS invalid username-password pair");
 *         CODEC_E_NOMEM.
 * Threads: safe (each call makes its own handle). Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_connect(const codec_redis_options *o,
                                                  codec_redis **out, codec_error *err);

/** codec_redis_slot() — the Redis Cluster hash slot of a key: CRC16
 * (XMODEM) of the key, or of its first non-empty `{tag}`, modulo 16384.
 * Keys with the same tag share a slot. Since 0.2. Threads: safe. */
CODEC_API unsigned codec_redis_slot(const void *key, size_t key_len);

/** codec_redis_parse_url() — the URL rules of codec_redis_options, as a
 * check: fills host (NUL-terminated, brackets removed), port, db and the
 * decoded user and password into the caller's buffers (each `cap` bytes).
 * @return 0 or CODEC_E_USAGE (stage "redis", offset = position in `url`). Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_parse_url(const char *url, char *host, char *username,
                                    char *password, size_t cap, int *port, int *db,
                                    codec_error *err);

/** codec_redis_free() — closes the connection. NULL is allowed. Since 0.1. */
CODEC_API void codec_redis_free(codec_redis *r);

/** codec_redis_set() — encodes `value` through `c` and stores it:
 * `SET key bytes` or, when ttl_ms > 0, `SET key bytes PX ttl_ms`.
 * @param key     key_len bytes, any bytes; not kept.
 * @param value   what `c` encodes (a codec_bytes for a bytes pipeline).
 * @param ttl_ms  0 = no expiry (an existing one is removed, as SET does);
 *                negative is CODEC_E_USAGE.
 * @return 0 once the server acknowledged; the codec's status when encoding
 *         failed (nothing sent); CODEC_E_TRANSIENT.
 * Allocates: nothing of its own once the connection's buffer has grown to
 *         the largest encoded value (hiredis allocates per command). Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_set(codec_redis *r, const char *key, size_t key_len,
                                              const codec *c, const void *value, int64_t ttl_ms,
                                              codec_error *err);

/** codec_redis_get() — `GET key`, then decodes through `c` into value_out.
 * The value's bytes are read from the socket straight into `arena`, so the
 * value (and everything it points at) lives as long as the arena.
 * @return 0; CODEC_E_NOT_FOUND (value_out untouched); CODEC_E_INVALID_PAYLOAD
 *         naming the key (also for a value over max_value, detail LIMIT, which
 *         is never copied); the codec's other statuses; CODEC_E_TRANSIENT. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_get(codec_redis *r, const char *key, size_t key_len,
                                              const codec *c, void *value_out,
                                              codec_arena *arena, codec_error *err);

/** codec_redis_del() — `DEL key`. *removed (may be NULL) is 1 when the key
 * existed. @return 0 or CODEC_E_TRANSIENT. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_del(codec_redis *r, const char *key, size_t key_len,
                                              int *removed, codec_error *err);

/* ---------------------------------------------------------------------------
 * Near cache: recent values kept in process, invalidated by the server
 * ------------------------------------------------------------------------ */

/** Bounds of a near cache. Since 0.2. */
typedef struct codec_redis_near_cache_options {
    size_t max_entries;       /* 0 = 10000 (per node on a cluster) */
    size_t max_bytes;         /* keys + stored values + 64 B per entry; 0 = 64 MiB
                                 (per node on a cluster) */
    uint32_t ttl_ms;          /* an entry is dropped this long after it was read; 0 = never */
    uint32_t reserved[3];     /* must be zero */
} codec_redis_near_cache_options;

/** What a near cache did since it was enabled. Since 0.2. */
typedef struct codec_redis_near_stats {
    uint64_t hits, misses;
    uint64_t evictions;       /* dropped for room (LRU) or by their TTL */
    uint64_t invalidations;   /* keys the server said changed, and flushes */
    uint64_t flushes;         /* the whole cache emptied: tracking was lost (or, on a
                                 cluster, the slot map changed; counted per node) */
    size_t entries, bytes;    /* now */
} codec_redis_near_stats;

/** codec_redis_enable_near_cache() — keeps the bytes of values read by
 * codec_redis_get() in process, so that a later get of the same key
 * decodes them without a round trip. The server keeps the cache correct:
 * the handle opens a second connection subscribed to __redis__:invalidate
 * and turns on `CLIENT TRACKING on REDIRECT <its id>` (RESP2), so Redis
 * names every key this handle read that anyone then changed. Every get
 * first reads those messages and drops the keys they name (a FLUSHALL or
 * a lost tracking table drops everything). If the invalidation
 * connection fails, or the data connection is re-opened (its tracking is
 * then gone), the cache is emptied and nothing is served from it until
 * tracking is back (it is restored at the next get). Own sets and dels
 * drop their key at once.
 * A connection can also die without closing (a stopped or cut-off
 * server): a hit is served only when the invalidation connection proved
 * itself alive at most 1 s before (tracking set up, or a PING on it
 * answered, which comes after every invalidation queued before it); else
 * the get PINGs it first, and empties the cache when no answer comes
 * within the command timeout. Own sets, dels, msets and batch writes drop
 * their keys at once.
 * Guarantee: a get never serves a value the server has changed since the
 * invalidation of that change reached the handle; between the write and
 * that moment (one network hop) a get may serve the previous value, and
 * never for longer than 1 s plus the command timeout if the invalidations
 * stop coming.
 * Values are cached as stored (a hit still decodes). Only single-key
 * get is served from the cache (not mget, batch or hget).
 * Cluster handles: each node connection has its own cache and
 * its own invalidation connection (REDIRECT per node); a change of the
 * slot map (a MOVED, or a refresh that differs) and any node losing its
 * tracking empty every node's cache; a get redirected by ASK (a slot
 * mid-migration) neither uses nor fills it. The bounds apply per node.
 * Threads: as the handle (one thread at a time).
 * @param o  NULL for the defaults.
 * @return 0; CODEC_E_USAGE; CODEC_E_UNSUPPORTED (a server without CLIENT
 *         TRACKING, Redis < 6); CODEC_E_TRANSIENT (on a cluster: no node
 *         could be reached); NOMEM.
 * Since 0.2. */
CODEC_API CODEC_NODISCARD int codec_redis_enable_near_cache(
    codec_redis *r, const codec_redis_near_cache_options *o, codec_error *err);

/** codec_redis_near_cache_stats() — the counters (all zero without a near
 * cache). Since 0.2. */
CODEC_API void codec_redis_near_cache_stats(const codec_redis *r,
                                            codec_redis_near_stats *out);

/* ---------------------------------------------------------------------------
 * Many keys at once
 * ------------------------------------------------------------------------ */

/** What a batch item does. */
typedef enum codec_redis_op {
    CODEC_REDIS_GET = 0,
    CODEC_REDIS_SET = 1,
    CODEC_REDIS_DEL = 2
} codec_redis_op;

/** One key of a multi-key call. Fill the inputs; the call fills `status`
 * and, when status != 0, `error`. */
typedef struct codec_redis_item {
    codec_redis_op op;        /* batch only; mget/mset ignore it */
    const char *key;
    size_t key_len;
    const codec *codec;       /* each item has its own pipeline (DEL: unused) */
    const void *value;        /* SET: the value to encode */
    void *value_out;          /* GET: where the decoded value goes */
    int64_t ttl_ms;           /* SET: 0 = no expiry */
    int status;               /* out: CODEC_OK, CODEC_E_NOT_FOUND, ... */
    codec_error error;        /* out: valid when status != CODEC_OK */
} codec_redis_item;

/** Most items in one multi-key call. */
#define CODEC_REDIS_MAX_ITEMS 1000000u

/** codec_redis_mget() — one `MGET k1 .. kn`, each value decoded through its
 * item's codec into its value_out (memory in `arena`).
 * @return 0 when the command ran: each item then has its own status (OK,
 *         NOT_FOUND, INVALID_PAYLOAD...); CODEC_E_TRANSIENT (every item gets
 *         it too) when the command failed; CODEC_E_USAGE. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_mget(codec_redis *r, codec_redis_item *items,
                                               size_t n, codec_arena *arena, codec_error *err);

/** codec_redis_mset() — writes every item, all or nothing.
 * Every value is encoded first; if one fails, nothing is sent and that
 * item's status is returned. Without TTLs this is one `MSET` (atomic);
 * when any item has ttl_ms > 0 it is `MULTI`, one `SET .. [PX]` per item,
 * `EXEC`, pipelined (atomic too: a queueing error aborts the whole EXEC).
 * @return 0 only when the server acknowledged every item (each item's
 *         status is then 0); otherwise the failure, copied to every item
 *         (CODEC_E_TRANSIENT; "outcome unknown" when the connection broke
 *         after the command was sent). Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_mset(codec_redis *r, codec_redis_item *items,
                                               size_t n, codec_error *err);

/** codec_redis_batch() — a pipelined batch: every item's command is sent
 * (SET [PX], GET or DEL, in order, values encoded first) and its reply
 * read, 1024 commands in flight at a time (one round trip per 1024, and the
 * replies that came before a break are never lost). Not atomic: each item
 * reports its own outcome.
 * - An item whose value failed to encode is not sent (its status is the
 *   codec's); the others still run.
 * - When the connection breaks mid-batch, items answered before the break
 *   keep their status and every later item gets CODEC_E_TRANSIENT: "no
 *   reply (a SET or DEL may have been applied)" for the commands in flight,
 *   "not sent: ..." for those after them (certainly not applied).
 * - GET: CODEC_E_NOT_FOUND or the decode result; DEL: 0 (a missing key is
 *   not an error).
 * @return 0 when every item has status 0 or CODEC_E_NOT_FOUND; otherwise
 *         the status of the first other item, with its error in `err`. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_batch(codec_redis *r, codec_redis_item *items,
                                                size_t n, codec_arena *arena,
                                                codec_error *err);

/* ---------------------------------------------------------------------------
 * Hash fields: one value per field of a Redis hash
 * ------------------------------------------------------------------------ */

/** codec_redis_hset() — writes fields of the hash at `key`, each through its
 * own codec: item `key`/`key_len` is the FIELD name, `codec` and `value` as
 * for a set (`op` and `ttl_ms` of the items are ignored). This is the layer
 * a struct-to-hash mapping sits on: one field per struct member, each with
 * the codec that suits it (a small enum as plain text, a blob through zstd).
 * Every value is encoded first; if one fails, nothing is sent.
 * Without a TTL this is one `HSET key f1 v1 ..` (atomic). With ttl_ms > 0
 * it is one `EVAL` of a short Lua script that checks the key's type, sets
 * the fields and `PEXPIRE`s the key (the TTL is the whole hash's, as Redis
 * keeps it): atomic too, nothing is written when the key is not a hash.
 * (MULTI/EXEC would not be: EXEC runs the PEXPIRE even when the HSET fails.)
 * @return 0 once the server acknowledged; otherwise the failure, copied to
 *         every field: the codec's status, CODEC_E_TRANSIENT, or
 *         CODEC_E_INVALID_PAYLOAD (WRONGTYPE) when `key` is not a hash. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_hset(codec_redis *r, const char *key, size_t key_len,
                                               codec_redis_item *fields, size_t n,
                                               int64_t ttl_ms, codec_error *err);

/** codec_redis_hget() — `HMGET key f1 .. fn`, each field decoded through its
 * item's codec into its value_out (memory in `arena`). Messages name both,
 * `key 'order:42' field 'total': ...`.
 * @return 0 when at least one field exists: each field then has its own
 *         status (a missing field is CODEC_E_NOT_FOUND); CODEC_E_NOT_FOUND
 *         when none does (Redis cannot tell a missing hash from one without
 *         these fields); CODEC_E_INVALID_PAYLOAD (WRONGTYPE) when `key` is
 *         not a hash; CODEC_E_TRANSIENT; CODEC_E_USAGE. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_hget(codec_redis *r, const char *key, size_t key_len,
                                               codec_redis_item *fields, size_t n,
                                               codec_arena *arena, codec_error *err);

/* ---------------------------------------------------------------------------
 * A struct across a hash: one hash field per struct field
 * ------------------------------------------------------------------------ */


/** codec_redis_hset_struct() — writes each field of `value`, a C struct
 * described by `struct_type` (codec/types.h), into its own field of the hash
 * at `key`: the hash field is the struct field's wire name and its value is
 * the member encoded by a codec built from `field_spec` for that member's
 * type alone (codec_parse(field_spec, field->type)). So "json" stores
 * `name` as "\"Ada\"" and `age` as "36", and "msgpack | zstd" compresses
 * each member on its own. Backends that only encode messages (protobuf) are
 * refused for non-struct fields. Then as codec_redis_hset(): every field is
 * encoded first, nothing is sent if one fails, one atomic HSET (or the TTL
 * script for ttl_ms > 0, a TTL on the whole hash). Fields of the hash that
 * the struct does not name are left alone.
 * @return 0; CODEC_E_USAGE (not a struct, bad spec for a field: the message
 *         names the field); the statuses of codec_redis_hset().
 * Allocates: one codec per field and their item array, per call (parse
 *         cost grows with the number of fields; for a hot path with many
 *         fields build the codecs once and call codec_redis_hset()).
 * Threads: as every call, one connection from one thread at a time. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_hset_struct(codec_redis *r, const char *key,
                                                      size_t key_len,
                                                      const codec_type *struct_type,
                                                      const void *value, const char *field_spec,
                                                      int64_t ttl_ms, codec_error *err);

/** codec_redis_hget_struct() — the reverse: zeroes *value_out
 * (struct_type->size bytes), reads every struct field's hash field with one
 * HMGET and decodes each through its own codec (as above) into its member;
 * strings, lists and maps go in `arena`. A missing hash field leaves its
 * member zero (an OPTIONAL member absent).
 * @return 0 when at least one field exists and every present field decoded;
 *         CODEC_E_NOT_FOUND when none exists (or the key does not);
 *         CODEC_E_INVALID_PAYLOAD for the first field whose bytes do not
 *         decode, the message naming both (`key 'user:1' field 'age': ...`),
 *         or WRONGTYPE; the statuses of codec_redis_hget(). On failure the
 *         members of *value_out are unspecified. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_redis_hget_struct(codec_redis *r, const char *key,
                                                      size_t key_len,
                                                      const codec_type *struct_type,
                                                      void *value_out, const char *field_spec,
                                                      codec_arena *arena, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_REDIS_H */
