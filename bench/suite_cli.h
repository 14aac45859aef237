/* suite_cli.h — the `cli` suite of codec-bench (docs/benchmarks.md).
 *
 * The `codec` command beside the tools people already use, on the same
 * files, as separate processes. Like the redis and kafka suites it is not a
 * list of harness cells. For each input (prose and JSON from the payload
 * generators, and random bytes; `size` bytes each, written to a temporary
 * directory) and each row:
 *
 *   zstd -3, zstd -19 -T2, gzip -6, lz4, brotli -q 5 (-w 22, codec's
 *   window), base64 (76-column lines)
 *
 * it first checks the outputs: codec's compressed file is read back by
 * `codec unpack` and by the tool, and the tool's by `codec unpack`, each
 * compared with the input byte for byte (a row that fails is "failed" and
 * not timed). Then it times both directions (compress the input;
 * decompress the tool's output), codec and the tool alternately, the
 * profile's repetitions each, and reports per process the median wall
 * time, its CPU time (user + sys from wait4) and the largest peak RSS
 * (ru_maxrss of the command, through GNU time: see suite_cli.c), the
 * throughput ratio codec/tool (tool's wall time over codec's) and the
 * output sizes.
 *
 * Two more tables: `codec pack -T2` against `-T1` (zstd:19 on the prose
 * input; target 1.7x on 2 cores), and the library's streaming API against
 * its one-shot API in process on 1 MiB of prose (median of repetitions;
 * target within 3%), whose output is checked against the one-shot's. */
#ifndef BENCH_SUITE_CLI_H
#define BENCH_SUITE_CLI_H

#include "harness.h"
#include "machine.h"

#include <stdint.h>

/* The input size of a profile: 1 GiB in full, 32 MiB in quick. */
uint64_t bench_cli_default_size(const bench_profile *prof);

/* Parses a size such as "64m", "1g", "1048576". @return 0 or -1. */
int bench_cli_parse_size(const char *s, uint64_t *out);

/* Runs the suite: prints a table to stdout and writes out_dir/cli.json and
 * out_dir/cli.md. Rows whose id "cli/ROW/PAYLOAD" (ROW such as "zstd-3")
 * does not match `filter` (a glob or a substring; NULL = all) are left
 * out; the threads table has id "cli/threads/prose", the stream table
 * "cli/stream/SPEC". `size` = 0 takes bench_cli_default_size().
 * @return 0, or 1 when a row failed or an output could not be written. */
int bench_cli_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                    const char *filter, uint64_t size);

#endif
