/* test_integrity.c — CRC-32C kernels and vectors, the crc32c / crc32 /
 * adler32 trailers, and agreement with Python's zlib and crcmod (the
 * Debian /usr/bin/python3) in both directions. */
#include "check.h"
#include "test_support.h"
#include "codec/codec.h"
#include "codec/integrity.h"
#include "compose/stage_internal.h"
#include "transforms/integrity/crc32_internal.h"
#include "transforms/integrity/crc32c_internal.h"

#include <unistd.h>
#include <zlib.h>

static const char *const kernel_names[] = {"auto", "scalar", "sse42", "avx512"};

/* The routine that produced the constants in crc32c_internal.h and
 * crc32_internal.h. */
static uint32_t xpow_mod(unsigned e, uint32_t poly)
{
    uint32_t v = 0x80000000u;
    while (e--)
        v = (v >> 1) ^ (v & 1 ? poly : 0);
    return v;
}

static uint32_t xpow(unsigned e)
{
    return xpow_mod(e, CRC32C_POLY);
}

static void test_constants(void)
{
    static const struct {
        unsigned e;
        uint32_t v;
    } k[] = {{2079, CRC32C_X2079}, {2015, CRC32C_X2015}, {1567, CRC32C_X1567},
             {1503, CRC32C_X1503}, {1055, CRC32C_X1055}, {991, CRC32C_X991},
             {543, CRC32C_X543},   {479, CRC32C_X479},   {415, CRC32C_X415},
             {351, CRC32C_X351},   {287, CRC32C_X287},   {223, CRC32C_X223},
             {159, CRC32C_X159},   {95, CRC32C_X95},     {8159, CRC32C_X8159},
             {16351, CRC32C_X16351}, {9759, CRC32C_X9759}, {9695, CRC32C_X9695},
             {2527, CRC32C_X2527},   {5087, CRC32C_X5087}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        CHECK_INT(xpow(k[i].e), k[i].v);
    CHECK_INT(xpow_mod(543, CRC32_POLY), CRC32_X543);
    CHECK_INT(xpow_mod(479, CRC32_POLY), CRC32_X479);
    CHECK_INT(xpow_mod(159, CRC32_POLY), CRC32_X159);
    CHECK_INT(xpow_mod(95, CRC32_POLY), CRC32_X95);
}

/* Check value and RFC 3720 appendix B.4 (iSCSI CRC examples). */
static void test_vectors(void)
{
    uint8_t zeros[32] = {0}, ones[32], inc[32], dec[32];
    for (int i = 0; i < 32; i++)
        ones[i] = 0xFF, inc[i] = (uint8_t)i, dec[i] = (uint8_t)(31 - i);
    static const uint8_t pdu[48] = {
        0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
        0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    for (int id = CRC32C_AUTO; id < CRC32C_KERNEL_COUNT; id++) {
        crc32c_kernel_fn fn = codec__crc32c_kernel(id);
        if (!fn)
            continue;
        CHECK_INT(fn(0, "123456789", 9), 0xE3069283u);
        CHECK_INT(fn(0, zeros, 32), 0x8A9136AAu);
        CHECK_INT(fn(0, ones, 32), 0x62A8AB43u);
        CHECK_INT(fn(0, inc, 32), 0x46DD794Eu);
        CHECK_INT(fn(0, dec, 32), 0x113FDB5Cu);
        CHECK_INT(fn(0, pdu, 48), 0xD9963A56u);
        CHECK_INT(fn(0, NULL, 0), 0);
    }
    CHECK_INT(codec_crc32c(0, "123456789", 9), 0xE3069283u);
    CHECK_INT(codec_crc32(0, "123456789", 9), 0xCBF43926u);
    CHECK_INT(codec_adler32(1, "123456789", 9), 0x091E01DEu);
}

static void fill_random(uint8_t *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(check_rand(&seed) >> 56);
}

/* Every kernel this CPU has, against scalar: every length 0..1000 at
 * several alignments and starting values, then long inputs. */
static void test_kernels_agree(void)
{
    size_t big = (1u << 20) + 4099;
    uint8_t *buf = malloc(big + 64);
    fill_random(buf, big + 64, 42);
    static const size_t aligns[] = {0, 1, 3, 8, 13, 63};
    static const uint32_t starts[] = {0, 0xFFFFFFFFu, 0x12345678u};
    crc32c_kernel_fn ref = codec__crc32c_kernel(CRC32C_SCALAR);
    for (int id = CRC32C_SSE42; id < CRC32C_KERNEL_COUNT; id++) {
        crc32c_kernel_fn fn = codec__crc32c_kernel(id);
        if (!fn) {
            printf("kernel %s: not supported here, skipped\n", kernel_names[id]);
            continue;
        }
        size_t bad = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++)
            for (size_t n = 0; n <= 1000; n++)
                for (size_t s = 0; s < 3; s++)
                    bad += fn(starts[s], buf + aligns[a], n) != ref(starts[s], buf + aligns[a], n);
        static const size_t longs[] = {3519, 3520, 3521, 3776, 4096, 7039, 7040, 8192,
                                       65536 + 17, 1u << 20, (1u << 20) + 4099};
        for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
            for (size_t a = 0; a < 3; a++)
                bad += fn(7, buf + aligns[a], longs[i]) != ref(7, buf + aligns[a], longs[i]);
        /* Every length around the 512-bit kernel's first two hybrid chunks. */
        for (size_t n = 3700; n <= 7600; n++)
            bad += fn(n, buf + 5, n) != ref(n, buf + 5, n);
        if (bad)
            fprintf(stderr, "kernel %s: %zu mismatches\n", kernel_names[id], bad);
        CHECK_INT(bad, 0);
    }
    free(buf);
}

/* CRC-32's table and folding kernels against zlib's crc32(): every length
 * to 1,000 at several alignments and starting values, long inputs, and in
 * pieces. The folding kernel is skipped (and said so) on a CPU without it;
 * the masked run (main()) takes codec_crc32() through the library. */
static uint32_t crc32_by_fold(uint32_t crc, const void *p, size_t n)
{
    return codec__crc32_folded(codec__crc32_fold_kernel(), crc, p, n);
}

static void test_crc32_kernels(void)
{
    size_t big = (1u << 20) + 4099;
    uint8_t *buf = malloc(big + 64);
    fill_random(buf, big + 64, 43);
    static const size_t aligns[] = {0, 1, 7, 13};
    static const uint32_t starts[] = {0, 0xFFFFFFFFu, 0x12345678u};
    uint32_t (*const kernels[])(uint32_t, const void *, size_t) = {codec__crc32_table,
                                                                   crc32_by_fold};
    for (size_t k = 0; k < 2; k++) {
        if (k == 1 && !codec__crc32_fold_kernel()) {
            printf("crc32 folding kernel: not supported here, skipped\n");
            break;
        }
        size_t bad = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++)
            for (size_t n = 0; n <= 1000; n++)
                for (size_t s = 0; s < 3; s++)
                    bad += kernels[k](starts[s], buf + aligns[a], n) !=
                           crc32(starts[s], buf + aligns[a], (uInt)n);
        static const size_t longs[] = {4096, 65536 + 17, 1u << 20, (1u << 20) + 4099};
        for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
            bad += kernels[k](7, buf + 3, longs[i]) != crc32(7, buf + 3, (uInt)longs[i]);
        uint32_t crc = 0;
        for (size_t at = 0, n = 1; at < big; at += n, n = n * 3 + 1)
            crc = kernels[k](crc, buf + at, big - at < n ? big - at : n);
        bad += crc != crc32(0, buf, (uInt)big);
        if (bad)
            fprintf(stderr, "crc32 kernel %zu: %zu mismatches\n", k, bad);
        CHECK_INT(bad, 0);
    }
    free(buf);
}

/* crc(a||b) from crc(a), for every split of a 3000-byte input. */
static void test_chaining(void)
{
    uint8_t buf[3000];
    fill_random(buf, sizeof buf, 7);
    for (int id = CRC32C_SCALAR; id < CRC32C_KERNEL_COUNT; id++) {
        crc32c_kernel_fn fn = codec__crc32c_kernel(id);
        if (!fn)
            continue;
        uint32_t whole = fn(0, buf, sizeof buf);
        size_t bad = 0;
        for (size_t cut = 0; cut <= sizeof buf; cut += 7)
            bad += fn(fn(0, buf, cut), buf + cut, sizeof buf - cut) != whole;
        CHECK_INT(bad, 0);
    }
    CHECK_INT(codec_crc32(codec_crc32(0, buf, 1000), buf + 1000, 2000),
              crc32(0, buf, sizeof buf));
    CHECK_INT(codec_adler32(codec_adler32(1, buf, 1000), buf + 1000, 2000),
              adler32(1, buf, sizeof buf));
}

static void test_against_zlib(void)
{
    uint8_t buf[5000];
    fill_random(buf, sizeof buf, 99);
    size_t bad = 0;
    for (size_t n = 0; n <= sizeof buf; n += 37)
        bad += codec_crc32(0, buf, n) != crc32(0, buf, (uInt)n) ||
               codec_adler32(1, buf, n) != adler32(1, buf, (uInt)n);
    CHECK_INT(bad, 0);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Layout, round trip, and every corruption and truncation. */
static void test_trailer(const char *spec, uint32_t (*sum)(const uint8_t *, size_t))
{
    codec *c = test_parse(spec);
    if (!c)
        return;
    uint8_t payload[64];
    fill_random(payload, sizeof payload, 5);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK(codec_buf_append(&out, "KEEP", 4) == 0); /* encode appends */
    codec_bytes in = {payload, sizeof payload};
    CHECK_INT(codec_encode(c, &in, &out, NULL), 0);
    CHECK_INT(out.len, 4 + sizeof payload + 4);
    CHECK_MEM(out.data, 4, "KEEP", 4);
    CHECK_MEM(out.data + 4, sizeof payload, payload, sizeof payload);
    CHECK_INT(be32(out.data + 4 + sizeof payload), sum(payload, sizeof payload));

    const uint8_t *enc = out.data + 4;
    size_t n = out.len - 4;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes dec;
    codec_error err;
    CHECK_INT(codec_decode(c, enc, n, &dec, &arena, &err), 0);
    CHECK_MEM(dec.data, dec.len, payload, sizeof payload);

    uint8_t bad[sizeof payload + 4];
    size_t wrong = 0;
    for (size_t bit = 0; bit < 8 * n; bit++) {
        memcpy(bad, enc, n);
        bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        codec_arena_reset(&arena);
        int rc = codec_decode(c, bad, n, &dec, &arena, &err);
        wrong += rc != CODEC_E_INVALID_PAYLOAD || err.detail != CODEC_D_CHECKSUM ||
                 err.offset != sizeof payload || strcmp(err.message, "checksum mismatch") != 0;
    }
    CHECK_INT(wrong, 0);
    for (size_t cut = 0; cut < n; cut++) {
        codec_arena_reset(&arena);
        int rc = codec_decode(c, enc, cut, &dec, &arena, &err);
        wrong += rc != CODEC_E_INVALID_PAYLOAD ||
                 err.detail != (cut < 4 ? CODEC_D_TRUNCATED : CODEC_D_CHECKSUM);
    }
    CHECK_INT(wrong, 0);

    /* Empty payload: the trailer alone. */
    out.len = 0;
    codec_bytes empty = {NULL, 0};
    CHECK_INT(codec_encode(c, &empty, &out, NULL), 0);
    CHECK_INT(out.len, 4);
    CHECK_INT(codec_decode(c, out.data, out.len, &dec, &arena, &err), 0);
    CHECK_INT(dec.len, 0);
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
}

static uint32_t sum_crc32c(const uint8_t *p, size_t n)
{
    return codec__crc32c_kernel(CRC32C_SCALAR)(0, p, n);
}
static uint32_t sum_crc32(const uint8_t *p, size_t n)
{
    return (uint32_t)crc32(0, p, (uInt)n);
}
static uint32_t sum_adler32(const uint8_t *p, size_t n)
{
    return (uint32_t)adler32(1, p, (uInt)n);
}

/* The fused checksum-and-copy kernels against the scalar checksum: same CRC,
 * the bytes copied exactly, nothing written past dst[n); every length
 * 0..1000 at several source and destination alignments, long inputs and
 * every length around the 512-bit kernel's first two hybrid chunks. */
static size_t copy_mismatches(crc32c_copy_fn fn, uint32_t start, uint8_t *dst,
                              const uint8_t *src, size_t n)
{
    memset(dst, 0xA5, n + 64);
    uint32_t want = codec__crc32c_kernel(CRC32C_SCALAR)(start, src, n);
    size_t bad = fn(start, dst, src, n) != want || (n && memcmp(dst, src, n) != 0);
    for (size_t i = n; i < n + 64; i++)
        bad += dst[i] != 0xA5;
    return bad;
}

static void test_copy_kernels(void)
{
    size_t big = (1u << 20) + 4099;
    uint8_t *src = malloc(big + 64), *dst = malloc(big + 192);
    fill_random(src, big + 64, 43);
    static const size_t aligns[] = {0, 1, 3, 8, 13, 63};
    for (int id = CRC32C_SCALAR; id < CRC32C_KERNEL_COUNT; id++) {
        crc32c_copy_fn fn = codec__crc32c_copy_kernel(id);
        CHECK((fn != NULL) == (codec__crc32c_kernel(id) != NULL));
        if (!fn) {
            printf("copy kernel %s: not supported here, skipped\n", kernel_names[id]);
            continue;
        }
        size_t bad = 0;
        for (size_t a = 0; a < sizeof aligns / sizeof aligns[0]; a++)
            for (size_t n = 0; n <= 1000; n++)
                bad += copy_mismatches(fn, (uint32_t)n * 0x9E3779B9u, dst + aligns[5 - a],
                                       src + aligns[a], n);
        static const size_t longs[] = {3519, 3520, 3521, 3776, 4096, 7039, 7040, 8192, 8338,
                                       65536 + 17, 1u << 20, (1u << 20) + 4099};
        for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++)
            for (size_t a = 0; a < 3; a++)
                bad += copy_mismatches(fn, 7, dst + aligns[a + 1], src + aligns[a], longs[i]);
        for (size_t n = 3700; n <= 7600; n++)
            bad += copy_mismatches(fn, (uint32_t)n, dst + 3, src + 5, n);
        if (bad)
            fprintf(stderr, "copy kernel %s: %zu mismatches\n", kernel_names[id], bad);
        CHECK_INT(bad, 0);
    }
    CHECK(codec__crc32c_copy_kernel(CRC32C_AUTO) != NULL);
    free(src);
    free(dst);
}

/* Trailers over payloads long enough for every kernel path (and for the
 * piecewise copy of crc32/adler32, 8 KiB pieces): the bytes encoded and
 * decoded, the sum against its reference, and a flipped bit anywhere
 * caught. */
static void test_trailer_long(const char *spec, uint32_t (*sum)(const uint8_t *, size_t))
{
    codec *c = test_parse(spec);
    if (!c)
        return;
    static const size_t sizes[] = {255, 256, 3520, 8192, 8338, 16385, 70000};
    uint8_t *payload = malloc(70000), *bad = malloc(70004);
    fill_random(payload, 70000, 9);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i];
        codec_bytes in = {payload, n}, dec;
        out.len = 0;
        CHECK_INT(codec_encode(c, &in, &out, NULL), 0);
        CHECK_INT(out.len, n + 4);
        CHECK_MEM(out.data, n, payload, n);
        CHECK_INT(be32(out.data + n), sum(payload, n));
        codec_arena_reset(&arena);
        codec_error err;
        CHECK_INT(codec_decode(c, out.data, out.len, &dec, &arena, &err), 0);
        CHECK_MEM(dec.data, dec.len, payload, n);
        size_t wrong = 0;
        for (size_t at = 0; at < n + 4; at += n / 7 + 1) {
            memcpy(bad, out.data, n + 4);
            bad[at] ^= 0x10;
            codec_arena_reset(&arena);
            wrong += codec_decode(c, bad, n + 4, &dec, &arena, &err) != CODEC_E_INVALID_PAYLOAD ||
                     err.detail != CODEC_D_CHECKSUM || err.offset != n;
        }
        CHECK_INT(wrong, 0);
    }
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    free(payload);
    free(bad);
}

/* Decodes into one arena without resetting it: the output is bump-allocated
 * in the head block while it has room (trailer.c reserves exactly the
 * payload inline) and in a new block when not; every earlier value must
 * stay intact and arena_used() grow by at least each payload. */
static void test_decode_into_arena(void)
{
    codec *c = test_parse("crc32c");
    if (!c)
        return;
    enum { VALUES = 40 };
    uint8_t *payload = malloc(5000);
    fill_random(payload, 5000, 11);
    codec_buf enc[VALUES];
    codec_bytes dec[VALUES];
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    size_t used = codec_arena_used(&arena), wrong = 0;
    for (size_t i = 0; i < VALUES; i++) {
        size_t n = (i * 677) % 5000 + 1; /* 1 .. 5000 bytes, 4 KiB first block */
        codec_bytes in = {payload + (5000 - n), n};
        codec_buf_init(&enc[i], NULL);
        CHECK_INT(codec_encode(c, &in, &enc[i], NULL), 0);
        CHECK_INT(codec_decode(c, enc[i].data, enc[i].len, &dec[i], &arena, NULL), 0);
        wrong += dec[i].len != n || ((uintptr_t)dec[i].data & 15) != 0 ||
                 codec_arena_used(&arena) < used + n;
        used = codec_arena_used(&arena);
    }
    CHECK_INT(wrong, 0);
    for (size_t i = 0; i < VALUES; i++) {
        size_t n = (i * 677) % 5000 + 1;
        wrong += dec[i].len != n || memcmp(dec[i].data, payload + (5000 - n), n) != 0;
        codec_buf_free(&enc[i]);
    }
    CHECK_INT(wrong, 0);
    codec_arena_free(&arena);
    codec_free(c);
    free(payload);
}

static void test_kernel_argument(void)
{
    for (int id = CRC32C_AUTO; id < CRC32C_KERNEL_COUNT; id++) {
        char spec[40];
        snprintf(spec, sizeof spec, "crc32c:kernel=%s", kernel_names[id]);
        codec_error err;
        codec *c = codec_parse(spec, NULL, &err);
        if (codec__crc32c_kernel(id)) {
            CHECK(c != NULL);
            test_trailer(spec, sum_crc32c);
        } else {
            CHECK(c == NULL && err.family == CODEC_E_USAGE && strstr(err.message, "not supported"));
        }
        codec_free(c);
        c = codec_crc32c_trailer(kernel_names[id], &err);
        CHECK((c != NULL) == (codec__crc32c_kernel(id) != NULL));
        codec_free(c);
    }
    codec_error err;
    CHECK(codec_crc32c_trailer("scalar                             x", &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_parse("crc32c:kernel=neon", NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    CHECK(codec_parse("crc32:3", NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    codec *c = codec_crc32c_trailer(NULL, &err);
    CHECK(c && strcmp(codec_spec(c), "crc32c") == 0);
    codec_free(c);
    c = codec_crc32_trailer(&err);
    CHECK(c && strcmp(codec_spec(c), "crc32") == 0);
    codec_free(c);
    c = codec_adler32_trailer(&err);
    CHECK(c && strcmp(codec_spec(c), "adler32") == 0);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Peers: /usr/bin/python3 (zlib.crc32, zlib.adler32, crcmod's crc-32c)
 * ------------------------------------------------------------------------ */

#define PEER_FILES 40

static const char peer_prelude[] =
    "import sys, os, zlib, random\n"
    "import crcmod.predefined\n"
    "sums = {'crc32': zlib.crc32, 'adler32': zlib.adler32,\n"
    "        'crc32c': crcmod.predefined.mkCrcFun('crc-32c')}\n"
    "d, mode = sys.argv[1], sys.argv[2]\n";

/* Python writes [random payload][its checksum] files; we must accept them. */
static const char peer_write[] =
    "random.seed(1234)\n"
    "for name, f in sums.items():\n"
    "    for i in range(%d):\n"
    "        p = random.randbytes(random.choice([0, 1, 3, 64, 255, 1000, 4099]))\n"
    "        open(f'{d}/py-{name}-{i}', 'wb').write(p + f(p).to_bytes(4, 'big'))\n";

/* Python checks the trailers of our files. */
static const char peer_check[] =
    "bad = 0\n"
    "for name, f in sums.items():\n"
    "    for i in range(%d):\n"
    "        b = open(f'{d}/c-{name}-{i}', 'rb').read()\n"
    "        bad += f(b[:-4]) != int.from_bytes(b[-4:], 'big')\n"
    "print('bad', bad)\n";

static int run_python(const char *dir, const char *body, char *reply, size_t cap)
{
    char script[2048], cmd[4600];
    snprintf(script, sizeof script, "%s", peer_prelude);
    snprintf(script + strlen(script), sizeof script - strlen(script), body, PEER_FILES);
    /* The script goes through a file: quoting it for the shell is fragile. */
    char path[600];
    snprintf(path, sizeof path, "%s/peer.py", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(script, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s x", path, dir);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t got = fread(reply, 1, cap - 1, p);
    reply[got] = '\0';
    return pclose(p);
}

static bool read_file(const char *path, codec_buf *out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint8_t tmp[8192];
    size_t n;
    out->len = 0;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        CHECK(codec_buf_append(out, tmp, n) == 0);
    fclose(f);
    return true;
}

static void test_python_peer(void)
{
    char dir[] = "/tmp/codec-integrity-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    static const char *const names[] = {"crc32", "adler32", "crc32c"};
    char reply[256], path[600];
    CHECK_INT(run_python(dir, peer_write, reply, sizeof reply), 0);
    codec_buf file, out;
    codec_buf_init(&file, NULL);
    codec_buf_init(&out, NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    size_t accepted = 0;
    uint64_t seed = 77;
    for (size_t k = 0; k < 3; k++) {
        codec *c = test_parse(names[k]);
        for (int i = 0; c && i < PEER_FILES; i++) {
            snprintf(path, sizeof path, "%s/py-%s-%d", dir, names[k], i);
            codec_bytes dec;
            codec_arena_reset(&arena);
            if (read_file(path, &file) &&
                codec_decode(c, file.data, file.len, &dec, &arena, NULL) == 0)
                accepted++;
            uint8_t payload[3000];
            size_t n = (size_t)(check_rand(&seed) % sizeof payload);
            fill_random(payload, n, seed);
            codec_bytes in = {payload, n};
            out.len = 0;
            CHECK_INT(codec_encode(c, &in, &out, NULL), 0);
            snprintf(path, sizeof path, "%s/c-%s-%d", dir, names[k], i);
            FILE *f = fopen(path, "wb");
            if (f) {
                fwrite(out.data, 1, out.len, f);
                fclose(f);
            }
        }
        codec_free(c);
    }
    CHECK_INT(accepted, 3 * PEER_FILES);
    CHECK_INT(run_python(dir, peer_check, reply, sizeof reply), 0);
    CHECK_STR(reply, "bad 0\n");
    codec_arena_free(&arena);
    codec_buf_free(&file);
    codec_buf_free(&out);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_INT(system(cmd), 0);
}

/* A trailer between other stages, and steady-state encode allocates
 * nothing. */
static void test_in_pipeline(void)
{
    codec *c = test_parse("hex | crc32c | hex:upper");
    if (!c)
        return;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_bytes in = {(const uint8_t *)"123456789", 9};
    CHECK_INT(codec_encode(c, &in, &out, NULL), 0);
    /* hex("123456789") = "313233343536373839"; its crc32c, then upper hex. */
    uint32_t sum = codec_crc32c(0, "313233343536373839", 18);
    char expect[64];
    int w = 0;
    for (const char *p = "313233343536373839"; *p; p++)
        w += snprintf(expect + w, sizeof expect - (size_t)w, "%02X", (unsigned char)*p);
    snprintf(expect + w, sizeof expect - (size_t)w, "%08X", sum);
    CHECK_MEM(out.data, out.len, expect, strlen(expect));
    codec_buf_free(&out);
    codec_free(c);
}

/* Out of memory while growing the output: CODEC_E_NOMEM, length restored. */
static void test_out_of_memory(void)
{
    static const char *const specs[] = {"crc32c", "crc32", "adler32", "hex | crc32c"};
    uint8_t payload[500];
    fill_random(payload, sizeof payload, 3);
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        codec *c = test_parse(specs[i]);
        for (size_t budget = 0; c && budget < 4; budget++) {
            test_alloc t;
            codec_buf out;
            codec_buf_init(&out, test_alloc_init(&t, budget));
            codec_bytes in = {payload, sizeof payload};
            codec_error err;
            int rc = codec_encode(c, &in, &out, &err);
            CHECK(rc == CODEC_OK || (rc == CODEC_E_NOMEM && out.len == 0));
            CHECK(budget > 0 || rc == CODEC_E_NOMEM);
            codec_buf_free(&out);
        }
        codec_free(c);
    }
}

/* With CODEC_CPU_MASK=0 (no SIMD): auto is scalar, the others are refused. */
static int masked_run(void)
{
    CHECK(codec__crc32c_kernel(CRC32C_AUTO) == codec__crc32c_kernel(CRC32C_SCALAR));
    CHECK(codec__crc32c_kernel(CRC32C_SSE42) == NULL);
    CHECK(codec__crc32c_kernel(CRC32C_AVX512) == NULL);
    CHECK_INT(codec_crc32c(0, "123456789", 9), 0xE3069283u);
    codec_error err;
    CHECK(codec_parse("crc32c:kernel=sse42", NULL, &err) == NULL);
    CHECK(strstr(err.message, "not supported") != NULL);
    test_trailer("crc32c", sum_crc32c);
    CHECK(codec__crc32c_copy_kernel(CRC32C_AUTO) == codec__crc32c_copy_kernel(CRC32C_SCALAR));
    test_trailer_long("crc32c", sum_crc32c);
    return check_done("test_integrity (CODEC_CPU_MASK=0)");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--masked") == 0)
        return masked_run();
    char cmd[4200];
    const char *emulator = getenv("CODEC_TEST_EMULATOR");   /* set when cross-built */
    snprintf(cmd, sizeof cmd, "CODEC_CPU_MASK=0 %s '%s' --masked", emulator ? emulator : "",
             argv[0]);
    CHECK_INT(system(cmd), 0);
    test_constants();
    test_vectors();
    test_kernels_agree();
    test_crc32_kernels();
    test_chaining();
    test_against_zlib();
    test_trailer("crc32c", sum_crc32c);
    test_trailer("crc32", sum_crc32);
    test_trailer("adler32", sum_adler32);
    test_copy_kernels();
    for (int id = CRC32C_SCALAR; id < CRC32C_KERNEL_COUNT; id++) {
        char spec[40];
        snprintf(spec, sizeof spec, "crc32c:kernel=%s", kernel_names[id]);
        if (codec__crc32c_kernel(id))
            test_trailer_long(spec, sum_crc32c);
    }
    test_trailer_long("crc32", sum_crc32);
    test_trailer_long("adler32", sum_adler32);
    test_decode_into_arena();
    test_kernel_argument();
    test_python_peer();
    test_in_pipeline();
    test_out_of_memory();
    return check_done("test_integrity");
}
