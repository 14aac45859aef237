/* kafka_internal.h — what the Kafka calls share (serde.c: the spec header
 * and decoding; produce.c: sending and delivery reports; consume.c: the
 * poll loop and dead letters). */
#ifndef CODEC_KAFKA_INTERNAL_H
#define CODEC_KAFKA_INTERNAL_H

#include "codec/kafka.h"
#include "librdkafka_internal.h"

/* A record's status while its delivery report has not arrived. Never a
 * codec_status, so never seen by the caller once the call returns. */
#define CODEC__KAFKA_PENDING (-1)

/* Opens librdkafka (the first call does): 0, or CODEC_E_UNSUPPORTED with
 * the loader's message. Every codec_kafka_* call makes sure of it before
 * its first librdkafka call. */
#define CODEC__KAFKA_OPEN(err) codec__dynlib_open(&codec__librdkafka, "kafka", (err))

/* Prefixes err->message with `TOPIC [PARTITION] @OFFSET: ` for `m`. */
void codec__kafka_locate(const rd_kafka_message_t *m, codec_error *err);

/* CODEC_E_USAGE unless `rk` is a producer whose dr_msg_cb is codec's. */
int codec__kafka_check_producer(rd_kafka_t *rk, codec_error *err);

/* Hands one message to librdkafka, with `rec` as its opaque (its status is
 * then CODEC__KAFKA_PENDING until the report). Takes `headers` (may be
 * NULL) in every case. Waits for room when the queue is full.
 * @return 0, or the failure (rec->status and rec->error are set too). */
int codec__kafka_send(rd_kafka_t *rk, const char *topic, const void *data, size_t len,
                      rd_kafka_headers_t *headers, codec_kafka_record *rec);

/* Serves rk's events until none of the n records is pending. */
void codec__kafka_wait(rd_kafka_t *rk, codec_kafka_record *recs, size_t n);

#endif
