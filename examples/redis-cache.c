/* redis-cache.c — a read-through cache of orders in Redis, compressed and
 * encrypted on the way in.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 ./redis-cache ['zstd:3 | envelope:keyring=orders.ring']
 *
 * Without REDIS_URL it starts nothing and exits 0 ("no REDIS_URL: skipping"),
 * which is how ctest runs it. The default pipeline is
 * "zstd:3 | envelope:keyring=orders.ring" (make the ring with
 * `codec keygen --id orders-1 > orders.ring; chmod 600 orders.ring`); pass
 * any other spec as the first argument, e.g. 'hex' to read the keys with
 * redis-cli.
 *
 * The values here are an order's JSON text, as bytes. With the types layer
 * the same code takes an `Order` struct: build the codec with
 * codec_parse("json | zstd:3 | envelope:keyring=orders.ring", &order_type, &err)
 * and pass `Order *` where this passes `codec_bytes *`.
 *
 * Build: cc redis-cache.c $(pkg-config --cflags --libs codec) */
#include <codec/codec.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("codec was built without hiredis: no Redis adapter, skipping\n");
    return 0;
}
#else
#include <codec/redis.h>

#define CACHE_TTL_MS 300000   /* five minutes */

/* Stands in for the database: the order's JSON text. */
static size_t load_order_from_db(int id, char *dst, size_t cap)
{
    int n = snprintf(dst, cap,
                     "{\"id\":%d,\"customer\":\"cust-%05d\",\"status\":\"PAID\","
                     "\"lines\":[{\"sku\":\"BOOK-1\",\"qty\":2},{\"sku\":\"PEN-9\",\"qty\":10}],"
                     "\"total\":{\"amount\":\"42.50\",\"currency\":\"EUR\"}}",
                     id, id * 37 % 100000);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

typedef struct cache {
    codec_redis *redis;   /* NULL: Redis was unreachable at start; run uncached */
    codec *codec;
    codec_arena arena;    /* decoded values live here until the next reset */
} cache;

static void report(const char *what, const codec_error *err)
{
    char line[256];
    fprintf(stderr, "%s: %s\n", what, codec_error_format(err, line, sizeof line));
}

/* Returns the order's bytes (valid until the next call) and says where
 * they came from. Redis is an optimisation: a transient failure falls
 * back to the database, a value that does not decode is removed. */
static codec_bytes get_order(cache *c, int id, char *db_buf, size_t cap, const char **from)
{
    char key[32];
    snprintf(key, sizeof key, "order:%d", id);
    codec_arena_reset(&c->arena);
    codec_bytes v = {0};
    codec_error err;
    int rc = c->redis ? codec_redis_get(c->redis, key, strlen(key), c->codec, &v, &c->arena,
                                        &err)
                      : CODEC_E_TRANSIENT;
    if (rc == CODEC_OK) {
        *from = "cache";
        return v;
    }
    if (rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED) {
        report("cache: dropping a value that does not decode", &err);   /* quarantine */
        int removed;
        if (codec_redis_del(c->redis, key, strlen(key), &removed, &err))
            report("cache: delete", &err);
    } else if (rc != CODEC_E_NOT_FOUND && c->redis) {
        report("cache: unavailable, reading the database", &err);
    }
    v.data = (const uint8_t *)db_buf;
    v.len = load_order_from_db(id, db_buf, cap);
    *from = "database";
    if (c->redis && rc != CODEC_E_TRANSIENT &&
        codec_redis_set(c->redis, key, strlen(key), c->codec, &v, CACHE_TTL_MS, &err))
        report("cache: store", &err);
    return v;
}

int main(int argc, char **argv)
{
    const char *url = getenv("REDIS_URL");
    if (!url || !*url) {
        printf("no REDIS_URL: skipping (set REDIS_URL=redis://127.0.0.1:6379 to run)\n");
        return 0;
    }
    const char *spec = argc > 1 ? argv[1] : "zstd:3 | envelope:keyring=orders.ring";
    cache c = {0};
    codec_error err;
    if (!(c.codec = codec_parse(spec, NULL, &err))) {
        report("pipeline", &err);
        return 2;
    }
    codec_redis_options o = {0};
    o.url = url;
    o.connect_timeout_ms = 500;
    o.command_timeout_ms = 200;   /* a slow cache is worse than none */
    if (codec_redis_connect(&o, &c.redis, &err))
        report("cache: not connected, running uncached", &err);
    codec_arena_init(&c.arena, NULL, 0);

    char db_buf[512];
    int ok = 1;
    for (int round = 0; round < 3; round++) {
        const char *from;
        codec_bytes v = get_order(&c, 42, db_buf, sizeof db_buf, &from);
        printf("order 42 from the %s: %.*s\n", from, (int)v.len, (const char *)v.data);
        ok &= v.len > 0;
    }
    int removed;
    if (c.redis && codec_redis_del(c.redis, "order:42", 8, &removed, &err))
        report("cache: delete", &err);
    codec_arena_free(&c.arena);
    codec_redis_free(c.redis);
    codec_free(c.codec);
    return ok ? 0 : 1;
}
#endif
