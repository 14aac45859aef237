/* suite_kafka.c — the `kafka` suite (see suite_kafka.h). */
#include "suite_kafka.h"

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

#ifdef CODEC_HAVE_KAFKA
#include "codec/kafka.h"

#include <librdkafka/rdkafka_mock.h>
#endif

#define SHAPE "order"
/* The mock keeps about 5 MB per partition and drops older messages: spread
 * the 9 KB orders over enough partitions that none is dropped. */
#define PARTITIONS 8
#define BROKER_NOTE                                                                    \
    "librdkafka's mock cluster in process (3 brokers on 127.0.0.1): compare pipelines " \
    "by the ratios; the absolute rates are not a Kafka cluster's"

static const char *const BACKENDS[] = {"json", "protobuf", "fory"};
#define NBACKENDS (sizeof BACKENDS / sizeof BACKENDS[0])
#define NCELLS (2 * NBACKENDS) /* each backend plain, then with zstd:3 */

typedef struct kafka_cell {
    char pipeline[32];       /* "protobuf|zstd:3" */
    char spec[32];           /* "protobuf | zstd:3" */
    bool selected;
    int status;              /* BENCH_OK, BENCH_NOT_BUILT, BENCH_FAILED */
    char reason[256];
    size_t value_bytes, header_bytes;
    double produce, consume; /* messages/s, median of the repetitions */
} kafka_cell;

static const char *status_name(int s)
{
    return s == BENCH_OK ? "ok" : s == BENCH_NOT_BUILT ? "not built" : "failed";
}

static void plan_cells(kafka_cell *cells, const char *filter, const char *not_built)
{
    memset(cells, 0, NCELLS * sizeof *cells);
    for (size_t i = 0; i < NCELLS; i++) {
        kafka_cell *c = &cells[i];
        const char *b = BACKENDS[i % NBACKENDS];
        bool zstd = i >= NBACKENDS;
        snprintf(c->pipeline, sizeof c->pipeline, "%s%s", b, zstd ? "|zstd:3" : "");
        snprintf(c->spec, sizeof c->spec, "%s%s", b, zstd ? " | zstd:3" : "");
        char id[64];
        snprintf(id, sizeof id, "kafka/%s/" SHAPE, c->pipeline);
        c->selected = !filter || fnmatch(filter, id, 0) == 0 || strstr(id, filter) != NULL;
        if (not_built) {
            c->status = BENCH_NOT_BUILT;
            snprintf(c->reason, sizeof c->reason, "%s", not_built);
        }
    }
}

/* A cell's figure as a ratio to the plain json cell's (0: no json cell). */
static double ratio(double v, const kafka_cell *cells, size_t which)
{
    const kafka_cell *json = &cells[0];
    if (json->status != BENCH_OK || !json->selected)
        return 0;
    double base = which == 0 ? json->produce : which == 1 ? json->consume
                                                           : (double)json->value_bytes;
    return base > 0 ? v / base : 0;
}

/* ---------------------------------------------------------------------------
 * Reports
 * ------------------------------------------------------------------------ */

static int write_json(codec_buf *b, const kafka_cell *cells, size_t messages,
                      const bench_profile *prof, const bench_machine *m, const char *not_built)
{
    json_out j;
    jo_init(&j, b);
    jo_begin_object(&j);
    jo_key(&j, "suite"), jo_string(&j, "kafka");
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
    jo_key(&j, "broker"), jo_string(&j, BROKER_NOTE);
    jo_key(&j, "shape"), jo_string(&j, SHAPE);
    jo_key(&j, "messages"), jo_int(&j, (int64_t)messages);
    jo_key(&j, "cells");
    jo_begin_array(&j);
    for (size_t i = 0; i < NCELLS; i++) {
        const kafka_cell *c = &cells[i];
        if (!c->selected)
            continue;
        jo_begin_object(&j);
        jo_key(&j, "pipeline"), jo_string(&j, c->pipeline);
        jo_key(&j, "spec"), jo_string(&j, c->spec);
        jo_key(&j, "status"), jo_string(&j, status_name(c->status));
        if (c->status != BENCH_OK) {
            jo_key(&j, "reason"), jo_string(&j, c->reason);
        } else {
            jo_key(&j, "value_bytes"), jo_int(&j, (int64_t)c->value_bytes);
            jo_key(&j, "header_bytes"), jo_int(&j, (int64_t)c->header_bytes);
            jo_key(&j, "produce_msgs_per_s"), jo_double(&j, c->produce);
            jo_key(&j, "consume_msgs_per_s"), jo_double(&j, c->consume);
            jo_key(&j, "produce_vs_json"), jo_double(&j, ratio(c->produce, cells, 0));
            jo_key(&j, "consume_vs_json"), jo_double(&j, ratio(c->consume, cells, 1));
            jo_key(&j, "bytes_vs_json"), jo_double(&j, ratio((double)c->value_bytes, cells, 2));
        }
        jo_end_object(&j);
    }
    jo_end_array(&j);
    jo_end_object(&j);
    return j.failed || codec_buf_append(b, "\n", 1) ? -1 : 0;   /* -1: out of memory */
}

/* A spec in a Markdown table cell, its `|` escaped. */
static void md_spec(FILE *f, const char *spec)
{
    for (; *spec; spec++)
        fprintf(f, "%s%c", *spec == '|' ? "\\" : "", *spec);
}

static void write_md(FILE *f, const kafka_cell *cells, size_t messages,
                     const bench_profile *prof, const bench_machine *m, const char *not_built)
{
    fprintf(f, "# codec-bench kafka suite\n\n**Machine:** %s, %d cores, %s, %s (profile %s)\n\n",
            m->cpu, m->cores, m->host, m->date, prof->name);
    if (not_built) {
        fprintf(f, "not built: %s\n", not_built);
        return;
    }
    fprintf(f, "**Broker:** %s.\n\nThe typed `%s` value, %zu messages per repetition; "
               "produce includes the delivery reports (idempotent), consume the decoding.\n\n"
               "| pipeline | value B | header B | produce × json | consume × json "
               "| bytes × json | produce msg/s | consume msg/s |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|\n",
            BROKER_NOTE, SHAPE, messages);
    for (size_t i = 0; i < NCELLS; i++) {
        const kafka_cell *c = &cells[i];
        if (!c->selected)
            continue;
        fputs("| `", f);
        md_spec(f, c->spec);
        if (c->status != BENCH_OK) {
            fprintf(f, "` | %s: %s |||||||\n", status_name(c->status), c->reason);
            continue;
        }
        fprintf(f, "` | %zu | %zu | %.2f | %.2f | %.2f | %.0f | %.0f |\n", c->value_bytes, c->header_bytes, ratio(c->produce, cells, 0),
                ratio(c->consume, cells, 1), ratio((double)c->value_bytes, cells, 2),
                c->produce, c->consume);
    }
    fputc('\n', f);
}

static int write_outputs(const char *dir, const kafka_cell *cells, size_t messages,
                         const bench_profile *prof, const bench_machine *m,
                         const char *not_built)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        return -1;
    char path[1024];
    codec_buf b;
    codec_buf_init(&b, NULL);
    int made = write_json(&b, cells, messages, prof, m, not_built);
    snprintf(path, sizeof path, "%s/kafka.json", dir);
    FILE *f = fopen(path, "wb");
    int rc = made == 0 && f && fwrite(b.data, 1, b.len, f) == b.len ? 0 : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    codec_buf_free(&b);
    snprintf(path, sizeof path, "%s/kafka.md", dir);
    if (!(f = fopen(path, "w")))
        return -1;
    write_md(f, cells, messages, prof, m, not_built);
    return fclose(f) != 0 ? -1 : rc;
}

#ifdef CODEC_HAVE_KAFKA
static void print_table(const kafka_cell *cells)
{
    printf("kafka suite (%s)\n%-18s %8s %10s %10s %12s %12s\n", BROKER_NOTE, "pipeline",
           "value B", "produce×", "consume×", "produce/s", "consume/s");
    for (size_t i = 0; i < NCELLS; i++) {
        const kafka_cell *c = &cells[i];
        if (!c->selected)
            continue;
        if (c->status != BENCH_OK)
            printf("%-18s %s: %s\n", c->pipeline, status_name(c->status), c->reason);
        else
            printf("%-18s %8zu %10.2f %10.2f %12.0f %12.0f\n", c->pipeline, c->value_bytes,
                   ratio(c->produce, cells, 0), ratio(c->consume, cells, 1), c->produce,
                   c->consume);
    }
}

/* ---------------------------------------------------------------------------
 * Measuring
 * ------------------------------------------------------------------------ */

typedef struct runner {
    rd_kafka_t *owner;                /* holds the mock cluster */
    rd_kafka_mock_cluster_t *cluster;
    rd_kafka_t *producer;
    const bench_payload *p;
    const codec_type *type;
    codec_kafka_record *recs;
    size_t n;
    codec_buf scratch;                /* a decoded value rendered to JSON */
    /* consume-side tally */
    size_t values, wrong;
    double first, last;               /* bench_now() of the first and last value */
} runner;

static bool set_all(rd_kafka_conf_t *conf, const char *const *kv, char *why, size_t cap)
{
    for (; *kv; kv += 2)
        if (rd_kafka_conf_set(conf, kv[0], kv[1], why, cap) != RD_KAFKA_CONF_OK)
            return false;
    return true;
}

static rd_kafka_t *new_handle(runner *u, rd_kafka_type_t type, const char *const *kv,
                              char *why, size_t cap)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    const char *common[] = {"log_level", "3", "bootstrap.servers",
                            u->cluster ? rd_kafka_mock_cluster_bootstraps(u->cluster) : "",
                            NULL};
    if (!set_all(conf, common, why, cap) || !set_all(conf, kv, why, cap)) {
        rd_kafka_conf_destroy(conf);
        return NULL;
    }
    if (type == RD_KAFKA_PRODUCER)
        codec_kafka_conf_set_delivery(conf);
    return rd_kafka_new(type, conf, why, cap);
}

static int runner_open(runner *u, size_t n, char *why, size_t cap)
{
    memset(u, 0, sizeof *u);
    codec_buf_init(&u->scratch, NULL);
    static const char *const none[] = {NULL};
    static const char *const producer[] = {
        "enable.idempotence", "true", "linger.ms", "5", "batch.num.messages", "10000",
        "queue.buffering.max.messages", "1000000", NULL};
    u->owner = new_handle(u, RD_KAFKA_PRODUCER, none, why, cap);
    u->cluster = u->owner ? rd_kafka_mock_cluster_new(u->owner, 3) : NULL;
    u->producer = u->cluster ? new_handle(u, RD_KAFKA_PRODUCER, producer, why, cap) : NULL;
    u->p = bench_payload_find(SHAPE);
    u->type = u->p ? bench_model_type(u->p) : NULL;
    u->recs = calloc(n, sizeof *u->recs);
    u->n = n;
    if (u->producer && u->type && u->recs)
        return 0;
    if (!u->cluster)
        snprintf(why, cap, "cannot start librdkafka's mock cluster");
    else if (!u->type || !u->recs)
        snprintf(why, cap, "no typed '%s' payload, or out of memory", SHAPE);
    return -1;
}

static void runner_close(runner *u)
{
    if (u->producer)
        rd_kafka_destroy(u->producer);
    if (u->cluster)
        rd_kafka_mock_cluster_destroy(u->cluster);
    if (u->owner)
        rd_kafka_destroy(u->owner);
    free(u->recs);
    codec_buf_free(&u->scratch);
}

static int on_value(void *ctx, const rd_kafka_message_t *m, void *value, size_t which)
{
    (void)m, (void)which;
    runner *u = ctx;
    u->last = bench_now();
    if (u->values++ == 0) {   /* render the first value of each repetition */
        u->first = u->last;
        codec_buf_clear(&u->scratch);
        if (bench_payload_render(u->p, value, &u->scratch) != 0 ||
            u->scratch.len != u->p->rendered_len ||
            memcmp(u->scratch.data, u->p->rendered, u->p->rendered_len) != 0)
            u->wrong++;
    }
    return 0;
}

static int on_failure(void *ctx, const codec_kafka_failure *f)
{
    (void)f;
    ((runner *)ctx)->wrong++;
    return 0;
}

/* Consumes topic's n messages; sets *rate (messages/s between the first
 * and the last value). */
static int consume_topic(runner *u, const codec *c, const char *topic, double *rate,
                         char *why, size_t cap)
{
    /* no waiting on a partition with nothing new while others have data */
    static const char *const consumer[] = {"group.id", "codec-bench", "enable.auto.commit",
                                           "false", "fetch.wait.max.ms", "10", NULL};
    rd_kafka_t *k = new_handle(u, RD_KAFKA_CONSUMER, consumer, why, cap);
    if (!k)
        return -1;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(PARTITIONS);
    for (int p = 0; p < PARTITIONS; p++)
        rd_kafka_topic_partition_list_add(l, topic, p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    rd_kafka_assign(k, l);
    rd_kafka_topic_partition_list_destroy(l);
    void *value = calloc(1, u->type->size);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    const codec *codecs[] = {c};
    codec_kafka_consume_options o = {
        .decoder = {.codecs = codecs, .count = 1, .check = CODEC_KAFKA_SPEC_REQUIRE},
        .value = value, .arena = &arena, .on_value = on_value, .on_failure = on_failure,
        .ctx = u, .max_messages = u->n, .idle_timeout_ms = 10000};
    u->values = u->wrong = 0;
    codec_error err;
    int rc = value ? codec_kafka_consume(k, &o, &err) : CODEC_E_NOMEM;
    if (rc || u->values != u->n || u->wrong)
        snprintf(why, cap, "consume: %zu of %zu values, %zu wrong%s%s", u->values, u->n,
                 u->wrong, rc ? ": " : "", rc ? err.message : "");
    *rate = u->last > u->first ? (double)(u->n - 1) / (u->last - u->first) : 0;
    codec_arena_free(&arena);
    free(value);
    rd_kafka_consumer_close(k);
    rd_kafka_destroy(k);
    return rc || u->values != u->n || u->wrong ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run_cell(runner *u, kafka_cell *cell, const bench_profile *prof)
{
    codec_error err;
    codec *c = codec_parse(cell->spec, u->type, &err);
    codec_buf b;
    codec_buf_init(&b, NULL);
    if (!c || codec_encode(c, u->p->value, &b, &err)) {
        cell->status = BENCH_FAILED;
        snprintf(cell->reason, sizeof cell->reason, "%s", err.message);
        codec_free(c);
        return;
    }
    cell->value_bytes = b.len;
    cell->header_bytes = strlen(CODEC_KAFKA_SPEC_HEADER) + strlen(codec_spec(c));
    codec_buf_free(&b);
    for (size_t i = 0; i < u->n; i++)
        u->recs[i] = (codec_kafka_record){.partition = (int32_t)(i % PARTITIONS),
                                          .value = u->p->value};
    double produce[16], consume[16];
    int reps = prof->measure_iters < 16 ? prof->measure_iters : 16;
    cell->status = BENCH_OK;
    for (int rep = -1; rep < reps && cell->status == BENCH_OK; rep++) { /* -1: warm-up */
        char topic[64];
        snprintf(topic, sizeof topic, "bench-%s-%d", cell->pipeline, rep + 1);
        for (char *s = topic; *s; s++)
            if (*s == '|' || *s == ':')
                *s = '_';
        rd_kafka_mock_topic_create(u->cluster, topic, PARTITIONS, 3);
        codec_kafka_produce_options o = {.topic = topic, .spec_header = 1};
        double t0 = bench_now();
        int rc = codec_kafka_produce(u->producer, c, &o, u->recs, u->n, &err);
        double rate = (double)u->n / (bench_now() - t0);
        if (rc) {
            cell->status = BENCH_FAILED;
            snprintf(cell->reason, sizeof cell->reason, "produce: %s", err.message);
        } else if (consume_topic(u, c, topic, rep >= 0 ? &consume[rep] : &(double){0},
                                 cell->reason, sizeof cell->reason)) {
            cell->status = BENCH_FAILED;
        } else if (rep >= 0) {
            produce[rep] = rate;
        }
    }
    if (cell->status == BENCH_OK) {
        qsort(produce, (size_t)reps, sizeof *produce, cmp_double);
        qsort(consume, (size_t)reps, sizeof *consume, cmp_double);
        cell->produce = produce[reps / 2];
        cell->consume = consume[reps / 2];
    }
    codec_free(c);
}

/* Messages per repetition. */
static size_t messages_for(const bench_profile *prof)
{
    return strcmp(prof->name, "quick") == 0 ? 1000 : 3000;
}

int bench_kafka_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                      const char *filter)
{
    kafka_cell cells[NCELLS];
    size_t n = messages_for(prof);
    char why[256] = "";
    runner u;
    int failed = 0;
    plan_cells(cells, filter, NULL);
    if (runner_open(&u, n, why, sizeof why) != 0) {
        fprintf(stderr, "codec-bench: kafka suite: %s\n", why);
        plan_cells(cells, filter, why);
        failed = 1;
    } else {
        for (size_t i = 0; i < NCELLS; i++) {
            if (!cells[i].selected)
                continue;
            run_cell(&u, &cells[i], prof);
            if (cells[i].status != BENCH_OK) {
                fprintf(stderr, "codec-bench: FAILED kafka/%s/" SHAPE ": %s\n",
                        cells[i].pipeline, cells[i].reason);
                failed = 1;
            }
        }
    }
    runner_close(&u);
    print_table(cells);
    if (write_outputs(out_dir, cells, n, prof, m, NULL) != 0) {
        perror(out_dir);
        failed = 1;
    }
    return failed;
}
#else
int bench_kafka_suite(const char *out_dir, const bench_profile *prof, const bench_machine *m,
                      const char *filter)
{
    static const char why[] = "codec was built without librdkafka";
    kafka_cell cells[NCELLS];
    plan_cells(cells, filter, why);
    fprintf(stderr, "codec-bench: kafka suite not built: %s\n", why);
    return write_outputs(out_dir, cells, 0, prof, m, why) != 0;
}
#endif
