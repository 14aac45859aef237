/* test_compress.c — the compression stages: round trips at several levels,
 * sizes against zlib on the prose payload, the decode cap (bombs, declared
 * sizes), hostile input (truncation, corruption), the size gate, typed
 * constructors, dictionaries, threads, and allocation-free steady state. */
#include "check.h"
#include "codec/codec.h"
#include "compress_payload.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <zdict.h>
#include <zlib.h>
#include <zstd.h>

/* A counting allocator over libc. */
typedef struct {
    size_t allocs, resizes, releases, bytes;
} counts;

static void *count_alloc(void *ctx, size_t n)
{
    ((counts *)ctx)->allocs++;
    ((counts *)ctx)->bytes += n;
    return malloc(n);
}
static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    ((counts *)ctx)->resizes++;
    ((counts *)ctx)->bytes += n > old ? n - old : 0;
    return realloc(p, n);
}
static void count_release(void *ctx, void *p, size_t n)
{
    (void)n;
    ((counts *)ctx)->releases++;
    free(p);
}

static codec *make(const char *spec)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c)
        fprintf(stderr, "cannot build '%s': %s\n", spec, err.message);
    CHECK(c != NULL);
    return c;
}

/* Encodes with `c` into a fresh buffer (after a prefix that must survive). */
static int encode(const codec *c, const uint8_t *data, size_t n, codec_buf *out)
{
    codec_error err;
    codec_buf_init(out, NULL);
    CHECK(codec_buf_append(out, "PRE", 3) == 0);
    codec_bytes in = {data, n};
    int rc = codec_encode(c, &in, out, &err);
    if (rc)
        fprintf(stderr, "encode '%s' (%zu bytes): %s\n", codec_spec(c), n, err.message);
    CHECK(memcmp(out->data, "PRE", 3) == 0);
    return rc;
}

/* Decodes and returns the status; *back points into the arena. */
static int decode(const codec *c, const uint8_t *src, size_t n, codec_arena *arena,
                  codec_bytes *back, codec_error *err)
{
    codec_arena_reset(arena);
    return codec_decode(c, src, n, back, arena, err);
}

/* ------------------------------------------------------------------------ */

static const char *const all_specs[] = {
    "gzip:1", "gzip", "gzip:9", "deflate:1", "deflate:3", "deflate:5", "deflate",
    "deflate:9", "zstd:-7", "zstd:1", "zstd", "zstd:19", "lz4", "lz4hc:3", "lz4hc",
    "lz4hc:12", "snappy", "brotli:0", "brotli:5", "brotli", "redisson-lz4",
    "redisson-zstd", "redisson-zstd:-1", "redisson-snappy"};
#define SPEC_COUNT (sizeof all_specs / sizeof all_specs[0])

static bool slow_spec(const char *spec)
{
    return strcmp(spec, "brotli") == 0 || strcmp(spec, "zstd:19") == 0 ||
           strcmp(spec, "lz4hc:12") == 0 || strcmp(spec, "gzip:9") == 0 ||
           strcmp(spec, "deflate:9") == 0;
}

static void test_round_trips(void)
{
    static const size_t sizes[] = {0, 1, 2, 3, 17, 104, 1000, 65535, 65536, 65537,
                                   200000, 1 << 20};
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t si = 0; si < SPEC_COUNT; si++) {
        codec *c = make(all_specs[si]);
        if (!c)
            continue;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            if (n > 200000 && slow_spec(all_specs[si]))
                continue;
            for (int kind = 0; kind < 2; kind++) {
                uint8_t *data = kind ? payload_prose(n) : payload_mixed(n, n * 31 + si);
                codec_buf out;
                if (encode(c, data, n, &out) == 0) {
                    codec_bytes back;
                    codec_error err;
                    int rc = decode(c, out.data + 3, out.len - 3, &arena, &back, &err);
                    if (rc)
                        fprintf(stderr, "%s: decode %zu bytes: %s\n", all_specs[si], n,
                                err.message);
                    CHECK_INT(rc, 0);
                    CHECK_MEM(back.data, back.len, data, n);
                } else {
                    CHECK(0);
                }
                codec_buf_free(&out);
                free(data);
            }
        }
        codec_free(c);
    }
    codec_arena_free(&arena);
}

/* deflate/gzip at every level are no larger than zlib at that level. */
static void test_sizes_against_zlib(void)
{
    size_t n = 1 << 20;
    uint8_t *prose = payload_prose(n);
    static const unsigned long expected_zlib[] = {273057, 201160, 197182};
    static const int check_levels[] = {1, 6, 9};
    uLongf bound = compressBound(n);
    uint8_t *z = malloc(bound);
    for (int level = 1; level <= 9; level++) {
        uLongf zlen = bound;
        CHECK_INT(compress2(z, &zlen, prose, n, level), Z_OK);
        for (int i = 0; i < 3; i++)
            if (check_levels[i] == level)
                CHECK_INT(zlen, expected_zlib[i]); /* the generator is right */
        char spec[32];
        snprintf(spec, sizeof spec, "deflate:%d", level);
        codec *c = make(spec);
        codec_buf out;
        CHECK_INT(encode(c, prose, n, &out), 0);
        printf("deflate:%d  %zu bytes (zlib %lu)\n", level, out.len - 3, zlen);
        CHECK(out.len - 3 <= zlen);
        codec_buf_free(&out);
        codec_free(c);
        snprintf(spec, sizeof spec, "gzip:%d", level);
        c = make(spec);
        CHECK_INT(encode(c, prose, n, &out), 0);
        CHECK(out.len - 3 <= zlen + 18 - 6 + 2); /* gzip framing is 12 bytes more than zlib's */
        codec_buf_free(&out);
        codec_free(c);
    }
    free(z);
    free(prose);
}

/* ------------------------------------------------------------------------ */

static void expect_fail(const codec *c, const uint8_t *src, size_t n, int family, int detail,
                        const char *what)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err = {0};
    int rc = decode(c, src, n, &arena, &back, &err);
    if (rc != family || (detail >= 0 && err.detail != detail)) {
        fprintf(stderr, "%s (%s): got %d/%d '%s', expected %d/%d\n", what, codec_spec(c), rc,
                err.detail, err.message, family, detail);
        CHECK(0);
    } else {
        CHECK(1);
    }
    codec_arena_free(&arena);
}

/* Decodes `src` with a counting arena and checks it hits the cap without
 * reserving more than `budget` bytes. */
static void expect_capped(const codec *c, const uint8_t *src, size_t n, size_t budget,
                          const char *what)
{
    counts k = {0};
    codec_allocator counting = {count_alloc, count_resize, count_release, &k};
    codec_arena arena;
    codec_arena_init(&arena, &counting, 0);
    codec_bytes back;
    codec_error err = {0};
    int rc = codec_decode(c, src, n, &back, &arena, &err);
    CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_LIMIT);
    if (k.bytes > budget) {
        fprintf(stderr, "%s (%s): allocated %zu bytes, budget %zu\n", what, codec_spec(c),
                k.bytes, budget);
        CHECK(0);
    }
    codec_arena_free(&arena);
}

/* 100 MiB of zeros compressed by each format is refused by the default cap
 * (64 MiB); formats that declare their size refuse it before reserving. */
static void test_bombs(void)
{
    size_t big = (size_t)100 << 20;
    uint8_t *zeros = calloc(1, big);
    static const struct {
        const char *spec;
        size_t budget;
    } cases[] = {
        /* sizes known up front: nothing reserved */
        {"zstd:1", 64 << 10}, {"redisson-zstd:1", 64 << 10}, {"gzip:1", 64 << 10},
        {"snappy", 64 << 10}, {"redisson-lz4", 64 << 10},
        /* no size in the stream: decoded in doubling chunks up to the cap;
         * the arena keeps each outgrown chunk until reset, hence 4x */
        {"deflate:1", (size_t)256 << 20}, {"lz4", (size_t)256 << 20},
        {"brotli:1", (size_t)256 << 20},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char spec[64];
        const char *sep = strchr(cases[i].spec, ':') ? "," : ":";
        snprintf(spec, sizeof spec, "%s%smax=200m", cases[i].spec, sep);
        codec *enc = make(spec);
        codec *dec = make(cases[i].spec);
        codec_buf out;
        if (encode(enc, zeros, big, &out) == 0) {
            expect_capped(dec, out.data + 3, out.len - 3, cases[i].budget, "bomb");
            /* and a small cap on a sizeless stream stops early */
            snprintf(spec, sizeof spec, "%s%smax=1m", cases[i].spec, sep);
            codec *small = make(spec);
            expect_capped(small, out.data + 3, out.len - 3, (size_t)4 << 20, "bomb, max=1m");
            codec_free(small);
        }
        codec_buf_free(&out);
        codec_free(enc);
        codec_free(dec);
    }
    /* A zstd frame without a content size goes through the streaming path. */
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    size_t cap = ZSTD_compressBound(big);
    uint8_t *frame = malloc(cap);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
    ZSTD_inBuffer in = {zeros, big, 0};
    ZSTD_outBuffer o = {frame, cap, 0};
    CHECK_INT(ZSTD_compressStream2(cc, &o, &in, ZSTD_e_end), 0);
    codec *z = make("zstd:max=1m");
    expect_capped(z, frame, o.pos, (size_t)4 << 20, "sizeless zstd bomb");
    codec_free(z);
    free(frame);
    ZSTD_freeCCtx(cc);
    free(zeros);
}

/* Lengths declared by the payload are checked before any reservation. */
static void test_declared_sizes(void)
{
    codec *c = make("redisson-lz4");
    uint8_t huge[] = {0x7f, 0xff, 0xff, 0xff, 0x00};
    expect_fail(c, huge, sizeof huge, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "prefix 2^31-1");
    uint8_t negative[] = {0x80, 0, 0, 0, 0};
    expect_fail(c, negative, sizeof negative, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT,
                "negative prefix");
    uint8_t lying[] = {0x00, 0x10, 0x00, 0x00, 0x00}; /* 1 MiB from one byte */
    expect_fail(c, lying, sizeof lying, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, "1 MiB claim");
    expect_fail(c, huge, 3, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, "short prefix");
    codec_free(c);

    c = make("snappy");
    uint8_t varint[] = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
    expect_fail(c, varint, sizeof varint, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "varint 4G");
    codec_free(c);

    /* a zstd frame header declaring 1 TiB: magic, FHD (FCS 8 bytes, single
     * segment), then the size */
    c = make("zstd");
    uint8_t zhdr[] = {0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0,
                      0x01, 0x00, 0x00}; /* last block, raw, size 0 */
    expect_fail(c, zhdr, sizeof zhdr, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "zstd 1 TiB");
    codec_free(c);

    /* a gzip member whose ISIZE says 4 GiB - 1: ISIZE is only a hint (in a
     * truncated file it is deflate data), so nothing is reserved from it and
     * the decode finds the trailer does not match */
    c = make("gzip");
    codec_buf out;
    encode(c, (const uint8_t *)"hello", 5, &out);
    memset(out.data + out.len - 4, 0xff, 4);
    expect_fail(c, out.data + 3, out.len - 3, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM,
                "gzip ISIZE");
    codec_buf_free(&out);
    codec_free(c);
}

/* Short streams whose first block has dynamic Huffman codes are inflated by
 * zlib in one call (flate.c); what that call does not finish (more gzip
 * members, too little room, damage) must still get the general path's
 * answer. The zlib streams come from zlib itself. */
static void test_short_deflate_streams(void)
{
    static const char text[] = "[{\"id\":1000,\"name\":\"of payload\",\"age\":68,\"active\":"
                               "false,\"email\":\"user0@example.com\",\"balance\":69970.25}]";
    size_t n = sizeof text - 1;
    uint8_t z[512], two[1024];
    for (int wrap = 0; wrap < 2; wrap++) {
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        CHECK_INT(deflateInit2(&zs, 9, Z_DEFLATED, wrap ? 31 : 15, 8, Z_DEFAULT_STRATEGY),
                  Z_OK);
        zs.next_in = (Bytef *)text;
        zs.avail_in = (uInt)n;
        zs.next_out = z;
        zs.avail_out = sizeof z;
        CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
        size_t len = zs.total_out, header = wrap ? 10 : 2;
        deflateEnd(&zs);
        CHECK(len <= 256);
        CHECK_INT(z[header] >> 1 & 3, 2); /* the zlib path is the one tested */
        codec *c = make(wrap ? "gzip" : "deflate");
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        codec_bytes back;
        codec_error err;
        CHECK_INT(decode(c, z, len, &arena, &back, &err), 0);
        CHECK_MEM(back.data, back.len, text, n);
        for (size_t cut = 0; cut < len; cut++)
            CHECK_INT(decode(c, z, cut, &arena, &back, &err), CODEC_E_INVALID_PAYLOAD);
        memcpy(two, z, len);
        memcpy(two + len, z, len);
        if (wrap) { /* two members: the concatenation */
            CHECK_INT(decode(c, two, 2 * len, &arena, &back, &err), 0);
            CHECK_INT(back.len, 2 * n);
            CHECK_MEM(back.data + n, n, text, n);
        } else {
            expect_fail(c, two, len + 1, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING,
                        "short zlib stream + 1 byte");
        }
        two[len - 1] ^= 1; /* the last byte of the checksum or ISIZE */
        expect_fail(c, two, len, CODEC_E_INVALID_PAYLOAD, -1, "short stream, bad trailer");
        codec_free(c);
        c = make(wrap ? "gzip:max=64" : "deflate:max=64");
        expect_fail(c, z, len, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "short stream over max");
        codec_free(c);
        codec_arena_free(&arena);
    }
}

/* Every strict prefix of a compressed sample fails cleanly, and random
 * corruption never crashes (ASan/UBSan builds check memory safety). */
static void test_hostile(void)
{
    size_t n = 3000;
    uint8_t *data = payload_mixed(n, 99);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t si = 0; si < SPEC_COUNT; si++) {
        codec *c = make(all_specs[si]);
        codec_buf out;
        encode(c, data, n, &out);
        const uint8_t *enc = out.data + 3;
        size_t len = out.len - 3;
        for (size_t cut = 0; cut < len; cut++) {
            uint8_t *copy = malloc(cut ? cut : 1); /* exact size, so ASan sees overreads */
            memcpy(copy, enc, cut);
            codec_bytes back;
            codec_error err;
            int rc = decode(c, copy, cut, &arena, &back, &err);
            if (rc != CODEC_E_INVALID_PAYLOAD) {
                fprintf(stderr, "%s: prefix of %zu/%zu bytes gave %d\n", all_specs[si], cut,
                        len, rc);
                CHECK(0);
            }
            free(copy);
        }
        uint64_t x = 1234 + si;
        uint8_t *copy = malloc(len);
        for (int round = 0; round < 300; round++) {
            memcpy(copy, enc, len);
            int flips = 1 + (int)(check_rand(&x) % 4);
            for (int f = 0; f < flips; f++)
                copy[check_rand(&x) % len] ^= (uint8_t)(1 + check_rand(&x) % 255);
            codec_bytes back;
            codec_error err;
            int rc = decode(c, copy, len, &arena, &back, &err);
            CHECK(rc == 0 || rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED);
        }
        free(copy);
        codec_buf_free(&out);
        codec_free(c);
    }
    codec_arena_free(&arena);
    free(data);
}

/* A corrupt frame that declared a content size must not poison the pooled
 * context for the next frame without one (liblz4 1.9.4 reset bug). */
static void test_lz4_context_after_error(void)
{
    static const uint8_t sized_corrupt[] = {
        0x04, 0x22, 0x4d, 0x18, 0x6c, 0x40, 0xb8, 0x0b, 0, 0, 0, 0, 0, 0, 0xe8, 0x3a,
        0x00, 0x00, 0x00, 0xd0, 't', 'h', 'e', ' ', 0xff, 0xff, 0xff, 0xff};
    codec *c = make("lz4");
    codec_buf out;
    encode(c, (const uint8_t *)"payload", 7, &out);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err;
    for (int i = 0; i < 3; i++) {
        CHECK_INT(decode(c, sized_corrupt, sizeof sized_corrupt, &arena, &back, &err),
                  CODEC_E_INVALID_PAYLOAD);
        CHECK_INT(decode(c, out.data + 3, out.len - 3, &arena, &back, &err), 0);
        CHECK_MEM(back.data, back.len, "payload", 7);
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
}

static void test_errors_name_stage_and_offset(void)
{
    codec *c = make("zstd");
    expect_fail(c, (const uint8_t *)"not zstd at all", 15, CODEC_E_INVALID_PAYLOAD,
                CODEC_D_BAD_MAGIC, "zstd magic");
    codec_free(c);
    c = make("lz4");
    expect_fail(c, (const uint8_t *)"not lz4 at all", 14, CODEC_E_INVALID_PAYLOAD,
                CODEC_D_BAD_MAGIC, "lz4 magic");
    codec_free(c);
    c = make("deflate");
    expect_fail(c, (const uint8_t *)"\x78\x9c\x03\x00\x00\x00\x00\x01!", 9,
                CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING, "zlib trailing");
    expect_fail(c, (const uint8_t *)"\x78\x9c\x03\x00\x00\x00\x00\x02", 8,
                CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM, "adler mismatch");
    codec_free(c);

    /* a corrupt gzip member reports the stage and an offset */
    c = make("gzip");
    codec_buf out;
    uint8_t *data = payload_prose(5000);
    encode(c, data, 5000, &out);
    out.data[3 + 20] ^= 0xff;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    codec_error err = {0};
    CHECK_INT(decode(c, out.data + 3, out.len - 3, &arena, &back, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_STR(err.stage, "gzip");
    CHECK(err.offset != CODEC_NO_OFFSET && err.offset < out.len);
    /* trailing garbage after a member: not a second member */
    codec_buf_free(&out);
    encode(c, data, 5000, &out);
    CHECK(codec_buf_append(&out, "garbage!!!", 10) == 0);
    expect_fail(c, out.data + 3, out.len - 3, CODEC_E_INVALID_PAYLOAD, -1, "gzip garbage");
    codec_arena_free(&arena);
    codec_buf_free(&out);
    free(data);
    codec_free(c);
}

/* ------------------------------------------------------------------------ */

static void test_gate(void)
{
    uint8_t *prose = payload_prose(4096);
    uint8_t *noise = payload_mixed(0, 1);
    uint64_t x = 5;
    uint8_t random[2000];
    for (size_t i = 0; i < sizeof random; i++)
        random[i] = (uint8_t)check_rand(&x);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t si = 0; si < SPEC_COUNT; si++) {
        char spec[64];
        snprintf(spec, sizeof spec, "%s%sgate=100", all_specs[si],
                 strchr(all_specs[si], ':') ? "," : ":");
        codec *c = make(spec);
        const struct {
            const uint8_t *p;
            size_t n;
            int marker;
        } cases[] = {{prose, 10, 0x00}, {prose, 0, 0x00}, {prose, 4096, 0x01},
                     {random, sizeof random, 0x00}};
        for (size_t k = 0; k < 4; k++) {
            codec_buf out;
            CHECK_INT(encode(c, cases[k].p, cases[k].n, &out), 0);
            CHECK_INT(out.data[3], cases[k].marker);
            CHECK(out.len - 3 <= cases[k].n + 1);
            codec_bytes back;
            codec_error err;
            CHECK_INT(decode(c, out.data + 3, out.len - 3, &arena, &back, &err), 0);
            CHECK_MEM(back.data, back.len, cases[k].p, cases[k].n);
            codec_buf_free(&out);
        }
        codec_free(c);
    }
    codec_arena_free(&arena);
    free(prose);
    free(noise);
}

static void test_spec_errors(void)
{
    static const char *const bad[] = {"zstd:0", "zstd:23", "zstd:-8", "gzip:0", "gzip:10",
                                      "deflate:10", "lz4hc:2", "lz4hc:13", "brotli:12",
                                      "lz4:3", "snappy:1", "zstd:max=0", "zstd:dict="};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        codec_error err = {0};
        codec *c = codec_parse(bad[i], NULL, &err);
        CHECK(c == NULL);
        if (err.family != CODEC_E_USAGE && strcmp(bad[i], "zstd:dict=") != 0)
            fprintf(stderr, "'%s' gave %d: %s\n", bad[i], err.family, err.message);
        CHECK(err.family == CODEC_E_USAGE || err.family == CODEC_E_TRANSIENT);
        codec_free(c);
    }
    codec_error err = {0};
    CHECK(codec_parse("zstd:dict=/nonexistent/dict", NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_TRANSIENT);
    CHECK_INT(err.detail, CODEC_D_IO);
}

static void test_typed_constructors(void)
{
    codec_error err;
    struct {
        codec *c;
        const char *spec;
    } cases[] = {
        {codec_gzip(9, &err), "gzip:9"},
        {codec_deflate(CODEC_LEVEL_DEFAULT, &err), "deflate"},
        {codec_zstd(-3, &err), "zstd:-3"},
        {codec_lz4(&err), "lz4"},
        {codec_lz4hc(12, &err), "lz4hc:12"},
        {codec_snappy(&err), "snappy"},
        {codec_brotli(0, &err), "brotli:0"},
        {codec_redisson_lz4(&err), "redisson-lz4"},
        {codec_redisson_zstd(5, &err), "redisson-zstd:5"},
        {codec_redisson_snappy(&err), "redisson-snappy"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK(cases[i].c != NULL);
        if (cases[i].c)
            CHECK_STR(codec_spec(cases[i].c), cases[i].spec);
        codec_free(cases[i].c);
    }
    CHECK(codec_gzip(0, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_zstd_dict(3, NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
}

/* Known layouts of the fixed framings: the first bytes of 1,000 bytes of
 * prose encoded by each stage. */
static void test_layouts(void)
{
    static const struct {
        const char *spec;
        const char *head;
        size_t head_len;
    } cases[] = {
        {"redisson-lz4", "\x00\x00\x03\xe8", 4},
        {"redisson-zstd", "\x00\x00\x03\xe8\x28\xb5\x2f\xfd", 8},
        /* magic, FLG = version 01 + independent blocks + content checksum, BD = 64 KiB */
        {"lz4", "\x04\x22\x4d\x18\x64\x40", 6},
        {"snappy", "\xe8\x07", 2},
        {"redisson-snappy", "\xe8\x07", 2},
        /* no name, no time, XFL 0, OS 255 */
        {"gzip", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10},
        {"deflate", "\x78\x9c", 2},
        {"zstd", "\x28\xb5\x2f\xfd", 4},
    };
    uint8_t *data = payload_prose(1000);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        codec *c = make(cases[i].spec);
        codec_buf out;
        encode(c, data, 1000, &out);
        CHECK_MEM(out.data + 3, cases[i].head_len, cases[i].head, cases[i].head_len);
        if (strstr(cases[i].spec, "zstd")) {
            size_t at = 3 + (cases[i].spec[0] == 'r' ? 4 : 0);
            CHECK_INT(ZSTD_getFrameContentSize(out.data + at, out.len - at), 1000);
        }
        codec_buf_free(&out);
        codec_free(c);
    }
    free(data);
}

static void test_zstd_dictionary(void)
{
    size_t count = 400;
    size_t *sizes;
    uint8_t *samples = payload_json_samples(count, 77, &sizes);
    uint8_t dict[4096];
    size_t dict_len = ZDICT_trainFromBuffer(dict, sizeof dict, samples, sizes, (unsigned)count);
    CHECK(!ZDICT_isError(dict_len));
    char path[] = "/tmp/codec-dict-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, dict, dict_len) == (ssize_t)dict_len);
    close(fd);

    codec_error err;
    codec *with = codec_zstd_dict(3, path, &err);
    CHECK(with != NULL);
    codec *without = make("zstd");
    codec_buf out, plain;
    encode(with, samples, sizes[0], &out);
    encode(without, samples, sizes[0], &plain);
    CHECK_INT(ZSTD_getDictID_fromFrame(out.data + 3, out.len - 3), ZDICT_getDictID(dict, dict_len));
    CHECK(out.len < plain.len);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    CHECK_INT(decode(with, out.data + 3, out.len - 3, &arena, &back, &err), 0);
    CHECK_MEM(back.data, back.len, samples, sizes[0]);
    expect_fail(without, out.data + 3, out.len - 3, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT,
                "frame needs the dictionary");
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_buf_free(&plain);
    codec_free(with);
    codec_free(without);
    unlink(path);
    free(sizes);
    free(samples);
}

/* ------------------------------------------------------------------------ */

/* After warm-up, encodes make no allocation through codec's allocator. */
static void test_steady_state_no_alloc(void)
{
    static const char *const specs[] = {"zstd", "zstd:19", "gzip:1", "deflate", "gzip:7", "lz4",
                                        "lz4hc", "snappy", "redisson-lz4", "redisson-zstd",
                                        "zstd:3 | gzip:1"};
    uint8_t *data = payload_prose(104);
    uint8_t *big = payload_mixed(300000, 4);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        counts k = {0};
        codec_allocator counting = {count_alloc, count_resize, count_release, &k};
        codec *c = make(specs[i]);
        codec_buf out;
        codec_buf_init(&out, &counting);
        codec_error err;
        codec_bytes in[2] = {{data, 104}, {big, 300000}};
        for (int w = 0; w < 3; w++)
            for (int j = 0; j < 2; j++) {
                codec_buf_clear(&out);
                CHECK_INT(codec_encode(c, &in[j], &out, &err), 0);
            }
        size_t before = k.allocs + k.resizes;
        for (int r = 0; r < 50; r++) {
            codec_buf_clear(&out);
            CHECK_INT(codec_encode(c, &in[r % 2], &out, &err), 0);
        }
        if (k.allocs + k.resizes != before)
            fprintf(stderr, "%s allocates in steady state\n", specs[i]);
        CHECK_INT(k.allocs + k.resizes, before);
        codec_buf_free(&out);
        codec_free(c);
    }
    free(data);
    free(big);
}

/* One handle, many threads: the context pools are shared safely. */
typedef struct {
    const codec *c;
    const uint8_t *data;
    size_t n;
    int failures;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *job = arg;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    for (int i = 0; i < 200; i++) {
        size_t n = (size_t)(i * 97) % job->n;
        codec_bytes in = {job->data, n}, back;
        codec_buf_clear(&out);
        codec_arena_reset(&arena);
        if (codec_encode(job->c, &in, &out, &err) ||
            codec_decode(job->c, out.data, out.len, &back, &arena, &err) || back.len != n ||
            memcmp(back.data, job->data, n) != 0)
            job->failures++;
    }
    codec_buf_free(&out);
    codec_arena_free(&arena);
    return NULL;
}

static void test_threads(void)
{
    static const char *const specs[] = {"zstd", "gzip", "deflate:9", "lz4", "lz4hc",
                                        "redisson-lz4", "brotli:1"};
    uint8_t *data = payload_mixed(20000, 8);
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        codec *c = make(specs[s]);
        pthread_t t[4];
        thread_job jobs[4];
        for (int i = 0; i < 4; i++) {
            jobs[i] = (thread_job){c, data, 20000, 0};
            pthread_create(&t[i], NULL, thread_main, &jobs[i]);
        }
        for (int i = 0; i < 4; i++) {
            pthread_join(t[i], NULL);
            CHECK_INT(jobs[i].failures, 0);
        }
        codec_free(c);
    }
    free(data);
}

/* A thread keeps the contexts it gave back (core/pool.c): here it keeps four
 * (zstd's and lz4's encoder and decoder) of a codec that the main thread
 * then frees while the thread lives; the thread goes on with another codec
 * (its kept entries are full of the dead pools', so that codec's contexts
 * take the shared slots), and at its exit the dead pools' contexts are
 * dropped. ASan / LSan check that nothing is used after free or leaked. */
typedef struct {
    codec *first, *second;
    pthread_barrier_t *step;
    const uint8_t *data;
    int failures;
} outlive_job;

static int round_trip_n(const codec *c, const uint8_t *data, size_t n, int times)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int bad = 0;
    for (int i = 0; i < times; i++) {
        codec_bytes in = {data, n}, back;
        codec_buf_clear(&out);
        codec_arena_reset(&arena);
        bad += codec_encode(c, &in, &out, NULL) != 0 ||
               codec_decode(c, out.data, out.len, &back, &arena, NULL) != 0 || back.len != n ||
               memcmp(back.data, data, n) != 0;
    }
    codec_buf_free(&out);
    codec_arena_free(&arena);
    return bad;
}

static void *outlive_main(void *arg)
{
    outlive_job *job = arg;
    job->failures += round_trip_n(job->first, job->data, 5000, 20);
    pthread_barrier_wait(job->step); /* the main thread frees `first` */
    pthread_barrier_wait(job->step);
    job->failures += round_trip_n(job->second, job->data, 5000, 20);
    return NULL;
}

static void test_kept_contexts_outlive_codec(void)
{
    uint8_t *data = payload_mixed(5000, 3);
    pthread_barrier_t step;
    pthread_barrier_init(&step, NULL, 2);
    outlive_job job = {make("zstd | lz4"), make("lz4"), &step, data, 0};
    pthread_t t;
    pthread_create(&t, NULL, outlive_main, &job);
    pthread_barrier_wait(&step);
    codec_free(job.first);
    pthread_barrier_wait(&step);
    pthread_join(t, NULL);
    CHECK_INT(job.failures, 0);
    /* This thread too: its kept contexts of a freed codec are dropped by
     * codec_free, and a new codec works beside them. */
    codec *c = make("lz4");
    CHECK_INT(round_trip_n(c, data, 5000, 5), 0);
    codec_free(c);
    CHECK_INT(round_trip_n(job.second, data, 5000, 5), 0);
    codec_free(job.second);
    pthread_barrier_destroy(&step);
    free(data);
}

int main(void)
{
    test_round_trips();
    test_sizes_against_zlib();
    test_bombs();
    test_declared_sizes();
    test_hostile();
    test_short_deflate_streams();
    test_errors_name_stage_and_offset();
    test_lz4_context_after_error();
    test_gate();
    test_spec_errors();
    test_typed_constructors();
    test_layouts();
    test_zstd_dictionary();
    test_steady_state_no_alloc();
    test_threads();
    test_kept_contexts_outlive_codec();
    return check_done("test_compress");
}
