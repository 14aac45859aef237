/* harness.c — verification, timing, allocation counts and thread scaling. */
#include "harness.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bench_profile_get(const char *name, bench_profile *out)
{
    if (name && strcmp(name, "quick") == 0)
        *out = (bench_profile){"quick", 1, 3, 0.05, 0, 5, 1.0};
    else
        *out = (bench_profile){"full", 3, 5, 1.0, 0, 20, 0};
}

const char *bench_status_name(bench_status s)
{
    switch (s) {
    case BENCH_OK: return "ok";
    case BENCH_NOT_BUILT: return "not built";
    case BENCH_FAILED: return "failed";
    default: return "pending";
    }
}

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void bench_series_add(bench_series *s, double v)
{
    if (s->n < BENCH_MAX_SAMPLES)
        s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_series_median(const bench_series *s)
{
    if (s->n == 0)
        return 0;
    double t[BENCH_MAX_SAMPLES];
    memcpy(t, s->v, (size_t)s->n * sizeof t[0]);
    qsort(t, (size_t)s->n, sizeof t[0], cmp_double);
    return s->n % 2 ? t[s->n / 2] : (t[s->n / 2 - 1] + t[s->n / 2]) / 2;
}

double bench_series_min(const bench_series *s)
{
    double m = s->n ? s->v[0] : 0;
    for (int i = 1; i < s->n; i++)
        m = s->v[i] < m ? s->v[i] : m;
    return m;
}

double bench_series_max(const bench_series *s)
{
    double m = s->n ? s->v[0] : 0;
    for (int i = 1; i < s->n; i++)
        m = s->v[i] > m ? s->v[i] : m;
    return m;
}

const char *bench_cell_name(const bench_cell *c)
{
    return c->name[0] ? c->name : c->driver->name;
}

void bench_cell_id(const bench_cell *c, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s/%s/%s/%s", c->suite, c->group, bench_cell_name(c), c->payload->name);
}

/* ---------------------------------------------------------------------------
 * One cell's context: shared state, a worker and the pre-encoded input.
 * ------------------------------------------------------------------------ */

typedef struct cell_ctx {
    bench_cell *cell;
    void *shared;
    void *worker;
    uint8_t *encoded;        /* a copy: the worker's output is reused */
    size_t encoded_len;
    double enc_seconds, dec_seconds;  /* the first (checking) encode and decode */
} cell_ctx;

static void fail(bench_cell *c, bench_status s, const char *fmt, const char *detail)
{
    c->status = s;
    snprintf(c->reason, sizeof c->reason, fmt, detail);
}

static void ctx_close(cell_ctx *x)
{
    const bench_driver *d = x->cell->driver;
    if (x->worker)
        d->worker_free(x->worker);
    if (x->shared)
        d->close(x->shared);
    free(x->encoded);
    memset(x, 0, sizeof *x);
}

static bool round_trip_equal(const bench_driver *d, void *worker, const bench_payload *p,
                             const uint8_t *dec, size_t dec_len)
{
    /* Bytes handed back must be the payload's; a typed driver (no bytes)
     * must have a matches hook, and the hook, when there is one, agrees. */
    if (dec && (dec_len != p->len || memcmp(dec, p->bytes, dec_len) != 0))
        return false;
    if (d->matches)
        return d->matches(worker, p) == 1;
    return dec != NULL;
}

/* Opens and verifies; on success x holds a worker and the encoded input. */
static bench_status ctx_open(cell_ctx *x, bench_cell *c)
{
    memset(x, 0, sizeof *x);
    x->cell = c;
    const bench_driver *d = c->driver;
    char why[256] = "";
    if (!(x->shared = d->open(c->spec, c->payload, why, sizeof why))) {
        fail(c, BENCH_NOT_BUILT, "%s", why[0] ? why : "cannot be built");
        return c->status;
    }
    if (!(x->worker = d->worker_new(x->shared))) {
        fail(c, BENCH_FAILED, "%s", "out of memory");
        ctx_close(x);
        return c->status;
    }
    const uint8_t *enc = c->payload->bytes, *dec;
    size_t enc_len = c->payload->len, dec_len;
    double t0 = bench_now();
    int enc_rc = c->decode_only ? 0 : d->encode(x->worker, c->payload, &enc, &enc_len);
    x->enc_seconds = bench_now() - t0;
    if (enc_rc != 0) {
        fail(c, BENCH_FAILED, "%s", "encode failed");
    } else if (!(x->encoded = malloc(enc_len ? enc_len : 1))) {
        fail(c, BENCH_FAILED, "%s", "out of memory");
    } else {
        memcpy(x->encoded, enc, enc_len);
        x->encoded_len = enc_len;
        c->encoded_len = enc_len;
        t0 = bench_now();
        int dec_rc = d->decode(x->worker, x->encoded, enc_len, &dec, &dec_len);
        x->dec_seconds = bench_now() - t0;
        if (dec_rc != 0)
            fail(c, BENCH_FAILED, "%s", "decode of its own output failed");
        else if (!round_trip_equal(d, x->worker, c->payload, dec, dec_len))
            fail(c, BENCH_FAILED, "%s", "round trip differs from the input");
        else
            c->status = BENCH_OK;
    }
    if (c->status != BENCH_OK)
        ctx_close(x);
    return c->status;
}

bench_status bench_check_cell(bench_cell *c)
{
    cell_ctx x;
    if (ctx_open(&x, c) == BENCH_OK)
        ctx_close(&x);
    return c->status;
}

/* ---------------------------------------------------------------------------
 * Timing
 * ------------------------------------------------------------------------ */

typedef struct op {
    const bench_driver *d;
    void *worker;
    const bench_payload *p;
    const uint8_t *in;
    size_t n;
    bool decode;
} op;

static inline int run_op(const op *o)
{
    const uint8_t *out;
    size_t len;
    return o->decode ? o->d->decode(o->worker, o->in, o->n, &out, &len)
                     : o->d->encode(o->worker, o->p, &out, &len);
}

/* Runs ops for `seconds`, checking the clock after batches that grow until
 * a batch takes about 1/16 of the iteration. Returns ops/s, or -1 when an
 * operation failed; *ops (if not NULL) gets the number of ops. Always runs
 * at least one op. */
static double iteration(const op *o, double seconds, long *ops)
{
    long total = 0, batch = 1;
    double start = bench_now(), elapsed;
    for (;;) {
        for (long i = 0; i < batch; i++)
            if (run_op(o) != 0)
                return -1;
        total += batch;
        elapsed = bench_now() - start;
        if (elapsed >= seconds)
            break;
        if (elapsed * 16 < seconds * (double)total / (double)batch)
            batch *= 2;
    }
    if (ops)
        *ops = total;
    return (double)total / elapsed;
}

/* Per-op allocations between two tallies taken around `ops` operations. */
static void per_op(bench_alloc_tally a, bench_alloc_tally b, long ops, bool valid,
                   double *calls, double *bytes)
{
    *calls = valid ? (double)(b.calls - a.calls) / (double)ops : -1;
    *bytes = valid ? (double)(b.bytes - a.bytes) / (double)ops : -1;
}

/* Warm-up and measured iterations; allocations are counted over the last
 * measured iteration, so they are those of the steady state being timed
 * (the counters are always on, a thread-local add per call). */
static int measure(const op *o, const bench_profile *prof, bench_series *out,
                   bench_allocs *allocs)
{
    for (int i = 0; i < prof->warmup_iters; i++)
        if (iteration(o, prof->iter_seconds, NULL) < 0)
            return -1;
    const bench_alloc_tally *ct = o->d->codec_tally ? o->d->codec_tally(o->worker) : NULL;
    for (int i = 0; i < prof->measure_iters; i++) {
        bench_alloc_tally h0 = bench_heap_tally(), c0 = ct ? *ct : (bench_alloc_tally){0, 0};
        long ops;
        double r = iteration(o, prof->iter_seconds, &ops);
        if (r < 0)
            return -1;
        bench_alloc_tally h1 = bench_heap_tally(), c1 = ct ? *ct : (bench_alloc_tally){0, 0};
        per_op(h0, h1, ops, bench_heap_counting(), &allocs->heap_calls, &allocs->heap_bytes);
        per_op(c0, c1, ops, ct != NULL, &allocs->codec_calls, &allocs->codec_bytes);
        bench_series_add(out, r);
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * Thread scaling: t threads, each making its own worker (so its buffers,
 * arena and contexts come from its own malloc arena, on its own cache
 * lines, as a real worker thread's would), are released together once
 * all are ready and run the same op for one warm-up and one measured
 * iteration; the result is their total ops/s, the median of the profile's
 * measured iterations (see scale()).
 * ------------------------------------------------------------------------ */

typedef enum { GATE_WAIT, GATE_GO, GATE_ABORT } gate_state;

typedef struct start_gate {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    gate_state state;
    int ready, failed;       /* threads that made their worker / could not */
} start_gate;

typedef struct scale_arg {
    op o;                    /* o.worker is made by the thread itself */
    void *shared;
    double seconds;
    start_gate *gate;
    double rate;             /* ops/s of the measured iteration, -1: failed */
    double cpu_ns;           /* the thread's CPU time per op in it */
} scale_arg;

static void gate_set(start_gate *g, gate_state s)
{
    pthread_mutex_lock(&g->lock);
    g->state = s;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *scale_thread(void *p)
{
    scale_arg *a = p;
    a->rate = -1;
    a->o.worker = a->o.d->worker_new(a->shared);
    pthread_mutex_lock(&a->gate->lock);
    if (a->o.worker)
        a->gate->ready++;
    else
        a->gate->failed++;
    pthread_cond_broadcast(&a->gate->changed);
    while (a->gate->state == GATE_WAIT)
        pthread_cond_wait(&a->gate->changed, &a->gate->lock);
    gate_state s = a->gate->state;
    pthread_mutex_unlock(&a->gate->lock);
    if (s == GATE_GO && a->o.worker && iteration(&a->o, a->seconds, NULL) >= 0) {
        long ops;
        double cpu = thread_cpu_seconds();
        a->rate = iteration(&a->o, a->seconds, &ops);
        a->cpu_ns = (thread_cpu_seconds() - cpu) * 1e9 / (double)ops;
    }
    if (a->o.worker)
        a->o.d->worker_free(a->o.worker);
    return NULL;
}

/* One run of `threads` threads: their total ops/s and mean CPU ns per op,
 * or -1 in both when one failed or could not start. */
static void scale_run(cell_ctx *x, bool decode, int threads, double seconds, double *rate,
                      double *cpu_ns)
{
    const bench_driver *d = x->cell->driver;
    scale_arg args[BENCH_MAX_THREADS];
    pthread_t tid[BENCH_MAX_THREADS];
    start_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, GATE_WAIT, 0, 0};
    int started = 0;
    for (; started < threads; started++) {
        args[started] = (scale_arg){{d, NULL, x->cell->payload, x->encoded, x->encoded_len, decode},
                                    x->shared, seconds, &gate, -1, -1};
        if (pthread_create(&tid[started], NULL, scale_thread, &args[started]) != 0)
            break;
    }
    /* Every started thread has made its worker (or failed to) before any runs. */
    pthread_mutex_lock(&gate.lock);
    while (gate.ready + gate.failed < started)
        pthread_cond_wait(&gate.changed, &gate.lock);
    bool go = started == threads && gate.failed == 0;
    pthread_mutex_unlock(&gate.lock);
    gate_set(&gate, go ? GATE_GO : GATE_ABORT);
    double total = go ? 0 : -1, cpu = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(tid[i], NULL);
        total = args[i].rate < 0 || total < 0 ? -1 : total + args[i].rate;
        cpu += args[i].cpu_ns / threads;
    }
    *rate = total;
    *cpu_ns = total < 0 ? -1 : cpu;
}

/* The samples of one direction at one thread count. */
typedef struct scale_samples {
    bench_series ops_s, speedup, cpu_ns;
} scale_samples;

static bench_scale scale_median(const scale_samples *s, bool ok)
{
    if (!ok)
        return (bench_scale){-1, -1, -1};
    return (bench_scale){bench_series_median(&s->ops_s), bench_series_median(&s->speedup),
                         bench_series_median(&s->cpu_ns)};
}

/* One direction's run of t threads in a round, after t = 1's (*one). */
static bool scale_sample(cell_ctx *x, bool decode, int t, double seconds, double *one,
                         scale_samples *out)
{
    double rate, cpu_ns;
    scale_run(x, decode, t, seconds, &rate, &cpu_ns);
    if (rate < 0)
        return false;
    if (t == 1)
        *one = rate;
    bench_series_add(&out->ops_s, rate);
    bench_series_add(&out->speedup, rate / *one);
    bench_series_add(&out->cpu_ns, cpu_ns);
    return true;
}

/* `rounds` runs of each thread count, the counts taking turns within a
 * round so that a slow spell of the machine weighs on all of them (one run
 * each gave a 1.6x and a 2.1x for the same encoder); the speed-up is taken
 * within each round, against that round's one thread. */
static void scale(cell_ctx *x, const bench_profile *prof)
{
    bench_cell *c = x->cell;
    int n = prof->threads < BENCH_MAX_THREADS ? prof->threads : BENCH_MAX_THREADS;
    int rounds = prof->measure_iters < 1 ? 1 : prof->measure_iters;
    static scale_samples enc[BENCH_MAX_THREADS], dec[BENCH_MAX_THREADS];
    memset(enc, 0, sizeof enc);
    memset(dec, 0, sizeof dec);
    bool enc_ok = !c->decode_only, dec_ok = true;
    for (int r = 0; r < rounds; r++) {
        double enc_one = 0, dec_one = 0;
        for (int t = 1; t <= n; t++) {
            enc_ok = enc_ok && scale_sample(x, false, t, prof->iter_seconds, &enc_one, &enc[t - 1]);
            dec_ok = dec_ok && scale_sample(x, true, t, prof->iter_seconds, &dec_one, &dec[t - 1]);
        }
    }
    for (int t = 0; t < n; t++) {
        c->scale_enc[t] = scale_median(&enc[t], enc_ok);
        c->scale_dec[t] = scale_median(&dec[t], dec_ok);
    }
    c->scale_threads = n;
}

/* The profile for an op whose first run took `op_seconds` (see op_budget). */
static bench_profile fit(const bench_profile *p, double op_seconds)
{
    bench_profile q = *p;
    if (p->op_budget <= 0 || op_seconds <= p->iter_seconds)
        return q;
    int iters = (int)(p->op_budget / op_seconds);
    q.warmup_iters = 0;
    q.measure_iters = iters < 1 ? 1 : iters < p->measure_iters ? iters : p->measure_iters;
    return q;
}

void bench_run_cell(bench_cell *c, const bench_profile *prof)
{
    cell_ctx x;
    if (ctx_open(&x, c) != BENCH_OK)
        return;
    op enc = {c->driver, x.worker, c->payload, NULL, 0, false};
    op dec = {c->driver, x.worker, c->payload, x.encoded, x.encoded_len, true};
    bench_profile pe = fit(prof, x.enc_seconds), pd = fit(prof, x.dec_seconds);
    if (c->decode_only)
        c->enc_allocs = (bench_allocs){-1, -1, -1, -1};
    if (!c->decode_only && measure(&enc, &pe, &c->enc, &c->enc_allocs) != 0)
        fail(c, BENCH_FAILED, "%s", "encode failed while timing");
    else if (measure(&dec, &pd, &c->dec, &c->dec_allocs) != 0)
        fail(c, BENCH_FAILED, "%s", "decode failed while timing");
    else if (prof->threads > 0)
        scale(&x, prof);
    ctx_close(&x);
}
