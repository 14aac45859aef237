/* common.c — the output helpers shared by the compression stages (see
 * compress_internal.h). */
#include "compress_internal.h"

#include "codec/compress.h"
#include "core/buf_internal.h"
#include "core/error_internal.h"

#include <stdio.h>

int codec__compress_nomem(const codec_stage *s, codec_error *err)
{
    return codec__nomem(err, s->name);
}

int codec__out_over(const codec_stage *s, codec_error *err)
{
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, CODEC_NO_OFFSET,
                      "decoded size exceeds the limit of %zu bytes (raise max=)", s->max_output);
}

/* The failure half of codec__check_declared (compress_internal.h). */
int codec__declared_fail(const codec_stage *s, uint64_t declared, size_t n, uint64_t ratio,
                         uint64_t offset, codec_error *err)
{
    if (declared > SIZE_MAX || (s->max_output && declared > s->max_output))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, offset,
                          "declared size %llu exceeds the limit of %zu bytes (raise max=)",
                          (unsigned long long)declared, s->max_output);
    if (declared / ratio > n)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, offset,
                          "declared size %llu is impossible for %zu compressed bytes",
                          (unsigned long long)declared, n);
    return CODEC_OK;
}

codec *codec__make_leveled(const char *name, int level, const char *extra, codec_error *err)
{
    char args[320];
    int w;
    if (level == CODEC_LEVEL_DEFAULT)
        w = snprintf(args, sizeof args, "%s", extra ? extra : "");
    else
        w = snprintf(args, sizeof args, "%d%s%s", level, extra ? "," : "", extra ? extra : "");
    if (w < 0 || (size_t)w >= sizeof args) {
        codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, name, CODEC_NO_OFFSET,
                        "arguments too long");
        return NULL;
    }
    return codec__make(name, args, NULL, err);
}

int codec__redisson_length(const codec_stage *s, const uint8_t *src, size_t n, uint32_t *len,
                           codec_error *err)
{
    if (n < 4)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "missing the 4-byte length prefix");
    *len = codec_load_be32(src);
    if (*len > INT32_MAX)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0,
                          "negative length prefix");
    return CODEC_OK;
}
