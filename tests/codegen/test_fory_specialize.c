/* test_fory_specialize.c — the Fory code `codec-gen --specialize` writes
 * (tests/data/fory/specialize.fdl: every scalar inline, plain and optional,
 * names out of Fory order; tests/data/fory/vectors.fdl: the shared vectors'
 * flat structs) against the backend's own code for the same type
 * (`fory:...,codegen=off`):
 *  - the backend takes the generated functions (the plan's field order and
 *    type ids equal the generated ones) for every flat struct, in both
 *    modes, and not with hash=on;
 *  - random values (edges of every width, -0.0, NaN, empty, ASCII, UTF-8
 *    and invalid text, optional fields set and not): same bytes;
 *  - those bytes and mutations of them (truncated, a byte changed, a byte
 *    inserted, the null flag 0x00): both decoders accept or refuse alike
 *    (same family, detail, offset and message) and what they decode
 *    encodes to the same bytes;
 * in consistent and compatible mode, with ref=off and ref=on. */
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

/* A random value of scalar or string type t at v. */
static void fill_scalar(const codec_type *t, uint8_t *v)
{
    uint64_t x = any_int();
    switch (t->kind) {
    case CODEC_T_BOOL: *(bool *)v = below(2); break;
    case CODEC_T_FLOAT: {
        static const float edges[] = {0.0f, -0.0f, 1.5f, NAN, INFINITY, 1e-45f};
        float f = below(2) ? edges[below(6)] : (float)(int64_t)x / 7.0f;
        memcpy(v, &f, 4);
        break;
    }
    case CODEC_T_DOUBLE: {
        static const double edges[] = {0.0, -0.0, 1.5, NAN, -INFINITY, 5e-324};
        double d = below(2) ? edges[below(6)] : (double)(int64_t)x / 3.0;
        memcpy(v, &d, 8);
        break;
    }
    case CODEC_T_STRING: *(codec_string *)v = any_text(); break;
    default: memcpy(v, &x, t->size); break;   /* little-endian: the low bytes */
    }
}

static void fill(const codec_type *t, void *value)
{
    memset(value, 0, t->size);
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        uint8_t *fv = (uint8_t *)value + f->offset;
        const codec_type *ft = f->type;
        if (ft->kind == CODEC_T_OPTIONAL) {
            if (below(3) == 0)
                continue;
            *(bool *)fv = true;
            fv += ft->value_offset;
            ft = ft->elem;
        }
        fill_scalar(ft, fv);
    }
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
    static uint8_t va[4096], vb[4096];
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
    static uint8_t value[4096];
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
    size_t iters = argc > 1 ? strtoul(argv[1], NULL, 10) : 3000;
    const codec_type *flat[] = {&spec_Scalars_type, &spec_Texts_type,
                                &vectors_Person_type, &vectors_LineItem_type,
                                &vectors_NumericStruct_type, &vectors_Nested_type};
    const codec_type *not_flat[] = {&vectors_Order_type, &vectors_Media_type,
                                    &vectors_KitchenSink_type};
    for (size_t i = 0; i < sizeof flat / sizeof flat[0]; i++) {
        checks += 4;
        if (!flat[i]->codegen || !plan_uses_codegen(flat[i], CODEC_FORY_CONSISTENT, false) ||
            !plan_uses_codegen(flat[i], CODEC_FORY_COMPATIBLE, false))
            fail("generated functions not taken", flat[i]->name, "plan", 0);
        if (plan_uses_codegen(flat[i], CODEC_FORY_CONSISTENT, true))
            fail("generated functions taken with hash=on", flat[i]->name, "plan", 0);
    }
    for (size_t i = 0; i < sizeof not_flat / sizeof not_flat[0]; i++) {
        checks++;
        if (not_flat[i]->codegen)
            fail("generated functions for a struct that is not flat", not_flat[i]->name, "gen", 0);
    }
    static const char *const modes[][2] = {
        {"fory:consistent", "fory:consistent,codegen=off"},
        {"fory:compatible", "fory:compatible,codegen=off"},
        {"fory:consistent,ref=on", "fory:consistent,ref=on,codegen=off"},
        {"fory:compatible,ref=on", "fory:compatible,ref=on,codegen=off"},
    };
    for (size_t i = 0; i < sizeof flat / sizeof flat[0]; i++)
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            codec_error err;
            /* fuzz_codegen_fory_spec's types: Scalars, Texts, Person,
             * LineItem, NumericStruct (the first five here). */
            pair c = {codec_parse(modes[m][0], flat[i], &err), codec_parse(modes[m][1], flat[i], &err),
                      modes[m][0], i < 5 ? (int)(i + 5 * m) : -1};
            if (!c.spec || !c.plain) {
                fail(err.message, flat[i]->name, modes[m][0], 0);
            } else {
                run_type(flat[i], &c, iters);
            }
            codec_free(c.spec);
            codec_free(c.plain);
        }
    printf("fory_specialize: %zu checks, %zu failed\n", checks, failures);
    return failures ? 1 : 0;
}
