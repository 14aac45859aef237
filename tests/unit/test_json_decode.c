/* test_json_decode.c — the fast decoder and validator (decode.c) against
 * the reference walker and reader on the paths that depend on where bytes
 * fall: white-space runs of every length (the repeated-indentation check),
 * short strings copied while they are scanned (every length around the
 * 16-byte steps and the 64-byte limit, a stop byte at every offset, the
 * text pool nearly full), and members the model skips (strings, escapes,
 * UTF-8, invalid bytes at every offset, truncation, depth and max-string
 * limits inside them; inside skipped containers: escapes, surrogates,
 * invalid UTF-8 and control bytes at every offset of a 64-byte block and
 * across blocks, every grammar case of numbers and literals, every
 * sequence of four tokens (also across a block boundary), nesting around
 * 64 levels, a member several
 * blocks long corrupted and cut at every byte; the key memo: keys next
 * to remembered ones, escapes, duplicates, each byte of a repeated record
 * corrupted or cut). On a valid document the fast decoder must decode
 * the reference's value; on an invalid one it must give up (the reference
 * then reports the error); the fast validator must say yes exactly when
 * the reader accepts. Where the CPU has the container skipper kernel
 * (AVX-512), it is also run alone on each skipped member: it may answer
 * only where the reader's skip succeeds, with the same end, and must
 * answer on every valid document. Schemaless values (codec_value) are held
 * to the same rule on the standard documents, numbers at the int64/uint64/
 * double boundaries, escaped keys, duplicates, limits and every cut of a
 * document. ctest runs this again with CODEC_CPU_MASK=0 (the byte walk
 * only). */
#include "check.h"
#include "codec/codec.h"
#include "formats/json/json_internal.h"
#include "formats/json/json_scan_internal.h"

typedef struct rec {
    codec_string name;
    codec_list tags;   /* of codec_string */
    int64_t n;
} rec;

CODEC_LIST(tags_t, CODEC_STRING);
CODEC_STRUCT(rec_t, rec,
             CODEC_FIELD(rec, name, 1, CODEC_STRING),
             CODEC_FIELD(rec, tags, 2, &tags_t),
             CODEC_FIELD(rec, n, 3, CODEC_INT64));
CODEC_LIST(recs_t, &rec_t);

static codec_arena arena;
static codec_json_options opts;
static int valid_docs, invalid_docs;

static bool same_string(codec_string a, codec_string b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool same_recs(const codec_list *a, const codec_list *b)
{
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++) {
        const rec *x = (const rec *)a->items + i, *y = (const rec *)b->items + i;
        if (!same_string(x->name, y->name) || x->n != y->n || x->tags.count != y->tags.count)
            return false;
        for (size_t j = 0; j < x->tags.count; j++)
            if (!same_string(((const codec_string *)x->tags.items)[j],
                             ((const codec_string *)y->tags.items)[j]))
                return false;
    }
    return true;
}

/* The reader's verdict on the whole document (0 or an error code). */
static int reader_verdict(const uint8_t *doc, size_t n)
{
    codec_json_reader r;
    codec_json_token tok;
    codec_error err;
    codec_json_reader_init(&r, doc, n, NULL, &opts);
    int rc;
    while (!(rc = codec_json_next(&r, &tok, &err)) && tok != CODEC_JSON_END)
        ;
    return rc;
}

static bool deep_nesting;   /* the skipped member may nest past the kernel's 63 levels */
static bool long_raw_strings;   /* it may hold strings over max-string before unescaping */
static int kernel_answers;

/* The container skipper kernel alone on the member named "skip" (the
 * list and the struct around it hold two levels), when the CPU has it:
 * where it answers, the reader's skip of that value must succeed and end
 * at the same byte; on a valid document it must answer. */
static void check_kernel(const uint8_t *doc, size_t n, bool valid)
{
    const unsigned need = CODEC_CPU_AVX512 | CODEC_CPU_PCLMUL;
    const uint8_t *at = doc;
    while (at + 7 <= doc + n && memcmp(at, "\"skip\":", 7) != 0)
        at++;
    if ((codec_cpu_features() & need) != need || at + 7 > doc + n ||
        opts.max_string < JSON_SKIP_MIN_MAX_STRING)
        return;
    for (at += 7; at < doc + n && *at == ' '; at++)
        ;
    if (at == doc + n || (*at != '{' && *at != '['))
        return;
    codec_json_reader r;
    codec_error err;
    codec_json_reader_init(&r, doc, n, &arena, &opts);
    codec__json_reader_seek(&r, at, 2);
    int rc = codec__json_decode_one(&r, NULL, NULL, &opts, &arena, &err);
    const uint8_t *end =
        codec__json_container_skipper()(at, doc + n, (uint32_t)opts.max_depth - 2, opts.max_string);
    if (end) {
        kernel_answers++;
        CHECK(rc == 0 && end == r.p);
    } else if (valid && !deep_nesting && !long_raw_strings) {
        fprintf(stderr, "kernel refused a valid document: %.*s\n", (int)(n < 300 ? n : 300),
                (const char *)doc);
        CHECK(end != NULL);
    }
}

/* Both decoders and both validators on doc[0..n); `what` names the case
 * when they disagree. Returns the reference decoder's verdict. */
static int agree(const uint8_t *doc, size_t n, const char *what)
{
    codec_list a = {0}, b = {0};
    codec_error err;
    codec_arena_reset(&arena);
    int ref = codec__json_decode_reference(&recs_t, doc, n, &b, &opts, &arena, &err);
    int fast = codec__json_decode_fast(&recs_t, doc, n, &a, &opts, true, &arena, &err);
    bool ok = ref == 0 ? fast == 0 && same_recs(&a, &b) : fast != 0;
    int reader = reader_verdict(doc, n);
    /* The model never makes the typed walk stricter than the grammar. */
    ok = ok && (ref != 0 || reader == 0) && codec__json_valid_fast(doc, n, &opts) == (reader == 0);
    if (!ok) {
        fprintf(stderr, "%s: reference %d fast %d reader %d: %.*s\n", what, ref, fast, reader,
                (int)(n < 300 ? n : 300), (const char *)doc);
        CHECK(ok);
    }
    check_kernel(doc, n, ref == 0);
    ref == 0 ? valid_docs++ : invalid_docs++;
    return ref;
}

typedef struct text {
    uint8_t b[16384];
    size_t n;
} text;

static void put(text *t, const char *s)
{
    size_t k = strlen(s);
    if (t->n + k <= sizeof t->b) {
        memcpy(t->b + t->n, s, k);
        t->n += k;
    }
}

/* A run of `len` white-space bytes, a newline first when `newline`. */
static void put_ws(text *t, size_t len, bool newline, char fill)
{
    for (size_t i = 0; i < len && t->n < sizeof t->b; i++)
        t->b[t->n++] = (uint8_t)(i == 0 && newline ? '\n' : fill);
}

/* Lists whose items are indented by runs of every length: repeated (the
 * check hits) and changing every few items (it misses and measures), in
 * the typed list, in a typed struct and in a skipped member; then the
 * same with one byte of a run replaced by something that is not white
 * space. */
static void check_white_space(void)
{
    static const char fills[] = {' ', '\t', '\r'};
    for (size_t fi = 0; fi < sizeof fills; fi++)
        for (size_t len = 0; len <= 40; len++)
            for (size_t change = 1; change <= 4; change++) {
                text t = {.n = 0};
                put(&t, "[");
                for (int i = 0; i < 6; i++) {
                    size_t run = len + (size_t)i / change * 3 % 17;
                    if (i)
                        put(&t, ",");
                    put_ws(&t, run, true, fills[fi]);
                    put(&t, "{");
                    put_ws(&t, run + 2, true, fills[fi]);
                    put(&t, "\"name\": \"n\",");
                    put_ws(&t, run + 2, true, fills[fi]);
                    put(&t, "\"skip\": [1,");
                    put_ws(&t, run, true, fills[fi]);
                    put(&t, "{\"a\":");
                    put_ws(&t, run % 3, false, ' ');
                    put(&t, "2,");
                    put_ws(&t, run, true, fills[fi]);
                    put(&t, "\"b\": [3,");
                    put_ws(&t, run + 1, true, fills[fi]);
                    put(&t, "4]},");
                    put_ws(&t, run, true, fills[fi]);
                    put(&t, "5],");
                    put_ws(&t, run + 2, true, fills[fi]);
                    put(&t, "\"tags\": [\"x\",");
                    put_ws(&t, run, false, fills[fi]);
                    put(&t, "\"y\",");
                    put_ws(&t, run, false, fills[fi]);
                    put(&t, "\"z\"],");
                    put_ws(&t, run + 2, true, fills[fi]);
                    put(&t, "\"n\": 7");
                    put_ws(&t, run, true, fills[fi]);
                    put(&t, "}");
                }
                put_ws(&t, len, true, fills[fi]);
                put(&t, "]");
                put_ws(&t, len, true, fills[fi]);
                CHECK_INT(agree(t.b, t.n, "white space"), 0);
                static const size_t broken[] = {0, 1, 7, 8, 15, 16, 17, 31};
                bool broken_len = false;
                for (size_t k = 0; k < sizeof broken / sizeof broken[0]; k++)
                    broken_len |= len == broken[k];
                if (change != 1 || fi != 0 || !broken_len)
                    continue;
                /* One byte of white space at a time becomes something else. */
                for (size_t at = 0; at < t.n; at++) {
                    uint8_t was = t.b[at];
                    if (was > ' ')
                        continue;
                    static const uint8_t bad[] = {'\f', 0, 'x'};
                    for (size_t k = 0; k < sizeof bad; k++) {
                        t.b[at] = bad[k];
                        CHECK(agree(t.b, t.n, "white space broken") != 0);
                    }
                    t.b[at] = was;
                }
            }
}

/* A ',' and the white space after it close to the end of the input,
 * where there are fewer than 16 bytes to classify at once. */
static void check_white_space_at_end(void)
{
    for (size_t run = 0; run <= 20; run++)
        for (size_t tail = 0; tail <= 20; tail++) {
            text t = {.n = 0};
            put(&t, "[{\"tags\":[\"a\",");
            put_ws(&t, run, true, ' ');
            put(&t, "\"b\",");
            put_ws(&t, run, true, ' ');
            put(&t, "\"c\"]},");
            put_ws(&t, run, false, ' ');
            put(&t, "{}]");
            put_ws(&t, tail, true, ' ');
            CHECK_INT(agree(t.b, t.n, "white space at the end"), 0);
        }
}

/* Appends a string body of `len` bytes whose byte `at` (when < len) is
 * replaced by `odd` (an escape, a control byte, UTF-8), filled with
 * letters that change with the position. */
static void put_body(text *t, size_t len, size_t at, const char *odd)
{
    for (size_t i = 0; i < len; i++) {
        if (i == at) {
            put(t, odd);
            continue;
        }
        char c[2] = {(char)('a' + (i * 7 + len) % 26), 0};
        put(t, c);
    }
}

static const char *const ODD[] = {
    "\\n", "\\u00e9", "\\ud83d\\ude0b", "\\\"", "\xc3\xa9", "\xf0\x9f\x98\x8b", /* valid */
    "\\x", "\\u00g9", "\\ud83d", "\x01", "\x7f\xff", "\xc3", "\xed\xa0\x80",   /* invalid */
    "\\ ",
};
#define VALID_ODD 6

/* A typed string and a skipped one of every length around the 16-byte
 * steps and the 64-byte limit of the copy-while-scanning path, with a stop
 * byte at every offset; near the end of the input, or with a long record
 * after it (the text pool is sized by the input left, so only then does
 * it have the room that path needs). */
static void check_strings(void)
{
    char filler[160];
    memset(filler, 'f', sizeof filler - 1);
    filler[sizeof filler - 1] = 0;
    for (size_t len = 0; len <= 90; len++)
        for (size_t oi = 0; oi <= sizeof ODD / sizeof ODD[0]; oi++)
            for (size_t at = 0; at < (oi ? len : 1); at++)
                for (int skipped = 0; skipped < 2; skipped++)
                    for (int tail = 0; tail < 2; tail++) {
                        const char *odd = oi ? ODD[oi - 1] : "";
                        text t = {.n = 0};
                        put(&t, "[{\"name\":\"first\"},");
                        put(&t, skipped ? "{\"name\":\"k\",\"other\":\"" : "{\"name\":\"");
                        put_body(&t, len, oi ? at : len, odd);
                        put(&t, "\"");
                        if (tail) {
                            put(&t, ",\"tags\":[\"a\",\"b\"],\"n\":12345678901234},{\"name\":\"");
                            put(&t, filler);
                            put(&t, "\"}");
                        } else {
                            put(&t, "}");
                        }
                        put(&t, "]");
                        int want = oi == 0 || oi <= VALID_ODD ? 0 : 1;
                        CHECK_INT(agree(t.b, t.n, "string") != 0, want);
                    }
}

/* Strings of many lengths with lists between them: the text pool's room
 * walks through many values (check_pool_room() hits each one exactly). */
static void check_pool(void)
{
    text t = {.n = 0};
    put(&t, "[");
    for (size_t i = 0; i < 150; i++) {
        put(&t, i ? ",{\"name\":\"" : "{\"name\":\"");
        put_body(&t, (i * 37) % 91, SIZE_MAX, "");
        put(&t, "\",\"tags\":[\"");
        put_body(&t, i % 70, SIZE_MAX, "");
        put(&t, "\"]}");
    }
    put(&t, "]");
    CHECK_INT(agree(t.b, t.n, "pool"), 0);
}

/* A string of every length 0..80 starting when the text pool has exactly
 * `room` bytes left, for every room below 80: the pool's chunk is 4,096
 * bytes once the input left is longer, and each plain string takes its own
 * length from it, so strings of known lengths bring it to that room. The
 * copy-while-scanning path stores 16-byte blocks up to 64 bytes ahead, so a
 * wrong room check there writes past the chunk: into the next arena
 * allocation (the values compared here) or into poisoned bytes (ASan). */
static void check_pool_room(void)
{
    static text t;
    for (size_t room = 0; room < 80; room++)
        for (size_t len = 0; len <= 80; len++) {
            t.n = 0;
            put(&t, "[");
            for (size_t taken = 0, step; taken < 4096 - room; taken += step) {
                step = 4096 - room - taken < 60 ? 4096 - room - taken : 60;
                put(&t, taken ? ",{\"name\":\"" : "{\"name\":\"");
                put_body(&t, step, SIZE_MAX, "");
                put(&t, "\"}");
            }
            put(&t, ",{\"name\":\"");
            put_body(&t, len, SIZE_MAX, "");
            put(&t, "\",\"tags\":[\"x\"]}");
            for (int i = 0; i < 3; i++) {   /* more input, and strings after */
                put(&t, ",{\"name\":\"");
                put_body(&t, 40 + (size_t)i, SIZE_MAX, "");
                put(&t, "\"}");
            }
            put(&t, "]");
            CHECK_INT(agree(t.b, t.n, "pool room"), 0);
        }
}

/* max-string on typed and skipped strings, the limit falling on every
 * length (escapes count decoded). */
static void check_max_string(void)
{
    size_t saved = opts.max_string;
    for (size_t len = 5; len <= 80; len++)   /* longer than the keys */
        for (size_t max = len - 1; max <= len; max++)
            for (int skipped = 0; skipped < 2; skipped++)
                for (int escaped = 0; escaped < 2; escaped++) {
                    opts.max_string = max;
                    text t = {.n = 0};
                    put(&t, skipped ? "[{\"name\":\"a\"},{\"o\":\""
                                    : "[{\"name\":\"a\"},{\"name\":\"");
                    put_body(&t, len, escaped ? len / 2 : SIZE_MAX, "\\n");
                    put(&t, "\"}");
                    for (int i = 0; i < 10; i++)   /* room in the text pool */
                        put(&t, ",{\"n\":1234567890}");
                    put(&t, "]");
                    CHECK_INT(agree(t.b, t.n, "max-string") != 0, max < len);
                }
    opts.max_string = saved;
}

/* Integers of every length from 1 to 21 digits (the word-at-a-time path
 * takes up to 8), at the end of the input or not, followed by
 * what makes them a real number or a grammar error. */
static void check_integers(void)
{
    static const char *const after[] = {"", ".5", "e1", "x", "-"};
    static const char *const sign[] = {"", "-", "0"};
    static const char digit[] = {'1', '9', '0', '7'};
    for (size_t len = 1; len <= 21; len++)
        for (size_t a = 0; a < sizeof after / sizeof after[0]; a++)
            for (size_t s = 0; s < 3; s++)
                for (size_t d = 0; d < sizeof digit; d++)
                    for (int tail = 0; tail < 2; tail++) {
                        text t = {.n = 0};
                        put(&t, "[{\"n\":");
                        put(&t, sign[s]);
                        put(&t, "9");
                        for (size_t i = 1; i < len; i++) {
                            char c[2] = {digit[(d + i) % sizeof digit], 0};
                            put(&t, c);
                        }
                        put(&t, after[a]);
                        put(&t, tail ? ",\"name\":\"a padding string of some length\"}]" : "}]");
                        /* Too long for int64, not an integer, or bad. */
                        bool bad = len > 19 || (len == 19 && d % 2 == 0) || a != 0 || s == 2;
                        CHECK_INT(agree(t.b, t.n, "integer") != 0, bad);
                    }
}

/* Nesting inside a skipped member up to the depth limit and one past it. */
static void check_depth(void)
{
    size_t saved = opts.max_depth;
    opts.max_depth = 12;
    for (size_t levels = 0; levels <= 12; levels++)
        for (int objects = 0; objects < 2; objects++) {
            text t = {.n = 0};
            put(&t, "[{\"skip\":");
            for (size_t i = 0; i < levels; i++)
                put(&t, objects ? "{\"k\": " : "[ ");
            put(&t, "1");
            for (size_t i = 0; i < levels; i++)
                put(&t, objects ? "}" : "]");
            put(&t, "}]");
            /* The list and the struct hold two levels. */
            CHECK_INT(agree(t.b, t.n, "depth") != 0, levels + 2 > opts.max_depth);
        }
    opts.max_depth = saved;
}

/* A skipped member of every kind, pretty-printed, with each byte in turn
 * replaced by bytes that break (or keep) the grammar, and cut at every
 * byte. */
static void check_corruption(void)
{
    static const char doc[] =
        "[\n  {\n    \"name\": \"a\",\n    \"skip\": {\n      \"s\": \"t\\u00e9xt \\\" "
        "\xe3\x81\x82\xf0\x9f\x98\x8b long enough to cross a block boundary\",\n"
        "      \"a\": [1, -2.5e+3, 0.5, 1E9, true, false, null, [], {}],\n"
        "      \"o\": {\"k\": [\"v\", {\"w\": -0}]}\n    },\n    \"n\": 3\n  }\n]";
    static const uint8_t bytes[] = {'x', 0x01, 0xff, 0x80, '"', '\\', ' ', ']', '}', ',',
                                    ':', '0', '-', '.', 'e', '{', '[', 't'};
    uint8_t b[sizeof doc];
    size_t n = sizeof doc - 1;
    CHECK_INT(agree((const uint8_t *)doc, n, "corruption base"), 0);
    for (size_t at = 0; at < n; at++) {
        for (size_t k = 0; k < sizeof bytes; k++) {
            memcpy(b, doc, n);
            b[at] = bytes[k];
            agree(b, n, "corruption");
        }
        CHECK(agree((const uint8_t *)doc, at, "truncation") != 0);
    }
}

/* Pads t with a skipped member of `pad` letters, so what follows falls at
 * every offset of a 64-byte block in turn. */
static void put_pad(text *t, size_t pad)
{
    put(t, "\"pad\":\"");
    put_body(t, pad, SIZE_MAX, "");
    put(t, "\",");
}

/* Inside skipped containers, nested two deep: a long string with each
 * ODD sequence at every offset (so across the boundaries of 64-byte
 * blocks, from every start), and each control byte at a few offsets. */
static void check_skipped_strings(void)
{
    for (size_t oi = 0; oi < sizeof ODD / sizeof ODD[0]; oi++)
        for (size_t at = 0; at < 140; at++)
            for (int object = 0; object < 2; object++) {
                text t = {.n = 0};
                put(&t, "[{\"name\":\"a\",");
                put(&t, object ? "\"skip\":{\"k\":{\"s\":\"" : "\"skip\":[1,[\"");
                put_body(&t, 140, at, ODD[oi]);
                put(&t, object ? "\",\"t\":true}},\"n\":1}]" : "\",null]],\"n\":1}]");
                CHECK_INT(agree(t.b, t.n, "skipped string") != 0, oi >= VALID_ODD);
            }
    for (unsigned c = 0; c < 0x20; c++)
        for (size_t at = 0; at < 70; at += 23) {
            char odd[2] = {c ? (char)c : '@', 0};   /* put() stops at a NUL */
            text t = {.n = 0};
            put(&t, "[{\"skip\":[\"");
            size_t body = t.n;
            put_body(&t, 80, at, odd);
            put(&t, "\"]}]");
            t.b[body + at] = (uint8_t)c;
            CHECK(agree(t.b, t.n, "control byte in a skipped string") != 0);
        }
}

/* Every grammar case of a number, and the literals, valid and not, as
 * items and member values of skipped containers, with and without white
 * space around, at every offset of a block. */
static void check_skipped_atoms(void)
{
    static const char *const good[] = {
        "0", "-0", "7", "-12", "0.5", "-0.0e0", "1e5", "1E+5", "1e-05", "12.75E-3",
        "123456789012345678901234567890", "true", "false", "null"};
    static const char *const bad[] = {
        "01", "-", "-a", "1.", ".5", "1e", "1e+", "+1", "1.e5", "0x1", "1..2", "1e5.5", "--1",
        "1-", "00", "-01", "1e5e5", "2.3.4", "tru", "nul", "fals", "truex", "nulll", "True",
        "t", "f", "n", "falsetrue", "1true", "null1", "\xc3\xa9", "1\xc3\xa9"};
    static const char *const shapes[][2] = {
        {"[", "]"}, {"[ ", " ]"}, {"{\"a\":", "}"}, {"{\"a\" : ", " }"}, {"[1,", ",2]"},
        {"[[", "]]"}, {"{\"a\":[", "],\"b\":0}"}};
    for (int g = 0; g < 2; g++) {
        size_t count = g ? sizeof good / sizeof good[0] : sizeof bad / sizeof bad[0];
        for (size_t i = 0; i < count; i++)
            for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
                for (size_t pad = 0; pad < 66; pad += sh == 0 ? 1 : 13) {
                    text t = {.n = 0};
                    put(&t, "[{");
                    put_pad(&t, pad);
                    put(&t, "\"skip\":");
                    put(&t, shapes[sh][0]);
                    put(&t, g ? good[i] : bad[i]);
                    put(&t, shapes[sh][1]);
                    put(&t, ",\"n\":2}]");
                    CHECK_INT(agree(t.b, t.n, "skipped atom") != 0, !g);
                }
    }
    /* Each atom as the last bytes of the input, in an exactly sized heap
     * block: the kernel's last block is padded in its register only, so
     * the sanitizer build catches a read past the input (a fuzzer found
     * one: "[2e"). Unclosed, every document is invalid. */
    for (int g = 0; g < 2; g++) {
        size_t count = g ? sizeof good / sizeof good[0] : sizeof bad / sizeof bad[0];
        for (size_t i = 0; i < count; i++)
            for (size_t pad = 0; pad < 66; pad++) {
                text t = {.n = 0};
                put(&t, "[\"");
                put_body(&t, pad, SIZE_MAX, "");
                put(&t, "\",");
                put(&t, g ? good[i] : bad[i]);
                uint8_t *doc = malloc(t.n);
                memcpy(doc, t.b, t.n);
                CHECK(codec_json_validate(doc, t.n, NULL, NULL) != 0);
                free(doc);
            }
    }
}

/* The context a token sequence is put in: a skipped array, a member
 * value, an item of an array member, and an object's members. */
static const char *const AROUND[][2] = {{"[", "]"}, {"{\"k\":", "}"}, {"{\"k\":[", "]}"},
                                        {"{", "}"}};

/* The sequence tokens[seq[0..n)] in context `around` of a skipped member,
 * after `pad` spaces inside it (so the sequence crosses a 64-byte block
 * boundary where the kernel's block starts at the container). The
 * reference decides which are valid. */
static int skipped_sequence(const char *const *tokens, const size_t *seq, size_t n,
                            const char *const around[2], size_t pad)
{
    text t = {.n = 0};
    put(&t, "[{\"skip\":");
    put(&t, around[0]);
    put_ws(&t, pad, false, ' ');
    for (size_t i = 0; i < n; i++) {
        put(&t, tokens[seq[i]]);
        if (i == 0)
            put(&t, " ");
    }
    put(&t, around[1]);
    put(&t, ",\"n\":3}]");
    return agree(t.b, t.n, "skipped grammar");
}

/* Every sequence of four tokens inside each context: the grammar's pairs,
 * and the kernel's steps that take a member's ',', key and ':' (and the
 * ',' after a value) at once. */
static void check_skipped_grammar(void)
{
    static const char *const tokens[] = {"{", "}", "[", "]", ":", ",", "\"s\"", "1", "true"};
    enum { N = sizeof tokens / sizeof tokens[0] };
    int valid = 0;
    for (size_t a = 0; a < sizeof AROUND / sizeof AROUND[0]; a++)
        for (size_t i = 0; i < N * N * N * N; i++) {
            size_t seq[4] = {i % N, i / N % N, i / (N * N) % N, i / (N * N * N)};
            valid += skipped_sequence(tokens, seq, 4, AROUND[a], 0) == 0;
        }
    CHECK(valid > 20);
}

/* Every sequence of five tokens of members and items, across the
 * boundary of the kernel's first block: where a step that takes several
 * tokens at once finds the rest in the next block. */
static void check_skipped_grammar_across_blocks(void)
{
    static const char *const tokens[] = {",", "\"s\"", ":", "1"};
    enum { N = sizeof tokens / sizeof tokens[0] };
    int valid = 0;
    for (size_t a = 0; a < sizeof AROUND / sizeof AROUND[0]; a++)
        for (size_t pad = 48; pad < 64; pad++)
            for (size_t i = 0; i < N * N * N * N * N; i++) {
                size_t seq[5] = {i % N, i / N % N, i / (N * N) % N, i / (N * N * N) % N,
                                 i / (N * N * N * N)};
                valid += skipped_sequence(tokens, seq, 5, AROUND[a], pad) == 0;
            }
    CHECK(valid > 200);
}

/* max-string inside skipped containers, where the kernel measures the
 * strings that cross its blocks: strings of max-1, max and max+1 bytes
 * (also longer before unescaping than after), starting at every offset of
 * a block, for limits from the kernel's least to a few blocks. */
static void check_skipped_max_string(void)
{
    static const size_t limits[] = {JSON_SKIP_MIN_MAX_STRING, 64, 100, 130, 200};
    size_t saved = opts.max_string;
    for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++)
        for (size_t len = limits[li] - 1; len <= limits[li] + 1; len++)
            for (size_t pad = 0; pad < 64; pad++)
                for (int escaped = 0; escaped < 2; escaped++) {
                    opts.max_string = limits[li];
                    long_raw_strings = escaped;   /* the kernel may leave those to the walk */
                    text t = {.n = 0};
                    put(&t, "[{\"skip\":[");
                    put_ws(&t, pad, false, ' ');
                    put(&t, "\"");
                    /* An escape makes the raw string one byte longer. */
                    put_body(&t, len, escaped ? len / 2 : SIZE_MAX, "\\n");
                    put(&t, "\",1],\"n\":4}]");
                    CHECK_INT(agree(t.b, t.n, "skipped max-string") != 0, len > limits[li]);
                }
    long_raw_strings = false;
    opts.max_string = saved;
}

/* Skipped nesting around 64 levels (a limit of mask-based skippers) with
 * the limit just above, at and below it. */
static void check_deep_skip(void)
{
    size_t saved = opts.max_depth;
    deep_nesting = true;
    for (size_t levels = 60; levels <= 68; levels++)
        for (size_t limit = levels + 1; limit <= levels + 3; limit++)
            for (int objects = 0; objects < 2; objects++) {
                opts.max_depth = limit;
                text t = {.n = 0};
                put(&t, "[{\"skip\":");
                for (size_t i = 0; i < levels; i++)
                    put(&t, objects && i % 2 ? "{\"k\":" : "[");
                put(&t, "0");
                for (size_t i = levels; i-- > 0;)
                    put(&t, objects && i % 2 ? "}" : "]");
                put(&t, "}]");
                CHECK_INT(agree(t.b, t.n, "deep skip") != 0, levels + 2 > limit);
            }
    deep_nesting = false;
    opts.max_depth = saved;
}

/* A skipped member several blocks long, with each byte in turn replaced,
 * and cut at every byte (the end of the input inside a block). */
static void check_long_corruption(void)
{
    text t = {.n = 0};
    put(&t, "[{\"name\":\"x\",\"skip\":{\"list\":[");
    for (int i = 0; i < 6; i++)
        put(&t, i ? ",{\"id\":12345,\"s\":\"\\u00e9t\xc3\xa9 "
                    "\\\"q\\\"\",\"f\":-1.5e3,\"b\":[true,false,null]}"
                  : "{\"id\":1,\"s\":\"\",\"f\":0,\"b\":[]}");
    put(&t, "],\"e\":{}},\"n\":9}]");
    static const uint8_t bytes[] = {'x',  0x00, 0x1f, 0xc3, 0x80, '"',
                                    '\\', ']',  '}',  ',',  ':',  '{'};
    CHECK_INT(agree(t.b, t.n, "long corruption base"), 0);
    uint8_t b[sizeof t.b];
    for (size_t at = 0; at < t.n; at++) {
        for (size_t k = 0; k < sizeof bytes; k++) {
            memcpy(b, t.b, t.n);
            b[at] = bytes[k];
            agree(b, t.n, "long corruption");
        }
        CHECK(agree(t.b, at, "long truncation") != 0);
    }
}

/* The key memo: a record whose keys the first one taught it (unknown
 * ones, fields out of order), then records alternating between a second
 * layout and the first (both entries of a memo set), the second's keys
 * changed to neighbours of the remembered bytes (a prefix, a longer key,
 * a field twice; an escape spelling the same name or a quote where the
 * key ended, which the fast decoder must leave to the reference); each
 * byte from the second record on corrupted and the document cut at every
 * byte; with unknown members rejected and duplicates allowed too. */
static void check_key_memo(void)
{
    static const char first[] =
        "[{\"zz\": 1, \"n\": 1, \"name\": \"a\", \"qq\": [2], \"tags\": [], \"z\": {}},\n ";
    static const char *const second[] = {
        "{\"zz\": 1, \"n\": 1, \"name\": \"a\", \"qq\": [2], \"tags\": [], \"z\": {}}",
        "{\"z\": 1, \"n\": 1, \"name\": \"a\", \"q\": [2], \"tags\": [], \"zz\": {}}",
        "{\"zzz\": 1, \"n\": 2, \"name\": \"b\", \"qqq\": [2], \"tags\": []}",
        "{\"z\\u007a\": 1, \"n\": 2, \"name\": \"b\", \"q\\u0071\": 3, \"tags\": [\"t\"]}",
        "{\"z\\\"\": 1, \"n\": 2, \"name\": \"b\", \"qq\": 3, \"tags\": []}",
        "{\"name\": \"c\", \"n\": 1, \"n\": 2, \"qq\": [2], \"tags\": [], \"tags\": [\"u\"]}",
        "{\"zz\": 1, \"n\": 1, \"n\": 2, \"name\": \"a\", \"qq\": [2], \"qq\": 1, \"tags\": []}",
        "{\"zz\":1,\"n\":1,\"name\":\"a\",\"qq\":[2],\"tags\":[],\"z\":{}}",
        "{\"zz\" : 1 , \"n\"\n: 1, \"name\":\"a\", \"qq\" :[2],\"tags\":[] }",
        "{\"zz\": 1, \"tags\": [], \"name\": \"a\", \"qq\": [2], \"n\": 1}",
        "{\"zz\": 1, \"n\": 1, \"nam\": \"a\", \"qq\": [2], \"tags\": [], \"z\": {}}",
    };
    static const uint8_t bytes[] = {'x', 'z', 'q', 'n', 0x01, 0xff, '"', '\\', ' ', ':', ',', '}'};
    const codec_json_options saved = opts;
    for (int pass = 0; pass < 3; pass++) {
        opts = saved;
        opts.reject_unknown = pass == 1;
        opts.allow_duplicates = pass == 2;
        for (size_t v = 0; v < sizeof second / sizeof second[0]; v++) {
            text t = {.n = 0};
            put(&t, first);
            size_t from = t.n;
            put(&t, second[v]);
            put(&t, ",\n ");
            put(&t, first + 1);   /* the two layouts in turn: both ways of a set */
            put(&t, second[v]);
            put(&t, "]");
            if (strchr(second[v], '\\')) {
                /* The fast decoder leaves keys with escapes to the
                 * reference: it must not take them for the memo's. */
                codec_list l = {0};
                codec_error err;
                codec_arena_reset(&arena);
                CHECK(codec__json_decode_fast(&recs_t, t.b, t.n, &l, &opts, true, &arena, &err) !=
                      0);
                continue;
            }
            agree(t.b, t.n, "memo");
            uint8_t b[sizeof t.b];
            for (size_t at = from; at < t.n; at++) {
                for (size_t k = 0; k < sizeof bytes; k++) {
                    memcpy(b, t.b, t.n);
                    b[at] = bytes[k];
                    agree(b, t.n, "memo corruption");
                }
                CHECK(agree(t.b, at, "memo truncation") != 0);
            }
        }
    }
    opts = saved;
}

/* codec_value: the fast decoder against the reference on doc[0..n),
 * their values compared through the reference encoder's text (which
 * tells INT, UINT and DOUBLE apart, and prints doubles to round trip).
 * Returns the reference's verdict. */
static int agree_value(const uint8_t *doc, size_t n, const char *what)
{
    codec_value fast, ref;
    codec_error err;
    codec_arena_reset(&arena);
    int r = codec__json_decode_reference(codec_value_type(), doc, n, &ref, &opts, &arena, &err);
    int f = codec__json_decode_fast(codec_value_type(), doc, n, &fast, &opts, true, &arena, &err);
    bool ok = r == 0 ? f == 0 : f != 0;
    if (ok && r == 0) {
        codec_buf a, b;
        codec_buf_init(&a, NULL);
        codec_buf_init(&b, NULL);
        ok = !codec__json_encode_reference(codec_value_type(), &fast, false, &a, &err) &&
             !codec__json_encode_reference(codec_value_type(), &ref, false, &b, &err) &&
             a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
        codec_buf_free(&a);
        codec_buf_free(&b);
    }
    if (!ok) {
        fprintf(stderr, "%s: reference %d fast %d: %.*s\n", what, r, f, (int)(n < 300 ? n : 300),
                (const char *)doc);
        CHECK(ok);
    }
    return r;
}

static int agree_value_text(const char *doc)
{
    return agree_value((const uint8_t *)doc, strlen(doc), "schemaless");
}

/* `text` as the first item of an array and member of an object with more
 * than 48 bytes after it, where the schemaless decoder reads numbers
 * inline (closer to the end they take the careful way), and as an item
 * 16 bytes or more into the document (where a fraction's digits are read
 * 16 at a time: digits16()); the same verdict each time. */
static int agree_padded(const char *text)
{
    static const char pad[] = "\"and more than forty-eight bytes of text after it\"";
    char doc[256];
    snprintf(doc, sizeof doc, "[%s,%s]", text, pad);
    int r = agree_value_text(doc);
    snprintf(doc, sizeof doc, "{\"k\":%s,\"p\":%s}", text, pad);
    int o = agree_value_text(doc);
    CHECK_INT(r, o);
    snprintf(doc, sizeof doc, "[\"sixteen bytes\",%s,%s]", text, pad);
    o = agree_value_text(doc);
    CHECK_INT(r, o);
    return r;
}

typedef struct real {
    double x;
} real;

CODEC_STRUCT(real_t, real, CODEC_FIELD(real, x, 1, CODEC_DOUBLE));

/* A double field: the fast decoder against the reference, bit for bit. */
static void agree_doubles(const char *doc)
{
    real fast = {0}, ref = {0};
    codec_error err;
    size_t n = strlen(doc);
    int r =
        codec__json_decode_reference(&real_t, (const uint8_t *)doc, n, &ref, &opts, &arena, &err);
    int f =
        codec__json_decode_fast(&real_t, (const uint8_t *)doc, n, &fast, &opts, true, &arena, &err);
    bool ok = r == 0 ? f == 0 && memcmp(&fast.x, &ref.x, sizeof fast.x) == 0 : f != 0;
    if (!ok)
        fprintf(stderr, "double: reference %d fast %d: %s\n", r, f, doc);
    CHECK(ok);
}

static uint64_t number_rng = 88172645463325252u;

static uint64_t next_number_random(void)
{
    number_rng ^= number_rng << 13, number_rng ^= number_rng >> 7, number_rng ^= number_rng << 17;
    return number_rng;
}

/* Numbers of 1 to 19 significant digits (all of them in one 64-bit
 * integer: the decoder's own Eisel-Lemire step) with a point anywhere and
 * exponents across the whole double range, subnormals and overflow
 * included, and the known hard cases: fast and reference agree, on a
 * schemaless value and on a double field. */
static void check_numbers(void)
{
    static const char *const hard[] = {
        "9007199254740993", "9007199254740993.0", "2.2250738585072011e-308",
        "2.2250738585072012e-308", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623158e308",
        "1.7976931348623159e308", "7.2057594037927933e16", "1e23", "8.988465674311579e307",
        "0.1", "1.0000000000000002", "5e-324", "1e-400", "9999999999999999999e290"};
    char doc[96];
    for (size_t k = 0; k < sizeof hard / sizeof hard[0]; k++) {
        agree_value_text(hard[k]);
        agree_padded(hard[k]);
        snprintf(doc, sizeof doc, "{\"x\":%s}", hard[k]);
        agree_doubles(doc);
    }
    for (int i = 0; i < 20000; i++) {
        char digits[24];
        int n = 1 + (int)(next_number_random() % 19);
        for (int j = 0; j < n; j++)
            digits[j] = (char)('0' + next_number_random() % 10);
        digits[0] = (char)('1' + next_number_random() % 9);
        int point = (int)(next_number_random() % (unsigned)(n + 1));
        int e = (int)(next_number_random() % 680) - 345;
        snprintf(doc, sizeof doc, "%s%.*s%s%.*se%d", i % 3 ? "" : "-", point, digits,
                 point == n ? "" : (point ? "." : "0."), n - point, digits + point, e);
        agree_value_text(doc);
        agree_padded(doc);
        char field[128];
        snprintf(field, sizeof field, "{\"x\":%s}", doc);
        agree_doubles(field);
    }
}

/* Schemaless values (the fast path of codec_value): the standard
 * documents; every number class at the int64/uint64/double boundaries;
 * keys with escapes; duplicates refused and allowed; the depth and
 * element limits; and each document cut at every byte. */
static void check_schemaless(void)
{
    static const char *const files[] = {"json/twitter.json", "json/citm_catalog.json",
                                        "json/canada.json"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[512];
        size_t n;
        snprintf(path, sizeof path, "%s/%s", CODEC_TEST_DATA, files[k]);
        uint8_t *doc = check_read_file(path, &n);
        CHECK(doc != NULL);
        if (doc)
            CHECK_INT(agree_value(doc, n, files[k]), 0);
        free(doc);
    }
    static const char *const valid[] = {
        "0", "-0", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "-9223372036854775809", "1.0", "-0.0",
        "1e2", "1E-400", "123456789012345678901234567890", "0.1", "2.2250738585072014e-308",
        "-65.613616999999977", "0.000000000000001", "1.7976931348623157", "1.5E3", "0.5e-3",
        "9.999999999999999999", "123.4567890123456789", "12345678901.12345678",
        "4.9406564584124654e-324", "0.30000000000000004", "[0.1234567890123456,-7.5]",
        "[]", "{}", "[1,[2,[3]],{\"a\":null}]", "{\"a\\u00e9\":true,\"b\\n\":false}",
        " { \"k\" : [ 1 , \"s\" , { } ] } ", "\"caf\u00c3\u00a9 \\ud83d\\ude00\""};
    for (size_t k = 0; k < sizeof valid / sizeof valid[0]; k++) {
        CHECK_INT(agree_value_text(valid[k]), 0);
        CHECK_INT(agree_padded(valid[k]), 0);
    }
    /* Numbers of every length around the inline path's limits (19 digits
     * in all, 8-digit runs), with a sign, a fraction, an exponent or a
     * grammar error at each place. */
    for (int digits = 1; digits <= 24; digits++)
        for (int point = 0; point <= digits; point++)
            for (int form = 0; form < 6; form++) {
                char num[64], *q = num;
                if (form & 1)
                    *q++ = '-';
                for (int i = 0; i < digits; i++) {
                    if (i == point && point)
                        *q++ = '.';
                    *q++ = (char)(i == 0 && (point != 1 || form == 4) ? '9' - i % 9 : '0' + (i * 7 + digits) % 10);
                }
                if (form == 2)
                    q += sprintf(q, "e%d", digits - 12);
                if (form == 4)
                    *q++ = '.';   /* "1." */
                *q = '\0';
                agree_padded(num);
            }
    static const char *const numbers_invalid[] = {"-", "01", "-01", "00.5", "1.", "1.e5", ".5",
                                                  "+1", "1e", "1e+", "-a", "0x10", "1.5.5"};
    for (size_t k = 0; k < sizeof numbers_invalid / sizeof numbers_invalid[0]; k++)
        CHECK(agree_padded(numbers_invalid[k]) != 0);
    /* The shape memo: objects repeating an earlier object's keys, all or
     * the first of them, then others, a repeat (refused), an escaped form
     * of a remembered key, other depths. */
    static const char *const shapes_valid[] = {
        "[{\"a\":1,\"b\":2,\"c\":3},{\"a\":4,\"b\":5,\"c\":6},{\"a\":7,\"b\":8}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2,\"c\":3},{\"a\":1,\"c\":2,\"b\":3}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"\\u0062\":2},{\"\\u0061\":1,\"b\":2}]",
        "[{\"id\":1,\"x\":{\"id\":2,\"y\":3}},{\"id\":1,\"x\":{\"id\":2,\"z\":3}}]",
        "[{\"a\\\\\":1,\"b\":2},{\"a\\\\\":1,\"b\":2}]",
        "[{\"long key of many bytes\":1,\"b\":2},{\"long key of many bytes\":1,\"b\":2}]",
        "[{\"a\":1},{\"a\":1},{\"a\":{\"a\":{\"a\":1}}},{\"ab\":1,\"a\":2}]",
        /* one literal (clang's -Wstring-concatenation) */
        "[{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6},{\"a\":1,\"c\":3,\"f\":6},{\"a\":1,\"e\":5},{\"a\":1,\"f\":2,\"b\":3},{\"a\":1,\"d\":2,\"c\":3}]",
        /* the shape guess (the last two objects' shape at a depth, when the
         * next one starts with its first key): runs with fewer members, more,
         * containers as members (empty or not, nested objects guessed too),
         * a key that leaves the shape; empty containers as members' values,
         * which take no call */
        "[{\"a\":1,\"b\":2},{\"a\":3},{\"a\":4,\"b\":5,\"c\":6,\"d\":[7]},{\"a\":8,\"b\":9}]",
        "[{\"a\":[],\"b\":{}},{\"a\":[1,2],\"b\":{\"c\":[]}},{\"a\":[ ],\"b\":{ }}]",
        "{\"x\":{\"a\":1,\"b\":2},\"y\":{\"c\":1},\"z\":[{\"a\":1,\"b\":2},{\"c\":3}],\"w\":{\"x\":{\"a\":{\"a\":{}}},\"y\":{\"c\":[[],{}]}}}",
        "[{\"a\":{\"p\":1,\"q\":[1]},\"b\":2},{\"a\":{\"p\":2,\"q\":[2,3]},\"b\":3},{\"a\":{\"p\":3,\"r\":4,\"s\":5},\"b\":[{\"a\":1}],\"c\":{}}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"x\":2,\"y\":3,\"z\":4},{\"a\":1,\"b\":2}]",
        "[[],[[]],{},[{}],[[],{},[]],{\"a\":[]},[[[]]]]"};
    for (size_t k = 0; k < sizeof shapes_valid / sizeof shapes_valid[0]; k++)
        CHECK_INT(agree_value_text(shapes_valid[k]), 0);
    static const char *const shapes_invalid[] = {
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2,\"a\":3}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"a\":2}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2,\"c\":3,\"c\":4}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2,\"\\u0062\":3}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\\u0000\":2,\"b\":3,\"b\":4}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2 \"c\":3}]",
        "[{\"a\":1,\"b\":2,\"c\":3,\"d\":4},{\"a\":1,\"c\":3,\"c\":4}]",
        "[{\"a\":1,\"b\":2,\"c\":3,\"d\":4},{\"a\":1,\"c\":3,\"b\":2,\"b\":5}]",
        "[{\"a\":1,\"b\":2,\"c\":3,\"d\":4},{\"a\":1,\"d\":3,\"a\":2}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\"2}]",
        /* after a guessed shape: a repeat once the keys left it, a cut */
        "[{\"a\":1,\"b\":2},{\"a\":1,\"c\":2,\"a\":3}]",
        "[{\"a\":1,\"b\":2},{\"a\":1,\"b\":2,\"c\":3,\"b\":4}]",
        "[{\"a\":[],\"b\":2},{\"a\":[],\"b\":[}]",
        "[{\"a\":[],\"b\":2},{\"a\":[]]",
        "[{\"a\":1,\"b\":2},{\"a\":[1,\"b\":2}]"};
    for (size_t k = 0; k < sizeof shapes_invalid / sizeof shapes_invalid[0]; k++)
        CHECK(agree_value_text(shapes_invalid[k]) != 0);
    /* A long shape, then many objects starting like it with a nested
     * container: the arena stays within a small multiple of the document
     * (an array of the shape's size taken for each would not). */
    {
        static char doc[200000];
        size_t n = 0;
        doc[n++] = '[', doc[n++] = '{';
        for (int i = 0; i < 200; i++)
            n += (size_t)sprintf(doc + n, "%s\"k%d\":0", i ? "," : "", i);
        doc[n++] = '}';
        for (int i = 0; i < 2000; i++)
            n += (size_t)sprintf(doc + n, ",{\"k0\":[%d]}", i);
        doc[n++] = ']';
        CHECK_INT(agree_value((const uint8_t *)doc, n, "long shape"), 0);
        codec_value v;
        codec_error err;
        codec_arena_reset(&arena);
        size_t before = codec_arena_used(&arena);
        CHECK_INT(codec__json_decode_fast(codec_value_type(), (const uint8_t *)doc, n, &v, &opts,
                                          true, &arena, &err),
                  0);
        CHECK(codec_arena_used(&arena) - before < 40 * n);
    }
    /* Arrays of scalars are written straight into the node pool until a
     * container item comes or the pool's chunk is full: arrays of every
     * length up to past a chunk, then a container item, then more. */
    static char big[160000];
    for (size_t items = 0; items <= 9000; items += items < 40 ? 1 : 2999) {
        for (int tail = 0; tail < 3; tail++) {
            size_t n = 0;
            big[n++] = '[';
            for (size_t i = 0; i < items; i++)
                n += (size_t)sprintf(big + n, i % 3 == 0 ? "%zu," : i % 3 == 1 ? "\"s%zu\"," : "%zu.5,", i);
            n += (size_t)sprintf(big + n, tail == 0 ? "true]" : tail == 1 ? "[1,{\"a\":[2]}],3]" : "{}]");
            CHECK_INT(agree_value((const uint8_t *)big, n, "scalar array"), 0);
        }
    }
    /* Deep nesting: the value stack grows while thousands of containers
     * are open, each with items before its child (arrays and objects in
     * turn, at the 4096 limit and past it). */
    size_t saved_max_depth = opts.max_depth;
    opts.max_depth = 4096;
    for (size_t levels = 4095; levels <= 4097; levels++) {
        size_t n = 0;
        for (size_t i = 0; i < levels; i++)
            n += (size_t)sprintf(big + n, i % 2 ? "{\"k%zu\":1.5,\"x\":\"s\",\"c\":" : "[%zu,true,",
                                 i % 7);
        big[n++] = '0';
        for (size_t i = levels; i-- > 0;)
            big[n++] = i % 2 ? '}' : ']';
        int r = agree_value((const uint8_t *)big, n, "deep");
        CHECK_INT(r != 0, levels > 4096);
    }
    opts.max_depth = saved_max_depth;
    opts.allow_duplicates = true;
    for (size_t k = 0; k < 3; k++)
        CHECK_INT(agree_value_text(shapes_invalid[k]), 0);
    opts.allow_duplicates = false;
    static const char *const invalid[] = {
        "1e400", "-", "01", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":1,\"a\":2}", "[1 2]",
        "{1:2}", "\"\\x\"", "nul", "[", "{\"a\":[}", "\"\xff\""};
    for (size_t k = 0; k < sizeof invalid / sizeof invalid[0]; k++)
        CHECK(agree_value_text(invalid[k]) != 0);
    opts.allow_duplicates = true;
    CHECK_INT(agree_value_text("{\"a\":1,\"a\":2}"), 0);
    opts.allow_duplicates = false;
    size_t saved_depth = opts.max_depth, saved_elements = opts.max_elements;
    opts.max_depth = 3;
    CHECK_INT(agree_value_text("[[[1]]]"), 0);
    CHECK(agree_value_text("[[[[1]]]]") != 0);
    CHECK_INT(agree_value_text("[[[]]]"), 0);
    CHECK(agree_value_text("[[[[]]]]") != 0);
    CHECK_INT(agree_value_text("{\"a\":{\"b\":{}}}"), 0);
    CHECK(agree_value_text("{\"a\":{\"b\":{\"c\":{}}}}") != 0);
    CHECK(agree_value_text("[{\"a\":[1],\"b\":1},{\"a\":[[]],\"b\":1}]") != 0);
    opts.max_depth = saved_depth;
    opts.max_elements = 2;
    CHECK_INT(agree_value_text("[1,{\"a\":1,\"b\":2}]"), 0);
    CHECK(agree_value_text("[1,2,3]") != 0);
    CHECK(agree_value_text("{\"a\":1,\"b\":2,\"c\":3}") != 0);
    opts.max_elements = saved_elements;
    const char *cut = "{\"a\":[1,-2.5e3,\"x\\\"y\",true,null,{\"b\":18446744073709551615}]}";
    for (size_t n = 0; n < strlen(cut); n++)
        CHECK(agree_value((const uint8_t *)cut, n, "schemaless cut") != 0);
}

int main(void)
{
    codec_arena_init(&arena, NULL, 0);
    codec__json_options_resolve(NULL, &opts);
    check_white_space();
    check_white_space_at_end();
    check_strings();
    check_pool();
    check_pool_room();
    check_max_string();
    check_integers();
    check_depth();
    check_corruption();
    check_skipped_strings();
    check_skipped_atoms();
    check_skipped_max_string();
    check_schemaless();
    check_numbers();
    check_skipped_grammar();
    check_skipped_grammar_across_blocks();
    check_deep_skip();
    check_long_corruption();
    check_key_memo();
    /* Both verdicts were exercised, and the kernel where there is one. */
    CHECK(valid_docs > 1000 && invalid_docs > 1000);
    const unsigned need = CODEC_CPU_AVX512 | CODEC_CPU_PCLMUL;
    CHECK((codec_cpu_features() & need) != need || kernel_answers > 1000);
    codec_arena_free(&arena);
    return check_done("json_decode");
}
