/* common.c — what base64, base32 and hex share: kernel selection, the
 * decode table of the vpermi2b kernels, and the rules of a decode tail. */
#include "text_internal.h"
#include "core/cpu_internal.h"

/* The CPU features each tier needs. */
static unsigned isa_requirements(text_isa isa)
{
    switch (isa) {
    case TEXT_ISA_AVX2:
        return CODEC_CPU_FOR_AVX2;
    case TEXT_ISA_AVX512:
        return CODEC_CPU_FOR_AVX512VBMI;
    default:
        return 0;
    }
}

int codec__text_args_kernel(codec_args *a, unsigned built, text_isa *out, codec_error *err)
{
    static const char *const names[] = {"auto", "scalar", "avx2", "avx512", NULL};
    size_t which;
    int rc = codec__args_choice(a, "kernel", false, names, 0, &which, err);
    if (rc)
        return rc;
    unsigned cpu = codec_cpu_features();
    built |= TEXT_ISA_BIT(TEXT_ISA_SCALAR);
    if (which == 0) {
        text_isa best = TEXT_ISA_SCALAR;
        for (text_isa isa = TEXT_ISA_AVX2; isa <= TEXT_ISA_AVX512; isa++)
            if ((built & TEXT_ISA_BIT(isa)) &&
                (cpu & isa_requirements(isa)) == isa_requirements(isa))
                best = isa;
        *out = best;
        return CODEC_OK;
    }
    text_isa isa = (text_isa)(which - 1);
    if (!(built & TEXT_ISA_BIT(isa)))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "%s has no %s kernel", a->stage, names[which]);
    if ((cpu & isa_requirements(isa)) != isa_requirements(isa))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "kernel=%s needs CPU features this machine lacks",
                               names[which]);
    *out = isa;
    return CODEC_OK;
}

void codec__text_build_decode128(uint8_t table[128], const uint8_t dec[256])
{
    for (size_t c = 0; c < 128; c++)
        table[c] = dec[c] == 0xFF ? 0x80 : dec[c];
}

int codec__text_bad_symbol(const codec_stage *s, uint64_t off, uint8_t c, codec_error *err)
{
    if (c == '=')
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, off,
                          "misplaced padding");
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, off,
                      "not a %s character (0x%02x)", s->name, c);
}

int codec__text_find_last_group(const codec_stage *s, const text_code *code, const uint8_t *src,
                                size_t n, size_t p, size_t *tail, codec_error *err)
{
    size_t full = n - n % code->group;
    *tail = n - p;
    if (p < full) {
        /* The bulk stopped at a group holding a non-symbol: only the last
         * group of a padded code may hold '='. */
        size_t j = 0;
        while (code->dec[src[p + j]] != 0xFF)
            j++;
        if (src[p + j] != '=' || !code->padded)
            return codec__text_bad_symbol(s, p + j, src[p + j], err);
        if (p + code->group < n)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, p + j,
                              "padding before the end");
        *tail = code->group;
    } else if (*tail && code->padded) {
        for (size_t j = p; j < n; j++)
            if (code->dec[src[j]] == 0xFF && src[j] != '=')
                return codec__text_bad_symbol(s, j, src[j], err);
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, n,
                          "length is not a multiple of %zu", code->group);
    }
    return CODEC_OK;
}

int codec__text_last_group_symbols(const codec_stage *s, const text_code *code, const uint8_t *q,
                                   const size_t *off, size_t len, size_t *syms, codec_error *err)
{
    size_t k = 0;
    while (k < len && code->dec[q[k]] != 0xFF)
        k++;
    for (size_t j = k; j < len; j++) {
        if (q[j] != '=')
            return code->dec[q[j]] == 0xFF
                       ? codec__text_bad_symbol(s, off[j], q[j], err)
                       : CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, off[j],
                                    "data after padding");
        if (!code->padded || k < 2)
            return codec__text_bad_symbol(s, off[j], '=', err);
    }
    *syms = k;
    return CODEC_OK;
}
