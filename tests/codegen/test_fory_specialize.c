/* test_fory_specialize.c — the Fory code `codec-gen --specialize` writes
 * (tests/data/fory/specialize.fdl: every scalar inline, plain and optional,
 * names out of Fory order, enums numbered in order and not, held structs
 * plain and optional, lists and maps of scalars, strings, enums and
 * structs; bytes, tagged integers, array<> and unions plain, optional, in
 * lists and maps (Wide, WideHolder); tests/data/fory/vectors.fdl: the shared
 * vectors' types, Order, MediaContent and KitchenSink among them) against
 * the backend's own code for the same type (`fory:...,codegen=off`):
 *  - the backend takes the generated functions (the plan's field order and
 *    type ids equal the generated ones, for the root and the structs it
 *    holds) for every such struct in consistent mode, in compatible mode
 *    for those that hold no struct, not with hash=on nor past max-depth;
 *    WithUnion (a union with a struct case) has none;
 *  - random values (edges of every width, -0.0, NaN, empty, ASCII, UTF-8
 *    and invalid text, optional fields set and not, enum numbers that are
 *    not their values, empty, short and long lists and maps): same bytes,
 *    or the same error;
 *  - those bytes and mutations of them (truncated, a byte changed, a byte
 *    inserted, the null flag 0x00): both decoders accept or refuse alike
 *    (same family, detail, offset and message) and what they decode
 *    encodes to the same bytes;
 * in consistent and compatible mode, with ref=off and ref=on, and with
 * max-elements and max-depth under what the values take. */
#include "specialize.codec.h"
#include "vectors.codec.h"
#include "../two_paths.h"

#include "formats/fory/fory_internal.h"

#include <codec/codec.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1du;
static size_t failures, checks;

static uint64_t next_u64(void)
{
    return two_paths_next(&rng);
}

static unsigned below(unsigned n)
{
    return two_paths_below(&rng, n);
}

static void fail(const char *what, const char *type, const char *spec, size_t iter)
{
    if (failures++ < 20)
        fprintf(stderr, "FAIL %s: %s (%s, iteration %zu)\n", type, what, spec, iter);
}

static uint64_t any_int(void)
{
    static const uint64_t edges[] = {0, 1, 63, 64, 127, 128, 255, 16383, 16384, 0x7fff, 0x8000,
                                     0x0fffffff, 0x10000000, 0x7fffffff, 0x80000000u,
                                     0xffffffffu, 0x100000000u, (uint64_t)1 << 56,
                                     0x7fffffffffffffffu, 0x8000000000000000u, UINT64_MAX};
    switch (below(3)) {
    case 0: return edges[below(sizeof edges / sizeof edges[0])];
    case 1: return next_u64() % 300 - (below(2) ? 150 : 0);
    default: return next_u64() >> below(64);
    }
}

static char text_pool[1 << 18];
static size_t text_used;

/* Empty, ASCII, long ASCII (two-byte and three-byte headers), UTF-8,
 * invalid UTF-8. */
static codec_string any_text(void)
{
    static const char *const forms[] = {"", "a", "ada@example.org", "caf\xc3\xa9", "bad \xc3\x28"};
    unsigned k = below(20);
    const char *s = forms[k < 12 ? k % 3 : k < 18 ? 3 - (k & 1) : 3 + (k & 1)];
    size_t n = strlen(s), reps = below(4) ? 1 : 1 + below(below(8) ? 40 : 400);
    if (text_used + n * reps > sizeof text_pool)
        text_used = 0;
    char *d = text_pool + text_used;
    for (size_t i = 0; i < reps; i++)
        memcpy(d + i * n, s, n);
    text_used += n * reps;
    return (codec_string){d, n * reps};
}

/* Lists' and maps' items, from one pool reset per value. */
static _Alignas(16) uint8_t item_pool[1 << 20];
static size_t item_used;

static void *items(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (item_used + n > sizeof item_pool)
        return NULL;
    void *p = item_pool + item_used;
    item_used += n;
    memset(p, 0, n);
    return p;
}

static void fill_at(const codec_type *t, uint8_t *v, int depth);

/* A random value of type t at v: scalars, strings, enums (mostly one of
 * their numbers, sometimes any int32), bytes (the strings' forms), structs,
 * lists, maps and arrays (mostly short, sometimes empty or long),
 * optionals set or not, unions empty, set or past their cases. */
static void fill_at(const codec_type *t, uint8_t *v, int depth)
{
    uint64_t x = any_int();
    switch (t->kind) {
    case CODEC_T_OPTIONAL:
        if (below(3) == 0)
            return;
        *(bool *)v = true;
        fill_at(t->elem, v + t->value_offset, depth);
        return;
    case CODEC_T_STRUCT:
        for (size_t i = 0; i < t->count; i++)
            fill_at(t->fields[i].type, v + t->fields[i].offset, depth + 1);
        return;
    case CODEC_T_LIST:
    case CODEC_T_MAP: {
        unsigned k = below(10);
        size_t n = depth > 3 || k < 2 ? 0 : k < 9 ? below(4) : below(below(4) ? 20 : 300);
        size_t esz = t->elem->size, ksz = t->kind == CODEC_T_MAP ? t->key->size : 0;
        uint8_t *vals = items(n * esz + 1), *keys = ksz ? items(n * ksz + 1) : NULL;
        if (!vals || (ksz && !keys))
            n = 0;
        for (size_t i = 0; i < n; i++) {
            fill_at(t->elem, vals + i * esz, depth + 1);
            if (ksz)
                fill_at(t->key, keys + i * ksz, depth + 1);
        }
        if (t->kind == CODEC_T_LIST) {
            ((codec_list *)(void *)v)->items = vals;
            ((codec_list *)(void *)v)->count = n;
        } else {
            ((codec_map *)(void *)v)->keys = keys;
            ((codec_map *)(void *)v)->values = vals;
            ((codec_map *)(void *)v)->count = n;
        }
        return;
    }
    case CODEC_T_ENUM: {
        int32_t e = below(20) ? t->values[below((unsigned)t->count)].number : (int32_t)x;
        memcpy(v, &e, 4);
        return;
    }
    case CODEC_T_BOOL: *(bool *)v = below(2); return;
    case CODEC_T_FLOAT: {
        static const float edges[] = {0.0f, -0.0f, 1.5f, NAN, INFINITY, 1e-45f};
        float f = below(2) ? edges[below(6)] : (float)(int64_t)x / 7.0f;
        memcpy(v, &f, 4);
        return;
    }
    case CODEC_T_DOUBLE: {
        static const double edges[] = {0.0, -0.0, 1.5, NAN, -INFINITY, 5e-324};
        double d = below(2) ? edges[below(6)] : (double)(int64_t)x / 3.0;
        memcpy(v, &d, 8);
        return;
    }
    case CODEC_T_STRING: *(codec_string *)(void *)v = any_text(); return;
    case CODEC_T_UNION: {   /* none, a case, or a `which` past the cases (an error) */
        uint32_t w = below((unsigned)t->count + (below(10) ? 1 : 2));
        memcpy(v, &w, 4);
        if (w && w <= t->count)
            fill_at(t->fields[w - 1].type, v + t->fields[w - 1].offset, depth + 1);
        return;
    }
    case CODEC_T_BYTES: {
        codec_string s = any_text();
        *(codec_bytes *)(void *)v = (codec_bytes){(const uint8_t *)s.ptr, s.len};
        return;
    }
    default: memcpy(v, &x, t->size); return;   /* little-endian: the low bytes */
    }
}

static void fill(const codec_type *t, void *value)
{
    memset(value, 0, t->size);
    item_used = 0;
    fill_at(t, value, 0);
}

typedef struct pair {
    codec *spec, *plain;
    const char *name;
    int selector;   /* the fuzz target's first byte for this type and spec, or -1 */
} pair;

static bool same_error(const codec_error *a, const codec_error *b)
{
    return a->family == b->family && a->detail == b->detail && a->offset == b->offset &&
           strcmp(a->message, b->message) == 0;
}

static bool same_bytes(const codec_buf *a, const codec_buf *b)
{
    return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0);
}

/* Both decoders on in[0..n): same outcome, same re-encoding. */
static void decode_both(const pair *c, const codec_type *t, const uint8_t *in, size_t n,
                        size_t iter)
{
    static _Alignas(16) uint8_t va[8192], vb[8192];
    codec_arena arena;
    codec_arena_init(&arena, NULL, 4096);
    codec_error ea, eb;
    memset(va, 0xa5, t->size);   /* the decoders must set every byte they use */
    memset(vb, 0x5a, t->size);
    int ra = codec_decode(c->spec, in, n, va, &arena, &ea);
    int rb = codec_decode(c->plain, in, n, vb, &arena, &eb);
    checks++;
    if (!ra != !rb) {
        fail(ra ? "only the generated decoder refuses" : "only the backend refuses", t->name,
             c->name, iter);
    } else if (ra && !same_error(&ea, &eb)) {
        fail("different decode errors", t->name, c->name, iter);
        if (failures < 20)
            fprintf(stderr, "  %s @%llu / %s @%llu\n", ea.message, (unsigned long long)ea.offset,
                    eb.message, (unsigned long long)eb.offset);
    } else if (!ra) {
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        if (codec_encode(c->plain, va, &a, &ea) || codec_encode(c->plain, vb, &b, &eb) ||
            !same_bytes(&a, &b))
            fail("decoded values differ", t->name, c->name, iter);
        codec_buf_free(&a);
        codec_buf_free(&b);
    }
    codec_arena_free(&arena);
}

/* FORY_SPEC_SEEDS=DIR: the first encoding of each type and spec is
 * written there as a seed of fuzz/fuzz_codegen_fory_spec (its first byte:
 * the target's selector). */
static void write_seed(const pair *c, const codec_buf *a)
{
    const char *dir = getenv("FORY_SPEC_SEEDS");
    if (!dir || c->selector < 0)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/gen_%d", dir, c->selector);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    uint8_t sel = (uint8_t)c->selector;
    fwrite(&sel, 1, 1, f);
    fwrite(a->data, 1, a->len, f);
    fclose(f);
}

static void run_type(const codec_type *t, const pair *c, size_t iters)
{
    static _Alignas(16) uint8_t value[8192];
    codec_buf a, b;
    codec_buf_init(&a, NULL);
    codec_buf_init(&b, NULL);
    uint8_t *mut = malloc(1 << 16);
    for (size_t it = 0; it < iters; it++) {
        fill(t, value);
        codec_error ea, eb;
        codec_buf_clear(&a);
        codec_buf_clear(&b);
        int ra = codec_encode(c->spec, value, &a, &ea), rb = codec_encode(c->plain, value, &b, &eb);
        checks++;
        if (!ra != !rb || (ra && !same_error(&ea, &eb)) || (!ra && !same_bytes(&a, &b))) {
            fail("encoders differ", t->name, c->name, it);
            continue;
        }
        if (ra)
            continue;
        if (it == 0)
            write_seed(c, &a);
        decode_both(c, t, a.data, a.len, it);
        /* Mutants: truncated, a byte changed, a byte inserted, a null flag
         * rewritten as 0x00 (ref value: the backend's reading). */
        for (int m = 0; m < 6 && a.len < (1 << 16) - 1; m++) {
            size_t n = a.len, at = below((unsigned)n);
            memcpy(mut, a.data, n);
            switch (m) {
            case 0: n = at; break;
            case 1: mut[at] = (uint8_t)next_u64(); break;
            case 2: mut[at] ^= (uint8_t)(1u << below(8)); break;
            case 3:
                memmove(mut + at + 1, mut + at, n - at);
                mut[at] = (uint8_t)next_u64();
                n++;
                break;
            case 4: {
                for (size_t k = 0; k < n; k++)
                    if (mut[(at + k) % n] == 0xff) {
                        mut[(at + k) % n] = below(2) ? 0x00 : 0xfd;
                        break;
                    }
                break;
            }
            default: mut[n++] = (uint8_t)next_u64(); break;
            }
            decode_both(c, t, mut, n, it);
        }
    }
    free(mut);
    codec_buf_free(&a);
    codec_buf_free(&b);
}

/* Whether the backend takes the generated functions for t in that mode. */
static bool plan_uses_codegen(const codec_type *t, codec_fory_mode mode, bool hash)
{
    fory_plan p;
    memset(&p, 0, sizeof p);
    p.o = (codec_fory_options){.mode = mode, .schema_hash = hash, .max_depth = 64,
                               .max_elements = 1000};
    codec_error err;
    bool uses = codec__fory_plan_build(&p, NULL, t, &err) == 0 && p.gen != NULL;
    codec__fory_plan_free(&p);
    return uses;
}

int main(int argc, char **argv)
{
    size_t iters = argc > 1 ? strtoul(argv[1], NULL, 10) : 1500;
    /* With generated functions; `holds`: holds structs (consistent mode
     * only). fuzz_codegen_fory_spec's types are the first FUZZ_TYPES. */
    static const struct {
        const codec_type *t;
        bool holds;
    } gen[] = {{&spec_Scalars_type, false}, {&spec_Texts_type, false},
               {&vectors_Person_type, false}, {&vectors_LineItem_type, false},
               {&vectors_NumericStruct_type, false}, {&vectors_Order_type, true},
               {&vectors_MediaContent_type, true}, {&spec_Holder_type, true},
               {&spec_Deep_type, true}, {&spec_Bag_type, false},
               {&spec_Wide_type, false}, {&vectors_KitchenSink_type, true},
               {&spec_WideHolder_type, true},
               {&vectors_Media_type, false}, {&vectors_Image_type, false},
               {&vectors_Nested_type, false}, {&spec_Leaf_type, false}};
    enum { FUZZ_TYPES = 13 };
    const codec_type *none[] = {&spec_WithUnion_type};   /* a union with a struct case */
    size_t ngen = sizeof gen / sizeof gen[0];
    for (size_t i = 0; i < ngen; i++) {
        checks += 4;
        const codec_type *t = gen[i].t;
        if (!t->codegen || !plan_uses_codegen(t, CODEC_FORY_CONSISTENT, false) ||
            plan_uses_codegen(t, CODEC_FORY_COMPATIBLE, false) == gen[i].holds)
            fail("generated functions not taken (or taken in compatible mode)", t->name, "plan", 0);
        if (plan_uses_codegen(t, CODEC_FORY_CONSISTENT, true))
            fail("generated functions taken with hash=on", t->name, "plan", 0);
    }
    /* max-depth under the nesting: the backend's code (and its error). */
    checks++;
    {
        fory_plan p;
        memset(&p, 0, sizeof p);
        p.o = (codec_fory_options){.mode = CODEC_FORY_CONSISTENT, .max_depth = 3,
                                   .max_elements = 1000};
        codec_error err;
        if (codec__fory_plan_build(&p, NULL, &spec_Deep_type, &err) || p.gen)
            fail("generated functions taken past max_depth", "Deep", "plan", 0);
        codec__fory_plan_free(&p);
    }
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        checks++;
        if (none[i]->codegen)
            fail("generated functions for a struct with a union of structs", none[i]->name, "gen", 0);
    }
    static const char *const modes[][2] = {
        {"fory:consistent", "fory:consistent,codegen=off"},
        {"fory:compatible", "fory:compatible,codegen=off"},
        {"fory:consistent,ref=on", "fory:consistent,ref=on,codegen=off"},
        {"fory:compatible,ref=on", "fory:compatible,ref=on,codegen=off"},
        {"fory:consistent,max-elements=100", "fory:consistent,max-elements=100,codegen=off"},
        {"fory:consistent,max-depth=4", "fory:consistent,max-depth=4,codegen=off"},
    };
    for (size_t i = 0; i < ngen; i++)
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            codec_error err;
            pair c = {codec_parse(modes[m][0], gen[i].t, &err),
                      codec_parse(modes[m][1], gen[i].t, &err), modes[m][0],
                      i < FUZZ_TYPES && m < 4 ? (int)(i + FUZZ_TYPES * m) : -1};
            if (!c.spec || !c.plain) {
                fail(err.message, gen[i].t->name, modes[m][0], 0);
            } else {
                run_type(gen[i].t, &c, iters);
            }
            codec_free(c.spec);
            codec_free(c.plain);
        }
    printf("fory_specialize: %zu checks, %zu failed\n", checks, failures);
    return failures ? 1 : 0;
}
