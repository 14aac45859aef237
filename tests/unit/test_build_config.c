/* test_build_config.c — what this build says about itself is true: the
 * version calls agree with codec/config.h, every stage this configuration
 * left out (CODEC_WITH_*=OFF) answers CODEC_E_UNSUPPORTED "built without
 * LIB" through the spec parser and its public constructor, every stage it
 * has builds, and the options structs' reserved words are enforced. */
#include "check.h"
#include "codec/codec.h"

#include <string.h>

static void test_version(void)
{
    CHECK_INT(codec_version_number(), CODEC_VERSION_NUMBER);
    CHECK_STR(codec_version_string(), CODEC_VERSION_STRING);
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", CODEC_VERSION_MAJOR, CODEC_VERSION_MINOR,
             CODEC_VERSION_PATCH);
    CHECK_STR(codec_version_string(), expect);
}

/* A refused stage: unsupported, named, with the library in the message. */
static void check_absent(const codec *c, const codec_error *err, const char *stage,
                         const char *library)
{
    char message[64];
    snprintf(message, sizeof message, "built without %s", library);
    CHECK(c == NULL);
    CHECK_INT(err->family, CODEC_E_UNSUPPORTED);
    CHECK_STR(err->stage, stage);
    CHECK_STR(err->message, message);
}

static void test_stages(void)
{
    size_t absent = 0;
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *info = codec_registry_info(i);
        const char *missing = codec_stage_missing(info->name);
        codec_error err;
        memset(&err, 0, sizeof err);
        if (info->kind == CODEC_KIND_BACKEND) {
            CHECK(missing == NULL);   /* every backend is always built */
            continue;
        }
        codec *c = codec_parse(info->name, NULL, &err);
        if (missing) {
            absent++;
            check_absent(c, &err, info->name, missing);
        } else if (strcmp(info->name, "envelope") == 0) {
            /* built, and asks for its key ring */
            CHECK(c == NULL && err.family == CODEC_E_USAGE);
        } else {
            CHECK(c != NULL);
        }
        codec_free(c);
    }
    /* codec/config.h and the registry tell the same story. */
    CHECK((codec_stage_missing("brotli") == NULL) == CODEC_HAVE_BROTLI);
    CHECK((codec_stage_missing("snappy") == NULL) == CODEC_HAVE_SNAPPY);
    CHECK((codec_stage_missing("redisson-snappy") == NULL) == CODEC_HAVE_SNAPPY);
    CHECK((codec_stage_missing("envelope") == NULL) == CODEC_HAVE_OPENSSL);
    CHECK_INT(absent, 2 * !CODEC_HAVE_SNAPPY + !CODEC_HAVE_BROTLI + !CODEC_HAVE_OPENSSL);
    CHECK(codec_stage_missing("zstd") == NULL);
    CHECK(codec_stage_missing("no-such-stage") == NULL);
    CHECK(codec_stage_missing(NULL) == NULL);
}

static void test_constructors(void)
{
    codec_error err;
    codec *c = codec_brotli(5, &err);
    if (CODEC_HAVE_BROTLI)
        CHECK(c != NULL);
    else
        check_absent(c, &err, "brotli", "brotli");
    codec_free(c);
    c = codec_snappy(&err);
    if (CODEC_HAVE_SNAPPY)
        CHECK(c != NULL);
    else
        check_absent(c, &err, "snappy", "snappy");
    codec_free(c);
    c = codec_redisson_snappy(&err);
    if (CODEC_HAVE_SNAPPY)
        CHECK(c != NULL);
    else
        check_absent(c, &err, "redisson-snappy", "snappy");
    codec_free(c);
    if (!CODEC_HAVE_OPENSSL) {
        codec_keyring *ring = codec_keyring_parse("k 00", 4, &err);
        check_absent((const codec *)ring, &err, "envelope", "openssl");
        char line[400];
        CHECK_INT(codec_keyring_generate_line(NULL, line, sizeof line, &err),
                  CODEC_E_UNSUPPORTED);
        CHECK_STR(line, "");
        codec_envelope_options o;
        memset(&o, 0, sizeof o);
        check_absent(codec_envelope(&o, &err), &err, "envelope", "openssl");
    }
    /* gzip and deflate work with or without libdeflate, and agree with
     * themselves at every level. */
    for (int level = 1; level <= 9; level++) {
        codec *z = codec_gzip(level, &err);
        CHECK(z != NULL);
        static const char text[] = "with or without libdeflate, with or without libdeflate";
        codec_bytes in = {(const uint8_t *)text, sizeof text - 1}, back;
        codec_buf out;
        codec_buf_init(&out, NULL);
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        CHECK(codec_encode(z, &in, &out, &err) == 0);
        CHECK(codec_decode(z, out.data, out.len, &back, &arena, &err) == 0);
        CHECK_MEM(back.data, back.len, in.data, in.len);
        codec_arena_free(&arena);
        codec_buf_free(&out);
        codec_free(z);
    }
}

/* Nonzero reserved words are a usage error naming the struct. */
static void check_reserved(const codec *c, const codec_error *err, const char *type)
{
    char message[64];
    snprintf(message, sizeof message, "%s.reserved must be zero", type);
    CHECK(c == NULL);
    CHECK_INT(err->family, CODEC_E_USAGE);
    CHECK_STR(err->message, message);
}

static void test_reserved(void)
{
    codec_error err;
    codec_json_options j = {.reserved = {0, 0, 0, 1}};
    check_reserved(codec_json(codec_value_type(), &j, &err), &err, "codec_json_options");
    codec_cbor_options c = {.reserved = {1}};
    check_reserved(codec_cbor(codec_value_type(), &c, &err), &err, "codec_cbor_options");
    codec_msgpack_options m = {.reserved = {0, 1}};
    check_reserved(codec_msgpack(codec_value_type(), &m, &err), &err, "codec_msgpack_options");
    codec_protobuf_options p = {.reserved = {0, 0, 1}};
    check_reserved(codec_protobuf(codec_value_type(), &p, &err), &err, "codec_protobuf_options");
    codec_fory_options f = {.reserved = {1}};
    check_reserved(codec_fory(NULL, codec_value_type(), &f, &err), &err, "codec_fory_options");
    /* zero reserved words are the defaults */
    codec_json_options zero = {0};
    codec *ok = codec_json(codec_value_type(), &zero, &err);
    CHECK(ok != NULL);
    codec_free(ok);
}

int main(void)
{
    test_version();
    test_stages();
    test_constructors();
    test_reserved();
    return check_done("test_build_config");
}
