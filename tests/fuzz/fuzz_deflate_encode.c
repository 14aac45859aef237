/* fuzz_deflate_encode.c — our deflate compressor (deflate_encoder.c): the
 * first byte picks the level (6..9) and a cap; the rest is compressed into
 * a buffer of exactly codec__deflate_bound() bytes and must inflate back
 * through zlib to the same bytes; compressed again into a shorter buffer it
 * must either give the same stream or refuse (0) without writing past the
 * cap. Any broken property aborts. */
#include "fuzz_target.h"
#include "transforms/compress/compress_internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void check_inflates(const uint8_t *z, size_t zn, const uint8_t *want, size_t n)
{
    uint8_t *back = malloc(n + 1);
    z_stream s = {0};
    if (!back || inflateInit2(&s, -15) != Z_OK)
        abort();
    s.next_in = (Bytef *)z;
    s.avail_in = (uInt)zn;
    s.next_out = back;
    s.avail_out = (uInt)n + 1;
    if (inflate(&s, Z_FINISH) != Z_STREAM_END || s.avail_in != 0 || s.total_out != n ||
        (n && memcmp(back, want, n) != 0))
        abort();
    inflateEnd(&s);
    free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec_deflater *d;
    if (size == 0)
        return 0;
    if (!d && !(d = codec__deflater_new()))
        abort();
    int level = 6 + (data[0] & 3);
    const uint8_t *src = data + 1;
    size_t n = size - 1, cap = codec__deflate_bound(n);
    uint8_t *dst = malloc(cap);
    size_t w = codec__deflate_compress(d, level, src, n, dst, cap);
    if (!w || w > cap)
        abort();
    check_inflates(dst, w, src, n);
    /* A shorter cap (from the first byte): same stream or 0; the guard
     * bytes after it stay as they were. */
    size_t short_cap = w * (data[0] >> 2) / 64;
    uint8_t *again = malloc(short_cap + 16);
    memset(again, 0x5A, short_cap + 16);
    size_t w2 = codec__deflate_compress(d, level, src, n, again, short_cap);
    if (w2 && (w2 != w || memcmp(again, dst, w) != 0))
        abort();
    for (size_t i = short_cap; i < short_cap + 16; i++)
        if (again[i] != 0x5A)
            abort();
    free(again);
    free(dst);
    return 0;
}
