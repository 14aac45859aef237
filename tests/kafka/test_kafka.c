/* test_kafka.c — the Kafka integration against librdkafka's mock cluster
 * (the real Kafka protocol over TCP, 3 brokers on 127.0.0.1): the
 * serializer and deserializer in the caller's own produce/poll loop, batch
 * produce with per-record delivery status, the consume loop choosing a
 * pipeline by the spec header, decode failures reported with topic,
 * partition and offset and sent to a dead-letter topic while the loop goes
 * on, and offsets stored only for handled messages. */
#define _GNU_SOURCE /* memmem */
#include "kafka_fixture.h"
#include "kafka/kafka_internal.h"

#include <inttypes.h>

static kafka_mock mock;
static const codec_kafka_produce_options no_options;

/* ---------------------------------------------------------------------------
 * What the consume loop saw
 * ------------------------------------------------------------------------ */

#define SEEN_MAX 64

typedef struct seen_value {
    int64_t id, offset;
    int32_t partition;
    size_t which;
    bool expected;           /* the decoded order is the one its id stands for */
} seen_value;

typedef struct seen_failure {
    int status, dead_letter_status;
    int32_t partition;
    int64_t offset;
    char topic[64], message[192];
} seen_failure;

typedef struct seen {
    seen_value values[SEEN_MAX];
    seen_failure failures[SEEN_MAX];
    size_t nvalues, nfailures;
} seen;

static int on_value(void *ctx, const rd_kafka_message_t *m, void *value, size_t which)
{
    seen *s = ctx;
    const order *o = value;
    if (s->nvalues < SEEN_MAX)
        s->values[s->nvalues++] = (seen_value){o->id, m->offset, m->partition, which,
                                               kafka_order_is_expected(o)};
    return 0;
}

static int on_failure(void *ctx, const codec_kafka_failure *f)
{
    seen *s = ctx;
    if (s->nfailures < SEEN_MAX) {
        seen_failure *x = &s->failures[s->nfailures++];
        *x = (seen_failure){.status = f->status, .dead_letter_status = f->dead_letter_status,
                            .partition = f->partition, .offset = f->offset};
        snprintf(x->topic, sizeof x->topic, "%s", f->topic ? f->topic : "");
        snprintf(x->message, sizeof x->message, "%s", f->error.message);
    }
    return 0;
}

/* Runs the consume loop over every message of `topic` (1 partition). */
static int consume_all(const char *group, const char *topic, const codec_kafka_decoder *d,
                       rd_kafka_t *dead, const char *dead_topic, seen *s, size_t expect)
{
    rd_kafka_t *rk = kafka_consumer(&mock, group, topic, 1);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    order value;
    codec_kafka_consume_options o = {.decoder = *d, .value = &value, .arena = &arena,
                                     .on_value = on_value, .on_failure = on_failure,
                                     .ctx = s, .dead_letter_producer = dead,
                                     .dead_letter_topic = dead_topic, .store_offsets = 1,
                                     .max_messages = expect, .idle_timeout_ms = 10000};
    memset(s, 0, sizeof *s);
    codec_error err;
    int rc = codec_kafka_consume(rk, &o, &err);
    if (rc)
        fprintf(stderr, "consume: %s\n", err.message);
    rd_kafka_commit(rk, NULL, 0);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    codec_arena_free(&arena);
    return rc;
}

/* Up to `want` messages (not errors) from `k`, polling for at most 10 s.
 * @return how many; the caller destroys each. */
static int poll_messages(rd_kafka_t *k, rd_kafka_message_t **out, int want)
{
    int got = 0;
    for (int tries = 0; got < want && tries < 100; tries++) {
        rd_kafka_message_t *m = rd_kafka_consumer_poll(k, 100);
        if (m && !m->err)
            out[got++] = m;
        else if (m)
            rd_kafka_message_destroy(m);
    }
    return got;
}

/* Produces raw bytes (and optionally a spec header) with plain librdkafka;
 * returns the offset from codec's delivery report. */
static int64_t produce_raw(rd_kafka_t *rk, const char *topic, const void *data, size_t len,
                           const char *spec)
{
    rd_kafka_headers_t *h = NULL;
    if (spec) {
        h = rd_kafka_headers_new(1);
        rd_kafka_header_add(h, CODEC_KAFKA_SPEC_HEADER, -1, spec, -1);
    }
    codec_kafka_record rec = {.partition = 0, .key = "k", .key_len = 1};
    CHECK_INT(codec__kafka_send(rk, topic, data, len, h, &rec), 0);
    codec__kafka_wait(rk, &rec, 1);
    CHECK_INT(rec.status, 0);
    return rec.offset;
}

/* Orders first.. through `c`, with the spec header (spec_id, or the spec
 * unless spec_id is ""); returns the first one's offset. */
static int64_t produce_orders(rd_kafka_t *rk, const char *topic, const codec *c,
                              int64_t first, int count, const char *spec_id)
{
    char text[8][64];
    line_item items[8][3];
    order orders[8];
    codec_kafka_record recs[8];
    CHECK(count <= 8);
    for (int i = 0; i < count; i++) {
        orders[i] = kafka_order(first + i, text[i], items[i]);
        recs[i] = (codec_kafka_record){.partition = 0, .value = &orders[i]};
    }
    bool header = !spec_id || *spec_id;
    codec_kafka_produce_options o = {.topic = topic, .spec_header = header,
                                     .spec_id = header ? spec_id : NULL};
    codec_error err;
    CHECK_INT(codec_kafka_produce(rk, c, &o, recs, (size_t)count, &err), 0);
    for (int i = 1; i < count; i++)
        CHECK_INT(recs[i].offset, recs[i - 1].offset + 1);
    return recs[0].offset;
}

/* ---------------------------------------------------------------------------
 * Tests
 * ------------------------------------------------------------------------ */

/* The serializer and deserializer in the caller's own loop: plain
 * rd_kafka_producev and rd_kafka_consumer_poll. */
static void test_serde_own_loop(const codec *c)
{
    kafka_topic(&mock, "own", 1);
    rd_kafka_t *p = kafka_producer(&mock, NULL, NULL);
    codec_buf buf;
    codec_buf_init(&buf, NULL);
    codec_error err;
    for (int64_t id = 1; id <= 3; id++) {
        char text[64];
        line_item items[3];
        order o = kafka_order(id, text, items);
        rd_kafka_headers_t *h = rd_kafka_headers_new(1);
        codec_buf_clear(&buf);
        CHECK_INT(codec_kafka_serialize(c, NULL, &o, &buf, h, &err), 0);
        /* NULL opaque: codec's report callback leaves the message alone */
        CHECK_INT(rd_kafka_producev(p, RD_KAFKA_V_TOPIC("own"), RD_KAFKA_V_PARTITION(0),
                                    RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                    RD_KAFKA_V_VALUE(buf.data, buf.len),
                                    RD_KAFKA_V_HEADERS(h), RD_KAFKA_V_END),
                  0);
    }
    CHECK_INT(rd_kafka_flush(p, 10000), 0);
    /* A value that does not encode adds no header and leaves the buffer. */
    rd_kafka_headers_t *h = rd_kafka_headers_new(1);
    codec_buf_clear(&buf);
    CHECK_INT(codec_kafka_serialize(c, NULL, NULL, &buf, h, &err), CODEC_E_USAGE);
    CHECK_INT(rd_kafka_header_cnt(h), 0);
    rd_kafka_headers_destroy(h);
    codec_buf_free(&buf);
    rd_kafka_destroy(p);

    rd_kafka_t *k = kafka_consumer(&mock, "own-loop", "own", 1);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const codec *codecs[] = {c};
    codec_kafka_decoder d = {.codecs = codecs, .count = 1, .check = CODEC_KAFKA_SPEC_REQUIRE};
    rd_kafka_message_t *ms[3];
    int got = poll_messages(k, ms, 3);
    CHECK_INT(got, 3);
    for (int i = 0; i < got; i++) {
        const char *id;
        size_t len;
        CHECK_INT(codec_kafka_message_spec(ms[i], &id, &len), 0);
        CHECK_MEM(id, len, codec_spec(c), strlen(codec_spec(c)));
        order back;
        size_t which = 9;
        codec_arena_reset(&arena);
        CHECK_INT(codec_kafka_deserialize(&d, ms[i], &back, &arena, &which, &err), 0);
        CHECK_INT(which, 0);
        CHECK_INT(back.id, i + 1);
        CHECK(kafka_order_is_expected(&back));
        rd_kafka_message_destroy(ms[i]);
    }
    codec_arena_free(&arena);
    rd_kafka_consumer_close(k);
    rd_kafka_destroy(k);
}

/* Two pipelines on one topic; the consumer picks each message's by its
 * header, and one written by a third pipeline, one with no header (under
 * REQUIRE) and one corrupt are refused with their offsets, sent to the
 * dead-letter topic, and do not stop the loop. */
static void test_pick_refuse_dead_letter(const codec *json_zstd, const codec *proto)
{
    kafka_topic(&mock, "mixed", 1);
    kafka_topic(&mock, "mixed.dlq", 1);
    rd_kafka_t *p = kafka_producer(&mock, (const char *const[]){"enable.idempotence", "true",
                                                                 NULL}, NULL);
    codec_error err;
    codec *msgpack = codec_parse("msgpack", &order_type, &err);
    CHECK(msgpack != NULL);
    int64_t off_a = produce_orders(p, "mixed", json_zstd, 100, 2, NULL);   /* 0, 1 */
    int64_t off_b = produce_orders(p, "mixed", msgpack, 200, 1, NULL);     /* 2: refused */
    int64_t off_c = produce_orders(p, "mixed", proto, 300, 2, "orders-pb"); /* 3, 4 */
    int64_t off_d = produce_raw(p, "mixed", "\x28\xb5\x2f\xfd garbage", 12,
                                codec_spec(json_zstd));                   /* 5: corrupt */
    int64_t off_e = produce_orders(p, "mixed", json_zstd, 500, 1, "");     /* 6: no header */
    int64_t off_f = produce_orders(p, "mixed", json_zstd, 400, 1, NULL);   /* 7 */
    CHECK_INT(off_a, 0);
    CHECK_INT(off_b, 2);
    CHECK_INT(off_c, 3);
    CHECK_INT(off_d, 5);
    CHECK_INT(off_e, 6);
    CHECK_INT(off_f, 7);

    const codec *codecs[] = {json_zstd, proto};
    const char *ids[] = {NULL, "orders-pb"};
    codec_kafka_decoder d = {.codecs = codecs, .ids = ids, .count = 2,
                             .check = CODEC_KAFKA_SPEC_REQUIRE};
    static seen s;
    CHECK_INT(consume_all("mixed-1", "mixed", &d, p, "mixed.dlq", &s, 8), 0);
    CHECK_INT(s.nvalues, 5);
    int64_t want_ids[] = {100, 101, 300, 301, 400};   /* 500 has no header */
    size_t want_which[] = {0, 0, 1, 1, 0};
    int64_t want_offsets[] = {0, 1, 3, 4, 7};
    for (size_t i = 0; i < 5 && i < s.nvalues; i++) {
        CHECK_INT(s.values[i].id, want_ids[i]);
        CHECK_INT(s.values[i].which, want_which[i]);
        CHECK_INT(s.values[i].offset, want_offsets[i]);
        CHECK(s.values[i].expected);
    }
    CHECK_INT(s.nfailures, 3);
    int want_status[] = {CODEC_E_UNSUPPORTED, CODEC_E_INVALID_PAYLOAD, CODEC_E_UNSUPPORTED};
    int64_t bad_offsets[] = {2, 5, 6};
    const char *want_text[] = {"mixed [0] @2: written with codec-spec 'msgpack', not accepted",
                               "mixed [0] @5: ",
                               "mixed [0] @6: no codec-spec header"};
    for (size_t i = 0; i < 3 && i < s.nfailures; i++) {
        CHECK_INT(s.failures[i].status, want_status[i]);
        CHECK_INT(s.failures[i].offset, bad_offsets[i]);
        CHECK_INT(s.failures[i].partition, 0);
        CHECK_STR(s.failures[i].topic, "mixed");
        CHECK_INT(s.failures[i].dead_letter_status, 0);
        if (strncmp(s.failures[i].message, want_text[i], strlen(want_text[i])) != 0) {
            CHECK(!"failure message");
            fprintf(stderr, "  got: %s\n", s.failures[i].message);
        }
    }

    /* The dead letters: same payload and key, the original header, plus
     * where they came from and why. */
    rd_kafka_t *k = kafka_consumer(&mock, "dlq-reader", "mixed.dlq", 1);
    CHECK_INT(kafka_topic_size(k, "mixed.dlq", 1), 3);
    rd_kafka_message_t *ms[3];
    int got = poll_messages(k, ms, 3);
    CHECK_INT(got, 3);
    for (int i = 0; i < got; i++) {
        const rd_kafka_message_t *m = ms[i];
        rd_kafka_headers_t *h;
        const void *v;
        size_t n;
        char want_source[32];
        snprintf(want_source, sizeof want_source, "mixed/0/%lld", (long long)bad_offsets[i]);
        CHECK_INT(rd_kafka_message_headers(m, &h), 0);
        CHECK_INT(rd_kafka_header_get_last(h, CODEC_KAFKA_SOURCE_HEADER, &v, &n), 0);
        CHECK_MEM(v, n, want_source, strlen(want_source));
        CHECK_INT(rd_kafka_header_get_last(h, CODEC_KAFKA_ERROR_HEADER, &v, &n), 0);
        CHECK(n > 20 && memmem(v, n, "mixed [0] @", 11) != NULL);
        if (i == 1) {
            CHECK_MEM(m->payload, m->len, "\x28\xb5\x2f\xfd garbage", 12);
            CHECK_MEM(m->key, m->key_len, "k", 1);
            CHECK_INT(rd_kafka_header_get_last(h, CODEC_KAFKA_SPEC_HEADER, &v, &n), 0);
            CHECK_MEM(v, n, codec_spec(json_zstd), strlen(codec_spec(json_zstd)));
        }
        rd_kafka_message_destroy(ms[i]);
    }
    rd_kafka_consumer_close(k);
    rd_kafka_destroy(k);

    /* The loop stored an offset for every handled message: a new consumer
     * in the same group starts after the last one and sees nothing. */
    rd_kafka_t *again = kafka_consumer(&mock, "mixed-1", "mixed", 1);
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(l, "mixed", 0);
    CHECK_INT(rd_kafka_committed(again, l, 10000), 0);
    CHECK_INT(l->elems[0].offset, 8);
    rd_kafka_topic_partition_list_destroy(l);
    rd_kafka_consumer_close(again);
    rd_kafka_destroy(again);

    /* MATCH accepts the message without a header (through codecs[0]);
     * IGNORE decodes everything with codecs[0], so the msgpack and
     * protobuf ones fail as bad payload. */
    d.check = CODEC_KAFKA_SPEC_MATCH;
    CHECK_INT(consume_all("mixed-2", "mixed", &d, NULL, NULL, &s, 8), 0);
    CHECK_INT(s.nvalues, 6);
    CHECK_INT(s.nfailures, 2);
    CHECK_INT(s.failures[0].dead_letter_status, -1);
    d.check = CODEC_KAFKA_SPEC_IGNORE;
    CHECK_INT(consume_all("mixed-3", "mixed", &d, NULL, NULL, &s, 8), 0);
    CHECK_INT(s.nvalues, 4);
    CHECK_INT(s.nfailures, 4);   /* msgpack, two protobuf, corrupt */
    CHECK_INT(s.failures[0].status, CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(s.failures[1].offset, 3);
    codec_free(msgpack);
    rd_kafka_destroy(p);
}

/* Per-record delivery status: a partition that does not exist, a record
 * with no value, and the rest delivered in the same call. */
static void test_delivery_status(const codec *c)
{
    kafka_topic(&mock, "status", 2);
    rd_kafka_t *p = kafka_producer(&mock, NULL, NULL);
    char text[3][64];
    line_item items[3][3];
    order o[3];
    for (int i = 0; i < 3; i++)
        o[i] = kafka_order(i + 1, text[i], items[i]);
    codec_kafka_record recs[4] = {{.partition = 1, .value = &o[0]},
                                  {.partition = 7, .value = &o[1]},
                                  {.partition = 0, .value = NULL},
                                  {.partition = RD_KAFKA_PARTITION_UA, .key = "x",
                                   .key_len = 1, .value = &o[2]}};
    codec_kafka_produce_options opt = {.topic = "status"};
    codec_error err;
    CHECK_INT(codec_kafka_produce(p, c, &opt, recs, 4, &err), CODEC_E_NOT_FOUND);
    CHECK(strstr(err.message, "status [7]") != NULL);
    CHECK_INT(recs[0].status, 0);
    CHECK_INT(recs[0].delivered_partition, 1);
    CHECK_INT(recs[0].offset, 0);
    CHECK_INT(recs[1].status, CODEC_E_NOT_FOUND);
    CHECK_INT(recs[2].status, CODEC_E_USAGE);
    CHECK_INT(recs[3].status, 0);
    CHECK(recs[3].delivered_partition == 0 || recs[3].delivered_partition == 1);
    CHECK_INT(kafka_topic_size(p, "status", 2), 2);

    /* Misuse is refused before anything is sent. */
    CHECK_INT(codec_kafka_produce(p, c, &no_options, recs, 1, &err), CODEC_E_USAGE);
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    kafka_set(conf, "bootstrap.servers", mock.bootstraps);
    char why[256];
    rd_kafka_t *plain = rd_kafka_new(RD_KAFKA_PRODUCER, conf, why, sizeof why);
    CHECK_INT(codec_kafka_produce(plain, c, &opt, recs, 1, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "codec_kafka_conf_set_delivery") != NULL);
    rd_kafka_destroy(plain);
    rd_kafka_destroy(p);
}

int main(void)
{
    kafka_mock_start(&mock);
    codec_error err;
    /* codec__kafka_send() is called directly below: open librdkafka for it. */
    CHECK_INT(codec__dynlib_open(&codec__librdkafka, "test", &err), 0);
    codec *json_zstd = codec_parse("json | zstd:3", &order_type, &err);
    codec *proto = codec_parse("protobuf", &order_type, &err);
    CHECK(json_zstd && proto);
    if (json_zstd && proto) {
        test_serde_own_loop(json_zstd);
        test_pick_refuse_dead_letter(json_zstd, proto);
        test_delivery_status(json_zstd);
    }
    codec_free(json_zstd);
    codec_free(proto);
    kafka_mock_stop(&mock);
    return check_done("test_kafka");
}
