/* test_core.c — error reports, the output buffer, the arena, CPU features. */
#include "check.h"
#include "codec/codec.h"

#include "core/asan_internal.h"
#include "core/load_internal.h"
#include "core/pool_internal.h"
#include "core/varint_internal.h"

#include <pthread.h>

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

    /* After a reset the newest (largest) block is still the head: the next
     * allocation starts it again, the way a decoder's output does every
     * call, and the older blocks are still there for what does not fit. */
    codec_arena_init(&a, NULL, 64);
    uint8_t *small = codec_arena_alloc(&a, 32, 16);
    uint8_t *large = codec_arena_alloc(&a, 4000, 16);
    CHECK(small != NULL && large != NULL);
    codec_arena_reset(&a);
    CHECK(codec_arena_alloc(&a, 32, 16) == large); /* not the older, smaller block */
    CHECK_INT(codec_arena_used(&a), 32);
    codec_arena_reset(&a);
    CHECK(codec_arena_alloc(&a, 4000, 16) == large);
    CHECK(codec_arena_alloc(&a, 40, 16) != NULL);
    codec_arena_reset(&a);
    CHECK_INT(codec_arena_used(&a), 0);
    codec_arena_free(&a);
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

/* The shared byte-order and varint helpers against values worked out by
 * hand from the specifications (protobuf encoding guide: 300 = ac 02,
 * zigzag -1 = 1, -2 = 3). */
static void test_wire_helpers(void)
{
    uint8_t b[10];
    codec_store_be32(b, 0x01020304u);
    CHECK(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 4);
    CHECK_INT(codec_load_be32(b), 0x01020304u);
    codec_store_be16(b, 0xA1B2);
    CHECK(b[0] == 0xA1 && b[1] == 0xB2);
    codec_store_be64(b, UINT64_C(0x0102030405060708));
    CHECK(b[0] == 1 && b[7] == 8);
    CHECK(codec_load_be64(b) == UINT64_C(0x0102030405060708));

    CHECK(codec_leb128_put(b, 300) == b + 2 && b[0] == 0xAC && b[1] == 0x02);
    CHECK_INT(codec_leb128_size(300), 2);
    CHECK_INT(codec_leb128_size(0), 1);
    CHECK_INT(codec_leb128_size(UINT64_MAX), 10);
    uint64_t v = 0;
    const uint8_t *p = b;
    CHECK_INT(codec_leb128_get(&p, b + 2, 64, &v), 0);
    CHECK(v == 300 && p == b + 2);
    p = b;
    CHECK_INT(codec_leb128_get(&p, b + 1, 64, &v), -1);   /* ends inside */
    /* Every value round-trips at both widths; the widest is accepted. */
    const uint64_t samples[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, UINT64_MAX};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        uint8_t *end = codec_leb128_put(b, samples[i]);
        CHECK_INT((size_t)(end - b), codec_leb128_size(samples[i]));
        p = b;
        CHECK_INT(codec_leb128_get(&p, end, 64, &v), 0);
        CHECK(v == samples[i] && p == end);
        p = b;
        CHECK_INT(codec_leb128_get(&p, end, 32, &v), samples[i] <= UINT32_MAX ? 0 : -2);
    }
    /* 32 bits: the 5th byte carries 4 bits; 64 bits: the 10th carries 1. */
    const uint8_t over32[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x10};
    p = over32;
    CHECK_INT(codec_leb128_get(&p, over32 + 5, 32, &v), -2);
    const uint8_t over64[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
    p = over64;
    CHECK_INT(codec_leb128_get(&p, over64 + 10, 64, &v), -2);

    CHECK_INT(codec_zigzag64(-1), 1);
    CHECK_INT(codec_zigzag64(-2), 3);
    CHECK_INT(codec_zigzag32(INT32_MIN), UINT32_MAX);
    CHECK(codec_unzigzag64(codec_zigzag64(INT64_MIN)) == INT64_MIN);
    CHECK_INT(codec_unzigzag32(codec_zigzag32(-123456)), -123456);
}

/* The context pool: a context given back is the one taken next; a pool
 * with keep_in_thread off (the crypto layer's: its contexts hold keys)
 * leaves nothing in a thread, so clearing it drops a context that a
 * still-running thread gave back, where a keeping pool leaves that one to
 * the thread's exit. */
static int pool_made, pool_dropped;

static void *pool_make(const void *cfg)
{
    (void)cfg;
    pool_made++;
    return malloc(16);
}

static void pool_drop(void *ctx)
{
    pool_dropped++;
    free(ctx);
}

typedef struct {
    codec_pool *pool;
    pthread_barrier_t *step;
} pool_job;

static void *pool_borrower(void *arg)
{
    pool_job *job = arg;
    codec__pool_put(job->pool, codec__pool_get(job->pool));
    pthread_barrier_wait(job->step); /* given back; the main thread clears */
    pthread_barrier_wait(job->step);
    return NULL;
}

/* Drops counted when the main thread clears a pool that another thread
 * (still running) borrowed from once. */
static int dropped_while_borrower_lives(bool keep_in_thread)
{
    pool_made = 0;
    codec_pool pool;
    codec__pool_init(&pool, pool_make, pool_drop, NULL);
    pool.keep_in_thread = keep_in_thread;
    pthread_barrier_t step;
    pthread_barrier_init(&step, NULL, 2);
    pool_job job = {&pool, &step};
    pthread_t t;
    pthread_create(&t, NULL, pool_borrower, &job);
    pthread_barrier_wait(&step);
    pool_dropped = 0;
    codec__pool_clear(&pool);
    int dropped = pool_dropped;
    pthread_barrier_wait(&step);
    pthread_join(t, NULL);
    CHECK_INT(pool_dropped, 1); /* a kept context at the thread's exit */
    pthread_barrier_destroy(&step);
    return dropped;
}

static void test_pool(void)
{
    codec_pool pool;
    codec__pool_init(&pool, pool_make, pool_drop, NULL);
    pool_made = pool_dropped = 0;
    void *a = codec__pool_get(&pool);
    codec__pool_put(&pool, a);
    CHECK(codec__pool_get(&pool) == a);
    void *b = codec__pool_get(&pool);
    CHECK(b != a);
    CHECK_INT(pool_made, 2);
    codec__pool_put(&pool, a);
    codec__pool_put(&pool, b);
    codec__pool_clear(&pool);
    CHECK_INT(pool_dropped, 2);

    CHECK_INT(dropped_while_borrower_lives(false), 1);
    CHECK_INT(pool_made, 1);
    CHECK_INT(dropped_while_borrower_lives(true), 0);
}

int main(void)
{
    test_wire_helpers();
    test_errors();
    test_buf();
    test_arena();
#ifdef CODEC_ASAN
    test_arena_poison();
#endif
    test_cpu();
    test_pool();
    return check_done("core");
}
