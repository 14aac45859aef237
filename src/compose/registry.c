/* registry.c — the one table that maps stage names to constructors.
 * Adding a stage: one file that defines codec_stage_ctor_<name>, one
 * CODEC_STAGE_CTOR line and one row below. */
#include "stage_internal.h"

#include <string.h>

#define CODEC_STAGE_CTOR(name) \
    int codec_stage_ctor_##name(codec_stage *s, codec_args *a, const codec_type *t, \
                                codec_error *err)

CODEC_STAGE_CTOR(base64);
CODEC_STAGE_CTOR(base32);
CODEC_STAGE_CTOR(hex);

static const codec_registry_row rows[] = {
    /* text encodings */
    {{"base64", CODEC_KIND_TEXT,
      "std|url|url-nopad|mime (default std), kernel=auto|scalar|avx2|avx512",
      "RFC 4648 base64; mime = 76-character lines joined by CRLF"}, codec_stage_ctor_base64},
    {{"base32", CODEC_KIND_TEXT,
      "std|hex|crockford|z|geohash (default std), kernel=auto|scalar|avx2|avx512",
      "RFC 4648 base32 and its unpadded relatives; strict decoding"}, codec_stage_ctor_base32},
    {{"hex", CODEC_KIND_TEXT, "lower|upper (default lower), kernel=auto|scalar|avx2|avx512",
      "base16; decode accepts both cases"}, codec_stage_ctor_hex},
};

#define ROW_COUNT (sizeof rows / sizeof rows[0])

size_t codec_registry_count(void)
{
    return ROW_COUNT;
}

const codec_stage_info *codec_registry_info(size_t i)
{
    return i < ROW_COUNT ? &rows[i].info : NULL;
}

const codec_registry_row *codec_registry_find(const char *name)
{
    for (size_t i = 0; i < ROW_COUNT; i++)
        if (strcmp(rows[i].info.name, name) == 0)
            return &rows[i];
    return NULL;
}
