/* fuzz_fory.c — the Fory decoder on arbitrary bytes, in both struct modes,
 * with a struct that reaches every supported kind (nested structs, lists,
 * maps, arrays, optionals, enums) and one holding a union (xlang UNION:
 * case ids 0..2, a struct case among them). It must accept or fail
 * cleanly; an accepted value must encode again. A second decode with the
 * same codec (other writers' TypeDefs now kept parsed) must end the same
 * way and give the same value. Never crash, never leak. */
#include "codec/codec.h"

#include <stdlib.h>
#include <string.h>

typedef struct leaf { int32_t id; codec_string label; } leaf;
CODEC_STRUCT(leaf_type, leaf, CODEC_FIELD(leaf, id, 1, CODEC_INT32),
             CODEC_FIELD(leaf, label, 2, CODEC_STRING));
CODEC_LIST(leaves_type, &leaf_type);
CODEC_LIST(names_type, CODEC_STRING);
CODEC_ARRAY(ints_type, CODEC_INT32);
CODEC_MAP(counts_type, CODEC_STRING, CODEC_INT64);
CODEC_OPTIONAL(maybe_type, int32_t, CODEC_INT32);
CODEC_ENUM(color_type, {"RED", 0}, {"GREEN", 1});
typedef struct root {
    bool flag; int16_t small; uint64_t big; double x; codec_bytes raw;
    CODEC_OPTIONAL_OF(int32_t) maybe; int32_t color; leaf one; codec_list leaves, names, ints;
    codec_map counts; int64_t tagged; uint32_t fixed;
} root;
#define RF(m, n, t) CODEC_FIELD(root, m, n, t)
CODEC_STRUCT(root_type, root, RF(flag, 1, CODEC_BOOL), RF(small, 2, CODEC_INT16),
             RF(big, 3, CODEC_UINT64), RF(x, 4, CODEC_DOUBLE), RF(raw, 5, CODEC_BYTES),
             RF(maybe, 6, &maybe_type), RF(color, 7, &color_type), RF(one, 8, &leaf_type),
             RF(leaves, 9, &leaves_type), RF(names, 10, &names_type), RF(ints, 11, &ints_type),
             RF(counts, 12, &counts_type),
             CODEC_FIELD_EX(root, tagged, "tagged", 13, CODEC_INT64, CODEC_FIELD_TAGGED),
             CODEC_FIELD_EX(root, fixed, "fixed", 14, CODEC_UINT32, CODEC_FIELD_FIXED));

typedef struct pick {
    uint32_t which;
    union {
        int64_t n;
        codec_string s;
        leaf l;
    };
} pick;
CODEC_UNION(pick_type, pick, CODEC_FIELD(pick, n, 0, CODEC_INT64),
            CODEC_FIELD(pick, s, 1, CODEC_STRING), CODEC_FIELD(pick, l, 2, &leaf_type));
typedef struct holder {
    codec_string name;
    pick c;
} holder;
CODEC_STRUCT(holder_type, holder, CODEC_FIELD(holder, name, 1, CODEC_STRING),
             CODEC_FIELD(holder, c, 2, &pick_type));

/* Decodes data with a codec of `t` (registered as 100, leaf as 101); what
 * decodes must encode again. */
static void check_type(const codec_type *t, int mode, const uint8_t *data, size_t size, void *v)
{
    codec_fory_registry *r = codec_fory_registry_new(NULL);
    if (!r || codec_fory_register(r, t, 100, NULL) ||
        codec_fory_register(r, &leaf_type, 101, NULL))
        abort();
    codec_fory_options o = {.mode = mode ? CODEC_FORY_COMPATIBLE : CODEC_FORY_CONSISTENT};
    codec *c = codec_fory(r, t, &o, NULL);
    codec_fory_registry_free(r);
    if (!c)
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error err;
    codec_buf out, again;
    codec_buf_init(&out, NULL);
    codec_buf_init(&again, NULL);
    int rc = codec_decode(c, data, size, v, &arena, &err);
    if (rc == 0) {
        if (codec_encode(c, v, &out, &err) != 0)
            abort();
    } else if (rc != CODEC_E_INVALID_PAYLOAD && rc != CODEC_E_UNSUPPORTED &&
               rc != CODEC_E_NOMEM) {
        abort();
    }
    /* Again, with the TypeDefs the codec kept from the first decode: the
     * same outcome and, when it decodes, the same value. */
    codec_arena_reset(&arena);
    if (codec_decode(c, data, size, v, &arena, &err) != rc)
        abort();
    if (rc == 0 && (codec_encode(c, v, &again, &err) != 0 || again.len != out.len ||
                    memcmp(again.data, out.data, out.len) != 0))
        abort();
    codec_buf_free(&out);
    codec_buf_free(&again);
    codec_arena_free(&arena);
    codec_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    for (int mode = 0; mode < 2; mode++) {
        root v;
        check_type(&root_type, mode, data, size, &v);
        holder h;
        check_type(&holder_type, mode, data, size, &h);
    }
    return 0;
}
