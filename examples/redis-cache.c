/* redis-cache.c — a read-through cache of typed orders in Redis: an `order`
 * C struct goes through JSON, zstd and an encrypted envelope on the way in,
 * and comes back as the same struct.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 ./redis-cache ['json | zstd:3 | envelope:keyring=orders.ring']
 *
 * Without REDIS_URL it starts nothing and exits 0 ("no REDIS_URL: skipping"),
 * which is how ctest runs it. The default pipeline is
 * "json | zstd:3 | envelope:keyring=orders.ring" (make the ring with
 * `codec keygen --id orders-1 > orders.ring; chmod 600 orders.ring`); pass
 * any other spec over the same type as the first argument, e.g.
 * 'msgpack | lz4', or 'json' to read the keys with redis-cli.
 *
 * It reads order 42 twice: the first read misses, "loads it from the
 * database" (builds it in code), stores it with a five-minute TTL and
 * returns it; the second read hits the cache. It then deletes the key, so
 * every run shows a miss and a hit.
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

/* The application's types, and their descriptors (docs/guides/types.md). */
typedef struct line_item {
    codec_string sku;
    int32_t quantity;
    double unit_price;
} line_item;

typedef struct order {
    int64_t id;
    codec_string customer;
    bool paid;
    CODEC_LIST_OF(line_item) items;
} order;

CODEC_STRUCT(line_item_type, line_item,
    CODEC_FIELD(line_item, sku, 1, CODEC_STRING),
    CODEC_FIELD(line_item, quantity, 2, CODEC_INT32),
    CODEC_FIELD_EX(line_item, unit_price, "unitPrice", 3, CODEC_DOUBLE, 0));
CODEC_LIST(line_items_type, &line_item_type);
CODEC_STRUCT(order_type, order,
    CODEC_FIELD(order, id, 1, CODEC_INT64),
    CODEC_FIELD(order, customer, 2, CODEC_STRING),
    CODEC_FIELD(order, paid, 3, CODEC_BOOL),
    CODEC_FIELD(order, items, 4, &line_items_type));

/* Stands in for the database: builds the order in `db_items`, which must
 * outlive the returned value. */
static order load_order_from_db(int64_t id, line_item db_items[2])
{
    db_items[0] = (line_item){CODEC_STR("BOOK-1"), 2, 12.50};
    db_items[1] = (line_item){CODEC_STR("PEN-9"), 10, 1.75};
    order o = {.id = id, .customer = CODEC_STR("cust-01554"), .paid = true};
    o.items.items = db_items;
    o.items.count = 2;
    return o;
}

typedef struct cache {
    codec_redis *redis;   /* NULL: Redis was unreachable at start; run uncached */
    codec *codec;
    codec_arena arena;    /* a cached order's strings and items live here */
} cache;

static void report(const char *what, const codec_error *err)
{
    char line[256];
    fprintf(stderr, "%s: %s\n", what, codec_error_format(err, line, sizeof line));
}

/* Fills *o (valid until the next call) and says where it came from. Redis
 * is an optimisation: a transient failure falls back to the database, a
 * value that does not decode is removed. */
static void get_order(cache *c, int64_t id, order *o, line_item db_items[2], const char **from)
{
    char key[32];
    snprintf(key, sizeof key, "order:%lld", (long long)id);
    codec_arena_reset(&c->arena);
    codec_error err;
    int rc = c->redis ? codec_redis_get(c->redis, key, strlen(key), c->codec, o, &c->arena,
                                        &err)
                      : CODEC_E_TRANSIENT;
    if (rc == CODEC_OK) {
        *from = "cache (hit)";
        return;
    }
    if (rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED) {
        report("cache: dropping a value that does not decode", &err);   /* quarantine */
        int removed;
        if (codec_redis_del(c->redis, key, strlen(key), &removed, &err))
            report("cache: delete", &err);
    } else if (rc != CODEC_E_NOT_FOUND && c->redis) {
        report("cache: unavailable, reading the database", &err);
    }
    *o = load_order_from_db(id, db_items);
    *from = "database (miss)";
    if (c->redis && rc != CODEC_E_TRANSIENT &&
        codec_redis_set(c->redis, key, strlen(key), c->codec, o, CACHE_TTL_MS, &err))
        report("cache: store", &err);
}

static double total(const order *o)
{
    double t = 0;
    for (size_t i = 0; i < o->items.count; i++)
        t += o->items.items[i].quantity * o->items.items[i].unit_price;
    return t;
}

int main(int argc, char **argv)
{
    const char *url = getenv("REDIS_URL");
    if (!url || !*url) {
        printf("no REDIS_URL: skipping (set REDIS_URL=redis://127.0.0.1:6379 to run)\n");
        return 0;
    }
    const char *spec = argc > 1 ? argv[1] : "json | zstd:3 | envelope:keyring=orders.ring";
    cache c = {0};
    codec_error err;
    if (!(c.codec = codec_parse(spec, &order_type, &err))) {
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

    int ok = 1;
    for (int round = 0; round < 2; round++) {
        order ord = {0};
        line_item db_items[2];
        const char *from;
        get_order(&c, 42, &ord, db_items, &from);
        printf("order %lld from the %s: %.*s, %s, %zu items, total %.2f\n", (long long)ord.id,
               from, (int)ord.customer.len, ord.customer.ptr, ord.paid ? "paid" : "unpaid",
               ord.items.count, total(&ord));
        ok &= ord.id == 42 && ord.items.count == 2;
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
