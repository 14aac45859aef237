/* test_text.c — base64, base32 and hex: RFC 4648 §10 vectors, the strict
 * base32 rules of WIRE-FORMATS.md, the unpadded presets, error offsets, and
 * every SIMD kernel this CPU runs compared byte for byte (and error for
 * error) with the scalar kernel. Interop with Python lives in
 * test_text_python.c. */
#include "check.h"
#include <stdbool.h>
#include "codec/codec.h"
#include "codec/text.h"
#include "compose/stage_internal.h"

static codec *make(const char *spec)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c)
        fprintf(stderr, "cannot build '%s': %s\n", spec, err.message);
    return c;
}

/* Encodes and returns a NUL-terminated copy (static buffer). */
static const char *enc(codec *c, const void *data, size_t n)
{
    static char text[1 << 18];
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes in = {data, n};
    codec_error err;
    text[0] = '\0';
    if (codec_encode(c, &in, &out, &err) == 0 && out.len < sizeof text) {
        if (out.len)
            memcpy(text, out.data, out.len);
        text[out.len] = '\0';
    } else {
        strcpy(text, "<encode failed>");
    }
    codec_buf_free(&out);
    return text;
}

typedef struct result {
    int rc;
    codec_error err;
    uint8_t *data;   /* malloc'd */
    size_t len;
} result;

static result dec(codec *c, const void *text, size_t n)
{
    result r = {0};
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out = {0};
    memset(&r.err, 0, sizeof r.err);
    r.rc = codec_decode(c, text, n, &out, &arena, &r.err);
    if (!r.rc) {
        r.data = malloc(out.len + 1);
        if (out.len)
            memcpy(r.data, out.data, out.len);
        r.len = out.len;
    }
    codec_arena_free(&arena);
    return r;
}

static const char *const stage_specs[] = {
    "base64", "base64:url", "base64:url-nopad", "base64:mime", "base32", "base32:hex",
    "base32:crockford", "base32:z", "base32:geohash", "hex", "hex:upper"};
#define STAGES (sizeof stage_specs / sizeof stage_specs[0])

static void fill_pattern(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 131 + (i >> 8));
}

static void check_encode_n(const char *spec, const char *data, size_t n, const char *expect)
{
    codec *c = make(spec);
    CHECK(c != NULL);
    if (!c)
        return;
    const char *got = enc(c, data, n);
    if (strcmp(got, expect) != 0) {
        fprintf(stderr, "%s('%s') = '%s', expected '%s'\n", spec, data, got, expect);
        CHECK(0);
    }
    result r = dec(c, expect, strlen(expect));
    CHECK_INT(r.rc, 0);
    CHECK_MEM(r.data, r.len, data, n);
    free(r.data);
    codec_free(c);
}

static void check_encode(const char *spec, const char *data, const char *expect)
{
    check_encode_n(spec, data, strlen(data), expect);
}

/* Decoding `text` must fail with family, detail and offset. */
static void check_reject(const char *spec, const char *text, int detail, uint64_t offset)
{
    codec *c = make(spec);
    if (!c)
        return;
    result r = dec(c, text, strlen(text));
    if (r.rc != CODEC_E_INVALID_PAYLOAD || r.err.detail != detail || r.err.offset != offset) {
        fprintf(stderr, "%s decode '%s': rc %d detail %d offset %lld (%s), expected detail %d "
                "offset %lld\n", spec, text, r.rc, r.err.detail, (long long)r.err.offset,
                r.err.message, detail, (long long)offset);
        CHECK(0);
    } else {
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
        CHECK_STR(r.err.stage, name);
    }
    free(r.data);
    codec_free(c);
}

static void check_decode(const char *spec, const char *text, const void *expect, size_t n)
{
    codec *c = make(spec);
    if (!c)
        return;
    result r = dec(c, text, strlen(text));
    CHECK_INT(r.rc, 0);
    if (r.rc)
        fprintf(stderr, "%s decode '%s': %s\n", spec, text, r.err.message);
    CHECK_MEM(r.data, r.len, expect, n);
    free(r.data);
    codec_free(c);
}

/* RFC 4648 §10. */
static void test_rfc4648_vectors(void)
{
    static const char *const in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const b64[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
                                      "Zm9vYmFy"};
    static const char *const b32[] = {"", "MY======", "MZXQ====", "MZXW6===", "MZXW6YQ=",
                                      "MZXW6YTB", "MZXW6YTBOI======"};
    static const char *const b32hex[] = {"", "CO======", "CPNG====", "CPNMU===", "CPNMUOG=",
                                         "CPNMUOJ1", "CPNMUOJ1E8======"};
    static const char *const b16[] = {"", "66", "666F", "666F6F", "666F6F62", "666F6F6261",
                                      "666F6F626172"};
    for (size_t i = 0; i < 7; i++) {
        check_encode("base64", in[i], b64[i]);
        check_encode("base64:url", in[i], b64[i]);
        check_encode("base64:mime", in[i], b64[i]);
        check_encode("base32", in[i], b32[i]);
        check_encode("base32:hex", in[i], b32hex[i]);
        check_encode("hex:upper", in[i], b16[i]);
        for (const char *k = "base64:kernel=scalar"; k; k = NULL)
            check_encode(k, in[i], b64[i]);
    }
    /* url-nopad drops the padding */
    check_encode("base64:url-nopad", "f", "Zg");
    check_encode("base64:url-nopad", "fo", "Zm8");
    check_encode("base64:url-nopad", "foo", "Zm9v");
    /* the two alphabets differ in their last two symbols */
    check_encode("base64", "\xfb\xff\xbf", "+/+/");
    check_encode("base64:url", "\xfb\xff\xbf", "-_-_");
    check_encode_n("hex", "\x00\xab\xff", 3, "00abff");
    check_decode("hex", "00AbfF", "\x00\xab\xff", 3);
}

static void test_base32_presets(void)
{
    /* Worked out by hand from the alphabets: "f" = 0x66 = 01100 110(00) gives
     * symbols 12 and 24; "foobar" gives 12 25 23 22 30 24 19 1 14 8 (the
     * indices behind the RFC's MZXW6YTBOI). */
    check_encode("base32:crockford", "f", "CR");
    check_encode("base32:crockford", "foobar", "CSQPYRK1E8");
    check_encode("base32:z", "f", "ca");
    check_encode("base32:z", "foobar", "c3zs6aubqe");
    check_encode("base32:geohash", "f", "ds");
    check_encode("base32:geohash", "foobar", "dtrqysm1f8");
    check_encode("base32:z", "\xff\xff\xff\xff\xff", "99999999");
    /* 0x6f 0x9f 0x08 0x9f 0x02 = 01101 11110 01111 10000 10001 00111 11000 00010
     * = 13 30 15 16 17 7 24 2 */
    check_encode("base32:geohash", "\x6f\x9f\x08\x9f\x02", "eyghj7s2");
    check_encode("base32:crockford", "\x6f\x9f\x08\x9f\x02", "DYFGH7R2");
    codec *z = make("base32:z");
    CHECK_STR(enc(z, "", 1), "yy"); /* one zero byte */
    codec_free(z);
    /* crockford decode: any case, I/L -> 1, O -> 0 */
    check_decode("base32:crockford", "csqpyrk1e8", "foobar", 6);
    check_decode("base32:crockford", "CSQPYRKIE8", "foobar", 6);
    check_decode("base32:crockford", "CSQPYRKlE8", "foobar", 6);
    check_decode("base32:crockford", "0000000o", "\0\0\0\0\0", 5);
    check_decode("base32:crockford", "0O0o0O00", "\0\0\0\0\0", 5);
    check_reject("base32:crockford", "CSQPYRKUE8", CODEC_D_CORRUPT, 7); /* U is not a symbol */
    /* z and geohash: lower only; std and hex: upper only */
    check_reject("base32:z", "C3", CODEC_D_CORRUPT, 0);
    check_reject("base32:geohash", "dH", CODEC_D_CORRUPT, 1);
    check_reject("base32", "my======", CODEC_D_CORRUPT, 0);
    check_reject("base32:hex", "cO======", CODEC_D_CORRUPT, 0);
}

static void test_base32_strict(void)
{
    check_decode("base32", "MY======", "f", 1);
    check_reject("base32", "MZ======", CODEC_D_CORRUPT, 1);        /* trailing bits */
    check_reject("base32", "MZXR====", CODEC_D_CORRUPT, 3);        /* MZXQ is canonical */
    check_reject("base32", "MY", CODEC_D_TRUNCATED, 2);            /* not a multiple of 8 */
    check_reject("base32", "MY=====", CODEC_D_TRUNCATED, 7);
    check_reject("base32", "M=======", CODEC_D_CORRUPT, 1);        /* 7 pads */
    check_reject("base32", "MZX=====", CODEC_D_CORRUPT, 3);        /* 5 pads */
    check_reject("base32", "MZXW6Y==", CODEC_D_CORRUPT, 6);        /* 2 pads */
    check_reject("base32", "========", CODEC_D_CORRUPT, 0);        /* 8 pads */
    check_reject("base32", "MY======MY======", CODEC_D_CORRUPT, 2); /* pad before the end */
    check_reject("base32", "MY=Y====", CODEC_D_CORRUPT, 3);        /* data after a pad */
    check_reject("base32", "MZXW6YT!", CODEC_D_CORRUPT, 7);
    check_reject("base32", "MZXW1YTB", CODEC_D_CORRUPT, 4);        /* 1 is not in std */
    check_reject("base32:hex", "CPNMUOJW", CODEC_D_CORRUPT, 7);    /* W is not in hex */
    check_reject("base32:crockford", "CR======", CODEC_D_CORRUPT, 2); /* no padding */
    check_reject("base32:crockford", "CSQ", CODEC_D_TRUNCATED, 3);  /* 3 symbols impossible */
    check_reject("base32:crockford", "CS", CODEC_D_CORRUPT, 1);     /* trailing bits */
}

static void test_base64_errors(void)
{
    check_reject("base64", "Zg=", CODEC_D_TRUNCATED, 3);
    check_reject("base64", "Zm9", CODEC_D_TRUNCATED, 3);
    check_reject("base64", "Zm9v!", CODEC_D_CORRUPT, 4);
    check_reject("base64", "Zm-v", CODEC_D_CORRUPT, 2);   /* url symbol in std */
    check_reject("base64:url", "Zm+v", CODEC_D_CORRUPT, 2);
    check_reject("base64", "Z===", CODEC_D_CORRUPT, 1);
    check_reject("base64", "====", CODEC_D_CORRUPT, 0);
    check_reject("base64", "Zg=x", CODEC_D_CORRUPT, 3);
    check_reject("base64", "Zg==Zg==", CODEC_D_CORRUPT, 2);
    check_reject("base64", "Zh==", CODEC_D_CORRUPT, 1);   /* trailing bits */
    check_reject("base64", "Zm9=", CODEC_D_CORRUPT, 2);
    check_reject("base64", "Zm9v\n", CODEC_D_CORRUPT, 4); /* no white space outside mime */
    check_reject("base64:url-nopad", "Zg==", CODEC_D_CORRUPT, 2);
    check_reject("base64:url-nopad", "Zm9vY", CODEC_D_TRUNCATED, 5);
    check_reject("base64:url-nopad", "Zh", CODEC_D_CORRUPT, 1);
    /* mime: CR and LF anywhere are skipped, nothing else is */
    check_decode("base64:mime", "Zm9v\r\nYmFy", "foobar", 6);
    check_decode("base64:mime", "\nZm\r9vYm\n\nFy\r\n", "foobar", 6);
    check_decode("base64:mime", "Zm9vYg\r\n==\r\n", "foob", 4);
    check_reject("base64:mime", "Zm9v YmFy", CODEC_D_CORRUPT, 4);
    check_reject("base64:mime", "Zm9v\tYmFy", CODEC_D_CORRUPT, 4);
    check_reject("base64:mime", "Zg==\r\nZg==", CODEC_D_CORRUPT, 6);
    check_reject("base64:mime", "Zm9vY\r\n", CODEC_D_TRUNCATED, 7);
    /* the offset counts in the stage's own input, line breaks included */
    check_reject("base64:mime", "Zm9v\r\nY!Fy", CODEC_D_CORRUPT, 7);
    check_reject("hex", "0g", CODEC_D_CORRUPT, 1);
    check_reject("hex", "abc", CODEC_D_TRUNCATED, 3);
    check_reject("hex", "abcx", CODEC_D_CORRUPT, 3);
    check_reject("hex", "ab x", CODEC_D_CORRUPT, 2);
}

/* MIME layout: 76 symbols per line, CRLF between lines, none at the end. */
static void test_mime_layout(void)
{
    uint8_t data[200];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7);
    codec *mime = make("base64:mime"), *plain = make("base64");
    char flat[400];
    strcpy(flat, enc(plain, data, sizeof data));
    const char *text = enc(mime, data, sizeof data);
    size_t flat_len = strlen(flat);
    CHECK_INT(flat_len, 268);
    CHECK_INT(strlen(text), 268 + 2 * 3);
    CHECK(memcmp(text, flat, 76) == 0);
    CHECK(memcmp(text + 76, "\r\n", 2) == 0);
    CHECK(memcmp(text + 78, flat + 76, 76) == 0);
    CHECK(memcmp(text + 3 * 78, flat + 3 * 76, flat_len - 3 * 76) == 0);
    /* exactly one line: no CRLF */
    CHECK_INT(strlen(enc(mime, data, 57)), 76);
    CHECK_INT(strlen(enc(mime, data, 114)), 154);
    codec_free(mime);
    codec_free(plain);
}

static void test_typed_constructors(void)
{
    codec_error err;
    codec *c = codec_base64(CODEC_BASE64_URL_NOPAD, &err);
    CHECK(c != NULL);
    CHECK_STR(codec_spec(c), "base64:url-nopad");
    CHECK_STR(enc(c, "\xfb\xff", 2), "-_8");
    codec_free(c);
    c = codec_base32(CODEC_BASE32_GEOHASH, &err);
    CHECK_STR(codec_spec(c), "base32:geohash");
    codec_free(c);
    c = codec_hex(CODEC_HEX_UPPER, &err);
    CHECK_STR(enc(c, "\xab", 1), "AB");
    codec_free(c);
    CHECK(codec_base64((codec_base64_variant)99, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_base32((codec_base32_variant)-1, &err) == NULL);
    CHECK(codec_hex((codec_hex_case)7, &err) == NULL);
}

static size_t allocations;

static void *counting_alloc(void *ctx, size_t n)
{
    (void)ctx;
    allocations++;
    return malloc(n);
}
static void *counting_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)ctx, (void)old;
    allocations++;
    return realloc(p, n);
}
static void counting_release(void *ctx, void *p, size_t n)
{
    (void)ctx, (void)n;
    free(p);
}

/* Once the buffer and the arena have grown, encoding and decoding allocate
 * nothing (the stages keep their tables in the handle). */
static void test_steady_state_allocates_nothing(void)
{
    codec_allocator counting = {counting_alloc, counting_resize, counting_release, NULL};
    static uint8_t data[8338];
    fill_pattern(data, sizeof data);
    for (size_t s = 0; s < STAGES; s++) {
        codec *c = make(stage_specs[s]);
        codec_buf out;
        codec_buf_init(&out, &counting);
        codec_arena arena;
        codec_arena_init(&arena, &counting, 0);
        codec_bytes in = {data, sizeof data}, back;
        codec_error err;
        size_t before = 0;
        for (int round = 0; round < 3; round++) {
            if (round == 2)
                before = allocations;
            codec_buf_clear(&out);
            codec_arena_reset(&arena);
            CHECK_INT(codec_encode(c, &in, &out, &err), 0);
            CHECK_INT(codec_decode(c, out.data, out.len, &back, &arena, &err), 0);
            CHECK_MEM(back.data, back.len, data, sizeof data);
        }
        CHECK_INT(allocations - before, 0);
        codec_buf_free(&out);
        codec_arena_free(&arena);
        codec_free(c);
    }
}

static void test_kernel_argument(void)
{
    codec_error err;
    codec *c = codec_parse("base64:kernel=fast", NULL, &err);
    CHECK(c == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(strstr(err.message, "auto, scalar, avx2, avx512") != NULL);
    c = codec_parse("base32:z,kernel=sse42", NULL, &err);
    CHECK(c == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    c = codec_parse("hex:upper,kernel=scalar", NULL, &err);
    CHECK(c != NULL);
    codec_free(c);
}


/* ---- every kernel against scalar ------------------------------------ */

static bool same_result(const result *a, const result *b)
{
    if (a->rc != b->rc)
        return false;
    if (a->rc)
        return a->err.detail == b->err.detail && a->err.offset == b->err.offset &&
               strcmp(a->err.message, b->err.message) == 0;
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static uint64_t rng = 0x1234567887654321u;

static void fill(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)check_rand(&rng);
}

/* The kernel comparisons call the stage itself, with the input in a block of
 * exactly its size and the output in a fresh buffer (whose first block is
 * exactly the reserved size once that is 64 bytes or more), so that under
 * ASan a kernel reading past its input or writing past its reservation is
 * caught. */
typedef struct stage_run {
    int rc;
    codec_error err;
    codec_buf out;
} stage_run;

static stage_run run_stage(const codec_stage *s, bool encode, const uint8_t *src, size_t n)
{
    stage_run r;
    memset(&r.err, 0, sizeof r.err);
    codec_buf_init(&r.out, NULL);
    uint8_t *exact = malloc(n ? n : 1);
    if (n)
        memcpy(exact, src, n);
    r.rc = encode ? s->ops->encode(s, exact, n, &r.out, &r.err)
                  : s->ops->decode(s, exact, n, &r.out, &r.err);
    free(exact);
    return r;
}

static bool same_run(const stage_run *a, const stage_run *b)
{
    result ra = {a->rc, a->err, a->out.data, a->out.len};
    result rb = {b->rc, b->err, b->out.data, b->out.len};
    return same_result(&ra, &rb);
}

/* Decodes `text` with both stages and checks they agree. */
static bool agree(const codec_stage *ref, const codec_stage *k, const uint8_t *text, size_t n,
                  const char *what)
{
    stage_run a = run_stage(ref, false, text, n), b = run_stage(k, false, text, n);
    bool ok = same_run(&a, &b);
    if (!ok)
        fprintf(stderr, "%s: %s, %zu chars: scalar rc %d off %lld '%s' vs rc %d off %lld '%s'\n",
                k->spec, what, n, a.rc, (long long)a.err.offset, a.err.message, b.rc,
                (long long)b.err.offset, b.err.message);
    codec_buf_free(&a.out);
    codec_buf_free(&b.out);
    return ok;
}

static bool parse_stage(const char *base, const char *kernel, codec_stage *s)
{
    char spec[96];
    snprintf(spec, sizeof spec, "%s%skernel=%s", base, strchr(base, ':') ? "," : ":", kernel);
    size_t count = 0;
    codec_error err;
    return codec__spec_parse(spec, NULL, s, 1, &count, &err) == 0 && count == 1;
}

static size_t kernels_compared;

static void compare_kernel(const char *base, const char *kernel)
{
    codec_stage k, ref;
    if (!parse_stage(base, kernel, &k))
        return; /* this CPU (or this stage) has no such kernel */
    CHECK(parse_stage(base, "scalar", &ref));
    static uint8_t data[70000];
    static const uint8_t bad[] = {'=', '!', 0x00, 0x80, 0xFF, '\n', ' ', 'z', 'I', '9', '+', '_'};
    size_t failures = 0, bi = 0;
    for (size_t n = 0; n <= 300 + 3; n++) {
        size_t len = n <= 300 ? n : (n == 301 ? 8338 : n == 302 ? 65536 + 17 : 1000);
        fill(data, len);
        stage_run e_ref = run_stage(&ref, true, data, len), e = run_stage(&k, true, data, len);
        if (!same_run(&e_ref, &e)) {
            fprintf(stderr, "%s: encode of %zu bytes differs\n", k.spec, len);
            failures++;
        }
        uint8_t *text = e_ref.out.data;
        size_t tn = e_ref.out.len;
        stage_run d = run_stage(&k, false, text, tn);
        if (d.rc || d.out.len != len || (len && memcmp(d.out.data, data, len) != 0)) {
            fprintf(stderr, "%s: round trip of %zu bytes fails (%s)\n", k.spec, len,
                    d.err.message);
            failures++;
        }
        codec_buf_free(&d.out);
        /* a wrong character at every position, and every truncation */
        for (size_t pos = 0; (len <= 300 || len == 1000) && pos < tn; pos++) {
            uint8_t keep = text[pos];
            text[pos] = bad[bi++ % sizeof bad];
            failures += !agree(&ref, &k, text, tn, "corrupted");
            text[pos] = keep;
            if (len <= 120)
                failures += !agree(&ref, &k, text, pos, "truncated");
        }
        codec_buf_free(&e_ref.out);
        codec_buf_free(&e.out);
    }
    CHECK_INT(failures, 0);
    kernels_compared++;
    codec__stage_destroy(&ref);
    codec__stage_destroy(&k);
}

static void test_kernels_agree(void)
{
    static const char *const kernels[] = {"auto", "avx2", "avx512"};
    for (size_t s = 0; s < STAGES; s++)
        for (size_t i = 0; i < 3; i++)
            compare_kernel(stage_specs[s], kernels[i]);
    /* auto always builds; the named kernels only where this CPU has them */
    CHECK(kernels_compared >= STAGES);
    char names[128];
    printf("compared %zu stage kernels with scalar (cpu: %s)\n", kernels_compared,
           codec_cpu_feature_names(codec_cpu_features(), names, sizeof names));
}

/* What the avx2 kernels' compile flags assume: AVX2, BMI2, SSE4.2, PCLMUL. */
#define AVX2_TIER (CODEC_CPU_AVX2 | CODEC_CPU_BMI2 | CODEC_CPU_SSE42 | CODEC_CPU_PCLMUL)

/* Under CODEC_CPU_MASK (set by main): kernels the mask removes are refused,
 * auto falls back, and everything still agrees with scalar. */
static int masked_run(const char *mask)
{
    unsigned features = codec_cpu_features();
    codec_error err;
    codec *c = codec_parse("base64:kernel=avx512", NULL, &err);
    CHECK(c == NULL);
    CHECK(strstr(err.message, "lacks") != NULL);
    c = codec_parse("hex:kernel=avx2", NULL, &err);
    CHECK((c != NULL) == ((features & AVX2_TIER) == AVX2_TIER));
    codec_free(c);
    test_rfc4648_vectors();
    test_base32_strict();
    test_kernels_agree();
    char name[64];
    snprintf(name, sizeof name, "test_text (CODEC_CPU_MASK=%s)", mask);
    return check_done(name);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "--masked") == 0)
        return masked_run(argv[2]);
    /* no SIMD at all; AVX2 without AVX-512; AVX2 without BMI2, which the
     * AVX2 kernels are compiled for (so they are refused) */
    static const char *const masks[] = {"0", "15", "7"};
    for (size_t i = 0; i < 3; i++) {
        char cmd[4200];
        const char *emulator = getenv("CODEC_TEST_EMULATOR");   /* set when cross-built */
        snprintf(cmd, sizeof cmd, "CODEC_CPU_MASK=%s %s '%s' --masked %s", masks[i],
                 emulator ? emulator : "", argv[0], masks[i]);
        CHECK_INT(system(cmd), 0);
    }
    test_rfc4648_vectors();
    test_base32_presets();
    test_base32_strict();
    test_base64_errors();
    test_mime_layout();
    test_typed_constructors();
    test_kernel_argument();
    test_steady_state_allocates_nothing();
    test_kernels_agree();
    return check_done("test_text");
}
