/* test_bench_payloads.c — the payload generator, byte for byte.
 *
 * java.util.Random is checked against values printed by the JDK
 * (new Random(42): nextInt(), nextInt(100), nextInt(36), nextInt(65536),
 * nextBoolean(), nextDouble() bits, nextInt(1000000007)). The transform
 * payloads are checked against PAYLOADS.md: their sizes, and zlib's
 * compress2 sizes at levels 1/6/9, which only the exact bytes reproduce.
 * Every payload's size and CRC-32 are pinned so a change is noticed. */
#include "check.h"
#include "payloads/jrandom.h"
#include "payloads/payloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void test_jrandom(void)
{
    jrandom r;
    jrandom_seed(&r, 42);
    CHECK_INT(jrandom_next(&r, 32), -1170105035);
    CHECK_INT(jrandom_next_int(&r, 100), 63);
    CHECK_INT(jrandom_next_int(&r, 36), 0);
    CHECK_INT(jrandom_next_int(&r, 1 << 16), 3141);
    CHECK(!jrandom_next_bool(&r));
    double d = jrandom_next_double(&r);
    uint64_t bits;
    memcpy(&bits, &d, 8);
    CHECK(bits == 4606660663659951340ULL);
    CHECK_INT(jrandom_next_int(&r, 1000000007), 519796911);
    CHECK_INT(jrandom_math_round(2.5), 3);
    CHECK_INT(jrandom_math_round(-2.5), -2);
}

static size_t zlib_size(const bench_payload *p, int level)
{
    uLongf n = compressBound((uLong)p->len);
    Bytef *out = malloc(n);
    CHECK(out != NULL);
    if (!out)
        return 0;
    CHECK_INT(compress2(out, &n, p->bytes, (uLong)p->len, level), Z_OK);
    free(out);
    return n;
}

static void test_zlib_check_figures(void)
{
    const bench_payload *m = bench_payload_find("medium");
    const bench_payload *l = bench_payload_find("large");
    CHECK(m && l);
    if (!m || !l)
        return;
    CHECK_INT(zlib_size(m, 1), 1846);
    CHECK_INT(zlib_size(m, 6), 1635);
    CHECK_INT(zlib_size(m, 9), 1606);
    CHECK_INT(zlib_size(l, 1), 273057);
    CHECK_INT(zlib_size(l, 6), 201160);
    CHECK_INT(zlib_size(l, 9), 197182);
}

static const struct {
    const char *name;
    size_t len;
    uint32_t crc;
} PINNED[] = {
    {"small", 104, 0xdb24f6ea},          /* PAYLOADS.md */
    {"medium", 8338, 0x7f83803b},        /* PAYLOADS.md */
    {"large", 1048576, 0xfbc1e131},      /* PAYLOADS.md */
    {"person", 72, 0x985212fb},          /* PAYLOADS.md, as JSON */
    {"order", 9096, 0x3096a95d},         /* PAYLOADS.md, as JSON */
    {"media-item", 487, 0x787830ab},
    {"media-content", 586, 0x4b026dc8},
    {"struct", 149, 0xe3430243},
    {"users-1k", 2806, 0x4260e1d1},
    {"clients-1k", 2336, 0xcabed068},
    {"users-10k", 12591, 0xf826d1e3},
    {"clients-10k", 10103, 0xe610dfb4},
    {"users-100k", 101539, 0x4a37ed7d},
    {"clients-100k", 102068, 0x993b54b6},
    {"users-1000k", 1000943, 0x4792b1cd},
    {"clients-1000k", 1001795, 0x4088b432},
    {"kv-int64", 13, 0xc6251812},
    {"kv-string", 66, 0x4a1061b8},
    {"kv-bean", 109, 0x64120cac},
    {"kv-nested", 553, 0xa76a756f},
    {"kv-strings", 14017, 0xd1ea5797},
    {"kv-bean-map", 12145, 0x3118f342},
    {"kv-logs", 65536, 0xc80442c4},
    {"kv-prose", 65536, 0x7bede62b},
    {"kv-letters", 65536, 0xace2064d},
};

/* The nativejson-benchmark documents as stored in tests/data/json (PAYLOADS.md
 * §6): their payloads are the compact re-encoding, which depends on codec's
 * JSON writer, so the files are pinned instead and the payloads bounded. */
static const struct {
    const char *name;
    size_t len;
    uint32_t crc;
    size_t compact_min;
} DOCUMENTS[] = {
    {"twitter", 631514, 0x56968655, 400000},
    {"citm_catalog", 1727204, 0xd8b1a1c9, 400000},
    {"canada", 2251051, 0xd4c95ef4, 2000000},
};

static void test_documents(void)
{
    for (size_t i = 0; i < sizeof DOCUMENTS / sizeof DOCUMENTS[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/json/%s.json", BENCH_DATA_DIR, DOCUMENTS[i].name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f)
            continue;
        uint8_t *d = malloc(DOCUMENTS[i].len + 1);
        size_t n = d ? fread(d, 1, DOCUMENTS[i].len + 1, f) : 0;
        fclose(f);
        CHECK_INT(n, DOCUMENTS[i].len);
        CHECK(d && (uint32_t)crc32(0, d, (uInt)n) == DOCUMENTS[i].crc);
        free(d);
        const bench_payload *p = bench_payload_find(DOCUMENTS[i].name);
        CHECK(p != NULL);
        CHECK(p && p->len >= DOCUMENTS[i].compact_min && p->len < DOCUMENTS[i].len &&
              p->bytes[0] == '{' && strcmp(p->model, "codec_value") == 0);
    }
}

/* twitter-typed: its bytes are twitter.json as it is, its value that file
 * bound to bench_twitter. The sums are Python's (json.load of the file),
 * so codec's decoder is checked against another parser, not only pinned. */
static void test_twitter_typed(void)
{
    const bench_payload *p = bench_payload_find("twitter-typed");
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK_INT(p->len, DOCUMENTS[0].len);
    CHECK_INT((uint32_t)crc32(0, p->bytes, (uInt)p->len), DOCUMENTS[0].crc);
    CHECK_INT(p->rendered_len, 169142);
    CHECK_INT((uint32_t)crc32(0, p->rendered, (uInt)p->rendered_len), 0x4931ad3fu);
    const bench_twitter *t = p->value;
    CHECK_INT(t->statuses.count, 100);
    if (t->statuses.count != 100)
        return;
    size_t replies = 0, offsets = 0, urls = 0, tags = 0, links = 0, mentions = 0;
    int64_t retweets = 0, user_ids = 0, offset_sum = 0;
    for (size_t i = 0; i < 100; i++) {
        const bench_tw_status *s = &t->statuses.items[i];
        replies += s->in_reply_to_status_id.has;
        offsets += s->user.utc_offset.has;
        urls += s->user.url.has;
        tags += s->entities.hashtags.count;
        links += s->entities.urls.count;
        mentions += s->entities.user_mentions.count;
        retweets += s->retweet_count;
        user_ids += s->user.id;
        offset_sum += s->user.utc_offset.has ? s->user.utc_offset.value : 0;
    }
    CHECK_INT(replies, 6);
    CHECK_INT(offsets, 19);
    CHECK_INT(urls, 11);
    CHECK_INT(tags, 8);
    CHECK_INT(links, 13);
    CHECK_INT(mentions, 87);
    CHECK_INT(retweets, 7122);
    CHECK_INT(user_ids, 221361100704);
    CHECK_INT(offset_sum, 460800);
    const bench_tw_status *s0 = &t->statuses.items[0];
    CHECK_INT(s0->id, 505874924095815700);
    CHECK_MEM(s0->user.screen_name.ptr, s0->user.screen_name.len, "ayuu0123", 8);
    CHECK_INT(s0->entities.user_mentions.count, 1);
    CHECK_INT(s0->entities.user_mentions.items[0].id, 866260188);
    CHECK_INT(t->search_metadata.max_id, 505874924095815700);
}

static void test_pinned(void)
{
    size_t n = sizeof PINNED / sizeof PINNED[0];
    /* the documents, and twitter-typed */
    CHECK_INT(bench_payload_count(), n + sizeof DOCUMENTS / sizeof DOCUMENTS[0] + 1);
    for (size_t i = 0; i < n; i++) {
        const bench_payload *p = bench_payload_find(PINNED[i].name);
        CHECK(p != NULL);
        if (!p)
            continue;
        uint32_t crc = (uint32_t)crc32(0, p->bytes, (uInt)p->len);
        if (p->len != PINNED[i].len || crc != PINNED[i].crc) {
            fprintf(stderr, "%s: %zu bytes crc32 %08x, expected %zu / %08x\n", p->name, p->len,
                    crc, PINNED[i].len, PINNED[i].crc);
            CHECK(0);
        }
    }
}

static void test_exact_text(void)
{
    const bench_payload *s = bench_payload_find("small");
    const bench_payload *p = bench_payload_find("person");
    const bench_payload *l = bench_payload_find("large");
    const bench_payload *kp = bench_payload_find("kv-prose");
    CHECK(s && p && l && kp);
    if (!s || !p || !l || !kp)
        return;
    const char *person = "{\"name\":\"Ada Lovelace\",\"age\":36,\"active\":true,"
                         "\"email\":\"ada@example.com\"}";
    CHECK_MEM(p->bytes, p->len, person, strlen(person));
    CHECK(s->bytes[0] == '[' && s->bytes[s->len - 1] == ']');
    CHECK(memcmp(s->bytes, "[{\"id\":1000,\"name\":\"", 20) == 0);
    /* kv-prose is the same generator cut shorter */
    CHECK_MEM(kp->bytes, kp->len, l->bytes, kp->len);
    /* the typed payloads' values agree with their JSON */
    const bench_order *o = bench_payload_find("order")->value;
    CHECK_INT(o->items.count, 100);
    CHECK(strncmp(o->items.items[0].sku.ptr, "SKU-", 4) == 0 && o->items.items[0].sku.len == 9);
    const bench_users *u = bench_payload_find("users-1000k")->value;
    CHECK(u->users.count > 300);
    CHECK(bench_payload_find("users-1000k")->len >= 1000000);
}

/* Rendering a typed payload's value gives its bytes; raw payloads refuse. */
static void test_render(void)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    for (size_t i = 0; i < bench_payload_count(); i++) {
        const bench_payload *p = bench_payload_at(i);
        codec_buf_clear(&b);
        if (!p->model) {
            CHECK_INT(bench_payload_render(p, p->value, &b), CODEC_E_USAGE);
            continue;
        }
        CHECK_INT(bench_payload_render(p, p->value, &b), 0);
        CHECK_MEM(b.data, b.len, p->rendered, p->rendered_len);
    }
    codec_buf_free(&b);
}

/* The generators append and leave what was there. */
static void test_generators_append(void)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    CHECK_INT(codec_buf_append(&b, "xy", 2), 0);
    CHECK_INT(bench_gen_json(1, &b), 0);
    CHECK_INT(b.len, 2 + 104);
    CHECK(memcmp(b.data, "xy[", 3) == 0);
    CHECK_INT(bench_gen_prose(100, &b), 0);
    CHECK_INT(b.len, 2 + 104 + 100);
    codec_buf_free(&b);
}

int main(void)
{
    test_jrandom();
    CHECK_INT(bench_payloads_init(), 0);
    test_zlib_check_figures();
    test_documents();
    test_twitter_typed();
    test_pinned();
    test_exact_text();
    test_generators_append();
    test_render();
    bench_payloads_free();
    return check_done("test_bench_payloads");
}
