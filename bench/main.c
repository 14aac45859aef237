/* main.c — codec-bench: options, the run loop, progress, outputs.
 * See docs/benchmarks.md for what each suite measures. */
#include "child.h"
#include "drivers.h"
#include "harness.h"
#include "machine.h"
#include "models_types.h"
#include "report.h"
#include "suite_cli.h"
#include "suite_kafka.h"
#include "suite_redis.h"
#include "suites.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct options {
    const char *suites[16];
    int nsuites;
    char suite_text[512];     /* --suite values, split in place */
    size_t suite_used;
    const char *filter;
    const char *profile;
    int threads;
    int forks;
    const char *out;
    const char *dump;
    bool list;
    long child_cell;          /* -1 unless a --forks child */
    const char *cold_spec, *cold_payload;
    uint64_t cli_size;        /* --cli-size; 0: the profile's */
} options;

static void usage(FILE *f)
{
    fputs("usage: codec-bench [options]\n"
          "  --list             list the cells (and whether this build can run them)\n"
          "  --suite NAME       run only this suite (repeatable, or a,b,c); suites:\n"
          "                     compression encodings backends crypto kv json media cold\n"
          "                     redis (starts its own redis-server on 127.0.0.1)\n"
          "                     kafka (librdkafka's mock cluster, in process)\n"
          "                     cli (the codec command beside zstd, gzip, lz4, brotli, base64)\n"
          "  --filter PATTERN   only cells whose id suite/group/driver/payload matches\n"
          "                     the glob PATTERN or contains it\n"
          "  --profile P        quick (short iterations, for make bench) or full\n"
          "                     (3 x 1 s warm-up, 5 x 1 s measured; the default)\n"
          "  --threads N        also run every cell on 1..N threads\n"
          "  --forks N          run every cell in N fresh processes, samples merged\n"
          "  --cli-size SIZE    input size of the cli suite (default 1g; quick: 32m)\n"
          "  --out DIR          where results go (default bench/results)\n"
          "  --dump DIR         write every payload to DIR (typed ones in every backend) and exit\n"
          "  --version          print the version of codec-bench and of libcodec\n"
          "  --help             this text\n",
          f);
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* Splits an "a,b" suite list into o->suites. The text is copied, since
 * argv is handed on unchanged to --forks children. */
static int add_suites(options *o, const char *value)
{
    size_t len = strlen(value) + 1;
    if (len > sizeof o->suite_text - o->suite_used) {
        fputs("codec-bench: --suite lists too long\n", stderr);
        return -1;
    }
    char *list = memcpy(o->suite_text + o->suite_used, value, len);
    o->suite_used += len;
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
        if (!bench_suite_known(s) || o->nsuites == 16) {
            fprintf(stderr, "codec-bench: unknown suite '%s'\n", s);
            return -1;
        }
        o->suites[o->nsuites++] = s;
    }
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    *o = (options){.profile = "full", .out = "bench/results", .child_cell = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int n;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--version") == 0) {
            printf("codec-bench %s\nlibcodec %s\n", CODEC_VERSION_STRING, codec_version_string());
            exit(0);
        } else if (strcmp(a, "--list") == 0) {
            o->list = true;
        } else if (strcmp(a, "--suite") == 0 && v) {
            if (add_suites(o, v) != 0)
                return -1;
            i++;
        } else if (strcmp(a, "--filter") == 0 && v) {
            o->filter = v, i++;
        } else if (strcmp(a, "--profile") == 0 && v &&
                   (strcmp(v, "quick") == 0 || strcmp(v, "full") == 0)) {
            o->profile = v, i++;
        } else if (strcmp(a, "--threads") == 0 && parse_int(v, 1, BENCH_MAX_THREADS, &n) == 0) {
            o->threads = n, i++;
        } else if (strcmp(a, "--forks") == 0 && parse_int(v, 0, 100, &n) == 0) {
            o->forks = n, i++;
        } else if (strcmp(a, "--cli-size") == 0 && bench_cli_parse_size(v, &o->cli_size) == 0) {
            i++;
        } else if (strcmp(a, "--out") == 0 && v) {
            o->out = v, i++;
        } else if (strcmp(a, "--dump") == 0 && v) {
            o->dump = v, i++;
        } else if (strcmp(a, "--child-cell") == 0 && v) {
            o->child_cell = strtol(v, NULL, 10), i++;
        } else if (strcmp(a, "--cold-child") == 0 && v && i + 2 < argc) {
            o->cold_spec = v, o->cold_payload = argv[i + 2], i += 2;
        } else {
            fprintf(stderr, "codec-bench: bad option '%s'%s\n", a,
                    v ? "" : " (missing value?)");
            usage(stderr);
            return -1;
        }
    }
    if (o->nsuites == 0)
        for (size_t i = 0; i < bench_suite_count; i++)
            o->suites[o->nsuites++] = bench_suite_names[i];
    return 0;
}

static int build_plan(const options *o, bench_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    for (int i = 0; i < o->nsuites; i++)
        if (bench_plan_add_suite(plan, o->suites[i], o->filter) != 0) {
            fprintf(stderr, "codec-bench: could not set up suite %s\n", o->suites[i]);
            return -1;
        }
    return 0;
}

static int list_cells(bench_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++) {
        bench_cell *c = &plan->cells[i];
        char id[320], why[256] = "";
        bench_cell_id(c, id, sizeof id);
        if (c->driver->run_external) {
            printf("%s\texternal (%s)\n", id, c->driver->name);
            continue;
        }
        void *s = c->driver->open(c->spec, c->payload, why, sizeof why);
        if (s)
            c->driver->close(s);
        printf("%s\t%s%s\n", id, s ? "ready" : "not built: ", s ? "" : why);
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * Progress: one line on a terminal, rewritten in place.
 * ------------------------------------------------------------------------ */

typedef struct progress {
    bool on;
    size_t total, done;
    double start;
} progress;

static void progress_show(progress *p, const char *what)
{
    if (!p->on)
        return;
    double el = bench_now() - p->start;
    char eta[32] = "--:--";
    if (p->done > 0) {
        int left = (int)(el / (double)p->done * (double)(p->total - p->done));
        snprintf(eta, sizeof eta, "%d:%02d", left / 60, left % 60);
    }
    fprintf(stderr, "\r\033[K[%zu/%zu] ETA %s  %.70s", p->done, p->total, eta, what);
    fflush(stderr);
}

/* ---------------------------------------------------------------------------
 * The run
 * ------------------------------------------------------------------------ */

/* Runs the external drivers' cells of `suite` in one go each. */
static void run_external(bench_plan *plan, const char *suite, const bench_profile *prof,
                         progress *pg)
{
    bench_cell **batch = calloc(plan->n, sizeof *batch);
    if (!batch)
        return;
    for (size_t d = 0; d < bench_peer_count(); d++) {
        const bench_driver *drv = bench_peer_at(d);
        if (!drv->run_external)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < plan->n; i++)
            if (plan->cells[i].driver == drv && strcmp(plan->cells[i].suite, suite) == 0)
                batch[n++] = &plan->cells[i];
        if (n == 0)
            continue;
        char what[96];
        snprintf(what, sizeof what, "%s/%s reference (%zu cells)", suite, drv->name, n);
        progress_show(pg, what);
        double t0 = bench_now();
        drv->run_external(batch, n, prof);
        for (size_t i = 0; i < n; i++)
            batch[i]->wall_seconds = (bench_now() - t0) / (double)n;
        pg->done += n;
    }
    free(batch);
}

static void run_plan(bench_plan *plan, const options *o, const bench_profile *prof,
                     int argc, char **argv)
{
    progress pg = {isatty(2) != 0, plan->n, 0, bench_now()};
    for (size_t s = 0; s < bench_suite_count; s++) {
        const char *suite = bench_suite_names[s];
        run_external(plan, suite, prof, &pg);
        for (size_t i = 0; i < plan->n; i++) {
            bench_cell *c = &plan->cells[i];
            if (strcmp(c->suite, suite) != 0 || c->driver->run_external)
                continue;
            char id[320];
            bench_cell_id(c, id, sizeof id);
            progress_show(&pg, id);
            double t0 = bench_now();
            if (c->cold)
                bench_run_cold(c, prof);
            else if (o->forks > 0)
                bench_run_forked(c, i, o->forks, argv, argc);
            else
                bench_run_cell(c, prof);
            c->wall_seconds = bench_now() - t0;
            pg.done++;
        }
    }
    if (pg.on)
        fputs("\r\033[K", stderr);
}

static int run_child_cell(bench_plan *plan, long k, const bench_profile *prof)
{
    if (k < 0 || (size_t)k >= plan->n)
        return 2;
    bench_run_cell(&plan->cells[k], prof);
    bench_cell_serialize(stdout, &plan->cells[k]);
    return 0;
}

/* The file extension of a backend's dump files: its registry name, but
 * protobuf's usual .pb. */
static const char *backend_extension(const char *backend)
{
    return strcmp(backend, "protobuf") == 0 ? "pb" : backend;
}

/* Writes typed payload p, encoded by every backend of this build but JSON
 * (p->file is its JSON), as dir/<base>.<extension>. A backend that cannot
 * hold the value (protobuf has no schemaless form) is named on stderr.
 * @return 0, or -1 when a file cannot be written (errno set). */
static int dump_backends(const char *dir, const bench_payload *p)
{
    const codec_type *type = bench_model_type(p);
    size_t base = strcspn(p->file, ".");
    codec_buf out;
    codec_buf_init(&out, NULL);
    int rc = 0;
    for (size_t i = 0; type && rc == 0 && i < codec_registry_count(); i++) {
        const codec_stage_info *info = codec_registry_info(i);
        if (info->kind != CODEC_KIND_BACKEND || strcmp(info->name, "json") == 0)
            continue;
        codec_error err;
        codec *c = codec_parse(info->name, type, &err);
        out.len = 0;
        if (!c || codec_encode(c, p->value, &out, &err) != CODEC_OK) {
            char line[256];
            fprintf(stderr, "codec-bench: no %s form of %s: %s\n", info->name, p->name,
                    codec_error_format(&err, line, sizeof line));
        } else {
            char file[256];
            snprintf(file, sizeof file, "%.*s.%s", (int)base, p->file,
                     backend_extension(info->name));
            rc = bench_dump_file(dir, file, out.data, out.len);
            if (rc == 0)
                printf("%s/%s\t%zu\n", dir, file, out.len);
        }
        codec_free(c);
    }
    codec_buf_free(&out);
    return rc;
}

/* Every payload as generated (raw bytes, or the value's JSON), then every
 * typed payload in every other backend. */
static int dump(const char *dir)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        perror(dir);
        return 1;
    }
    if (bench_payloads_dump(dir) != 0) {
        perror(dir);
        return 1;
    }
    for (size_t i = 0; i < bench_payload_count(); i++)
        printf("%s/%s\t%zu\n", dir, bench_payload_at(i)->file, bench_payload_at(i)->len);
    for (size_t i = 0; i < bench_payload_count(); i++)
        if (bench_payload_at(i)->value && dump_backends(dir, bench_payload_at(i)) != 0) {
            perror(dir);
            return 1;
        }
    return 0;
}

static void summary(const bench_plan *plan)
{
    size_t count[4] = {0};
    for (size_t i = 0; i < plan->n; i++)
        count[plan->cells[i].status]++;
    fprintf(stderr, "codec-bench: %zu cells: %zu measured, %zu failed, %zu not built\n",
            plan->n, count[BENCH_OK], count[BENCH_FAILED], count[BENCH_NOT_BUILT]);
    for (size_t i = 0; i < plan->n; i++)
        if (plan->cells[i].status == BENCH_FAILED) {
            char id[320];
            bench_cell_id(&plan->cells[i], id, sizeof id);
            fprintf(stderr, "codec-bench: FAILED %s: %s\n", id, plan->cells[i].reason);
        }
}

int main(int argc, char **argv)
{
    int64_t t_main = bench_now_ns();
    options o;
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    if (o.cold_spec)
        return bench_cold_child(t_main, o.cold_spec, o.cold_payload);
    if (bench_payloads_init() != 0) {
        fputs("codec-bench: out of memory generating the payloads\n", stderr);
        return 1;
    }
    if (o.dump)
        return dump(o.dump);
    bench_profile prof;
    bench_profile_get(o.profile, &prof);
    prof.threads = o.threads;
    bench_plan plan;
    int rc = build_plan(&o, &plan);
    if (rc == 0 && o.list) {
        rc = list_cells(&plan);
        for (int i = 0; i < o.nsuites; i++)
            if (strcmp(o.suites[i], "redis") == 0)
                bench_redis_list(o.filter);
    }
    else if (rc == 0 && o.child_cell >= 0)
        rc = run_child_cell(&plan, o.child_cell, &prof);
    else if (rc == 0) {
        run_plan(&plan, &o, &prof, argc, argv);
        bench_machine m;
        bench_machine_get(&m);
        bench_run_info info = {&m, &prof, o.forks, o.suites, o.nsuites, o.filter};
        summary(&plan);
        if (bench_write_reports(o.out, &plan, &info) != 0) {
            perror(o.out);
            rc = 1;
        }
        for (int i = 0; i < o.nsuites; i++)
            if (strcmp(o.suites[i], "redis") == 0)
                rc |= bench_redis_suite(o.out, &prof, &m, o.filter, plan.keyring);
            else if (strcmp(o.suites[i], "kafka") == 0)
                rc |= bench_kafka_suite(o.out, &prof, &m, o.filter);
            else if (strcmp(o.suites[i], "cli") == 0)
                rc |= bench_cli_suite(o.out, &prof, &m, o.filter, o.cli_size);
    } else {
        rc = 2;
    }
    bench_plan_free(&plan);
    bench_payloads_free();
    return rc;
}
