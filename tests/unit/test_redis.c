/* test_redis.c — the Redis adapter against a real redis-server that the
 * test starts on 127.0.0.1 (tests/redis_server.h): round trips through
 * every pipeline this build has, TTLs, not-found, MGET/MSET and batches,
 * hostile bytes in a key, AUTH/SELECT, timeouts, and a server killed in the
 * middle of a batch, with persistence checked after the restart. */
#ifdef CODEC_HAVE_REDIS
#include "redis_server.h"   /* first: it needs _GNU_SOURCE */
#endif

#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "codec/redis.h"
#include "redis_checks.h"

#include <pthread.h>
#include <sys/stat.h>

static redis_server server;
static char ring_path[128];

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static codec_redis *connect_to(const redis_server *s, uint32_t timeout_ms)
{
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", s->port);
    return redis_test_connect(url, timeout_ms, 0);
}

/* A raw hiredis connection, to put bytes in place behind the adapter. */
static redisContext *raw_connect(const redis_server *s)
{
    redisContext *c = redisConnect("127.0.0.1", s->port);
    CHECK(c && !c->err);
    return c;
}

static long long raw_integer(redisContext *c, const char *fmt, const char *key, size_t len)
{
    redisReply *r = redisCommand(c, fmt, key, len);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -999;
    freeReplyObject(r);
    return v;
}

static void raw_set(redisContext *c, const char *key, const void *v, size_t n)
{
    redisReply *r = redisCommand(c, "SET %s %b", key, v, n);
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
}

static void raw_command(redisContext *c, const char *cmd)
{
    redisReply *r = redisCommand(c, cmd);
    CHECK(r && r->type != REDIS_REPLY_ERROR);
    freeReplyObject(r);
}

static void make_ring(void)
{
    snprintf(ring_path, sizeof ring_path, "%s/test.ring", server.dir);
    char line[400];
    codec_error err;
    CHECK_INT(codec_keyring_generate_line("redis-test", line, sizeof line, &err), 0);
    FILE *f = fopen(ring_path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(line, f);
        fclose(f);
    }
    chmod(ring_path, 0600);
}

/* Parses `spec`; NULL (with a printed note, not a pass) when a stage of it
 * is not in this build. */
static codec *parse_or_skip(const char *spec)
{
    codec_error err = {0};
    codec *c = codec_parse(spec, NULL, &err);
    if (!c && err.detail == CODEC_D_UNKNOWN_STAGE)
        printf("note: skipping '%s': %s\n", spec, err.message);
    else if (!c)
        fprintf(stderr, "spec '%s': %s\n", spec, err.message);
    CHECK(c || err.detail == CODEC_D_UNKNOWN_STAGE);
    return c;
}

static void fill(uint8_t *p, size_t n, uint64_t seed, bool text)
{
    uint64_t s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++)
        p[i] = text ? (uint8_t)("order status shipped paid "[check_rand(&s) % 26])
                    : (uint8_t)check_rand(&s);
}

/* ---------------------------------------------------------------------------
 * Without a server
 * ------------------------------------------------------------------------ */

static void url_ok(const char *url, const char *host, int port, int db, const char *user,
                   const char *pass)
{
    char h[256], u[256], p[256];
    int port_out = -1, db_out = -1;
    codec_error err = {0};
    int rc = codec_redis_parse_url(url, h, u, p, sizeof h, &port_out, &db_out, &err);
    if (rc)
        fprintf(stderr, "url '%s': %s\n", url, err.message);
    CHECK_INT(rc, 0);
    if (rc)
        return;
    CHECK_STR(h, host);
    CHECK_INT(port_out, port);
    CHECK_INT(db_out, db);
    CHECK_STR(u, user);
    CHECK_STR(p, pass);
}

static void url_bad(const char *url, const char *needle)
{
    char h[256], u[256], p[256];
    int port = 0, db = 0;
    codec_error err = {0};
    CHECK_INT(codec_redis_parse_url(url, h, u, p, sizeof h, &port, &db, &err), CODEC_E_USAGE);
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "url '%s': message '%s' lacks '%s'\n", url, err.message, needle);
        CHECK(0);
    }
}

static void test_url(void)
{
    url_ok("redis://127.0.0.1", "127.0.0.1", 6379, 0, "", "");
    url_ok("redis://localhost:7000/", "localhost", 7000, 0, "", "");
    url_ok("redis://cache-1.internal:6380/15", "cache-1.internal", 6380, 15, "", "");
    url_ok("redis://:s3cret@127.0.0.1", "127.0.0.1", 6379, 0, "", "s3cret");
    url_ok("redis://app:p%40ss%3Aw@[::1]:6390/2", "::1", 6390, 2, "app", "p@ss:w");
    url_bad("http://127.0.0.1", "expected redis://");
    url_bad("rediss://127.0.0.1", "TLS");
    url_bad("redis://", "no host");
    url_bad("redis://127.0.0.1:0", "PORT in 1..65535");
    url_bad("redis://127.0.0.1:65536", "PORT in 1..65535");
    url_bad("redis://127.0.0.1:", "PORT");
    url_bad("redis://127.0.0.1:63x9", "PORT");
    url_bad("redis://127.0.0.1/db1", "/DB");
    url_bad("redis://127.0.0.1/1/2", "/DB");
    url_bad("redis://127.0.0.1?timeout=1", "query string");
    url_bad("redis://secret@127.0.0.1", "[USER]:PASSWORD");
    url_bad("redis://:a%4@127.0.0.1", "two hex digits");
    url_bad("redis://:a b@127.0.0.1", "escaped");
    url_bad("redis://ho st", "host name holds");
    url_bad("redis://[::1", "never closes");
    url_bad("redis://[::1]x", "':PORT'");
}

static void test_connect_errors(void)
{
    codec_redis *r = (codec_redis *)1;
    codec_error err = {0};
    codec_redis_options o = {0};
    o.url = "redis://127.0.0.1:99999";
    CHECK_INT(codec_redis_connect(&o, &r, &err), CODEC_E_USAGE);
    CHECK(r == NULL);
    o.url = NULL;
    o.reserved[1] = 1;
    CHECK_INT(codec_redis_connect(&o, &r, &err), CODEC_E_USAGE);
    /* A port nobody listens on: refused, transient, Redis's (the socket's) words. */
    o.reserved[1] = 0;
    o.host = "127.0.0.1";
    o.port = redis_server_free_port();
    CHECK_INT(codec_redis_connect(&o, &r, &err), CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "refused") != NULL);
    CHECK_STR(err.stage, "redis");
    CHECK(r == NULL);
    codec_redis_free(NULL);
}

/* ---------------------------------------------------------------------------
 * Round trips
 * ------------------------------------------------------------------------ */

static void round_trip(codec_redis *r, const codec *c, const char *key, size_t key_len,
                       const uint8_t *v, size_t n)
{
    codec_error err = {0};
    codec_bytes in = {v, n};
    int rc = codec_redis_set(r, key, key_len, c, &in, 0, &err);
    if (rc)
        fprintf(stderr, "set %s: %s\n", codec_spec(c), err.message);
    CHECK_INT(rc, 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out = {0};
    rc = codec_redis_get(r, key, key_len, c, &out, &arena, &err);
    if (rc)
        fprintf(stderr, "get %s: %s\n", codec_spec(c), err.message);
    CHECK_INT(rc, 0);
    CHECK_MEM(out.data, out.len, v, n);
    codec_arena_free(&arena);
}

static void test_round_trips(codec_redis *r)
{
    char ring_spec[200], zstd_ring[240];
    snprintf(ring_spec, sizeof ring_spec, "envelope:keyring=%s", ring_path);
    snprintf(zstd_ring, sizeof zstd_ring, "zstd:3 | envelope:keyring=%s", ring_path);
    const char *specs[] = {"hex", "hex:upper | hex", ring_spec, "zstd:3", "lz4", "snappy",
                           "gzip | base64", zstd_ring, "lz4 | crc32c"};
    static uint8_t big[200000];
    fill(big, sizeof big, 7, true);
    int ran = 0;
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec *c = parse_or_skip(specs[i]);
        if (!c)
            continue;
        ran++;
        round_trip(r, c, "rt:empty", 8, (const uint8_t *)"", 0);
        round_trip(r, c, "rt:small", 8, (const uint8_t *)"hello\0world", 11);
        round_trip(r, c, "rt:big", 6, big, sizeof big);
        round_trip(r, c, "rt\0nul\xff", 7, big, 1000);   /* a key with NUL and 0xff */
        codec_free(c);
    }
    CHECK(ran >= 3);   /* hex, hex|hex and envelope are always there */
}

/* What the server holds is exactly the pipeline's output: for `hex`, the
 * lowercase hex text of the value (computed here with snprintf). */
static void test_stored_bytes(codec_redis *r, redisContext *raw)
{
    codec_error err;
    codec *c = codec_parse("hex", NULL, &err);
    const uint8_t v[] = {0x00, 0x7f, 0xab, 0xff};
    codec_bytes in = {v, sizeof v};
    CHECK_INT(codec_redis_set(r, "stored", 6, c, &in, 0, &err), 0);
    redisReply *rep = redisCommand(raw, "GET stored");
    char want[9];
    for (size_t i = 0; i < sizeof v; i++)
        snprintf(want + 2 * i, 3, "%02x", v[i]);
    CHECK(rep && rep->type == REDIS_REPLY_STRING);
    if (rep && rep->type == REDIS_REPLY_STRING)
        CHECK_MEM(rep->str, (size_t)rep->len, want, 8);
    freeReplyObject(rep);
    codec_free(c);
}

static void test_ttl_and_not_found(codec_redis *r, redisContext *raw)
{
    codec_error err = {0};
    codec *c = codec_parse("hex", NULL, &err);
    codec_bytes in = {(const uint8_t *)"v", 1}, out;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);

    CHECK_INT(codec_redis_set(r, "ttl:a", 5, c, &in, 150, &err), 0);
    long long pttl = raw_integer(raw, "PTTL %b", "ttl:a", 5);
    CHECK(pttl > 0 && pttl <= 150);
    CHECK_INT(codec_redis_get(r, "ttl:a", 5, c, &out, &arena, &err), 0);
    redis_server_sleep_ms(400);
    CHECK_INT(codec_redis_get(r, "ttl:a", 5, c, &out, &arena, &err), CODEC_E_NOT_FOUND);
    CHECK_INT(err.family, CODEC_E_NOT_FOUND);
    CHECK_STR(err.message, "key 'ttl:a' not found");

    /* ttl 0 stores without expiry and clears an earlier one, as SET does. */
    CHECK_INT(codec_redis_set(r, "ttl:b", 5, c, &in, 60000, &err), 0);
    CHECK_INT(codec_redis_set(r, "ttl:b", 5, c, &in, 0, &err), 0);
    CHECK_INT(raw_integer(raw, "PTTL %b", "ttl:b", 5), -1);
    CHECK_INT(codec_redis_set(r, "ttl:b", 5, c, &in, -1, &err), CODEC_E_USAGE);

    int removed = -1;
    CHECK_INT(codec_redis_del(r, "ttl:b", 5, &removed, &err), 0);
    CHECK_INT(removed, 1);
    CHECK_INT(codec_redis_del(r, "ttl:b", 5, &removed, &err), 0);
    CHECK_INT(removed, 0);

    /* A long, binary key is named in a bounded, printable form. */
    char key[300];
    memset(key, 'k', sizeof key);
    key[1] = '\n';
    CHECK_INT(codec_redis_get(r, key, sizeof key, c, &out, &arena, &err), CODEC_E_NOT_FOUND);
    CHECK(strstr(err.message, "key 'k\\x0akkk") != NULL);
    CHECK(strstr(err.message, "...' not found") != NULL);
    codec_arena_free(&arena);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Many keys
 * ------------------------------------------------------------------------ */

#define MANY 64

static void test_mset_mget(codec_redis *r, redisContext *raw)
{
    codec_error err = {0};
    codec *c = codec_parse("hex:upper", NULL, &err);
    static char keys[MANY][16];
    static uint8_t vals[MANY][100];
    codec_bytes in[MANY], out[MANY];
    codec_redis_item items[MANY];
    memset(items, 0, sizeof items);
    for (int i = 0; i < MANY; i++) {
        snprintf(keys[i], sizeof keys[i], "m:%d", i);
        fill(vals[i], sizeof vals[i], (uint64_t)i, i % 2);
        in[i] = (codec_bytes){vals[i], (size_t)(i % 100)};
        items[i] = (codec_redis_item){.key = keys[i], .key_len = strlen(keys[i]), .codec = c,
                                      .value = &in[i], .value_out = &out[i]};
    }
    CHECK_INT(codec_redis_mset(r, items, MANY, &err), 0);
    CHECK_INT(raw_integer(raw, "PTTL %b", "m:1", 3), -1);
    items[5].key = "m:missing";
    items[5].key_len = 9;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_redis_mget(r, items, MANY, &arena, &err), 0);
    for (int i = 0; i < MANY; i++) {
        if (i == 5) {
            CHECK_INT(items[i].status, CODEC_E_NOT_FOUND);
            CHECK(strstr(items[i].error.message, "m:missing") != NULL);
        } else {
            CHECK_INT(items[i].status, 0);
            CHECK_MEM(out[i].data, out[i].len, in[i].data, in[i].len);
        }
    }

    /* With TTLs: MULTI / SET PX / EXEC. */
    for (int i = 0; i < MANY; i++)
        items[i].ttl_ms = i % 3 ? 60000 : 0;
    CHECK_INT(codec_redis_mset(r, items, MANY, &err), 0);
    long long t1 = raw_integer(raw, "PTTL %b", "m:1", 3);
    CHECK(t1 > 50000 && t1 <= 60000);
    CHECK_INT(raw_integer(raw, "PTTL %b", "m:3", 3), -1);

    /* All or nothing: with the server out of memory, MSET and the
     * transaction both fail and write no key. */
    raw_command(raw, "FLUSHALL");
    raw_command(raw, "CONFIG SET maxmemory 1");
    for (int ttl = 0; ttl < 2; ttl++) {
        for (int i = 0; i < MANY; i++)
            items[i].ttl_ms = ttl ? 1000 : 0;
        int rc = codec_redis_mset(r, items, MANY, &err);
        CHECK_INT(rc, CODEC_E_TRANSIENT);
        CHECK(strstr(err.message, "OOM") != NULL);
        CHECK_INT(items[MANY - 1].status, CODEC_E_TRANSIENT);
        CHECK_INT(raw_integer(raw, "EXISTS %b", "m:0", 3), 0);
        CHECK_INT(raw_integer(raw, "EXISTS %b", "m:63", 4), 0);
    }
    raw_command(raw, "CONFIG SET maxmemory 0");

    /* Argument checks. */
    CHECK_INT(codec_redis_mset(r, items, 0, &err), 0);
    items[2].codec = NULL;
    CHECK_INT(codec_redis_mget(r, items, MANY, &arena, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "item 2") != NULL);
    codec_arena_free(&arena);
    codec_free(c);
}

static void test_batch(codec_redis *r, redisContext *raw)
{
    codec_error err = {0};
    codec *c = codec_parse("hex", NULL, &err);
    raw_set(raw, "b:bad", "not hex!", 8);
    codec_bytes v1 = {(const uint8_t *)"one", 3}, v2 = {(const uint8_t *)"two", 3};
    codec_bytes o1 = {0}, o2 = {0}, o3 = {0}, o4 = {0};
    codec_redis_item items[] = {
        {.op = CODEC_REDIS_SET, .key = "b:1", .key_len = 3, .codec = c, .value = &v1},
        {.op = CODEC_REDIS_SET, .key = "b:2", .key_len = 3, .codec = c, .value = &v2,
         .ttl_ms = 5000},
        {.op = CODEC_REDIS_GET, .key = "b:1", .key_len = 3, .codec = c, .value_out = &o1},
        {.op = CODEC_REDIS_GET, .key = "b:none", .key_len = 6, .codec = c, .value_out = &o2},
        {.op = CODEC_REDIS_GET, .key = "b:bad", .key_len = 5, .codec = c, .value_out = &o3},
        {.op = CODEC_REDIS_DEL, .key = "b:1", .key_len = 3},
        {.op = CODEC_REDIS_GET, .key = "b:2", .key_len = 3, .codec = c, .value_out = &o4},
    };
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int rc = codec_redis_batch(r, items, 7, &arena, &err);
    CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);              /* the first real failure */
    CHECK(strstr(err.message, "key 'b:bad'") != NULL);
    CHECK_INT(items[0].status, 0);
    CHECK_INT(items[1].status, 0);
    CHECK_INT(items[2].status, 0);
    CHECK_MEM(o1.data, o1.len, "one", 3);
    CHECK_INT(items[3].status, CODEC_E_NOT_FOUND);
    CHECK_INT(items[4].status, CODEC_E_INVALID_PAYLOAD);
    CHECK_STR(items[4].error.stage, "hex");
    CHECK_INT(items[5].status, 0);
    CHECK_INT(items[6].status, 0);
    CHECK_MEM(o4.data, o4.len, "two", 3);
    CHECK_INT(raw_integer(raw, "EXISTS %b", "b:1", 3), 0);
    long long t = raw_integer(raw, "PTTL %b", "b:2", 3);
    CHECK(t > 0 && t <= 5000);

    /* Only gets and not-found: success. */
    rc = codec_redis_batch(r, items + 2, 2, &arena, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(items[2].status, CODEC_E_NOT_FOUND);
    codec_arena_free(&arena);
    codec_free(c);
}

/* A struct's fields across a hash, each field through its own codec. */
static void test_hash(codec_redis *r, redisContext *raw)
{
    char ring_spec[200];
    snprintf(ring_spec, sizeof ring_spec, "envelope:keyring=%s", ring_path);
    codec_error err = {0};
    codec *hex = codec_parse("hex", NULL, &err);
    codec *twice = codec_parse("hex:upper | hex", NULL, &err);
    codec *env = codec_parse(ring_spec, NULL, &err);
    codec_bytes status = {(const uint8_t *)"PAID", 4}, total = {(const uint8_t *)"42.50", 5},
                card = {(const uint8_t *)"4111-1111", 9};
    codec_bytes o_status = {0}, o_total = {0}, o_card = {0}, o_none = {0};
    codec_redis_item f[] = {
        {.key = "status", .key_len = 6, .codec = hex, .value = &status, .value_out = &o_status},
        {.key = "total", .key_len = 5, .codec = twice, .value = &total, .value_out = &o_total},
        {.key = "card", .key_len = 4, .codec = env, .value = &card, .value_out = &o_card},
        {.key = "none", .key_len = 4, .codec = hex, .value = &card, .value_out = &o_none},
    };
    CHECK_INT(codec_redis_hset(r, "o:1", 3, f, 3, 0, &err), 0);
    CHECK_INT(raw_integer(raw, "HLEN %b", "o:1", 3), 3);
    CHECK_INT(raw_integer(raw, "PTTL %b", "o:1", 3), -1);
    redisReply *rep = redisCommand(raw, "HGET o:1 status");
    CHECK(rep && rep->type == REDIS_REPLY_STRING && strcmp(rep->str, "50414944") == 0);
    freeReplyObject(rep);

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_redis_hget(r, "o:1", 3, f, 4, &arena, &err), 0);
    CHECK_INT(f[0].status, 0);
    CHECK_MEM(o_status.data, o_status.len, "PAID", 4);
    CHECK_INT(f[1].status, 0);
    CHECK_MEM(o_total.data, o_total.len, "42.50", 5);
    CHECK_INT(f[2].status, 0);
    CHECK_MEM(o_card.data, o_card.len, "4111-1111", 9);
    CHECK_INT(f[3].status, CODEC_E_NOT_FOUND);
    CHECK_STR(f[3].error.message, "key 'o:1' field 'none' not found");

    /* With a TTL: the EVAL script. */
    CHECK_INT(codec_redis_hset(r, "o:2", 3, f, 2, 60000, &err), 0);
    long long t = raw_integer(raw, "PTTL %b", "o:2", 3);
    CHECK(t > 50000 && t <= 60000);

    /* A field the codec cannot read, a missing hash, a key of another type. */
    raw_command(raw, "HSET o:1 total zz");
    CHECK_INT(codec_redis_hget(r, "o:1", 3, f, 2, &arena, &err), 0);
    CHECK_INT(f[1].status, CODEC_E_INVALID_PAYLOAD);
    CHECK(strncmp(f[1].error.message, "key 'o:1' field 'total': ", 25) == 0);
    CHECK_INT(codec_redis_hget(r, "o:none", 6, f, 2, &arena, &err), CODEC_E_NOT_FOUND);
    CHECK(strstr(err.message, "key 'o:none' not found") != NULL);
    raw_set(raw, "o:str", "x", 1);
    CHECK_INT(codec_redis_hget(r, "o:str", 5, f, 2, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "WRONGTYPE") != NULL);
    CHECK_INT(codec_redis_hset(r, "o:str", 5, f, 2, 0, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(codec_redis_hset(r, "o:str", 5, f, 2, 1000, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "WRONGTYPE") != NULL);
    CHECK_INT(raw_integer(raw, "PTTL %b", "o:str", 5), -1);   /* nothing written, no TTL */
    CHECK_INT(codec_redis_hset(r, "o:1", 3, f, 0, 0, &err), CODEC_E_USAGE);
    codec_arena_free(&arena);
    codec_free(env);
    codec_free(twice);
    codec_free(hex);
}

/* ---------------------------------------------------------------------------
 * Hostile data and errors
 * ------------------------------------------------------------------------ */

static void expect_invalid(codec_redis *r, const codec *c, const char *key, const char *needle)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out;
    codec_error err = {0};
    int rc = codec_redis_get(r, key, strlen(key), c, &out, &arena, &err);
    CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
    char want[160];
    snprintf(want, sizeof want, "key '%s': ", key);
    CHECK(strncmp(err.message, want, strlen(want)) == 0);
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
        CHECK(0);
    }
    codec_arena_free(&arena);
}

static void test_hostile(codec_redis *r, redisContext *raw)
{
    codec_error err = {0};
    codec *hex = codec_parse("hex", NULL, &err);
    raw_set(raw, "h:odd", "abc", 3);
    expect_invalid(r, hex, "h:odd", "");
    raw_set(raw, "h:bin", "\x00\x01\xfe", 3);
    expect_invalid(r, hex, "h:bin", "");
    raw_command(raw, "RPUSH h:list a b");
    expect_invalid(r, hex, "h:list", "WRONGTYPE");
    raw_command(raw, "HSET h:hash f v");
    expect_invalid(r, hex, "h:hash", "WRONGTYPE");

    char ring_spec[200];
    snprintf(ring_spec, sizeof ring_spec, "envelope:keyring=%s", ring_path);
    codec *env = codec_parse(ring_spec, NULL, &err);
    CHECK(env != NULL);
    /* A real envelope with one ciphertext bit flipped: tampering. */
    codec_buf sealed;
    codec_buf_init(&sealed, NULL);
    codec_bytes secret = {(const uint8_t *)"card=4111", 9};
    CHECK_INT(codec_encode(env, &secret, &sealed, &err), 0);
    sealed.data[sealed.len - 20] ^= 1;
    raw_set(raw, "h:env", sealed.data, sealed.len);
    expect_invalid(r, env, "h:env", "unable to decrypt");
    raw_set(raw, "h:env", sealed.data, 13);
    expect_invalid(r, env, "h:env", "truncated");
    codec_buf_free(&sealed);

    /* Random bytes through every pipeline this build has: a status, never a crash. */
    const char *specs[] = {"hex", ring_spec, "zstd:3", "lz4", "snappy", "gzip | base64",
                           "lz4 | crc32c"};
    uint64_t seed = 99;
    uint8_t junk[512];
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        codec *c = parse_or_skip(specs[s]);
        if (!c)
            continue;
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        for (int i = 0; i < 50; i++) {
            size_t n = (size_t)(check_rand(&seed) % sizeof junk);
            for (size_t k = 0; k < n; k++)
                junk[k] = (uint8_t)check_rand(&seed);
            raw_set(raw, "h:junk", junk, n);
            codec_bytes out;
            int rc = codec_redis_get(r, "h:junk", 6, c, &out, &arena, &err);
            CHECK(rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED ||
                  (rc == 0 && n == 0));
            if (rc)
                CHECK(strncmp(err.message, "key 'h:junk': ", 14) == 0);
            codec_arena_reset(&arena);
        }
        codec_arena_free(&arena);
        codec_free(c);
    }
    codec_free(env);
    codec_free(hex);
}

static void test_max_value(const redis_server *s)
{
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", s->port);
    codec_redis_options o = {0};
    o.url = url;
    o.max_value = 10;
    codec_redis *r;
    codec_error err = {0};
    CHECK_INT(codec_redis_connect(&o, &r, &err), 0);
    codec *c = codec_parse("hex", NULL, &err);
    codec_bytes in = {(const uint8_t *)"0123456789", 10}, out;
    CHECK_INT(codec_redis_set(r, "mv", 2, c, &in, 0, &err), 0);   /* 20 hex digits */
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_redis_get(r, "mv", 2, c, &out, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    CHECK_INT(codec_arena_used(&arena), 0);   /* refused before the copy */
    codec_arena_free(&arena);
    codec_free(c);
    codec_redis_free(r);
}

static void test_auth_and_db(const redis_server *s, redisContext *raw)
{
    codec_error err = {0};
    codec *c = codec_parse("hex", NULL, &err);
    codec_bytes in = {(const uint8_t *)"db3", 3}, out;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char url[96];
    codec_redis *r;
    codec_redis_options o = {0};
    o.url = url;

    /* SELECT through the URL: the key lands in db 3, not db 0. */
    snprintf(url, sizeof url, "redis://127.0.0.1:%d/3", s->port);
    CHECK_INT(codec_redis_connect(&o, &r, &err), 0);
    CHECK_INT(codec_redis_set(r, "in-db3", 6, c, &in, 0, &err), 0);
    CHECK_INT(raw_integer(raw, "EXISTS %b", "in-db3", 6), 0);
    CHECK_INT(codec_redis_get(r, "in-db3", 6, c, &out, &arena, &err), 0);
    codec_redis_free(r);

    raw_command(raw, "CONFIG SET requirepass s3cr@t");
    snprintf(url, sizeof url, "redis://:s3cr%%40t@127.0.0.1:%d/3", s->port);
    CHECK_INT(codec_redis_connect(&o, &r, &err), 0);
    CHECK_INT(codec_redis_get(r, "in-db3", 6, c, &out, &arena, &err), 0);
    CHECK_MEM(out.data, out.len, "db3", 3);
    codec_redis_free(r);

    snprintf(url, sizeof url, "redis://:wrong@127.0.0.1:%d", s->port);
    CHECK_INT(codec_redis_connect(&o, &r, &err), CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "AUTH") && strstr(err.message, "WRONGPASS"));

    snprintf(url, sizeof url, "redis://127.0.0.1:%d", s->port);
    CHECK_INT(codec_redis_connect(&o, &r, &err), 0);   /* no AUTH: commands are refused */
    CHECK_INT(codec_redis_get(r, "x", 1, c, &out, &arena, &err), CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "NOAUTH") != NULL);
    codec_redis_free(r);

    redisReply *rep = redisCommand(raw, "CONFIG SET requirepass %s", "");
    CHECK(rep && rep->type == REDIS_REPLY_STATUS);
    freeReplyObject(rep);
    codec_arena_free(&arena);
    codec_free(c);
}

/* A stopped server (SIGSTOP) accepts the bytes but never answers: the get
 * fails with transient once the command timeout passes, and the handle
 * reconnects once the server is back. */
static void test_timeout(redis_server *s)
{
    codec_redis *r = connect_to(s, 300);
    codec_error err = {0};
    codec *c = codec_parse("hex", NULL, &err);
    codec_bytes out;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    kill(s->pid, SIGSTOP);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = codec_redis_get(r, "t", 1, c, &out, &arena, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    kill(s->pid, SIGCONT);
    double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
    CHECK_INT(rc, CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "timed out after 300 ms") != NULL);
    CHECK(ms >= 250 && ms < 2000);
    printf("timeout: get failed after %.0f ms (timeout 300 ms)\n", ms);
    CHECK_INT(codec_redis_get(r, "t", 1, c, &out, &arena, &err), CODEC_E_NOT_FOUND);
    codec_arena_free(&arena);
    codec_free(c);
    codec_redis_free(r);
}

/* The connection's buffer is the only memory a set needs: after the first
 * set of the largest value, no more allocations through codec's allocator. */
typedef struct {
    size_t calls;
} alloc_count;
static void *count_alloc(void *ctx, size_t n)
{
    ((alloc_count *)ctx)->calls++;
    return malloc(n);
}
static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)old;
    ((alloc_count *)ctx)->calls++;
    return realloc(p, n);
}
static void count_release(void *ctx, void *p, size_t n)
{
    (void)ctx, (void)n;
    free(p);
}

static void test_steady_state(const redis_server *s)
{
    alloc_count count = {0};
    codec_allocator a = {count_alloc, count_resize, count_release, &count};
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", s->port);
    codec_redis_options o = {0};
    o.url = url;
    o.alloc = &a;
    codec_redis *r;
    codec_error err;
    CHECK_INT(codec_redis_connect(&o, &r, &err), 0);
    codec *c = codec_parse("hex:upper | hex", NULL, &err);
    static uint8_t v[4096];
    codec_bytes in = {v, sizeof v};
    CHECK_INT(codec_redis_set(r, "ss", 2, c, &in, 0, &err), 0);
    size_t warm = count.calls;
    for (int i = 0; i < 20; i++)
        CHECK_INT(codec_redis_set(r, "ss", 2, c, &in, 1000, &err), 0);
    CHECK_INT(count.calls, warm);
    codec_free(c);
    codec_redis_free(r);
}

/* ---------------------------------------------------------------------------
 * A server killed in the middle of a batch, then restarted
 * ------------------------------------------------------------------------ */

#define KILL_N 40000
#define KILL_AT (KILL_N / 4)   /* leaves three quarters of the batch to land in */

typedef struct {
    redis_server *s;
    long long seen;    /* DBSIZE when the server was killed */
} killer_args;

/* Watches DBSIZE on its own connection and SIGKILLs the server once a
 * quarter of the batch is in: the kill lands inside the batch, by design. */
static void *killer(void *p)
{
    killer_args *k = p;
    redisContext *c = redisConnect("127.0.0.1", k->s->port);
    for (int i = 0; c && !c->err && i < 20000; i++) {
        redisReply *rep = redisCommand(c, "DBSIZE");
        long long n = rep && rep->type == REDIS_REPLY_INTEGER ? rep->integer : -1;
        freeReplyObject(rep);
        if (n >= KILL_AT) {
            k->seen = n;
            break;
        }
        redis_server_sleep_ms(1);
    }
    kill(k->s->pid, SIGKILL);
    redisFree(c);
    return NULL;
}

static void test_kill_mid_batch(void)
{
    redis_server s;
    CHECK(redis_server_start(&s, true)); /* make test installs redis-server */
    if (!s.pid)
        return;
    codec_redis *r = connect_to(&s, 5000);
    codec_error err = {0};
    codec *c = codec_parse("hex", NULL, &err);
    static char keys[KILL_N][16];
    static uint8_t vals[KILL_N][64];
    static codec_bytes in[KILL_N];
    static codec_redis_item items[KILL_N];
    for (int i = 0; i < KILL_N; i++) {
        snprintf(keys[i], sizeof keys[i], "k:%d", i);
        fill(vals[i], sizeof vals[i], (uint64_t)i + 1000, false);
        in[i] = (codec_bytes){vals[i], sizeof vals[i]};
        items[i] = (codec_redis_item){.op = CODEC_REDIS_SET, .key = keys[i],
                                      .key_len = strlen(keys[i]), .codec = c, .value = &in[i]};
    }
    killer_args k = {&s, -1};
    pthread_t t;
    pthread_create(&t, NULL, killer, &k);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int rc = codec_redis_batch(r, items, KILL_N, &arena, &err);
    pthread_join(t, NULL);
    waitpid(s.pid, NULL, 0);
    s.pid = 0;

    size_t ok = 0, lost = 0, not_sent = 0, first_lost = KILL_N;
    for (size_t i = 0; i < KILL_N; i++) {
        if (items[i].status == 0) {
            ok++;
            CHECK(first_lost == KILL_N);   /* acknowledged items form a prefix */
        } else {
            CHECK_INT(items[i].status, CODEC_E_TRANSIENT);
            if (lost++ == 0) {
                first_lost = i;
                CHECK(strstr(items[i].error.message, "may have been applied") != NULL);
            }
            /* In flight: outcome unknown; after the window: never sent. */
            not_sent += strncmp(items[i].error.message, "not sent: ", 10) == 0;
            CHECK(strstr(items[i].error.message, "may have been applied") ||
                  strncmp(items[i].error.message, "not sent: ", 10) == 0);
        }
    }
    printf("kill mid-batch: DBSIZE %lld at the kill, %zu acknowledged, %zu transient "
           "(%zu of them never sent)\n", k.seen, ok, lost, not_sent);
    CHECK(k.seen >= KILL_AT);
    CHECK_INT(rc, CODEC_E_TRANSIENT);
    CHECK(ok > 0);         /* replies that came before the kill were read */
    CHECK(lost > not_sent && not_sent > 0);
    CHECK(strlen(err.message) > 0);

    /* Restart on the same directory and port: the handle reconnects, and
     * every acknowledged value reads back byte for byte. */
    CHECK(redis_server_spawn(&s));
    size_t back = 0;
    for (size_t i = 0; i < ok; i++) {
        codec_bytes out;
        int g = codec_redis_get(r, keys[i], strlen(keys[i]), c, &out, &arena, &err);
        if (g == 0 && out.len == in[i].len && memcmp(out.data, in[i].data, out.len) == 0)
            back++;
        else if (back == i)
            fprintf(stderr, "after restart, key %s: status %d %s\n", keys[i], g, err.message);
        codec_arena_reset(&arena);
    }
    CHECK_INT(back, ok);
    printf("after restart: %zu of %zu acknowledged values byte-identical\n", back, ok);
    codec_arena_free(&arena);
    codec_free(c);
    codec_redis_free(r);
    redis_server_stop(&s);
}

/* A server that dies while a large value is being written: the write fails
 * (ECONNRESET or EPIPE, depending on timing), which must come back as a
 * transient error. SIGPIPE is ignored in main(), as redis.h asks of every
 * program that uses the adapter. */
static void test_no_sigpipe(void)
{
    redis_server s;
    CHECK(redis_server_start(&s, false));
    if (!s.pid)
        return;
    codec_redis *r = connect_to(&s, 2000);
    codec_error err = {0};
    codec *c = codec_parse("hex", NULL, &err);
    size_t n = (size_t)16 << 20;
    uint8_t *big = calloc(n, 1);
    codec_bytes v = {big, n};
    redis_server_kill(&s);
    int rc = codec_redis_set(r, "big", 3, c, &v, 0, &err);
    CHECK_INT(rc, CODEC_E_TRANSIENT);
    printf("server gone during a 32 MB write: %s\n", err.message);
    free(big);
    codec_free(c);
    codec_redis_free(r);
    redis_server_stop(&s);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* what redis.h asks of a program */
    test_url();
    test_connect_errors();
    CHECK(redis_server_start(&server, false)); /* make test installs redis-server */
    if (server.pid) {
        make_ring();
        codec_redis *r = connect_to(&server, 2000);
        redisContext *raw = raw_connect(&server);
        if (r && raw) {
            test_round_trips(r);
            test_stored_bytes(r, raw);
            test_ttl_and_not_found(r, raw);
            test_mset_mget(r, raw);
            test_batch(r, raw);
            test_hash(r, raw);
            test_hostile(r, raw);
            test_max_value(&server);
            test_steady_state(&server);
            test_auth_and_db(&server, raw);
            test_timeout(&server);
        }
        redisFree(raw);
        codec_redis_free(r);
        redis_server_stop(&server);
        test_kill_mid_batch();
        test_no_sigpipe();
    } else {
        printf("test_redis: SKIPPED the server tests\n");
    }
    return check_done("test_redis");
}
#endif
