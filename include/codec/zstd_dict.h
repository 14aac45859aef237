/* codec/zstd_dict.h — training a zstd dictionary from sample values.
 *
 * Small values (cache entries, messages of a few hundred bytes) compress
 * poorly on their own because each frame starts with an empty history. A
 * dictionary trained on typical values gives every frame that history:
 *
 *   codec dict train -o orders.dict sample-1.json sample-2.json ...
 *   spec: "json | zstd:3,dict=orders.dict"
 *
 * The dictionary is zstd's own format (what `zstd --train` writes): its id
 * goes into every frame, and any zstd implementation holding the same
 * dictionary file (zstd -D, zstd-jni, Redisson's ZstdCodec with a
 * dictionary) reads the frames.
 */
#ifndef CODEC_ZSTD_DICT_H
#define CODEC_ZSTD_DICT_H

#include "compose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** zstd's default dictionary size (110 KiB), what `zstd --train` makes. */
#define CODEC_ZSTD_DICT_DEFAULT_SIZE ((size_t)112640)
/** Smallest and largest dictionary size codec_zstd_train_dict() accepts. */
#define CODEC_ZSTD_DICT_MIN_SIZE ((size_t)256)
#define CODEC_ZSTD_DICT_MAX_SIZE ((size_t)16 << 20)
/** Fewest samples accepted. zstd itself wants many more: about 100 times
 * the dictionary size in total sample bytes trains well. */
#define CODEC_ZSTD_DICT_MIN_SAMPLES 8
/** Fewest sample bytes in total accepted. Less teaches zstd nothing, and
 * libzstd 1.5.4 crashes in its trainer on under 12 bytes. */
#define CODEC_ZSTD_DICT_MIN_TOTAL 1024

/** codec_zstd_train_dict() — trains a dictionary (ZDICT_trainFromBuffer of
 * libzstd, default parameters) and appends it to `out`.
 * @param samples    `count` sample values; read only, not kept. Each must
 *                   be under 4 GiB; empty ones are ignored by zstd.
 * @param dict_size  the largest dictionary wanted; 0 = 110 KiB. The result
 *                   may be smaller.
 * @param out        caller owned; on failure its length is restored.
 * @return 0; CODEC_E_USAGE (stage "dict") with what to do when there are
 *         fewer than CODEC_ZSTD_DICT_MIN_SAMPLES samples or
 *         CODEC_ZSTD_DICT_MIN_TOTAL bytes of them, dict_size is out of
 *         range, or zstd cannot train on them (zstd's reason is quoted);
 *         CODEC_E_NOMEM.
 * Allocates: a copy of all samples end to end, plus zstd's working memory.
 * Threads: safe (no shared state). Time: seconds for megabytes of samples. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_zstd_train_dict(const codec_bytes *samples, size_t count,
                                                    size_t dict_size, codec_buf *out,
                                                    codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_ZSTD_DICT_H */
