/* consume.c — the consume loop: decode each message, hand the value or the
 * failure to the caller, send failures to a dead-letter topic, store
 * offsets of handled messages, never stop on a bad message. */
#include "kafka_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* How long one poll waits when the loop has no idle timeout. */
#define POLL_MS 1000

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Produces `m` unchanged, plus the error and source headers, to the
 * dead-letter topic and waits for its report. @return its status. */
static int dead_letter(const codec_kafka_consume_options *o, const rd_kafka_message_t *m,
                       const codec_error *why, codec_error *out)
{
    rd_kafka_headers_t *src, *h;
    h = rd_kafka_message_headers(m, &src) ? rd_kafka_headers_new(2)
                                           : rd_kafka_headers_copy(src);
    char line[256], from[320];
    codec_error_format(why, line, sizeof line);
    snprintf(from, sizeof from, "%.255s/%d/%lld", rd_kafka_topic_name(m->rkt),
             (int)m->partition, (long long)m->offset);
    rd_kafka_header_add(h, CODEC_KAFKA_ERROR_HEADER, -1, line, -1);
    rd_kafka_header_add(h, CODEC_KAFKA_SOURCE_HEADER, -1, from, -1);
    codec_kafka_record rec = {.partition = RD_KAFKA_PARTITION_UA,
                              .key = m->key, .key_len = m->key_len};
    if (!codec__kafka_send(o->dead_letter_producer, o->dead_letter_topic, m->payload, m->len,
                           h, &rec))
        codec__kafka_wait(o->dead_letter_producer, &rec, 1);
    if (rec.status)
        *out = rec.error;
    return rec.status;
}

/* A message librdkafka flagged as an error (not EOF): the caller hears of
 * it; nothing is decoded, dead-lettered or stored. */
static int consumer_error(const codec_kafka_consume_options *o, const rd_kafka_message_t *m)
{
    codec_kafka_failure f = {.topic = m->rkt ? rd_kafka_topic_name(m->rkt) : NULL,
                             .partition = m->partition, .offset = m->offset, .message = m,
                             .dead_letter_status = -1};
    f.status = codec_error_set(&f.error, CODEC_E_TRANSIENT, 0, "kafka", CODEC_NO_OFFSET,
                               "consumer error: %s", rd_kafka_message_errstr(m));
    return o->on_failure(o->ctx, &f);
}

/* Decodes one message and calls the right callback. *store is set when
 * its offset may be stored. */
static int handle(const codec_kafka_consume_options *o, const rd_kafka_message_t *m,
                  bool *store)
{
    codec_arena_reset(o->arena);
    size_t which;
    codec_kafka_failure f = {.topic = rd_kafka_topic_name(m->rkt), .partition = m->partition,
                             .offset = m->offset, .message = m, .dead_letter_status = -1};
    f.status = codec_kafka_deserialize(&o->decoder, m, o->value, o->arena, &which, &f.error);
    if (!f.status) {
        *store = true;
        return o->on_value(o->ctx, m, o->value, which);
    }
    if (o->dead_letter_producer && o->dead_letter_topic)
        f.dead_letter_status = dead_letter(o, m, &f.error, &f.dead_letter_error);
    *store = f.dead_letter_status <= 0;
    return o->on_failure(o->ctx, &f);
}

static int store_offset(const rd_kafka_message_t *m, codec_error *err)
{
    rd_kafka_resp_err_t e = rd_kafka_offset_store(m->rkt, m->partition, m->offset);
    if (e == RD_KAFKA_RESP_ERR__INVALID_ARG)
        return codec_error_set(err, CODEC_E_USAGE, 0, "kafka", CODEC_NO_OFFSET,
                               "store_offsets needs enable.auto.offset.store=false");
    return 0; /* __STATE: the partition was revoked; it will be read again */
}

static bool options_ok(rd_kafka_t *rk, const codec_kafka_consume_options *o)
{
    for (size_t i = 0; i < sizeof o->reserved / sizeof o->reserved[0]; i++)
        if (o->reserved[i])
            return false;
    return rk && rd_kafka_type(rk) == RD_KAFKA_CONSUMER && o->decoder.codecs &&
           o->decoder.count && o->value && o->arena && o->on_value && o->on_failure &&
           o->idle_timeout_ms >= 0 &&
           (unsigned)o->decoder.check <= CODEC_KAFKA_SPEC_IGNORE;
}

int codec_kafka_consume(rd_kafka_t *rk, const codec_kafka_consume_options *o,
                        codec_error *err)
{
    int opened = CODEC__KAFKA_OPEN(err);
    if (opened)
        return opened;
    if (!o || !options_ok(rk, o))
        return codec_error_set(err, CODEC_E_USAGE, 0, "kafka", CODEC_NO_OFFSET,
                               "codec_kafka_consume needs a consumer, a decoder, value, "
                               "arena, both callbacks, idle_timeout_ms >= 0, reserved zero");
    int rc = o->dead_letter_producer && o->dead_letter_topic
                 ? codec__kafka_check_producer(o->dead_letter_producer, err)
                 : 0;
    int64_t idle_since = now_ms();
    for (size_t done = 0; !rc && (!o->max_messages || done < o->max_messages);) {
        int wait = POLL_MS;
        if (o->idle_timeout_ms) {
            int64_t left = idle_since + o->idle_timeout_ms - now_ms();
            if (left <= 0)
                break;
            wait = (int)left;
        }
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, wait);
        if (!m)
            continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            rd_kafka_message_destroy(m);
            continue;
        }
        idle_since = now_ms();
        done++;
        char why[256];
        if (m->err == RD_KAFKA_RESP_ERR__FATAL) {
            rd_kafka_fatal_error(rk, why, sizeof why);
            rc = codec_error_set(err, CODEC_E_TRANSIENT, 0, "kafka", CODEC_NO_OFFSET,
                                 "fatal consumer error: %s", why);
        } else if (m->err) {
            rc = consumer_error(o, m);
        } else {
            bool store = false;
            rc = handle(o, m, &store);
            if (!rc && store && o->store_offsets)
                rc = store_offset(m, err);
        }
        rd_kafka_message_destroy(m);
    }
    return rc;
}
