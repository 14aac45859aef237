/* registry.c — the one table that maps stage names to constructors.
 * Adding a stage: one file that defines codec_stage_ctor_<name>, one
 * CODEC_STAGE_CTOR line and one row below. */
#include "stage_internal.h"

#include <string.h>

#define CODEC_STAGE_CTOR(name) \
    int codec_stage_ctor_##name(codec_stage *s, codec_args *a, const codec_type *t, \
                                codec_error *err)

CODEC_STAGE_CTOR(hex);
CODEC_STAGE_CTOR(json);
CODEC_STAGE_CTOR(cbor);
CODEC_STAGE_CTOR(msgpack);

static const codec_registry_row rows[] = {
    /* backends */
    {{"json", CODEC_KIND_BACKEND,
      "compact|pretty (default compact), unknown=skip|reject, require=none|all, "
      "duplicates=reject|allow, max-depth=N (128), max-size=SIZE (64m), "
      "max-string=SIZE (16m), max-elements=N (16m)",
      "JSON (RFC 8259), strict; typed or schemaless"}, codec_stage_ctor_json},
    {{"cbor", CODEC_KIND_BACKEND,
      "plain|deterministic (default plain), keys=names|tags, unknown=skip|reject, "
      "require=none|all, duplicates=reject|allow, max-depth=N (128), max-size=SIZE (64m), "
      "max-string=SIZE (16m), max-elements=N (16m)",
      "CBOR (RFC 8949); typed or schemaless"}, codec_stage_ctor_cbor},
    {{"msgpack", CODEC_KIND_BACKEND,
      "structs=map|array, unknown=skip|reject, require=none|all, duplicates=reject|allow, "
      "max-depth=N (128), max-size=SIZE (64m), max-string=SIZE (16m), max-elements=N (16m)",
      "MessagePack (bin, ext, timestamps); typed or schemaless"}, codec_stage_ctor_msgpack},
    /* text encodings */
    {{"hex", CODEC_KIND_TEXT, "lower|upper (default lower)",
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
