/* sanitizers.h — which sanitizer a test was built with (GCC defines
 * __SANITIZE_*__, clang has __has_feature): TEST_UNDER_ASAN, TEST_UNDER_TSAN,
 * each 0 or 1. */
#ifndef CODEC_TEST_SANITIZERS_H
#define CODEC_TEST_SANITIZERS_H

#if defined(__SANITIZE_ADDRESS__)
#define TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_UNDER_ASAN 1
#endif
#endif
#ifndef TEST_UNDER_ASAN
#define TEST_UNDER_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define TEST_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_UNDER_TSAN 1
#endif
#endif
#ifndef TEST_UNDER_TSAN
#define TEST_UNDER_TSAN 0
#endif

/* The exit code ctest reports as "skipped" (SKIP_RETURN_CODE in
 * tests/CMakeLists.txt), never as passed. */
#define TEST_SKIPPED 77

#endif /* CODEC_TEST_SANITIZERS_H */
