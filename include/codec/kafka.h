/* codec/kafka.h — typed values in Kafka through any codec pipeline
 * (librdkafka).
 *
 * Layer `integrations`: built only when librdkafka is found (Debian
 * librdkafka-dev); the build then defines CODEC_HAVE_KAFKA for you and for
 * every program that links codec. You create, configure, poll and destroy
 * the rd_kafka_t yourself; codec only encodes, decodes and keeps score.
 * Link librdkafka yourself (`pkg-config --libs rdkafka`): libcodec does not,
 * it opens librdkafka on first use (docs/ARCHITECTURE.md).
 *
 *   rd_kafka_conf_t *conf = rd_kafka_conf_new();
 *   rd_kafka_conf_set(conf, "bootstrap.servers", "127.0.0.1:9092", ..);
 *   rd_kafka_conf_set(conf, "enable.idempotence", "true", ..);
 *   codec_kafka_conf_set_delivery(conf);             // reports -> records
 *   rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, ..);
 *   codec *c = codec_parse("json | zstd:3", &order_type, &err);
 *   codec_kafka_record recs[2] = {{.value = &o1}, {.value = &o2}};
 *   codec_kafka_produce_options po = {.topic = "orders", .spec_header = 1};
 *   rc = codec_kafka_produce(rk, c, &po, recs, 2, &err);  // waits for reports
 *   // recs[i].status: CODEC_OK (partition, offset set), CODEC_E_TRANSIENT...
 *
 * Three levels, use any:
 *   - serializer / deserializer (codec_kafka_serialize, _deserialize): bytes
 *     and headers for your own rd_kafka_producev / consumer_poll loop;
 *   - codec_kafka_produce: a batch of values, each with its own status from
 *     librdkafka's delivery report;
 *   - codec_kafka_consume: a poll loop that hands you decoded values, and
 *     decode failures with their topic, partition and offset (optionally
 *     copied to a dead-letter topic), and keeps going.
 *
 * The spec header. A producer may write the identity of its pipeline into
 * the header CODEC_KAFKA_SPEC_HEADER ("codec-spec"): codec_spec() of the
 * codec ("json | zstd:3"), or a name of your choosing (`spec_id`, e.g.
 * "orders-v2", useful when the spec holds a host-specific path such as a
 * key ring's). A consumer lists the pipelines it accepts (all decoding to
 * the same C type) and picks the one the header names, or refuses the
 * message with CODEC_E_UNSUPPORTED naming the identity it saw.
 *
 * What each status means here:
 *   CODEC_OK                 produce: the broker acknowledged (with acks=all
 *                            and idempotence, once and in order); consume: a
 *                            value was decoded.
 *   CODEC_E_INVALID_PAYLOAD  the message's bytes did not decode (the codec's
 *                            detail, stage and offset are kept; the message
 *                            starts with `TOPIC [PARTITION] @OFFSET: `).
 *   CODEC_E_UNSUPPORTED      the spec header names a pipeline this consumer
 *                            does not accept, or is missing when required;
 *                            or librdkafka could not be loaded (codec opens
 *                            it by its SONAME on first use, and so finds
 *                            the copy your program already uses).
 *   CODEC_E_NOT_FOUND        produce: the topic or partition does not exist.
 *   CODEC_E_TRANSIENT        librdkafka failed: timed out, broker or network
 *                            errors, a fatal producer error (librdkafka's own
 *                            words, and "possibly written" when the message
 *                            may be in the log anyway).
 *   CODEC_E_INVALID_VALUE    the value could not be encoded, or the message
 *                            is larger than the broker or client accepts.
 *   CODEC_E_USAGE            a bad argument or option.
 *   CODEC_E_NOMEM            out of memory.
 *
 * Threads: every call may run on any thread; the rd_kafka_t is librdkafka's
 * to share. During codec_kafka_produce, no other thread may rd_kafka_poll()
 * the same handle (codec serves the reports itself). Codecs may be shared.
 *
 * Since 0.1. See docs/guides/kafka.md for a full producer and consumer.
 */
#ifndef CODEC_KAFKA_H
#define CODEC_KAFKA_H

#include "compose.h"

#include <librdkafka/rdkafka.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The header that carries the pipeline's identity. */
#define CODEC_KAFKA_SPEC_HEADER "codec-spec"
/** Headers added to a dead letter: the formatted decode error, and where the
 * message came from as "TOPIC/PARTITION/OFFSET". */
#define CODEC_KAFKA_ERROR_HEADER "codec-error"
#define CODEC_KAFKA_SOURCE_HEADER "codec-source"

/* ---------------------------------------------------------------------------
 * Serializer and deserializer, for your own produce and consume calls
 * ------------------------------------------------------------------------ */

/** codec_kafka_serialize() — encodes `value` through `c`, appending the
 * bytes to `out`, and, when `headers` is not NULL, adds the spec header
 * (`spec_id`, or codec_spec(c) when spec_id is NULL) to it.
 * Pass out->data, out->len and the headers to rd_kafka_producev()
 * (RD_KAFKA_V_VALUE with RD_KAFKA_MSG_F_COPY, RD_KAFKA_V_HEADERS).
 * @param value   what `c` encodes (a codec_bytes for a bytes pipeline);
 *                read only, not kept.
 * @param out     caller owned; on failure its length is restored.
 * @param headers may be NULL; caller owned.
 * @return 0; the codec's status (nothing is added to `headers`);
 *         CODEC_E_TRANSIENT when librdkafka refuses the header;
 *         CODEC_E_USAGE for NULL `c`, `value` or `out`.
 * Allocates: nothing once `out` has grown (librdkafka copies the header).
 * Since: 0.1 */
CODEC_API CODEC_NODISCARD int codec_kafka_serialize(const codec *c, const char *spec_id,
                                                    const void *value, codec_buf *out,
                                                    rd_kafka_headers_t *headers, codec_error *err);

/** codec_kafka_message_spec() — the spec header of `m` (its last
 * occurrence): *id points into the message (not NUL-terminated, valid as
 * long as `m`), *len is its length.
 * @return 0, or CODEC_E_NOT_FOUND when `m` has no such header
 *         (CODEC_E_UNSUPPORTED when librdkafka could not be loaded). Since: 0.1 */
CODEC_API CODEC_NODISCARD int codec_kafka_message_spec(const rd_kafka_message_t *m, const char **id,
                                                       size_t *len);

/** How a consumer treats the spec header. */
typedef enum codec_kafka_spec_check {
    /** Use the header when present (it must name an accepted pipeline);
     * decode a message without it with codecs[0]. */
    CODEC_KAFKA_SPEC_MATCH = 0,
    /** Refuse a message without the header (CODEC_E_UNSUPPORTED). */
    CODEC_KAFKA_SPEC_REQUIRE = 1,
    /** Ignore the header: always codecs[0]. */
    CODEC_KAFKA_SPEC_IGNORE = 2
} codec_kafka_spec_check;

/** The pipelines a consumer accepts. Every codec must decode to the same C
 * type (a bytes pipeline's is codec_bytes). Nothing here is copied; all of
 * it must outlive the calls that use it. */
typedef struct codec_kafka_decoder {
    const codec *const *codecs;   /* count codecs; codecs[0] is the default */
    const char *const *ids;       /* NULL, or count identities (NULL entries
                                   * mean codec_spec() of that codec) */
    size_t count;                 /* 1.. */
    codec_kafka_spec_check check;
} codec_kafka_decoder;

/** codec_kafka_deserialize() — picks the pipeline for `m` (see
 * codec_kafka_spec_check) and decodes its payload into `value_out`;
 * everything the value points at lives in `arena`.
 * @param which   may be NULL; receives the index of the codec used.
 * @return 0; CODEC_E_UNSUPPORTED (spec header missing when required, or
 *         naming no accepted pipeline: the message quotes it); the codec's
 *         status (CODEC_E_INVALID_PAYLOAD...; a message without a payload
 *         is decoded as zero bytes); CODEC_E_TRANSIENT when `m` is a
 *         consumer error (m->err set); CODEC_E_USAGE.
 *         Every failure's message starts with `TOPIC [PARTITION] @OFFSET: `;
 *         stage, detail and offset are the codec's.
 * Threads: safe while no other thread touches `arena` or `err`.
 * Since: 0.1 */
CODEC_API CODEC_NODISCARD int codec_kafka_deserialize(const codec_kafka_decoder *d,
                                                      const rd_kafka_message_t *m, void *value_out,
                                                      codec_arena *arena, size_t *which,
                                                      codec_error *err);

/* ---------------------------------------------------------------------------
 * Producing a batch with delivery reports
 * ------------------------------------------------------------------------ */

/** codec_kafka_conf_set_delivery() — installs codec's delivery-report
 * callback (dr_msg_cb) on `conf`, before rd_kafka_new(). A producer made
 * from it may also produce messages of its own with rd_kafka_producev(),
 * as long as their opaque (RD_KAFKA_V_OPAQUE) is NULL; codec's callback
 * ignores those. Since: 0.1 */
CODEC_API void codec_kafka_conf_set_delivery(rd_kafka_conf_t *conf);

/** One message of codec_kafka_produce(). Fill the inputs; the call fills
 * the outputs. */
typedef struct codec_kafka_record {
    int32_t partition;       /* in: a partition, or RD_KAFKA_PARTITION_UA
                              * (-1) for the partitioner. Zero-initialised
                              * records go to partition 0: set -1 for keys
                              * to pick the partition. */
    const void *key;         /* may be NULL; key_len bytes, copied */
    size_t key_len;
    const void *value;       /* what the codec encodes */
    int status;              /* out: CODEC_OK or a failure */
    int32_t delivered_partition;  /* out: when status is CODEC_OK */
    int64_t offset;          /* out: when status is CODEC_OK (-1 if the
                              * broker did not say, e.g. acks=0) */
    codec_error error;       /* out: when status != CODEC_OK */
} codec_kafka_record;

typedef struct codec_kafka_produce_options {
    const char *topic;       /* required */
    int spec_header;         /* nonzero: write the spec header */
    const char *spec_id;     /* the header's value; NULL = codec_spec(c) */
    uint64_t reserved[4];    /* must be zero */
} codec_kafka_produce_options;

/** codec_kafka_produce() — encodes each record's value through `c`, hands
 * the messages to librdkafka (waiting for room when its queue is full),
 * then serves `rk`'s events until every message has its delivery report,
 * and stores each outcome in its record.
 * `rk` must be a producer made from a conf given to
 * codec_kafka_conf_set_delivery() (CODEC_E_USAGE otherwise). The wait is
 * bounded by librdkafka's message.timeout.ms: every message gets a report.
 * Retries are librdkafka's: with enable.idempotence=true a retried message
 * is written once, in order; codec never produces a message twice.
 * - A record whose value does not encode is not sent; its status is the
 *   codec's. The others still go.
 * - A failed delivery gets CODEC_E_TRANSIENT (or NOT_FOUND, INVALID_VALUE,
 *   see the table above) with librdkafka's reason; "possibly written" in
 *   its message when librdkafka cannot tell (rd_kafka_message_status).
 * @return 0 when every record has status 0; otherwise the status of the
 *         first failed record, with its error in `err`; CODEC_E_USAGE
 *         (nothing sent).
 * Allocates: one buffer per call for the encoded values (librdkafka copies
 *         each message). Since: 0.1 */
CODEC_API CODEC_NODISCARD int codec_kafka_produce(rd_kafka_t *rk, const codec *c,
                                                  const codec_kafka_produce_options *o,
                                                  codec_kafka_record *recs, size_t n,
                                                  codec_error *err);

/* ---------------------------------------------------------------------------
 * The consume loop
 * ------------------------------------------------------------------------ */

/** A message the loop could not turn into a value. */
typedef struct codec_kafka_failure {
    const char *topic;              /* NULL when librdkafka did not say */
    int32_t partition;
    int64_t offset;                 /* -1 when unknown */
    const rd_kafka_message_t *message;  /* key, payload, headers; valid
                                     * during the callback only */
    int status;                     /* why: see codec_kafka_deserialize(); a
                                     * consumer error is CODEC_E_TRANSIENT */
    codec_error error;
    /** The dead letter: -1 when none was sent (no dead-letter topic, or a
     * consumer error); else its delivery status (0 = acknowledged) and, on
     * failure, dead_letter_error. */
    int dead_letter_status;
    codec_error dead_letter_error;
} codec_kafka_failure;

/** Callbacks of codec_kafka_consume(). Return 0 to go on; any other value
 * stops the loop, and codec_kafka_consume() returns it. */
typedef int (*codec_kafka_on_value)(void *ctx, const rd_kafka_message_t *m, void *value,
                                    size_t which);
typedef int (*codec_kafka_on_failure)(void *ctx, const codec_kafka_failure *f);

typedef struct codec_kafka_consume_options {
    codec_kafka_decoder decoder;
    void *value;                    /* each value is decoded here: a C object
                                     * of the codecs' type (codec_bytes for
                                     * a bytes pipeline) */
    codec_arena *arena;             /* reset before each message */
    codec_kafka_on_value on_value;  /* required */
    codec_kafka_on_failure on_failure;  /* required */
    void *ctx;                      /* passed to both callbacks */
    /** Dead letters: when both are set, each message that fails to decode is
     * produced, unchanged (key, payload and headers) plus the headers
     * codec-error and codec-source, to this topic through this producer
     * (made from a conf given to codec_kafka_conf_set_delivery()), and the
     * loop waits for its report before calling on_failure. */
    rd_kafka_t *dead_letter_producer;
    const char *dead_letter_topic;
    /** Nonzero: after a message is handled (on_value returned 0, or
     * on_failure returned 0 and its dead letter, if any, was acknowledged)
     * store its offset + 1 with rd_kafka_offsets_store(), for at-least-once
     * with enable.auto.offset.store=false. */
    int store_offsets;
    size_t max_messages;            /* stop after this many (values and
                                     * failures); 0 = no limit */
    int idle_timeout_ms;            /* stop after this long without a
                                     * message; 0 = never (until a callback
                                     * stops the loop or max_messages) */
    uint64_t reserved[4];           /* must be zero */
} codec_kafka_consume_options;

/** codec_kafka_consume() — polls `rk` (a consumer you subscribed or
 * assigned; rd_kafka_consumer_poll, so it needs a group.id) and, for each
 * message, decodes it (codec_kafka_deserialize) and calls on_value, or
 * calls on_failure with the message's topic, partition and offset when it
 * does not decode or librdkafka reports a consumer error. A failure never
 * stops the loop by itself. Partition-EOF events are skipped.
 * @return 0 after max_messages or idle_timeout_ms; a callback's nonzero
 *         value; CODEC_E_TRANSIENT for a fatal consumer error (librdkafka's
 *         words in err); CODEC_E_USAGE for bad options. Since: 0.1 */
CODEC_API CODEC_NODISCARD int codec_kafka_consume(rd_kafka_t *rk,
                                                  const codec_kafka_consume_options *o,
                                                  codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_KAFKA_H */
