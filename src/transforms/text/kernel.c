/* kernel.c — kernel selection shared by the text encodings. */
#include "text_internal.h"

/* The CPU features each tier needs. */
static unsigned isa_requirements(text_isa isa)
{
    switch (isa) {
    case TEXT_ISA_AVX2:
        return CODEC_CPU_AVX2;
    case TEXT_ISA_AVX512:
        return CODEC_CPU_AVX512 | CODEC_CPU_AVX512VBMI;
    default:
        return 0;
    }
}

int text_args_kernel(codec_args *a, unsigned built, text_isa *out, codec_error *err)
{
    static const char *const names[] = {"auto", "scalar", "avx2", "avx512", NULL};
    size_t which;
    int rc = codec_args_choice(a, "kernel", false, names, 0, &which, err);
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

void text_build_decode128(uint8_t table[128], const uint8_t dec[256])
{
    for (size_t c = 0; c < 128; c++)
        table[c] = dec[c] == 0xFF ? 0x80 : dec[c];
}
