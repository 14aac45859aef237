/* test_core.c — error reports, the output buffer, the arena, CPU features. */
#include "check.h"
#include "codec/codec.h"

#include "core/asan_internal.h"

static void test_errors(void)
{
    codec_error err;
    CHECK_INT(codec_error_set(&err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM, "crc32c", 12,
                              "checksum mismatch"),
              CODEC_E_INVALID_PAYLOAD);
    char line[128];
    CHECK_STR(codec_error_format(&err, line, sizeof line),
              "crc32c: checksum mismatch (offset 12)");
    codec_error_set(&err, CODEC_E_USAGE, 0, NULL, CODEC_NO_OFFSET, "bad %s", "thing");
    CHECK_STR(codec_error_format(&err, line, sizeof line), "codec: bad thing");
    CHECK_INT(codec_error_set(NULL, CODEC_E_NOMEM, 0, "x", 0, "y"), CODEC_E_NOMEM);
    CHECK_STR(codec_status_name(CODEC_E_UNSUPPORTED), "unsupported");
    CHECK_STR(codec_status_name(CODEC_E_NOT_FOUND), "not found");
    CHECK_STR(codec_status_name(99), "unknown");
}

static void test_buf(void)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    CHECK(b.len == 0 && b.data == NULL);
    for (int i = 0; i < 1000; i++)
        CHECK_INT(codec_buf_append(&b, "abc", 3), 0);
    CHECK_INT(b.len, 3000);
    CHECK(memcmp(b.data + 2997, "abc", 3) == 0);
    CHECK_INT(codec_buf_reserve(&b, SIZE_MAX), CODEC_E_NOMEM);
    CHECK_INT(b.len, 3000);
    codec_buf_clear(&b);
    CHECK_INT(b.len, 0);
    codec_buf_free(&b);
    codec_buf_free(&b);
    codec_buf_free(NULL);
}

static void test_arena(void)
{
    codec_arena a;
    codec_arena_init(&a, NULL, 64);
    uint8_t *p = codec_arena_alloc(&a, 10, 1);
    CHECK(p != NULL);
    uint64_t *q = codec_arena_alloc(&a, 8 * 100, 8);
    CHECK(q != NULL && ((uintptr_t)q & 7) == 0);
    for (int i = 0; i < 100; i++)
        q[i] = (uint64_t)i;
    void *big = codec_arena_alloc(&a, 1 << 20, 64);
    CHECK(big != NULL && ((uintptr_t)big & 63) == 0);
    memset(big, 1, 1 << 20);
    CHECK(codec_arena_alloc(&a, SIZE_MAX - 8, 8) == NULL);
    CHECK(codec_arena_alloc(&a, 8, 3) == NULL);
    CHECK(codec_arena_used(&a) >= 810 + (1 << 20));
    codec_arena_reset(&a);
    CHECK_INT(codec_arena_used(&a), 0);
    /* A buffer growing inside the arena keeps its bytes. */
    codec_buf b;
    codec_buf_init(&b, codec_arena_allocator(&a));
    for (int i = 0; i < 10000; i++)
        CHECK(codec_buf_append(&b, &i, sizeof i) == 0);
    int ok = 1;
    for (int i = 0; i < 10000; i++)
        ok &= memcmp(b.data + i * sizeof i, &i, sizeof i) == 0;
    CHECK(ok);
    codec_arena_free(&a);
    codec_arena_free(NULL);
}

#ifdef CODEC_ASAN
/* Under ASan the arena poisons what no allocation holds, so overruns of
 * arena memory (decoded strings, text pools) are caught like heap ones. */
static void test_arena_poison(void)
{
    codec_arena a;
    codec_arena_init(&a, NULL, 256);
    uint8_t *p = codec_arena_alloc(&a, 10, 1);
    CHECK(p && !__asan_region_is_poisoned(p, 10));
    CHECK(__asan_address_is_poisoned(p + 10));
    /* Growing the latest allocation in place unpoisons the new bytes;
     * shrinking it poisons them again. */
    const codec_allocator *al = codec_arena_allocator(&a);
    uint8_t *g = al->alloc(al->ctx, 16);
    CHECK(g && __asan_address_is_poisoned(g + 16));
    CHECK(al->resize(al->ctx, g, 16, 40) == g && !__asan_region_is_poisoned(g, 40));
    CHECK(al->resize(al->ctx, g, 40, 8) == g && __asan_address_is_poisoned(g + 8));
    codec_arena_reset(&a);
    CHECK(__asan_address_is_poisoned(p));
    uint8_t *again = codec_arena_alloc(&a, 4, 1);
    CHECK(again && !__asan_region_is_poisoned(again, 4) && __asan_address_is_poisoned(again + 4));
    codec_arena_free(&a);
}
#endif

static void test_cpu(void)
{
    unsigned f = codec_cpu_features();
    CHECK_INT(codec_cpu_features(), f);
    char names[128];
    codec_cpu_feature_names(CODEC_CPU_AVX2 | CODEC_CPU_PCLMUL, names, sizeof names);
    CHECK_STR(names, "pclmul avx2");
    printf("cpu features: %s\n", codec_cpu_feature_names(f, names, sizeof names));
}

int main(void)
{
    test_errors();
    test_buf();
    test_arena();
#ifdef CODEC_ASAN
    test_arena_poison();
#endif
    test_cpu();
    return check_done("core");
}
