/* text_fuzz.h — the body shared by fuzz_base64.c, fuzz_base32.c and
 * fuzz_hex.c. The first input byte picks a variant, the rest is fed to:
 *   - the decoder of every kernel this CPU runs, which must all agree with
 *     the scalar kernel on bytes, or on error family, detail, offset and
 *     message;
 *   - the encoder of every kernel, which must all write the same text, and
 *     decode(encode(x)) must give x back;
 *   - for canonical variants, a successful decode re-encodes to the input
 *     (strict decoding accepts exactly one spelling of each value).
 * Any disagreement aborts, which libFuzzer reports. */
#ifndef CODEC_TEXT_FUZZ_H
#define CODEC_TEXT_FUZZ_H

#include "codec/codec.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_FUZZ_KERNELS 3
#define TEXT_FUZZ_MAX_VARIANTS 8

typedef struct text_fuzz_variant {
    const char *spec;   /* "base64:url" */
    bool canonical;     /* decode accepts only what encode writes */
} text_fuzz_variant;

static void text_fuzz_fail(const char *spec, const char *what)
{
    fprintf(stderr, "%s: %s\n", spec, what);
    abort();
}

/* memcmp that allows NULL pointers with a zero length. */
static bool text_fuzz_same(const void *a, size_t alen, const void *b, size_t blen)
{
    return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

/* codecs[v][k]: kernel k (scalar, avx2, avx512) of variant v, NULL when this
 * CPU or stage lacks it. Built once; the handles are immutable. */
static codec *text_fuzz_codecs[TEXT_FUZZ_MAX_VARIANTS][TEXT_FUZZ_KERNELS];

static void text_fuzz_init(const text_fuzz_variant *v, size_t count)
{
    static const char *const kernels[TEXT_FUZZ_KERNELS] = {"scalar", "avx2", "avx512"};
    if (text_fuzz_codecs[0][0])
        return;
    for (size_t i = 0; i < count; i++)
        for (size_t k = 0; k < TEXT_FUZZ_KERNELS; k++) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s%skernel=%s", v[i].spec,
                     strchr(v[i].spec, ':') ? "," : ":", kernels[k]);
            codec_error err;
            text_fuzz_codecs[i][k] = codec_parse(spec, NULL, &err);
        }
    if (!text_fuzz_codecs[0][0])
        text_fuzz_fail(v[0].spec, "no scalar kernel");
}

static int text_fuzz_run(const text_fuzz_variant *variants, size_t count, const uint8_t *data,
                         size_t size)
{
    text_fuzz_init(variants, count);
    if (size == 0)
        return 0;
    size_t vi = data[0] % count;
    const char *spec = variants[vi].spec;
    codec *const *c = text_fuzz_codecs[vi];
    data++, size--;

    codec_arena ref_arena, arena;
    codec_arena_init(&ref_arena, NULL, 0);
    codec_arena_init(&arena, NULL, 0);
    codec_error ref_err = {0}, err = {0};
    codec_bytes ref_out = {0}, out = {0};
    int ref_rc = codec_decode(c[0], data, size, &ref_out, &ref_arena, &ref_err);
    for (size_t k = 1; k < TEXT_FUZZ_KERNELS; k++) {
        if (!c[k])
            continue;
        codec_arena_reset(&arena);
        memset(&err, 0, sizeof err);
        int rc = codec_decode(c[k], data, size, &out, &arena, &err);
        if (rc != ref_rc)
            text_fuzz_fail(spec, "kernels disagree on success");
        if (rc && (err.family != ref_err.family || err.detail != ref_err.detail ||
                   err.offset != ref_err.offset || strcmp(err.message, ref_err.message)))
            text_fuzz_fail(spec, "kernels disagree on the error");
        if (!rc && !text_fuzz_same(out.data, out.len, ref_out.data, ref_out.len))
            text_fuzz_fail(spec, "kernels decode different bytes");
    }
    if (ref_rc && (ref_err.family != CODEC_E_INVALID_PAYLOAD || ref_err.offset > size))
        text_fuzz_fail(spec, "decode error without a family or with a bad offset");

    codec_buf text, ref_text;
    codec_buf_init(&text, NULL);
    codec_buf_init(&ref_text, NULL);
    codec_bytes in = {data, size};
    if (codec_encode(c[0], &in, &ref_text, &err))
        text_fuzz_fail(spec, "encode failed");
    if (!ref_rc && variants[vi].canonical &&
        (codec_encode(c[0], &ref_out, &text, &err) ||
         !text_fuzz_same(text.data, text.len, data, size)))
        text_fuzz_fail(spec, "decoded a non-canonical spelling");
    for (size_t k = 1; k < TEXT_FUZZ_KERNELS; k++) {
        if (!c[k])
            continue;
        codec_buf_clear(&text);
        if (codec_encode(c[k], &in, &text, &err) ||
            !text_fuzz_same(text.data, text.len, ref_text.data, ref_text.len))
            text_fuzz_fail(spec, "kernels encode differently");
    }
    for (size_t k = 0; k < TEXT_FUZZ_KERNELS; k++) {
        if (!c[k])
            continue;
        codec_arena_reset(&arena);
        if (codec_decode(c[k], ref_text.data ? ref_text.data : data, ref_text.len, &out,
                         &arena, &err) ||
            !text_fuzz_same(out.data, out.len, data, size))
            text_fuzz_fail(spec, "decode(encode(x)) != x");
    }
    codec_buf_free(&text);
    codec_buf_free(&ref_text);
    codec_arena_free(&arena);
    codec_arena_free(&ref_arena);
    return 0;
}

#endif
