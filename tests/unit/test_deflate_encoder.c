/* test_deflate_encoder.c — our raw deflate compressor (deflate_encoder.c,
 * levels 6..9 of `deflate` and `gzip`): every output is inflated by zlib
 * (raw, zlib-framed and gzip-framed), incompressible input stays within the
 * bound, a short `cap` is refused without a byte written past it, the
 * headers are zlib's, and the sizes are no larger than zlib's at the same
 * level on the compression payloads (prose, the bench's small and medium
 * JSON and 64 KiB of log lines, copied to tests/data/compress/, and
 * twitter.json). */
#include "check.h"
#include "codec/codec.h"
#include "compress_payload.h"
#include "transforms/compress/compress_internal.h"

#include <zlib.h>

#define OWN_FIRST 6
#define OWN_LAST 9

/* Inflates a raw deflate stream; true when it gives back exactly want[0..n)
 * and ends where the stream ends. */
static bool raw_inflates_to(const uint8_t *z, size_t zn, const uint8_t *want, size_t n)
{
    z_stream s = {0};
    if (inflateInit2(&s, -15) != Z_OK)
        return false;
    uint8_t *back = malloc(n + 1);
    s.next_in = (Bytef *)z;
    s.next_out = back;
    bool ok = true;
    size_t in_left = zn, out_left = n + 1;
    int rc;
    do { /* zlib counts in 32-bit uInt */
        s.avail_in = in_left > (1u << 30) ? 1u << 30 : (uInt)in_left;
        s.avail_out = out_left > (1u << 30) ? 1u << 30 : (uInt)out_left;
        uInt in0 = s.avail_in, out0 = s.avail_out;
        rc = inflate(&s, Z_NO_FLUSH);
        in_left -= in0 - s.avail_in;
        out_left -= out0 - s.avail_out;
    } while (rc == Z_OK);
    ok = rc == Z_STREAM_END && in_left == 0 && out_left == 1 && memcmp(back, want, n) == 0;
    inflateEnd(&s);
    free(back);
    return ok;
}

/* Compresses at `level` into an exact-bound buffer and checks it inflates
 * back; returns the compressed size (0 on failure). */
static size_t round_trip(codec_deflater *d, int level, const uint8_t *src, size_t n)
{
    size_t cap = codec__deflate_bound(n);
    uint8_t *dst = malloc(cap);
    size_t w = codec__deflate_compress(d, level, src, n, dst, cap);
    CHECK(w > 0 && w <= cap);
    bool ok = w && raw_inflates_to(dst, w, src, n);
    if (!ok)
        fprintf(stderr, "level %d, %zu bytes: no round trip\n", level, n);
    CHECK(ok);
    free(dst);
    return ok ? w : 0;
}

static uint8_t *random_bytes(size_t n, uint64_t seed)
{
    uint8_t *p = malloc(n ? n : 1);
    uint64_t x = seed | 1;
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(check_rand(&x) >> 24);
    return p;
}

static void test_edge_inputs(codec_deflater *d, int level)
{
    uint8_t one = 'x';
    CHECK(round_trip(d, level, &one, 0) == 2); /* a fixed block holding only its end */
    round_trip(d, level, &one, 1);
    uint8_t all[256 * 3];
    for (size_t i = 0; i < sizeof all; i++)
        all[i] = (uint8_t)(i * 7);
    round_trip(d, level, all, 256);
    round_trip(d, level, all, sizeof all);
    /* Runs: a long one (matches of 258 back to back), then short ones. */
    size_t n = 300000;
    uint8_t *runs = malloc(n);
    memset(runs, 'a', n);
    CHECK(round_trip(d, level, runs, n) < 1000);
    for (size_t i = 0; i < n; i++)
        runs[i] = (uint8_t)(i / 3 % 5);
    round_trip(d, level, runs, n);
    free(runs);
}

/* Byte counts in Fibonacci proportions, shuffled: the Huffman tree is
 * deeper than 15 levels and must be limited without losing completeness. */
static void test_deep_codes(codec_deflater *d, int level)
{
    size_t n = 0, fib[26] = {1, 1};
    for (int i = 2; i < 26; i++)
        fib[i] = fib[i - 1] + fib[i - 2];
    for (int i = 0; i < 26; i++)
        n += fib[i];
    uint8_t *p = malloc(n);
    size_t k = 0;
    for (int i = 0; i < 26; i++)
        for (size_t j = 0; j < fib[i]; j++)
            p[k++] = (uint8_t)(i * 9);
    uint64_t x = 5;
    for (size_t i = n - 1; i > 0; i--) {
        size_t r = (size_t)(check_rand(&x) % (i + 1));
        uint8_t t = p[i];
        p[i] = p[r];
        p[r] = t;
    }
    round_trip(d, level, p, n);
    free(p);
}

/* Random bytes: stored blocks, within the bound. */
static void test_incompressible(codec_deflater *d, int level)
{
    static const size_t sizes[] = {1, 100, 65535, 65536, 200000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        uint8_t *p = random_bytes(n, n + 11);
        size_t w = round_trip(d, level, p, n);
        /* one stored block per 32K-symbol block (5 bytes each) */
        CHECK(w >= n && w <= n + 5 * (n / 32768 + 1) + 1);
        free(p);
    }
    /* Stored blocks of 32 KiB, 32 block headers per MiB as zlib and gzip
     * write (the first and last may be shorter). */
    size_t n = (size_t)1 << 20;
    uint8_t *p = random_bytes(n, 31);
    size_t w = round_trip(d, level, p, n);
    CHECK(w >= n && w <= n + 5 * (n / 32768 + 2) + 1);
    free(p);
}

/* After stored blocks the search runs only every few positions (sparse
 * mode, deflate_encoder.c): what follows random bytes must still be found,
 * a repeat among them (8 KiB copied three times) and prose, both within a
 * few bytes of what a full search finds (the same input without the random
 * lead-in, plus the lead-in stored). */
static void test_after_incompressible(codec_deflater *d, int level)
{
    size_t lead = 160 * 1024, chunk = 8192, tail = 4 * chunk;
    uint8_t *p = random_bytes(lead + tail, 23);
    for (size_t k = 1; k < 4; k++)
        memcpy(p + lead + k * chunk, p + lead, chunk);
    size_t lead_w = round_trip(d, level, p, lead);
    size_t w = round_trip(d, level, p, lead + tail);
    size_t tail_w = round_trip(d, level, p + lead, tail);
    CHECK(lead_w >= lead && tail_w < 2 * chunk);
    CHECK(w <= lead_w + tail_w + 64);
    free(p);
    size_t text = 100000;
    uint8_t *prose = payload_prose(text);
    uint8_t *q = random_bytes(lead + text, 29);
    memcpy(q + lead, prose, text);
    w = round_trip(d, level, q, lead + text);
    size_t prose_w = round_trip(d, level, prose, text);
    CHECK(w <= lead_w + prose_w + 64);
    free(q);
    free(prose);
}

/* Mixed text and binary of random sizes up to 1 MiB. */
static void test_random_sizes(codec_deflater *d, int level)
{
    uint64_t x = 99 + (uint64_t)level;
    for (int i = 0; i < 8; i++) {
        size_t n = (size_t)(check_rand(&x) % (1u << 20));
        if (i < 3)
            n %= 300; /* a few short ones */
        uint8_t *p = payload_mixed(n, check_rand(&x));
        round_trip(d, level, p, n);
        free(p);
    }
}

/* Repeats at the window's edge: a random 32 KiB block copied at distances
 * 32,767, 32,768 and 32,769 (only the first two may be matched), and
 * sizes around 32 Ki and 64 Ki. */
static void test_window_edges(codec_deflater *d, int level)
{
    static const size_t dists[] = {32767, 32768, 32769};
    for (size_t k = 0; k < 3; k++) {
        size_t n = dists[k] * 3;
        uint8_t *p = random_bytes(n, k + 5);
        memcpy(p + dists[k], p, dists[k]);
        memcpy(p + 2 * dists[k], p, dists[k]);
        size_t w = round_trip(d, level, p, n);
        if (k < 2)
            CHECK(w < n / 2); /* the copies were found */
        free(p);
    }
    static const size_t sizes[] = {32767, 32768, 32769, 65535, 65536, 65537, 98304};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint8_t *p = payload_prose(sizes[k]);
        round_trip(d, level, p, sizes[k]);
        free(p);
    }
}

/* Compresses src[0..n) as a stream does: parts of CODEC_DEFLATE_PART
 * through codec__deflate_compress_part(), each copied with the history it
 * needs before it into a buffer of its own (the history moves between
 * parts), into caps of the documented bound; returns the size, 0 on
 * failure. */
static size_t stream_parts(codec_deflater *d, int level, const uint8_t *src, size_t n,
                           uint8_t *dst, size_t cap)
{
    size_t w = 0, off = 0;
    for (;;) {
        size_t len = n - off < CODEC_DEFLATE_PART ? n - off : CODEC_DEFLATE_PART;
        size_t hist = off ? codec__deflate_history(d) : 0;
        CHECK(hist <= CODEC_DEFLATE_HOLD && hist <= off);
        bool final = off + len == n;
        /* each part gets its bound, as a stream gives it */
        size_t part_cap = codec__deflate_bound(hist + len), got = 0;
        uint8_t *buf = malloc(hist + len + 1), *out = malloc(part_cap);
        memcpy(buf, src + off - hist, hist + len);
        bool ok = codec__deflate_compress_part(d, level, buf + hist, len, off == 0, final, out,
                                               part_cap, &got) &&
                  got <= cap - w;
        if (ok)
            memcpy(dst + w, out, got);
        free(buf);
        free(out);
        if (!ok)
            return 0;
        w += got;
        if (final)
            return w;
        off += len;
    }
}

/* Parts (CODEC_DEFLATE_PART; made small here): each matches into the
 * window before it, so smaller parts cost little; the tables go on across
 * parts, calls and the rebase near 2^32 without changing a byte; a stream
 * of parts gives the one-shot's bytes. */
static void test_parts(int level)
{
    codec_deflater *d = codec__deflater_new();
    CHECK(d != NULL);
    size_t n = 230000;
    uint8_t *p = payload_prose(n);
    size_t one = round_trip(d, level, p, n);
    codec__deflater_set_part(d, 50000);
    size_t whole = round_trip(d, level, p, n);
    CHECK(whole > 0 && whole <= one + one / 100);
    uint8_t *runs = malloc(n);
    memset(runs, 'z', n);
    round_trip(d, level, runs, n);
    /* parts shorter than the window: the history is all the input before */
    codec__deflater_set_part(d, 1000);
    round_trip(d, level, p, 3000);
    size_t small = round_trip(d, level, p, 70000);
    codec__deflater_set_part(d, 1);
    round_trip(d, level, p, 3000);
    /* The tables are not cleared between parts and calls (positions carry
     * a growing offset): the same input gives the same stream after other
     * inputs, and across the rebase near 2^32 (parts of 50,000 bytes from
     * 120,000 below it: the third one rebases, within the call), also
     * with parts shorter than the window. */
    codec__deflater_set_part(d, 50000);
    size_t cap = codec__deflate_bound(n);
    uint8_t *first = malloc(cap), *again = malloc(cap);
    size_t w1 = codec__deflate_compress(d, level, p, n, first, cap);
    CHECK(w1 == whole);
    round_trip(d, level, runs, 1000);
    codec__deflater_set_offset(d, UINT32_MAX - 120000);
    size_t w2 = codec__deflate_compress(d, level, p, n, again, cap);
    CHECK(w2 == w1 && memcmp(first, again, w1) == 0);
    CHECK(round_trip(d, level, p, n) == whole);
    codec__deflater_set_part(d, 1000);
    codec__deflater_set_offset(d, UINT32_MAX - 30500);
    CHECK(round_trip(d, level, p, 70000) == small);
    free(first);
    free(again);
    codec__deflater_free(d);
    d = codec__deflater_new();
    CHECK(d != NULL);
    /* A stream of parts == the one-shot, at sizes around the parts and
     * across the rebase. */
    size_t part = CODEC_DEFLATE_PART;
    size_t sizes[] = {part - 1, part, part + 1, 3 * part, 3 * part + 12345};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t m = sizes[k];
        uint8_t *q = k == 2 ? random_bytes(m, 17) : k % 2 ? payload_prose(m) : payload_mixed(m, 40 + k);
        if (k == 4) /* a run longer than CODEC_DEFLATE_HOLD: a block written at a part end */
            memset(q + part / 2, 'r', 2 * part);
        size_t qcap = codec__deflate_bound(m);
        uint8_t *a = malloc(qcap), *b = malloc(qcap);
        size_t wa = codec__deflate_compress(d, level, q, m, a, qcap);
        CHECK(wa > 0 && raw_inflates_to(a, wa, q, m));
        size_t wb = stream_parts(d, level, q, m, b, qcap);
        CHECK(wb == wa && memcmp(a, b, wa) == 0);
        /* the stream's first part at 2^32 - 2.5 parts: its third rebases */
        codec__deflater_set_offset(d, UINT32_MAX - (uint32_t)(5 * part / 2));
        wb = stream_parts(d, level, q, m, b, qcap);
        CHECK(wb == wa && memcmp(a, b, wa) == 0);
        codec__deflater_set_offset(d, UINT32_MAX - (uint32_t)(3 * part / 2));
        wb = codec__deflate_compress(d, level, q, m, b, qcap);
        CHECK(wb == wa && memcmp(a, b, wa) == 0);
        free(a);
        free(b);
        free(q);
    }
    free(runs);
    free(p);
    codec__deflater_free(d);
}

/* A cap below what the stream needs: 0, and nothing written past it. */
static void test_short_cap(codec_deflater *d, int level)
{
    size_t n = 70000;
    uint8_t *p = payload_mixed(n, 3);
    size_t cap = codec__deflate_bound(n);
    uint8_t *dst = malloc(cap + 64);
    size_t w = codec__deflate_compress(d, level, p, n, dst, cap);
    CHECK(w > 0);
    size_t shorts[] = {0, 1, w / 2, w - 1};
    for (size_t k = 0; k < 4; k++) {
        memset(dst, 0xA5, cap + 64);
        CHECK_INT(codec__deflate_compress(d, level, p, n, dst, shorts[k]), 0);
        bool untouched = true;
        for (size_t i = shorts[k]; i < cap + 64; i++)
            untouched &= dst[i] == 0xA5;
        CHECK(untouched);
    }
    free(dst);
    free(p);
}

/* The stages: zlib and gzip framing read by zlib, headers as zlib writes
 * them, and sizes no larger than zlib's at the same level. */
static size_t zlib_size(const uint8_t *src, size_t n, int level, uint8_t head[2])
{
    uLongf zl = compressBound(n);
    uint8_t *z = malloc(zl);
    CHECK_INT(compress2(z, &zl, src, n, level), Z_OK);
    memcpy(head, z, 2);
    free(z);
    return zl;
}

static void check_stage(const char *name, const uint8_t *src, size_t n, int level)
{
    char spec[32];
    snprintf(spec, sizeof spec, "deflate:%d", level);
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    snprintf(spec, sizeof spec, "gzip:%d", level);
    codec *g = codec_parse(spec, NULL, &err);
    CHECK(c && g);
    codec_buf out, gout;
    codec_buf_init(&out, NULL);
    codec_buf_init(&gout, NULL);
    codec_bytes in = {src, n};
    CHECK_INT(codec_encode(c, &in, &out, &err), 0);
    CHECK_INT(codec_encode(g, &in, &gout, &err), 0);
    uint8_t zhead[2];
    size_t zl = zlib_size(src, n, level, zhead);
    if (out.len > zl)
        fprintf(stderr, "%s at level %d: %zu bytes, zlib %zu\n", name, level, out.len, zl);
    CHECK(out.len <= zl);
    CHECK(out.len >= 2 && memcmp(out.data, zhead, 2) == 0);
    /* zlib framing through zlib's uncompress (checks the Adler-32) */
    uLongf back_len = n + 1;
    uint8_t *back = malloc(n + 1);
    CHECK_INT(uncompress(back, &back_len, out.data, out.len), Z_OK);
    CHECK_MEM(back, back_len, src, n);
    /* gzip framing: the header, the same deflate data, CRC-32 and ISIZE,
     * read by zlib's gzip mode */
    static const uint8_t gz_head[8] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0};
    CHECK(gout.len == out.len - 6 + 18);
    CHECK(memcmp(gout.data, gz_head, 8) == 0);
    CHECK(gout.data[8] == (level >= 8 ? 2 : 0) && gout.data[9] == 255);
    CHECK(memcmp(gout.data + 10, out.data + 2, out.len - 6) == 0);
    z_stream s = {0};
    CHECK_INT(inflateInit2(&s, 15 + 16), Z_OK);
    s.next_in = gout.data;
    s.avail_in = (uInt)gout.len;
    s.next_out = back;
    s.avail_out = (uInt)n + 1;
    CHECK_INT(inflate(&s, Z_FINISH), Z_STREAM_END);
    CHECK(s.total_out == n && s.avail_in == 0 && memcmp(back, src, n) == 0);
    inflateEnd(&s);
    free(back);
    codec_buf_free(&out);
    codec_buf_free(&gout);
    codec_free(c);
    codec_free(g);
}

static uint8_t *data_file(const char *rel, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", CODEC_TEST_DATA, rel);
    uint8_t *p = check_read_file(path, n);
    if (!p)
        fprintf(stderr, "cannot read %s\n", path);
    CHECK(p != NULL);
    return p;
}

static void test_stages_against_zlib(void)
{
    static const char *const files[] = {"compress/small.json", "compress/medium.json",
                                        "compress/logs.txt", "json/twitter.json"};
    for (int level = OWN_FIRST; level <= OWN_LAST; level++) {
        for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
            size_t n;
            uint8_t *p = data_file(files[k], &n);
            if (p)
                check_stage(files[k], p, n, level);
            free(p);
        }
        static const size_t prose[] = {0, 1, 104, 8338, 65536, 1 << 20};
        for (size_t k = 0; k < sizeof prose / sizeof prose[0]; k++) {
            uint8_t *p = payload_prose(prose[k]);
            check_stage("prose", p, prose[k], level);
            free(p);
        }
        size_t n = 65536;
        uint8_t *letters = random_bytes(n, 17);
        for (size_t i = 0; i < n; i++)
            letters[i] = (uint8_t)('a' + letters[i] % 26);
        check_stage("letters", letters, n, level);
        free(letters);
    }
}

int main(void)
{
    for (int level = OWN_FIRST; level <= OWN_LAST; level++) {
        codec_deflater *d = codec__deflater_new();
        CHECK(d != NULL);
        test_edge_inputs(d, level);
        test_incompressible(d, level);
        test_after_incompressible(d, level);
        test_deep_codes(d, level);
        test_random_sizes(d, level);
        test_window_edges(d, level);
        test_short_cap(d, level);
        codec__deflater_free(d);
        test_parts(level);
    }
    test_stages_against_zlib();
    return check_done("test_deflate_encoder");
}
