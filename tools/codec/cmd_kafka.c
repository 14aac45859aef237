/* cmd_kafka.c — `codec kafka produce|consume`: messages of a Kafka topic
 * through a bytes pipeline, in the spirit of kcat (-P/-C): produce encodes
 * each input line (or each FILE) and sends it, waiting for every delivery
 * report; consume decodes each message and writes it out, one a line,
 * reporting the ones that do not decode without stopping. Built only with
 * librdkafka (CODEC_HAVE_KAFKA). */
#ifdef CODEC_HAVE_KAFKA
#define _GNU_SOURCE /* memmem */
#include "cli.h"
#include "cli_verb.h"

#include "codec/kafka.h"
/* librdkafka through libcodec's table, opened on first use like the
 * library's own calls (make_handle opens it): the command does not link
 * librdkafka, so `codec pack` never loads it. */
#define CODEC_DYNLIB_CALLS
#include "kafka/librdkafka_internal.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most -X properties on one command line. */
#define MAX_PROPERTIES 32

static const char usage[] =
    "usage: codec kafka produce -b BROKERS -t TOPIC -p SPEC [OPTIONS] [FILE...]\n"
    "       codec kafka consume -b BROKERS -t TOPIC -p SPEC [OPTIONS]\n"
    "\n"
    "produce encodes each line of standard input (or each whole FILE) through\n"
    "SPEC and sends it as one message, then waits for every delivery report;\n"
    "consume reads the topic's partitions, decodes each message through SPEC\n"
    "and writes it to standard output followed by the delimiter. A message\n"
    "that does not decode is reported on standard error with its topic,\n"
    "partition and offset, and consuming goes on.\n"
    "\n"
    "  -b, --brokers LIST    bootstrap servers, host:port[,host:port...]\n"
    "  -t, --topic TOPIC     the topic\n"
    "  -p, --pipeline SPEC   a bytes pipeline, e.g. 'zstd:3 | base64'\n"
    "  -D, --delimiter TEXT  message delimiter (default a newline; \\n, \\t,\n"
    "                        \\0 understood); produce: '' sends all input as one\n"
    "  -k, --key KEY         produce: the key of every message\n"
    "      --partition N     produce: the partition (default: the partitioner)\n"
    "      --spec-header     produce: write the codec-spec header (SPEC, or\n"
    "                        the --spec-id value)\n"
    "      --spec-id NAME    the pipeline's identity in the header\n"
    "      --require-spec    consume: refuse messages without a codec-spec\n"
    "                        header (one that names another pipeline is\n"
    "                        always refused)\n"
    "  -o, --offset WHERE    consume: beginning (default), end, or a number\n"
    "  -c, --count N         consume: stop after N messages\n"
    "      --idle MS         consume: stop after MS milliseconds without one\n"
    "      --dead-letter T   consume: also send undecodable messages to topic T\n"
    "  -X NAME=VALUE         a librdkafka property (repeatable)\n"
    "  -h, --help            show this text\n"
    "\n"
    "exit codes: 0 ok, 1 a message did not decode, 2 usage, 3 refused by its\n"
    "            codec-spec header, 4 transient (broker, network, delivery)\n"
    "example: printf 'a\\nb\\n' | codec kafka produce -b 127.0.0.1:9092 -t t -p zstd\n";

typedef struct kafka_args {
    bool produce;
    const char *brokers, *topic, *spec, *spec_id, *key, *dead_letter;
    char delimiter[8];
    size_t delimiter_len;
    int32_t partition;
    bool spec_header, require_spec;
    int64_t offset;             /* RD_KAFKA_OFFSET_BEGINNING/END or >= 0 */
    size_t count;
    int idle_ms;
    const char *properties[MAX_PROPERTIES];
    size_t nproperties;
    char **files;
    int nfiles;
} kafka_args;

/* "\n", "\t", "\0" and "\\" as the bytes they name; anything else as is. */
static bool parse_delimiter(const char *text, kafka_args *a)
{
    size_t n = 0;
    for (const char *s = text; *s; s++) {
        char c = *s;
        if (c == '\\' && s[1]) {
            s++;
            c = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s == '0' ? '\0' : *s;
        }
        if (n == sizeof a->delimiter)
            return false;
        a->delimiter[n++] = c;
    }
    a->delimiter_len = n;
    return true;
}

enum { OPT_PARTITION = 256, OPT_SPEC_HEADER, OPT_SPEC_ID, OPT_REQUIRE_SPEC, OPT_IDLE,
       OPT_DEAD_LETTER };

static int parse_option(int opt, const char *value, void *args, char **argv)
{
    kafka_args *a = args;
    long long v;
    switch (opt) {
    case 'b': a->brokers = value; return CLI_EXIT_OK;
    case 't': a->topic = value; return CLI_EXIT_OK;
    case 'p': a->spec = value; return CLI_EXIT_OK;
    case 'k': a->key = value; return CLI_EXIT_OK;
    case OPT_SPEC_ID: a->spec_id = value; return CLI_EXIT_OK;
    case OPT_SPEC_HEADER: a->spec_header = true; return CLI_EXIT_OK;
    case OPT_REQUIRE_SPEC: a->require_spec = true; return CLI_EXIT_OK;
    case OPT_DEAD_LETTER: a->dead_letter = value; return CLI_EXIT_OK;
    case 'D':
        if (!parse_delimiter(value, a))
            return cli_usage_error("kafka", "bad -D '%s': at most 8 bytes", value);
        return CLI_EXIT_OK;
    case OPT_PARTITION:
        if (!cli_parse_whole(value, 0, INT32_MAX, &v))
            return cli_usage_error("kafka", "bad --partition '%s'", value);
        a->partition = (int32_t)v;
        return CLI_EXIT_OK;
    case 'o':
        if (strcmp(value, "beginning") == 0)
            a->offset = RD_KAFKA_OFFSET_BEGINNING;
        else if (strcmp(value, "end") == 0)
            a->offset = RD_KAFKA_OFFSET_END;
        else if (cli_parse_whole(value, 0, INT64_MAX, &v))
            a->offset = v;
        else
            return cli_usage_error("kafka", "bad -o '%s': beginning, end or an offset", value);
        return CLI_EXIT_OK;
    case 'c':
        if (!cli_parse_whole(value, 1, INT64_MAX, &v))
            return cli_usage_error("kafka", "bad -c '%s': at least 1", value);
        a->count = (size_t)v;
        return CLI_EXIT_OK;
    case OPT_IDLE:
        if (!cli_parse_whole(value, 1, INT32_MAX, &v))
            return cli_usage_error("kafka", "bad --idle '%s': milliseconds, at least 1", value);
        a->idle_ms = (int)v;
        return CLI_EXIT_OK;
    case 'X':
        if (!strchr(value, '=') || a->nproperties == MAX_PROPERTIES)
            return cli_usage_error("kafka", "bad -X '%s': NAME=VALUE, at most %d", value,
                                   MAX_PROPERTIES);
        a->properties[a->nproperties++] = value;
        return CLI_EXIT_OK;
    default:
        return cli_option_error("kafka", opt, argv);
    }
}

/* Options only one direction takes. */
static int check_direction(const kafka_args *a)
{
    if (a->produce && (a->require_spec || a->count || a->idle_ms || a->dead_letter ||
                       a->offset != RD_KAFKA_OFFSET_BEGINNING))
        return cli_usage_error("kafka", "-o, -c, --idle, --require-spec and --dead-letter "
                                        "are for 'consume'");
    if (!a->produce && (a->key || a->spec_header || a->partition != RD_KAFKA_PARTITION_UA ||
                        a->nfiles))
        return cli_usage_error("kafka", "-k, --partition, --spec-header and FILE are for "
                                        "'produce'");
    if (!a->brokers || !a->topic || !a->spec)
        return cli_usage_error("kafka", "-b BROKERS, -t TOPIC and -p SPEC are required");
    return CLI_EXIT_OK;
}

/* Returns -1 after --help, else an exit code (0 = go on). */
static int parse_args(int argc, char **argv, kafka_args *a)
{
    static const struct option longs[] = {
        {"brokers", required_argument, NULL, 'b'},   {"topic", required_argument, NULL, 't'},
        {"pipeline", required_argument, NULL, 'p'},  {"delimiter", required_argument, NULL, 'D'},
        {"key", required_argument, NULL, 'k'},       {"offset", required_argument, NULL, 'o'},
        {"count", required_argument, NULL, 'c'},     {"help", no_argument, NULL, 'h'},
        {"partition", required_argument, NULL, OPT_PARTITION},
        {"spec-header", no_argument, NULL, OPT_SPEC_HEADER},
        {"spec-id", required_argument, NULL, OPT_SPEC_ID},
        {"require-spec", no_argument, NULL, OPT_REQUIRE_SPEC},
        {"idle", required_argument, NULL, OPT_IDLE},
        {"dead-letter", required_argument, NULL, OPT_DEAD_LETTER},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->delimiter[0] = '\n';
    a->delimiter_len = 1;
    a->partition = RD_KAFKA_PARTITION_UA;
    a->offset = RD_KAFKA_OFFSET_BEGINNING;
    int verb = 0, rc = cli_verb_select("kafka", usage, "produce", "consume", argc, argv, &verb);
    if (rc)
        return rc;
    a->produce = verb == 0;
    argc--, argv++;
    if ((rc = cli_verb_options(usage, argc, argv, ":b:t:p:D:k:o:c:X:h", longs, parse_option, a)))
        return rc;
    a->files = argv + optind;
    a->nfiles = argc - optind;
    return check_direction(a);
}

/* A librdkafka handle of `type` with the -X properties. */
static int make_handle(const kafka_args *a, rd_kafka_type_t type, rd_kafka_t **out,
                       codec_error *err)
{
    char why[512];
    int rc = codec__dynlib_open(&codec__librdkafka, "kafka", err);
    if (rc)
        return rc;
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    bool ok = rd_kafka_conf_set(conf, "bootstrap.servers", a->brokers, why, sizeof why) ==
              RD_KAFKA_CONF_OK;
    if (type == RD_KAFKA_CONSUMER)
        ok = ok && rd_kafka_conf_set(conf, "group.id", "codec-cli", why, sizeof why) == 0 &&
             rd_kafka_conf_set(conf, "enable.auto.commit", "false", why, sizeof why) == 0;
    for (size_t i = 0; ok && i < a->nproperties; i++) {
        char name[256];
        const char *eq = strchr(a->properties[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - a->properties[i]), a->properties[i]);
        ok = rd_kafka_conf_set(conf, name, eq + 1, why, sizeof why) == RD_KAFKA_CONF_OK;
    }
    if (ok && type == RD_KAFKA_PRODUCER)
        codec_kafka_conf_set_delivery(conf);
    *out = ok ? rd_kafka_new(type, conf, why, sizeof why) : NULL;
    if (*out)
        return 0;
    if (!ok)
        rd_kafka_conf_destroy(conf); /* rd_kafka_new frees it only on success */
    return codec_error_set(err, ok ? CODEC_E_TRANSIENT : CODEC_E_USAGE, 0, "kafka",
                           CODEC_NO_OFFSET, "%s", why);
}

/* ---------------------------------------------------------------------------
 * produce
 * ------------------------------------------------------------------------ */

/* Splits `in` at the delimiter into values (the last one may end without
 * it; an empty input is no message). *out is malloc'ed. */
static int split(const kafka_args *a, const cli_input *in, codec_bytes **out, size_t *n,
                 codec_error *err)
{
    size_t cap = 16, count = 0, d = a->delimiter_len;
    codec_bytes *v = malloc(cap * sizeof *v);
    for (size_t at = 0; v && at < in->len;) {
        const uint8_t *end = d ? memmem(in->data + at, in->len - at, a->delimiter, d) : NULL;
        size_t len = end ? (size_t)(end - (in->data + at)) : in->len - at;
        if (count == cap) {
            codec_bytes *grown = realloc(v, (cap *= 2) * sizeof *v);
            if (!grown)
                free(v);
            v = grown;
            if (!v)
                break;
        }
        v[count++] = (codec_bytes){in->data + at, len};
        at += len + (end ? d : 0);
    }
    *out = v;
    *n = count;
    return v ? 0 : codec_error_set(err, CODEC_E_NOMEM, 0, "kafka", CODEC_NO_OFFSET,
                                   "out of memory");
}

/* Reads standard input (split) or each FILE (whole) into values. */
static int read_values(const kafka_args *a, cli_input *inputs, codec_bytes **values,
                       size_t *n, codec_error *err)
{
    if (!a->nfiles) {
        int rc = cli_read_input(NULL, CLI_DEFAULT_MAX_INPUT, &inputs[0], err);
        return rc ? rc : split(a, &inputs[0], values, n, err);
    }
    *values = malloc((size_t)a->nfiles * sizeof **values);
    if (!*values)
        return codec_error_set(err, CODEC_E_NOMEM, 0, "kafka", CODEC_NO_OFFSET, "out of memory");
    for (int i = 0; i < a->nfiles; i++) {
        int rc = cli_read_input(a->files[i], CLI_DEFAULT_MAX_INPUT, &inputs[i], err);
        if (rc)
            return rc;
        (*values)[i] = (codec_bytes){inputs[i].data, inputs[i].len};
        *n = (size_t)i + 1;
    }
    return 0;
}

/* @return 0, a status (err filled), or minus the exit code once every
 * failed message was reported. */
static int produce(const kafka_args *a, const codec *c, codec_error *err)
{
    cli_input *inputs = calloc(a->nfiles ? (size_t)a->nfiles : 1, sizeof *inputs);
    codec_bytes *values = NULL;
    codec_kafka_record *recs = NULL;
    rd_kafka_t *rk = NULL;
    size_t n = 0;
    int rc = inputs ? read_values(a, inputs, &values, &n, err)
                    : codec_error_set(err, CODEC_E_NOMEM, 0, "kafka", CODEC_NO_OFFSET,
                                      "out of memory");
    if (!rc && !(recs = calloc(n ? n : 1, sizeof *recs)))
        rc = codec_error_set(err, CODEC_E_NOMEM, 0, "kafka", CODEC_NO_OFFSET, "out of memory");
    if (!rc)
        rc = make_handle(a, RD_KAFKA_PRODUCER, &rk, err);
    if (!rc) {
        for (size_t i = 0; i < n; i++)
            recs[i] = (codec_kafka_record){.partition = a->partition, .key = a->key,
                                           .key_len = a->key ? strlen(a->key) : 0,
                                           .value = &values[i]};
        codec_kafka_produce_options o = {.topic = a->topic, .spec_header = a->spec_header,
                                         .spec_id = a->spec_id};
        rc = codec_kafka_produce(rk, c, &o, recs, n, err);
        size_t failed = 0;
        for (size_t i = 0; rc && i < n; i++)
            if (recs[i].status) {   /* every failure, not only the first */
                cli_fail(&recs[i].error);
                failed++;
            }
        if (failed) {
            fprintf(stderr, "codec: kafka: %zu of %zu messages not delivered\n", failed, n);
            rc = -cli_exit_code(rc);
        }
    }
    if (rk)
        rd_kafka_destroy(rk);
    for (int i = 0; inputs && i < (a->nfiles ? a->nfiles : 1); i++)
        cli_input_free(&inputs[i]);
    free(inputs);
    free(values);
    free(recs);
    return rc;
}

/* ---------------------------------------------------------------------------
 * consume
 * ------------------------------------------------------------------------ */

typedef struct consume_state {
    const kafka_args *a;
    int worst;            /* the exit code of the worst failure so far */
    codec_error output;   /* a failed write to standard output */
} consume_state;

static int on_value(void *ctx, const rd_kafka_message_t *m, void *value, size_t which)
{
    (void)m, (void)which;
    consume_state *s = ctx;
    const codec_bytes *v = value;
    if (fwrite(v->data, 1, v->len, stdout) != v->len ||
        fwrite(s->a->delimiter, 1, s->a->delimiter_len, stdout) != s->a->delimiter_len ||
        fflush(stdout) != 0)
        return codec_error_set(&s->output, CODEC_E_TRANSIENT, CODEC_D_IO, "output",
                               CODEC_NO_OFFSET, "cannot write standard output");
    return 0;
}

static int on_failure(void *ctx, const codec_kafka_failure *f)
{
    consume_state *s = ctx;
    int code = cli_fail(&f->error);
    if (f->dead_letter_status > 0)
        code = cli_fail(&f->dead_letter_error);
    else if (f->dead_letter_status == 0)
        fprintf(stderr, "codec: kafka: sent to %s\n", s->a->dead_letter);
    if (code > s->worst)
        s->worst = code;
    return 0;
}

/* Assigns every partition of the topic at the starting offset. */
static int assign_all(const kafka_args *a, rd_kafka_t *rk, codec_error *err)
{
    const rd_kafka_metadata_t *md;
    rd_kafka_topic_t *t = rd_kafka_topic_new(rk, a->topic, NULL);
    rd_kafka_resp_err_t e = rd_kafka_metadata(rk, 0, t, &md, 10000);
    rd_kafka_topic_destroy(t);
    if (e)
        return codec_error_set(err, CODEC_E_TRANSIENT, 0, "kafka", CODEC_NO_OFFSET,
                               "metadata of '%s': %s", a->topic, rd_kafka_err2str(e));
    int rc = 0;
    if (md->topic_cnt != 1 || md->topics[0].err || !md->topics[0].partition_cnt)
        rc = codec_error_set(err, CODEC_E_NOT_FOUND, 0, "kafka", CODEC_NO_OFFSET,
                             "topic '%s': %s", a->topic,
                             rd_kafka_err2str(md->topic_cnt ? md->topics[0].err : e));
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
    for (int i = 0; !rc && i < md->topics[0].partition_cnt; i++)
        rd_kafka_topic_partition_list_add(l, a->topic, md->topics[0].partitions[i].id)
            ->offset = a->offset;
    if (!rc && (e = rd_kafka_assign(rk, l)))
        rc = codec_error_set(err, CODEC_E_TRANSIENT, 0, "kafka", CODEC_NO_OFFSET,
                             "assign: %s", rd_kafka_err2str(e));
    rd_kafka_topic_partition_list_destroy(l);
    rd_kafka_metadata_destroy(md);
    return rc;
}

/* @return as produce(). */
static int consume(const kafka_args *a, const codec *c, codec_error *err)
{
    rd_kafka_t *rk = NULL, *dead = NULL;
    int rc = make_handle(a, RD_KAFKA_CONSUMER, &rk, err);
    if (!rc && a->dead_letter)
        rc = make_handle(a, RD_KAFKA_PRODUCER, &dead, err);
    if (!rc)
        rc = assign_all(a, rk, err);
    consume_state s = {a, CLI_EXIT_OK, {0}};
    if (!rc) {
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        codec_bytes value;
        const codec *codecs[] = {c};
        const char *ids[] = {a->spec_id};
        codec_kafka_consume_options o = {
            .decoder = {codecs, ids, 1,
                        a->require_spec ? CODEC_KAFKA_SPEC_REQUIRE : CODEC_KAFKA_SPEC_MATCH},
            .value = &value, .arena = &arena, .on_value = on_value, .on_failure = on_failure,
            .ctx = &s, .dead_letter_producer = dead, .dead_letter_topic = a->dead_letter,
            .max_messages = a->count, .idle_timeout_ms = a->idle_ms};
        rc = codec_kafka_consume(rk, &o, err);
        if (rc == CODEC_E_TRANSIENT && s.output.family)
            *err = s.output;
        codec_arena_free(&arena);
        rd_kafka_consumer_close(rk);
    }
    if (rk)
        rd_kafka_destroy(rk);
    if (dead)
        rd_kafka_destroy(dead);
    return rc ? rc : s.worst ? -s.worst : 0;
}

int cmd_kafka(int argc, char **argv)
{
    kafka_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    codec_error err;
    codec *c = codec_parse(a.spec, NULL, &err);
    if (!c)
        return cli_fail(&err);
    rc = a.produce ? produce(&a, c, &err) : consume(&a, c, &err);
    codec_free(c);
    if (rc < 0)
        return -rc; /* the messages' failures were reported one by one */
    return rc ? cli_fail(&err) : CLI_EXIT_OK;
}
#endif /* CODEC_HAVE_KAFKA */
