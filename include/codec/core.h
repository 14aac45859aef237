/* codec/core.h — statuses and error reports, allocator hooks, the output
 * buffer, the decode arena and CPU feature detection.
 *
 * Layer `core`: everything else in codec builds on these types and nothing
 * here knows about formats or transforms.
 *
 * Conventions used by every codec function:
 *   - Functions that can fail return an `int` status: 0 (CODEC_OK) or one of
 *     the CODEC_E_* families below. Family numbers are frozen.
 *   - An optional `codec_error *err` (may be NULL) is filled only on failure.
 *   - Buffers and arenas allocate through the `codec_allocator` they are
 *     given (NULL means libc); handles and the compression and crypto
 *     libraries use libc (docs/ARCHITECTURE.md, "What the codec_allocator
 *     covers").
 *   - Every *_free() function accepts NULL.
 */
#ifndef CODEC_CORE_H
#define CODEC_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CODEC_BUILDING) && defined(__GNUC__)
#define CODEC_API __attribute__((visibility("default")))
#else
#define CODEC_API
#endif

#if defined(__GNUC__)
#define CODEC_NODISCARD __attribute__((warn_unused_result))
#else
#define CODEC_NODISCARD
#endif

#define CODEC_VERSION_MAJOR 0
#define CODEC_VERSION_MINOR 1
#define CODEC_VERSION_PATCH 0
#define CODEC_VERSION_STRING "0.1.0"

/* ---------------------------------------------------------------------------
 * Status families
 * ------------------------------------------------------------------------ */

/** The status families. Each one tells an operator what to do next.
 * The numbers are frozen; they are also the `codec` command's exit codes
 * for the first four (see docs/guides/cli.md; `codec redis get` exits 5
 * for CODEC_E_NOT_FOUND). */
typedef enum codec_status {
    CODEC_OK = 0,
    /** The bytes are corrupt, truncated, tampered or over a limit: quarantine. */
    CODEC_E_INVALID_PAYLOAD = 1,
    /** The API was misused or a configuration/spec is malformed: fix the call. */
    CODEC_E_USAGE = 2,
    /** A newer version, algorithm or format than this build knows: route on. */
    CODEC_E_UNSUPPORTED = 3,
    /** A key provider or resource failed for now: retry or alert. */
    CODEC_E_TRANSIENT = 4,
    /** The value or configuration cannot be encoded: fix the value. */
    CODEC_E_INVALID_VALUE = 5,
    /** An allocation failed. */
    CODEC_E_NOMEM = 6,
    /** What was asked for does not exist (a Redis key): not a failure of
     * the bytes, the value or the connection. Since 0.1. */
    CODEC_E_NOT_FOUND = 7
} codec_status;

/** Detail codes refine a family. Codes below 100 are stable; new ones may be
 * added. 0 means "no more detail than the family". */
typedef enum codec_detail {
    CODEC_D_NONE = 0,
    CODEC_D_TRUNCATED = 1,        /* input ended early */
    CODEC_D_CORRUPT = 2,          /* bytes violate the format */
    CODEC_D_CHECKSUM = 3,         /* checksum or tag mismatch */
    CODEC_D_LIMIT = 4,            /* a size, depth or count limit was hit */
    CODEC_D_BAD_MAGIC = 5,        /* not the expected format */
    CODEC_D_VERSION = 6,          /* unknown format version */
    CODEC_D_DECRYPT = 7,          /* "unable to decrypt" (deliberately vague) */
    CODEC_D_TRAILING = 8,         /* bytes left after a complete value */
    CODEC_D_SPEC = 20,            /* malformed pipeline spec */
    CODEC_D_UNKNOWN_STAGE = 21,   /* no stage of that name */
    CODEC_D_BAD_ARGUMENT = 22,    /* a stage argument is out of range */
    CODEC_D_IO = 30               /* a file or device could not be read */
} codec_detail;

/** Sentinel for codec_error.offset when no byte offset applies. */
#define CODEC_NO_OFFSET ((uint64_t)-1)

/** A filled-in report of one failure. Plain data: copy it, keep it, print it.
 * `stage` names the stage that failed ("zstd", "base64", "json", "spec"),
 * `offset` is the byte offset in that stage's input (CODEC_NO_OFFSET when
 * unknown), `message` is one line without a trailing newline. */
typedef struct codec_error {
    int family;             /* a codec_status other than CODEC_OK */
    int detail;             /* a codec_detail */
    uint64_t offset;        /* byte offset in the failing stage's input */
    char stage[32];
    char message[192];
} codec_error;

/** codec_status_name() — "ok", "invalid payload", "usage", ...
 * @return a static string; never NULL (unknown codes give "unknown"). */
CODEC_API const char *codec_status_name(int status);

/** codec_error_set() — fills `err` (if not NULL) and returns `family`, so a
 * failing function can `return codec_error_set(err, ...)` in one line.
 * `fmt` is printf-style; the message is truncated to fit. `stage` may be NULL. */
CODEC_API int codec_error_set(codec_error *err, int family, int detail,
                              const char *stage, uint64_t offset,
                              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/** codec_error_format() — writes "<stage>: <message> (offset N)" into dst
 * (the offset part only when known). Always NUL-terminates when dst_cap > 0.
 * @return dst. */
CODEC_API char *codec_error_format(const codec_error *err, char *dst, size_t dst_cap);

/* ---------------------------------------------------------------------------
 * Allocator hooks
 * ------------------------------------------------------------------------ */

/** Where codec gets memory. Pass NULL anywhere an allocator is taken to use
 * libc. `resize` receives the old size (0 for a new block) and must behave
 * like realloc; `release` receives the block's size. All three get `ctx`. */
typedef struct codec_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void *(*resize)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*release)(void *ctx, void *ptr, size_t size);
    void *ctx;
} codec_allocator;

/** codec_default_allocator() — the libc allocator. Never NULL. */
CODEC_API const codec_allocator *codec_default_allocator(void);

/* ---------------------------------------------------------------------------
 * Output buffer
 * ------------------------------------------------------------------------ */

/** A growable byte buffer owned by the caller. Encoders append to it.
 * Reuse one across calls: once it (and its spare) have grown to the largest
 * output, encoding allocates nothing. Zero-initialised is NOT valid: use
 * codec_buf_init(). Not thread-safe; give each thread its own. */
typedef struct codec_buf {
    uint8_t *data;                 /* the bytes; data[0..len) are valid */
    size_t len;
    size_t cap;
    const codec_allocator *alloc;  /* never NULL after init */
    struct codec_buf *spare;       /* scratch for multi-stage pipelines; internal */
} codec_buf;

/** codec_buf_init() — an empty buffer that allocates through `alloc`
 * (NULL = libc). Allocates nothing yet. */
CODEC_API void codec_buf_init(codec_buf *buf, const codec_allocator *alloc);

/** codec_buf_reserve() — makes room for `extra` more bytes past `len`; after
 * success `data` is never NULL (even for extra = 0).
 * @return 0, or CODEC_E_NOMEM (the buffer is unchanged). */
CODEC_API int codec_buf_reserve(codec_buf *buf, size_t extra);

/** codec_buf_append() — appends n bytes. @return 0 or CODEC_E_NOMEM. */
CODEC_API int codec_buf_append(codec_buf *buf, const void *src, size_t n);

/** codec_buf_clear() — sets len to 0, keeping the memory for reuse. */
CODEC_API void codec_buf_clear(codec_buf *buf);

/** codec_buf_free() — releases the memory (and the spare); the buffer is
 * left empty and may be reused. NULL is allowed. */
CODEC_API void codec_buf_free(codec_buf *buf);

/* ---------------------------------------------------------------------------
 * Arena
 * ------------------------------------------------------------------------ */

/** A bump allocator for decoded values and decode scratch. Decoders put
 * strings, lists, maps and intermediate bytes here; nothing is freed one by
 * one. codec_arena_reset() makes all of it reusable while keeping the
 * memory, so steady-state decoding allocates nothing.
 * Not thread-safe; give each thread its own. Treat the fields as private. */
typedef struct codec_arena {
    struct codec_arena_block *head;  /* current block */
    struct codec_arena_block *free;  /* blocks kept by reset */
    const codec_allocator *alloc;
    size_t block_size;               /* size of the next block to make */
    size_t used;                     /* bytes handed out since the last reset */
    codec_allocator as_allocator;    /* see codec_arena_allocator() */
} codec_arena;

/** codec_arena_init() — an empty arena; the first allocation makes a block
 * of at least `first_block` bytes (0 = 4 KiB). `alloc` NULL = libc. */
CODEC_API void codec_arena_init(codec_arena *arena, const codec_allocator *alloc,
                                size_t first_block);

/** codec_arena_alloc() — `size` bytes aligned to `align` (a power of two, at
 * most 64; 0 means 16). Memory lives until reset or free. In a build with
 * AddressSanitizer, bytes no allocation holds (padding, the rest of a
 * block, everything after a reset) are poisoned, so reading or writing past
 * an arena allocation is reported as for malloc'ed memory.
 * @return the memory, or NULL when out of memory (or size overflows). */
CODEC_API void *codec_arena_alloc(codec_arena *arena, size_t size, size_t align);

/** codec_arena_reset() — forgets every allocation, keeps the blocks. */
CODEC_API void codec_arena_reset(codec_arena *arena);

/** codec_arena_free() — releases every block. NULL is allowed. */
CODEC_API void codec_arena_free(codec_arena *arena);

/** codec_arena_allocator() — an allocator view of the arena, so a codec_buf
 * can grow inside it (resize of the latest allocation extends in place;
 * release is a no-op). Valid as long as the arena. */
CODEC_API const codec_allocator *codec_arena_allocator(codec_arena *arena);

/** codec_arena_used() — bytes handed out since the last reset. */
CODEC_API size_t codec_arena_used(const codec_arena *arena);

/* ---------------------------------------------------------------------------
 * CPU features
 * ------------------------------------------------------------------------ */

/** CPU features that codec's kernels use (bit flags). */
enum codec_cpu_feature {
    CODEC_CPU_SSE42 = 1u << 0,
    CODEC_CPU_PCLMUL = 1u << 1,
    CODEC_CPU_AVX2 = 1u << 2,
    CODEC_CPU_BMI2 = 1u << 3,
    CODEC_CPU_AVX512 = 1u << 4,      /* F + BW + VL, with OS support for ZMM state */
    CODEC_CPU_AVX512VBMI = 1u << 5,
    CODEC_CPU_VPCLMULQDQ = 1u << 6
};

/** codec_cpu_features() — the features this CPU and OS support, detected once
 * (thread-safe), masked by the environment variable CODEC_CPU_MASK if set
 * (a number, e.g. CODEC_CPU_MASK=0 forces every scalar path).
 * Kernels are chosen when a codec is built and kept in its handle. */
CODEC_API unsigned codec_cpu_features(void);

/** codec_cpu_feature_names() — writes a space-separated list of the names of
 * the bits in `features` ("sse4.2 pclmul avx2 ..."). @return dst. */
CODEC_API char *codec_cpu_feature_names(unsigned features, char *dst, size_t dst_cap);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_CORE_H */
