/* suite_redis.c — the `redis` suite (see suite_redis.h). */
#ifdef CODEC_HAVE_REDIS
#include "../tests/redis_cluster.h" /* first: it defines _GNU_SOURCE (redis_server.h) */
#endif

#include "suite_redis.h"

#include "codec/codec.h"
#include "models_types.h"
#include "payloads/json_out.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifdef CODEC_HAVE_REDIS
#include "codec/redis.h"
#include "codec/zstd_dict.h"

#include <signal.h>
#endif

/* The bytes shapes: the bytes payloads, and two typed key-value payloads
 * as their compact JSON text (what a cache of opaque JSON strings holds). */
static const char *const SHAPES[] = {"small",   "medium",      "kv-logs",   "kv-prose",
                                     "kv-bean-map", "kv-strings"};
#define NBYTES_SHAPES (sizeof SHAPES / sizeof SHAPES[0])

/* The typed shapes: C values (models_types.c binds their descriptors)
 * through each backend, then each pipeline. */
static const char *const TYPED_SHAPES[] = {"order", "kv-bean", "kv-nested", "kv-bean-map"};
#define NTYPED_SHAPES (sizeof TYPED_SHAPES / sizeof TYPED_SHAPES[0])
static const char *const BACKENDS[] = {"json", "msgpack", "cbor", "protobuf", "fory"};
#define NBACKENDS (sizeof BACKENDS / sizeof BACKENDS[0])

/* Every (shape, backend) row: the bytes shapes, then each typed shape
 * through each backend. */
#define NSHAPES (NBYTES_SHAPES + NTYPED_SHAPES * NBACKENDS)

/* The pipelines; `%D` is the shape's trained dictionary, `%K` the key ring. */
static const struct pipeline {
    const char *name;
    const char *spec;      /* NULL: raw bytes through hiredis */
} PIPES[] = {
    {"none", NULL},
    {"lz4", "lz4"},
    {"zstd:3", "zstd:3"},
    {"zstd:3+dict", "zstd:3,dict=%D"},
    {"envelope", "envelope:keyring=%K"},
    {"lz4|envelope", "lz4 | envelope:keyring=%K"},
    {"zstd:3|envelope", "zstd:3 | envelope:keyring=%K"},
    {"zstd:3+dict|envelope", "zstd:3,dict=%D | envelope:keyring=%K"},
};
#define NPIPES (sizeof PIPES / sizeof PIPES[0])

typedef struct redis_cell {
    char pipeline[48];      /* "zstd:3|envelope"; typed: "msgpack|zstd:3" */
    char spec[512];
    bool selected;
    int status;             /* BENCH_OK, BENCH_NOT_BUILT, BENCH_FAILED */
    char reason[256];
    long long strlen_bytes, memory_usage;
    double set_p50, set_p99, get_p50, get_p99;   /* microseconds */
    size_t batch_items;
    double batch_set, batch_get;                 /* items/s, median of reps */
} redis_cell;

typedef struct redis_shape {
    const bench_payload *p;
    const char *backend;    /* NULL: a bytes shape */
    const codec_type *type; /* the backend's value type; NULL for bytes */
    const char *dict_note;  /* how the dictionary was trained */
    redis_cell cells[NPIPES];
    bool any;
} redis_shape;

static bool selected(const char *filter, const char *pipe, const char *shape)
{
    char id[128];
    snprintf(id, sizeof id, "redis/%s/%s", pipe, shape);
    return !filter || fnmatch(filter, id, 0) == 0 || strstr(id, filter) != NULL;
}

/* A typed cell's name: the backend alone for `none`, else backend|pipeline. */
static void cell_name(const redis_shape *sh, size_t pipe, char *out, size_t cap)
{
    if (!sh->backend)
        snprintf(out, cap, "%s", PIPES[pipe].name);
    else if (!PIPES[pipe].spec)
        snprintf(out, cap, "%s", sh->backend);
    else
        snprintf(out, cap, "%s|%s", sh->backend, PIPES[pipe].name);
}

/* Every cell of every shape, marked selected or not by the filter;
 * `not_built` (when not NULL) is every selected cell's status. */
static void plan_shapes(redis_shape *shapes, const char *filter, const char *not_built)
{
    memset(shapes, 0, NSHAPES * sizeof *shapes);
    for (size_t s = 0; s < NSHAPES; s++) {
        if (s < NBYTES_SHAPES) {
            shapes[s].p = bench_payload_find(SHAPES[s]);
        } else {
            size_t t = (s - NBYTES_SHAPES) / NBACKENDS, b = (s - NBYTES_SHAPES) % NBACKENDS;
            shapes[s].p = bench_payload_find(TYPED_SHAPES[t]);
            shapes[s].backend = BACKENDS[b];
            shapes[s].type = bench_model_type(shapes[s].p);
        }
        for (size_t i = 0; i < NPIPES; i++) {
            cell_name(&shapes[s], i, shapes[s].cells[i].pipeline,
                      sizeof shapes[s].cells[i].pipeline);
            shapes[s].cells[i].selected =
                selected(filter, shapes[s].cells[i].pipeline, shapes[s].p->name);
            shapes[s].any |= shapes[s].cells[i].selected;
            if (not_built) {
                shapes[s].cells[i].status = BENCH_NOT_BUILT;
                snprintf(shapes[s].cells[i].reason, sizeof shapes[s].cells[i].reason, "%s",
                         not_built);
            }
        }
        shapes[s].dict_note = "none";
    }
}

/* ---------------------------------------------------------------------------
 * The scale-out cells: cluster batches against one node, near-cache hits
 * against a round trip. Ids "redis-cluster/batch/SHAPE" and
 * "redis-near/get/SHAPE" (outside "redis/..." so that a filter on the
 * pipeline cells keeps them out).
 * ------------------------------------------------------------------------ */

static const char *const EXTRA_KINDS[] = {"redis-cluster/batch", "redis-near/get"};
static const char *const EXTRA_SHAPES[] = {"small", "medium"};
#define NEXTRA_KINDS (sizeof EXTRA_KINDS / sizeof EXTRA_KINDS[0])
#define NEXTRA_SHAPES (sizeof EXTRA_SHAPES / sizeof EXTRA_SHAPES[0])
#define NEXTRAS (NEXTRA_KINDS * NEXTRA_SHAPES)
/* Every scale-out cell stores its values through this pipeline. */
#define EXTRA_SPEC "zstd:3"

typedef struct extra_cell {
    char id[64];
    size_t kind;            /* 0: cluster batch, 1: near get */
    const bench_payload *p;
    bool selected;
    int status;
    char reason[256];
    size_t items;           /* cluster: items per batch */
    double one_set, one_get, cluster_set, cluster_get;   /* items/s, median of reps */
    double hit_p50, hit_p99, trip_p50, trip_p99;         /* near: µs */
    uint64_t hits;          /* near: hits the cache counted while timed */
} extra_cell;

static extra_cell extras[NEXTRAS];

static void plan_extras(const char *filter, const char *not_built)
{
    memset(extras, 0, sizeof extras);
    for (size_t k = 0; k < NEXTRA_KINDS; k++) {
        for (size_t s = 0; s < NEXTRA_SHAPES; s++) {
            extra_cell *x = &extras[k * NEXTRA_SHAPES + s];
            x->kind = k;
            x->p = bench_payload_find(EXTRA_SHAPES[s]);
            snprintf(x->id, sizeof x->id, "%s/%s", EXTRA_KINDS[k], EXTRA_SHAPES[s]);
            x->selected = !filter || fnmatch(filter, x->id, 0) == 0 || strstr(x->id, filter);
            if (not_built && x->selected) {
                x->status = BENCH_NOT_BUILT;
                snprintf(x->reason, sizeof x->reason, "%s", not_built);
            }
        }
    }
}

/* ---------------------------------------------------------------------------
 * Reports
 * ------------------------------------------------------------------------ */

static const char *status_name(int s)
{
    return s == BENCH_OK ? "ok" : s == BENCH_NOT_BUILT ? "not built" : "failed";
}

/* Less memory, ties to fewer stored bytes. */
static bool cheaper(const redis_cell *c, const redis_cell *than)
{
    return !than || c->memory_usage < than->memory_usage ||
           (c->memory_usage == than->memory_usage && c->strlen_bytes < than->strlen_bytes);
}

/* The cheapest cell in server memory, with or without envelope. MEMORY
 * USAGE moves in allocator size classes, so ties go to fewer stored bytes. */
static const redis_cell *cheapest(const redis_shape *sh, bool envelope)
{
    const redis_cell *best = NULL;
    for (size_t i = 0; i < NPIPES; i++) {
        const redis_cell *c = &sh->cells[i];
        if (c->status == BENCH_OK && (strstr(c->pipeline, "envelope") != NULL) == envelope &&
            cheaper(c, best))
            best = c;
    }
    return best;
}

/* The cheapest cell of typed shape t across the backends (only `json`
 * when json_only), with or without envelope. */
static const redis_cell *cheapest_typed(const redis_shape *shapes, size_t t, bool envelope,
                                        bool json_only)
{
    const redis_cell *best = NULL;
    for (size_t b = 0; b < (json_only ? 1 : NBACKENDS); b++) {
        const redis_cell *c = cheapest(&shapes[NBYTES_SHAPES + t * NBACKENDS + b], envelope);
        if (c && cheaper(c, best))
            best = c;
    }
    return best;
}

/* Typed shape t's first row (its json backend), or NULL when the filter
 * left all its backends out. */
static const redis_shape *typed_rows(const redis_shape *shapes, size_t t)
{
    const redis_shape *first = &shapes[NBYTES_SHAPES + t * NBACKENDS];
    for (size_t b = 0; b < NBACKENDS; b++)
        if (first[b].any)
            return first;
    return NULL;
}

static void jo_cheap(json_out *j, const char *key, const redis_cell *c)
{
    jo_key(j, key);
    if (!c) {
        jo_string(j, NULL);
        return;
    }
    jo_begin_object(j);
    jo_key(j, "pipeline"), jo_string(j, c->pipeline);
    jo_key(j, "memory_usage"), jo_int(j, c->memory_usage);
    jo_key(j, "stored_bytes"), jo_int(j, c->strlen_bytes);
    jo_end_object(j);
}

/* Per typed shape: the cheapest cell across backends, the cheapest JSON
 * one, and the cheapest with envelope. */
static void write_typed_json(json_out *j, const redis_shape *shapes)
{
    jo_key(j, "typed_cheapest");
    jo_begin_array(j);
    for (size_t t = 0; shapes && t < NTYPED_SHAPES; t++) {
        const redis_shape *first = typed_rows(shapes, t);
        if (!first)
            continue;
        jo_begin_object(j);
        jo_key(j, "shape"), jo_string(j, first->p->name);
        jo_key(j, "json_bytes"), jo_int(j, (int64_t)first->p->len);
        jo_cheap(j, "cheapest", cheapest_typed(shapes, t, false, false));
        jo_cheap(j, "cheapest_json", cheapest_typed(shapes, t, false, true));
        jo_cheap(j, "cheapest_with_envelope", cheapest_typed(shapes, t, true, false));
        jo_end_object(j);
    }
    jo_end_array(j);
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

/* The scale-out cells: "cluster_batches" and "near_cache". */
static void write_extras_json(json_out *j)
{
    for (size_t k = 0; k < NEXTRA_KINDS; k++) {
        jo_key(j, k == 0 ? "cluster_batches" : "near_cache");
        jo_begin_array(j);
        for (size_t s = 0; s < NEXTRA_SHAPES; s++) {
            const extra_cell *x = &extras[k * NEXTRA_SHAPES + s];
            if (!x->selected)
                continue;
            jo_begin_object(j);
            jo_key(j, "id"), jo_string(j, x->id);
            jo_key(j, "shape"), jo_string(j, x->p->name);
            jo_key(j, "value_bytes"), jo_int(j, (int64_t)x->p->len);
            jo_key(j, "pipeline"), jo_string(j, EXTRA_SPEC);
            jo_key(j, "status"), jo_string(j, status_name(x->status));
            if (x->status != BENCH_OK) {
                jo_key(j, "reason"), jo_string(j, x->reason);
            } else if (k == 0) {
                jo_key(j, "masters"), jo_int(j, 3);
                jo_key(j, "batch_items"), jo_int(j, (int64_t)x->items);
                jo_key(j, "one_node_set_items_per_s"), jo_double(j, x->one_set);
                jo_key(j, "cluster_set_items_per_s"), jo_double(j, x->cluster_set);
                jo_key(j, "set_ratio"), jo_double(j, ratio(x->cluster_set, x->one_set));
                jo_key(j, "one_node_get_items_per_s"), jo_double(j, x->one_get);
                jo_key(j, "cluster_get_items_per_s"), jo_double(j, x->cluster_get);
                jo_key(j, "get_ratio"), jo_double(j, ratio(x->cluster_get, x->one_get));
            } else {
                jo_key(j, "hit_p50_us"), jo_double(j, x->hit_p50);
                jo_key(j, "hit_p99_us"), jo_double(j, x->hit_p99);
                jo_key(j, "round_trip_p50_us"), jo_double(j, x->trip_p50);
                jo_key(j, "round_trip_p99_us"), jo_double(j, x->trip_p99);
                jo_key(j, "p50_speedup"), jo_double(j, ratio(x->trip_p50, x->hit_p50));
                jo_key(j, "hits"), jo_int(j, (int64_t)x->hits);
            }
            jo_end_object(j);
        }
        jo_end_array(j);
    }
}

static int write_json(codec_buf *b, const redis_shape *shapes, const bench_profile *prof,
                      const bench_machine *m, const char *not_built)
{
    json_out j;
    jo_init(&j, b);
    jo_begin_object(&j);
    jo_key(&j, "suite"), jo_string(&j, "redis");
    jo_key(&j, "profile"), jo_string(&j, prof->name);
    jo_key(&j, "machine");
    jo_begin_object(&j);
    jo_key(&j, "cpu"), jo_string(&j, m->cpu);
    jo_key(&j, "cores"), jo_int(&j, m->cores);
    jo_key(&j, "host"), jo_string(&j, m->host);
    jo_key(&j, "date"), jo_string(&j, m->date);
    jo_end_object(&j);
    jo_key(&j, "status"), jo_string(&j, not_built ? "not built" : "ok");
    if (not_built)
        jo_key(&j, "reason"), jo_string(&j, not_built);
    jo_key(&j, "shapes");
    jo_begin_array(&j);
    for (size_t s = 0; shapes && s < NSHAPES; s++) {
        const redis_shape *sh = &shapes[s];
        if (!sh->any)
            continue;
        jo_begin_object(&j);
        jo_key(&j, "shape"), jo_string(&j, sh->p->name);
        jo_key(&j, "backend"), jo_string(&j, sh->backend);
        jo_key(&j, "value_bytes"), jo_int(&j, (int64_t)sh->p->len);
        jo_key(&j, "dictionary"), jo_string(&j, sh->dict_note);
        const redis_cell *best = cheapest(sh, false), *best_env = cheapest(sh, true);
        jo_key(&j, "cheapest"), jo_string(&j, best ? best->pipeline : NULL);
        jo_key(&j, "cheapest_with_envelope"), jo_string(&j, best_env ? best_env->pipeline : NULL);
        jo_key(&j, "cells");
        jo_begin_array(&j);
        for (size_t i = 0; i < NPIPES; i++) {
            const redis_cell *c = &sh->cells[i];
            if (!c->selected)
                continue;
            jo_begin_object(&j);
            jo_key(&j, "pipeline"), jo_string(&j, c->pipeline);
            jo_key(&j, "spec"), jo_string(&j, c->spec[0] ? c->spec : NULL);
            jo_key(&j, "status"), jo_string(&j, status_name(c->status));
            if (c->status != BENCH_OK) {
                jo_key(&j, "reason"), jo_string(&j, c->reason);
            } else {
                jo_key(&j, "stored_bytes"), jo_int(&j, c->strlen_bytes);
                jo_key(&j, "memory_usage"), jo_int(&j, c->memory_usage);
                jo_key(&j, "set_p50_us"), jo_double(&j, c->set_p50);
                jo_key(&j, "set_p99_us"), jo_double(&j, c->set_p99);
                jo_key(&j, "get_p50_us"), jo_double(&j, c->get_p50);
                jo_key(&j, "get_p99_us"), jo_double(&j, c->get_p99);
                jo_key(&j, "batch_items"), jo_int(&j, (int64_t)c->batch_items);
                jo_key(&j, "batch_set_items_per_s"), jo_double(&j, c->batch_set);
                jo_key(&j, "batch_get_items_per_s"), jo_double(&j, c->batch_get);
            }
            jo_end_object(&j);
        }
        jo_end_array(&j);
        jo_end_object(&j);
    }
    jo_end_array(&j);
    write_typed_json(&j, shapes);
    write_extras_json(&j);
    jo_end_object(&j);
    return j.failed || codec_buf_append(b, "\n", 1) ? -1 : 0;   /* -1: out of memory */
}

/* A pipeline name in a Markdown table cell, its `|` escaped. */
static const char *md_name(const char *name, char *buf, size_t cap)
{
    size_t o = 0;
    for (const char *p = name; *p && o + 3 < cap; p++) {
        if (*p == '|')
            buf[o++] = '\\';
        buf[o++] = *p;
    }
    buf[o] = 0;
    return buf;
}

static void md_cheap(FILE *f, const redis_cell *c)
{
    char name[64];
    if (c)
        fprintf(f, " %s | %lld |", md_name(c->pipeline, name, sizeof name), c->memory_usage);
    else
        fputs(" - | |", f);
}

/* The cheapest backend+pipeline per typed shape, against the cheapest JSON. */
static void write_typed_md(FILE *f, const redis_shape *shapes)
{
    bool header = false;
    for (size_t t = 0; t < NTYPED_SHAPES; t++) {
        const redis_shape *first = typed_rows(shapes, t);
        if (!first)
            continue;
        if (!header)
            fputs("## Cheapest per typed shape, across backends\n\n"
                  "| shape | cheapest | MEMORY USAGE B | cheapest JSON | MEMORY USAGE B "
                  "| cheapest with envelope | MEMORY USAGE B |\n"
                  "|---|---|---:|---|---:|---|---:|\n",
                  f);
        header = true;
        fprintf(f, "| %s (%zu B as JSON) |", first->p->name, first->p->len);
        md_cheap(f, cheapest_typed(shapes, t, false, false));
        md_cheap(f, cheapest_typed(shapes, t, false, true));
        md_cheap(f, cheapest_typed(shapes, t, true, false));
        fputc('\n', f);
    }
    if (header)
        fputc('\n', f);
}

static void write_extras_md(FILE *f)
{
    for (size_t k = 0; k < NEXTRA_KINDS; k++) {
        bool header = false;
        for (size_t s = 0; s < NEXTRA_SHAPES; s++) {
            const extra_cell *x = &extras[k * NEXTRA_SHAPES + s];
            if (!x->selected)
                continue;
            if (!header && k == 0)
                fputs("## Batches on a 3-master cluster against one node (" EXTRA_SPEC ")\n\n"
                      "| shape | batch | set: cluster / one node | get: cluster / one node "
                      "| one node set items/s | cluster set items/s | one node get items/s "
                      "| cluster get items/s |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
                      f);
            else if (!header)
                fputs("## get: near-cache hit against a round trip (" EXTRA_SPEC ", one node)\n\n"
                      "| shape | hit p50 µs | hit p99 µs | round trip p50 µs | round trip p99 µs "
                      "| p50 round trip / hit |\n|---|---:|---:|---:|---:|---:|\n",
                      f);
            header = true;
            if (x->status != BENCH_OK)
                fprintf(f, "| %s (%zu B) | %s: %s |\n", x->p->name, x->p->len,
                        status_name(x->status), x->reason);
            else if (k == 0)
                fprintf(f, "| %s (%zu B) | %zu | %.2fx | %.2fx | %.0f | %.0f | %.0f | %.0f |\n",
                        x->p->name, x->p->len, x->items, ratio(x->cluster_set, x->one_set),
                        ratio(x->cluster_get, x->one_get), x->one_set, x->cluster_set,
                        x->one_get, x->cluster_get);
            else
                fprintf(f, "| %s (%zu B) | %.1f | %.1f | %.1f | %.1f | %.1fx |\n", x->p->name,
                        x->p->len, x->hit_p50, x->hit_p99, x->trip_p50, x->trip_p99,
                        ratio(x->trip_p50, x->hit_p50));
        }
        if (header)
            fputc('\n', f);
    }
}

static void write_md(FILE *f, const redis_shape *shapes, const bench_profile *prof,
                     const bench_machine *m, const char *not_built)
{
    fprintf(f, "# codec-bench redis suite\n\n**Machine:** %s, %d cores, %s, %s (profile %s)\n\n",
            m->cpu, m->cores, m->host, m->date, prof->name);
    if (not_built) {
        fprintf(f, "not built: %s\n", not_built);
        return;
    }
    for (size_t s = 0; s < NSHAPES; s++) {
        const redis_shape *sh = &shapes[s];
        if (!sh->any)
            continue;
        if (sh->backend)
            fprintf(f, "## %s through %s (%zu B as JSON; dictionary %s)\n\n", sh->p->name,
                    sh->backend, sh->p->len, sh->dict_note);
        else
            fprintf(f, "## %s (%zu B; dictionary %s)\n\n", sh->p->name, sh->p->len,
                    sh->dict_note);
        fputs("| pipeline | stored B | MEMORY USAGE B | set p50 µs | set p99 µs | get p50 µs "
              "| get p99 µs | batch | batch set items/s | batch get items/s |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
              f);
        for (size_t i = 0; i < NPIPES; i++) {
            const redis_cell *c = &sh->cells[i];
            char name[64];
            if (!c->selected)
                continue;
            if (c->status != BENCH_OK) {
                fprintf(f, "| %s | %s: %s |||||||||\n", md_name(c->pipeline, name, sizeof name),
                        status_name(c->status), c->reason);
                continue;
            }
            fprintf(f, "| %s | %lld | %lld | %.0f | %.0f | %.0f | %.0f | %zu | %.0f | %.0f |\n",
                    md_name(c->pipeline, name, sizeof name), c->strlen_bytes, c->memory_usage, c->set_p50, c->set_p99,
                    c->get_p50, c->get_p99, c->batch_items, c->batch_set, c->batch_get);
        }
        const redis_cell *best = cheapest(sh, false), *best_env = cheapest(sh, true);
        fprintf(f, "\nCheapest in memory for %s: **%s** (%lld B)", sh->p->name,
                best ? best->pipeline : "-", best ? best->memory_usage : 0);
        if (best_env)
            fprintf(f, "; with envelope: **%s** (%lld B)", best_env->pipeline,
                    best_env->memory_usage);
        fputs(".\n\n", f);
    }
    write_typed_md(f, shapes);
    write_extras_md(f);
}

static int write_outputs(const char *dir, const redis_shape *shapes, const bench_profile *prof,
                         const bench_machine *m, const char *not_built)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    char path[1024];
    codec_buf b;
    codec_buf_init(&b, NULL);
    int made = write_json(&b, shapes, prof, m, not_built);
    snprintf(path, sizeof path, "%s/redis.json", dir);
    FILE *f = fopen(path, "wb");
    int rc = made == 0 && f && fwrite(b.data, 1, b.len, f) == b.len ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    codec_buf_free(&b);
    snprintf(path, sizeof path, "%s/redis.md", dir);
    f = fopen(path, "w");
    if (!f)
        return -1;
    write_md(f, shapes, prof, m, not_built);
    if (fclose(f) != 0)
        rc = -1;
    write_md(stdout, shapes, prof, m, not_built);
    fprintf(stderr, "codec-bench: wrote %s/redis.json and %s/redis.md\n", dir, dir);
    return rc;
}

#ifndef CODEC_HAVE_REDIS

/* Why this build cannot run the suite. */
static const char *unavailable(void)
{
    return "codec was built without hiredis";
}

int bench_redis_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                      const char *filter, const char *keyring)
{
    (void)keyring;
    const char *why = unavailable();
    redis_shape shapes[NSHAPES];
    plan_shapes(shapes, filter, why);
    plan_extras(filter, why);
    fprintf(stderr, "codec-bench: redis suite not built: %s\n", why);
    return write_outputs(out_dir, shapes, prof, m, why) ? 1 : 0;
}

#else

/* Single-operation latencies: quick keeps the whole suite (about 200
 * cells with the typed ones) near half a minute, at the price of a p99
 * that is the second-worst of 200; full gives p99 fifty samples above it. */
static int latency_ops(const bench_profile *prof)
{
    return strcmp(prof->name, "quick") == 0 ? 200 : 5000;
}

/* Batch size: up to 1000 items, but not more than this many value bytes,
 * so that 64 KiB shapes do not need 64 MB batches. */
static size_t batch_byte_cap(const bench_profile *prof)
{
    return strcmp(prof->name, "quick") == 0 ? ((size_t)8 << 20) : ((size_t)64 << 20);
}

/* ---------------------------------------------------------------------------
 * One cell's operations: through codec, or raw through hiredis for `none`
 * ------------------------------------------------------------------------ */

typedef struct runner {
    codec_redis *r;
    redisContext *raw;       /* `none`, and MEMORY USAGE / FLUSHALL */
    codec_arena arena;
    codec_redis_item *items;
    char (*keys)[24];
    size_t cap;
    const codec_type *type;  /* the current shape's, NULL for bytes */
    uint8_t *outs;           /* cap decoded values: codec_bytes, or type->size each */
    size_t out_stride;
    codec_buf scratch;       /* a typed value rendered back to JSON */
} runner;

static int raw_check(redisReply *rep, int type)
{
    int ok = rep && rep->type == type;
    freeReplyObject(rep);
    return ok ? 0 : -1;
}

/* One set; `none` when c is NULL. */
static int op_set(runner *u, const codec *c, const char *key, const bench_payload *p)
{
    if (!c)
        return raw_check(redisCommand(u->raw, "SET %b %b", key, strlen(key), p->bytes, p->len),
                         REDIS_REPLY_STATUS);
    codec_bytes v = {p->bytes, p->len};
    return codec_redis_set(u->r, key, strlen(key), c, u->type ? p->value : (const void *)&v, 0,
                           NULL)
               ? -1
               : 0;
}

static bool same_bytes(const void *data, size_t len, const bench_payload *p)
{
    return len == p->len && memcmp(data, p->bytes, len) == 0;
}

/* Decoded value slot i (a codec_bytes, or the shape's C value). */
static void *out_slot(runner *u, size_t i)
{
    return u->outs + i * u->out_stride;
}

/* Whether slot i holds p: the same bytes, or (typed) a value that renders
 * to p's compact JSON, as codec_driver.c checks. */
static bool slot_matches(runner *u, size_t i, const bench_payload *p)
{
    if (!u->type) {
        const codec_bytes *v = out_slot(u, i);
        return same_bytes(v->data, v->len, p);
    }
    codec_buf_clear(&u->scratch);
    return bench_payload_render(p, out_slot(u, i), &u->scratch) == 0 &&
           same_bytes(u->scratch.data, u->scratch.len, p);
}

/* One get; -1 on error, or when `verify` and the value read back is not
 * p->bytes (timed gets do not compare: that is not the cost of a get). */
static int op_get(runner *u, const codec *c, const char *key, const bench_payload *p,
                  bool verify)
{
    if (!c) {
        redisReply *rep = redisCommand(u->raw, "GET %b", key, strlen(key));
        int ok = rep && rep->type == REDIS_REPLY_STRING &&
                 (!verify || same_bytes(rep->str, (size_t)rep->len, p));
        freeReplyObject(rep);
        return ok ? 0 : -1;
    }
    codec_arena_reset(&u->arena);
    if (codec_redis_get(u->r, key, strlen(key), c, out_slot(u, 0), &u->arena, NULL) != 0)
        return -1;
    return !verify || slot_matches(u, 0, p) ? 0 : -1;
}

/* A pipelined batch of n sets or gets through hiredis; with `verify`,
 * every value read back is compared. */
static int raw_batch(runner *u, bool set, const bench_payload *p, size_t n, bool verify)
{
    for (size_t done = 0; done < n;) {
        size_t k = n - done < 1024 ? n - done : 1024;
        for (size_t i = 0; i < k; i++) {
            const char *key = u->keys[done + i];
            int rc = set ? redisAppendCommand(u->raw, "SET %b %b", key, strlen(key), p->bytes,
                                              p->len)
                         : redisAppendCommand(u->raw, "GET %b", key, strlen(key));
            if (rc != REDIS_OK)
                return -1;
        }
        for (size_t i = 0; i < k; i++) {
            void *rep;
            if (redisGetReply(u->raw, &rep) != REDIS_OK)
                return -1;
            redisReply *r = rep;
            int ok = set ? r->type == REDIS_REPLY_STATUS
                         : r->type == REDIS_REPLY_STRING &&
                               (!verify || same_bytes(r->str, (size_t)r->len, p));
            freeReplyObject(rep);
            if (!ok)
                return -1;
        }
        done += k;
    }
    return 0;
}

/* A codec_redis_batch of n sets or gets (the decoded values land in the
 * runner's slots), or a raw one for `none`; `verify` compares the values read. */
static int op_batch(runner *u, const codec *c, bool set, const bench_payload *p, size_t n,
                    bool verify)
{
    if (!c)
        return raw_batch(u, set, p, n, verify);
    codec_bytes in = {p->bytes, p->len};
    for (size_t i = 0; i < n; i++)
        u->items[i] = (codec_redis_item){.op = set ? CODEC_REDIS_SET : CODEC_REDIS_GET,
                                         .key = u->keys[i], .key_len = strlen(u->keys[i]),
                                         .codec = c,
                                         .value = u->type ? p->value : (const void *)&in,
                                         .value_out = out_slot(u, i)};
    codec_arena_reset(&u->arena);
    if (codec_redis_batch(u->r, u->items, n, &u->arena, NULL) != 0)
        return -1;
    for (size_t i = 0; verify && !set && i < n; i++)
        if (!slot_matches(u, i, p))
            return -1;
    return 0;
}

/* `MEMORY USAGE key` (memory) or `STRLEN key`. */
static long long raw_size(runner *u, bool memory, const char *key)
{
    redisReply *rep = memory ? redisCommand(u->raw, "MEMORY USAGE %s", key)
                             : redisCommand(u->raw, "STRLEN %s", key);
    long long v = rep && rep->type == REDIS_REPLY_INTEGER ? rep->integer : -1;
    freeReplyObject(rep);
    return v;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted ns samples, in microseconds. */
static double pct_us(const int64_t *v, int n, int pct)
{
    int k = (n * pct + 99) / 100;
    return (double)v[k > 0 ? k - 1 : 0] / 1e3;
}

static int time_singles(runner *u, const codec *c, const bench_payload *p, int n, bool set,
                        double *p50, double *p99)
{
    int64_t *t = malloc((size_t)n * sizeof *t);
    if (!t)
        return -1;
    int warm = n / 10;
    for (int i = -warm; i < n; i++) {
        int64_t t0 = bench_now_ns();
        int rc = set ? op_set(u, c, "rs:single", p) : op_get(u, c, "rs:single", p, false);
        if (rc) {
            free(t);
            return -1;
        }
        if (i >= 0)
            t[i] = bench_now_ns() - t0;
    }
    qsort(t, (size_t)n, sizeof *t, cmp_i64);
    *p50 = pct_us(t, n, 50);
    *p99 = pct_us(t, n, 99);
    free(t);
    return 0;
}

static int time_batches(runner *u, const codec *c, const bench_payload *p,
                        const bench_profile *prof, redis_cell *cell)
{
    size_t n = batch_byte_cap(prof) / (p->len ? p->len : 1);
    n = n < 1 ? 1 : n > u->cap ? u->cap : n;
    bench_series s = {0}, g = {0};
    int rc = 0;
    /* rep -1 is the warm-up, and verifies every value read back */
    for (int rep = -1; rep < prof->measure_iters && rc == 0; rep++) {
        double t0 = bench_now();
        rc = op_batch(u, c, true, p, n, rep < 0);
        double t1 = bench_now();
        if (rc == 0)
            rc = op_batch(u, c, false, p, n, rep < 0);
        double t2 = bench_now();
        if (rc == 0 && rep >= 0) {
            bench_series_add(&s, (double)n / (t1 - t0));
            bench_series_add(&g, (double)n / (t2 - t1));
        }
    }
    cell->batch_items = n;
    cell->batch_set = bench_series_median(&s);
    cell->batch_get = bench_series_median(&g);
    return rc;
}

static void run_cell(runner *u, const codec *c, const bench_payload *p,
                     const bench_profile *prof, redis_cell *cell)
{
    cell->status = BENCH_FAILED;
    if (op_set(u, c, "rs:check", p) != 0 || op_get(u, c, "rs:check", p, true) != 0) {
        snprintf(cell->reason, sizeof cell->reason, "round trip through the server failed");
        return;
    }
    cell->strlen_bytes = raw_size(u, false, "rs:check");
    cell->memory_usage = raw_size(u, true, "rs:check");
    int n = latency_ops(prof);
    if (time_singles(u, c, p, n, true, &cell->set_p50, &cell->set_p99) ||
        time_singles(u, c, p, n, false, &cell->get_p50, &cell->get_p99)) {
        snprintf(cell->reason, sizeof cell->reason, "a single set or get failed");
        return;
    }
    if (time_batches(u, c, p, prof, cell) != 0) {
        snprintf(cell->reason, sizeof cell->reason, "a batch failed or read back other bytes");
        return;
    }
    if (cell->memory_usage > 0)
        cell->status = BENCH_OK;
    else
        snprintf(cell->reason, sizeof cell->reason, "MEMORY USAGE gave no size");
}

/* ---------------------------------------------------------------------------
 * Dictionaries
 * ------------------------------------------------------------------------ */

/* Cuts src into pieces of about `size` bytes. */
static size_t cut(const uint8_t *src, size_t len, size_t size, codec_bytes *out, size_t cap)
{
    size_t n = 0;
    for (size_t at = 0; at < len && n < cap; at += size)
        out[n++] = (codec_bytes){src + at, len - at < size ? len - at : size};
    return n;
}

/* kv-bean is one ~100 B value, too little to train on: its samples are
 * the other beans of the same generator, kv-bean-map's, each encoded
 * alone through the backend. */
static int bean_samples(const redis_shape *sh, codec_buf *src, codec_bytes *s, size_t cap,
                        size_t *n)
{
    const bench_kv_bean_map *m = bench_payload_find("kv-bean-map")->value;
    size_t ends[128];
    codec *c = codec_parse(sh->backend, sh->type, NULL);
    int rc = c ? 0 : -1;
    *n = 0;
    for (size_t i = 0; rc == 0 && i < m->beans.count && *n < cap && *n < 128; i++) {
        rc = codec_encode(c, &m->beans.values[i], src, NULL);
        ends[(*n)++] = src->len;
    }
    codec_free(c);
    for (size_t i = 0; rc == 0 && i < *n; i++) {
        size_t start = i ? ends[i - 1] : 0;
        s[i] = (codec_bytes){src->data + start, ends[i] - start};
    }
    return rc;
}

/* Samples for the shape's dictionary, held out from the measured value
 * where the generators allow: the JSON shapes train on records 81..1000 of
 * json(1000) (the measured json(1) and json(80) are its first records),
 * prose on `large` past the 64 KiB that kv-prose is. The other shapes have
 * one generated value only, so their dictionary is trained on that value
 * cut in 64 pieces: an upper bound on what a dictionary brings. */
static const char *samples_for(const redis_shape *sh, codec_buf *src, codec_bytes *s,
                               size_t cap, size_t *n)
{
    const bench_payload *p = sh->p;
    if (sh->backend && strcmp(p->name, "kv-bean") == 0)
        return bean_samples(sh, src, s, cap, n) == 0
                   ? "held out: the 100 beans of kv-bean-map, each encoded"
                   : NULL;
    if (sh->backend) {
        /* One typed value: its encoding by the backend, cut like the
         * bytes shapes that have one value. */
        codec *c = codec_parse(sh->backend, sh->type, NULL);
        int rc = c ? codec_encode(c, p->value, src, NULL) : -1;
        codec_free(c);
        if (rc != 0)
            return NULL;
        *n = cut(src->data, src->len, (src->len + 63) / 64, s, cap);
        return "in-sample: the encoded value cut in 64 pieces (an upper bound)";
    }
    if (strcmp(p->name, "small") == 0 || strcmp(p->name, "medium") == 0) {
        const bench_payload *medium = bench_payload_find("medium");
        if (bench_gen_json(1000, src) != 0)
            return NULL;
        size_t skip = medium->len - 1; /* the medium payload less its ']' */
        *n = 0;
        for (size_t at = skip; at < src->len && *n < cap;) {
            const uint8_t *end = memchr(src->data + at + 1, '}', src->len - at - 1);
            if (!end)
                break;
            size_t stop = (size_t)(end - src->data) + 1;
            s[(*n)++] = (codec_bytes){src->data + at + 1, stop - at - 1}; /* skip ',' */
            at = stop;
        }
        return "held out: records 81..1000 of json(1000)";
    }
    if (strcmp(p->name, "kv-prose") == 0) {
        const bench_payload *large = bench_payload_find("large");
        *n = cut(large->bytes + p->len, 128 * 1024, 1024, s, cap);
        return "held out: 128 KiB of prose after the measured 64 KiB";
    }
    *n = cut(p->bytes, p->len, (p->len + 63) / 64, s, cap);
    return "in-sample: the value itself cut in 64 pieces (an upper bound)";
}

/* Trains the shape's dictionary into dir/NAME.dict; "" in path when the
 * training failed (the dictionary cells are then "not built", `why`). */
static void train_dict(const redis_shape *sh, const char *dir, char *path, size_t cap,
                       const char **note, char *why, size_t why_cap)
{
    codec_bytes s[1024];
    size_t n = 0;
    codec_buf src, dict;
    codec_buf_init(&src, NULL);
    codec_buf_init(&dict, NULL);
    codec_error err;
    path[0] = 0;
    *note = samples_for(sh, &src, s, 1024, &n);
    if (!*note) {
        *note = "none";
        snprintf(why, why_cap, "could not make samples");
    } else if (codec_zstd_train_dict(s, n, 16384, &dict, &err) != 0) {
        char msg[200];
        snprintf(why, why_cap, "dictionary training failed: %s",
                 codec_error_format(&err, msg, sizeof msg));
    } else {
        snprintf(path, cap, "%s/%s%s%s.dict", dir, sh->p->name, sh->backend ? "." : "",
                 sh->backend ? sh->backend : "");
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(dict.data, 1, dict.len, f) != dict.len || fclose(f) != 0) {
            snprintf(why, why_cap, "cannot write %s", path);
            path[0] = 0;
        }
    }
    codec_buf_free(&src);
    codec_buf_free(&dict);
}

/* The spec with %D and %K filled in. */
static void fill_spec(const char *tmpl, const char *dict, const char *keyring, char *out,
                      size_t cap)
{
    size_t o = 0;
    for (const char *t = tmpl; *t && o + 1 < cap; t++) {
        if (t[0] == '%' && (t[1] == 'D' || t[1] == 'K')) {
            o += (size_t)snprintf(out + o, cap - o, "%s", t[1] == 'D' ? dict : keyring);
            t++;
        } else {
            out[o++] = *t;
        }
    }
    out[o < cap ? o : cap - 1] = 0;
}

static void run_shape(runner *u, redis_shape *sh, const char *dir, const bench_profile *prof,
                      const char *keyring)
{
    char dict[256], dict_why[256] = "";
    train_dict(sh, dir, dict, sizeof dict, &sh->dict_note, dict_why, sizeof dict_why);
    u->type = sh->type;
    u->out_stride = sh->type ? sh->type->size : sizeof(codec_bytes);
    free(u->outs);
    if (!(u->outs = calloc(u->cap, u->out_stride))) {
        for (size_t i = 0; i < NPIPES; i++) {
            sh->cells[i].status = BENCH_FAILED;
            snprintf(sh->cells[i].reason, sizeof sh->cells[i].reason, "out of memory");
        }
        return;
    }
    for (size_t i = 0; i < NPIPES; i++) {
        redis_cell *cell = &sh->cells[i];
        if (!cell->selected)
            continue;
        codec *c = NULL;
        if (PIPES[i].spec || sh->backend) {
            char tmpl[256];
            snprintf(tmpl, sizeof tmpl, "%s%s%s", sh->backend ? sh->backend : "",
                     sh->backend && PIPES[i].spec ? " | " : "",
                     PIPES[i].spec ? PIPES[i].spec : "");
            fill_spec(tmpl, dict, keyring, cell->spec, sizeof cell->spec);
            codec_error err;
            if (strstr(tmpl, "%D") && !dict[0]) {
                cell->status = BENCH_NOT_BUILT;
                snprintf(cell->reason, sizeof cell->reason, "%s", dict_why);
                continue;
            }
            if (!(c = codec_parse(cell->spec, sh->type, &err))) {
                cell->status = BENCH_NOT_BUILT;
                codec_error_format(&err, cell->reason, sizeof cell->reason);
                continue;
            }
        }
        if (isatty(2))
            fprintf(stderr, "\r\033[Kredis/%s/%s", cell->pipeline, sh->p->name);
        run_cell(u, c, sh->p, prof, cell);
        codec_free(c);
        raw_check(redisCommand(u->raw, "FLUSHALL"), REDIS_REPLY_STATUS);
    }
    if (isatty(2))
        fputs("\r\033[K", stderr);
}

static int runner_open(runner *u, int port, char *why, size_t cap)
{
    memset(u, 0, sizeof *u);
    codec_arena_init(&u->arena, NULL, 0);
    codec_buf_init(&u->scratch, NULL);
    codec_redis_options o = {0};
    o.port = port;
    o.command_timeout_ms = 10000;
    codec_error err;
    if (codec_redis_connect(&o, &u->r, &err) != 0) {
        codec_error_format(&err, why, cap);
        return -1;
    }
    struct timeval tv = {10, 0};
    u->raw = redisConnectWithTimeout("127.0.0.1", port, tv);
    if (!u->raw || u->raw->err || redisSetTimeout(u->raw, tv) != REDIS_OK) {
        snprintf(why, cap, "hiredis could not connect");
        return -1;
    }
    u->cap = 1000;
    u->items = calloc(u->cap, sizeof *u->items);
    u->keys = calloc(u->cap, sizeof *u->keys);
    if (!u->items || !u->keys) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < u->cap; i++)
        snprintf(u->keys[i], sizeof u->keys[i], "rb:%zu", i);
    return 0;
}

static void runner_close(runner *u)
{
    codec_redis_free(u->r);
    redisFree(u->raw);
    codec_arena_free(&u->arena);
    free(u->items);
    free(u->keys);
    free(u->outs);
    codec_buf_free(&u->scratch);
}

/* ---------------------------------------------------------------------------
 * Running the scale-out cells
 * ------------------------------------------------------------------------ */

/* Items per cluster batch: as many as the byte cap allows, at most 10000
 * (quick) or 50000, so that each of the 3 masters gets thousands. */
static size_t extra_items(const bench_profile *prof, const bench_payload *p)
{
    size_t most = strcmp(prof->name, "quick") == 0 ? 10000 : 50000;
    size_t n = batch_byte_cap(prof) / (p->len ? p->len : 1);
    return n < 1 ? 1 : n > most ? most : n;
}

typedef struct extra_batch {
    codec_redis_item *items;
    char (*keys)[24];
    codec_bytes *outs;
    size_t n;
    codec_arena arena;
} extra_batch;

/* One codec_redis_batch of n sets or gets of p, timed: items/s, or -1 when
 * an item failed or (verify) a get read other bytes. */
static double timed_batch(codec_redis *r, const codec *c, extra_batch *b, const bench_payload *p,
                          bool set, bool verify)
{
    codec_bytes in = {p->bytes, p->len};
    for (size_t i = 0; i < b->n; i++)
        b->items[i] = (codec_redis_item){.op = set ? CODEC_REDIS_SET : CODEC_REDIS_GET,
                                         .key = b->keys[i], .key_len = strlen(b->keys[i]),
                                         .codec = c, .value = &in, .value_out = &b->outs[i]};
    codec_arena_reset(&b->arena);
    double t0 = bench_now();
    int rc = codec_redis_batch(r, b->items, b->n, &b->arena, NULL);
    double t = bench_now() - t0;
    if (rc != 0)
        return -1;
    for (size_t i = 0; verify && !set && i < b->n; i++)
        if (!same_bytes(b->outs[i].data, b->outs[i].len, p))
            return -1;
    return t > 0 ? (double)b->n / t : -1;
}

/* Batches of sets and gets on one node and on the cluster, alternating
 * rep by rep (load from other programs then falls on both alike); the
 * first rep is a warm-up that verifies every value read back. */
static void run_cluster_batch(extra_cell *x, codec_redis *one, codec_redis *cluster,
                              const codec *c, const bench_profile *prof)
{
    extra_batch b = {.n = extra_items(prof, x->p)};
    b.items = calloc(b.n, sizeof *b.items);
    b.keys = calloc(b.n, sizeof *b.keys);
    b.outs = calloc(b.n, sizeof *b.outs);
    codec_arena_init(&b.arena, NULL, 0);
    x->status = BENCH_FAILED;
    snprintf(x->reason, sizeof x->reason, "out of memory");
    bench_series os = {0}, og = {0}, cs = {0}, cg = {0};
    bool ok = b.items && b.keys && b.outs;
    for (size_t i = 0; ok && i < b.n; i++)
        snprintf(b.keys[i], sizeof b.keys[i], "cb:%zu", i);
    for (int rep = -1; ok && rep < prof->measure_iters; rep++) {
        double v[4] = {timed_batch(one, c, &b, x->p, true, false),
                       timed_batch(one, c, &b, x->p, false, rep < 0),
                       timed_batch(cluster, c, &b, x->p, true, false),
                       timed_batch(cluster, c, &b, x->p, false, rep < 0)};
        ok = v[0] > 0 && v[1] > 0 && v[2] > 0 && v[3] > 0;
        if (!ok)
            snprintf(x->reason, sizeof x->reason, "a batch failed or read back other bytes");
        if (ok && rep >= 0) {
            bench_series_add(&os, v[0]);
            bench_series_add(&og, v[1]);
            bench_series_add(&cs, v[2]);
            bench_series_add(&cg, v[3]);
        }
    }
    if (ok) {
        x->status = BENCH_OK;
        x->items = b.n;
        x->one_set = bench_series_median(&os);
        x->one_get = bench_series_median(&og);
        x->cluster_set = bench_series_median(&cs);
        x->cluster_get = bench_series_median(&cg);
    }
    free(b.items);
    free(b.keys);
    free(b.outs);
    codec_arena_free(&b.arena);
}

/* get latency of one key: a handle with a near cache (every timed get is
 * a hit, checked by its counters) against the runner's handle without
 * (every get a round trip), on the same server. */
static void run_near_get(extra_cell *x, runner *u, int port, const codec *c,
                         const bench_profile *prof)
{
    x->status = BENCH_FAILED;
    runner near = {.out_stride = sizeof(codec_bytes)};
    codec_arena_init(&near.arena, NULL, 0);
    runner trip = near;   /* the suite's handle, with a bytes slot of its own */
    trip.r = u->r;
    codec_arena_init(&trip.arena, NULL, 0);
    codec_redis_options o = {0};
    o.port = port;
    o.command_timeout_ms = 10000;
    codec_error err;
    near.outs = calloc(1, sizeof(codec_bytes));
    trip.outs = calloc(1, sizeof(codec_bytes));
    if (!near.outs || !trip.outs || codec_redis_connect(&o, &near.r, &err) != 0 ||
        codec_redis_enable_near_cache(near.r, NULL, &err) != 0) {
        snprintf(x->reason, sizeof x->reason, "no near cache: %s",
                 near.outs && trip.outs ? err.message : "out of memory");
    } else {
        int n = latency_ops(prof);
        codec_redis_near_stats before, after;
        bool set = op_set(&near, c, "rs:single", x->p) == 0 &&
                   op_get(&near, c, "rs:single", x->p, true) == 0;   /* cached, and checked */
        codec_redis_near_cache_stats(near.r, &before);
        if (!set || time_singles(&near, c, x->p, n, false, &x->hit_p50, &x->hit_p99) ||
            time_singles(&trip, c, x->p, n, false, &x->trip_p50, &x->trip_p99)) {
            snprintf(x->reason, sizeof x->reason, "a get failed");
        } else {
            codec_redis_near_cache_stats(near.r, &after);
            x->hits = after.hits - before.hits;
            if (x->hits >= (uint64_t)n)
                x->status = BENCH_OK;
            else
                snprintf(x->reason, sizeof x->reason, "only %llu of %d gets were near-cache hits",
                         (unsigned long long)x->hits, n);
        }
    }
    codec_redis_free(near.r);
    free(near.outs);
    free(trip.outs);
    codec_arena_free(&near.arena);
    codec_arena_free(&trip.arena);
}

/* Runs the selected scale-out cells: starts the 3-master cluster (each
 * master with a replica, as the tests do) only when a cluster cell is
 * selected. */
static void run_extras(runner *u, int port, const bench_profile *prof)
{
    bool want_cluster = false, any = false;
    for (size_t i = 0; i < NEXTRAS; i++) {
        want_cluster |= extras[i].selected && extras[i].kind == 0;
        any |= extras[i].selected;
    }
    if (!any)
        return;
    codec_error err;
    codec *c = codec_parse(EXTRA_SPEC, NULL, &err);
    redis_cluster k;
    codec_redis *cluster = NULL;
    const char *why = c ? NULL : "the pipeline did not parse";
    if (!why && want_cluster) {
        if (!redis_cluster_start(&k)) {
            why = "the cluster did not start";
        } else {
            char url[128];
            snprintf(url, sizeof url, "redis-cluster://127.0.0.1:%d,127.0.0.1:%d",
                     k.node[0].port, k.node[1].port);
            codec_redis_options o = {0};
            o.url = url;
            o.command_timeout_ms = 10000;
            if (codec_redis_connect(&o, &cluster, &err) != 0)
                why = "could not connect to the cluster";
        }
    }
    for (size_t i = 0; i < NEXTRAS; i++) {
        extra_cell *x = &extras[i];
        if (!x->selected)
            continue;
        if (isatty(2))
            fprintf(stderr, "\r\033[K%s", x->id);
        if (why && (x->kind == 0 || !c)) {
            x->status = BENCH_FAILED;
            snprintf(x->reason, sizeof x->reason, "%s", why);
        } else if (x->kind == 0) {
            run_cluster_batch(x, u->r, cluster, c, prof);
        } else {
            run_near_get(x, u, port, c, prof);
        }
        raw_check(redisCommand(u->raw, "FLUSHALL"), REDIS_REPLY_STATUS);
    }
    if (isatty(2))
        fputs("\r\033[K", stderr);
    codec_redis_free(cluster);
    if (want_cluster)
        redis_cluster_stop(&k);
    codec_free(c);
}

/* Why this machine cannot run the suite, or NULL when it can. */
static const char *unavailable(void)
{
    return access(REDIS_SERVER_PATH, X_OK) != 0 ? "redis-server not found" : NULL;
}

int bench_redis_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                      const char *filter, const char *keyring)
{
    redis_shape shapes[NSHAPES];
    const char *missing = unavailable();
    if (missing) {
        plan_shapes(shapes, filter, missing);
        plan_extras(filter, missing);
        fprintf(stderr, "codec-bench: redis suite not built: %s\n", missing);
        return write_outputs(out_dir, shapes, prof, m, missing) ? 1 : 0;
    }
    plan_shapes(shapes, filter, NULL);
    plan_extras(filter, NULL);
    /* A server that goes away mid-write must be a failed cell, not a
     * SIGPIPE death (codec/redis.h). */
    signal(SIGPIPE, SIG_IGN);
    redis_server srv;
    if (!redis_server_start(&srv, false)) {
        redis_server_stop(&srv);
        write_outputs(out_dir, NULL, prof, m, "redis-server did not start");
        return 1;
    }
    runner u;
    char why[256] = "";
    const char *broken = NULL;
    int failed = 0;
    if (runner_open(&u, srv.port, why, sizeof why) != 0) {
        fprintf(stderr, "codec-bench: redis suite: %s\n", why);
        broken = why;
        failed = 1;
    } else {
        for (size_t s = 0; s < NSHAPES; s++)
            if (shapes[s].any)
                run_shape(&u, &shapes[s], srv.dir, prof, keyring);
        run_extras(&u, srv.port, prof);
    }
    runner_close(&u);
    redis_server_stop(&srv);
    for (size_t s = 0; s < NSHAPES; s++)
        for (size_t i = 0; i < NPIPES; i++)
            if (shapes[s].cells[i].selected && shapes[s].cells[i].status == BENCH_FAILED) {
                fprintf(stderr, "codec-bench: FAILED redis/%s/%s: %s\n",
                        shapes[s].cells[i].pipeline, shapes[s].p->name,
                        shapes[s].cells[i].reason);
                failed = 1;
            }
    for (size_t i = 0; i < NEXTRAS; i++)
        if (extras[i].selected && extras[i].status == BENCH_FAILED) {
            fprintf(stderr, "codec-bench: FAILED %s: %s\n", extras[i].id, extras[i].reason);
            failed = 1;
        }
    if (write_outputs(out_dir, broken ? NULL : shapes, prof, m, broken) != 0)
        failed = 1;
    return failed;
}

#endif

void bench_redis_list(const char *filter)
{
    const char *why = unavailable();
    redis_shape shapes[NSHAPES];
    plan_shapes(shapes, filter, why);
    for (size_t s = 0; s < NSHAPES; s++)
        for (size_t i = 0; i < NPIPES; i++)
            if (shapes[s].cells[i].selected)
                printf("redis/%s/%s\t%s%s\n", shapes[s].cells[i].pipeline, shapes[s].p->name,
                       why ? "not built: " : "ready (redis suite)", why ? why : "");
    plan_extras(filter, why);
    for (size_t i = 0; i < NEXTRAS; i++)
        if (extras[i].selected)
            printf("%s\t%s%s\n", extras[i].id, why ? "not built: " : "ready (redis suite)",
                   why ? why : "");
}
