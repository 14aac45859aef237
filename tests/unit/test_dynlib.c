/* test_dynlib.c — the loader of libraries opened on first use
 * (src/core/dynlib.c): a SONAME that does not exist and a symbol a library
 * lacks give a clear CODEC_E_UNSUPPORTED naming them, every time, without
 * a crash or a leak (make asan); threads opening one library at once fill
 * its table once (make tsan); each entry point that needs a library
 * refuses cleanly when its library cannot be loaded; and CRC-32 and
 * Adler-32, which cannot refuse, give zlib's values without theirs. */
#include "check.h"
#include "codec/codec.h"
#include "codec/zstd_dict.h"
#include "core/dynlib_internal.h"
#include "test_support.h"
#include "transforms/compress/liblz4_internal.h"
#include "transforms/compress/libz_internal.h"
#include "transforms/compress/libzstd_internal.h"

#include <pthread.h>
#include <string.h>

#if CODEC_HAVE_LIBDEFLATE
#include "transforms/compress/libdeflate_internal.h"
#endif

#if CODEC_HAVE_OPENSSL
#include "transforms/crypto/libcrypto_internal.h"
#endif
#if CODEC_HAVE_BROTLI
#include "codec/stream.h"
#include "transforms/compress/libbrotli_internal.h"
#endif
#if CODEC_HAVE_SNAPPY
#include "transforms/compress/libsnappy_internal.h"
#endif
#if CODEC_HAVE_HIREDIS
#include "codec/redis.h"
#include "redis/libhiredis_internal.h"
#endif
#if CODEC_HAVE_RDKAFKA
#include "codec/kafka.h"
#include "kafka/librdkafka_internal.h"
#endif

#define MISSING "libcodec-test-missing.so.0"

/* A table of one zlib function (zlib is on every machine codec runs on). */
typedef struct {
    const char *(*fn_zlibVersion)(void);
} zlib_fns;

static bool message_has(const codec_error *err, const char *a, const char *b)
{
    return strstr(err->message, a) && (!b || strstr(err->message, b));
}

static void test_missing_library(void)
{
    zlib_fns t = {0};
    static const codec__dynlib_symbol syms[] = {
        {"zlibVersion", offsetof(zlib_fns, fn_zlibVersion)}};
    codec__dynlib lib = CODEC__DYNLIB_INIT(MISSING, syms, &t);
    for (int i = 0; i < 2; i++) {   /* the second call answers the same */
        codec_error err = {0};
        CHECK_INT(codec__dynlib_open(&lib, "test", &err), CODEC_E_UNSUPPORTED);
        CHECK_STR(err.stage, "test");
        CHECK(err.offset == CODEC_NO_OFFSET);
        CHECK(message_has(&err, MISSING " could not be loaded: ", "No such file"));
        CHECK(t.fn_zlibVersion == NULL);
    }
    CHECK_INT(codec__dynlib_open(&lib, "test", NULL), CODEC_E_UNSUPPORTED);
}

static void test_missing_symbol(void)
{
    zlib_fns t = {0};
    static const codec__dynlib_symbol syms[] = {
        {"zlibVersion", offsetof(zlib_fns, fn_zlibVersion)},
        {"codec_test_no_such_symbol", offsetof(zlib_fns, fn_zlibVersion)}};
    codec__dynlib lib = CODEC__DYNLIB_INIT("libz.so.1", syms, &t);
    codec_error err = {0};
    CHECK_INT(codec__dynlib_open(&lib, "test", &err), CODEC_E_UNSUPPORTED);
    CHECK(message_has(&err, "libz.so.1 could not be loaded: ", "codec_test_no_such_symbol"));
}

static zlib_fns shared_table;
static const codec__dynlib_symbol zlib_syms[] = {
    {"zlibVersion", offsetof(zlib_fns, fn_zlibVersion)}};
static codec__dynlib shared_lib = CODEC__DYNLIB_INIT("libz.so.1", zlib_syms, &shared_table);

static void *open_and_call(void *arg)
{
    (void)arg;
    if (codec__dynlib_open(&shared_lib, "test", NULL) != CODEC_OK)
        return NULL;
    return (void *)shared_table.fn_zlibVersion();
}

static void test_threads(void)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        CHECK_INT(pthread_create(&th[i], NULL, open_and_call, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *version = NULL;
        CHECK_INT(pthread_join(th[i], &version), 0);
        CHECK(version != NULL && ((const char *)version)[0] == '1');
    }
}

/* ---------------------------------------------------------------------------
 * Entry points, with each library's SONAME pointed at one that is missing
 * before its first use
 * ------------------------------------------------------------------------ */

static bool unloadable(const codec_error *err, int rc)
{
    return rc == CODEC_E_UNSUPPORTED && err->family == CODEC_E_UNSUPPORTED &&
           message_has(err, MISSING " could not be loaded", NULL);
}

/* Whether each direction of `c` refuses with the loader's error: encode,
 * decode of `packed`, and streams each way (unless `one_shot`). */
static void expect_unloadable(const codec *c, const char *stage, const uint8_t *packed,
                              size_t n, bool one_shot)
{
    codec_error err;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes raw = {(const uint8_t *)"abc", 3}, back = {0};
    CHECK(unloadable(&err, codec_encode(c, &raw, &out, &err)));
    CHECK_STR(err.stage, stage);
    CHECK_INT(out.len, 0);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    memset(&err, 0, sizeof err);
    CHECK(unloadable(&err, codec_decode(c, packed, n, &back, &arena, &err)));
    CHECK_STR(err.stage, stage);
    for (int decode = 0; decode < 2 && !one_shot; decode++) {
        memset(&err, 0, sizeof err);
        CHECK(codec_stream_new(c, decode ? CODEC_STREAM_DECODE : CODEC_STREAM_ENCODE, &err) ==
              NULL);
        CHECK(unloadable(&err, err.family));
        CHECK_STR(err.stage, stage);
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
}

#if CODEC_HAVE_OPENSSL
static int released;

static void count_release(void *ctx)
{
    (void)ctx;
    released++;
}
#endif

static void test_entry_points(void)
{
    codec_error err;
    /* Stages that need nothing still work. */
    codec *gz = codec_parse("gzip | base64", NULL, &err);
    CHECK(gz != NULL);
    codec_free(gz);
#if CODEC_HAVE_BROTLI
    /* brotli opens the library of the direction it runs, when it runs:
     * the stage parses, then encode, decode and streams refuse. */
    codec__libbrotlienc.soname = MISSING;
    codec__libbrotlidec.soname = MISSING;
    codec *br = codec_parse("brotli:5", NULL, &err);
    CHECK(br != NULL);
    static const uint8_t empty_stream[] = {6};   /* what brotli writes for no input */
    expect_unloadable(br, "brotli", empty_stream, 1, false);
    codec_free(br);
#endif
#if CODEC_HAVE_SNAPPY
    codec__libsnappy.soname = MISSING;
    for (int i = 0; i < 2; i++) {
        memset(&err, 0, sizeof err);
        CHECK(codec_parse(i ? "redisson-snappy" : "lz4 | snappy:framed", NULL, &err) == NULL);
        CHECK(unloadable(&err, err.family));
        CHECK_STR(err.stage, i ? "redisson-snappy" : "snappy");
    }
    CHECK(codec_snappy(&err) == NULL);
    CHECK(unloadable(&err, err.family));
#endif
#if CODEC_HAVE_OPENSSL
    codec__libcrypto.soname = MISSING;
    static const char ring_text[] =
        "k 0000000000000000000000000000000000000000000000000000000000000000\n";
    CHECK(codec_keyring_parse(ring_text, sizeof ring_text - 1, &err) == NULL);
    CHECK(unloadable(&err, err.family));
    CHECK_STR(err.stage, "keyring");
    char line[128];
    CHECK(unloadable(&err, codec_keyring_generate_line(NULL, line, sizeof line, &err)));
    codec_envelope_options o = {0};
    o.provider.release = count_release;
    CHECK(codec_envelope(&o, &err) == NULL);
    CHECK(unloadable(&err, err.family));
    CHECK_STR(err.stage, "envelope");
    CHECK_INT(released, 1);   /* the provider is the codec's even on failure */
#endif
#if CODEC_HAVE_HIREDIS
    codec__libhiredis.soname = MISSING;
    codec_redis *r = (codec_redis *)&err;
    CHECK(unloadable(&err, codec_redis_connect(NULL, &r, &err)));
    CHECK(r == NULL);
    CHECK_STR(err.stage, "redis");
#endif
#if CODEC_HAVE_RDKAFKA
    codec__librdkafka.soname = MISSING;
    CHECK(unloadable(&err, codec_kafka_consume(NULL, NULL, &err)));
    CHECK_STR(err.stage, "kafka");
    codec_bytes v = {(const uint8_t *)"x", 1};
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec *hex = codec_parse("hex", NULL, &err);
    int not_headers;   /* never used as headers: the open fails first */
    CHECK(unloadable(&err, codec_kafka_serialize(hex, NULL, &v, &out,
                                                 (rd_kafka_headers_t *)&not_headers, &err)));
    CHECK_INT(out.len, 0);
    CHECK_INT(codec_kafka_serialize(hex, NULL, &v, &out, NULL, &err), 0);   /* no headers */
    CHECK_INT(out.len, 2);
    codec_free(hex);
    codec_buf_free(&out);
    codec_kafka_conf_set_delivery((rd_kafka_conf_t *)&not_headers);   /* does nothing */
#endif
}

/* ---------------------------------------------------------------------------
 * The compression libraries and the checksums, all four missing
 * ------------------------------------------------------------------------ */

/* CRC-32 and Adler-32 of n bytes (i * 31 + 7) & 0xff and of n bytes 0xff,
 * and of "123456789", by Python's zlib. */
#define PATTERN_BYTES 100000
#define PATTERN_CRC32 0x92858800u
#define PATTERN_ADLER32 0x76f5980fu
#define ONES_CRC32 0x68c6cec4u
#define ONES_ADLER32 0x149a302cu

/* Without their library the checksums come from codec's own kernels, with
 * the same values: checked whole and in pieces. */
static void test_checksums_without_library(void)
{
    static uint8_t pattern[PATTERN_BYTES], ones[PATTERN_BYTES];
    for (size_t i = 0; i < PATTERN_BYTES; i++)
        pattern[i] = (uint8_t)(i * 31 + 7);
    memset(ones, 0xff, sizeof ones);
    CHECK(codec_crc32(0, "123456789", 9) == 0xcbf43926u);
    CHECK(codec_adler32(1, "123456789", 9) == 0x091e01deu);
    CHECK(codec_crc32(0, pattern, PATTERN_BYTES) == PATTERN_CRC32);
    CHECK(codec_adler32(1, pattern, PATTERN_BYTES) == PATTERN_ADLER32);
    CHECK(codec_crc32(0, ones, PATTERN_BYTES) == ONES_CRC32);
    CHECK(codec_adler32(1, ones, PATTERN_BYTES) == ONES_ADLER32);
    uint32_t crc = 0, adler = 1;
    for (size_t at = 0, k = 1; at < PATTERN_BYTES; at += k, k = k * 3 + 1) {
        size_t n = PATTERN_BYTES - at < k ? PATTERN_BYTES - at : k;
        crc = codec_crc32(crc, pattern + at, n);
        adler = codec_adler32(adler, pattern + at, n);
    }
    CHECK(crc == PATTERN_CRC32);
    CHECK(adler == PATTERN_ADLER32);
    CHECK(codec_crc32(5, NULL, 0) == 5 && codec_adler32(7, NULL, 0) == 7);
}

/* gzip and deflate at levels 6..9 are our encoder, their streams' decoder
 * our inflate: they work without zlib or libdeflate. */
static void test_flate_without_library(void)
{
    static uint8_t data[PATTERN_BYTES];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i % 13 ? i * 31 + 7 : 'a');
    static const char *const specs[] = {"gzip:6", "deflate:9", "crc32 | adler32"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec *c = test_parse(specs[i]);
        codec_buf packed, back;
        codec_buf_init(&packed, NULL);
        codec_buf_init(&back, NULL);
        codec_error err;
        codec_bytes in = {data, sizeof data};
        CHECK_INT(codec_encode(c, &in, &packed, &err), 0);
        CHECK_INT(test_stream_all(c, CODEC_STREAM_DECODE, packed.data, packed.len, &back, &err),
                  0);
        CHECK_MEM(back.data, back.len, data, sizeof data);
        codec_buf_free(&back);
        codec_buf_free(&packed);
        codec_free(c);
    }
}

static void test_compress_entry_points(void)
{
    codec__libzstd.soname = MISSING;
    codec__liblz4.soname = MISSING;
    codec__libz.soname = MISSING;
#if CODEC_HAVE_LIBDEFLATE
    codec__libdeflate.soname = MISSING;
#endif
    test_checksums_without_library();
    test_flate_without_library();

    /* zstd opens libzstd in its constructor (its levels are the
     * library's), dictionary training once its arguments are good. */
    codec_error err;
    for (int i = 0; i < 2; i++) {
        memset(&err, 0, sizeof err);
        CHECK(codec_parse(i ? "redisson-zstd" : "base64 | zstd:3", NULL, &err) == NULL);
        CHECK(unloadable(&err, err.family));
        CHECK_STR(err.stage, i ? "redisson-zstd" : "zstd");
    }
    CHECK(codec_zstd(3, &err) == NULL);
    CHECK(unloadable(&err, err.family));
    static const uint8_t sample[200];
    codec_bytes samples[CODEC_ZSTD_DICT_MIN_SAMPLES];
    for (size_t i = 0; i < CODEC_ZSTD_DICT_MIN_SAMPLES; i++)
        samples[i] = (codec_bytes){sample, sizeof sample};
    codec_buf dict;
    codec_buf_init(&dict, NULL);
    CHECK_INT(codec_zstd_train_dict(samples, 1, 0, &dict, &err), CODEC_E_USAGE);
    CHECK(unloadable(&err, codec_zstd_train_dict(samples, CODEC_ZSTD_DICT_MIN_SAMPLES, 0,
                                                 &dict, &err)));
    CHECK_STR(err.stage, "dict");
    CHECK_INT(dict.len, 0);
    codec_buf_free(&dict);

    /* lz4 parses, then each direction opens liblz4 when it runs, before
     * it reads its input. */
    static const uint8_t lz4_frame[] = {0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0, 0, 0, 0};
    static const char *const lz4_specs[] = {"lz4", "lz4hc:9", "redisson-lz4"};
    static const char *const lz4_stages[] = {"lz4", "lz4hc", "redisson-lz4"};
    for (size_t i = 0; i < 3; i++) {
        codec *c = test_parse(lz4_specs[i]);
        expect_unloadable(c, lz4_stages[i], lz4_frame, sizeof lz4_frame, i == 2);
        codec_free(c);
    }

    /* gzip's other paths: levels 1..5 (libdeflate's one-shot, zlib's
     * stream) and the one-shot decoder. */
    codec *gz = test_parse("gzip:1");
    static const uint8_t empty_gzip[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff,
                                         3, 0, 0, 0, 0, 0, 0, 0, 0, 0};
#if CODEC_HAVE_LIBDEFLATE
    expect_unloadable(gz, "gzip", empty_gzip, sizeof empty_gzip, true);
    memset(&err, 0, sizeof err);
    CHECK(codec_stream_new(gz, CODEC_STREAM_ENCODE, &err) == NULL);
    CHECK(unloadable(&err, err.family));
    CHECK_STR(err.stage, "gzip");
#else
    codec_bytes back = {0};
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK(unloadable(&err, codec_decode(gz, empty_gzip, sizeof empty_gzip, &back, &arena, &err)));
    CHECK_STR(err.stage, "gzip");
    codec_arena_free(&arena);
#endif
    codec_free(gz);
}

int main(void)
{
    test_missing_library();
    test_missing_symbol();
    test_threads();
    test_compress_entry_points();   /* first: nothing has used them yet */
    test_entry_points();
    return check_done("test_dynlib");
}
