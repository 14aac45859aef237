/* text_internal.h — what the text encodings (base64, base32, hex) share:
 * kernel selection, the decode-tail rules, the per-alphabet tables and the
 * signatures of the per-ISA bulk kernels.
 *
 * Every kernel is a bulk loop over whole blocks with no per-byte branches.
 * Encode kernels consume a multiple of their input block and return how
 * many bytes they consumed; the scalar code finishes the tail. Decode
 * kernels stop at the first block holding anything but alphabet symbols
 * (padding included) and return how many characters they consumed; the
 * scalar decoder then resumes at that block and reports the exact error, so
 * every kernel yields the same bytes, the same error family and the same
 * offset. Kernels never read past src[n-1] nor write past the output size
 * the stage reserved: the AVX-512 ones finish with masked loads and stores,
 * the AVX2 ones stop where a full block would cross the end.
 */
#ifndef CODEC_TEXT_INTERNAL_H
#define CODEC_TEXT_INTERNAL_H

#include "compose/stage_internal.h"
#include "core/cpu_internal.h"

/** An instruction-set tier, in order of preference. */
typedef enum text_isa {
    TEXT_ISA_SCALAR = 0,
    TEXT_ISA_AVX2 = 1,
    TEXT_ISA_AVX512 = 2  /* AVX-512 F/BW/VL + VBMI (vpermb, vpermi2b, vpmultishiftqb) */
} text_isa;

#define TEXT_ISA_BIT(isa) (1u << (isa))

/** Reads `kernel=auto|scalar|avx2|avx512`. `built` is the set of tiers the
 * stage has kernels for (TEXT_ISA_BIT()s; scalar is implied). auto picks the
 * best tier that is both built and supported by this CPU; naming a tier the
 * stage lacks or the CPU cannot run is CODEC_E_USAGE. */
int codec__text_args_kernel(codec_args *a, unsigned built, text_isa *out, codec_error *err);

/** Derives the 128-entry table of the vpermi2b decoders from a scalar
 * decode table (value, or 0xFF for a non-symbol): ASCII values are kept,
 * non-symbols become 0x80 so one sign test finds them. */
void codec__text_build_decode128(uint8_t table[128], const uint8_t dec[256]);

/* ---- line layout (lines.c) ------------------------------------------- */

/** What a stage's text looks like, for wrapping and streaming. */
typedef struct text_layout {
    size_t group_bytes;          /* input bytes of one group (base64: 3) */
    size_t group_chars;          /* its characters (base64: 4) */
    bool padded;                 /* '=' ends the last group */
    size_t line_chars;           /* fixed lines (base64:mime: 76), or 0 */
    const char *line_separator;  /* between fixed lines ("\r\n") */
} text_layout;

typedef struct text_lines {
    size_t wrap;                 /* wrap=N: LF after every N characters; 0: none */
    bool skip;                   /* lines=skip: CR and LF are dropped on decode */
    text_layout shape;
} text_lines;

/** Reads `wrap=N` and `lines=strict|skip` (default skip when wrapped). */
int codec__text_args_lines(codec_args *a, const text_layout *shape, text_lines *out,
                    codec_error *err);
/** Breaks the text out[base..len) into lines of l->wrap characters, each
 * ending with LF (none when wrap is 0 or the text is empty). */
int codec__text_wrap(const codec_stage *s, const text_lines *l, codec_buf *out, size_t base,
              codec_error *err);

typedef int (*text_decode_fn)(const codec_stage *s, const uint8_t *src, size_t n,
                              codec_buf *out, codec_error *err);
/** Runs `decode` on src without its CR and LF bytes (error offsets count
 * the text without them). */
int codec__text_decode_skipping(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                         text_decode_fn decode, codec_error *err);

struct codec__sstream;
/** The stream of a text stage: its one-shot code on whole groups (and
 * whole lines). */
int codec__text_stream_open(const codec_stage *s, const text_lines *l, bool decode,
                     struct codec__sstream **out, codec_error *err);

/* ---- decode tails (base64 and base32) ------------------------------- */

/** A group code: `group` symbols carry group*bits bits (base64: 4 symbols,
 * base32: 8), the last group may be short and, when `padded`, is filled
 * with '=' to a whole group. */
typedef struct text_code {
    const uint8_t *dec;     /* 256 entries: symbol value, or 0xFF */
    size_t group;
    bool padded;
} text_code;

/** Fails for byte `c` at `off` that is not a symbol ('=' is "misplaced
 * padding"). */
int codec__text_bad_symbol(const codec_stage *s, uint64_t off, uint8_t c, codec_error *err);

/** After the bulk decoded the whole groups src[0..p), decides what is left:
 * *tail is the length of the last group to decode at p (0: none). Fails on
 * a non-symbol, padding in a group that is not the last, or a padded input
 * whose length is not a multiple of the group. */
int codec__text_find_last_group(const codec_stage *s, const text_code *code, const uint8_t *src,
                                size_t n, size_t p, size_t *tail, codec_error *err);

/** Splits the last group q[0..len) (off[j] = input offset of q[j]) into its
 * symbols and its padding, and sets *syms. Fails on a non-symbol, a symbol
 * after '=', '=' in an unpadded code, or '=' after fewer than 2 symbols. */
int codec__text_last_group_symbols(const codec_stage *s, const text_code *code, const uint8_t *q,
                                   const size_t *off, size_t len, size_t *syms, codec_error *err);

/* ---- base64 ---------------------------------------------------------- */

/** Per-alphabet data for the base64 kernels (built once in the stage state). */
typedef struct b64_tables {
    char alphabet[65];      /* 64 symbols + NUL */
    uint8_t dec[256];       /* symbol value, or 0xFF */
    uint16_t enc12[4096];   /* two symbols for every 12-bit value (scalar encode) */
    uint32_t dec24[4][256]; /* value of a symbol at position k of a quantum, placed in
                               the 24-bit group; bit 31 for a non-symbol (scalar decode) */
    uint8_t dec128[128];    /* codec__text_build_decode128() of the alphabet */
    /* AVX2 decode: a character c is a symbol iff
     * class_hi[c >> 4] & class_lo[c & 15] != 0 (each bit is one set of low
     * nibbles shared by some high nibbles); its value is c + offset[c >> 4],
     * except for the symbols 62 and 63, which are compared for directly. */
    uint8_t class_hi[16], class_lo[16];
    int8_t offset[16];
} b64_tables;

/* Encode: consumes whole 3-byte groups from src[0..n), writes 4 chars per
 * group at dst. Decode: consumes whole 4-char quanta of alphabet symbols. */
typedef size_t (*b64_encode_fn)(const b64_tables *t, const uint8_t *src, size_t n,
                                uint8_t *dst);
typedef size_t (*b64_decode_fn)(const b64_tables *t, const uint8_t *src, size_t n,
                                uint8_t *dst);

size_t codec__b64_encode_avx2(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__b64_decode_avx2(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__b64_encode_avx512(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__b64_decode_avx512(const b64_tables *t, const uint8_t *src, size_t n, uint8_t *dst);

/* ---- base32 ---------------------------------------------------------- */

typedef struct b32_tables {
    char alphabet[33];
    uint8_t dec[256];       /* symbol value, or 0xFF (aliases included) */
    uint16_t enc10[1024];   /* two symbols for every 10-bit value */
    uint64_t dec40[8][256]; /* value of a symbol at position k of a group, placed in
                               the 40-bit group; bit 63 for a non-symbol (scalar decode) */
    uint8_t dec128[128];    /* dec[] restricted to ASCII, 0x80 for invalid */
} b32_tables;

/* Encode: whole 5-byte groups -> 8 chars. Decode: whole 8-char groups. */
typedef size_t (*b32_fn)(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst);

size_t codec__b32_encode_avx512(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__b32_decode_avx512(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__b32_encode_avx2(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__b32_decode_avx2(const b32_tables *t, const uint8_t *src, size_t n, uint8_t *dst);

/* ---- hex ------------------------------------------------------------- */

/* Encode: bytes -> 2 chars each, in the case of `digits` ("0123..."). Decode:
 * whole pairs of hex digits (either case) -> bytes. */
typedef size_t (*hex_encode_fn)(const char *digits, const uint8_t *src, size_t n,
                                uint8_t *dst);
typedef size_t (*hex_decode_fn)(const uint8_t *src, size_t n, uint8_t *dst);

size_t codec__hex_encode_avx2(const char *digits, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__hex_decode_avx2(const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__hex_encode_avx512(const char *digits, const uint8_t *src, size_t n, uint8_t *dst);
size_t codec__hex_decode_avx512(const uint8_t *src, size_t n, uint8_t *dst);

#endif /* CODEC_TEXT_INTERNAL_H */
