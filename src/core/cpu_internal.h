/* cpu_internal.h — the CPU features each kernel file suffix is compiled
 * for (the -m flags CMakeLists.txt gives *_sse42.c, *_avx2.c, ...). The
 * compiler may use any instruction those flags allow anywhere in such a
 * file, not only in its intrinsics, so a kernel may run only when
 * codec_cpu_features() has every feature of its suffix: choose kernels by
 * these masks, never by a subset. */
#ifndef CODEC_CPU_INTERNAL_H
#define CODEC_CPU_INTERNAL_H

#include "codec/core.h"

#include <stdbool.h>

/* -msse4.2 -mpclmul */
#define CODEC_CPU_FOR_SSE42 (CODEC_CPU_SSE42 | CODEC_CPU_PCLMUL)
/* -mavx2 -mbmi2 -mpclmul (AVX2 implies SSE4.2) */
#define CODEC_CPU_FOR_AVX2 (CODEC_CPU_FOR_SSE42 | CODEC_CPU_AVX2 | CODEC_CPU_BMI2)
/* the AVX2 flags and -mavx512f -mavx512bw -mavx512vl */
#define CODEC_CPU_FOR_AVX512 (CODEC_CPU_FOR_AVX2 | CODEC_CPU_AVX512)
/* the AVX-512 flags and -mavx512vbmi */
#define CODEC_CPU_FOR_AVX512VBMI (CODEC_CPU_FOR_AVX512 | CODEC_CPU_AVX512VBMI)
/* the AVX-512 flags and -mvpclmulqdq */
#define CODEC_CPU_FOR_AVX512VPCLMUL (CODEC_CPU_FOR_AVX512 | CODEC_CPU_VPCLMULQDQ)

/* CODEC_X86_KERNELS (set by CMakeLists.txt) is 1 when the x86 kernel files
 * (the x86/ folders under src/) are compiled: an x86 target without CODEC_PORTABLE.
 * Elsewhere codec_cpu_features() is 0 and CODEC_KERNEL(f) is NULL, so every
 * dispatcher takes its portable path and no kernel symbol is referenced. */
#if CODEC_X86_KERNELS
#define CODEC_KERNEL(f) (f)
#else
#define CODEC_KERNEL(f) NULL
#endif

/* CODEC_SSE2: the inline SSE2 paths (baseline on x86-64) are used; a
 * CODEC_PORTABLE build takes the plain C ones, as on other CPUs. */
#if defined(__SSE2__) && !defined(CODEC_PORTABLE)
#define CODEC_SSE2 1
#else
#define CODEC_SSE2 0
#endif

/* Whether this CPU has every feature in `needs`. */
static inline bool codec_cpu_has(unsigned needs)
{
    return (codec_cpu_features() & needs) == needs;
}

#endif
