/* test_lazy_load.c — every library codec calls is opened on first use
 * (src/core/dynlib_internal.h): libzstd, liblz4, zlib, libdeflate,
 * libbrotlienc and libbrotlidec (and libbrotlicommon behind them),
 * libcrypto, libsnappy (and libstdc++ behind it), libhiredis and librdkafka
 * (and libssl, libsasl2 behind it). A process that only runs base64 maps
 * none of them; zstd maps libzstd alone, lz4 liblz4 alone; gzip streams at
 * level 6 (our encoder, our inflate) map none where codec folds the CRC-32
 * itself (x86 with PCLMULQDQ), else libdeflate for it, and deflate (zlib's
 * format) libdeflate for the Adler-32, never zlib; the first brotli or snappy stage, envelope, Redis connect or
 * Kafka call maps its own, and the stage works. Read from /proc/self/maps.
 * This program links libcodec.a and nothing of those libraries
 * (tests/CMakeLists.txt gives it no codec_dl_peers). */
#include "check.h"
#include "codec/codec.h"
#include "test_support.h"
#include "transforms/integrity/crc32_internal.h"

#include <stdio.h>
#include <string.h>

#if CODEC_HAVE_HIREDIS
#include "codec/redis.h"
#endif
#if CODEC_HAVE_RDKAFKA
#include "codec/kafka.h"
#endif

/* Whether a file whose name starts with `prefix` ("libcrypto.so") is
 * mapped into this process. */
static bool mapped(const char *prefix)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL);
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        const char *name = strrchr(line, '/');
        found = name && strncmp(name + 1, prefix, strlen(prefix)) == 0;
    }
    fclose(f);
    return found;
}

static const char *const lazy[] = {"libbrotlienc.so", "libbrotlidec.so", "libbrotlicommon.so",
                                   "libcrypto.so",    "libssl.so",       "librdkafka.so",
                                   "libsasl2.so",     "libhiredis.so",   "libsnappy.so",
                                   "libstdc++.so"};

static void expect_mapped(const char *prefix, bool want, const char *when)
{
    bool got = mapped(prefix);
    if (got != want)
        fprintf(stderr, "%s: %s is %smapped\n", when, prefix, got ? "" : "not ");
    CHECK(got == want);
}

/* The libraries of the compression stages and checksums. */
static const char *const compress_libs[] = {"libzstd.so", "liblz4.so", "libz.so",
                                            "libdeflate.so"};

/* Each of compress_libs mapped as `want` says (in its order). */
static void expect_compress_libs(const bool want[4], const char *when)
{
    for (size_t i = 0; i < sizeof compress_libs / sizeof compress_libs[0]; i++)
        expect_mapped(compress_libs[i], want[i], when);
}

static void fill(uint8_t *data, size_t n)
{
    uint64_t seed = 17;
    for (size_t i = 0; i < n; i++)
        data[i] = (uint8_t)(i % 7 ? check_rand(&seed) : 'a');
}

static codec *parse(const char *spec)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c) {
        char line[256];
        fprintf(stderr, "%s: %s\n", spec, codec_error_format(&err, line, sizeof line));
    }
    return c;
}

/* Encodes and decodes `n` bytes through `spec`; true when they come back. */
static bool round_trip(const char *spec, size_t n)
{
    uint8_t data[4096];
    fill(data, n < sizeof data ? n : sizeof data);
    codec_error err;
    codec *c = parse(spec);
    if (!c)
        return false;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes in = {data, n}, back = {0};
    bool ok = codec_encode(c, &in, &out, &err) == 0 &&
              codec_decode(c, out.data, out.len, &back, &arena, &err) == 0 &&
              back.len == n && memcmp(back.data, data, n) == 0;
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    return ok;
}

/* The same through a stream each way (64 KiB: our gzip and deflate
 * streams at levels 6..9 compress in 1 MiB parts). */
static bool stream_round_trip(const char *spec)
{
    static uint8_t data[64 << 10];
    fill(data, sizeof data);
    codec_error err;
    codec *c = parse(spec);
    if (!c)
        return false;
    codec_buf packed, back;
    codec_buf_init(&packed, NULL);
    codec_buf_init(&back, NULL);
    bool ok = test_stream_all(c, CODEC_STREAM_ENCODE, data, sizeof data, &packed, &err) == 0 &&
              test_stream_all(c, CODEC_STREAM_DECODE, packed.data, packed.len, &back, &err) == 0 &&
              back.len == sizeof data && memcmp(back.data, data, sizeof data) == 0;
    codec_buf_free(&back);
    codec_buf_free(&packed);
    codec_free(c);
    return ok;
}

/* zlib, libdeflate, libzstd and liblz4 each mapped by the stage that needs
 * it, when it runs. */
static void compress_libs_on_use(void)
{
    /* libzstd, liblz4, zlib, libdeflate */
    static const bool none[4] = {false, false, false, false};
    CHECK(round_trip("base64", 4000));
    CHECK(round_trip("hex | base32", 4000));
    CHECK(round_trip("crc32c | base64", 4000));
    CHECK(stream_round_trip("base64:wrap=76"));
    expect_compress_libs(none, "after base64, hex, base32, crc32c");
    /* A spec naming zstd's neighbours parses without theirs. */
    codec *parsed = parse("lz4 | gzip:1 | deflate");
    CHECK(parsed != NULL);
    codec_free(parsed);
    expect_compress_libs(none, "after parsing lz4, gzip, deflate");

    /* Our encoder and our inflate: the CRC-32 is folded by codec where the
     * CPU can, else libdeflate's (zlib's without it); the Adler-32 is
     * libdeflate's (zlib's). */
    CHECK(stream_round_trip("gzip:6"));
    bool lib_crc = codec__crc32_fold_kernel() == NULL;
    const bool gzip_only[4] = {false, false, lib_crc && !CODEC_HAVE_LIBDEFLATE,
                               lib_crc && CODEC_HAVE_LIBDEFLATE};
    expect_compress_libs(gzip_only, "after a gzip:6 stream");
    CHECK(stream_round_trip("deflate:9"));
    const bool gzip_stream[4] = {false, false, !CODEC_HAVE_LIBDEFLATE, CODEC_HAVE_LIBDEFLATE};
    expect_compress_libs(gzip_stream, "after gzip:6 and deflate:9 streams");

    CHECK(round_trip("zstd:3", 4000));
    const bool zstd[4] = {true, false, !CODEC_HAVE_LIBDEFLATE, CODEC_HAVE_LIBDEFLATE};
    expect_compress_libs(zstd, "after zstd");
    CHECK(round_trip("lz4", 4000));
    CHECK(stream_round_trip("lz4"));
    const bool lz4[4] = {true, true, !CODEC_HAVE_LIBDEFLATE, CODEC_HAVE_LIBDEFLATE};
    expect_compress_libs(lz4, "after lz4");
#if CODEC_HAVE_LIBDEFLATE
    /* libdeflate's one-shot gzip (4000 bytes: no short-stream zlib) */
    CHECK(round_trip("gzip:1 | base64", 4000));
    expect_mapped("libz.so", false, "after one-shot gzip");
#endif
    /* A gzip stream at level 1 is zlib's (our encoder's without libdeflate). */
    CHECK(stream_round_trip("gzip:1"));
    expect_mapped("libz.so", true, "after a gzip:1 stream");
}

int main(void)
{
    /* The maps are read right: libc is there. */
    expect_mapped("libc.so", true, "start");
    /* A sanitizer's or libFuzzer's runtime may bring libstdc++ itself. */
    bool cxx_runtime = mapped("libstdc++.so");
    compress_libs_on_use();
    for (size_t i = 0; i < sizeof lazy / sizeof lazy[0]; i++)
        if (!cxx_runtime || strcmp(lazy[i], "libstdc++.so") != 0)
            expect_mapped(lazy[i], false, "after gzip, base64, zstd, lz4");

#if CODEC_HAVE_BROTLI
    CHECK(round_trip("brotli:5 | base64", 4000));
    expect_mapped("libbrotlienc.so", true, "after brotli");
    expect_mapped("libbrotlidec.so", true, "after brotli");
    expect_mapped("libbrotlicommon.so", true, "after brotli"); /* their NEEDED */
    expect_mapped("libsnappy.so", false, "after brotli");
#endif

#if CODEC_HAVE_SNAPPY
    CHECK(round_trip("snappy | base64", 4000));
    CHECK(round_trip("snappy:framed", 4000));
    expect_mapped("libsnappy.so", true, "after snappy");
    expect_mapped("libstdc++.so", true, "after snappy");   /* libsnappy's NEEDED */
    expect_mapped("libcrypto.so", false, "after snappy");
#endif

#if CODEC_HAVE_OPENSSL
    codec_error err;
    char line[128];
    CHECK_INT(codec_keyring_generate_line("lazy", line, sizeof line, &err), 0);
    expect_mapped("libcrypto.so", true, "after codec_keyring_generate_line");
    codec_keyring *ring = codec_keyring_parse(line, strlen(line), &err);
    CHECK(ring != NULL);
    codec_envelope_options o = {0};
    o.provider = codec_keyring_provider(ring);
    codec *env = codec_envelope(&o, &err);
    CHECK(env != NULL);
    const uint8_t secret[] = "opened on first use";
    codec_bytes in = {secret, sizeof secret}, back = {0};
    codec_buf sealed;
    codec_buf_init(&sealed, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK_INT(codec_encode(env, &in, &sealed, &err), 0);
    CHECK(sealed.len > sizeof secret);
    CHECK_INT(codec_decode(env, sealed.data, sealed.len, &back, &arena, &err), 0);
    CHECK_MEM(back.data, back.len, secret, sizeof secret);
    codec_arena_free(&arena);
    codec_buf_free(&sealed);
    codec_free(env);
#endif

#if CODEC_HAVE_HIREDIS
    /* Nothing listens on port 1: hiredis is opened, the connect fails. */
    codec_redis_options ro = {0};
    ro.port = 1;
    ro.connect_timeout_ms = 500;
    codec_redis *r = NULL;
    codec_error rerr;
    CHECK_INT(codec_redis_connect(&ro, &r, &rerr), CODEC_E_TRANSIENT);
    CHECK(r == NULL);
    expect_mapped("libhiredis.so", true, "after codec_redis_connect");
#endif

#if CODEC_HAVE_RDKAFKA
    /* librdkafka is opened before the arguments are looked at. */
    codec_error kerr;
    CHECK_INT(codec_kafka_consume(NULL, NULL, &kerr), CODEC_E_USAGE);
    expect_mapped("librdkafka.so", true, "after codec_kafka_consume");
#endif
    return check_done("test_lazy_load");
}
