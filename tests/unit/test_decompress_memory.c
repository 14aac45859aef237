/* test_decompress_memory.c — a decompression bomb costs at most the decode
 * cap plus a small constant (issue 21, finding 6). Every decompressor gets
 * 1 GiB of zeros, compressed by the peer library itself, against its
 * default 64 MiB cap and a 1 MiB one, through codec_decode (whose output
 * grows in the caller's arena). Two measures, both must hold:
 *  - the high-water mark of the bytes codec holds from the allocator it was
 *    given (a resize counts its new size only, as glibc's mremap does for
 *    large blocks);
 *  - the process's peak resident set (VmHWM, reset through
 *    /proc/self/clear_refs before each decode), which also sees the
 *    libraries' own windows and what a copying realloc costs. Skipped under
 *    sanitizers, whose shadow memory and quarantine distort it. */
#include "check.h"
#include "codec/codec.h"
#include "sanitizers.h"

#include <brotli/encode.h>
#include <lz4frame.h>
#include <zlib.h>
#include <zstd.h>

#define MIB ((size_t)1 << 20)
#define BOMB_SIZE ((size_t)1 << 30)
/* What codec may hold beyond the cap: the arena's first block and block
 * headers, the cap's one extra byte, alignment. */
#define ALLOC_SLACK ((size_t)256 << 10)
/* What the process may touch beyond the cap: the above plus the
 * libraries' windows and contexts (brotli's 4 MiB ring buffer, zstd's
 * window, LZ4's 4 MiB blocks) and page granularity. */
#define RSS_SLACK ((size_t)16 << 20)

#define MEASURE_RSS (!TEST_UNDER_ASAN && !TEST_UNDER_TSAN)

/* ---------------------------------------------------------------------------
 * The counting allocator
 * ------------------------------------------------------------------------ */

static size_t live, high_water;

static void count(size_t add, size_t remove)
{
    live = live - remove + add;
    if (live > high_water)
        high_water = live;
}

static void *count_alloc(void *ctx, size_t n)
{
    (void)ctx;
    void *p = malloc(n);
    if (p)
        count(n, 0);
    return p;
}

static void *count_resize(void *ctx, void *p, size_t old, size_t n)
{
    (void)ctx;
    void *q = realloc(p, n);
    if (q)
        count(n, old);
    return q;
}

static void count_release(void *ctx, void *p, size_t n)
{
    (void)ctx;
    free(p);
    count(0, n);
}

static const codec_allocator counting = {count_alloc, count_resize, count_release, NULL};

/* ---------------------------------------------------------------------------
 * Bombs: 1 GiB of zeros, compressed by the peer libraries
 * ------------------------------------------------------------------------ */

static uint8_t zeros[MIB];

static void grow(codec_buf *b, size_t extra)
{
    if (codec_buf_reserve(b, extra)) {
        fprintf(stderr, "out of memory making a bomb\n");
        exit(1);
    }
}

/* window_bits 31: gzip; 15: zlib. */
static void zlib_bomb(codec_buf *b, int window_bits)
{
    z_stream z = {0};
    deflateInit2(&z, 9, Z_DEFLATED, window_bits, 9, Z_RLE);
    for (size_t done = 0; done <= BOMB_SIZE; done += sizeof zeros) {
        int last = done == BOMB_SIZE;
        z.next_in = zeros;
        z.avail_in = last ? 0 : sizeof zeros;
        do {
            grow(b, 64 << 10);
            z.next_out = b->data + b->len;
            z.avail_out = 64 << 10;
            deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
            b->len += (64 << 10) - z.avail_out;
        } while (z.avail_out == 0);
    }
    deflateEnd(&z);
}

/* No pledged size: the frame does not declare its content size. */
static void zstd_bomb(codec_buf *b)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
    for (size_t done = 0; done <= BOMB_SIZE; done += sizeof zeros) {
        ZSTD_EndDirective mode = done == BOMB_SIZE ? ZSTD_e_end : ZSTD_e_continue;
        ZSTD_inBuffer in = {zeros, mode == ZSTD_e_end ? 0 : sizeof zeros, 0};
        size_t left;
        do {
            grow(b, ZSTD_CStreamOutSize());
            ZSTD_outBuffer out = {b->data + b->len, ZSTD_CStreamOutSize(), 0};
            left = ZSTD_compressStream2(c, &out, &in, mode);
            b->len += out.pos;
        } while (mode == ZSTD_e_end ? left != 0 : in.pos < in.size);
    }
    ZSTD_freeCCtx(c);
}

static void lz4_bomb(codec_buf *b)
{
    LZ4F_cctx *c;
    LZ4F_createCompressionContext(&c, LZ4F_VERSION);
    LZ4F_preferences_t prefs = LZ4F_INIT_PREFERENCES; /* no content size */
    prefs.frameInfo.blockSizeID = LZ4F_max4MB;
    size_t bound = LZ4F_compressBound(sizeof zeros, &prefs);
    grow(b, LZ4F_HEADER_SIZE_MAX);
    b->len += LZ4F_compressBegin(c, b->data + b->len, LZ4F_HEADER_SIZE_MAX, &prefs);
    for (size_t done = 0; done < BOMB_SIZE; done += sizeof zeros) {
        grow(b, bound);
        b->len += LZ4F_compressUpdate(c, b->data + b->len, bound, zeros, sizeof zeros, NULL);
    }
    grow(b, bound);
    b->len += LZ4F_compressEnd(c, b->data + b->len, bound, NULL);
    LZ4F_freeCompressionContext(c);
}

static void brotli_bomb(codec_buf *b)
{
    BrotliEncoderState *e = BrotliEncoderCreateInstance(NULL, NULL, NULL);
    BrotliEncoderSetParameter(e, BROTLI_PARAM_QUALITY, 1);
    for (size_t done = 0; done <= BOMB_SIZE; done += sizeof zeros) {
        BrotliEncoderOperation op = done == BOMB_SIZE ? BROTLI_OPERATION_FINISH
                                                      : BROTLI_OPERATION_PROCESS;
        size_t avail_in = op == BROTLI_OPERATION_FINISH ? 0 : sizeof zeros;
        const uint8_t *next_in = zeros;
        do {
            grow(b, 64 << 10);
            size_t avail_out = 64 << 10;
            uint8_t *next_out = b->data + b->len;
            BrotliEncoderCompressStream(e, op, &avail_in, &next_in, &avail_out, &next_out, NULL);
            b->len += (64 << 10) - avail_out;
        } while (avail_in || BrotliEncoderHasMoreOutput(e) ||
                 (op == BROTLI_OPERATION_FINISH && !BrotliEncoderIsFinished(e)));
    }
    BrotliEncoderDestroyInstance(e);
}

/* Raw snappy declares its length: a varint of 1 GiB, then a one-byte
 * literal and 2-byte-offset copies of 64 bytes (what a compressor writes
 * for zeros), 4 MiB of them. */
static void snappy_bomb(codec_buf *b)
{
    static const uint8_t head[] = {0x80, 0x80, 0x80, 0x80, 0x04, 0x00, 0x00};
    static const uint8_t copy[] = {(63 << 2) | 2, 0x01, 0x00};
    size_t copies = (4 * MIB) / sizeof copy;
    grow(b, sizeof head + copies * sizeof copy);
    memcpy(b->data + b->len, head, sizeof head);
    b->len += sizeof head;
    for (size_t i = 0; i < copies; i++, b->len += sizeof copy)
        memcpy(b->data + b->len, copy, sizeof copy);
}

/* ---------------------------------------------------------------------------
 * Measuring one decode
 * ------------------------------------------------------------------------ */

static size_t status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kib = 0, n = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0)
            kib = strtoull(line + n, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* Resets VmHWM to the current resident set; returns that set in bytes. */
static size_t reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
    return status_kib("VmRSS:") << 10;
}

typedef struct measure {
    size_t codec_peak;   /* allocator high-water mark */
    size_t rss_peak;     /* VmHWM growth */
    int rc;
    int detail;
} measure;

static measure decode_once(const codec *c, const codec_buf *bomb)
{
    measure m;
    codec_error err = {0};
    codec_arena arena;
    codec_arena_init(&arena, &counting, 0);
    size_t rss0 = reset_peak();
    live = high_water = 0;
    codec_bytes bytes;
    m.rc = codec_decode(c, bomb->data, bomb->len, &bytes, &arena, &err);
    m.codec_peak = high_water;
    size_t hwm = status_kib("VmHWM:") << 10;
    m.rss_peak = hwm > rss0 ? hwm - rss0 : 0;
    m.detail = err.detail;
    codec_arena_free(&arena);
    return m;
}

static void check_bomb(const char *name, const char *spec, const codec_buf *bomb, size_t cap)
{
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c) {
        fprintf(stderr, "%s: %s\n", spec, err.message);
        CHECK(0);
        return;
    }
    decode_once(c, bomb); /* warm: contexts and pools made */
    measure m = decode_once(c, bomb);
    printf("%-8s %-12s %8zu-byte bomb: codec peak %7.2f MiB, RSS peak %7.2f MiB "
           "(cap %.0f MiB)\n",
           name, spec, bomb->len, (double)m.codec_peak / MIB,
           (double)m.rss_peak / MIB, (double)cap / MIB);
    CHECK_INT(m.rc, CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(m.detail, CODEC_D_LIMIT);
    if (m.codec_peak > cap + ALLOC_SLACK) {
        fprintf(stderr, "%s %s: codec held %zu bytes, cap %zu + %zu\n", name, spec,
                m.codec_peak, cap, ALLOC_SLACK);
        CHECK(0);
    }
    if (MEASURE_RSS && m.rss_peak > cap + RSS_SLACK) {
        fprintf(stderr, "%s %s: peak RSS grew %zu bytes, cap %zu + %zu\n", name, spec,
                m.rss_peak, cap, RSS_SLACK);
        CHECK(0);
    }
    codec_free(c);
}

/* At the default cap and at max=1m. */
static void check_stage(const char *stage, const codec_buf *bomb)
{
    char spec[96];
    check_bomb(stage, stage, bomb, (size_t)64 << 20);
    snprintf(spec, sizeof spec, "%s:max=1m", stage);
    check_bomb(stage, spec, bomb, MIB);
}

static void gzip_bomb(codec_buf *b)
{
    zlib_bomb(b, 31);
}

/* The gzip trailer's size (ISIZE) is a hint an attacker sets: a small one
 * must not make the decoder trust it. */
static void gzip_lying_bomb(codec_buf *b)
{
    zlib_bomb(b, 31);
    static const uint8_t isize_1000[4] = {0xe8, 0x03, 0, 0};
    memcpy(b->data + b->len - 4, isize_1000, 4);
}

static void deflate_bomb(codec_buf *b)
{
    zlib_bomb(b, 15);
}

int main(void)
{
    static const struct {
        const char *stage;
        void (*make)(codec_buf *b);
    } bombs[] = {{"gzip", gzip_bomb},     {"gzip", gzip_lying_bomb}, {"deflate", deflate_bomb},
                 {"zstd", zstd_bomb},     {"lz4", lz4_bomb},         {"brotli", brotli_bomb},
                 {"snappy", snappy_bomb}};
    codec_buf bomb;
    codec_buf_init(&bomb, NULL);
    for (size_t i = 0; i < sizeof bombs / sizeof bombs[0]; i++) {
        codec_buf_clear(&bomb);
        bombs[i].make(&bomb);
        check_stage(bombs[i].stage, &bomb);
    }
    codec_buf_free(&bomb);
    return check_done("decompress_memory");
}
