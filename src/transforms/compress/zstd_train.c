/* zstd_train.c — codec_zstd_train_dict(): samples laid end to end, then
 * ZDICT_trainFromBuffer (libzstd, opened on first use once the arguments
 * are known to be good: libzstd_internal.h). */
#include "codec/zstd_dict.h"
#include "libzstd_internal.h"

#include <string.h>

#define DICT_USAGE(err, ...) \
    codec_error_set((err), CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "dict", CODEC_NO_OFFSET, \
                    __VA_ARGS__)

static int check_samples(const codec_bytes *samples, size_t count, size_t dict_size,
                         size_t *total, codec_error *err)
{
    if (count < CODEC_ZSTD_DICT_MIN_SAMPLES)
        return DICT_USAGE(err, "%zu samples are too few to train a dictionary: give at least "
                          "%d, ideally hundreds of typical values", count,
                          CODEC_ZSTD_DICT_MIN_SAMPLES);
    if (count > UINT32_MAX)
        return DICT_USAGE(err, "%zu samples are too many (4294967295 at most)", count);
    if (dict_size < CODEC_ZSTD_DICT_MIN_SIZE || dict_size > CODEC_ZSTD_DICT_MAX_SIZE)
        return DICT_USAGE(err, "dictionary size %zu is out of range (256 bytes to 16 MiB)",
                          dict_size);
    *total = 0;
    for (size_t i = 0; i < count; i++) {
        if (samples[i].len > UINT32_MAX || *total + samples[i].len < *total)
            return DICT_USAGE(err, "sample %zu is too large (4 GiB at most)", i);
        *total += samples[i].len;
    }
    if (*total < CODEC_ZSTD_DICT_MIN_TOTAL)
        return DICT_USAGE(err, "%zu bytes of samples are too little to train a dictionary: "
                          "give at least %d, ideally 100 times the dictionary size", *total,
                          CODEC_ZSTD_DICT_MIN_TOTAL);
    return CODEC_OK;
}

int codec_zstd_train_dict(const codec_bytes *samples, size_t count, size_t dict_size,
                          codec_buf *out, codec_error *err)
{
    if ((!samples && count) || !out)
        return codec_error_set(err, CODEC_E_USAGE, 0, "dict", CODEC_NO_OFFSET,
                               "codec_zstd_train_dict needs samples and an output buffer");
    if (dict_size == 0)
        dict_size = CODEC_ZSTD_DICT_DEFAULT_SIZE;
    size_t total = 0;
    int rc = check_samples(samples, count, dict_size, &total, err);
    if (!rc)
        rc = codec__dynlib_open(&codec__libzstd, "dict", err);
    if (rc)
        return rc;
    const codec_allocator *a = out->alloc;
    size_t *sizes = a->alloc(a->ctx, count * sizeof *sizes);
    uint8_t *joined = a->alloc(a->ctx, total ? total : 1);
    rc = codec_buf_reserve(out, dict_size);
    if (!sizes || !joined || rc) {
        if (sizes)
            a->release(a->ctx, sizes, count * sizeof *sizes);
        if (joined)
            a->release(a->ctx, joined, total ? total : 1);
        return codec_error_set(err, CODEC_E_NOMEM, 0, "dict", CODEC_NO_OFFSET,
                               "out of memory for %zu bytes of samples", total);
    }
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        if (samples[i].len)
            memcpy(joined + at, samples[i].data, samples[i].len);
        at += samples[i].len;
        sizes[i] = samples[i].len;
    }
    size_t made = ZDICT_trainFromBuffer(out->data + out->len, dict_size, joined, sizes,
                                        (unsigned)count);
    a->release(a->ctx, sizes, count * sizeof *sizes);
    a->release(a->ctx, joined, total ? total : 1);
    if (ZDICT_isError(made))
        return DICT_USAGE(err, "zstd could not train on these %zu samples (%s): give more or "
                          "larger samples, or a smaller dictionary size", count,
                          ZDICT_getErrorName(made));
    out->len += made;
    return CODEC_OK;
}
