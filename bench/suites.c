/* suites.c — which cells each suite holds. */
#include "suites.h"

#include "codec/codec.h"
#include "drivers.h"
#include "payloads/jrandom.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const bench_suite_names[] = {"compression", "encodings", "backends", "crypto",
                                         "kv",          "json",      "media",    "cold",
                                         "redis",       "kafka",     "cli"};
const size_t bench_suite_count = sizeof bench_suite_names / sizeof bench_suite_names[0];

/* A row of a comparison: codec's spec and the peers doing the same work. */
typedef struct peer_ref {
    const char *driver;
    const char *spec;
} peer_ref;

typedef struct group {
    const char *name;
    const char *codec_spec;
    peer_ref peers[5];
} group;

/* Peers at the level codec's stage uses: gzip and deflate default to 6
 * (zlib and the JDK); brotli's default quality is 11. libdeflate is a
 * different DEFLATE encoder at the same nominal level: the speed floor. */
static const group COMPRESSION[] = {
    {"gzip", "gzip", {{"zlib", "gzip:6"}, {"libdeflate", "gzip:6"}, {"jdk", "gzip"}}},
    {"deflate:1", "deflate:1", {{"zlib", "zlib:1"}, {"libdeflate", "zlib:1"}, {"jdk", "deflate:1"}}},
    {"deflate:6", "deflate:6", {{"zlib", "zlib:6"}, {"libdeflate", "zlib:6"}, {"jdk", "deflate:6"}}},
    {"deflate:9", "deflate:9", {{"zlib", "zlib:9"}, {"libdeflate", "zlib:9"}, {"jdk", "deflate:9"}}},
    {"zstd:1", "zstd:1", {{"zstd", "1"}}},
    {"zstd:3", "zstd:3", {{"zstd", "3"}}},
    {"zstd:9", "zstd:9", {{"zstd", "9"}}},
    {"zstd:19", "zstd:19", {{"zstd", "19"}}},
    {"lz4", "lz4", {{"lz4", "frame"}}},
    {"lz4hc", "lz4hc", {{"lz4", "hc"}}},
    {"snappy", "snappy", {{"snappy", "raw"}}},
    {"brotli", "brotli", {{"brotli", "11"}}},
};

static const group ENCODINGS[] = {
    {"base64", "base64", {{"jdk", "base64"}}},
    {"base32", "base32", {{NULL, NULL}}},
    {"hex", "hex", {{"jdk", "hex"}}},
    {"crc32c", "crc32c", {{"jdk", "crc32c"}, {"kernel", "crc32c"}}},
};

/* The crc32c cell decoded by codec_decode_view() (bench_driver_codec_view:
 * the body checked where it is), against the kernel alone. */
static const group CRC32C_VIEW = {"crc32c-view", "crc32c", {{"kernel", "crc32c"}}};

/* The backends, with the peers doing the same work from the same C structs;
 * a format this build does not register is not listed (backend_registered),
 * so cbor and msgpack cells appear as soon as their stages are merged. */
static const group FORMATS[] = {
    {"json", "json", {{"cjson", "json"}, {"json-c", "json"}, {"jansson", "json"}, {"yajl", "json"}, {"simdjson", "json"}}},
    {"protobuf", "protobuf", {{"protobuf-c", "protobuf"}, {"protobuf-cpp", "protobuf"},
                              {"codec-gen", "protobuf"}, {"codec-gen-desc", "protobuf"}}},
    {"cbor", "cbor", {{"libcbor", "cbor"}}},
    {"msgpack", "msgpack", {{"msgpack-c", "msgpack"}}},
    {"fory:consistent", "fory:consistent", {{"codec-gen-fory", "fory:consistent"}}},
    {"fory:compatible", "fory:compatible", {{"codec-gen-fory", "fory:compatible"}}},
};
#define FORMAT_COUNT (sizeof FORMATS / sizeof FORMATS[0])

static const char *const KV_VALUES[] = {"kv-int64",   "kv-string",  "kv-bean",
                                        "kv-nested",  "kv-strings", "kv-bean-map"};
/* Each format plain and behind these compressors. */
static const char *const KV_WRAPS[] = {NULL, "zstd:3", "lz4"};
static const char *const KV_BYTES[] = {"kv-logs", "kv-prose", "kv-letters"};

static const char *const COLD_SPECS[] = {"gzip",   "deflate:6", "zstd:3", "lz4",
                                         "snappy", "brotli",    "base64", "hex", "crc32c"};

/* Backend cells are listed only for the formats this build registers:
 * there are five formats and many payloads, and the report should not
 * drown in formats nobody has built yet. Transform cells are always listed. */
static bool backend_registered(const char *spec)
{
    size_t n = strcspn(spec, " |:");
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *s = codec_registry_info(i);
        if (s->kind == CODEC_KIND_BACKEND && strlen(s->name) == n &&
            strncmp(s->name, spec, n) == 0)
            return true;
    }
    return false;
}

bool bench_suite_known(const char *suite)
{
    for (size_t i = 0; i < bench_suite_count; i++)
        if (strcmp(bench_suite_names[i], suite) == 0)
            return true;
    return false;
}

static bool matches(const char *filter, const char *id)
{
    return !filter || fnmatch(filter, id, 0) == 0 || strstr(id, filter) != NULL;
}

/* Adds one cell of driver d (NULL: a peer not in this build) unless the
 * filter rejects it; `name` is the cell's bench_cell.name (NULL: none). */
static int add_cell_of(bench_plan *p, const char *suite, const char *group_name,
                       const bench_driver *d, const char *name, const char *spec,
                       const char *payload, const char *filter, bool decode_only)
{
    const bench_payload *pl = bench_payload_find(payload);
    if (!d || !pl)
        return 0;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        bench_cell *c = realloc(p->cells, cap * sizeof *c);
        if (!c)
            return -1;
        p->cells = c;
        p->cap = cap;
    }
    bench_cell *c = &p->cells[p->n];
    memset(c, 0, sizeof *c);
    snprintf(c->suite, sizeof c->suite, "%s", suite);
    snprintf(c->group, sizeof c->group, "%s", group_name);
    snprintf(c->spec, sizeof c->spec, "%s", spec);
    snprintf(c->name, sizeof c->name, "%s", name ? name : "");
    c->driver = d;
    c->payload = pl;
    c->cold = strcmp(suite, "cold") == 0;
    c->decode_only = decode_only;
    char id[256];
    bench_cell_id(c, id, sizeof id);
    if (matches(filter, id))
        p->n++;
    return 0;
}

/* A cell of the driver named `driver`, skipped when this build lacks it. */
static int add_cell(bench_plan *p, const char *suite, const char *group_name,
                    const char *driver, const char *spec, const char *payload,
                    const char *filter)
{
    return add_cell_of(p, suite, group_name, bench_driver_find(driver), NULL, spec, payload,
                       filter, false);
}

/* The group's cells, its codec cell run by driver `mine`. */
static int add_group_of(bench_plan *p, const char *suite, const group *g,
                        const bench_driver *mine, const char *payload, const char *filter)
{
    const bench_payload *pl = bench_payload_find(payload);
    if (!pl || (pl->model && !backend_registered(g->codec_spec)))
        return 0;   /* a document file that is absent, or a format not merged */
    if (add_cell_of(p, suite, g->name, mine, NULL, g->codec_spec, payload, filter, false) != 0)
        return -1;
    for (size_t i = 0; i < sizeof g->peers / sizeof g->peers[0] && g->peers[i].driver; i++)
        if (add_cell(p, suite, g->name, g->peers[i].driver, g->peers[i].spec, payload,
                     filter) != 0)
            return -1;
    return 0;
}

static int add_group(bench_plan *p, const char *suite, const group *g, const char *payload,
                     const char *filter)
{
    return add_group_of(p, suite, g, &bench_driver_codec, payload, filter);
}

/* Two AES-256 keys in the key-ring format "<id> <64 hex>", one per line,
 * in a file only the owner can read. */
static int write_keyring(bench_plan *p)
{
    if (p->keyring[0])
        return 0;
    snprintf(p->keyring, sizeof p->keyring, "/tmp/codec-bench-keys-XXXXXX");
    int fd = mkstemp(p->keyring);
    if (fd < 0 || fchmod(fd, 0600) != 0) {
        if (fd >= 0)
            close(fd), unlink(p->keyring);
        p->keyring[0] = 0;
        return -1;
    }
    jrandom r;
    jrandom_seed(&r, BENCH_SEED);
    char text[2 * 80];
    size_t len = 0;
    for (int id = 1; id <= 2; id++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "%d ", id);
        for (int i = 0; i < 32; i++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%02x",
                                    jrandom_next_int(&r, 256));
        text[len++] = '\n';
    }
    int ok = write(fd, text, len) == (ssize_t)len;
    close(fd);
    return ok ? 0 : -1;
}

static int add_compression(bench_plan *p, const char *filter)
{
    static const char *const PAYLOADS[] = {"small", "medium", "large"};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof COMPRESSION / sizeof COMPRESSION[0]; i++)
            if (add_group(p, "compression", &COMPRESSION[i], PAYLOADS[k], filter) != 0)
                return -1;
    return 0;
}

static int add_encodings(bench_plan *p, const char *filter)
{
    static const char *const PAYLOADS[] = {"medium", "large"};
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < sizeof ENCODINGS / sizeof ENCODINGS[0]; i++)
            if (add_group(p, "encodings", &ENCODINGS[i], PAYLOADS[k], filter) != 0)
                return -1;
        if (add_group_of(p, "encodings", &CRC32C_VIEW, &bench_driver_codec_view, PAYLOADS[k],
                         filter) != 0)
            return -1;
    }
    return 0;
}

static int add_crypto(bench_plan *p, const char *filter)
{
    if (write_keyring(p) != 0)
        return -1;
    char direct[128], bounded[128];
    snprintf(direct, sizeof direct, "envelope:keyring=%s", p->keyring);
    snprintf(bounded, sizeof bounded, "envelope:keyring=%s,strategy=bounded", p->keyring);
    static const char *const PAYLOADS[] = {"small", "medium"};
    for (size_t k = 0; k < 2; k++)
        if (add_cell(p, "crypto", "envelope-direct", "codec", direct, PAYLOADS[k], filter) ||
            add_cell(p, "crypto", "envelope-bounded", "codec", bounded, PAYLOADS[k], filter))
            return -1;
    return 0;
}

static int add_formats(bench_plan *p, const char *suite, const char *const *payloads,
                       size_t n, const char *filter)
{
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < FORMAT_COUNT; i++)
            if (add_group(p, suite, &FORMATS[i], payloads[k], filter) != 0)
                return -1;
    return 0;
}

static int add_kv(bench_plan *p, const char *filter)
{
    for (size_t k = 0; k < sizeof KV_VALUES / sizeof KV_VALUES[0]; k++)
        for (size_t i = 0; i < FORMAT_COUNT; i++)
            for (size_t w = 0; w < sizeof KV_WRAPS / sizeof KV_WRAPS[0]; w++) {
                char name[64], spec[96];
                const char *f = FORMATS[i].codec_spec;
                if (KV_WRAPS[w])
                    snprintf(name, sizeof name, "%s|%s", f, KV_WRAPS[w]),
                        snprintf(spec, sizeof spec, "%s | %s", f, KV_WRAPS[w]);
                else
                    snprintf(name, sizeof name, "%s", f), snprintf(spec, sizeof spec, "%s", f);
                group g = {name, spec, {{NULL, NULL}}};
                if (add_group(p, "kv", &g, KV_VALUES[k], filter) != 0)
                    return -1;
            }
    /* the compression section: wrappers on the three redundancy shapes */
    static const size_t WRAPS[] = {0, 5, 8, 10}; /* gzip, zstd:3, lz4, snappy */
    for (size_t k = 0; k < sizeof KV_BYTES / sizeof KV_BYTES[0]; k++)
        for (size_t i = 0; i < sizeof WRAPS / sizeof WRAPS[0]; i++)
            if (add_group(p, "kv", &COMPRESSION[WRAPS[i]], KV_BYTES[k], filter) != 0)
                return -1;
    return 0;
}

/* The json suite (PAYLOADS.md §5, §6): per payload, codec first in each
 * group and the peers doing the same work under it. The stream and
 * validate groups' codec cells are codec's descriptor-free JSON API
 * (codec_json_api.c). */
static const group JSON_DOM = {
    "dom", "json",
    {{"cjson", "dom"}, {"json-c", "dom"}, {"jansson", "dom"}, {"simdjson", "dom"}}};
/* A peer of the groups below, with the cell's name when its group holds
 * its driver twice (bench_cell.name; NULL: the driver's). */
typedef struct api_peer {
    const char *driver;
    const char *spec;
    const char *name;
} api_peer;
static const api_peer JSON_STREAM_PEERS[] = {{"yajl", "stream", NULL},
                                             {"simdjson", "stream", NULL}};
static const api_peer JSON_VALIDATE_PEERS[] = {{"yajl", "validate", NULL},
                                               {"simdjson", "validate", NULL}};
/* twitter.json bound to structs: codec's JSON backend and the peers that
 * parse and map by hand, reading the document itself (decode only).
 * simdjson twice: On-Demand checks only the values it reads, its DOM parse
 * checks the whole document, as codec's decoder does. */
static const api_peer JSON_TWITTER_PEERS[] = {{"simdjson", "json", "simdjson-ondemand"},
                                              {"simdjson", "dom", "simdjson-dom"},
                                              {"cjson", "json", NULL},
                                              {"json-c", "json", NULL},
                                              {"jansson", "json", NULL}};

/* codec's API cell `d` on `payload`, then the peers `refs`. */
static int add_api_group(bench_plan *p, const char *group_name, const bench_driver *d,
                         const char *spec, const api_peer *refs, size_t n, const char *payload,
                         const char *filter, bool decode_only)
{
    if (add_cell_of(p, "json", group_name, d, NULL, spec, payload, filter, decode_only) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (add_cell_of(p, "json", group_name, bench_driver_find(refs[i].driver), refs[i].name,
                        refs[i].spec, payload, filter, decode_only) != 0)
            return -1;
    return 0;
}

static int add_json(bench_plan *p, const char *filter)
{
    static const char *const MODELS[] = {"users-1k",   "users-10k",   "users-100k",
                                         "users-1000k", "clients-1k", "clients-10k",
                                         "clients-100k", "clients-1000k"};
    static const char *const DOCUMENTS[] = {"twitter", "citm_catalog", "canada"};
    group databind = FORMATS[0];   /* json and its peers, as in backends */
    databind.name = "databind";
    const size_t ns = sizeof JSON_STREAM_PEERS / sizeof JSON_STREAM_PEERS[0];
    const size_t nv = sizeof JSON_VALIDATE_PEERS / sizeof JSON_VALIDATE_PEERS[0];
    for (size_t k = 0; k < sizeof MODELS / sizeof MODELS[0]; k++)
        if (add_group(p, "json", &databind, MODELS[k], filter) != 0 ||
            add_api_group(p, "stream", &bench_driver_codec_stream, BENCH_CODEC_STREAM_SPEC,
                          JSON_STREAM_PEERS, ns, MODELS[k], filter, false) != 0)
            return -1;
    if (backend_registered("json") &&
        add_api_group(p, "databind", &bench_driver_codec, "json", JSON_TWITTER_PEERS,
                      sizeof JSON_TWITTER_PEERS / sizeof JSON_TWITTER_PEERS[0],
                      "twitter-typed", filter, true) != 0)
        return -1;
    for (size_t k = 0; k < sizeof DOCUMENTS / sizeof DOCUMENTS[0]; k++)
        if (bench_payload_find(DOCUMENTS[k]) &&
            (add_group(p, "json", &JSON_DOM, DOCUMENTS[k], filter) != 0 ||
             add_api_group(p, "validate", &bench_driver_codec_validate,
                           BENCH_CODEC_VALIDATE_SPEC, JSON_VALIDATE_PEERS, nv, DOCUMENTS[k],
                           filter, true) != 0))
            return -1;
    return 0;
}

static int add_cold(bench_plan *p, const char *filter)
{
    for (size_t i = 0; i < sizeof COLD_SPECS / sizeof COLD_SPECS[0]; i++)
        if (add_cell(p, "cold", COLD_SPECS[i], "codec", COLD_SPECS[i], "medium", filter) != 0)
            return -1;
    return backend_registered("json") ? add_cell(p, "cold", "json", "codec", "json", "person", filter)
                                      : 0;
}

int bench_plan_add_suite(bench_plan *p, const char *suite, const char *filter)
{
    static const char *const BACKEND_PAYLOADS[] = {"person", "order"};
    static const char *const MEDIA_PAYLOADS[] = {"media-item", "media-content", "struct"};
    if (strcmp(suite, "compression") == 0)
        return add_compression(p, filter);
    if (strcmp(suite, "encodings") == 0)
        return add_encodings(p, filter);
    if (strcmp(suite, "crypto") == 0)
        return add_crypto(p, filter);
    if (strcmp(suite, "backends") == 0)
        return add_formats(p, "backends", BACKEND_PAYLOADS, 2, filter);
    if (strcmp(suite, "media") == 0)
        return add_formats(p, "media", MEDIA_PAYLOADS, 3, filter);
    if (strcmp(suite, "kv") == 0)
        return add_kv(p, filter);
    if (strcmp(suite, "json") == 0)
        return add_json(p, filter);
    if (strcmp(suite, "cold") == 0)
        return add_cold(p, filter);
    if (strcmp(suite, "redis") == 0) /* bench/suite_redis.c runs it; it needs the key ring */
        return write_keyring(p);
    if (strcmp(suite, "kafka") == 0) /* bench/suite_kafka.c runs it */
        return 0;
    if (strcmp(suite, "cli") == 0) /* bench/suite_cli.c runs it */
        return 0;
    return -1;
}

void bench_plan_free(bench_plan *p)
{
    if (p->keyring[0])
        unlink(p->keyring);
    free(p->cells);
    memset(p, 0, sizeof *p);
}
