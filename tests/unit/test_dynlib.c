/* test_dynlib.c — the loader of libraries opened on first use
 * (src/core/dynlib.c): a SONAME that does not exist and a symbol a library
 * lacks give a clear CODEC_E_UNSUPPORTED naming them, every time, without
 * a crash or a leak (make asan); threads opening one library at once fill
 * its table once (make tsan); and each entry point that needs a library
 * refuses cleanly when its library cannot be loaded. */
#include "check.h"
#include "codec/codec.h"
#include "core/dynlib_internal.h"

#include <pthread.h>
#include <string.h>

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

/* A table of one zlib function (zlib is linked by libcodec anyway). */
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

#if CODEC_HAVE_OPENSSL || CODEC_HAVE_SNAPPY || CODEC_HAVE_HIREDIS || CODEC_HAVE_RDKAFKA || \
    CODEC_HAVE_BROTLI
static bool unloadable(const codec_error *err, int rc)
{
    return rc == CODEC_E_UNSUPPORTED && err->family == CODEC_E_UNSUPPORTED &&
           message_has(err, MISSING " could not be loaded", NULL);
}
#endif

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
    codec_buf packed;
    codec_buf_init(&packed, NULL);
    codec_bytes raw = {(const uint8_t *)"abc", 3}, back = {0};
    CHECK(unloadable(&err, codec_encode(br, &raw, &packed, &err)));
    CHECK_STR(err.stage, "brotli");
    CHECK_INT(packed.len, 0);
    static const uint8_t empty_stream[] = {6};   /* what brotli writes for no input */
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    CHECK(unloadable(&err, codec_decode(br, empty_stream, 1, &back, &arena, &err)));
    CHECK_STR(err.stage, "brotli");
    for (int decode = 0; decode < 2; decode++) {
        memset(&err, 0, sizeof err);
        CHECK(codec_stream_new(br, decode ? CODEC_STREAM_DECODE : CODEC_STREAM_ENCODE, &err) ==
              NULL);
        CHECK(unloadable(&err, err.family));
        CHECK_STR(err.stage, "brotli");
    }
    codec_arena_free(&arena);
    codec_buf_free(&packed);
    codec_free(br);
#endif
#if CODEC_HAVE_SNAPPY
    codec__libsnappy.soname = MISSING;
    for (int i = 0; i < 2; i++) {
        memset(&err, 0, sizeof err);
        CHECK(codec_parse(i ? "redisson-snappy" : "zstd | snappy:framed", NULL, &err) == NULL);
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

int main(void)
{
    test_missing_library();
    test_missing_symbol();
    test_threads();
    test_entry_points();
    return check_done("test_dynlib");
}
