/* test_inspect.c — the `codec inspect` parser against the libraries that
 * write each format (zlib, libzstd, liblz4) and against hostile input:
 * every truncation and every single-byte corruption of each sample. */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_getFrameHeader, the reference parser */
#include "check.h"
#include "inspect.h"

#include "codec/codec.h"

#include <lz4frame.h>
#include <stdbool.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

static inspect_report rep;

static const char *field(const char *key)
{
    const char *v = inspect_field_value(&rep, key);
    return v ? v : "(absent)";
}

#define CHECK_FIELD(key, want)                                                   \
    do {                                                                         \
        CHECK_STR(field(key), want);                                             \
        if (strcmp(field(key), want) != 0)                                       \
            fprintf(stderr, "  field '%s' is '%s', want '%s'\n", key, field(key), want); \
    } while (0)

static uint8_t text[200000];

static void make_text(void)
{
    uint64_t s = 7;
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (uint8_t)("abcdefgh \n"[check_rand(&s) % 10]);
}

static int inspect(const uint8_t *p, size_t n)
{
    return inspect_bytes(p, n, INSPECT_DEFAULT_WALK, &rep);
}

static char *u64(uint64_t v)
{
    static char buf[4][24];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%llu", (unsigned long long)v);
    return b;
}

/* Every prefix of a sample shorter than `whole` must be reported as a
 * problem (or as another format once the magic is cut), and every
 * single-byte corruption must be survived; ASan checks the bounds. */
static void hostile(const uint8_t *p, size_t n, size_t whole, const char *format)
{
    uint8_t *copy = malloc(n);
    for (size_t cut = 0; cut < n; cut++) {
        memcpy(copy, p, cut);
        int rc = inspect_bytes(copy, cut, INSPECT_DEFAULT_WALK, &rep);
        if (cut < whole && strcmp(rep.format, format) == 0 && rc == CODEC_OK) {
            fprintf(stderr, "  %s cut at %zu of %zu passed\n", format, cut, n);
            CHECK(rc != CODEC_OK);
        }
        if (rc)
            CHECK(rep.err.offset <= cut || rep.err.offset == CODEC_NO_OFFSET);
    }
    size_t step = n > 4096 ? n / 4096 : 1;
    for (size_t i = 0; i < n; i += step) {
        memcpy(copy, p, n);
        copy[i] ^= 0x5A;
        inspect_bytes(copy, n, INSPECT_DEFAULT_WALK, &rep);
        copy[i] = 0xFF;
        inspect_bytes(copy, n, INSPECT_DEFAULT_WALK, &rep);
    }
    free(copy);
}

/* ---------------------------------------------------------------------------
 * gzip and zlib, written by zlib
 * ------------------------------------------------------------------------ */

static size_t gzip_member(uint8_t *dst, size_t cap, const uint8_t *src, size_t n,
                          gz_header *h)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    CHECK_INT(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    if (h)
        CHECK_INT(deflateSetHeader(&zs, h), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)src;
    zs.avail_in = (uInt)n;
    zs.next_out = dst;
    zs.avail_out = (uInt)cap;
    CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t len = zs.total_out;
    deflateEnd(&zs);
    return len;
}

static void test_gzip(void)
{
    static uint8_t gz[400000];
    static uint8_t extra[] = {'A', 'B', 3, 0, 'x', 'y', 'z'};
    gz_header h;
    memset(&h, 0, sizeof h);
    h.time = 1700000000;
    h.os = 3;
    h.extra = extra;
    h.extra_len = sizeof extra;
    h.name = (Bytef *)"data\\set\x01.txt";
    h.comment = (Bytef *)"a comment";
    h.hcrc = 1;
    size_t n = gzip_member(gz, sizeof gz, text, 100000, &h);
    CHECK_INT(inspect(gz, n), CODEC_OK);
    CHECK_STR(rep.format, "gzip");
    CHECK_FIELD("mtime", "1700000000 (2023-11-14T22:13:20Z)");
    CHECK_FIELD("os", "3 (unix)");
    CHECK_FIELD("name", "data\\\\set\\x01.txt");
    CHECK_FIELD("isize", "100000");
    CHECK_FIELD("decoded size", "100000");
    CHECK_FIELD("members", "(absent)");
    size_t small = gzip_member(gz + n, sizeof gz - n, text, 3000, &h);
    hostile(gz + n, small, small, "gzip");

    /* Three members back to back, then trailing bytes. */
    size_t m = n;
    m += gzip_member(gz + m, sizeof gz - m, text, 5000, NULL);
    m += gzip_member(gz + m, sizeof gz - m, text + 7, 70000, NULL);
    memcpy(gz + m, "\0\0\0", 3);
    CHECK_INT(inspect(gz, m + 3), CODEC_OK);
    CHECK_FIELD("members", "3");
    CHECK_FIELD("isize", "70000");
    CHECK_FIELD("decoded size", "175000");
    CHECK_FIELD("trailing bytes", "3");
    CHECK_FIELD("name", "data\\\\set\\x01.txt");

    /* The walk budget stops inflating; the last 4 bytes stand in for ISIZE. */
    CHECK_INT(inspect_bytes(gz, m, 65536, &rep), CODEC_OK);
    CHECK_FIELD("decoded size", "over 65536 (walk stopped)");
    CHECK_FIELD("isize", "70000 (last 4 bytes, not walked)");

    /* Reserved flag bits and an unknown method. */
    gz[3] |= 0x80;
    CHECK_INT(inspect(gz, n), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(rep.err.offset, 3);
    gz[3] &= 0x7F;
    gz[2] = 7;
    CHECK_INT(inspect(gz, n), CODEC_E_UNSUPPORTED);
    CHECK_STR(rep.err.stage, "gzip");
}

static void test_zlib(void)
{
    static const struct { int level; const char *want; } levels[] = {
        {1, "0 (fastest)"}, {3, "1 (fast)"}, {6, "2 (default)"}, {9, "3 (maximum)"}};
    static uint8_t z[300000];
    for (size_t i = 0; i < 4; i++) {
        uLongf len = sizeof z;
        CHECK_INT(compress2(z, &len, text, i ? 50000 : 3000, levels[i].level), Z_OK);
        CHECK_INT(inspect(z, len), CODEC_OK);
        CHECK_STR(rep.format, "zlib");
        CHECK_FIELD("level", levels[i].want);
        CHECK_FIELD("window", "32768");
        CHECK_FIELD("decoded size", i ? "50000" : "3000");
        if (i == 0)
            hostile(z, len, len, "zlib");
    }
    /* A preset dictionary: its id is the Adler-32 of the dictionary. */
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    CHECK_INT(deflateInit(&zs, 6), Z_OK);
    CHECK_INT(deflateSetDictionary(&zs, text, 1000), Z_OK);
    zs.next_in = text;
    zs.avail_in = 5000;
    zs.next_out = z;
    zs.avail_out = sizeof z;
    CHECK_INT(deflate(&zs, Z_FINISH), Z_STREAM_END);
    CHECK_INT(inspect(z, zs.total_out), CODEC_OK);
    char id[16];
    snprintf(id, sizeof id, "0x%08lx", adler32(1, text, 1000));
    CHECK_FIELD("dictionary id", id);
    deflateEnd(&zs);
}

/* ---------------------------------------------------------------------------
 * zstd: real frames, and every header layout against ZSTD_getFrameHeader
 * ------------------------------------------------------------------------ */

static void test_zstd_frames(void)
{
    static uint8_t zs[300000];
    size_t n = ZSTD_compress(zs, sizeof zs, text, 100000, 3);
    CHECK(!ZSTD_isError(n));
    CHECK_INT(inspect(zs, n), CODEC_OK);
    CHECK_STR(rep.format, "zstd");
    CHECK_FIELD("content size", "100000");
    CHECK_FIELD("checksum", "no");
    hostile(zs, n, n, "zstd");

    /* No content size, a checksum, then a second frame and a skippable one. */
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, 17);
    size_t m = ZSTD_compress2(cc, zs, sizeof zs, text, 90000);
    CHECK(!ZSTD_isError(m));
    ZSTD_freeCCtx(cc);
    CHECK_INT(inspect(zs, m), CODEC_OK);
    CHECK_FIELD("content size", "(absent)");
    CHECK_FIELD("checksum", "yes");
    CHECK_FIELD("window size", "131072");
    size_t k = ZSTD_compress(zs + m, sizeof zs - m, text, 1000, 1);
    CHECK(!ZSTD_isError(k));
    static const uint8_t skip[] = {0x53, 0x2A, 0x4D, 0x18, 2, 0, 0, 0, 'h', 'i'};
    memcpy(zs + m + k, skip, sizeof skip);
    CHECK_INT(inspect(zs, m + k + sizeof skip), CODEC_OK);
    CHECK_FIELD("frames", "3");
    CHECK_FIELD("skippable frames", "1");
    CHECK_FIELD("content size", "(absent)");
}

/* Builds a frame with the given descriptor and random header fields, then
 * an empty last raw block (and a checksum when flagged). */
static size_t craft_zstd(uint8_t *f, unsigned fhd, uint8_t wd, uint64_t *rng)
{
    static const size_t did_bytes[] = {0, 1, 2, 4};
    bool single = fhd & 0x20;
    size_t fcs = (fhd >> 6) ? (size_t)1 << (fhd >> 6) : (size_t)single;
    size_t n = 0;
    memcpy(f, "\x28\xB5\x2F\xFD", 4);
    n = 4;
    f[n++] = (uint8_t)fhd;
    if (!single)
        f[n++] = wd;
    for (size_t i = 0; i < did_bytes[fhd & 3] + fcs; i++)
        f[n++] = (uint8_t)check_rand(rng);
    memcpy(f + n, "\x01\x00\x00", 3);
    n += 3;
    if (fhd & 4) {
        memcpy(f + n, "\0\0\0\0", 4);
        n += 4;
    }
    return n;
}

static void test_zstd_headers(void)
{
    uint64_t rng = 11;
    uint8_t f[32];
    size_t compared = 0;
    for (unsigned fhd = 0; fhd < 256; fhd++) {
        for (unsigned w = 0; w < 256; w += 7) {
            size_t n = craft_zstd(f, fhd, (uint8_t)w, &rng);
            ZSTD_frameHeader ref;
            size_t zr = ZSTD_getFrameHeader(&ref, f, n);
            int rc = inspect(f, n);
            if (ZSTD_isError(zr)) {
                /* libzstd also refuses windows over its maximum, which inspect reports. */
                if (ZSTD_getErrorCode(zr) != ZSTD_error_frameParameter_windowTooLarge)
                    CHECK(rc != CODEC_OK);
                continue;
            }
            compared++;
            CHECK_FIELD("window size", u64(ref.windowSize));
            CHECK_FIELD("checksum", ref.checksumFlag ? "yes" : "no");
            CHECK_FIELD("dictionary id", ref.dictID ? u64(ref.dictID) : "(absent)");
            if (ref.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN)
                CHECK_FIELD("content size", "(absent)");
            else if (rc == CODEC_OK)
                CHECK_FIELD("content size", u64(ref.frameContentSize));
        }
    }
    CHECK(compared > 3000);
}

/* ---------------------------------------------------------------------------
 * LZ4 frames, every descriptor option, against LZ4F_getFrameInfo
 * ------------------------------------------------------------------------ */

static void test_lz4(void)
{
    static uint8_t out[400000];
    static const char *const sizes[] = {"65536", "262144", "1048576", "4194304"};
    LZ4F_dctx *dctx;
    CHECK(!LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)));
    for (unsigned combo = 0; combo < 64; combo++) {
        LZ4F_preferences_t prefs;
        memset(&prefs, 0, sizeof prefs);
        prefs.frameInfo.blockSizeID = (LZ4F_blockSizeID_t)(LZ4F_max64KB + (combo & 3));
        prefs.frameInfo.blockMode = combo & 4 ? LZ4F_blockIndependent : LZ4F_blockLinked;
        prefs.frameInfo.contentChecksumFlag = combo & 8 ? LZ4F_contentChecksumEnabled : 0;
        prefs.frameInfo.blockChecksumFlag = combo & 16 ? LZ4F_blockChecksumEnabled : 0;
        prefs.frameInfo.contentSize = combo & 32 ? 150000 : 0;
        prefs.frameInfo.dictID = combo % 3 == 0 ? 0xABCDEF01u : 0;
        size_t n = LZ4F_compressFrame(out, sizeof out, text, 150000, &prefs);
        CHECK(!LZ4F_isError(n));
        CHECK_INT(inspect(out, n), CODEC_OK);
        CHECK_STR(rep.format, "lz4");
        LZ4F_frameInfo_t info;
        size_t consumed = n;
        LZ4F_resetDecompressionContext(dctx);
        CHECK(!LZ4F_isError(LZ4F_getFrameInfo(dctx, &info, out, &consumed)));
        CHECK_FIELD("block size", sizes[info.blockSizeID - LZ4F_max64KB]);
        CHECK_FIELD("block mode",
                    info.blockMode == LZ4F_blockIndependent ? "independent" : "linked");
        CHECK_FIELD("content checksum", info.contentChecksumFlag ? "yes" : "no");
        CHECK_FIELD("block checksum", info.blockChecksumFlag ? "yes" : "no");
        CHECK_FIELD("content size", info.contentSize ? u64(info.contentSize) : "(absent)");
        CHECK_FIELD("dictionary id", info.dictID ? u64(info.dictID) : "(absent)");
        if (combo == 63)
            hostile(out, n, n, "lz4");
    }
    LZ4F_freeDecompressionContext(dctx);
    /* Two frames back to back. */
    size_t a = LZ4F_compressFrame(out, sizeof out, text, 1000, NULL);
    size_t b = LZ4F_compressFrame(out + a, sizeof out - a, text, 2000, NULL);
    CHECK_INT(inspect(out, a + b), CODEC_OK);
    CHECK_FIELD("frames", "2");
    CHECK_FIELD("blocks", "2");
    /* A version other than 01. */
    out[4] = (uint8_t)((out[4] & 0x3F) | 0x80);
    CHECK_INT(inspect(out, a), CODEC_E_UNSUPPORTED);
}

/* ---------------------------------------------------------------------------
 * codec's framings (WIRE-FORMATS.md) and text
 * ------------------------------------------------------------------------ */

/* The shape of the envelope known-answer vector: key id "kek", a 41-byte
 * AES-KW wrapped key, nonce 20..2b, 15 bytes of plaintext. */
static size_t make_envelope(uint8_t *m)
{
    static const uint8_t head[] = {0x4a, 0x43, 0x01, 0x01, 0x00, 0x03, 'k', 'e', 'k',
                                   0x00, 0x29, 0x01};
    memcpy(m, head, sizeof head);
    memset(m + sizeof head, 0xAA, 40);
    for (int i = 0; i < 12; i++)
        m[52 + i] = (uint8_t)(0x20 + i);
    memset(m + 64, 0x55, 31);
    return 95;
}

/* Inspect and the stage's decoder read a header with the same checks
 * (codec_inspect runs the decoder's own): whatever the bytes, both give
 * the same family, detail, offset and message, or inspect passes where the
 * decoder gets past the header. */
static void agree(const codec *c, const uint8_t *m, size_t n)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes out;
    codec_error derr;
    int drc = codec_decode(c, m, n, &out, &arena, &derr);
    codec_arena_free(&arena);
    int irc = inspect(m, n);
    if (strcmp(rep.format, "versioned") != 0 && strcmp(rep.format, "envelope") != 0)
        return;  /* the magic is gone: inspect names another format */
    if (irc == CODEC_OK)
        return;  /* the header is fine; the decoder may still fail past it */
    CHECK_INT(drc, irc);
    CHECK_INT(derr.detail, rep.err.detail);
    CHECK_INT(derr.offset, rep.err.offset);
    CHECK_STR(derr.message, rep.err.message);
}

/* Every truncation and every value of each header byte. */
static void agree_all(const codec *c, uint8_t *m, size_t n, size_t header)
{
    for (size_t cut = 0; cut <= n; cut++)
        agree(c, m, cut);
    for (size_t i = 2; i < header; i++) {
        uint8_t keep = m[i];
        for (unsigned b = 0; b < 256; b++) {
            m[i] = (uint8_t)b;
            agree(c, m, n);
        }
        m[i] = keep;
    }
}

static int refuse_generate(void *ctx, const codec_byte_source *random, codec_data_key *out,
                           codec_error *err)
{
    (void)ctx, (void)random, (void)out;
    return codec_error_set(err, CODEC_E_USAGE, 0, "test", CODEC_NO_OFFSET, "decode only");
}

static int allow_all(void *ctx, const uint8_t *id, size_t n)
{
    (void)ctx, (void)id, (void)n;
    return 1;
}

static int refuse_unwrap(void *ctx, const uint8_t *id, size_t n, const uint8_t *wrapped,
                         size_t wrapped_len, uint8_t key[CODEC_ENVELOPE_KEY_SIZE],
                         codec_error *err)
{
    (void)ctx, (void)id, (void)n, (void)wrapped, (void)wrapped_len, (void)key, (void)err;
    return CODEC_E_INVALID_PAYLOAD;
}

static void test_envelope(void)
{
    uint8_t m[95];
    size_t n = make_envelope(m);
    CHECK_INT(inspect(m, n), CODEC_OK);
    CHECK_STR(rep.format, "envelope");
    CHECK_FIELD("version", "1");
    CHECK_FIELD("algorithm", "1 (aes-256-gcm)");
    CHECK_FIELD("key id", "kek");
    CHECK_FIELD("wrapped key length", "41");
    CHECK_FIELD("wrap scheme", "1 (aes-kw)");
    CHECK_FIELD("ciphertext length", "31");
    CHECK_FIELD("plaintext length", "15");
    hostile(m, n, 80, "envelope");  /* 80 = header + nonce + an empty ciphertext's tag */

    m[2] = 2;
    CHECK_INT(inspect(m, n), CODEC_E_UNSUPPORTED);
    m[2] = 1;
    m[3] = 2;
    CHECK_INT(inspect(m, n), CODEC_E_UNSUPPORTED);
    CHECK_FIELD("algorithm", "2 (reserved, key-committing)");
    m[3] = 1;
    m[4] = 0xFF;  /* key id length 65283 */
    CHECK_INT(inspect(m, n), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(rep.err.detail, CODEC_D_CORRUPT);
    m[4] = 0;
    m[10] = 0x3A;  /* wrapped key length 58 leaves no room for the tag */
    CHECK_INT(inspect(m, n), CODEC_E_INVALID_PAYLOAD);
    m[10] = 0;
    m[9] = 0;
    CHECK_INT(inspect(m, n), CODEC_E_INVALID_PAYLOAD);  /* w = 0 */
    CHECK_INT(inspect(m, 37), CODEC_E_INVALID_PAYLOAD);  /* under the 38-byte minimum */

    /* The decoder agrees, in a build that has one (the header reader is in
     * every build). */
    codec_envelope_options o = {0};
    o.provider = (codec_key_provider){refuse_generate, allow_all, refuse_unwrap, NULL, NULL};
    codec_error err;
    codec *c = codec_envelope(&o, &err);
#if CODEC_HAVE_OPENSSL
    CHECK(c != NULL);
    make_envelope(m);
    agree_all(c, m, n, 64);
#else
    CHECK(c == NULL && err.family == CODEC_E_UNSUPPORTED);
    CHECK_STR(err.message, "built without openssl");
#endif
    codec_free(c);
}

static void test_versioned(void)
{
    uint8_t v[64] = {0xC0, 0xDC, 7, '{', '"', 'a', '"', ':', '1', '}'};
    CHECK_INT(inspect(v, 10), CODEC_OK);
    CHECK_STR(rep.format, "versioned");
    CHECK_FIELD("version", "7");
    CHECK_FIELD("payload size", "7");
    CHECK_FIELD("payload format", "json");
    CHECK_INT(inspect(v, 2), CODEC_E_INVALID_PAYLOAD);
    /* Version 0: the decoder's answer, CORRUPT at offset 2 (versioned.md);
     * inspect once said VERSION. */
    v[2] = 0;
    CHECK_INT(inspect(v, 10), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(rep.err.detail, CODEC_D_CORRUPT);
    CHECK_INT(rep.err.offset, 2);
    CHECK_FIELD("version", "0");

    codec_error err;
    codec *c = codec_parse("versioned:1,accept=1-255", NULL, &err);
    CHECK(c != NULL);
    agree_all(c, v, 10, 3);
    codec_free(c);
}

/* codec_inspect() itself: the stages that have the operation say so in
 * their info, the others and unknown names are usage errors. */
static void test_inspect_api(void)
{
    size_t with = 0;
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *info = codec_registry_info(i);
        codec_error err;
        int rc = codec_inspect(info->name, (const uint8_t *)"", 0, NULL, NULL, NULL, &err);
        if (info->flags & CODEC_STAGE_INSPECT) {
            with++;
            CHECK(rc != CODEC_E_USAGE);
        } else {
            CHECK_INT(rc, CODEC_E_USAGE);
        }
    }
    CHECK_INT(with, 2);   /* versioned, envelope */
    codec_error err;
    CHECK_INT(codec_inspect("no-such-stage", (const uint8_t *)"x", 1, NULL, NULL, NULL, &err),
              CODEC_E_USAGE);
    CHECK_INT(err.detail, CODEC_D_UNKNOWN_STAGE);
    size_t header = 0;
    CHECK_INT(codec_inspect("versioned", (const uint8_t *)"\xC0\xDC\x01x", 4, NULL, NULL,
                            &header, &err),
              CODEC_OK);
    CHECK_INT(header, 3);
}

static void expect_format(const char *s, const char *format)
{
    inspect((const uint8_t *)s, strlen(s));
    if (strcmp(rep.format, format) != 0)
        fprintf(stderr, "  '%s' is %s, want %s\n", s, rep.format, format);
    CHECK_STR(rep.format, format);
}

static void test_text(void)
{
    expect_format("", "empty");
    expect_format(" \n\t[1,2]", "json");
    CHECK_FIELD("top", "array");
    expect_format("{}", "json");
    expect_format("DEADbeef\n", "hex");
    CHECK_FIELD("case", "mixed");
    CHECK_FIELD("decoded size", "4");
    expect_format("0123\n4567\n89\n", "hex");
    CHECK_FIELD("lines", "3");
    expect_format("1\n22\n333\n", "unknown");   /* ragged lines are not an encoding */
    expect_format("abc", "base64");
    CHECK_FIELD("decoded size", "2");
    expect_format("aGVsbG8=", "base64");
    CHECK_FIELD("padding", "yes");
    CHECK_FIELD("decoded size", "5");
    expect_format("aGVsbG8_-w", "base64");
    CHECK_FIELD("alphabet", "url");
    expect_format("ab+_", "unknown");           /* two alphabets mixed */
    expect_format("ab=c", "unknown");           /* padding inside */
    expect_format("hello", "unknown");          /* 5 symbols cannot be base64 */
    expect_format("hello world", "unknown");
    expect_format("JCB text", "unknown");       /* "JC" then text is not an envelope */
    expect_format("x^2 + 1", "zlib");           /* 78 5E passes FCHECK: a known false positive */
    CHECK(rep.status != CODEC_OK);
    expect_format("\x01\x02 hi there", "unknown");
    CHECK_FIELD("head", "01 02 20 68 69 20 74 68");
    /* one byte 1f is MessagePack's integer 31 (and no CBOR: additional
     * information 31 is reserved for major type 0) */
    expect_format("\x1f", "msgpack");
    CHECK_FIELD("top", "int");
    expect_format("\x01", "cbor");  /* the integer 1 in both */
    CHECK_FIELD("also decodes as", "msgpack");
    expect_format("\xa1\x61\x61\x01", "cbor"); /* {"a": 1} */
    CHECK_FIELD("top", "map");
    CHECK_FIELD("items", "1");
    expect_format("\x81\xa1\x61\x01", "msgpack"); /* {"a": 1} */
    CHECK_FIELD("items", "1");
    expect_format("\xa1\x61\x61", "unknown"); /* a CBOR map cut short */
    expect_format("\xa1\x01\x01", "unknown"); /* an integer key: not a value decode takes */
    /* hex and base64 of those: the decoded bytes are inspected too */
    expect_format("a1616101\n", "hex");
    CHECK_FIELD("inner format", "cbor");
    CHECK_FIELD("inner items", "1");
    expect_format("gaFhAQ==", "base64");
    CHECK_FIELD("inner format", "msgpack");
    expect_format("QR==", "unknown"); /* base64 with pad bits set: the decoder refuses it */
}

int main(void)
{
    make_text();
    test_gzip();
    test_zlib();
    test_zstd_frames();
    test_zstd_headers();
    test_lz4();
    test_envelope();
    test_versioned();
    test_inspect_api();
    test_text();
    return check_done("test_inspect");
}
