/* suite_kafka.h — the `kafka` suite of codec-bench (docs/guides/kafka.md).
 *
 * Like the redis suite it is not a list of harness cells. It starts
 * librdkafka's mock cluster in process (3 brokers on 127.0.0.1: the real
 * Kafka protocol, but not a Kafka broker) and, for the typed `order`
 * payload (models_types.c binds its descriptor) through json, protobuf and
 * fory, each plain and with zstd:3:
 *   1. checks a round trip: every message consumed back must render to
 *      the payload's JSON (a failing cell is reported "failed");
 *   2. counts the bytes per message: the encoded value, and the codec-spec
 *      header;
 *   3. times producing N messages with codec_kafka_produce (idempotent,
 *      delivery reports included) and consuming them with
 *      codec_kafka_consume (decoding included), median of the profile's
 *      repetitions, and reports each as a ratio to the plain json cell.
 * The absolute rates are the mock's, not a Kafka cluster's: compare the
 * pipelines with the ratios. */
#ifndef BENCH_SUITE_KAFKA_H
#define BENCH_SUITE_KAFKA_H

#include "harness.h"
#include "machine.h"

/* Runs the suite: prints a table to stdout and writes out_dir/kafka.json
 * and out_dir/kafka.md. Cells whose id "kafka/PIPELINE/order" (PIPELINE
 * such as "protobuf|zstd:3") does not match `filter` (a glob or a
 * substring; NULL = all) are left out. Without librdkafka at build time
 * both files say "not built: ..." and nothing is timed.
 * @return 0, or 1 when a cell failed or an output could not be written. */
int bench_kafka_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                      const char *filter);

#endif
