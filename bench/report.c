/* report.c — JSON, CSV, Markdown and SVG outputs. */
#include "report.h"

#include "payloads/json_out.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static double mbps(const bench_cell *c, const bench_series *s)
{
    return bench_series_median(s) * (double)c->payload->len / 1e6;
}

static int write_file(const char *path, const codec_buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(b->data, 1, b->len, f);
    int rc = fclose(f);
    if (w != b->len || rc != 0) {
        errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * JSON
 * ------------------------------------------------------------------------ */

static void jo_num_or_null(json_out *j, double v, bool present)
{
    if (present)
        jo_double(j, v);
    else
        jo_raw(j, "null", 4);
}

static void json_series(json_out *j, const bench_cell *c, const char *key,
                        const bench_series *s)
{
    jo_key(j, key);
    if (c->status != BENCH_OK || s->n == 0) {
        jo_raw(j, "null", 4);
        return;
    }
    double med = bench_series_median(s);
    jo_begin_object(j);
    jo_key(j, "ops_s"), jo_double(j, med);
    jo_key(j, "ops_s_min"), jo_double(j, bench_series_min(s));
    jo_key(j, "ops_s_max"), jo_double(j, bench_series_max(s));
    jo_key(j, "ns_op"), jo_double(j, 1e9 / med);
    jo_key(j, "mb_s"), jo_double(j, mbps(c, s));
    jo_key(j, "samples"), jo_begin_array(j);
    for (int i = 0; i < s->n; i++)
        jo_double(j, s->v[i]);
    jo_end_array(j);
    jo_end_object(j);
}

static void json_allocs(json_out *j, const char *key, const bench_allocs *a)
{
    jo_key(j, key), jo_begin_object(j);
    jo_key(j, "heap_calls"), jo_num_or_null(j, a->heap_calls, a->heap_calls >= 0);
    jo_key(j, "heap_bytes"), jo_num_or_null(j, a->heap_bytes, a->heap_bytes >= 0);
    jo_key(j, "codec_calls"), jo_num_or_null(j, a->codec_calls, a->codec_calls >= 0);
    jo_key(j, "codec_bytes"), jo_num_or_null(j, a->codec_bytes, a->codec_bytes >= 0);
    jo_end_object(j);
}

/* "<dir>_ops_s", "<dir>_speedup" and "<dir>_cpu_ns_op" of one thread count. */
static void json_scale(json_out *j, const char *dir, const bench_scale *s)
{
    static const char *const names[] = {"ops_s", "speedup", "cpu_ns_op"};
    const double v[] = {s->ops_s, s->speedup, s->cpu_ns};
    for (int i = 0; i < 3; i++) {
        char key[32];
        snprintf(key, sizeof key, "%s_%s", dir, names[i]);
        jo_key(j, key), jo_num_or_null(j, v[i], s->ops_s >= 0);
    }
}

static void json_ns(json_out *j, const char *key, const bench_series *s)
{
    jo_key(j, key);
    if (s->n == 0) {
        jo_raw(j, "null", 4);
        return;
    }
    jo_begin_object(j);
    jo_key(j, "median"), jo_double(j, bench_series_median(s));
    jo_key(j, "min"), jo_double(j, bench_series_min(s));
    jo_key(j, "max"), jo_double(j, bench_series_max(s));
    jo_end_object(j);
}

static void json_cell(json_out *j, const bench_cell *c)
{
    char id[320];
    bench_cell_id(c, id, sizeof id);
    bool ok = c->status == BENCH_OK;
    jo_begin_object(j);
    jo_key(j, "id"), jo_string(j, id);
    jo_key(j, "suite"), jo_string(j, c->suite);
    jo_key(j, "group"), jo_string(j, c->group);
    jo_key(j, "driver"), jo_string(j, c->driver->name);
    jo_key(j, "spec"), jo_string(j, c->spec);
    jo_key(j, "payload"), jo_string(j, c->payload->name);
    jo_key(j, "payload_bytes"), jo_int(j, (int64_t)c->payload->len);
    jo_key(j, "status"), jo_string(j, bench_status_name(c->status));
    jo_key(j, "reason"), jo_string(j, c->reason);
    jo_key(j, "wall_seconds"), jo_double(j, c->wall_seconds);
    bool sized = ok && !c->cold;
    jo_key(j, "encoded_bytes");
    if (sized)
        jo_int(j, (int64_t)c->encoded_len);
    else
        jo_raw(j, "null", 4);
    jo_key(j, "encoded_percent");
    jo_num_or_null(j, 100.0 * (double)c->encoded_len / (double)c->payload->len, sized);
    json_series(j, c, "encode", &c->enc);
    json_series(j, c, "decode", &c->dec);
    jo_key(j, "allocs_per_op"), jo_begin_object(j);
    if (ok && !c->cold) {
        json_allocs(j, "encode", &c->enc_allocs);
        json_allocs(j, "decode", &c->dec_allocs);
    }
    jo_end_object(j);
    jo_key(j, "threads"), jo_begin_array(j);
    for (int t = 0; ok && t < c->scale_threads; t++) {
        jo_begin_object(j);
        jo_key(j, "threads"), jo_int(j, t + 1);
        json_scale(j, "encode", &c->scale_enc[t]);
        json_scale(j, "decode", &c->scale_dec[t]);
        jo_end_object(j);
    }
    jo_end_array(j);
    jo_key(j, "cold");
    if (ok && c->cold) {
        jo_begin_object(j);
        json_ns(j, "start_ns", &c->cold_ns.start);
        json_ns(j, "init_ns", &c->cold_ns.init);
        json_ns(j, "first_ns", &c->cold_ns.first);
        json_ns(j, "rest_ns", &c->cold_ns.rest);
        jo_end_object(j);
    } else {
        jo_raw(j, "null", 4);
    }
    jo_end_object(j);
}

int bench_write_json(const char *path, const bench_plan *plan, const bench_run_info *info)
{
    const bench_machine *m = info->machine;
    const bench_profile *p = info->profile;
    codec_buf b;
    codec_buf_init(&b, NULL);
    json_out j;
    jo_init(&j, &b);
    jo_begin_object(&j);
    jo_key(&j, "machine"), jo_begin_object(&j);
    jo_key(&j, "cpu"), jo_string(&j, m->cpu);
    jo_key(&j, "cores"), jo_int(&j, m->cores);
    jo_key(&j, "cpu_features"), jo_string(&j, m->cpu_features);
    jo_key(&j, "compiler"), jo_string(&j, m->compiler);
    jo_key(&j, "flags"), jo_string(&j, m->flags);
    jo_key(&j, "host"), jo_string(&j, m->host);
    jo_key(&j, "date"), jo_string(&j, m->date);
    jo_key(&j, "seed"), jo_int(&j, BENCH_SEED);
    jo_key(&j, "libraries"), jo_string(&j, m->libraries);
    jo_key(&j, "heap_counting"), jo_bool(&j, bench_heap_counting());
    jo_end_object(&j);
    jo_key(&j, "profile"), jo_begin_object(&j);
    jo_key(&j, "name"), jo_string(&j, p->name);
    jo_key(&j, "warmup_iterations"), jo_int(&j, p->warmup_iters);
    jo_key(&j, "measured_iterations"), jo_int(&j, p->measure_iters);
    jo_key(&j, "iteration_seconds"), jo_double(&j, p->iter_seconds);
    jo_key(&j, "threads"), jo_int(&j, p->threads);
    jo_key(&j, "forks"), jo_int(&j, info->forks);
    jo_key(&j, "cold_samples"), jo_int(&j, p->cold_samples);
    jo_key(&j, "op_budget_seconds"), jo_double(&j, p->op_budget);
    jo_end_object(&j);
    jo_key(&j, "cells"), jo_begin_array(&j);
    for (size_t i = 0; i < plan->n; i++)
        json_cell(&j, &plan->cells[i]);
    jo_end_array(&j);
    jo_end_object(&j);
    int rc = j.failed || codec_buf_append(&b, "\n", 1) != 0 ? -1 : write_file(path, &b);
    codec_buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------------------------
 * CSV (RFC 4180 quoting)
 * ------------------------------------------------------------------------ */

static void csv_text(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double v, bool present)
{
    if (present)
        fprintf(f, ",%.10g", v);
    else
        fputc(',', f);
}

static void csv_series(FILE *f, const bench_cell *c, const bench_series *s)
{
    bool ok = c->status == BENCH_OK && s->n > 0;
    double med = bench_series_median(s);
    csv_num(f, med, ok);
    csv_num(f, bench_series_min(s), ok);
    csv_num(f, bench_series_max(s), ok);
    csv_num(f, med > 0 ? 1e9 / med : 0, ok);
    csv_num(f, mbps(c, s), ok);
}

static void csv_allocs(FILE *f, const bench_cell *c, const bench_allocs *a)
{
    bool ok = c->status == BENCH_OK && !c->cold;
    csv_num(f, a->heap_calls, ok && a->heap_calls >= 0);
    csv_num(f, a->heap_bytes, ok && a->heap_bytes >= 0);
    csv_num(f, a->codec_calls, ok && a->codec_calls >= 0);
    csv_num(f, a->codec_bytes, ok && a->codec_bytes >= 0);
}

static void csv_ns(FILE *f, const bench_cell *c, const bench_series *s)
{
    csv_num(f, bench_series_median(s), c->status == BENCH_OK && c->cold && s->n > 0);
}

int bench_write_csv(const char *path, const bench_plan *plan)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("id,suite,group,driver,spec,payload,payload_bytes,status,reason,encoded_bytes,"
          "enc_ops_s,enc_ops_s_min,enc_ops_s_max,enc_ns_op,enc_mb_s,"
          "dec_ops_s,dec_ops_s_min,dec_ops_s_max,dec_ns_op,dec_mb_s,"
          "enc_heap_allocs,enc_heap_bytes,enc_codec_allocs,enc_codec_bytes,"
          "dec_heap_allocs,dec_heap_bytes,dec_codec_allocs,dec_codec_bytes,"
          "cold_start_ns,cold_init_ns,cold_first_ns,cold_rest_ns\n",
          f);
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *c = &plan->cells[i];
        char id[320];
        bench_cell_id(c, id, sizeof id);
        const char *text[] = {id, c->suite, c->group, c->driver->name, c->spec,
                              c->payload->name};
        for (size_t k = 0; k < 6; k++) {
            if (k)
                fputc(',', f);
            csv_text(f, text[k]);
        }
        fprintf(f, ",%zu,", c->payload->len);
        csv_text(f, bench_status_name(c->status));
        fputc(',', f);
        csv_text(f, c->reason);
        if (c->status == BENCH_OK && !c->cold)
            fprintf(f, ",%zu", c->encoded_len);
        else
            fputc(',', f);
        csv_series(f, c, &c->enc);
        csv_series(f, c, &c->dec);
        csv_allocs(f, c, &c->enc_allocs);
        csv_allocs(f, c, &c->dec_allocs);
        csv_ns(f, c, &c->cold_ns.start);
        csv_ns(f, c, &c->cold_ns.init);
        csv_ns(f, c, &c->cold_ns.first);
        csv_ns(f, c, &c->cold_ns.rest);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------------------
 * Markdown
 * ------------------------------------------------------------------------ */

/* 1234567.8 -> "1,234,568" */
static const char *grouped(double v, char *dst, size_t cap)
{
    char t[48];
    snprintf(t, sizeof t, "%.0f", v);
    size_t n = strlen(t), o = 0;
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0 && t[i - 1] != '-')
            dst[o++] = ',';
        dst[o++] = t[i];
    }
    dst[o] = 0;
    return dst;
}

/* Three significant digits for speeds: 0.521, 12.3, 1,234. */
static const char *speed(double v, char *dst, size_t cap)
{
    if (v >= 1000)
        return grouped(v, dst, cap);
    snprintf(dst, cap, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3g", v);
    return dst;
}

static void md_speed(FILE *f, const bench_cell *c, const bench_series *s, bool as_mbps)
{
    if (s->n == 0) {   /* a decode-only cell's encode */
        fputs(" — |", f);
        return;
    }
    double scale = as_mbps ? (double)c->payload->len / 1e6 : 1;
    char a[32], b[32], d[32];
    fprintf(f, " %s (%s–%s) |", speed(bench_series_median(s) * scale, a, sizeof a),
            speed(bench_series_min(s) * scale, b, sizeof b),
            speed(bench_series_max(s) * scale, d, sizeof d));
}

static void md_alloc_count(FILE *f, double calls, double bytes)
{
    if (calls < 0)
        fputs("—", f);
    else
        fprintf(f, "%.3g (%.0f B)", calls, bytes);
}

/* "calls (bytes)" per op, encode / decode; codec's own allocator beside.
 * A decode-only cell has no encode counts ("—"). */
static void md_allocs(FILE *f, const bench_allocs *e, const bench_allocs *d)
{
    if (d->heap_calls < 0 && d->codec_calls < 0) {
        fputs(" n/a |", f);
        return;
    }
    if (d->heap_calls >= 0) {
        fputc(' ', f);
        md_alloc_count(f, e->heap_calls, e->heap_bytes);
        fputs(" / ", f);
        md_alloc_count(f, d->heap_calls, d->heap_bytes);
    }
    if (d->codec_calls >= 0) {
        fputs(" codec_allocator ", f);
        md_alloc_count(f, e->codec_calls, e->codec_bytes);
        fputs(" / ", f);
        md_alloc_count(f, d->codec_calls, d->codec_bytes);
    }
    fputs(" |", f);
}

/* The driver and its spec; the temporary key ring's path reads "FILE". */
static const char *impl_name(const bench_plan *plan, const bench_cell *c, char *dst, size_t cap)
{
    char spec[sizeof c->spec];
    const char *ring = plan->keyring[0] ? strstr(c->spec, plan->keyring) : NULL;
    if (ring)
        snprintf(spec, sizeof spec, "%.*sFILE%s", (int)(ring - c->spec), c->spec,
                 ring + strlen(plan->keyring));
    else
        snprintf(spec, sizeof spec, "%s", c->spec);
    if (strcmp(c->driver->name, "codec") == 0)
        snprintf(dst, cap, "**codec** `%s`", spec);
    else
        snprintf(dst, cap, "%s `%s`", bench_cell_name(c), spec);
    return dst;
}

/* The codec cell of c's group and payload, if it ran. */
static const bench_cell *codec_of(const bench_plan *plan, const bench_cell *c)
{
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *o = &plan->cells[i];
        if (o->status == BENCH_OK && strcmp(o->driver->name, "codec") == 0 &&
            strcmp(o->suite, c->suite) == 0 && strcmp(o->group, c->group) == 0 &&
            o->payload == c->payload)
            return o;
    }
    return NULL;
}

static void md_row(FILE *f, const bench_plan *plan, const bench_cell *c)
{
    char t[640], sz[32];
    fprintf(f, "| %s | %s |", c->group, impl_name(plan, c, t, sizeof t));
    if (c->decode_only)
        fputs(" — | — |", f);
    else
        fprintf(f, " %s | %.1f%% |", grouped((double)c->encoded_len, sz, sizeof sz),
                100.0 * (double)c->encoded_len / (double)c->payload->len);
    md_speed(f, c, &c->enc, true);
    md_speed(f, c, &c->dec, true);
    md_speed(f, c, &c->enc, false);
    md_speed(f, c, &c->dec, false);
    md_allocs(f, &c->enc_allocs, &c->dec_allocs);
    const bench_cell *mine = strcmp(c->driver->name, "codec") ? codec_of(plan, c) : NULL;
    if (mine && c->decode_only)
        fprintf(f, " — / %.2f× |\n",
                bench_series_median(&mine->dec) / bench_series_median(&c->dec));
    else if (mine)
        fprintf(f, " %.2f× / %.2f× |\n",
                bench_series_median(&mine->enc) / bench_series_median(&c->enc),
                bench_series_median(&mine->dec) / bench_series_median(&c->dec));
    else
        fputs(" |\n", f);
}

static bool seen_before(const bench_plan *plan, size_t upto, const char *suite,
                        const bench_payload *p)
{
    for (size_t i = 0; i < upto; i++)
        if (plan->cells[i].payload == p && strcmp(plan->cells[i].suite, suite) == 0)
            return true;
    return false;
}

/* One table per payload of the suite, rows in suite order (codec first in
 * each group, its peers under it). */
static void md_speed_tables(FILE *f, const bench_plan *plan, const char *suite)
{
    for (size_t i = 0; i < plan->n; i++) {
        const bench_payload *p = plan->cells[i].payload;
        if (strcmp(plan->cells[i].suite, suite) != 0 || seen_before(plan, i, suite, p))
            continue;
        bool any = false;
        for (size_t k = i; k < plan->n; k++) {
            const bench_cell *c = &plan->cells[k];
            if (c->payload != p || strcmp(c->suite, suite) != 0 || c->status != BENCH_OK)
                continue;
            if (!any) {
                char n[32];
                fprintf(f, "\n### %s — %s bytes (%s)\n\n", p->name,
                        grouped((double)p->len, n, sizeof n), p->about);
                fputs("| cell | implementation | encoded bytes | % of input | encode MB/s | "
                      "decode MB/s | encode ops/s | decode ops/s | heap allocs/op (bytes) enc / dec | "
                      "codec/peer enc / dec |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
                      f);
                any = true;
            }
            md_row(f, plan, c);
        }
    }
}

static void md_cold_table(FILE *f, const bench_plan *plan)
{
    bool any = false;
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *c = &plan->cells[i];
        if (!c->cold || c->status != BENCH_OK)
            continue;
        if (!any) {
            fputs("\n| spec | payload | process start ms | init µs | first op µs | "
                  "steady op µs | samples |\n|---|---|---:|---:|---:|---:|---:|\n",
                  f);
            any = true;
        }
        fprintf(f, "| `%s` | %s | %.2f | %.1f | %.1f | %.2f | %d |\n", c->spec,
                c->payload->name, bench_series_median(&c->cold_ns.start) / 1e6,
                bench_series_median(&c->cold_ns.init) / 1e3,
                bench_series_median(&c->cold_ns.first) / 1e3,
                bench_series_median(&c->cold_ns.rest) / 1e3, c->cold_ns.start.n);
    }
}

/* One direction of a thread-scaling row: ops/s | speed-up | CPU ns/op |. */
static void md_scale(FILE *f, const bench_scale *s)
{
    char a[32];
    if (s->ops_s < 0)
        fputs(" – | – | – |", f);
    else
        fprintf(f, " %s | %.2f× | %.0f |", speed(s->ops_s, a, sizeof a), s->speedup, s->cpu_ns);
}

static void md_threads(FILE *f, const bench_plan *plan, const char *suite)
{
    bool any = false;
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *c = &plan->cells[i];
        if (strcmp(c->suite, suite) != 0 || c->status != BENCH_OK || c->scale_threads == 0)
            continue;
        if (!any) {
            fputs("\n#### Thread scaling (each thread its own buffers)\n\n"
                  "Ops/s of all threads together; speed-up against one thread in the same "
                  "round; CPU = each thread's CPU time per op. Medians over rounds. A CPU "
                  "time that stays flat while the speed-up falls short is time the "
                  "threads were not running, not work they slowed.\n\n"
                  "| cell | threads | encode ops/s | ×1 | CPU ns/op | decode ops/s | ×1 | "
                  "CPU ns/op |\n"
                  "|---|---:|---:|---:|---:|---:|---:|---:|\n",
                  f);
            any = true;
        }
        char id[320];
        bench_cell_id(c, id, sizeof id);
        for (int t = 0; t < c->scale_threads; t++) {
            fprintf(f, "| %s | %d |", id, t + 1);
            md_scale(f, &c->scale_enc[t]);
            md_scale(f, &c->scale_dec[t]);
            fputc('\n', f);
        }
    }
}

static void md_unmeasured(FILE *f, const bench_plan *plan, const char *suite,
                          bench_status s, const char *title)
{
    bool any = false;
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *c = &plan->cells[i];
        if (strcmp(c->suite, suite) != 0 || c->status != s)
            continue;
        if (!any)
            fprintf(f, "\n%s:\n\n", title);
        any = true;
        char id[320];
        bench_cell_id(c, id, sizeof id);
        fprintf(f, "- `%s`: %s\n", id, c->reason);
    }
}

static int write_svg(const char *path, const bench_plan *plan, const char *suite);

static bool suite_in_plan(const bench_plan *plan, const char *suite, bool ok_only)
{
    for (size_t i = 0; i < plan->n; i++)
        if (strcmp(plan->cells[i].suite, suite) == 0 &&
            (!ok_only || plan->cells[i].status == BENCH_OK))
            return true;
    return false;
}

int bench_write_markdown(const char *dir, const bench_plan *plan, const bench_run_info *info)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/report.md", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    const bench_machine *m = info->machine;
    const bench_profile *p = info->profile;
    fprintf(f, "# codec-bench report\n\n"
               "**Machine:** %s, %d cores (%s); %s, `%s`; %s; %s; seed %d.\n\n",
            m->cpu, m->cores, m->cpu_features, m->compiler, m->flags, m->libraries, m->date,
            BENCH_SEED);
    fprintf(f, "**Method:** every cell's round trip is verified before timing; profile `%s`: "
               "%d warm-up + %d measured iterations of %.2f s%s; figures are the median "
               "(min–max) of the measured iterations; MB/s on the uncompressed size; "
               "allocations per steady-state operation counted %s.\n",
            p->name, p->warmup_iters, p->measure_iters, p->iter_seconds,
            info->forks ? ", each cell in fresh processes" : ", one process",
            bench_heap_counting() ? "by interposing malloc (all libraries), plus codec's "
                                    "own codec_allocator calls"
                                  : "only through codec's codec_allocator (sanitizer build)");
    if (p->op_budget > 0)
        fprintf(f, "A cell whose single operation outlasts an iteration gets at most %.1f s "
                   "of measured operations (its round-trip check is its warm-up); the JSON "
                   "has every sample.\n",
                p->op_budget);
    if (info->forks)
        fprintf(f, "Forks per cell: %d.\n", info->forks);
    for (int s = 0; s < info->nsuites; s++)
        if (strcmp(info->suites[s], "redis") == 0)
            /* The redis suite runs against a live server after these reports
             * and writes its own tables (suite_redis.c). */
            fprintf(f, "\nSuite `redis`: its tables are in `redis.md`, written next to the "
                       "results JSON.\n");
        else if (!suite_in_plan(plan, info->suites[s], false))
            fprintf(f, "\nSuite `%s`: no cells %s.\n", info->suites[s],
                    info->filter ? "match the filter"
                                 : "in this build (none of its backend formats is registered)");
    for (size_t s = 0; s < bench_suite_count; s++) {
        const char *suite = bench_suite_names[s];
        if (!suite_in_plan(plan, suite, false))
            continue;
        fprintf(f, "\n## %s\n", suite);
        if (strcmp(suite, "cold") == 0) {
            md_cold_table(f, plan);
        } else if (suite_in_plan(plan, suite, true)) {
            fprintf(f, "\n![%s](%s.svg)\n", suite, suite);
            md_speed_tables(f, plan, suite);
            md_threads(f, plan, suite);
            char svg[4096];
            snprintf(svg, sizeof svg, "%s/%s.svg", dir, suite);
            if (write_svg(svg, plan, suite) != 0) {
                fclose(f);
                return -1;
            }
        }
        md_unmeasured(f, plan, suite, BENCH_FAILED, "Failed (never timed)");
        md_unmeasured(f, plan, suite, BENCH_NOT_BUILT, "Not built in this build");
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------------------
 * SVG: one horizontal bar chart per suite, encode and decode MB/s on a
 * log scale (speeds span four orders of magnitude).
 * ------------------------------------------------------------------------ */

static void svg_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

static int write_svg(const char *path, const bench_plan *plan, const char *suite)
{
    enum { LABEL = 330, BAR = 560, ROW = 26, TOP = 50 };
    double lo = INFINITY, hi = 0;
    int rows = 0;
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *c = &plan->cells[i];
        if (strcmp(c->suite, suite) != 0 || c->status != BENCH_OK)
            continue;
        double d = mbps(c, &c->dec), e = c->enc.n ? mbps(c, &c->enc) : d;
        lo = fmin(lo, fmin(e, d));
        hi = fmax(hi, fmax(e, d));
        rows++;
    }
    if (rows == 0)
        return 0;
    double l0 = floor(log10(fmax(lo, 1e-3))), l1 = ceil(log10(fmax(hi, 1e-3)));
    if (l1 <= l0)
        l1 = l0 + 1;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int height = TOP + rows * ROW + 30;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"10\" y=\"18\" font-size=\"14\">%s: MB/s of the uncompressed size "
            "(log scale)</text>\n"
            "<rect x=\"%d\" y=\"26\" width=\"10\" height=\"10\" fill=\"#3b6fb6\"/>"
            "<text x=\"%d\" y=\"35\">encode</text>\n"
            "<rect x=\"%d\" y=\"26\" width=\"10\" height=\"10\" fill=\"#e08a2c\"/>"
            "<text x=\"%d\" y=\"35\">decode</text>\n",
            LABEL + BAR + 80, height, suite, LABEL, LABEL + 14, LABEL + 70, LABEL + 84);
    for (double e = l0; e <= l1; e++) {
        double x = LABEL + BAR * (e - l0) / (l1 - l0);
        fprintf(f,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>"
                "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                x, TOP - 4, x, TOP + rows * ROW, x, TOP + rows * ROW + 14, pow(10, e));
    }
    int r = 0;
    for (size_t i = 0; i < plan->n; i++) {
        const bench_cell *c = &plan->cells[i];
        if (strcmp(c->suite, suite) != 0 || c->status != BENCH_OK)
            continue;
        int y = TOP + r++ * ROW;
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL - 6, y + 15);
        svg_escape(f, c->group);
        fprintf(f, " · %s · %s</text>\n", bench_cell_name(c), c->payload->name);
        double v[2] = {mbps(c, &c->enc), mbps(c, &c->dec)};
        const char *color[2] = {"#3b6fb6", "#e08a2c"};
        for (int k = c->enc.n ? 0 : 1; k < 2; k++) {
            double w = BAR * (log10(fmax(v[k], 1e-3)) - l0) / (l1 - l0);
            char t[32];
            fprintf(f,
                    "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"%s\"/>"
                    "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
                    LABEL, y + 2 + 11 * k, fmax(w, 1), color[k], LABEL + fmax(w, 1) + 4,
                    y + 11 + 11 * k, speed(v[k], t, sizeof t));
        }
    }
    fputs("</svg>\n", f);
    return fclose(f) == 0 ? 0 : -1;
}

/* ---------------------------------------------------------------------------
 * All outputs
 * ------------------------------------------------------------------------ */

static int make_dir(const char *path)
{
    return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

int bench_write_reports(const char *out_dir, const bench_plan *plan,
                        const bench_run_info *info)
{
    char path[4096], latest[4096];
    const bench_machine *m = info->machine;
    snprintf(latest, sizeof latest, "%s/latest", out_dir);
    if (make_dir(out_dir) != 0 || make_dir(latest) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/%s-%s.json", out_dir, m->stamp, m->host);
    if (bench_write_json(path, plan, info) != 0)
        return -1;
    fprintf(stderr, "codec-bench: wrote %s\n", path);
    snprintf(path, sizeof path, "%s/%s-%s.csv", out_dir, m->stamp, m->host);
    if (bench_write_csv(path, plan) != 0)
        return -1;
    fprintf(stderr, "codec-bench: wrote %s\n", path);
    if (bench_write_markdown(latest, plan, info) != 0)
        return -1;
    fprintf(stderr, "codec-bench: wrote %s/report.md\n", latest);
    return 0;
}
