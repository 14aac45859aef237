/* test_inflate.c — the stream decode of `gzip` and `deflate` (our inflate,
 * src/transforms/compress/inflate.c) on malformed input of every kind,
 * against zlib's verdict on the same bytes: both accept or both reject, and
 * a rejection is CODEC_E_INVALID_PAYLOAD with the expected detail, whatever
 * the split of the input (whole, one byte at a time, random pieces) and of
 * the output. Also: every truncation of valid streams, multi-member gzip,
 * gzip header fields, and output byte-identical to zlib's. */
#include "check.h"
#include "codec/codec.h"
#include "codec/stream.h"
#include "transforms/compress/inflate_internal.h"

#include <zlib.h>

/* ---- building deflate bit streams ------------------------------------- */

typedef struct bitw {
    uint8_t buf[1 << 16];
    size_t len;
    unsigned bits;   /* bits used in buf[len] */
} bitw;

static void put(bitw *w, uint32_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (!w->bits)
            w->buf[w->len] = 0;
        w->buf[w->len] |= (uint8_t)((v >> i & 1) << w->bits);
        if (++w->bits == 8)
            w->bits = 0, w->len++;
    }
}

/* A Huffman code word: most significant bit first. */
static void put_code(bitw *w, uint32_t code, unsigned len)
{
    for (unsigned i = len; i-- > 0;)
        put(w, code >> i & 1, 1);
}

static size_t finish(bitw *w)
{
    if (w->bits)
        w->bits = 0, w->len++;
    return w->len;
}

/* Canonical codes of lens[0..n) (RFC 1951 3.2.2). */
static void canonical(const uint8_t *lens, unsigned n, uint32_t *codes)
{
    unsigned count[16] = {0}, next[16] = {0};
    for (unsigned i = 0; i < n; i++)
        count[lens[i]]++;
    count[0] = 0;
    for (unsigned len = 1, code = 0; len < 16; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    for (unsigned i = 0; i < n; i++)
        codes[i] = lens[i] ? next[lens[i]]++ : 0;
}

/* A final dynamic block header with the given literal/length and distance
 * code lengths, each sent as a plain code-length symbol (the code-length
 * code gives 0..15 four bits each), or with `clens` as the code-length
 * code's own lengths when not NULL (then nothing follows). */
static const uint8_t clen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                       11, 4,  12, 3, 13, 2, 14, 1, 15};

static void dynamic_header(bitw *w, const uint8_t *ll, unsigned hlit, const uint8_t *dl,
                           unsigned hdist, const uint8_t *clens)
{
    put(w, 1, 1);
    put(w, 2, 2);
    put(w, hlit - 257, 5);
    put(w, hdist - 1, 5);
    put(w, 19 - 4, 4);
    uint8_t cl[19] = {0};
    for (int i = 0; i < 16; i++)
        cl[i] = 4;
    if (clens)
        memcpy(cl, clens, 19);
    for (int i = 0; i < 19; i++)
        put(w, cl[clen_order[i]], 3);
    if (clens)
        return;
    for (unsigned i = 0; i < hlit; i++)
        put_code(w, ll[i], 4);
    for (unsigned i = 0; i < hdist; i++)
        put_code(w, dl[i], 4);
}

/* zlib framing around raw deflate bytes, with the Adler-32 of `out`. */
static size_t zlib_wrap(const uint8_t *raw, size_t n, const char *out, uint8_t *dst)
{
    dst[0] = 0x78, dst[1] = 0x9c;
    memcpy(dst + 2, raw, n);
    uint32_t a = (uint32_t)adler32(1, (const Bytef *)out, (uInt)strlen(out));
    dst[n + 2] = (uint8_t)(a >> 24), dst[n + 3] = (uint8_t)(a >> 16);
    dst[n + 4] = (uint8_t)(a >> 8), dst[n + 5] = (uint8_t)a;
    return n + 6;
}

/* ---- verdicts ------------------------------------------------------------ */

static codec *gz, *zl;

/* zlib's: 1 accepted (the bytes in *out), 0 rejected. gzip members back
 * to back; bytes after a zlib stream are a rejection. */
static int zlib_verdict(bool gzip, const uint8_t *in, size_t n, codec_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, gzip ? 31 : 15) != Z_OK)
        return -1;
    uint8_t buf[4096];
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    int verdict = 0;
    out->len = 0;
    for (;;) {
        z.next_out = buf;
        z.avail_out = sizeof buf;
        int zrc = inflate(&z, Z_NO_FLUSH);
        if (codec_buf_append(out, buf, sizeof buf - z.avail_out))
            break;
        if (zrc == Z_STREAM_END) {
            if (!z.avail_in) {
                verdict = 1;
                break;
            }
            if (!gzip)
                break;
            inflateReset(&z);
        } else if (zrc != Z_OK && !(zrc == Z_BUF_ERROR && !z.avail_out)) {
            break;
        }
    }
    inflateEnd(&z);
    return verdict;
}

/* Ours through the stream API: pieces of `piece` bytes (0: random),
 * drains of up to `room` bytes. CODEC_OK or the status. */
static int stream_decode(const codec *c, const uint8_t *in, size_t n, size_t piece,
                         size_t room, uint64_t seed, codec_buf *out, codec_error *err)
{
    codec_stream *s = codec_stream_new(c, CODEC_STREAM_DECODE, err);
    if (!s)
        return err->family;
    uint8_t drain[5000];
    size_t pos = 0;
    int rc = CODEC_OK;
    bool finished = false;
    out->len = 0;
    while (!rc) {
        size_t got;
        size_t cap = room ? room : 1 + check_rand(&seed) % sizeof drain;
        rc = codec_stream_drain(s, drain, cap, &got, err);
        if (rc || (got && codec_buf_append(out, drain, got)))
            break;
        if (got)
            continue;
        if (pos < n) {
            size_t k = piece ? piece : 1 + check_rand(&seed) % 300, used;
            rc = codec_stream_feed(s, in + pos, k < n - pos ? k : n - pos, &used, err);
            pos += used;
        } else if (!finished) {
            rc = codec_stream_finish(s, err);
            finished = true;
        } else if (codec_stream_done(s)) {
            break;
        }
    }
    codec_stream_free(s);
    return rc;
}

/* Checks `in` with every split against zlib; a rejection has `detail`
 * (any when < 0). Returns zlib's verdict. */
static int agree(const char *what, bool gzip, const uint8_t *in, size_t n, int detail)
{
    codec_buf want, got;
    codec_buf_init(&want, NULL);
    codec_buf_init(&got, NULL);
    int verdict = zlib_verdict(gzip, in, n, &want);
    static const size_t pieces[][2] = {{0, 0}, {1, 1}, {1, 0}, {0, 1}, {7, 3}, {SIZE_MAX, 4096}};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        codec_error err;
        memset(&err, 0, sizeof err);
        int rc = stream_decode(gzip ? gz : zl, in, n, pieces[i][0] ? pieces[i][0] : 0,
                               pieces[i][1], 0x1234 + i, &got, &err);
        if (verdict == 1) {
            if (rc)
                fprintf(stderr, "%s: zlib accepts, we reject (%s)\n", what, err.message);
            CHECK_INT(rc, CODEC_OK);
            CHECK_MEM(got.data, got.len, want.data, want.len);
        } else {
            if (!rc)
                fprintf(stderr, "%s: zlib rejects, we accept (split %zu)\n", what, i);
            CHECK(rc != CODEC_OK);
            CHECK(rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED);
            if (detail >= 0 && (int)err.detail != detail)
                fprintf(stderr, "%s: detail %d, want %d (%s)\n", what, (int)err.detail, detail,
                        err.message);
            if (detail >= 0)
                CHECK_INT(err.detail, detail);
        }
    }
    codec_buf_free(&want);
    codec_buf_free(&got);
    return verdict;
}

/* ---- the cases ------------------------------------------------------------ */

/* Fixed-code block pieces (RFC 1951 3.2.6). */
static void fixed_literal(bitw *w, unsigned c)
{
    if (c < 144)
        put_code(w, 0x30 + c, 8);
    else
        put_code(w, 0x190 + c - 144, 9);
}

static void fixed_symbol(bitw *w, unsigned sym) /* 256..287 */
{
    if (sym < 280)
        put_code(w, sym - 256, 7);
    else
        put_code(w, 0xc0 + sym - 280, 8);
}

static void test_blocks(void)
{
    uint8_t z[4200];
    /* Block type 3. */
    {
        bitw w = {0};
        put(&w, 1, 1);
        put(&w, 3, 2);
        size_t n = zlib_wrap(w.buf, finish(&w), "", z);
        CHECK_INT(agree("block type 3", false, z, n, CODEC_D_CORRUPT), 0);
    }
    /* Stored: LEN/NLEN mismatch, and a good one. */
    {
        static const uint8_t bad[] = {1, 5, 0, 0xfa, 0xfe, 'h', 'e', 'l', 'l', 'o'};
        static const uint8_t good[] = {1, 5, 0, 0xfa, 0xff, 'h', 'e', 'l', 'l', 'o'};
        size_t n = zlib_wrap(bad, sizeof bad, "hello", z);
        CHECK_INT(agree("stored LEN/NLEN", false, z, n, CODEC_D_CORRUPT), 0);
        n = zlib_wrap(good, sizeof good, "hello", z);
        CHECK_INT(agree("stored", false, z, n, -1), 1);
    }
    /* Fixed code: distance too far back, then a good match. */
    {
        bitw w = {0};
        put(&w, 1, 1);
        put(&w, 1, 2);
        fixed_literal(&w, 'a');
        fixed_symbol(&w, 257);  /* length 3 */
        put_code(&w, 1, 5);     /* distance 2: one byte was written */
        fixed_symbol(&w, 256);
        size_t n = zlib_wrap(w.buf, finish(&w), "aaaa", z);
        CHECK_INT(agree("distance too far back", false, z, n, CODEC_D_CORRUPT), 0);
        bitw v = {0};
        put(&v, 1, 1);
        put(&v, 1, 2);
        fixed_literal(&v, 'a');
        fixed_symbol(&v, 257);
        put_code(&v, 0, 5); /* distance 1 */
        fixed_symbol(&v, 256);
        n = zlib_wrap(v.buf, finish(&v), "aaaa", z);
        CHECK_INT(agree("distance 1", false, z, n, -1), 1);
    }
    /* Fixed code: literal/length 286 and 287, distance 30 and 31. */
    for (unsigned sym = 286; sym <= 287; sym++) {
        bitw w = {0};
        put(&w, 1, 1);
        put(&w, 1, 2);
        fixed_symbol(&w, sym);
        size_t n = zlib_wrap(w.buf, finish(&w), "", z);
        CHECK_INT(agree("fixed 286/287", false, z, n, CODEC_D_CORRUPT), 0);
    }
    for (unsigned d = 30; d <= 31; d++) {
        bitw w = {0};
        put(&w, 1, 1);
        put(&w, 1, 2);
        fixed_literal(&w, 'a');
        fixed_symbol(&w, 257);
        put_code(&w, d, 5);
        fixed_symbol(&w, 256);
        size_t n = zlib_wrap(w.buf, finish(&w), "aaaa", z);
        CHECK_INT(agree("fixed distance 30/31", false, z, n, CODEC_D_CORRUPT), 0);
    }
}

/* A dynamic block: literal/length lengths ll (hlit), distance lengths dl
 * (hdist), then the given symbols (literal/length code words only). */
static int dynamic_case(const char *what, const uint8_t *ll, unsigned hlit, const uint8_t *dl,
                        unsigned hdist, const unsigned *syms, size_t nsyms, const char *out,
                        int detail)
{
    uint32_t codes[288];
    canonical(ll, hlit, codes);
    bitw w = {0};
    dynamic_header(&w, ll, hlit, dl, hdist, NULL);
    for (size_t i = 0; i < nsyms; i++)
        put_code(&w, codes[syms[i]], ll[syms[i]]);
    uint8_t z[4200];
    size_t n = zlib_wrap(w.buf, finish(&w), out, z);
    return agree(what, false, z, n, detail);
}

static void test_codes(void)
{
    uint8_t ll[288], dl[32];
    /* A complete literal/length code: 'a' 'b' and EOB at 2, 2 and 1 bits. */
    memset(ll, 0, sizeof ll);
    memset(dl, 0, sizeof dl);
    ll['a'] = 2, ll['b'] = 2, ll[256] = 1;
    dl[0] = 1, dl[1] = 1;
    static const unsigned ab[] = {'a', 'b', 256};
    CHECK_INT(dynamic_case("complete", ll, 257, dl, 2, ab, 3, "ab", -1), 1);
    /* Empty distance code: allowed (zlib too). */
    dl[0] = 0;
    CHECK_INT(dynamic_case("empty distances", ll, 257, dl, 1, ab, 3, "ab", -1), 1);
    /* One distance code of one bit: allowed. */
    dl[0] = 1, dl[1] = 0;
    CHECK_INT(dynamic_case("one distance code", ll, 257, dl, 2, ab, 3, "ab", -1), 1);
    /* Incomplete distance code (two codes of two bits): refused. */
    dl[0] = 2, dl[1] = 2;
    CHECK_INT(dynamic_case("incomplete distances", ll, 257, dl, 2, ab, 3, "ab", CODEC_D_CORRUPT),
              0);
    /* Over-subscribed distance code. */
    dl[0] = 1, dl[1] = 1, dl[2] = 1;
    CHECK_INT(
        dynamic_case("over-subscribed distances", ll, 257, dl, 3, ab, 3, "ab", CODEC_D_CORRUPT),
        0);
    memset(dl, 0, sizeof dl);
    dl[0] = 1, dl[1] = 1;
    /* Over-subscribed literal/length code. */
    ll['c'] = 1;
    CHECK_INT(dynamic_case("over-subscribed literals", ll, 257, dl, 2, ab, 3, "ab",
                           CODEC_D_CORRUPT),
              0);
    /* Incomplete literal/length code. */
    ll['c'] = 0, ll[256] = 2;
    CHECK_INT(
        dynamic_case("incomplete literals", ll, 257, dl, 2, ab, 3, "ab", CODEC_D_CORRUPT), 0);
    /* One literal/length code of one bit (EOB alone): allowed. */
    memset(ll, 0, sizeof ll);
    ll[256] = 1;
    static const unsigned eob[] = {256};
    CHECK_INT(dynamic_case("EOB alone", ll, 257, dl, 2, eob, 1, "", -1), 1);
    /* No end-of-block code. */
    ll[256] = 0, ll['a'] = 1, ll['b'] = 1;
    static const unsigned a_only[] = {'a'};
    CHECK_INT(dynamic_case("no EOB", ll, 257, dl, 2, a_only, 1, "a", CODEC_D_CORRUPT), 0);
    /* Too many symbols: HLIT 287, HDIST 31. */
    memset(ll, 0, sizeof ll);
    ll['a'] = 1, ll[256] = 1;
    CHECK_INT(dynamic_case("HLIT 287", ll, 287, dl, 2, ab + 2, 1, "", CODEC_D_CORRUPT), 0);
    CHECK_INT(dynamic_case("HDIST 31", ll, 257, dl, 31, ab + 2, 1, "", CODEC_D_CORRUPT), 0);
    /* The code-length code: over-subscribed, incomplete, empty. */
    uint8_t cl[19];
    const char *names[3] = {"over-subscribed code lengths", "incomplete code lengths",
                            "empty code lengths"};
    for (int k = 0; k < 3; k++) {
        memset(cl, k == 0 ? 1 : 0, sizeof cl);
        if (k == 1)
            cl[0] = 1, cl[8] = 2;
        bitw w = {0};
        dynamic_header(&w, ll, 257, dl, 2, cl);
        put(&w, 0, 32);
        uint8_t z[4200];
        size_t n = zlib_wrap(w.buf, finish(&w), "", z);
        CHECK_INT(agree(names[k], false, z, n, -1), 0);
    }
    /* Bit length repeat (16) first, and a repeat past the end. */
    {
        bitw w = {0};
        uint8_t c16[19] = {0};
        c16[16] = 1, c16[0] = 1; /* 16 -> "1", 0 -> "0" */
        dynamic_header(&w, ll, 257, dl, 2, c16);
        put_code(&w, 1, 1); /* 16 with nothing before */
        put(&w, 0, 2);
        put(&w, 0, 32);
        uint8_t z[4200];
        size_t n = zlib_wrap(w.buf, finish(&w), "", z);
        CHECK_INT(agree("repeat first", false, z, n, CODEC_D_CORRUPT), 0);
        bitw v = {0};
        uint8_t c18[19] = {0};
        c18[18] = 1, c18[0] = 1;
        dynamic_header(&v, ll, 257, dl, 2, c18);
        for (int i = 0; i < 3; i++) { /* 3 x 138 zeros > 259 lengths */
            put_code(&v, 1, 1);
            put(&v, 127, 7);
        }
        put(&v, 0, 32);
        n = zlib_wrap(v.buf, finish(&v), "", z);
        CHECK_INT(agree("repeat past the end", false, z, n, CODEC_D_CORRUPT), 0);
    }
}

static size_t deflate_text(bool gzip, int level, const uint8_t *src, size_t n, uint8_t *dst,
                           size_t cap)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, gzip ? 31 : 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    z.next_in = (Bytef *)src;
    z.avail_in = (uInt)n;
    z.next_out = dst;
    z.avail_out = (uInt)cap;
    int zrc = deflate(&z, Z_FINISH);
    size_t len = cap - z.avail_out;
    deflateEnd(&z);
    return zrc == Z_STREAM_END ? len : 0;
}

/* A zlib header CMF, FLG with FCHECK making it a multiple of 31. */
static void zlib_header(uint8_t *p, unsigned cmf, unsigned flg)
{
    flg &= 0xe0;
    p[0] = (uint8_t)cmf;
    p[1] = (uint8_t)(flg + (31 - (cmf * 256 + flg) % 31) % 31);
}

static void test_wrappers(void)
{
    static uint8_t text[20000], a[24000], b[48000];
    uint64_t seed = 7;
    for (size_t i = 0; i < sizeof text; i++) /* words and runs: matches of every kind */
        text[i] = (uint8_t)("the cat sat on a mat; {\"k\":[1,2,3]}\n"[check_rand(&seed) % 37]);
    for (bool gzip = false;; gzip = true) {
        const char *wname = gzip ? "gzip" : "zlib";
        size_t n = deflate_text(gzip, 6, text, sizeof text, a, sizeof a);
        CHECK(n > 0);
        CHECK_INT(agree(wname, gzip, a, n, -1), 1);
        /* Every truncation (the empty input too). */
        int bad = 0;
        for (size_t cut = 0; cut < n; cut += cut < 64 || n - cut < 64 ? 1 : 97) {
            codec_buf out;
            codec_buf_init(&out, NULL);
            codec_error err;
            int rc = stream_decode(gzip ? gz : zl, a, cut, 0, 0, cut, &out, &err);
            bad += rc != CODEC_E_INVALID_PAYLOAD || zlib_verdict(gzip, a, cut, &out) != 0;
            codec_buf_free(&out);
        }
        CHECK_INT(bad, 0);
        /* Trailer: check value and (gzip) size. */
        memcpy(b, a, n);
        b[n - (gzip ? 8 : 1)] ^= 1;
        CHECK_INT(agree(gzip ? "CRC-32" : "Adler-32", gzip, b, n, CODEC_D_CHECKSUM), 0);
        if (gzip) {
            memcpy(b, a, n);
            b[n - 4] ^= 1;
            CHECK_INT(agree("ISIZE", gzip, b, n, CODEC_D_CHECKSUM), 0);
        }
        /* Bytes after the end: a second gzip member is read, anything
         * else is refused. */
        memcpy(b, a, n);
        memcpy(b + n, a, n);
        CHECK_INT(agree("two streams", gzip, b, 2 * n, gzip ? -1 : CODEC_D_TRAILING), gzip);
        b[n] = b[n + 1] = 0;
        CHECK_INT(agree("garbage after", gzip, b, n + 2, gzip ? CODEC_D_BAD_MAGIC : CODEC_D_TRAILING),
                  0);
        /* Stored blocks (level 0) and fixed/short blocks (level 1, short). */
        n = deflate_text(gzip, 0, text, sizeof text, a, sizeof a);
        CHECK_INT(agree("level 0", gzip, a, n, -1), 1);
        n = deflate_text(gzip, 1, text, 40, a, sizeof a);
        CHECK_INT(agree("short", gzip, a, n, -1), 1);
        if (gzip)
            break;
    }
    /* zlib header: check bits, method, window size, preset dictionary. */
    {
        size_t n = deflate_text(false, 6, text, 100, a, sizeof a);
        memcpy(b, a, n);
        b[1] ^= 1;
        CHECK_INT(agree("zlib FCHECK", false, b, n, CODEC_D_BAD_MAGIC), 0);
        zlib_header(b, 0x77, 0x80); /* CM 7 */
        CHECK_INT(agree("zlib method", false, b, n, CODEC_D_BAD_MAGIC), 0);
        zlib_header(b, 0x88, 0x80); /* CINFO 8 */
        CHECK_INT(agree("zlib window", false, b, n, CODEC_D_CORRUPT), 0);
        zlib_header(b, 0x78, 0x80 | 0x20); /* FDICT */
        codec_buf out;
        codec_buf_init(&out, NULL);
        codec_error err;
        CHECK_INT(zlib_verdict(false, b, n, &out), 0);
        CHECK_INT(stream_decode(zl, b, n, 0, 0, 1, &out, &err), CODEC_E_UNSUPPORTED);
        codec_buf_free(&out);
    }
    /* gzip header: magic, method, reserved flags, every optional field,
     * header CRC. */
    {
        size_t n = deflate_text(true, 6, text, 300, a, sizeof a);
        memcpy(b, a, n);
        b[1] = 0x8c;
        CHECK_INT(agree("gzip magic", true, b, n, CODEC_D_BAD_MAGIC), 0);
        b[1] = 0x8b, b[2] = 7;
        CHECK_INT(agree("gzip method", true, b, n, CODEC_D_BAD_MAGIC), 0);
        b[2] = 8, b[3] = 0x20;
        CHECK_INT(agree("gzip flags", true, b, n, CODEC_D_CORRUPT), 0);
        /* FEXTRA, FNAME, FCOMMENT and FHCRC before the same body. */
        static const uint8_t fields[] = {3, 0, 'x', 'y', 'z', 'n', 'a', 'm', 'e', 0,
                                         'c', 'o', 'm', 0};
        memcpy(b, a, 10);
        b[3] = 4 | 8 | 16 | 2;
        memcpy(b + 10, fields, sizeof fields);
        size_t h = 10 + sizeof fields;
        uint32_t crc = (uint32_t)crc32(0, b, (uInt)h);
        b[h] = (uint8_t)crc, b[h + 1] = (uint8_t)(crc >> 8);
        memcpy(b + h + 2, a + 10, n - 10);
        CHECK_INT(agree("gzip fields", true, b, h + 2 + n - 10, -1), 1);
        b[h] ^= 1;
        CHECK_INT(agree("gzip header CRC", true, b, h + 2 + n - 10, CODEC_D_CORRUPT), 0);
    }
}

/* The inflater alone, one byte in and out at a time, against zlib on
 * random damage of a valid stream (what the fuzz target does at length). */
/* Matches of every length at short and long distances, decoded by the
 * fast loop and handed to the careful path at every output room and input
 * piece near the fast loop's margins (24 bytes of input, 258 + 32 of room):
 * the bytes must be the input's. */
static void test_matches(void)
{
    enum { N = 48000 };
    static uint8_t text[N], a[N + 1000], back[N + 64];
    uint64_t seed = 17;
    size_t len = 0;
    while (len < 64)
        text[len++] = (uint8_t)('a' + check_rand(&seed) % 26);
    for (unsigned k = 0; len < N; k++) {
        size_t want = 3 + k % 256; /* every match length */
        size_t dist = k % 3 ? 1 + check_rand(&seed) % 40 : 1 + check_rand(&seed) % len;
        if (dist > len)
            dist = len;
        for (size_t i = 0; i < want && len < N; i++, len++)
            text[len] = text[len - dist];
        if (len < N)
            text[len++] = (uint8_t)('A' + k % 26); /* ends the match */
    }
    for (int level = 1; level <= 9; level += 8) {
        size_t n = deflate_text(true, level, text, N, a, sizeof a);
        CHECK(n > 0);
        CHECK_INT(agree("matches", true, a, n, -1), 1);
        static const size_t rooms[] = {257, 289, 290, 291, 300, 333, 4096, N};
        static const size_t pieces[] = {15, 16, 17, 23, 24, 25, 31, 100, SIZE_MAX};
        int bad = 0;
        for (size_t r = 0; r < sizeof rooms / sizeof rooms[0]; r++)
            for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
                codec_inflater *z = codec__inflater_new(CODEC_INFLATE_GZIP);
                const uint8_t *in = a;
                uint8_t *out = back;
                int rc = 0;
                while (!rc && !codec__inflate_finished(z)) {
                    const uint8_t *in_end = (size_t)(a + n - in) < pieces[p] ? a + n
                                                                               : in + pieces[p];
                    uint8_t *out_end = (size_t)(back + N - out) < rooms[r] ? back + N
                                                                             : out + rooms[r];
                    const uint8_t *in0 = in;
                    uint8_t *out0 = out;
                    rc = codec__inflate(z, &in, in_end, &out, out_end);
                    if (!rc && in == in0 && out == out0)
                        break;
                }
                bad += rc || in != a + n || out != back + N || memcmp(back, text, N) != 0;
                codec__inflater_free(z);
            }
        CHECK_INT(bad, 0);
    }
}

/* The longest matches in bits, in the fast loop: a length code of 15 bits
 * with 5 extra bits and a distance code of 15 bits with 13 extra (48
 * bits), then the next lookup, all from one refill. Hand-made, as no compressor makes such codes on purpose: one
 * dynamic block whose codes have lengths 1, 2, ..., 14, 15, 15; random
 * literals first (32 KiB of history and more), then such matches,
 * alone, after one or three literals of 10 bits and after a short match.
 * zlib decodes it too. */
static void test_long_matches(void)
{
    static const unsigned ll_syms[16] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
                                         'i', 'j', 256, 257, 'k', 'l', 284, 285};
    static const unsigned d_syms[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 28, 29};
    uint8_t ll[288] = {0}, dl[32] = {0};
    for (unsigned i = 0; i < 16; i++)
        ll[ll_syms[i]] = (uint8_t)(i < 15 ? i + 1 : 15), dl[d_syms[i]] = ll[ll_syms[i]];
    uint32_t lcodes[288], dcodes[32];
    canonical(ll, 286, lcodes);
    canonical(dl, 30, dcodes);
    static bitw w;
    memset(&w, 0, sizeof w);
    dynamic_header(&w, ll, 286, dl, 30, NULL);
    uint64_t seed = 23;
    for (int i = 0; i < 33000; i++) {
        unsigned c = 'a' + (unsigned)(check_rand(&seed) % 10);
        put_code(&w, lcodes[c], ll[c]);
    }
    for (int k = 0; k < 300; k++) {
        for (int i = 0; i < (k % 4 == 2 ? 3 : k % 4 == 1); i++) /* literals first */
            put_code(&w, lcodes['j'], ll['j']);
        if (k % 4 == 3) { /* a long literal code, a short match: length 3, distance 1 */
            put_code(&w, lcodes['k'], ll['k']);
            put_code(&w, lcodes[257], ll[257]);
            put_code(&w, dcodes[0], dl[0]);
        }
        put_code(&w, lcodes[284], ll[284]);
        put(&w, (uint32_t)(check_rand(&seed) % 31), 5); /* length 227..257 */
        put_code(&w, dcodes[29], dl[29]);
        put(&w, (uint32_t)(check_rand(&seed) % 8192), 13); /* distance 24577.. */
    }
    put_code(&w, lcodes[256], ll[256]);
    size_t n = finish(&w);
    /* zlib framing, with the Adler-32 of what zlib makes of it */
    static uint8_t z[sizeof w.buf + 8], text[1 << 17];
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    CHECK_INT(inflateInit2(&zs, -15), Z_OK);
    zs.next_in = w.buf, zs.avail_in = (uInt)n;
    zs.next_out = text, zs.avail_out = sizeof text;
    CHECK_INT(inflate(&zs, Z_FINISH), Z_STREAM_END);
    uLong a = adler32(1, text, (uInt)zs.total_out);
    CHECK(zs.total_out > 33000 + 300 * 227);
    inflateEnd(&zs);
    z[0] = 0x78, z[1] = 0x9c;
    memcpy(z + 2, w.buf, n);
    for (int i = 0; i < 4; i++)
        z[n + 2 + i] = (uint8_t)(a >> (24 - 8 * i));
    CHECK_INT(agree("long matches", false, z, n + 6, -1), 1);
}

/* Literal codes longer than the table's 11 bits, in the fast loop: bytes
 * drawn so that byte k comes about 2^-(k+1) of the time give zlib's code
 * 12..15-bit codes for k >= 11 (each still seen a few dozen times). */
static void test_long_codes(void)
{
    enum { N = 200000 };
    static uint8_t text[N], a[N + 1000];
    uint64_t seed = 5;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = check_rand(&seed) | (uint64_t)1 << 40;
        text[i] = (uint8_t)__builtin_ctzll(r);
    }
    for (int level = 1; level <= 9; level += 8) {
        size_t n = deflate_text(false, level, text, N, a, sizeof a);
        CHECK(n > 0);
        CHECK_INT(agree("long codes", false, a, n, -1), 1);
    }
}

static void test_damage(void)
{
    static uint8_t text[6000], a[8000], b[8000];
    uint64_t seed = 99;
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (uint8_t)("abcde fghij\n"[check_rand(&seed) % 12] + (i % 500 == 0));
    size_t n = deflate_text(true, 9, text, sizeof text, a, sizeof a);
    int disagree = 0;
    for (int round = 0; round < 400; round++) {
        memcpy(b, a, n);
        for (int k = 0; k < 1 + round % 3; k++) {
            uint64_t r = check_rand(&seed);
            b[r % n] ^= (uint8_t)(1u << (r >> 32) % 8);
        }
        codec_buf want;
        codec_buf_init(&want, NULL);
        int verdict = zlib_verdict(true, b, n, &want);
        codec_inflater *z = codec__inflater_new(CODEC_INFLATE_GZIP);
        const uint8_t *in = b;
        uint8_t out1[1], *got = malloc(want.len + 70000), *o = got;
        int rc = 0;
        while (!rc && (size_t)(o - got) < want.len + 65536) {
            const uint8_t *end = in < b + n ? in + 1 : in;
            uint8_t *op = out1;
            const uint8_t *before = in;
            rc = codec__inflate(z, &in, end, &op, out1 + 1);
            if (op != out1)
                *o++ = out1[0];
            if (!rc && before == in && op == out1)
                break; /* needs input it cannot have */
        }
        int ours = !rc && in == b + n && codec__inflate_finished(z);
        disagree += ours != verdict || (verdict && ((size_t)(o - got) != want.len ||
                                                    memcmp(got, want.data, want.len)));
        codec__inflater_free(z);
        free(got);
        codec_buf_free(&want);
    }
    CHECK_INT(disagree, 0);
}

int main(void)
{
    codec_error err;
    gz = codec_parse("gzip", NULL, &err);
    zl = codec_parse("deflate", NULL, &err);
    CHECK(gz && zl);
    if (!gz || !zl)
        return check_done("test_inflate");
    test_blocks();
    test_codes();
    test_wrappers();
    test_matches();
    test_long_codes();
    test_long_matches();
    test_damage();
    codec_free(gz);
    codec_free(zl);
    return check_done("test_inflate");
}
