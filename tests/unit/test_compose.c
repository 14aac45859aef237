/* test_compose.c — the codec handle, the spec parser, chaining, the size
 * gate and allocation-free steady-state encoding. */
#include "check.h"
#include "codec/codec.h"
#include "compose/stage_internal.h"

/* A counting allocator: every call goes to libc and is counted. */
typedef struct {
    size_t allocs, resizes, releases;
} counts;

static void *count_alloc(void *ctx, size_t n)
{
    ((counts *)ctx)->allocs++;
    return malloc(n);
}
static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)old;
    ((counts *)ctx)->resizes++;
    return realloc(p, n);
}
static void count_release(void *ctx, void *p, size_t n)
{
    (void)n;
    ((counts *)ctx)->releases++;
    free(p);
}

static int expect_usage(const char *spec, const char *stage, const char *needle)
{
    codec_error err = {0};
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    if (strcmp(err.stage, stage) != 0) {
        fprintf(stderr, "spec '%s': stage '%s', expected '%s'\n", spec, err.stage, stage);
        CHECK(0);
    }
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "spec '%s': message '%s' lacks '%s'\n", spec, err.message, needle);
        CHECK(0);
    }
    codec_free(c);
    return 0;
}

static void test_spec_errors(void)
{
    expect_usage("", "spec", "empty spec");
    expect_usage("hex |", "spec", "empty stage");
    expect_usage("nosuch", "spec", "unknown stage 'nosuch'");
    expect_usage("hex:purple", "hex", "expected one of lower, upper");
    expect_usage("hex:case=upper,size=3", "hex", "unknown key 'size'");
    expect_usage("hex:upper,lower", "hex", "only the first argument");
    expect_usage("hex:case=upper,case=lower", "hex", "given twice");
    expect_usage("hex x", "spec", "unexpected 'x'");
}

static void test_spec_normalised(void)
{
    codec_error err;
    codec *c = codec_parse("  hex:upper|hex  |   hex:case=lower ", NULL, &err);
    CHECK(c != NULL);
    CHECK_STR(codec_spec(c), "hex:upper | hex | hex:case=lower");
    CHECK_INT(codec_stage_count(c), 3);
    codec_free(c);
}

/* Runs bytes through `spec` and back, returning the encoded length. */
static size_t round_trip(const char *spec, const uint8_t *data, size_t n, const char *expect)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    if (!c)
        return 0;
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK(codec_buf_append(&out, "PREFIX", 6) == 0); /* encode appends: the prefix must survive */
    codec_bytes in = {data, n};
    CHECK_INT(codec_encode(c, &in, &out, &err), 0);
    CHECK(memcmp(out.data, "PREFIX", 6) == 0);
    if (expect)
        CHECK_MEM(out.data + 6, out.len - 6, expect, strlen(expect));
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back = {0};
    CHECK_INT(codec_decode(c, out.data + 6, out.len - 6, &back, &arena, &err), 0);
    CHECK_MEM(back.data, back.len, data, n);
    size_t len = out.len - 6;
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    return len;
}

static void test_pipelines(void)
{
    const uint8_t abc[] = {0x00, 0xab, 0xff};
    round_trip("hex", abc, 3, "00abff");
    round_trip("hex:upper", abc, 3, "00ABFF");
    round_trip("hex | hex", abc, 3, "303061626666");
    round_trip("hex | hex | hex", abc, 3, "333033303631363236363636");
    round_trip("hex | hex | hex | hex", abc, 0, "");
}

static void test_decode_error_reports_stage(void)
{
    codec_error err;
    codec *c = codec_parse("hex | hex", NULL, &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    /* outer layer fine ("3g" is not hex at the inner layer, offset 1) */
    CHECK_INT(codec_decode(c, (const uint8_t *)"3367", 4, &back, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_STR(err.stage, "hex");
    CHECK_INT(err.offset, 1);
    char line[256];
    CHECK_STR(codec_error_format(&err, line, sizeof line), "hex: not a hex digit (offset 1)");
    codec_arena_free(&arena);
    codec_free(c);
}

static void test_then(void)
{
    codec_error err;
    codec *c = codec_then(codec_parse("hex", NULL, &err), codec_parse("hex:upper", NULL, &err),
                          &err);
    CHECK(c != NULL);
    CHECK_STR(codec_spec(c), "hex | hex:upper");
    codec_free(c);
    CHECK(codec_then(NULL, codec_parse("hex", NULL, &err), &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
}

static void test_steady_state_encode_allocates_nothing(void)
{
    counts n = {0};
    codec_allocator counting = {count_alloc, count_resize, count_release, &n};
    codec_error err;
    codec *c = codec_parse("hex | hex:upper | hex", NULL, &err);
    codec_buf out;
    codec_buf_init(&out, &counting);
    uint8_t data[1000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    codec_bytes in = {data, sizeof data};
    CHECK_INT(codec_encode(c, &in, &out, &err), 0); /* warms out and its spare */
    size_t before = n.allocs + n.resizes;
    for (int i = 0; i < 100; i++) {
        codec_buf_clear(&out);
        CHECK_INT(codec_encode(c, &in, &out, &err), 0);
    }
    CHECK_INT(n.allocs + n.resizes, before);
    codec_buf_free(&out);
    CHECK_INT(n.allocs, n.releases);
    codec_free(c);
}

static void test_steady_state_decode_arena(void)
{
    counts n = {0};
    codec_allocator counting = {count_alloc, count_resize, count_release, &n};
    codec_error err;
    codec *c = codec_parse("hex | hex", NULL, &err);
    codec_buf out;
    codec_buf_init(&out, NULL);
    uint8_t data[5000] = {1, 2, 3};
    codec_bytes in = {data, sizeof data};
    CHECK_INT(codec_encode(c, &in, &out, &err), 0);
    codec_arena arena;
    codec_arena_init(&arena, &counting, 0);
    codec_bytes back;
    for (int i = 0; i < 3; i++) { /* arena settles after growth */
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
    }
    size_t before = n.allocs;
    for (int i = 0; i < 50; i++) {
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
        CHECK_MEM(back.data, back.len, data, sizeof data);
    }
    CHECK_INT(n.allocs, before);
    codec_arena_free(&arena);
    CHECK_INT(n.allocs, n.releases);
    codec_buf_free(&out);
    codec_free(c);
}

static void test_registry_listing(void)
{
    CHECK(codec_registry_count() > 0);
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *info = codec_registry_info(i);
        CHECK(info && info->name && info->args && info->summary);
        CHECK(codec__registry_find(info->name) != NULL);
        /* One row per name; names fit the stage's name field. */
        CHECK(codec_registry_lookup(info->name) == info);
        CHECK(strlen(info->name) < sizeof ((codec_stage *)0)->name);
        CHECK((info->flags & ~(CODEC_STAGE_TEXT | CODEC_STAGE_INSPECT)) == 0);
        CHECK(info->kind == CODEC_KIND_BACKEND || info->lacks == 0);
        CHECK(info->lacks >> (CODEC_V_OBJECT + 1) == 0);
        /* Every stage builds from its bare name, or refuses with a usage
         * error (envelope needs keyring=, backends a type), or is one this
         * build left out and says so. */
        codec_error err;
        codec *c = codec_parse(info->name, NULL, &err);
        CHECK(c != NULL || err.family == CODEC_E_USAGE ||
              (err.family == CODEC_E_UNSUPPORTED && codec_stage_missing(info->name)));
        codec_free(c);
    }
    CHECK(codec_registry_info(codec_registry_count()) == NULL);
    CHECK(codec_registry_lookup("no-such-stage") == NULL);
    /* The facts `codec convert` reads (cmd_convert.c). */
    CHECK(codec_registry_lookup("json")->flags & CODEC_STAGE_TEXT);
    CHECK_INT(codec_registry_lookup("json")->lacks, 1u << CODEC_V_BYTES);
    CHECK_INT(codec_registry_lookup("cbor")->flags & CODEC_STAGE_TEXT, 0);
    CHECK(codec_registry_lookup("versioned")->flags & CODEC_STAGE_INSPECT);
}

int main(void)
{
    test_spec_errors();
    test_spec_normalised();
    test_pipelines();
    test_decode_error_reports_stage();
    test_then();
    test_steady_state_encode_allocates_nothing();
    test_steady_state_decode_arena();
    test_registry_listing();
    return check_done("compose");
}
