/* text.c — the typed constructors of codec/text.h, built on the registry. */
#include "codec/text.h"
#include "text_internal.h"

static codec *make_variant(const char *stage, const char *const *names, size_t count,
                           unsigned v, codec_error *err)
{
    if (v >= count) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, stage, CODEC_NO_OFFSET,
                        "unknown %s variant %u", stage, v);
        return NULL;
    }
    return codec__make(stage, names[v], NULL, err);
}

codec *codec_base64(codec_base64_variant v, codec_error *err)
{
    static const char *const names[] = {"", "url", "url-nopad", "mime"};
    return make_variant("base64", names, 4, (unsigned)v, err);
}

codec *codec_base32(codec_base32_variant v, codec_error *err)
{
    static const char *const names[] = {"", "hex", "crockford", "z", "geohash"};
    return make_variant("base32", names, 5, (unsigned)v, err);
}

codec *codec_hex(codec_hex_case c, codec_error *err)
{
    static const char *const names[] = {"", "upper"};
    return make_variant("hex", names, 2, (unsigned)c, err);
}
