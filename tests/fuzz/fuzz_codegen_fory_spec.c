/* fuzz_codegen_fory_spec.c — the Fory code codec-gen writes with
 * `specialize=1` (codec/codegen.h; tests/data/fory/specialize.fdl, with
 * bytes, tagged integers and arrays in Wide, WideHolder and KitchenSink, and the
 * shared vectors' vectors.fdl) against the backend's own code for the same
 * type (`fory:...,codegen=off`), on arbitrary bytes. The first byte picks
 * the type, the mode and the ref flag; the rest is the input. Both must
 * accept the same inputs, refuse the others with the same error (family,
 * detail, offset, message), and the values they decode must encode to the
 * same bytes with either encoder. The generated sources come from
 * codec_generate() at build time (tests/CMakeLists.txt). */
#include "codec/codec.h"
#include "fuzz_target.h"
#include "../two_paths.h"
#include "specialize.codec.h"
#include "vectors.codec.h"

#include <stdlib.h>
#include <string.h>

#define NTYPES 13
#define NSPECS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* tests/codegen/test_fory_specialize.c's first NTYPES types, in its
     * order (its seeds' first byte: type + NTYPES * spec). */
    static const codec_type *const types[NTYPES] = {
        &spec_Scalars_type, &spec_Texts_type, &vectors_Person_type, &vectors_LineItem_type,
        &vectors_NumericStruct_type, &vectors_Order_type, &vectors_MediaContent_type,
        &spec_Holder_type, &spec_Deep_type, &spec_Bag_type, &spec_Wide_type,
        &vectors_KitchenSink_type, &spec_WideHolder_type};
    static const char *const specs[NSPECS][2] = {
        {"fory:consistent", "fory:consistent,codegen=off"},
        {"fory:compatible", "fory:compatible,codegen=off"},
        {"fory:consistent,ref=on", "fory:consistent,ref=on,codegen=off"},
        {"fory:compatible,ref=on", "fory:compatible,ref=on,codegen=off"}};
    static codec *gen[NTYPES][NSPECS], *plain[NTYPES][NSPECS];
    if (!gen[0][0])
        for (int t = 0; t < NTYPES; t++)
            for (int s = 0; s < NSPECS; s++)
                if (!types[t]->codegen || !(gen[t][s] = codec_parse(specs[s][0], types[t], NULL)) ||
                    !(plain[t][s] = codec_parse(specs[s][1], types[t], NULL)))
                    abort();
    if (!size)
        return 0;
    int t = data[0] % NTYPES, s = data[0] / NTYPES % NSPECS;
    data++, size--;
    static _Alignas(16) uint8_t m1[8192], m2[8192];
    if (types[t]->size > sizeof m1)
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_error e1, e2;
    int r1 = codec_decode(gen[t][s], data, size, m1, &arena, &e1);
    int r2 = codec_decode(plain[t][s], data, size, m2, &arena, &e2);
    if (!r1 != !r2)
        abort();
    if (r1) {
        if (e1.family != e2.family || e1.detail != e2.detail || e1.offset != e2.offset ||
            e1.offset > size || strcmp(e1.message, e2.message))
            abort();
    } else {
        codec_buf b[4];
        for (int i = 0; i < 4; i++)
            codec_buf_init(&b[i], NULL);
        two_paths_encode(gen[t][s], m1, &b[0]);
        two_paths_encode(plain[t][s], m2, &b[1]);
        two_paths_encode(plain[t][s], m1, &b[2]);
        two_paths_encode(gen[t][s], m2, &b[3]);
        if (!two_paths_same(&b[0], &b[1]) || !two_paths_same(&b[0], &b[2]) ||
            !two_paths_same(&b[0], &b[3]))
            abort();
        for (int i = 0; i < 4; i++)
            codec_buf_free(&b[i]);
    }
    codec_arena_free(&arena);
    return 0;
}
