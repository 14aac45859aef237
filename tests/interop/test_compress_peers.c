/* test_compress_peers.c — the compression stages against real peers, both
 * ways: our output read by `gzip -dc`, `zstd -dc`, `lz4 -dc`, `brotli -dc`
 * and Debian Python's zlib/gzip modules; their output (several levels,
 * piped streams without sizes, concatenated members and frames, a trained
 * zstd dictionary) read by us. Files live in a mkdtemp directory. */
#include "check.h"
#include "codec/codec.h"
#include "compress_payload.h"

#include <lz4.h>
#include <lz4hc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>
#include <zdict.h>

#define PYTHON "/usr/bin/python3"

static char dir[64];

static const char *path(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void write_file(const char *name, const void *data, size_t n)
{
    FILE *f = fopen(path(name), "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(data, 1, n, f) == n);
        fclose(f);
    }
}

/* Runs a shell command (formatted) in the temp directory; true on exit 0. */
static bool run(const char *fmt, ...)
{
    char cmd[1024];
    int w = snprintf(cmd, sizeof cmd, "cd '%s' && ", dir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd + w, sizeof cmd - (size_t)w, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return rc == 0;
}

static void check_file_is(const char *name, const uint8_t *data, size_t n, const char *what)
{
    size_t len = 0;
    uint8_t *got = check_read_file(path(name), &len);
    if (!got || len != n || memcmp(got, data, n) != 0) {
        fprintf(stderr, "%s: peer output differs (%zu bytes, expected %zu)\n", what,
                got ? len : 0, n);
        CHECK(0);
    } else {
        CHECK(1);
    }
    free(got);
}

/* Encodes data with `spec` into file `name`. */
static void ours_to_file(const char *spec, const uint8_t *data, size_t n, const char *name)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes in = {data, n};
    CHECK_INT(codec_encode(c, &in, &out, &err), 0);
    write_file(name, out.data, out.len);
    codec_buf_free(&out);
    codec_free(c);
}

/* Decodes file `name` with `spec` and compares with data. */
static void file_to_ours(const char *spec, const char *name, const uint8_t *data, size_t n,
                         const char *what)
{
    size_t len = 0;
    uint8_t *enc = check_read_file(path(name), &len);
    CHECK(enc != NULL);
    codec_error err = {0};
    codec *c = codec_parse(spec, NULL, &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back = {0};
    int rc = enc && c ? codec_decode(c, enc, len, &back, &arena, &err) : -1;
    if (rc != 0 || back.len != n || memcmp(back.data, data, n) != 0) {
        fprintf(stderr, "%s: we read the peer's %zu bytes wrong (rc %d: %s)\n", what, len, rc,
                rc ? err.message : "data differs");
        CHECK(0);
    } else {
        CHECK(1);
    }
    codec_arena_free(&arena);
    codec_free(c);
    free(enc);
}

/* Our `spec` output through a peer command that reads `in` and writes `out`. */
static void ours_through_peer(const char *spec, const char *peer_cmd, const uint8_t *data,
                              size_t n)
{
    ours_to_file(spec, data, n, "ours.bin");
    char what[256];
    snprintf(what, sizeof what, "%s -> %s", spec, peer_cmd);
    if (run("%s ours.bin > peer.out", peer_cmd))
        check_file_is("peer.out", data, n, what);
    else
        CHECK(0);
}

/* A peer command turns data.in into peer.bin; we decode it with `spec`. */
static void peer_to_ours(const char *peer_cmd, const char *spec, const uint8_t *data, size_t n)
{
    write_file("data.in", data, n);
    char what[256];
    snprintf(what, sizeof what, "%s -> %s", peer_cmd, spec);
    if (run("%s > peer.bin", peer_cmd))
        file_to_ours(spec, "peer.bin", data, n, what);
    else
        CHECK(0);
}

static const char py_zlib_d[] =
    PYTHON " -c 'import sys,zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1],\"rb\").read()))'";
static const char py_gzip_d[] =
    PYTHON " -c 'import sys,gzip; sys.stdout.buffer.write(gzip.decompress(open(sys.argv[1],\"rb\").read()))'";

static void test_ours_read_by_peers(const uint8_t *data, size_t n)
{
    static const char *const gz[] = {"gzip:1", "gzip:5", "gzip", "gzip:7", "gzip:8", "gzip:9"};
    for (size_t i = 0; i < 6; i++) {
        ours_through_peer(gz[i], "gzip -dc", data, n);
        ours_through_peer(gz[i], py_gzip_d, data, n);
    }
    static const char *const zl[] = {"deflate:1", "deflate:4", "deflate", "deflate:7",
                                     "deflate:8", "deflate:9"};
    for (size_t i = 0; i < 6; i++)
        ours_through_peer(zl[i], py_zlib_d, data, n);
    static const char *const zs[] = {"zstd:-5", "zstd:1", "zstd", "zstd:19"};
    for (size_t i = 0; i < 4; i++)
        ours_through_peer(zs[i], "zstd -q -dc", data, n);
    ours_through_peer("lz4", "lz4 -q -dc", data, n);
    ours_through_peer("lz4hc:3", "lz4 -q -dc", data, n);
    ours_through_peer("lz4hc:12", "lz4 -q -dc", data, n);
    ours_through_peer("brotli:1", "brotli -dc", data, n);
    ours_through_peer("brotli:9", "brotli -dc", data, n);
}

static void test_peers_read_by_us(const uint8_t *data, size_t n)
{
    peer_to_ours("gzip -1 -c data.in", "gzip", data, n);
    peer_to_ours("gzip -9 -c < data.in", "gzip", data, n);
    peer_to_ours(PYTHON " -c 'import sys,gzip; sys.stdout.buffer.write(gzip.compress("
                 "open(\"data.in\",\"rb\").read(), 4))'", "gzip", data, n);
    for (int level = 1; level <= 9; level += 4) {
        char cmd[256];
        snprintf(cmd, sizeof cmd,
                 PYTHON " -c 'import sys,zlib; sys.stdout.buffer.write(zlib.compress("
                        "open(\"data.in\",\"rb\").read(), %d))'", level);
        peer_to_ours(cmd, "deflate", data, n);
    }
    peer_to_ours("zstd -q -1 -c data.in", "zstd", data, n);          /* with content size */
    peer_to_ours("zstd -q -19 -c < data.in", "zstd", data, n);       /* piped: no size */
    peer_to_ours("zstd -q --fast=3 --check -c data.in", "zstd", data, n);
    peer_to_ours("lz4 -q -c data.in", "lz4", data, n);
    peer_to_ours("lz4 -q -9 -BD -c data.in", "lz4", data, n);        /* linked blocks */
    peer_to_ours("lz4 -q --content-size -B4 -c data.in", "lz4", data, n);
    peer_to_ours("brotli -q 5 -c data.in", "brotli", data, n);
    peer_to_ours("brotli -q 11 -w 24 -c data.in", "brotli", data, n);
}

/* Members and frames back to back, as the tools make them with cat. */
static void test_concatenated(const uint8_t *data, size_t n)
{
    size_t half = n / 3;
    write_file("a.in", data, half);
    write_file("b.in", data + half, n - half);
    CHECK(run("gzip -c a.in > a.gz && gzip -9 -c b.in > b.gz && cat a.gz b.gz > ab.gz"));
    file_to_ours("gzip", "ab.gz", data, n, "gzip multi-member");
    CHECK(run("zstd -q -c a.in > a.zst && zstd -q -c < b.in > b.zst && cat a.zst b.zst > ab.zst"));
    file_to_ours("zstd", "ab.zst", data, n, "zstd two frames");
    CHECK(run("lz4 -q -c a.in > a.lz4 && lz4 -q -c b.in > b.lz4 && cat a.lz4 b.lz4 > ab.lz4"));
    file_to_ours("lz4", "ab.lz4", data, n, "lz4 two frames");
    /* and an empty member in the middle */
    CHECK(run(": | gzip -c > e.gz && cat a.gz e.gz b.gz > aeb.gz"));
    file_to_ours("gzip", "aeb.gz", data, n, "gzip with an empty member");
}

/* Decodes the first `cut` bytes of file `name` with `spec` (one-shot) and
 * checks the truth: the input ended early, at its end, in that stage. */
static void check_truncated(const char *spec, const char *stage, const uint8_t *enc, size_t cut,
                            const char *what)
{
    codec_error err = {0};
    codec *c = codec_parse(spec, NULL, &err);
    CHECK(c != NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back = {0};
    int rc = c ? codec_decode(c, enc, cut, &back, &arena, &err) : -1;
    bool ok = rc == CODEC_E_INVALID_PAYLOAD && err.detail == CODEC_D_TRUNCATED &&
              err.offset == cut && strcmp(err.stage, stage) == 0 &&
              strstr(err.message, "unexpected end of input") != NULL &&
              strstr(err.message, "limit") == NULL;
    if (!ok) {
        fprintf(stderr, "%s cut at %zu with %s: rc %d detail %d stage '%s' offset %llu '%s'\n",
                what, cut, spec, rc, err.detail, err.stage, (unsigned long long)err.offset,
                err.message);
        CHECK(0);
    } else {
        CHECK(1);
    }
    codec_arena_free(&arena);
    codec_free(c);
}

/* Output of `gzip` and of Python's zlib, cut short anywhere (in the header,
 * the deflate data, the CRC, the ISIZE; in the second member), decoded
 * one-shot: "unexpected end of input" at the input length, never a declared
 * size over the limit (the last 4 bytes of a cut file are deflate data, not
 * an ISIZE). */
static void test_truncated(const uint8_t *data, size_t n)
{
    write_file("t.in", data, n);
    CHECK(run("gzip -6 -c t.in > t.gz && cat t.gz t.gz > tt.gz"));
    CHECK(run(PYTHON " -c 'import sys,zlib; sys.stdout.buffer.write(zlib.compress("
              "open(\"t.in\",\"rb\").read(), 6))' > t.zlib"));
    static const struct {
        const char *file, *stage;
        const char *specs[2];
    } cases[] = {{"t.gz", "gzip", {"gzip", "gzip:max=16m"}},
                 {"tt.gz", "gzip", {"gzip", "gzip:max=16m"}},
                 {"t.zlib", "deflate", {"deflate", "deflate:max=16m"}}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = 0;
        uint8_t *enc = check_read_file(path(cases[i].file), &len);
        CHECK(enc != NULL && len > 64);
        if (!enc || len <= 64) {
            free(enc);
            continue;
        }
        size_t cuts[] = {1, 2, 5, 10, 11, 40, len / 3, len / 2 + 7, len - 9, len - 5,
                         len - 4, len - 2, len - 1};
        for (size_t k = 0; k < sizeof cuts / sizeof cuts[0]; k++)
            for (size_t j = 0; j < 2; j++)
                check_truncated(cases[i].specs[j], cases[i].stage, enc, cuts[k], cases[i].file);
        /* and every 997th byte */
        for (size_t cut = 3; cut < len; cut += 997)
            if (cut != len / 2 || i != 1) /* tt.gz's first member is whole there */
                check_truncated(cases[i].specs[0], cases[i].stage, enc, cut, cases[i].file);
        free(enc);
    }
}

/* A dictionary trained here, used by both sides. */
static void test_zstd_dictionary(void)
{
    size_t count = 300;
    size_t *sizes;
    uint8_t *samples = payload_json_samples(count, 3, &sizes);
    uint8_t dict[2048];
    size_t dlen = ZDICT_trainFromBuffer(dict, sizeof dict, samples, sizes, (unsigned)count);
    CHECK(!ZDICT_isError(dlen));
    write_file("json.dict", dict, dlen);
    char spec[320];
    snprintf(spec, sizeof spec, "zstd:3,dict=%s", path("json.dict"));
    ours_through_peer(spec, "zstd -q -D json.dict -dc", samples, sizes[0]);
    peer_to_ours("zstd -q -D json.dict -c data.in", spec, samples, sizes[0]);
    free(sizes);
    free(samples);
}

/* redisson-lz4 against liblz4's block API with the HC compressor (another
 * compressor than ours) and its safe decoder. */
static void test_redisson_lz4_blocks(const uint8_t *data, size_t n)
{
    int bound = LZ4_compressBound((int)n);
    uint8_t *framed = malloc(4 + (size_t)bound);
    int r = LZ4_compress_HC((const char *)data, (char *)framed + 4, (int)n, bound, 9);
    CHECK(r > 0);
    framed[0] = (uint8_t)(n >> 24), framed[1] = (uint8_t)(n >> 16);
    framed[2] = (uint8_t)(n >> 8), framed[3] = (uint8_t)n;
    write_file("hc.rlz4", framed, 4 + (size_t)r);
    file_to_ours("redisson-lz4", "hc.rlz4", data, n, "LZ4 HC block -> redisson-lz4");

    ours_to_file("redisson-lz4", data, n, "ours.rlz4");
    size_t len = 0;
    uint8_t *enc = check_read_file(path("ours.rlz4"), &len);
    uint8_t *back = malloc(n + 1);
    CHECK(len > 4 && ((size_t)enc[0] << 24 | enc[1] << 16 | enc[2] << 8 | enc[3]) == n);
    CHECK_INT(LZ4_decompress_safe((const char *)enc + 4, (char *)back, (int)(len - 4), (int)n),
              (int)n);
    CHECK_MEM(back, n, data, n);
    free(enc);
    free(back);
    free(framed);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/codec-compress-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    size_t n = 300000;
    uint8_t *prose = payload_prose(n);
    uint8_t *mixed = payload_mixed(150000, 42);
    test_ours_read_by_peers(prose, n);
    test_ours_read_by_peers(mixed, 150000);
    test_ours_read_by_peers(prose, 0);
    test_peers_read_by_us(prose, n);
    test_peers_read_by_us(mixed, 150000);
    test_concatenated(prose, n);
    test_truncated(prose, n);
    test_truncated(mixed, 150000);
    test_zstd_dictionary();
    test_redisson_lz4_blocks(prose, n);
    run("rm -rf '%s'", dir);
    free(prose);
    free(mixed);
    return check_done("test_compress_peers");
}
