/* suite_redis.h — the `redis` suite of codec-bench (docs/guides/redis.md).
 *
 * Unlike the other suites it is not a list of harness cells: what it
 * measures (the server's MEMORY USAGE, per-operation latency percentiles,
 * pipelined batch throughput) is not encode/decode ops/s. It starts its own
 * redis-server (127.0.0.1, a free port, a temporary directory; stopped at
 * the end, and killed with codec-bench if codec-bench dies), and for each
 * shape and pipeline (bytes shapes; typed shapes — C values with the
 * descriptors of models_types.c — through each backend, then each pipeline):
 *   1. verifies a set/get round trip and a batch round trip, byte for byte
 *      or (typed) by rendering the value read back to the payload's JSON
 *      (a failing cell is reported "failed" and not timed);
 *   2. reads `MEMORY USAGE key` and `STRLEN key`;
 *   3. times N single sets and N single gets (p50, p99);
 *   4. times pipelined batches of sets and of gets (codec_redis_batch).
 * The `none` pipeline stores the raw bytes through hiredis itself: the
 * baseline every codec pipeline is compared with.
 * Then the scale-out cells (values through zstd:3, shapes small and medium):
 *   - "redis-cluster/batch/SHAPE": starts a Redis Cluster as the tests do
 *     (tests/redis_cluster.h: 3 masters, a replica each, 127.0.0.1) and
 *     times batches of sets and of gets on it and on the suite's one
 *     server, alternating rep by rep; reported as cluster / one node;
 *   - "redis-near/get/SHAPE": get latency (p50, p99) of a key through a
 *     handle with a near cache (every timed get a hit, checked by its
 *     counters) against the same get as a round trip. */
#ifndef BENCH_SUITE_REDIS_H
#define BENCH_SUITE_REDIS_H

#include "harness.h"
#include "machine.h"

/* Runs the suite: prints one table per shape to stdout and writes
 * out_dir/redis.json and out_dir/redis.md. Cells whose id
 * "redis/PIPELINE/SHAPE" (typed: "redis/BACKEND|PIPELINE/SHAPE", or
 * "redis/BACKEND/SHAPE" for the backend alone; the scale-out cells
 * "redis-cluster/batch/SHAPE" and "redis-near/get/SHAPE") does not match
 * `filter` (a glob or a substring; NULL = all) are left out. `keyring` is a 0600 key-ring file for the
 * envelope pipelines (suites.c writes it).
 * When redis-server (or hiredis at build time) is missing, the suite
 * reports "not built: ..." in both files and times nothing.
 * @return 0, or 1 when a cell failed or an output could not be written. */
int bench_redis_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                      const char *filter, const char *keyring);

/* Prints the suite's cells that match `filter` for --list, one per line:
 * the id, a tab, then "ready (redis suite)" or "not built: <reason>". */
void bench_redis_list(const char *filter);

#endif
