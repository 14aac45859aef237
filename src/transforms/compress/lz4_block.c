/* lz4_block.c — `redisson-lz4`: Redisson's LZ4CodecV2 layout, an int32
 * big-endian uncompressed length followed by one raw LZ4 block (the block
 * format, no frame), as lz4-java's fast compressor writes it. liblz4 is
 * opened on first use, by encode and decode (liblz4_internal.h). */
#include "compress_internal.h"
#include "liblz4_internal.h"

#include "codec/compress.h"

#include <stdlib.h>

#define LZ4_MAX_RATIO 256

static void *make_state(const void *cfg)
{
    (void)cfg;
    return malloc((size_t)LZ4_sizeofState());
}

static int lz4_block_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                            codec_error *err)
{
    int rc = codec__dynlib_open(&codec__liblz4, s->name, err);
    if (rc)
        return rc;
    if (n > LZ4_MAX_INPUT_SIZE)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                          "an LZ4 block holds at most %d bytes, got %zu", LZ4_MAX_INPUT_SIZE, n);
    int bound = LZ4_compressBound((int)n);
    if (codec_buf_reserve(out, 4 + (size_t)bound))
        return codec__compress_nomem(s, err);
    codec_pool *pool = s->state;
    void *state = codec__pool_get(pool);
    if (!state)
        return codec__compress_nomem(s, err);
    uint8_t *dst = out->data + out->len;
    int r = LZ4_compress_fast_extState(state, (const char *)src, (char *)dst + 4, (int)n, bound,
                                       1);
    codec__pool_put(pool, state);
    if (r <= 0)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET,
                          "LZ4 failed to compress %zu bytes", n);
    codec_store_be32(dst, (uint32_t)n);
    out->len += 4 + (size_t)r;
    return CODEC_OK;
}

static int lz4_block_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                            codec_error *err)
{
    uint32_t len;
    int rc = codec__dynlib_open(&codec__liblz4, s->name, err);
    if (!rc)
        rc = codec__redisson_length(s, src, n, &len, err);
    if (!rc)
        rc = codec__check_declared(s, len, n - 4, LZ4_MAX_RATIO, 0, err);
    if (rc)
        return rc;
    if (n - 4 > INT32_MAX)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, 4,
                          "an LZ4 block is at most 2 GiB");
    if (codec_buf_reserve(out, len ? len : 1))
        return codec__compress_nomem(s, err);
    int r = LZ4_decompress_safe((const char *)src + 4, (char *)out->data + out->len,
                                (int)(n - 4), (int)len);
    if (r < 0) /* -(position of the error in the block) - 1 */
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT,
                          4 + (uint64_t)(-(long long)r - 1), "corrupt LZ4 block");
    if ((uint32_t)r != len)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0,
                          "length prefix says %u bytes, the block holds %d", len, r);
    out->len += len;
    return CODEC_OK;
}

static void lz4_block_destroy(codec_stage *s)
{
    codec__pool_clear(s->state);
    free(s->state);
}

static const codec_stage_ops lz4_block_ops = {
    .encode = lz4_block_encode, .decode = lz4_block_decode, .destroy = lz4_block_destroy};

int codec__stage_ctor_redisson_lz4(codec_stage *s, codec_args *a, const codec_type *t,
                                   codec_error *err)
{
    (void)t;
    int rc = codec__args_max_output(a, &s->max_output, err);
    if (rc)
        return rc;
    codec_pool *pool = malloc(sizeof *pool);
    if (!pool)
        return codec__compress_nomem(s, err);
    codec__pool_init(pool, make_state, free, NULL);
    s->state = pool;
    s->ops = &lz4_block_ops;
    return CODEC_OK;
}

codec *codec_redisson_lz4(codec_error *err)
{
    return codec__make_leveled("redisson-lz4", CODEC_LEVEL_DEFAULT, NULL, err);
}
