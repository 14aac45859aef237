/* fuzz_inflate_zlib.c — codec's streaming inflate (inflate.c) against
 * zlib's inflate, its peer, on the same bytes.
 *
 * Byte 0: bits 0..1 the wrapper (raw deflate, zlib, gzip), bit 2 whether
 * the rest is first compressed by zlib (at the level and strategy of byte
 * 1) and then damaged at byte 2 % 4 places, so that most inputs reach the
 * block decoder; byte 3 seeds the splits. Our inflate gets the input in
 * random pieces (each its own allocation, so reading past a piece is an
 * ASan error) and writes into random-sized rooms (likewise), so every
 * match back into earlier output goes through the window.
 * Both must accept or both reject; when both accept, the same bytes. */
#include "fuzz_target.h"
#include "transforms/compress/inflate_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define OUT_CAP ((size_t)1 << 20)

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int window_bits(int wrap)
{
    return wrap == CODEC_INFLATE_RAW ? -15 : wrap == CODEC_INFLATE_ZLIB ? 15 : 31;
}

/* zlib's verdict: 1 accepted (out filled), 0 rejected, -1 over the cap.
 * gzip members back to back as flate_stream.c reads them; bytes after a
 * raw or zlib stream are a rejection. */
static int zlib_inflate(int wrap, const uint8_t *in, size_t n, uint8_t *out, size_t *len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, window_bits(wrap)) != Z_OK)
        abort();
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)OUT_CAP;
    int verdict = 0;
    bool any = false;
    for (;;) {
        int zrc = inflate(&z, Z_NO_FLUSH);
        if (zrc == Z_STREAM_END) {
            any = true;
            if (!z.avail_in) {
                verdict = 1;
                break;
            }
            if (wrap != CODEC_INFLATE_GZIP)
                break;
            inflateReset(&z);
            continue;
        }
        if (zrc == Z_OK)
            continue;
        if (zrc == Z_BUF_ERROR && !z.avail_out)
            verdict = -1;
        break;
    }
    (void)any;
    *len = OUT_CAP - z.avail_out;
    inflateEnd(&z);
    return verdict;
}

/* Ours, in random pieces: same verdicts. */
static int our_inflate(int wrap, const uint8_t *in, size_t n, uint64_t seed, uint8_t *out,
                       size_t *len)
{
    codec_inflater *z = codec__inflater_new((codec_inflate_wrap)wrap);
    if (!z)
        abort();
    size_t pos = 0, got = 0;
    int verdict;
    for (;;) {
        uint64_t r = next(&seed);
        size_t k = r & 1 ? 1 + (r >> 8) % 16 : 1 + (r >> 8) % 4096;
        if (k > n - pos)
            k = n - pos;
        size_t room = r & 2 ? 1 + (r >> 24) % 300 : 1 + (r >> 24) % 70000;
        uint8_t *piece = malloc(k ? k : 1), *dst = malloc(room);
        if (!piece || !dst)
            abort();
        memcpy(piece, in + pos, k);
        const uint8_t *ip = piece;
        uint8_t *op = dst;
        int rc = codec__inflate(z, &ip, piece + k, &op, dst + room);
        size_t used = (size_t)(ip - piece), wrote = (size_t)(op - dst);
        if (got + wrote <= OUT_CAP)
            memcpy(out + got, dst, wrote);
        free(piece);
        free(dst);
        pos += used;
        got += wrote;
        if (got > OUT_CAP) {
            verdict = -1;
            break;
        }
        if (rc) {
            verdict = 0;
            break;
        }
        if (used < k) /* only with the output full */
            if (wrote != room)
                abort();
        if (pos == n && wrote < room) {
            verdict = codec__inflate_finished(z) ? 1 : 0;
            break;
        }
    }
    *len = got;
    codec__inflater_free(z);
    return verdict;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    int wrap = data[0] & 3;
    if (wrap > CODEC_INFLATE_GZIP)
        wrap = CODEC_INFLATE_ZLIB;
    uint64_t seed = 0x9E3779B97F4A7C15u ^ (uint64_t)data[3] << 8 ^ data[2];
    const uint8_t *in = data + 4;
    size_t n = size - 4;
    uint8_t *made = NULL;
    if (data[0] & 4) {
        z_stream c;
        memset(&c, 0, sizeof c);
        int level = data[1] % 10, strategy = (data[1] >> 4) % 5;
        if (deflateInit2(&c, level, Z_DEFLATED, window_bits(wrap), 8, strategy) != Z_OK)
            abort();
        size_t cap = deflateBound(&c, n) + 16;
        made = malloc(cap);
        c.next_in = (Bytef *)in;
        c.avail_in = (uInt)n;
        c.next_out = made;
        c.avail_out = (uInt)cap;
        if (!made || deflate(&c, Z_FINISH) != Z_STREAM_END)
            abort();
        n = cap - c.avail_out;
        deflateEnd(&c);
        for (int i = data[2] % 4; i > 0 && n; i--) {
            uint64_t r = next(&seed);
            made[r % n] ^= (uint8_t)(1u << (r >> 32) % 8);
        }
        in = made;
    }
    static uint8_t *a, *b; /* once: fresh 1 MiB buffers per input slow the fuzzer down */
    if (!a && (!(a = malloc(OUT_CAP)) || !(b = malloc(OUT_CAP))))
        abort();
    size_t alen, blen;
    int va = zlib_inflate(wrap, in, n, a, &alen);
    int vb = our_inflate(wrap, in, n, seed, b, &blen);
    if (va >= 0 && vb >= 0) {
        if (va != vb)
            abort();
        if (va == 1 && (alen != blen || memcmp(a, b, alen)))
            abort();
    }
    free(made);
    return 0;
}
