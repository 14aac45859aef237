/* kafka-orders.c — typed orders through Kafka: a producer sends `order`
 * structs through JSON and zstd, with delivery reports per message, and a
 * consumer group reads them back as the same structs. One message written
 * by an older service in MessagePack is refused by its codec-spec header,
 * reported with its topic, partition and offset, and set aside in a
 * dead-letter topic; the loop goes on.
 *
 *   KAFKA_BROKERS=127.0.0.1:9092 ./kafka-orders ['json | zstd:3']
 *
 * It needs the topics `orders` and `orders.dlq`. Without KAFKA_BROKERS it
 * does nothing and exits 0 ("no KAFKA_BROKERS: skipping"), which is how
 * ctest runs it bare; tests/kafka/example.sh runs it against librdkafka's
 * mock cluster. Any other spec over the same type may be passed as the
 * first argument, e.g. 'protobuf | lz4'.
 *
 * Build: cc kafka-orders.c $(pkg-config --cflags --libs codec) */
#include <codec/codec.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CODEC_HAVE_KAFKA
int main(void)
{
    printf("codec was built without librdkafka: no Kafka integration, skipping\n");
    return 0;
}
#else
#include <codec/kafka.h>

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

#define CUSTOMER "cust-01554"   /* the key: one customer's orders stay in order */

static rd_kafka_t *new_handle(rd_kafka_type_t type, const char *brokers)
{
    char why[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", brokers, why, sizeof why);
    if (type == RD_KAFKA_PRODUCER) {
        /* retries never duplicate or reorder a message */
        rd_kafka_conf_set(conf, "enable.idempotence", "true", why, sizeof why);
        codec_kafka_conf_set_delivery(conf);
    } else {
        rd_kafka_conf_set(conf, "group.id", "order-service", why, sizeof why);
        rd_kafka_conf_set(conf, "auto.offset.reset", "earliest", why, sizeof why);
        /* at-least-once: codec stores an offset once the order is handled */
        rd_kafka_conf_set(conf, "enable.auto.offset.store", "false", why, sizeof why);
    }
    rd_kafka_t *rk = rd_kafka_new(type, conf, why, sizeof why);
    if (!rk)
        fprintf(stderr, "kafka-orders: %s\n", why);
    return rk;
}

/* ---------------------------------------------------------------------------
 * Producer
 * ------------------------------------------------------------------------ */

static int send_orders(rd_kafka_t *producer, const codec *c)
{
    line_item items[3] = {{CODEC_STR("BOOK-1"), 2, 12.50}, {CODEC_STR("PEN-9"), 10, 1.75},
                          {CODEC_STR("INK-77"), 1, 8.00}};
    order orders[3] = {{.id = 42, .customer = CODEC_STR(CUSTOMER), .paid = true},
                       {.id = 43, .customer = CODEC_STR(CUSTOMER)},
                       {.id = 44, .customer = CODEC_STR(CUSTOMER), .paid = true}};
    orders[0].items.items = items, orders[0].items.count = 2;
    orders[2].items.items = items + 2, orders[2].items.count = 1;

    codec_kafka_record recs[3];
    for (int i = 0; i < 3; i++)
        recs[i] = (codec_kafka_record){.partition = RD_KAFKA_PARTITION_UA, .key = CUSTOMER,
                                       .key_len = strlen(CUSTOMER), .value = &orders[i]};
    codec_kafka_produce_options o = {.topic = "orders", .spec_header = 1};
    codec_error err;
    int rc = codec_kafka_produce(producer, c, &o, recs, 3, &err);
    for (int i = 0; i < 3; i++) {
        if (recs[i].status)
            printf("order %lld not delivered: %s\n", (long long)orders[i].id,
                   recs[i].error.message);
        else
            printf("delivered order %lld to orders [%d] @%lld\n", (long long)orders[i].id,
                   (int)recs[i].delivered_partition, (long long)recs[i].offset);
    }
    return rc;
}

/* An older service still writes MessagePack (and says so in its header). */
static int send_legacy_order(rd_kafka_t *producer)
{
    codec_error err;
    codec *old = codec_parse("msgpack", &order_type, &err);
    if (!old)
        return err.family;
    order o = {.id = 41, .customer = CODEC_STR(CUSTOMER), .paid = true};
    codec_kafka_record rec = {.partition = RD_KAFKA_PARTITION_UA, .key = CUSTOMER,
                              .key_len = strlen(CUSTOMER), .value = &o};
    codec_kafka_produce_options opt = {.topic = "orders", .spec_header = 1};
    int rc = codec_kafka_produce(producer, old, &opt, &rec, 1, &err);
    codec_free(old);
    return rc;
}

/* ---------------------------------------------------------------------------
 * Consumer
 * ------------------------------------------------------------------------ */

static int on_order(void *ctx, const rd_kafka_message_t *m, void *value, size_t which)
{
    (void)ctx, (void)m, (void)which;
    const order *o = value;
    double total = 0;
    for (size_t i = 0; i < o->items.count; i++)
        total += o->items.items[i].quantity * o->items.items[i].unit_price;
    printf("order %lld: %.*s, %s, %zu items, total %.2f\n", (long long)o->id,
           (int)o->customer.len, o->customer.ptr, o->paid ? "paid" : "unpaid",
           o->items.count, total);
    return 0; /* go on */
}

static int on_bad_message(void *ctx, const codec_kafka_failure *f)
{
    (void)ctx;
    printf("skipped %s [%d] @%lld: %s (%s)\n", f->topic ? f->topic : "?", (int)f->partition,
           (long long)f->offset, f->error.message,
           f->dead_letter_status == 0 ? "sent to orders.dlq" : "not dead-lettered");
    return 0; /* a bad message never stops the service */
}

static int read_orders(rd_kafka_t *consumer, rd_kafka_t *producer, const codec *c)
{
    rd_kafka_topic_partition_list_t *topics = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(topics, "orders", RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t e = rd_kafka_subscribe(consumer, topics);
    rd_kafka_topic_partition_list_destroy(topics);
    if (e) {
        fprintf(stderr, "kafka-orders: subscribe: %s\n", rd_kafka_err2str(e));
        return CODEC_E_TRANSIENT;
    }
    codec_arena arena;   /* each order's strings and items live here */
    codec_arena_init(&arena, NULL, 0);
    order value;
    const codec *accepted[] = {c};
    codec_kafka_consume_options o = {
        .decoder = {.codecs = accepted, .count = 1, .check = CODEC_KAFKA_SPEC_MATCH},
        .value = &value, .arena = &arena,
        .on_value = on_order, .on_failure = on_bad_message,
        .dead_letter_producer = producer, .dead_letter_topic = "orders.dlq",
        .store_offsets = 1,
        .max_messages = 4,          /* a service would loop for ever */
        .idle_timeout_ms = 20000};
    codec_error err;
    int rc = codec_kafka_consume(consumer, &o, &err);
    if (rc)
        fprintf(stderr, "kafka-orders: consume: %s\n", err.message);
    rd_kafka_commit(consumer, NULL, 0); /* the stored offsets */
    codec_arena_free(&arena);
    return rc;
}

int main(int argc, char **argv)
{
    const char *brokers = getenv("KAFKA_BROKERS");
    if (!brokers || !*brokers) {
        printf("no KAFKA_BROKERS: skipping\n");
        return 0;
    }
    codec_error err;
    codec *c = codec_parse(argc > 1 ? argv[1] : "json | zstd:3", &order_type, &err);
    if (!c) {
        fprintf(stderr, "kafka-orders: %s\n", err.message);
        return 2;
    }
    rd_kafka_t *producer = new_handle(RD_KAFKA_PRODUCER, brokers);
    rd_kafka_t *consumer = new_handle(RD_KAFKA_CONSUMER, brokers);
    int rc = producer && consumer ? 0 : CODEC_E_USAGE;
    if (!rc)
        rc = send_legacy_order(producer);
    if (!rc)
        rc = send_orders(producer, c);
    if (!rc)
        rc = read_orders(consumer, producer, c);
    if (consumer) {
        rd_kafka_consumer_close(consumer);
        rd_kafka_destroy(consumer);
    }
    if (producer)
        rd_kafka_destroy(producer);
    codec_free(c);
    return rc ? 1 : 0;
}
#endif
