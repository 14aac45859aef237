/* produce.c — sending messages and turning librdkafka's delivery reports
 * into per-record statuses. */
#include "kafka_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* How long one rd_kafka_poll() waits for events while codec waits for
 * reports or queue room (it returns as soon as one is served). */
#define POLL_MS 100

/* The codec status for a librdkafka error code (delivery or produce). */
static int status_of(rd_kafka_resp_err_t e)
{
    switch (e) {
    case RD_KAFKA_RESP_ERR_NO_ERROR:
        return CODEC_OK;
    case RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC:
    case RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION:
    case RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART:
        return CODEC_E_NOT_FOUND;
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_RECORD_LIST_TOO_LARGE:
    case RD_KAFKA_RESP_ERR_INVALID_RECORD:
        return CODEC_E_INVALID_VALUE;
    case RD_KAFKA_RESP_ERR__INVALID_ARG:
        return CODEC_E_USAGE;
    default:
        return CODEC_E_TRANSIENT;
    }
}

/* The outcome of one message into its record (written before the status,
 * which the waiting thread reads). */
static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void)rk, (void)opaque;
    codec_kafka_record *rec = m->_private;
    if (!rec)
        return; /* a message of the caller's own */
    int status = status_of(m->err);
    if (status) {
        bool maybe = rd_kafka_message_status(m) == RD_KAFKA_MSG_STATUS_POSSIBLY_PERSISTED;
        codec_error_set(&rec->error, status, 0, "kafka", CODEC_NO_OFFSET,
                        "not delivered%s: %s", maybe ? " (possibly written)" : "",
                        rd_kafka_err2str(m->err));
        codec__kafka_locate(m, &rec->error);
    } else {
        rec->delivered_partition = m->partition;
        rec->offset = m->offset;
    }
    __atomic_store_n(&rec->status, status, __ATOMIC_RELEASE);
}

void codec_kafka_conf_set_delivery(rd_kafka_conf_t *conf)
{
    /* Without librdkafka there is nothing to set, and codec_kafka_produce
     * reports why. */
    if (conf && CODEC__KAFKA_OPEN(NULL) == CODEC_OK)
        rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
}

int codec__kafka_check_producer(rd_kafka_t *rk, codec_error *err)
{
    char have[64], ours[64];
    size_t size = sizeof have;
    snprintf(ours, sizeof ours, "%p", (void *)on_delivery);
    if (!rk || rd_kafka_type(rk) != RD_KAFKA_PRODUCER ||
        rd_kafka_conf_get(rd_kafka_conf(rk), "dr_msg_cb", have, &size) != RD_KAFKA_CONF_OK ||
        strcmp(have, ours) != 0)
        return codec_error_set(err, CODEC_E_USAGE, 0, "kafka", CODEC_NO_OFFSET,
                               "the producer must be made from a conf given to "
                               "codec_kafka_conf_set_delivery()");
    return 0;
}

int codec__kafka_send(rd_kafka_t *rk, const char *topic, const void *data, size_t len,
                      rd_kafka_headers_t *headers, codec_kafka_record *rec)
{
    rec->status = CODEC__KAFKA_PENDING;
    rd_kafka_resp_err_t e;
    while ((e = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic),
                                  RD_KAFKA_V_PARTITION(rec->partition),
                                  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                  RD_KAFKA_V_KEY(rec->key, rec->key_len),
                                  RD_KAFKA_V_VALUE((void *)(data ? data : ""), len),
                                  RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_OPAQUE(rec),
                                  RD_KAFKA_V_END)) == RD_KAFKA_RESP_ERR__QUEUE_FULL)
        rd_kafka_poll(rk, POLL_MS);
    if (!e)
        return 0; /* librdkafka owns the headers now */
    if (headers)
        rd_kafka_headers_destroy(headers);
    char name[64];
    snprintf(name, sizeof name, "%.60s", topic);
    rec->status = codec_error_set(&rec->error, status_of(e), 0, "kafka",
                                  CODEC_NO_OFFSET, "%s [%d]: not sent: %s", name,
                                  (int)rec->partition, rd_kafka_err2str(e));
    return rec->status;
}

void codec__kafka_wait(rd_kafka_t *rk, codec_kafka_record *recs, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (__atomic_load_n(&recs[i].status, __ATOMIC_ACQUIRE) != CODEC__KAFKA_PENDING)
            i++;
        else
            rd_kafka_poll(rk, POLL_MS);
    }
}

static bool reserved_zero(const uint64_t *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (r[i])
            return false;
    return true;
}

int codec_kafka_produce(rd_kafka_t *rk, const codec *c, const codec_kafka_produce_options *o,
                        codec_kafka_record *recs, size_t n, codec_error *err)
{
    if (!c || !o || !o->topic || !*o->topic || (!recs && n) ||
        !reserved_zero(o->reserved, sizeof o->reserved / sizeof o->reserved[0]))
        return codec_error_set(err, CODEC_E_USAGE, 0, "kafka", CODEC_NO_OFFSET,
                               "codec_kafka_produce needs a codec, options with a topic "
                               "(reserved zero) and records");
    int rc = CODEC__KAFKA_OPEN(err);
    if (!rc)
        rc = codec__kafka_check_producer(rk, err);
    if (rc)
        return rc;
    codec_buf buf;
    codec_buf_init(&buf, NULL);
    for (size_t i = 0; i < n; i++) {
        codec_kafka_record *rec = &recs[i];
        rd_kafka_headers_t *h = o->spec_header ? rd_kafka_headers_new(1) : NULL;
        codec_buf_clear(&buf);
        rec->status = codec_kafka_serialize(c, o->spec_id, rec->value, &buf, h, &rec->error);
        if (rec->status == CODEC_OK)
            codec__kafka_send(rk, o->topic, buf.data, buf.len, h, rec);
        else if (h)
            rd_kafka_headers_destroy(h);
    }
    codec_buf_free(&buf);
    codec__kafka_wait(rk, recs, n);
    for (size_t i = 0; i < n; i++)
        if (recs[i].status) {
            if (err)
                *err = recs[i].error;
            return recs[i].status;
        }
    return 0;
}
