/* cpu.c — detect once which SIMD features the CPU and the OS support. */
#include "codec/core.h"
#include "core/cpu_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if CODEC_X86_KERNELS
#include <cpuid.h>

static uint64_t read_xcr0(void)
{
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static unsigned detect(void)
{
    unsigned eax, ebx, ecx, edx, f = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return 0;
    if (ecx & bit_SSE4_2)
        f |= CODEC_CPU_SSE42;
    if (ecx & bit_PCLMUL)
        f |= CODEC_CPU_PCLMUL;
    if (!(ecx & bit_OSXSAVE))
        return f;
    /* The OS must save the wide registers, or using them corrupts state. */
    uint64_t xcr0 = read_xcr0();
    int os_ymm = (xcr0 & 0x6) == 0x6;
    int os_zmm = (xcr0 & 0xe6) == 0xe6;
    if (__get_cpuid_max(0, NULL) < 7)
        return f;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    if (os_ymm && (ebx & bit_AVX2))
        f |= CODEC_CPU_AVX2;
    if (ebx & bit_BMI2)
        f |= CODEC_CPU_BMI2;
    if (os_zmm && (ebx & bit_AVX512F) && (ebx & bit_AVX512BW) && (ebx & bit_AVX512VL)) {
        f |= CODEC_CPU_AVX512;
        if (ecx & bit_AVX512VBMI)
            f |= CODEC_CPU_AVX512VBMI;
        if (ecx & bit_VPCLMULQDQ)
            f |= CODEC_CPU_VPCLMULQDQ;
    }
    return f;
}
#else
static unsigned detect(void)
{
    return 0;
}
#endif

/* Bit 31 marks "detected"; features are stable for the process lifetime, so
 * racing first callers just compute the same value. */
static _Atomic unsigned detected_features;
#define DETECTED_FLAG (1u << 31)

unsigned codec_cpu_features(void)
{
    unsigned f = atomic_load_explicit(&detected_features, memory_order_relaxed);
    if (f & DETECTED_FLAG)
        return f & ~DETECTED_FLAG;
    f = detect();
    const char *mask = getenv("CODEC_CPU_MASK");
    if (mask && *mask)
        f &= (unsigned)strtoul(mask, NULL, 0);
    atomic_store_explicit(&detected_features, f | DETECTED_FLAG, memory_order_relaxed);
    return f;
}

char *codec_cpu_feature_names(unsigned features, char *dst, size_t dst_cap)
{
    static const char *const names[] = {"sse4.2", "pclmul", "avx2", "bmi2",
                                        "avx512", "avx512vbmi", "vpclmulqdq"};
    size_t used = 0;
    if (dst_cap)
        dst[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(features & (1u << i)) || used >= dst_cap)
            continue;
        int w = snprintf(dst + used, dst_cap - used, "%s%s", used ? " " : "", names[i]);
        if (w > 0)
            used += (size_t)w;
    }
    return dst;
}
