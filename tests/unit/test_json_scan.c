/* test_json_scan.c — the AVX2 string scanner of the JSON reader against the
 * byte-at-a-time rules: where it stops (first '"', '\\' or control byte),
 * and that it refuses every kind of invalid UTF-8 before that point, at
 * every offset across its 32-byte blocks; and when the kernels are chosen.
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

/* The decoder's kernels are chosen only when the CPU (as CODEC_CPU_MASK
 * leaves it) has every feature their files are compiled for; ctest runs
 * this with no SIMD, and with everything but BMI2. */
static void check_kernel_choice(void)
{
    CHECK((codec__json_long_scanner() != NULL) == codec_cpu_has(CODEC_CPU_FOR_AVX2));
    CHECK((codec__json_container_skipper() != NULL) == codec_cpu_has(CODEC_CPU_FOR_AVX512));
    if (!(codec_cpu_features() & CODEC_CPU_BMI2))
        CHECK(codec__json_long_scanner() == NULL && codec__json_container_skipper() == NULL);
}

int main(void)
{
    check_kernel_choice();
    if (codec_cpu_has(CODEC_CPU_FOR_AVX2)) {
        check_valid_text();
        check_invalid_text();
    } else {
        printf("no AVX2: kernel checks skipped\n");
    }
    check_documents();
    return check_done("json_scan");
}
