/* harness.h — the measuring core of codec-bench.
 *
 * A *driver* is anything that can encode a payload and decode it back:
 * codec itself (a pipeline spec) or a peer library (bench/peers/). A *cell*
 * is one driver configuration on one payload. For every cell the harness
 *   1. opens it (a spec this build cannot parse makes the cell "not built");
 *   2. verifies decode(encode(x)) == x byte for byte — a failing cell is
 *      reported "failed" and never timed;
 *   3. times encode, then decode (decode rewinds the same pre-encoded input):
 *      warm-up iterations, then measured iterations of fixed duration,
 *      keeping ops/s per iteration (median, min, max are derived);
 *   4. counts heap allocations per op over the last measured iteration (and,
 *      for codec, calls on its codec_allocator);
 *   5. optionally measures the same cell on 1..N threads.
 * Not thread-safe itself: one cell at a time (threads are inside step 5). */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include "alloc_count.h"
#include "payloads/payloads.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_cell;
struct bench_profile;

/* One driver. Shared state comes from open(); each thread then makes its own
 * worker (buffers, arena, library context), so workers are never shared. */
typedef struct bench_driver {
    const char *name;        /* "codec", "zlib", "zstd", ... */
    /* Library name and version for the machine line, e.g. "zlib 1.2.13". */
    const char *(*version)(void);
    /* Builds the shared state for `spec` on payload `p`; NULL with a reason
     * in `why` when this build cannot run it ("not built"). */
    void *(*open)(const char *spec, const bench_payload *p, char *why, size_t why_cap);
    void (*close)(void *shared);
    void *(*worker_new)(void *shared);
    void (*worker_free)(void *worker);
    /* Encodes p; *out stays valid until the worker's next call. 0 or -1. */
    int (*encode)(void *worker, const bench_payload *p, const uint8_t **out, size_t *out_len);
    /* Decodes in[0..n); *out is the decoded bytes, valid until the worker's
     * next call (a typed driver may leave *out NULL: see `matches`). 0 or -1. */
    int (*decode)(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                  size_t *out_len);
    /* After a decode: whether the decoded value equals p->value. Typed
     * drivers render it with bench_payload_render() and compare with
     * p->rendered, outside the timed decode. Bytes that decode hands back must
     * equal p->bytes whether or not there is a hook; a driver whose decode
     * hands back none needs one. @return 1 equal, 0 different, -1 could not
     * tell. */
    int (*matches)(void *worker, const bench_payload *p);
    /* The worker's codec_allocator tally, or NULL when it has none. */
    const bench_alloc_tally *(*codec_tally)(void *worker);
    /* Drivers whose figures come from another program (the JDK) fill their
     * cells in one go instead; NULL for in-process drivers. */
    int (*run_external)(struct bench_cell **cells, size_t n, const struct bench_profile *prof);
} bench_driver;

typedef struct bench_profile {
    const char *name;        /* "quick" or "full" */
    int warmup_iters;
    int measure_iters;
    double iter_seconds;
    int threads;             /* 0: no scaling run; else 1..threads */
    int cold_samples;        /* processes per cold-start cell */
    /* Seconds one op kind (encode or decode) of a cell may take, 0 = no
     * limit. When a single op outlasts an iteration, the cell gets fewer
     * iterations (the round-trip check serves as its warm-up), so that a
     * quick run is not held up by brotli:11 on 1 MiB. */
    double op_budget;
} bench_profile;

void bench_profile_get(const char *name, bench_profile *out); /* unknown -> full */

typedef enum bench_status {
    BENCH_PENDING = 0,
    BENCH_OK,
    BENCH_NOT_BUILT,
    BENCH_FAILED
} bench_status;

const char *bench_status_name(bench_status s);

#define BENCH_MAX_SAMPLES 64
#define BENCH_MAX_THREADS 64

/* Samples of one quantity (ops/s, or ns for cold start). */
typedef struct bench_series {
    double v[BENCH_MAX_SAMPLES];
    int n;
} bench_series;

void bench_series_add(bench_series *s, double v);
double bench_series_median(const bench_series *s);
double bench_series_min(const bench_series *s);
double bench_series_max(const bench_series *s);

/* One thread count of a --threads run, one direction; -1 = not measured. */
typedef struct bench_scale {
    double ops_s;    /* all threads' ops/s together: the median over rounds */
    double speedup;  /* ops_s over one thread's in the same round: the median
                      * of these ratios (a slow spell of the host then weighs
                      * on both sides of each) */
    double cpu_ns;   /* thread CPU time per op, mean of the threads: the median
                      * over rounds. Flat from 1 to N threads: the threads do
                      * not slow each other's work, and a speed-up under N is
                      * time they did not run (the VM's scheduling) */
} bench_scale;

/* Per-operation allocation counts; negative = not measured. */
typedef struct bench_allocs {
    double heap_calls, heap_bytes;    /* interposed malloc family */
    double codec_calls, codec_bytes;  /* codec_allocator (codec cells only) */
} bench_allocs;

/* Cold start, in nanoseconds per sample. */
typedef struct bench_cold {
    bench_series start;   /* spawn -> main() */
    bench_series init;    /* building the codec (library init) */
    bench_series first;   /* first encode + decode */
    bench_series rest;    /* steady-state encode + decode, mean over a few */
} bench_cold;

typedef struct bench_cell {
    char suite[16];
    char group[64];          /* what rows compare: "zstd:3", "base64" */
    char spec[512];          /* the driver's spec */
    const bench_driver *driver;
    /* The implementation's name in the id and the report when a group holds
     * its driver twice ("simdjson-ondemand", "simdjson-dom"); empty: the
     * driver's name (bench_cell_name). */
    char name[32];
    const bench_payload *payload;
    bool cold;               /* a cold-start cell (suite cold) */
    /* A decode-only cell (a validator): no encode is timed or called; the
     * decode reads the payload's bytes and must hand them back. */
    bool decode_only;

    bench_status status;
    char reason[256];        /* why not built / failed */
    size_t encoded_len;
    bench_series enc, dec;   /* ops/s per measured iteration */
    bench_allocs enc_allocs, dec_allocs;
    int scale_threads;       /* entries in scale_enc/dec (0 = no scaling run) */
    bench_scale scale_enc[BENCH_MAX_THREADS], scale_dec[BENCH_MAX_THREADS];
    bench_cold cold_ns;
    double wall_seconds;     /* how long the cell took to run, all of it */
} bench_cell;

/* A stable name for filters, --list and fork children:
 * "suite/group/driver/payload", the driver as bench_cell_name(). */
void bench_cell_id(const bench_cell *c, char *dst, size_t cap);

/* The cell's name if it has one, else its driver's. */
const char *bench_cell_name(const bench_cell *c);

/* Steps 1–4 (and 5 when prof->threads > 0) for an in-process cell.
 * Fills status, reason and the figures. */
void bench_run_cell(bench_cell *c, const bench_profile *prof);

/* Step 1 and 2 only: opens and verifies. Returns the status; used by
 * --list to tell built from not built, and by the tests. */
bench_status bench_check_cell(bench_cell *c);

/* Monotonic clock in seconds / nanoseconds. */
double bench_now(void);
int64_t bench_now_ns(void);

#endif
