/* asan_internal.h — whether this build runs under AddressSanitizer, and the
 * calls that mark memory as not to be touched when it does (nothing
 * otherwise). gcc says so with __SANITIZE_ADDRESS__, clang through
 * __has_feature. The arena poisons its unallocated bytes with these; the
 * core test checks that it does. */
#ifndef CODEC_ASAN_INTERNAL_H
#define CODEC_ASAN_INTERNAL_H

#if defined(__SANITIZE_ADDRESS__)
#define CODEC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CODEC_ASAN 1
#endif
#endif

#ifdef CODEC_ASAN
#include <sanitizer/asan_interface.h>
#define CODEC_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define CODEC_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define CODEC_POISON(p, n) ((void)(p), (void)(n))
#define CODEC_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif
