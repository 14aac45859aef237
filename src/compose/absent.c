/* absent.c — what a build without an optional library (CMake options
 * CODEC_WITH_*, codec/config.h) puts in place of its stages: the same
 * symbols, so the ABI does not depend on the configuration, each failing
 * with CODEC_E_UNSUPPORTED "built without LIB". */
#include "codec/codec.h"
#include "compose/stage_internal.h"
#include "compose/stages_internal.h"

#include <string.h>

/* Stage name -> the optional library it needs, and whether it is here. */
static const struct {
    const char *stage, *library;
    bool built;
} optional_stages[] = {
    {"snappy", "snappy", CODEC_HAVE_SNAPPY},
    {"redisson-snappy", "snappy", CODEC_HAVE_SNAPPY},
    {"brotli", "brotli", CODEC_HAVE_BROTLI},
    {"envelope", "openssl", CODEC_HAVE_OPENSSL},
};

const char *codec_stage_missing(const char *name)
{
    for (size_t i = 0; name && i < sizeof optional_stages / sizeof optional_stages[0]; i++)
        if (!optional_stages[i].built && strcmp(optional_stages[i].stage, name) == 0)
            return optional_stages[i].library;
    return NULL;
}

#if !CODEC_HAVE_SNAPPY || !CODEC_HAVE_BROTLI || !CODEC_HAVE_OPENSSL
static int built_without(const char *stage, codec_error *err)
{
    return codec_error_set(err, CODEC_E_UNSUPPORTED, CODEC_D_NONE, stage, CODEC_NO_OFFSET,
                           "built without %s", codec_stage_missing(stage));
}

/* A stage constructor that refuses: the registry row stays, so `codec list`
 * and spec errors still know the name (a->stage: one constructor may serve
 * two rows, as snappy's does). */
#define ABSENT_STAGE(name)                                                            \
    int codec__stage_ctor_##name(codec_stage *s, codec_args *a, const codec_type *t, \
                                codec_error *err)                                    \
    {                                                                                 \
        (void)s, (void)t;                                                             \
        return built_without(a->stage, err);                                          \
    }
#endif

#if !CODEC_HAVE_SNAPPY
ABSENT_STAGE(snappy)

codec *codec_snappy(codec_error *err)
{
    built_without("snappy", err);
    return NULL;
}

codec *codec_redisson_snappy(codec_error *err)
{
    built_without("redisson-snappy", err);
    return NULL;
}
#endif

#if !CODEC_HAVE_BROTLI
ABSENT_STAGE(brotli)

codec *codec_brotli(int quality, codec_error *err)
{
    (void)quality;
    built_without("brotli", err);
    return NULL;
}
#endif

#if !CODEC_HAVE_OPENSSL
ABSENT_STAGE(envelope)

codec *codec_envelope(const codec_envelope_options *o, codec_error *err)
{
    if (o && o->provider.release)   /* the provider is ours even on failure */
        o->provider.release(o->provider.ctx);
    built_without("envelope", err);
    return NULL;
}

codec_keyring *codec_keyring_load(const char *path, codec_error *err)
{
    (void)path;
    built_without("envelope", err);
    return NULL;
}

codec_keyring *codec_keyring_parse(const char *text, size_t len, codec_error *err)
{
    (void)text, (void)len;
    built_without("envelope", err);
    return NULL;
}

void codec_keyring_free(codec_keyring *ring)
{
    (void)ring;   /* no ring can exist in this build */
}

codec_key_provider codec_keyring_provider(codec_keyring *ring)
{
    (void)ring;
    return (codec_key_provider){0};
}

int codec_keyring_generate_line(const char *id, char *dst, size_t cap, codec_error *err)
{
    (void)id;
    if (cap)
        dst[0] = '\0';
    return built_without("envelope", err);
}
#endif
