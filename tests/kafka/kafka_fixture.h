/* kafka_fixture.h — what the Kafka tests share: librdkafka's mock cluster
 * (real Kafka protocol, 3 brokers on 127.0.0.1, in this process), producer
 * and consumer handles on it, and a typed Order value to send. */
#ifndef CODEC_TEST_KAFKA_FIXTURE_H
#define CODEC_TEST_KAFKA_FIXTURE_H

#include "check.h"
#include "codec/codec.h"
#include "codec/kafka.h"

#include <librdkafka/rdkafka_mock.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KAFKA_BROKERS 3

typedef struct kafka_mock {
    rd_kafka_t *owner;               /* the handle the mock cluster lives in */
    rd_kafka_mock_cluster_t *cluster;
    const char *bootstraps;          /* "127.0.0.1:P1,127.0.0.1:P2,..." */
} kafka_mock;

static void kafka_die(const char *what, const char *why)
{
    fprintf(stderr, "kafka fixture: %s: %s\n", what, why);
    exit(1);
}

static void kafka_set(rd_kafka_conf_t *conf, const char *name, const char *value)
{
    char why[256];
    if (rd_kafka_conf_set(conf, name, value, why, sizeof why) != RD_KAFKA_CONF_OK)
        kafka_die(name, why);
}

static void kafka_mock_start(kafka_mock *k)
{
    char why[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    kafka_set(conf, "log_level", "3");
    k->owner = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof why);
    if (!k->owner)
        kafka_die("rd_kafka_new", why);
    k->cluster = rd_kafka_mock_cluster_new(k->owner, KAFKA_BROKERS);
    if (!k->cluster)
        kafka_die("rd_kafka_mock_cluster_new", "failed");
    k->bootstraps = rd_kafka_mock_cluster_bootstraps(k->cluster);
    if (strncmp(k->bootstraps, "127.0.0.1:", 10) != 0)
        kafka_die("mock cluster not on 127.0.0.1", k->bootstraps);
}

static void kafka_mock_stop(kafka_mock *k)
{
    rd_kafka_mock_cluster_destroy(k->cluster);
    rd_kafka_destroy(k->owner);
}

static void kafka_topic(kafka_mock *k, const char *topic, int partitions)
{
    if (rd_kafka_mock_topic_create(k->cluster, topic, partitions, KAFKA_BROKERS))
        kafka_die("rd_kafka_mock_topic_create", topic);
}

/* A producer with codec's delivery reports; `kv` is NULL or name/value
 * pairs ending with NULL; `stats` may be NULL. */
static rd_kafka_t *kafka_producer(const kafka_mock *k, const char *const *kv,
                                  int (*stats)(rd_kafka_t *, char *, size_t, void *))
{
    char why[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    kafka_set(conf, "bootstrap.servers", k->bootstraps);
    kafka_set(conf, "log_level", "3");
    kafka_set(conf, "linger.ms", "5");
    for (; kv && kv[0]; kv += 2)
        kafka_set(conf, kv[0], kv[1]);
    codec_kafka_conf_set_delivery(conf);
    if (stats)
        rd_kafka_conf_set_stats_cb(conf, stats);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof why);
    if (!rk)
        kafka_die("producer", why);
    return rk;
}

/* A consumer in `group`, offsets stored by codec, assigned every partition
 * of `topic` from the beginning. */
static rd_kafka_t *kafka_consumer(const kafka_mock *k, const char *group, const char *topic,
                                  int partitions)
{
    char why[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    kafka_set(conf, "bootstrap.servers", k->bootstraps);
    kafka_set(conf, "log_level", "3");
    kafka_set(conf, "group.id", group);
    kafka_set(conf, "enable.auto.offset.store", "false");
    kafka_set(conf, "enable.auto.commit", "false");
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, why, sizeof why);
    if (!rk)
        kafka_die("consumer", why);
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(partitions);
    for (int p = 0; p < partitions; p++)
        rd_kafka_topic_partition_list_add(l, topic, p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    if (rd_kafka_assign(rk, l))
        kafka_die("rd_kafka_assign", topic);
    rd_kafka_topic_partition_list_destroy(l);
    return rk;
}

/* The number of messages in `topic` (sum of its partitions' high marks). */
static int64_t kafka_topic_size(rd_kafka_t *rk, const char *topic, int partitions)
{
    int64_t total = 0;
    for (int p = 0; p < partitions; p++) {
        int64_t lo, hi;
        if (rd_kafka_query_watermark_offsets(rk, topic, p, &lo, &hi, 10000))
            kafka_die("rd_kafka_query_watermark_offsets", topic);
        total += hi - lo;
    }
    return total;
}

/* ---------------------------------------------------------------------------
 * The typed value: an order with line items
 * ------------------------------------------------------------------------ */

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

/* Order `id`, its content a function of id; strings point into `text`
 * (64 bytes) and items into `items` (3 entries), which must outlive it. */
static order kafka_order(int64_t id, char *text, line_item *items)
{
    int n = snprintf(text, 64, "cust-%05lld", (long long)(id * 7919 % 100000));
    int count = (int)(id % 4);
    static const char *skus[] = {"BOOK-1", "PEN-9", "INK-77"};
    for (int i = 0; i < count && i < 3; i++)
        items[i] = (line_item){{skus[i], strlen(skus[i])}, (int32_t)(id % 10 + i),
                               (double)(id % 1000) / 4 + i};
    order o = {.id = id, .customer = {text, (size_t)n}, .paid = id % 2 == 0};
    o.items.items = items;
    o.items.count = (size_t)(count < 3 ? count : 3);
    return o;
}

static bool kafka_same_string(codec_string a, codec_string b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool kafka_order_equal(const order *a, const order *b)
{
    if (a->id != b->id || a->paid != b->paid || !kafka_same_string(a->customer, b->customer) ||
        a->items.count != b->items.count)
        return false;
    for (size_t i = 0; i < a->items.count; i++) {
        const line_item *x = &a->items.items[i], *y = &b->items.items[i];
        if (!kafka_same_string(x->sku, y->sku) || x->quantity != y->quantity ||
            x->unit_price != y->unit_price)
            return false;
    }
    return true;
}

/* Does decoded order `got` equal the order its id stands for? */
static bool kafka_order_is_expected(const order *got)
{
    char text[64];
    line_item items[3];
    order want = kafka_order(got->id, text, items);
    return kafka_order_equal(got, &want);
}

#endif
