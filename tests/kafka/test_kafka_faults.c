/* test_kafka_faults.c — the producer under the mock cluster's fault
 * injection, each on a fresh 3-broker mock cluster: request errors on every
 * partition leader, a broker down mid-batch, and every partition's leader
 * moved mid-batch. With enable.idempotence=true and acks=all, every
 * record's delivery report is read, then the topic is read back whole:
 * every order is acknowledged and there exactly once, at the offset its
 * report gave, and decodes to the order its id stands for.
 *
 * One request in flight per connection. librdkafka 2.0.2's mock broker
 * (Debian 12) does not check producer sequence numbers. A real broker
 * refuses a batch that follows a gap (OUT_OF_ORDER_SEQUENCE_NUMBER) and
 * the client retries both; with several requests in flight the mock
 * appends the later batch, and librdkafka then takes the failed earlier
 * one as implicitly acknowledged ("implicitly acked by subsequent batch
 * success") though it is not in the log. We saw that in about one run of
 * four of request-errors with the default of 5 in flight. With one in
 * flight no batch overtakes a failed one, so the check does not depend on
 * what the mock lacks.
 *
 * A fourth fault, a lost response (the leader writes the batch but answers
 * after the client's socket timeout, so the client resends it): nothing
 * acknowledged may be lost; the duplicates are counted and printed, not
 * asserted, because the mock (below) appends the resent batch again where
 * a real broker would drop it by its sequence number. See
 * docs/guides/kafka.md. */
#include "kafka_fixture.h"

#include <pthread.h>
#include <unistd.h>

#define ORDERS 3000
#define PARTITIONS 3
#define PRODUCE 0   /* Kafka ApiKey of ProduceRequest */

static kafka_mock mock;
static codec *pipeline;

/* One order per record; their strings and items live here. */
static char texts[ORDERS][64];
static line_item items[ORDERS][3];
static order orders[ORDERS];
static codec_kafka_record recs[ORDERS];

/* A fault fired by a thread once `after` records have their report. */
typedef struct fault {
    const char *topic;
    size_t after;
    void (*fire)(const struct fault *f);
} fault;

static size_t reported(void)
{
    size_t n = 0;
    for (size_t i = 0; i < ORDERS; i++)
        n += __atomic_load_n(&recs[i].status, __ATOMIC_ACQUIRE) != -1;
    return n;
}

static void *fault_thread(void *arg)
{
    const fault *f = arg;
    while (reported() < f->after)
        usleep(1000);
    f->fire(f);
    return NULL;
}

/* The leader of each partition of the fault's topic, from metadata. */
static int32_t leaders[PARTITIONS];

static void find_leaders(rd_kafka_t *rk, const char *topic)
{
    const rd_kafka_metadata_t *md;
    rd_kafka_topic_t *t = rd_kafka_topic_new(rk, topic, NULL);
    if (rd_kafka_metadata(rk, 0, t, &md, 10000) || md->topic_cnt != 1 ||
        md->topics[0].partition_cnt != PARTITIONS)
        kafka_die("metadata", topic);
    for (int p = 0; p < PARTITIONS; p++)
        leaders[md->topics[0].partitions[p].id] = md->topics[0].partitions[p].leader;
    rd_kafka_metadata_destroy(md);
    rd_kafka_topic_destroy(t);
}

static void broker_down_then_up(const fault *f)
{
    (void)f;
    rd_kafka_mock_broker_set_down(mock.cluster, leaders[0]);
    usleep(300 * 1000);
    rd_kafka_mock_broker_set_up(mock.cluster, leaders[0]);
}

static void move_leaders(const fault *f)
{
    for (int p = 0; p < PARTITIONS; p++)
        rd_kafka_mock_partition_set_leader(mock.cluster, f->topic, p,
                                           leaders[p] % KAFKA_BROKERS + 1);
}

/* Each leader fails its next Produce requests with retriable errors. */
static void request_errors(const fault *f)
{
    (void)f;
    for (int p = 0; p < PARTITIONS; p++)
        rd_kafka_mock_broker_push_request_error_rtts(
            mock.cluster, leaders[p], PRODUCE, 4, RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION, 0,
            RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT, 0, RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS, 0,
            RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE, 0);
}

/* Each leader writes its next Produce request but answers after 2.5 s,
 * past the client's 1 s socket timeout: the client resends it. */
static void lost_responses(const fault *f)
{
    (void)f;
    for (int p = 0; p < PARTITIONS; p++)
        rd_kafka_mock_broker_push_request_error_rtts(mock.cluster, leaders[p], PRODUCE, 1,
                                                     RD_KAFKA_RESP_ERR_NO_ERROR, 2500);
}

static size_t errors_left(void)
{
    size_t left = 0;
    for (int32_t b = 1; b <= KAFKA_BROKERS; b++) {
        size_t n = 0;
        rd_kafka_mock_broker_error_stack_cnt(mock.cluster, b, PRODUCE, &n);
        left += n;
    }
    return left;
}

/* Broker disconnections so far, summed over the brokers of the latest
 * statistics (librdkafka's "disconnects"): proof that a broker went down
 * under the producer. */
static long long disconnects;

static int on_stats(rd_kafka_t *rk, char *json, size_t len, void *opaque)
{
    (void)rk, (void)len, (void)opaque;
    long long sum = 0;
    static const char name[] = "\"disconnects\":";
    for (const char *at = json; (at = strstr(at, name)); at++)
        sum += atoll(at + sizeof name - 1);
    disconnects = sum;
    return 0;
}

/* What reading the topic back found. */
typedef struct readback {
    int copies[ORDERS];       /* how often each order id is in the log */
    int64_t offset[ORDERS];   /* where (the last copy) */
    int32_t partition[ORDERS];
    size_t wrong;             /* decoded but not the order its id stands for */
    size_t failures;
} readback;

static int on_value(void *ctx, const rd_kafka_message_t *m, void *value, size_t which)
{
    (void)which;
    readback *r = ctx;
    const order *o = value;
    if (o->id < 0 || o->id >= ORDERS || !kafka_order_is_expected(o)) {
        r->wrong++;
        return 0;
    }
    r->copies[o->id]++;
    r->offset[o->id] = m->offset;
    r->partition[o->id] = m->partition;
    return 0;
}

static int on_failure(void *ctx, const codec_kafka_failure *f)
{
    ((readback *)ctx)->failures++;
    fprintf(stderr, "readback failure: %s\n", f->error.message);
    return 0;
}

static void read_back(const char *topic, readback *r)
{
    memset(r, 0, sizeof *r);
    rd_kafka_t *k = kafka_consumer(&mock, topic, topic, PARTITIONS);
    int64_t total = kafka_topic_size(k, topic, PARTITIONS);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order value;
    const codec *codecs[] = {pipeline};
    codec_kafka_consume_options o = {
        .decoder = {.codecs = codecs, .count = 1, .check = CODEC_KAFKA_SPEC_REQUIRE},
        .value = &value, .arena = &arena, .on_value = on_value, .on_failure = on_failure,
        .ctx = r, .max_messages = (size_t)total, .idle_timeout_ms = 15000};
    codec_error err;
    CHECK_INT(codec_kafka_consume(k, &o, &err), 0);
    codec_arena_free(&arena);
    rd_kafka_consumer_close(k);
    rd_kafka_destroy(k);
}

/* Produces ORDERS orders to a new topic of a new mock cluster while `fire`
 * strikes; returns how many records were acknowledged and checks the
 * read-back. Reports the number of duplicates in *dups. */
static size_t run(const char *topic, void (*fire)(const fault *), size_t *dups)
{
    kafka_mock_start(&mock);
    kafka_topic(&mock, topic, PARTITIONS);
    const char *kv[] = {"enable.idempotence", "true",
                        "acks", "all",
                        "socket.timeout.ms", "1000",
                        "retry.backoff.ms", "20",
                        "message.timeout.ms", "60000",
                        "batch.num.messages", "100",
                        /* one request in flight: see the comment at the top */
                        "max.in.flight.requests.per.connection", "1",
                        "statistics.interval.ms", "100",
                        NULL};
    disconnects = 0;
    rd_kafka_t *p = kafka_producer(&mock, kv, on_stats);
    for (size_t i = 0; i < ORDERS; i++) {
        orders[i] = kafka_order((int64_t)i, texts[i], items[i]);
        recs[i] = (codec_kafka_record){.partition = (int32_t)(i % PARTITIONS),
                                       .value = &orders[i], .status = -1};
    }
    find_leaders(p, topic);
    /* request faults strike the next requests; the others strike once a
     * third of the batch is acknowledged */
    bool at_once = fire == request_errors || fire == lost_responses;
    fault f = {topic, at_once ? 0 : ORDERS / 3, fire};
    pthread_t t;
    pthread_create(&t, NULL, fault_thread, &f);
    codec_kafka_produce_options o = {.topic = topic, .spec_header = 1};
    codec_error err;
    int rc = codec_kafka_produce(p, pipeline, &o, recs, ORDERS, &err);
    pthread_join(t, NULL);
    for (int i = 0; i < 3; i++)
        rd_kafka_poll(p, 100); /* the last statistics */
    if (rc)
        fprintf(stderr, "%s: first failure: %s\n", topic, err.message);

    static readback r;
    read_back(topic, &r);
    size_t acked = 0;
    *dups = 0;
    for (size_t i = 0; i < ORDERS; i++) {
        if (r.copies[i] > 1)
            *dups += (size_t)r.copies[i] - 1;
        if (recs[i].status != 0)
            continue;
        acked++;
        if (r.copies[i] < 1) {
            CHECK(!"an acknowledged order is lost");
            fprintf(stderr, "  %s: order %zu (partition %d offset %lld)\n", topic, i,
                    (int)recs[i].delivered_partition, (long long)recs[i].offset);
            continue;
        }
        if (r.copies[i] == 1) {
            CHECK_INT(r.partition[i], recs[i].delivered_partition);
            CHECK_INT(r.offset[i], recs[i].offset);
        }
    }
    CHECK_INT(r.wrong, 0);
    CHECK_INT(r.failures, 0);
    /* the fault struck: injected errors were served, the broker dropped
     * its connections, the leaders moved */
    CHECK_INT(errors_left(), 0);
    if (fire == broker_down_then_up)
        CHECK(disconnects > 0);
    if (fire == move_leaders) {
        int32_t before[PARTITIONS];
        memcpy(before, leaders, sizeof before);
        find_leaders(p, topic);
        for (int i = 0; i < PARTITIONS; i++)
            CHECK(leaders[i] != before[i]);
    }
    printf("%s: %zu of %d acknowledged, %zu duplicates in the log\n", topic, acked, ORDERS,
           *dups);
    rd_kafka_destroy(p);
    kafka_mock_stop(&mock);
    return acked;
}

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    codec_error err;
    pipeline = codec_parse("json | zstd:3", &order_type, &err);
    CHECK(pipeline != NULL);
    if (pipeline) {
        static const struct {
            const char *topic;
            void (*fire)(const fault *);
        } faults[] = {{"request-errors", request_errors},
                      {"broker-down", broker_down_then_up},
                      {"leader-change", move_leaders}};
        size_t dups;
        for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++) {
            /* retries within message.timeout.ms: everything gets through */
            CHECK_INT(run(faults[i].topic, faults[i].fire, &dups), ORDERS);
            CHECK_INT(dups, 0);
        }
        CHECK_INT(run("lost-responses", lost_responses, &dups), ORDERS);
    }
    codec_free(pipeline);
    return check_done("test_kafka_faults");
}
