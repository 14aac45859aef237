/* test_bench_harness.c — the harness verifies before it times.
 *
 * A deliberately broken driver (codec's hex pipeline whose decode flips one
 * byte, or whose encode fails) must be reported "failed" after exactly one
 * encode and one decode: never timed. A spec this build cannot parse is
 * "not built" and never encoded. A sound cell is timed, with the number of
 * samples the profile asks for and allocation counts per operation. A
 * decode-only cell (the json suite's validators) is never encoded, and its
 * decode must hand the document back. The JSON peers' cells round-trip in
 * every mode they claim, and the text forms they share read back. */
#include "check.h"
#include "drivers.h"
#include "harness.h"
#include "peers/peer.h"

static int encodes, decodes;
static uint8_t corrupted[1 << 16];

static int counting_encode(void *w, const bench_payload *p, const uint8_t **out, size_t *len)
{
    encodes++;
    return bench_driver_codec.encode(w, p, out, len);
}

static int counting_decode(void *w, const uint8_t *in, size_t n, const uint8_t **out,
                           size_t *len)
{
    decodes++;
    return bench_driver_codec.decode(w, in, n, out, len);
}

static int flipping_decode(void *w, const uint8_t *in, size_t n, const uint8_t **out,
                           size_t *len)
{
    decodes++;
    if (bench_driver_codec.decode(w, in, n, out, len) != 0 || *len > sizeof corrupted)
        return -1;
    memcpy(corrupted, *out, *len);
    corrupted[*len / 2] ^= 0x20;
    *out = corrupted;
    return 0;
}

static int failing_encode(void *w, const bench_payload *p, const uint8_t **out, size_t *len)
{
    (void)w, (void)p, (void)out, (void)len;
    encodes++;
    return -1;
}

/* A driver in the shape of a typed one: decode hands back no bytes, and
 * `matches` judges the decoded value afterwards. */
static const uint8_t *held;
static size_t held_len;
static bool corrupt_held;

static int holding_decode(void *w, const uint8_t *in, size_t n, const uint8_t **out,
                          size_t *len)
{
    decodes++;
    if (bench_driver_codec.decode(w, in, n, &held, &held_len) != 0)
        return -1;
    *out = NULL;
    *len = 0;
    return 0;
}

static int held_matches(void *w, const bench_payload *p)
{
    (void)w;
    if (corrupt_held && held_len > 0) {
        memcpy(corrupted, held, held_len);
        corrupted[0] ^= 1;
        held = corrupted;
    }
    return held_len == p->len && memcmp(held, p->bytes, p->len) == 0;
}

static bench_cell make_cell(const bench_driver *d, const char *spec, const char *payload)
{
    bench_cell c;
    memset(&c, 0, sizeof c);
    snprintf(c.suite, sizeof c.suite, "test");
    snprintf(c.group, sizeof c.group, "%s", spec);
    snprintf(c.spec, sizeof c.spec, "%s", spec);
    c.driver = d;
    c.payload = bench_payload_find(payload);
    return c;
}

static const bench_profile FAST = {"test", 1, 3, 0.01, 0, 1, 0};

static void test_broken_decode_is_never_timed(void)
{
    bench_driver broken = bench_driver_codec;
    broken.name = "broken";
    broken.encode = counting_encode;
    broken.decode = flipping_decode;
    bench_cell c = make_cell(&broken, "hex", "medium");
    encodes = decodes = 0;
    bench_run_cell(&c, &FAST);
    CHECK_INT(c.status, BENCH_FAILED);
    CHECK(strstr(c.reason, "differs") != NULL);
    CHECK_INT(encodes, 1);
    CHECK_INT(decodes, 1);
    CHECK_INT(c.enc.n, 0);
    CHECK_INT(c.dec.n, 0);
}

static void test_failing_encode_is_never_timed(void)
{
    bench_driver broken = bench_driver_codec;
    broken.name = "broken";
    broken.encode = failing_encode;
    broken.decode = counting_decode;
    bench_cell c = make_cell(&broken, "hex", "small");
    encodes = decodes = 0;
    bench_run_cell(&c, &FAST);
    CHECK_INT(c.status, BENCH_FAILED);
    CHECK_INT(encodes, 1);
    CHECK_INT(decodes, 0);
    CHECK_INT(c.enc.n, 0);
}

static void test_matches_hook_judges_the_round_trip(void)
{
    bench_driver typed = bench_driver_codec;
    typed.name = "typed";
    typed.encode = counting_encode;
    typed.decode = holding_decode;
    typed.matches = held_matches;
    bench_cell good = make_cell(&typed, "hex", "small");
    corrupt_held = false;
    bench_run_cell(&good, &FAST);
    CHECK_INT(good.status, BENCH_OK);
    CHECK_INT(good.dec.n, 3);
    bench_cell bad = make_cell(&typed, "hex", "small");
    corrupt_held = true;
    encodes = decodes = 0;
    bench_run_cell(&bad, &FAST);
    CHECK_INT(bad.status, BENCH_FAILED);
    CHECK_INT(encodes, 1);
    CHECK_INT(decodes, 1);
}

static void test_unparsable_spec_is_not_built(void)
{
    bench_driver counting = bench_driver_codec;
    counting.encode = counting_encode;
    counting.decode = counting_decode;
    bench_cell c = make_cell(&counting, "no-such-stage:3", "small");
    encodes = decodes = 0;
    bench_run_cell(&c, &FAST);
    CHECK_INT(c.status, BENCH_NOT_BUILT);
    CHECK(strstr(c.reason, "no-such-stage") != NULL);
    CHECK_INT(encodes, 0);
    CHECK_INT(decodes, 0);
    /* a bytes pipeline cannot carry a typed value */
    bench_cell t = make_cell(&counting, "hex", "person");
    bench_run_cell(&t, &FAST);
    CHECK_INT(t.status, BENCH_NOT_BUILT);
    CHECK(strstr(t.reason, "backend") != NULL);
    CHECK_INT(encodes, 0);
}

/* A typed decode whose input was altered decodes fine; only the rendering
 * of the decoded value against the payload catches it. */
static int altering_decode(void *w, const uint8_t *in, size_t n, const uint8_t **out,
                           size_t *len)
{
    decodes++;
    if (n > sizeof corrupted)
        return -1;
    memcpy(corrupted, in, n);
    uint8_t *a = memchr(corrupted, 'A', n);   /* "Ada" -> "Bda", still valid */
    if (a)
        *a = 'B';
    return bench_driver_codec.decode(w, corrupted, n, out, len);
}

/* Every typed payload round-trips through every registered backend that
 * can express it, verified by rendering; the sizes are those of the bench's
 * own --dump (JSON) and of protoc (protobuf). */
static void test_typed_cells(void)
{
    static const struct { const char *spec, *payload; size_t len; } SIZES[] = {
        {"json", "person", 72},       {"protobuf", "person", 35},
        {"json", "order", 9096},      {"protobuf", "order", 4815},
        {"protobuf", "media-content", 301}, {"protobuf", "struct", 73},
        {"json", "media-item", 487},  {"json", "media-content", 586},
        {"json", "struct", 149},
    };
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        bench_cell c = make_cell(&bench_driver_codec, SIZES[i].spec, SIZES[i].payload);
        CHECK_INT(bench_check_cell(&c), BENCH_OK);
        CHECK_INT(c.encoded_len, SIZES[i].len);
        CHECK_INT(c.encoded_len == c.payload->len, strcmp(SIZES[i].spec, "json") == 0);
    }
    static const char *const SPECS[] = {"json", "json | zstd:3", "fory:consistent",
                                        "fory:compatible | lz4"};
    for (size_t k = 0; k < bench_payload_count(); k++) {
        const bench_payload *p = bench_payload_at(k);
        for (size_t i = 0; p->model && i < sizeof SPECS / sizeof SPECS[0]; i++) {
            bench_cell c = make_cell(&bench_driver_codec, SPECS[i], p->name);
            bench_status st = bench_check_cell(&c);
            /* Fory has no UUID mapping: Clients is "not built" there */
            if (st == BENCH_NOT_BUILT && strstr(c.reason, "no Fory mapping"))
                continue;
            CHECK_INT(st, BENCH_OK);
            if (st != BENCH_OK)
                fprintf(stderr, "%s on %s: %s\n", SPECS[i], p->name, c.reason);
        }
    }
    bench_driver altering = bench_driver_codec;
    altering.decode = altering_decode;
    bench_cell bad = make_cell(&altering, "json", "person");
    decodes = 0;
    bench_run_cell(&bad, &FAST);
    CHECK_INT(bad.status, BENCH_FAILED);
    CHECK_INT(decodes, 1);
    CHECK_INT(bad.enc.n, 0);
    /* a timed typed cell: no allocation in steady state, on both sides */
    bench_cell ok = make_cell(&bench_driver_codec, "protobuf", "order");
    bench_run_cell(&ok, &FAST);
    CHECK_INT(ok.status, BENCH_OK);
    CHECK_INT(ok.dec.n, 3);
    CHECK(ok.enc_allocs.codec_calls == 0);
}

static void test_sound_cell_is_timed(void)
{
    bench_profile prof = FAST;
    prof.threads = 2;
    bench_cell c = make_cell(&bench_driver_codec, "hex", "medium");
    bench_run_cell(&c, &prof);
    CHECK_INT(c.status, BENCH_OK);
    CHECK_INT(c.encoded_len, 2 * 8338);
    CHECK_INT(c.enc.n, 3);
    CHECK_INT(c.dec.n, 3);
    CHECK(bench_series_min(&c.enc) > 0);
    CHECK(bench_series_min(&c.enc) <= bench_series_median(&c.enc));
    CHECK(bench_series_median(&c.enc) <= bench_series_max(&c.enc));
    /* steady state: codec's buffer and arena have grown, nothing is allocated */
    CHECK(c.enc_allocs.codec_calls == 0);
    CHECK(c.dec_allocs.codec_calls == 0);
    if (bench_heap_counting())
        CHECK(c.enc_allocs.heap_calls == 0);
    else
        CHECK(c.enc_allocs.heap_calls < 0);
    CHECK_INT(c.scale_threads, 2);
    CHECK(c.scale_enc[0].ops_s > 0 && c.scale_enc[1].ops_s > 0 && c.scale_dec[1].ops_s > 0);
    /* one thread against itself in the same round is exactly 1 */
    CHECK(c.scale_enc[0].speedup == 1 && c.scale_dec[0].speedup == 1);
    CHECK(c.scale_enc[1].speedup > 0 && c.scale_dec[1].speedup > 0);
    CHECK(c.scale_enc[0].cpu_ns > 0 && c.scale_dec[1].cpu_ns > 0);
}

/* The heap counter sees allocations made anywhere in the process. */
static void test_heap_counter(void)
{
    if (!bench_heap_counting())
        return;
    bench_alloc_tally a = bench_heap_tally();
    void *volatile p = malloc(1000);
    free(p);
    bench_alloc_tally b = bench_heap_tally();
    CHECK_INT(b.calls - a.calls, 1);
    CHECK_INT(b.bytes - a.bytes, 1000);
}

static void test_series(void)
{
    bench_series s = {{0}, 0};
    CHECK(bench_series_median(&s) == 0);
    double v[] = {5, 1, 4, 2};
    for (int i = 0; i < 4; i++)
        bench_series_add(&s, v[i]);
    CHECK(bench_series_median(&s) == 3);
    CHECK(bench_series_min(&s) == 1);
    CHECK(bench_series_max(&s) == 5);
    bench_series_add(&s, 3.5);
    CHECK(bench_series_median(&s) == 3.5);
}

/* The typed peers built here round-trip every payload they map (checked by
 * rendering, as codec's cells are) and produce the reference sizes. */
static void test_typed_peers(void)
{
    static const char *const PAYLOADS[] = {"person", "order", "media-item", "media-content",
                                           "struct"};
    static const char *const SPECS[] = {"json", "protobuf", "msgpack", "cbor"};
    static const char *const TYPED[] = {"cjson", "json-c", "jansson", "yajl", "simdjson",
                                        "protobuf-c", "protobuf-cpp", "msgpack-c", "libcbor"};
    for (size_t i = 0; i < bench_peer_count(); i++) {
        int ok = 0;
        for (size_t k = 0; k < 5; k++)
            for (size_t j = 0; j < 4; j++) {
                bench_cell c = make_cell(bench_peer_at(i), SPECS[j], PAYLOADS[k]);
                bench_status st = bench_check_cell(&c);
                CHECK(st != BENCH_FAILED);
                if (st == BENCH_FAILED)
                    fprintf(stderr, "%s %s on %s: %s\n", c.driver->name, SPECS[j],
                            PAYLOADS[k], c.reason);
                ok += st == BENCH_OK;
                if (st == BENCH_OK && j < 2 && strcmp(PAYLOADS[k], "person") == 0)
                    CHECK_INT(c.encoded_len, j == 0 ? 72 : 35);
                if (st == BENCH_OK && j == 1 && strcmp(PAYLOADS[k], "order") == 0)
                    CHECK_INT(c.encoded_len, 4815);
            }
        /* a typed peer maps at least person, order and struct */
        for (size_t t = 0; t < sizeof TYPED / sizeof TYPED[0]; t++)
            if (strcmp(bench_peer_at(i)->name, TYPED[t]) == 0)
                CHECK(ok >= 3);
    }
}

/* The codec-gen-fory cells (the Fory functions codec-gen generates from
 * bench/fory_models.fdl): every payload in consistent mode, Person and
 * Struct in compatible mode (the others hold structs there: not built),
 * each with the codec cell's bytes. */
static void test_fory_codegen_cells(void)
{
    const bench_driver *d = bench_driver_find("codec-gen-fory");
    if (!d)
        return;
    static const char *const PAYLOADS[] = {"person", "order", "media-item", "media-content",
                                           "struct"};
    static const char *const SPECS[] = {"fory:consistent", "fory:compatible"};
    for (size_t k = 0; k < 5; k++)
        for (size_t j = 0; j < 2; j++) {
            bench_cell g = make_cell(d, SPECS[j], PAYLOADS[k]);
            bench_cell c = make_cell(&bench_driver_codec, SPECS[j], PAYLOADS[k]);
            bool taken = j == 0 || k == 0 || k == 4;
            bench_status sg = bench_check_cell(&g), sc = bench_check_cell(&c);
            CHECK(sc == BENCH_OK);
            CHECK(sg == (taken ? BENCH_OK : BENCH_NOT_BUILT));
            if (sg != (taken ? BENCH_OK : BENCH_NOT_BUILT))
                fprintf(stderr, "codec-gen-fory %s on %s: %s\n", SPECS[j], PAYLOADS[k], g.reason);
            if (sg == BENCH_OK && sc == BENCH_OK)
                CHECK_INT(g.encoded_len, c.encoded_len);
        }
    bench_cell other = make_cell(d, "protobuf", "person");
    CHECK(bench_check_cell(&other) == BENCH_NOT_BUILT);
}

static int shortening_decode(void *w, const uint8_t *in, size_t n, const uint8_t **out,
                             size_t *len)
{
    decodes++;
    int rc = bench_driver_codec_validate.decode(w, in, n, out, len);
    *len -= *len > 0;
    return rc;
}

static int tampering_decode(void *w, const uint8_t *in, size_t n, const uint8_t **out,
                            size_t *len)
{
    static uint8_t copy[4096];
    if (n > sizeof copy)
        return -1;
    memcpy(copy, in, n);
    /* a letter inside the first string value: still valid JSON */
    uint8_t *q = memchr(copy, ':', n);
    if (q && q[1] == '[')
        q = memchr(q + 1, ':', n - (size_t)(q + 1 - copy));
    if (q && q[1] == '"')
        q[2] ^= 1;
    return bench_driver_codec_stream.decode(w, copy, n, out, len);
}

static void test_decode_only_cells(void)
{
    bench_driver counting = bench_driver_codec_validate;
    counting.encode = counting_encode;
    bench_cell c = make_cell(&counting, BENCH_CODEC_VALIDATE_SPEC, "twitter");
    c.decode_only = true;
    encodes = 0;
    bench_run_cell(&c, &FAST);
    CHECK_INT(c.status, BENCH_OK);
    CHECK_INT(encodes, 0);
    CHECK_INT(c.enc.n, 0);
    CHECK_INT(c.dec.n, 3);
    CHECK(c.enc_allocs.heap_calls < 0 && c.dec_allocs.codec_calls == 0);

    bench_driver shortening = bench_driver_codec_validate;
    shortening.decode = shortening_decode;
    bench_cell bad = make_cell(&shortening, BENCH_CODEC_VALIDATE_SPEC, "twitter");
    bad.decode_only = true;
    decodes = 0;
    bench_run_cell(&bad, &FAST);
    CHECK_INT(bad.status, BENCH_FAILED);
    CHECK_INT(decodes, 1);
}

/* A stream cell compares the decoded tokens with the payload's. */
static void test_stream_cells(void)
{
    bench_cell c = make_cell(&bench_driver_codec_stream, BENCH_CODEC_STREAM_SPEC, "users-1k");
    bench_run_cell(&c, &FAST);
    CHECK_INT(c.status, BENCH_OK);
    CHECK_INT(c.encoded_len, c.payload->len);
    bench_driver tampering = bench_driver_codec_stream;
    tampering.decode = tampering_decode;
    bench_cell bad = make_cell(&tampering, BENCH_CODEC_STREAM_SPEC, "users-1k");
    bench_run_cell(&bad, &FAST);
    CHECK_INT(bad.status, BENCH_FAILED);
}

/* Every JSON peer in every mode on Users, Clients and twitter.json: a cell
 * is built and round-trips, or is not built; none fails. */
static void test_json_peers(void)
{
    static const char *const PAYLOADS[] = {"users-1k", "clients-1k", "twitter"};
    static const char *const SPECS[] = {"json", "dom", "validate", "stream"};
    static const char *const JSON[] = {"cjson", "json-c", "jansson", "yajl", "simdjson"};
    for (size_t d = 0; d < sizeof JSON / sizeof JSON[0]; d++) {
        const bench_driver *drv = bench_driver_find(JSON[d]);
        int ok = 0;
        for (size_t k = 0; drv && k < 3; k++)
            for (size_t j = 0; j < 4; j++) {
                bench_cell c = make_cell(drv, SPECS[j], PAYLOADS[k]);
                c.decode_only = j == 2;
                bench_status st = bench_check_cell(&c);
                CHECK(st != BENCH_FAILED);
                if (st == BENCH_FAILED)
                    fprintf(stderr, "%s %s on %s: %s\n", JSON[d], SPECS[j], PAYLOADS[k],
                            c.reason);
                ok += st == BENCH_OK;
            }
        /* each maps Users or Clients, or reads the documents */
        CHECK(!drv || ok >= 2);
    }
}

/* One decode-only cell of twitter-typed's model on payload p; a driver not
 * in this build is skipped. */
static void check_twitter_cell(const char *driver, const char *spec, const bench_payload *p,
                               bench_status want)
{
    const bench_driver *drv = bench_driver_find(driver);
    if (!drv)
        return;
    bench_cell c = make_cell(drv, spec, "twitter-typed");
    c.payload = p;
    c.decode_only = true;
    CHECK_INT(bench_check_cell(&c), want);
}

/* twitter.json bound to structs, decode-only on the document itself: codec
 * and the peers that map it agree with the payload's value (simdjson both
 * On-Demand, "json", and through its DOM, "dom"); cJSON (numbers as
 * doubles) and yajl do not map it, and the other tree peers' "dom" cells
 * read only the documents. A decoded value that differs fails; so does a
 * document invalid where the model does not read, but for On-Demand,
 * which checks only what it reads (why simdjson has the DOM cell too). */
static void test_twitter_databind(void)
{
    const bench_payload *p = bench_payload_find("twitter-typed");
    check_twitter_cell("codec", "json", p, BENCH_OK);
    check_twitter_cell("simdjson", "json", p, BENCH_OK);
    check_twitter_cell("simdjson", "dom", p, BENCH_OK);
    check_twitter_cell("json-c", "json", p, BENCH_OK);
    check_twitter_cell("jansson", "json", p, BENCH_OK);
    check_twitter_cell("cjson", "json", p, BENCH_NOT_BUILT);
    check_twitter_cell("yajl", "json", p, BENCH_NOT_BUILT);
    check_twitter_cell("json-c", "dom", p, BENCH_NOT_BUILT);
    check_twitter_cell("simdjson", "validate", p, BENCH_NOT_BUILT);

    /* the same decode compared with another payload's value */
    bench_payload other = *p;
    bench_twitter changed = *(const bench_twitter *)other.value;
    changed.search_metadata.count++;
    other.value = &changed;
    codec_buf b;
    codec_buf_init(&b, NULL);
    CHECK_INT(bench_payload_render(&other, &changed, &b), 0);
    other.rendered = b.data;
    other.rendered_len = b.len;
    check_twitter_cell("codec", "json", &other, BENCH_FAILED);
    check_twitter_cell("simdjson", "json", &other, BENCH_FAILED);
    check_twitter_cell("simdjson", "dom", &other, BENCH_FAILED);
    codec_buf_free(&b);

    /* a status's "contributors" (not in the model) made an invalid literal */
    static const char MEMBER[] = "\"contributors\": null";
    const size_t n = strlen(MEMBER);
    size_t at = 0;
    while (at + n <= p->len && memcmp(p->bytes + at, MEMBER, n) != 0)
        at++;
    uint8_t *bad = malloc(p->len);
    CHECK(bad != NULL && at + n <= p->len);
    if (bad && at + n <= p->len) {
        memcpy(bad, p->bytes, p->len);
        bad[at + n - 1] = 'x';   /* null -> nulx */
        bench_payload invalid = *p;
        invalid.bytes = bad;
        check_twitter_cell("codec", "json", &invalid, BENCH_FAILED);
        check_twitter_cell("simdjson", "dom", &invalid, BENCH_FAILED);
        check_twitter_cell("simdjson", "json", &invalid, BENCH_OK);
    }
    free(bad);
}

static void test_text_forms(void)
{
    char t[PEER_UUID_LEN + 1];   /* the longest form */
    bench_uuid u = {{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x42, 0xd3, 0xa4, 0x56, 0x42, 0x66,
                     0x14, 0x17, 0x40, 0x00}}, v;
    CHECK_INT(peer_uuid_text(&u, t), PEER_UUID_LEN);
    CHECK(strcmp(t, "123e4567-e89b-42d3-a456-426614174000") == 0);
    CHECK(peer_uuid_parse(t, PEER_UUID_LEN, &v) && memcmp(&u, &v, 16) == 0);
    CHECK(!peer_uuid_parse("123e4567-e89b-42d3-a456_426614174000", PEER_UUID_LEN, &v));
    CHECK(!peer_uuid_parse(t, PEER_UUID_LEN - 1, &v));
    bench_date d = {-25567}, e;   /* 1900-01-01 */
    CHECK_INT(peer_date_text(d, t), PEER_DATE_LEN);
    CHECK(strcmp(t, "1900-01-01") == 0);
    CHECK(peer_date_parse(t, PEER_DATE_LEN, &e) && e.days == d.days);
    CHECK(!peer_date_parse("2009-02-29", PEER_DATE_LEN, &e));
    bench_timestamp ts = {2147483647, 0, 0}, back;
    CHECK_INT(peer_timestamp_text(&ts, t), PEER_TIMESTAMP_LEN);
    CHECK(strcmp(t, "2038-01-19T03:14:07Z") == 0);
    CHECK(peer_timestamp_parse(t, PEER_TIMESTAMP_LEN, &back) && back.seconds == ts.seconds);
    CHECK(!peer_timestamp_parse("2038-01-19T03:14:07+01:00", 25, &back));
    CHECK(!peer_timestamp_parse("2038-01-19T24:14:07Z", PEER_TIMESTAMP_LEN, &back));
    CHECK_INT(peer_enum_index(peer_eye_colors, 3, "GREEN", 5), 2);
    CHECK_INT(peer_enum_index(peer_eye_colors, 3, "GREE", 4), -1);
    CHECK_INT(peer_balance_from_double(123456.78, t, sizeof t), 9);
    CHECK(strcmp(t, "123456.78") == 0);
}

int main(void)
{
    CHECK_INT(bench_payloads_init(), 0);
    test_series();
    test_heap_counter();
    test_broken_decode_is_never_timed();
    test_failing_encode_is_never_timed();
    test_unparsable_spec_is_not_built();
    test_matches_hook_judges_the_round_trip();
    test_sound_cell_is_timed();
    test_typed_cells();
    test_typed_peers();
    test_fory_codegen_cells();
    test_decode_only_cells();
    test_stream_cells();
    test_json_peers();
    test_twitter_databind();
    test_text_forms();
    bench_payloads_free();
    return check_done("test_bench_harness");
}
