/* test_json_scan.c — the AVX2 string scanner of the JSON reader against the
 * byte-at-a-time rules: where it stops (first '"', '\\' or control byte),
 * and that it refuses every kind of invalid UTF-8 before that point, at
 * every offset across its 32-byte blocks; the string copiers (AVX2 and
 * portable) the same way, at every alignment of source and destination,
 * with what they copy and where they may write; the decoder's strings
 * through them; and when the kernels are chosen.
 * The scanner checks are skipped when the CPU lacks the AVX2 tier
 * (the SSE2/scalar path is then the only one, and ctest also runs the JSON
 * tests with CODEC_CPU_MASK=0 to cover it on AVX2 machines). */
#include "check.h"
#include "codec/codec.h"
#include "core/cpu_internal.h"
#include "formats/json/json_scan_internal.h"

/* The byte-at-a-time scan: the stop position, or NULL for invalid UTF-8 or
 * no stop before end. */
static const uint8_t *scalar_stop(const uint8_t *p, const uint8_t *end)
{
    while (p < end) {
        if (*p == '"' || *p == '\\' || *p < 0x20)
            return p;
        if (*p < 0x80) {
            p++;
            continue;
        }
        size_t k = codec_utf8_sequence(p, end);
        if (!k)
            return NULL;
        p += k;
    }
    return NULL;
}

static uint32_t rng = 12345;
static uint32_t next_random(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* Appends one random valid character (1 to 4 bytes, no stop byte). */
static size_t random_char(uint8_t *d)
{
    static const uint8_t samples[][4] = {
        {'a'}, {'~'}, {' '}, {0xC2, 0x80}, {0xDF, 0xBF}, {0xE0, 0xA0, 0x80},
        {0xE1, 0x88, 0xB4}, {0xED, 0x9F, 0xBF}, {0xEE, 0x80, 0x80}, {0xEF, 0xBF, 0xBF},
        {0xF0, 0x90, 0x80, 0x80}, {0xF0, 0x9F, 0x98, 0x8B}, {0xF4, 0x8F, 0xBF, 0xBF}};
    static const size_t lens[] = {1, 1, 1, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4};
    size_t i = next_random() % 13;
    memcpy(d, samples[i], lens[i]);
    return lens[i];
}

static void check_valid_text(void)
{
    uint8_t buf[256];
    for (int round = 0; round < 20000; round++) {
        size_t n = 0, stop_at = next_random() % 180;
        while (n < stop_at)
            n += random_char(buf + n);
        stop_at = n;
        buf[n++] = "\"\\\n"[next_random() % 3];
        while (n < 200)
            n += random_char(buf + n);
        const uint8_t *end = buf + n;
        const uint8_t *q = codec__json_long_scanner()(buf, end);
        CHECK(q != NULL);
        if (!q)
            continue;
        /* Either the stop itself, or a sequence start before it from which
         * the byte-at-a-time scan finds the same stop. */
        CHECK(q >= buf && q <= buf + stop_at);
        CHECK(scalar_stop(q, end) == buf + stop_at);
        CHECK(q == buf + stop_at || end - q < 32 + 3);
    }
}

static void check_invalid_text(void)
{
    static const struct {
        uint8_t bytes[4];
        size_t len;
    } bad[] = {
        {{0x80}, 1},                    /* a continuation alone */
        {{0xC0, 0x80}, 2},              /* overlong 2 */
        {{0xC1, 0xBF}, 2},
        {{0xE0, 0x80, 0x80}, 3},        /* overlong 3 */
        {{0xED, 0xA0, 0x80}, 3},        /* surrogate */
        {{0xF0, 0x80, 0x80, 0x80}, 4},  /* overlong 4 */
        {{0xF4, 0x90, 0x80, 0x80}, 4},  /* above U+10FFFF */
        {{0xF5, 0x80, 0x80, 0x80}, 4},
        {{0xFF}, 1},
        {{0xE3, 0x81}, 2},              /* unfinished, then ASCII */
        {{0xC3}, 1},
        {{0xF0, 0x9F, 0x98}, 3},
        {{0xC3, 0xA9, 0xA9}, 3},        /* one continuation too many */
    };
    uint8_t buf[160];
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (size_t at = 0; at < 70; at++) {
            memset(buf, 'x', sizeof buf);
            memcpy(buf + at, bad[b].bytes, bad[b].len);
            buf[100] = '"';
            CHECK(scalar_stop(buf, buf + sizeof buf) == NULL);
            const uint8_t *q = codec__json_long_scanner()(buf, buf + sizeof buf);
            if (q) {
                fprintf(stderr, "invalid sequence %zu at %zu accepted\n", b, at);
                CHECK(q == NULL);
            }
        }
    /* A sequence cut by the end of the last whole block is handed back
     * from its lead byte. */
    memset(buf, 'x', sizeof buf);
    memcpy(buf + 30, "\xF0\x9F\x98\x8B", 4);
    const uint8_t *q = codec__json_long_scanner()(buf, buf + 40);
    CHECK(q == buf + 30);
}

/* The whole decoder and validator on long non-ASCII strings, whichever
 * scanner runs: the same verdicts and offsets as the reader. */
static void check_documents(void)
{
    char doc[512];
    static const char *const bodies[] = {
        ("\xe5\x90\x8d\xe5\x89\x8d:\xe5\x89\x8d\xe7\x94\xb0\xe3\x81\x82\xe3\x82\x86\xe3\x81\xbf "
         "plus a long ASCII tail that runs past thirty-two bytes \xf0\x9f\x98\x8b"),
        "long ASCII text long ASCII text long ASCII text \\n escaped \\u00e9 end",
        "bad \xe3\x81 sequence inside a long string of text text text text text",
        "bad surrogate \xed\xa0\x80 inside a long string of text text text text",
    };
    for (size_t i = 0; i < 4; i++) {
        int n = snprintf(doc, sizeof doc, "[\"%s\",\"%s\"]", bodies[i], bodies[i]);
        codec_error e1, e2;
        int fast = codec_json_validate((const uint8_t *)doc, (size_t)n, NULL, &e1);
        codec_json_reader r;
        codec_json_token tok;
        codec_json_reader_init(&r, (const uint8_t *)doc, (size_t)n, NULL, NULL);
        int slow;
        while (!(slow = codec_json_next(&r, &tok, &e2)) && tok != CODEC_JSON_END)
            ;
        CHECK_INT(fast, slow);
        CHECK_INT(fast, i < 2 ? 0 : CODEC_E_INVALID_PAYLOAD);
        if (fast && slow)
            CHECK_INT(e1.offset, e2.offset);
    }
}

/* One call of a string copier on src[0..n) into dst_end - dst bytes of
 * room inside out[] (filled with 0xAA): the contract of json_internal.h.
 * `valid`: src has no invalid UTF-8 at all (then NULL is wrong). */
typedef const uint8_t *(*copy_fn)(const uint8_t *p, const uint8_t *end, uint8_t *dst,
                                  const uint8_t *dst_end);
static uint8_t out[640];

static const uint8_t *copy_one(copy_fn copy, const uint8_t *src, size_t n, size_t at,
                               size_t room, bool valid)
{
    memset(out, 0xAA, sizeof out);
    uint8_t *dst = out + at;
    const uint8_t *end = src + n, *want = scalar_stop(src, end);
    const uint8_t *q = copy(src, end, dst, dst + room);
    for (size_t i = 0; i < sizeof out; i++)
        if ((i < at || i >= at + room) && out[i] != 0xAA) {
            fprintf(stderr, "copier wrote out[%zu] outside [%zu, %zu)\n", i, at, at + room);
            CHECK(0);
            break;
        }
    if (!q) {
        CHECK(!valid);
        return q;
    }
    CHECK(q >= src && q <= end);
    CHECK(memcmp(dst, src, (size_t)(q - src)) == 0);
    if (q < end && (*q == '"' || *q == '\\' || *q < 0x20)) {
        CHECK(q == want);
    } else {
        /* Stopped early, at a sequence start, for lack of input or room. */
        CHECK(end - q < 32 + 3 || (size_t)(q - src) + 32 + 3 > room);
        CHECK(scalar_stop(q, end) == want);
        CHECK(!want || q <= want);
    }
    return q;
}

static void check_copier_valid(copy_fn copy)
{
    static uint8_t src[64 + 256];
    uint8_t buf[256];
    for (int round = 0; round < 1500; round++) {
        size_t n = 0, stop_at = next_random() % 180;
        while (n < stop_at)
            n += random_char(buf + n);
        stop_at = n;
        buf[n++] = "\"\\\n"[next_random() % 3];
        while (n < 200)
            n += random_char(buf + n);
        for (size_t align = 0; align < 64; align++) {
            memcpy(src + align, buf, n);
            size_t room = next_random() % 4 ? 300 : next_random() % 260;
            const uint8_t *q =
                copy_one(copy, src + align, n, next_random() % 64, room, true);
            CHECK(!q || q <= src + align + stop_at);
            if (q && room >= 300)
                CHECK(q == src + align + stop_at || src + align + n - q < 32 + 3);
        }
    }
}

/* Every kind of invalid UTF-8 at every position of the first three 32-byte
 * blocks (so across both of their boundaries and the 64-byte one), at
 * every source alignment: refused when room and input reach it. */
static void check_copier_invalid(copy_fn copy)
{
    static const struct {
        uint8_t bytes[4];
        size_t len;
    } bad[] = {
        {{0x80}, 1}, {{0xC0, 0x80}, 2}, {{0xC1, 0xBF}, 2}, {{0xE0, 0x80, 0x80}, 3},
        {{0xED, 0xA0, 0x80}, 3}, {{0xF0, 0x80, 0x80, 0x80}, 4}, {{0xF4, 0x90, 0x80, 0x80}, 4},
        {{0xF5, 0x80, 0x80, 0x80}, 4}, {{0xFF}, 1}, {{0xE3, 0x81}, 2}, {{0xC3}, 1},
        {{0xF0, 0x9F, 0x98}, 3}, {{0xC3, 0xA9, 0xA9}, 3},
    };
    static uint8_t src[64 + 200];
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (size_t at = 0; at < 100; at++)
            for (size_t align = 0; align < 64; align++) {
                uint8_t *s = src + align;
                /* Non-ASCII before the bad bytes too, so that blocks go
                 * through the UTF-8 check rather than the ASCII shortcut. */
                memset(s, 'x', 200);
                if (at >= 2)
                    memcpy(s + (at - 2) / 2, "\xC3\xA9", 2);
                memcpy(s + at, bad[b].bytes, bad[b].len);
                s[140] = '"';
                const uint8_t *q = copy_one(copy, s, 200, align % 32, 400, false);
                if (q) {
                    fprintf(stderr, "invalid sequence %zu at %zu (align %zu) accepted\n", b, at,
                            align);
                    CHECK(q == NULL);
                }
                /* Too little room to reach the bad bytes: stops before them. */
                q = copy_one(copy, s, 200, align % 32, at < 40 ? 0 : at - 3, false);
                CHECK(q != NULL && q <= s + at);
            }
}

/* codec_value decode of strings of every length up to 160 with a
 * non-ASCII character or an invalid sequence at every position: the text
 * back, or an error at the reader's offset. ctest runs it with and without
 * the AVX2 kernels. */
static void check_decoded_strings(void)
{
    codec_error err;
    codec *c = codec_parse("json", codec_value_type(), &err);
    CHECK(c != NULL);
    if (!c)
        return;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    char doc[1024], body[256];
    /* Each insert and what it decodes to (NULL: the document is refused). */
    static const char *const inserts[][2] = {
        {"\xE2\x82\xAC", "\xE2\x82\xAC"},
        {"\xF0\x9F\x98\x8B", "\xF0\x9F\x98\x8B"},
        {"\\u00e9", "\xC3\xA9"},
        {"\\uD83D\\uDE0B\\n\\\"x\\/", "\xF0\x9F\x98\x8B\n\"x/"},
        {"\xE2\x82", NULL},
        {"\xED\xA0\x80", NULL},
        {"\x01", NULL},
        {"\\x", NULL},
        {"\\uD83Dx", NULL},
    };
    for (size_t len = 0; len < 160; len++)
        for (size_t at = 0; at <= len; at++)
            for (size_t k = 0; k < sizeof inserts / sizeof inserts[0]; k++) {
                const char *want = inserts[k][1];
                size_t il = strlen(inserts[k][0]);
                memset(body, 'a', len + il);
                memcpy(body + at, inserts[k][0], il);
                size_t bl = len + il;
                body[bl] = 0;
                /* The string as a value, a key, and after a prefix. */
                int n = snprintf(doc, sizeof doc, "[\"%s\",{\"%s\":1},\"%s\"]", body, body, body);
                codec_value v;
                codec_arena_reset(&arena);
                int rc = codec_decode(c, (const uint8_t *)doc, (size_t)n, &v, &arena, &err);
                codec_error e2;
                int slow = codec_json_validate((const uint8_t *)doc, (size_t)n, NULL, &e2);
                CHECK_INT(rc != 0, !want);
                CHECK_INT(slow != 0, !want);
                if (rc) {
                    CHECK_INT(err.offset, e2.offset);
                    continue;
                }
                CHECK(v.kind == CODEC_V_ARRAY && v.as.array.count == 3);
                if (v.kind != CODEC_V_ARRAY || v.as.array.count != 3)
                    continue;
                const codec_value *it = v.as.array.items;
                const codec_string *strs[] = {&it[0].as.s, &it[1].as.object.members[0].key,
                                              &it[2].as.s};
                size_t wl = strlen(want);
                for (int j = 0; j < 3; j++)
                    CHECK(strs[j]->len == len + wl && memcmp(strs[j]->ptr, body, at) == 0 &&
                          memcmp(strs[j]->ptr + at, want, wl) == 0 &&
                          memcmp(strs[j]->ptr + at + wl, body + at + il, len - at) == 0);
            }
    codec_arena_free(&arena);
    codec_free(c);
}

/* The decoder's kernels are chosen only when the CPU (as CODEC_CPU_MASK
 * leaves it) has every feature their files are compiled for; ctest runs
 * this with no SIMD, and with everything but BMI2. */
static void check_kernel_choice(void)
{
    CHECK((codec__json_long_scanner() != NULL) == codec_cpu_has(CODEC_CPU_FOR_AVX2));
    CHECK((codec__json_container_skipper() != NULL) == codec_cpu_has(CODEC_CPU_FOR_AVX512));
    CHECK((codec__json_string_copier() != codec__json_copy_string) ==
          codec_cpu_has(CODEC_CPU_FOR_AVX2));
    if (!(codec_cpu_features() & CODEC_CPU_BMI2))
        CHECK(codec__json_long_scanner() == NULL && codec__json_container_skipper() == NULL);
}

int main(void)
{
    check_kernel_choice();
    if (codec_cpu_has(CODEC_CPU_FOR_AVX2)) {
        copy_fn avx2 = codec__json_string_copier();
        check_valid_text();
        check_invalid_text();
        check_copier_valid(avx2);
        check_copier_invalid(avx2);
    } else {
        printf("no AVX2: kernel checks skipped\n");
    }
    check_copier_valid(codec__json_copy_string);
    check_copier_invalid(codec__json_copy_string);
    check_documents();
    check_decoded_strings();
    return check_done("json_scan");
}
