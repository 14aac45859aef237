/* test_specialize.c — code generated with `specialize=1` from
 * tests/data/protobuf/presence.proto (every scalar as proto3 `optional`,
 * keys of one, two and three bytes, lists, a message field, a oneof) against
 * the descriptor path of the same type (`protobuf:codegen=off`):
 *  - random values (presence flags, zero values that are set, extreme
 *    numbers, -0.0 and NaN, strings that are not UTF-8, nesting): both
 *    encoders succeed or fail alike, with the same bytes or the same error;
 *  - their bytes and mutations of them (truncated, a byte changed, a byte
 *    inserted): both decoders accept or refuse alike (same family, detail,
 *    offset, message), and what they decode encodes to the same bytes with
 *    either encoder.
 * The mutants also go through both paths with unknown=skip, unknown=reject,
 * max-depth=2, max-elements=2 and max-size=40.
 * TestAllTypesProto3 has no proto3 `optional`: this covers that shape. */
#include "presence.codec.h"
#include "../two_paths.h"

#include <codec/codec.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef presence_Presence msg;

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next_u64(void)
{
    return two_paths_next(&rng);
}

static unsigned below(unsigned n)
{
    return two_paths_below(&rng, n);
}

/* An integer biased towards 0, small, and the edges of every width. */
static uint64_t any_int(void)
{
    static const uint64_t edges[] = {0, 1, 127, 128, 16383, 16384, 0x7fffffff, 0x80000000u,
                                     0xffffffffu, 0x100000000u, 0x7fffffffffffffffu,
                                     0x8000000000000000u, UINT64_MAX, UINT64_MAX - 1};
    switch (below(3)) {
    case 0: return edges[below(sizeof edges / sizeof edges[0])];
    case 1: return next_u64() % 300;
    default: return next_u64() >> below(64);
    }
}

static double any_double(void)
{
    static const double edges[] = {0.0, -0.0, 1.5, -2.25, 1e308, 5e-324};
    if (below(8) == 0)
        return NAN;
    return below(2) ? edges[below(6)] : (double)(int64_t)next_u64() / 3.0;
}

static char text_pool[1 << 16];
static size_t text_used;

/* Text: empty, ASCII, UTF-8, or (rarely) not UTF-8; now and then any
 * length up to 140 (the inline writer's word copies and its one-byte
 * length end at 127), ASCII or with one byte >= 0x80 anywhere. */
static codec_string any_text(void)
{
    static const char *const forms[] = {"", "a", "ada@example.org", "caf\xc3\xa9",
                                        "\xe2\x82\xac 12", "bad \xc3\x28", "\xff"};
    if (below(8) == 0) {
        size_t n = below(141);
        if (text_used + n > sizeof text_pool)
            text_used = 0;
        char *d = text_pool + text_used;
        for (size_t i = 0; i < n; i++)
            d[i] = (char)('a' + i % 26);
        if (n && below(3) == 0)
            d[below((unsigned)n)] = (char)(below(2) ? 0xc3 : 0xff);
        text_used += n;
        return (codec_string){d, n};
    }
    unsigned k = below(40);
    const char *s = forms[k < 30 ? k % 5 : k < 38 ? 2 : 5 + k % 2];
    size_t n = strlen(s), reps = below(3) ? 1 : 1 + below(40);
    if (text_used + n * reps > sizeof text_pool)
        text_used = 0;
    char *d = text_pool + text_used;
    for (size_t i = 0; i < reps; i++)
        memcpy(d + i * n, s, n);
    text_used += n * reps;
    return (codec_string){d, n * reps};
}

#define MAYBE(field, expr)              \
    do {                                \
        if (below(3)) {                 \
            m->field.has = true;        \
            m->field.value = (expr);    \
        }                               \
    } while (0)

static msg nodes[4096];
static size_t nodes_used;
static codec_string name_pool[4096];
static size_t names_used;
static int32_t packed_pool[4096];
static size_t packed_used;

static msg *new_node(void)
{
    if (nodes_used == sizeof nodes / sizeof nodes[0])
        return NULL;
    msg *m = &nodes[nodes_used++];
    memset(m, 0, sizeof *m);
    return m;
}

static void fill(msg *m, int depth)
{
    MAYBE(b, below(2) == 1);
    MAYBE(i32, (int32_t)any_int());
    MAYBE(i64, (int64_t)any_int());
    MAYBE(u32, (uint32_t)any_int());
    MAYBE(u64, any_int());
    MAYBE(s32, (int32_t)any_int());
    MAYBE(s64, (int64_t)any_int());
    MAYBE(f32, (uint32_t)any_int());
    MAYBE(f64, any_int());
    MAYBE(sf32, (int32_t)any_int());
    MAYBE(sf64, (int64_t)any_int());
    MAYBE(fl, (float)any_double());
    MAYBE(db, any_double());
    MAYBE(str, any_text());
    if (below(3)) {
        codec_string t = any_text();
        m->raw.has = true;
        m->raw.value = (codec_bytes){(const uint8_t *)t.ptr, t.len};
    }
    MAYBE(level, below(4) ? (int32_t)below(2) : (int32_t)any_int());
    m->plain = below(2) ? (int32_t)any_int() : 0;
    m->far = below(2) ? (int64_t)any_int() : 0;
    m->text = below(2) ? any_text() : (codec_string){NULL, 0};
    size_t np = below(4) ? 0 : below(6);
    if (packed_used + np <= sizeof packed_pool / sizeof packed_pool[0]) {
        m->packed.items = packed_pool + packed_used;
        for (size_t i = 0; i < np; i++)
            packed_pool[packed_used++] = (int32_t)any_int();
        m->packed.count = np;
    }
    size_t nn = below(4) ? 0 : below(4);
    if (names_used + nn <= sizeof name_pool / sizeof name_pool[0]) {
        m->names.items = name_pool + names_used;
        for (size_t i = 0; i < nn; i++)
            name_pool[names_used++] = any_text();
        m->names.count = nn;
    }
    switch (below(5)) {
    case 1: m->choice.which = presence_Presence_choice_n, m->choice.n = (int32_t)any_int(); break;
    case 2: m->choice.which = presence_Presence_choice_s, m->choice.s = any_text(); break;
    case 3:
        m->choice.which = presence_Presence_choice_p;
        if (depth < 3 && (m->choice.p = new_node()))
            fill(m->choice.p, depth + 1);
        break;
    default: break;
    }
    if (depth < 3 && below(3) == 0 && (m->next = new_node()))
        fill(m->next, depth + 1);
    if (depth < 2 && below(3) == 0) {
        size_t nk = 1 + below(3);
        msg *kids = NULL;
        if (nodes_used + nk <= sizeof nodes / sizeof nodes[0]) {
            kids = &nodes[nodes_used];
            nodes_used += nk;
            for (size_t i = 0; i < nk; i++) {
                memset(&kids[i], 0, sizeof kids[i]);
                fill(&kids[i], depth + 1);
            }
            m->kids.items = kids;
            m->kids.count = nk;
        }
    }
}

static int failures;

static void fail(size_t iter, const char *what)
{
    fprintf(stderr, "FAIL iteration %zu: specialized and descriptor paths differ: %s\n", iter,
            what);
    if (++failures > 10)
        exit(1);
}

static bool same_error(const codec_error *a, const codec_error *b)
{
    return a->family == b->family && a->detail == b->detail && a->offset == b->offset &&
           strcmp(a->message, b->message) == 0;
}

static bool same_bytes(const codec_buf *a, const codec_buf *b)
{
    return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0);
}

/* Encodes v with both codecs: same outcome. Returns rc; bytes in a. */
static int encode_both(codec *spec, codec *plain, const msg *v, codec_buf *a, codec_buf *b,
                       size_t iter)
{
    codec_error ea, eb;
    codec_buf_clear(a);
    codec_buf_clear(b);
    int ra = codec_encode(spec, v, a, &ea), rb = codec_encode(plain, v, b, &eb);
    if (!ra != !rb)
        fail(iter, "one encoder fails");
    else if (ra && !same_error(&ea, &eb))
        fail(iter, "different encode errors");
    else if (!ra && !same_bytes(a, b))
        fail(iter, "different bytes");
    return ra;
}

/* Decodes in[0..n) with both codecs: same outcome, and each decoded value
 * encodes the same with both encoders. Returns 1 when accepted. */
static int decode_both(codec *spec, codec *plain, const uint8_t *in, size_t n,
                       codec_arena *arena, size_t iter)
{
    msg ma, mb;
    codec_error ea, eb;
    int ra = codec_decode(spec, in, n, &ma, arena, &ea);
    int rb = codec_decode(plain, in, n, &mb, arena, &eb);
    if (!ra != !rb) {
        fail(iter, "one decoder refuses");
        return 0;
    }
    if (ra) {
        if (!same_error(&ea, &eb))
            fail(iter, "different decode errors");
        if (ea.family != CODEC_E_INVALID_PAYLOAD || ea.offset > n)
            fail(iter, "a decode error that is not invalid-payload inside the input");
        return 0;
    }
    codec_buf x[4];
    for (int i = 0; i < 4; i++)
        codec_buf_init(&x[i], NULL);
    encode_both(spec, plain, &ma, &x[0], &x[1], iter);
    encode_both(spec, plain, &mb, &x[2], &x[3], iter);
    if (!same_bytes(&x[0], &x[2]))
        fail(iter, "the decoded values differ");
    for (int i = 0; i < 4; i++)
        codec_buf_free(&x[i]);
    return 1;
}

int main(int argc, char **argv)
{
    size_t iterations = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
    const codec_type *t = &presence_Presence_type;
    if (!t->codegen) {
        fputs("FAIL: presence_Presence_type has no specialized code\n", stderr);
        return 1;
    }
    codec_error err;
    codec *spec = codec_parse("protobuf", t, &err);
    codec *plain = codec_parse("protobuf:codegen=off", t, &err);
    codec *bad = codec_parse("protobuf:codegen=maybe", t, &err);
    if (!spec || !plain || bad || err.family != CODEC_E_USAGE) {
        fputs("FAIL: codec_parse\n", stderr);
        return 1;
    }
    /* The decoding options, each on both paths: unknown fields skipped or
     * refused, and limits the random values reach. */
    static const char *const options[] = {"skip", "reject", "max-depth=2", "max-elements=2",
                                          "max-size=40"};
    enum { NOPT = sizeof options / sizeof options[0] };
    codec *spec_o[NOPT], *plain_o[NOPT];
    for (size_t k = 0; k < NOPT; k++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "protobuf:%s", options[k]);
        snprintf(b, sizeof b, "protobuf:%s,codegen=off", options[k]);
        if (!(spec_o[k] = codec_parse(a, t, &err)) || !(plain_o[k] = codec_parse(b, t, &err))) {
            fprintf(stderr, "FAIL: codec_parse %s\n", a);
            return 1;
        }
    }
    size_t option_refusals = 0;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_buf a, b;
    codec_buf_init(&a, NULL);
    codec_buf_init(&b, NULL);
    size_t encoded = 0, accepted = 0, mutants = 0, mutants_accepted = 0;
    uint8_t *mut = malloc(1 << 20);
    for (size_t i = 0; i < iterations && mut; i++) {
        nodes_used = names_used = packed_used = 0;
        msg *v = new_node();
        fill(v, 0);
        if (encode_both(spec, plain, v, &a, &b, i))
            continue;
        encoded++;
        accepted += (size_t)decode_both(spec, plain, a.data, a.len, &arena, i);
        for (int k = 0; k < 4 && a.len && a.len < (1 << 20) - 1; k++) {
            size_t n = a.len, at = below((unsigned)n);
            memcpy(mut, a.data, n);
            switch (k) {
            case 0: n = at; break;                                     /* truncated */
            case 1: mut[at] = (uint8_t)next_u64(); break;             /* a byte changed */
            case 2:                                                    /* a byte inserted */
                memmove(mut + at + 1, mut + at, n - at);
                mut[at] = (uint8_t)next_u64();
                n++;
                break;
            default: mut[at] ^= 0x80; break;                           /* a varint's continuation */
            }
            mutants++;
            mutants_accepted += (size_t)decode_both(spec, plain, mut, n, &arena, i);
            for (size_t o = 0; o < NOPT; o++)
                option_refusals += !decode_both(spec_o[o], plain_o[o], mut, n, &arena, i);
        }
        codec_arena_reset(&arena);
    }
    free(mut);
    printf("specialize: %zu values, %zu encoded, %zu decoded back; %zu mutants, %zu accepted; "
           "%zu refusals under the other options; %d differences\n",
           iterations, encoded, accepted, mutants, mutants_accepted, option_refusals, failures);
    if (encoded < iterations / 2 || accepted != encoded || mutants_accepted == 0 ||
        mutants_accepted == mutants || option_refusals <= mutants - mutants_accepted)
        failures++;
    for (size_t k = 0; k < NOPT; k++) {
        codec_free(spec_o[k]);
        codec_free(plain_o[k]);
    }
    codec_buf_free(&a);
    codec_buf_free(&b);
    codec_arena_free(&arena);
    codec_free(spec);
    codec_free(plain);
    return failures ? 1 : 0;
}
