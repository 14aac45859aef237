/* decode.c — the fast way from JSON text into a C value: one recursive
 * descent per descriptor kind with the cursor in a register, no tokens.
 *
 * It accepts only documents the reference walker (bind.c over reader.c)
 * accepts and produces the same value. Anything unusual in the input — an
 * escape in a key, a grammar or type error, a limit — makes it give up; the
 * caller then decodes again with the reference walker, which reports the
 * exact error and offset. So the error paths exist once, in one place.
 * codec_value (schemaless) has a descent of its own (any_container) on a
 * value stack, each container copied once into an array of its size, with
 * a memo of objects' keys (the shape memo; docs/formats/json.md,
 * "Schemaless decode"). Rare kinds
 * (xmap, bytes, UUID, dates, decimals, maps with non-string keys, structs
 * of more than 64 fields) are handed to that walker
 * for their value only, at the same nesting depth. The validator at the end
 * is the same descent without values; it also skips the values of unknown
 * members (it accepts what the reader's skip accepts: grammar, depth,
 * strings' escapes, UTF-8 and max-string). A skipped array or object (and
 * the validator's whole document) goes first to the container skipper
 * kernel when the CPU has one (codec__json_container_skipper(): CODEC_CPU_FOR_AVX512,
 * x86/skip_avx512.c, chosen once at run time like the string scanner;
 * CODEC_CPU_MASK=0 forces the walk) and when max-string is at least
 * JSON_SKIP_MIN_MAX_STRING (the kernel measures only strings that cross
 * its 64-byte blocks, by their raw length); whenever the kernel is unsure it returns
 * NULL and the byte walk below decides, never the kernel again inside that
 * value. Keys that are not the next declared field are remembered per
 * place (key_memo: the last two keys that followed a field, or an unknown
 * key, of a struct type, and what they named), so a repeated layout finds
 * unknown and out-of-order keys by one compare of their bytes; scalars of
 * unknown members are skipped in place; white-space runs go 16 bytes at a
 * time (docs/formats/json.md measures each). */
#include "formats/json/json_scan_internal.h"
#include "core/cpu_internal.h"
#include "core/load_internal.h"
#include "types/index_internal.h"
#include "core/number_internal.h"

#include <stddef.h>
#include <string.h>

/* The key that followed one member of a struct last time in this
 * document, and what it named. Documents repeat their objects' layouts,
 * so a key that is not the next declared field (an unknown member, a
 * field out of order) is usually the same bytes as the one seen at that
 * place before: comparing them replaces the scan, hash and lookup. */
typedef struct key_memo {
    const codec_type *t;    /* NULL: empty */
    const uint8_t *key;     /* in the input, between its quotes: plain (no escape) */
    uint32_t len;
    uint16_t after;         /* the place (see struct_value) */
    int16_t field;          /* index in t->fields, or -1 when unknown */
} key_memo;

#define KEY_MEMO_BITS 7   /* 128 entries, 64 sets of two */

/* An object's members remembered for the keys of the next objects like it
 * (see shape_slot). */
typedef struct shape {
    const codec_member *members;   /* keys plain and unique */
    size_t count;                  /* 0: empty */
    uint32_t depth;
} shape;

#define SHAPE_BITS 6   /* 64 slots: shapes_valid has a bit for each */
#define NO_SHAPE (1u << SHAPE_BITS)
#define SHAPE_SKIP 4   /* a key is looked for among the shape's next 4 */
#define SHAPE_SURE 0x80u   /* in fast.shape_at: the shape guess is tried (shape_guess) */

typedef struct fast {
    const uint8_t *base, *end;
    const codec_json_options *o;
    codec_arena *arena;
    codec_error *err;
    codec_text_pool text;   /* arena bytes taken for the strings to come */
    json_scan_fn scan;      /* codec__json_long_scanner() */
    json_copy_fn copy;      /* codec__json_string_copier() */
    json_skip_fn
        skip; /* codec__json_container_skipper(), NULL when max_string is too small for it */
    bool plain_names;       /* codec__json_type_names_plain(): names match in place */
    bool nomem;             /* gave up for lack of memory: no second pass */
    bool reader_ready;      /* `r` is initialised (on first hand-over) */
    bool memo_ready;        /* `memo` is cleared (on first lookup by hash) */
    uint64_t memo_older;    /* bit s: the entry of memo set s to fill next */
    uint64_t shapes_valid;  /* bit i: shapes[i] holds a shape */
    uint8_t shape_at[64];   /* per depth (mod 64): the last shape's slot there, | SHAPE_SURE */
    uint8_t *vals;          /* the value stack of codec_values (see vals_push) */
    uint64_t vals_local[128];   /* its first 1 KiB */
    size_t vals_top, vals_cap;
    uint8_t *nodes, *nodes_end;   /* arena bytes taken for the arrays to come */
    codec_json_reader r;    /* for the values handed to the reference walker */
    key_memo memo[1u << KEY_MEMO_BITS];
    shape shapes[1u << SHAPE_BITS];
} fast;

/* Gives up; the reference walker decides. */
#define GIVE_UP NULL

static const uint8_t *out_of_memory(fast *f)
{
    f->nomem = true;
    return GIVE_UP;
}

/* One space (after a ':' when pretty-printed) is a compare; other runs
 * (a newline and indentation) go 16 bytes at a time, the first byte that
 * is not white space ending the run; the last 15 bytes one by one. */
static inline const uint8_t *skip_ws(const uint8_t *p, const uint8_t *end)
{
    if (end - p >= 2 && p[1] > ' ' && p[0] == ' ')
        return p + 1;
#if CODEC_SSE2
    for (; end - p >= 16; p += 16) {
        unsigned other = ~json_space16(p) & 0xFFFF;
        if (other)
            return p + __builtin_ctz(other);
    }
#endif
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* White space is rare in machine-written JSON: one compare when there is none. */
#define WS(p, end) ((p) < (end) && *(p) <= ' ' ? skip_ws((p), (end)) : (p))

/* The white space after a ',' in a container where the one after the
 * previous ',' was *run (< 16) bytes long. Pretty-printed items repeat
 * their indentation, so that length is checked (a branch the CPU
 * predicts) instead of measured (arithmetic on the loaded bytes, which
 * the next item's loads would wait for). Updates *run. */
static inline __attribute__((always_inline)) const uint8_t *ws_again(const uint8_t *p, const uint8_t *end, unsigned *run)
{
#if CODEC_SSE2
    if (*run && end - p >= 16) {
        unsigned want = (1u << *run) - 1;
        if ((json_space16(p) & (want << 1 | 1)) == want)
            return p + *run;
    }
#endif
    const uint8_t *q = WS(p, end);
    *run = q - p < 16 ? (unsigned)(q - p) : 0;
    return q;
}

/* The kernels for this CPU, chosen once (racing threads store the same
 * pointers). */
static struct {
    int chosen;
    json_scan_fn scan;
    json_copy_fn copy;
    json_skip_fn skip;
} kernels;

static void choose_kernels(void)
{
    if (__atomic_load_n(&kernels.chosen, __ATOMIC_ACQUIRE))
        return;
#if CODEC_X86_KERNELS
    json_scan_fn scan = codec_cpu_has(CODEC_CPU_FOR_AVX2) ? codec__json_scan_string_avx2 : NULL;
    json_skip_fn skip = codec_cpu_has(CODEC_CPU_FOR_AVX512) ? codec__json_skip_avx512 : NULL;
    if (scan)
        __atomic_store_n(&kernels.copy, codec__json_copy_string_avx2, __ATOMIC_RELAXED);
    __atomic_store_n(&kernels.scan, scan, __ATOMIC_RELAXED);
    __atomic_store_n(&kernels.skip, skip, __ATOMIC_RELAXED);
#endif
    __atomic_store_n(&kernels.chosen, 1, __ATOMIC_RELEASE);
}

json_scan_fn codec__json_long_scanner(void)
{
    choose_kernels();
    return __atomic_load_n(&kernels.scan, __ATOMIC_RELAXED);
}

json_copy_fn codec__json_string_copier(void)
{
    choose_kernels();
    json_copy_fn copy = __atomic_load_n(&kernels.copy, __ATOMIC_RELAXED);
    return copy ? copy : codec__json_copy_string;
}

json_skip_fn codec__json_container_skipper(void)
{
    choose_kernels();
    return __atomic_load_n(&kernels.skip, __ATOMIC_RELAXED);
}

/* The closing quote of the string whose body starts at p, or NULL for
 * anything else (the reader then finds what). */
static inline const uint8_t *string_end(const uint8_t *p, const uint8_t *end, bool *escaped,
                                        json_scan_fn scan)
{
    const uint8_t *s = p;
#if CODEC_SSE2
    /* Most keys and values end within 32 bytes, with no escape and no
     * non-ASCII byte: those are found here without the call. The others
     * are scanned on from where this stopped (plain ASCII before it). */
    for (; s < p + 32 && end - s >= 16; s += 16) {
        unsigned m = json_special16(s);
        if (m) {
            s += __builtin_ctz(m);
            if (*s == '"')
                return s;
            break;
        }
    }
#endif
    const uint8_t *q = json_string_scan(s, end, escaped, scan);
    return q && q < end && *q == '"' ? q : NULL;
}

/* n bytes for string text, from the text pool (bounded by the rest of the
 * input: decoded text is never longer than its JSON form). */
static inline char *string_room(fast *f, size_t n, const uint8_t *at)
{
    return codec_text_pool_take(&f->text, f->arena, (size_t)(f->end - at), n);
}

/* The body start[0..raw) of a string with escapes, unescaped into the arena. */
static const uint8_t *escaped_string(fast *f, const uint8_t *start, size_t raw,
                                     codec_string *out)
{
    uint8_t *dst = (uint8_t *)string_room(f, raw, start);
    if (!dst)
        return out_of_memory(f);
    const uint8_t *bad;
    size_t len = codec__json_unescape(start, raw, dst, &bad);
    if (len == (size_t)-1 || len > f->o->max_string)
        return GIVE_UP;
    f->text.p = (char *)dst + len;   /* the unused tail goes back */
    *out = (codec_string){(const char *)dst, len};
    return start + raw + 1;
}

#if CODEC_SSE2
/* A string whose body start[0..q-start) is in the pool at room, from the
 * escape at q on: escapes are decoded in place and the text between them
 * goes through f->copy, as far as the pool's room goes (nothing is taken
 * from it before the end). The byte after the closing quote; GIVE_UP; or
 * start when it stopped short (the caller then scans and unescapes the
 * string from its start). */
static __attribute__((noinline)) const uint8_t *
escaped_copy(fast *f, const uint8_t *start, const uint8_t *q, char *room,
                                   codec_string *out)
{
    const uint8_t *end = f->end;
    uint8_t *d = (uint8_t *)room + (q - start);
    for (;;) {
        while (*q == '\\') {
            size_t n;
            if (f->text.end - (char *)d < 4)
                return start;
            size_t k = codec__json_unescape_one(q, end, d, &n);
            if (!k || (q += k) == end)
                return GIVE_UP;
            d += n;
        }
        if (*q == '"')
            break;
        if (*q < 0x20)
            return GIVE_UP;
        const uint8_t *r = f->copy(q, end, d, (const uint8_t *)f->text.end);
        if (!r)
            return GIVE_UP;
        d += r - q;
        q = r;
        if (q == end || (*q != '"' && *q != '\\'))
            return start;   /* short of input or room, or a control byte */
        if (*q == '"')
            break;
    }
    size_t len = (size_t)(d - (uint8_t *)room);
    if (len > f->o->max_string)
        return GIVE_UP;
    f->text.p = room + len;
    *out = (codec_string){room, len};
    return q + 1;
}
#endif

/* The rest of string_value, out of line: a string the inline copy did not
 * finish, from where it stopped (plain ASCII before, in the pool at room
 * unless room is NULL). Non-ASCII text and longer strings go to the
 * copier, which checks their UTF-8 and copies them in the same pass, and
 * escapes are decoded in place (escaped_copy), as far as the pool's room
 * goes; what is left (a string longer than the room, one near the end of
 * the input) is scanned on from where they stopped, then copied. */
static __attribute__((noinline)) const uint8_t *
long_string(fast *f, const uint8_t *start, const uint8_t *from, char *room, codec_string *out)
{
#if CODEC_SSE2
    /* (from and what the copier returns may be the end of the input.) */
    if (room && from < f->end && (*from >= 0x80 || from == start + 64)) {
        const uint8_t *q = f->copy(from, f->end, (uint8_t *)room + (from - start),
                                   (const uint8_t *)f->text.end);
        if (!q)
            return GIVE_UP;
        from = q;
        if (q < f->end && *q == '"') {
            size_t n = (size_t)(q - start);
            if (n > f->o->max_string)
                return GIVE_UP;
            f->text.p = room + n;
            *out = (codec_string){room, n};
            return q + 1;
        }
    }
    if (room && from < f->end && *from == '\\') {
        const uint8_t *q = escaped_copy(f, start, from, room, out);
        if (q != start)
            return q;
    }
#else
    (void)room;
#endif
    bool escaped = false;
    const uint8_t *q = string_end(from, f->end, &escaped, f->scan);
    if (!q)
        return GIVE_UP;
    size_t raw = (size_t)(q - start);
    if (escaped)
        return escaped_string(f, start, raw, out);
    if (raw > f->o->max_string)
        return GIVE_UP;
    if (!raw) {
        *out = (codec_string){(const char *)start, 0};
        return q + 1;
    }
    char *dst = string_room(f, raw, start);
    if (!dst)
        return out_of_memory(f);
    json_copy_short(dst, start, raw);
    *out = (codec_string){dst, raw};
    return q + 1;
}

/* A string value at p (its opening quote) into *out, in the arena. */
static inline __attribute__((always_inline)) const uint8_t *
string_value(fast *f, const uint8_t *p, codec_string *out)
{
    const uint8_t *start = p + 1, *from = start;
    char *room = NULL;
#if CODEC_SSE2
    /* A plain string of fewer than 64 bytes (most are) is copied into the
     * pool while it is scanned: each 16-byte block is stored as it is
     * classified (bytes past the quote land in room nobody has taken). */
    if (f->text.end - f->text.p >= 64 && f->end - start >= 64) {
        room = f->text.p;
        from = start + 64;
        for (unsigned i = 0; i < 64; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(start + i));
            unsigned m = json_special16v(x);
            _mm_storeu_si128((__m128i *)(room + i), x);
            if (m) {
                size_t raw = i + (unsigned)__builtin_ctz(m);
                from = start + raw;
                if (start[raw] != '"')
                    break;
                if (raw > f->o->max_string)
                    return GIVE_UP;
                f->text.p = room + raw;
                *out = (codec_string){room, raw};
                return start + raw + 1;
            }
        }
    }
#endif
    return long_string(f, start, from, room, out);
}

/* Hands the value at p, at nesting depth `depth`, to the reference walker. */
static const uint8_t *by_reference(fast *f, const codec_type *t, void *v, const uint8_t *p,
                                   uint32_t depth)
{
    if (!f->reader_ready) {
        codec_json_reader_init(&f->r, f->base, (size_t)(f->end - f->base), f->arena, f->o);
        f->reader_ready = true;
    }
    codec__json_reader_seek(&f->r, p, depth);
    int rc = codec__json_decode_one(&f->r, t, v, f->o, f->arena, f->err);
    if (rc == CODEC_E_NOMEM)
        return out_of_memory(f);
    return rc ? GIVE_UP : f->r.p;
}

/* ---------------------------------------------------------------------------
 * Numbers
 * ------------------------------------------------------------------------ */

/* The value of the first n (1..8) digits of x, pairs then quads at once. */
static inline uint64_t digits_value8(uint64_t x, unsigned n)
{
    x = (x & 0x0F0F0F0F0F0F0F0Fu) << (8 * (8 - n));   /* leading zeros in front */
    x = (x * 10 + (x >> 8)) & 0x00FF00FF00FF00FFu;
    x = (x * 100 + (x >> 16)) & 0x0000FFFF0000FFFFu;
    return (x * 10000 + (x >> 32)) & 0xFFFFFFFFu;
}

/* An integer in JSON grammar at p: magnitude and sign. NULL when it is not
 * an integer (fraction, exponent) or does not fit 64 bits. */
static inline const uint8_t *integer(const uint8_t *p, const uint8_t *end, uint64_t *mag,
                                     bool *neg)
{
    *neg = *p == '-';
    p += *neg;
    if (p == end)
        return NULL;
    uint64_t m = 0;
    if (end - p >= 8) {
        uint64_t x = codec_load_le64(p);
        unsigned n = json_leading_digits8(x);
        if (n == 0 || (*p == '0' && n > 1))
            return NULL;
        if (n < 8) {
            p += n;
            m = digits_value8(x, n);
            goto done;
        }
    }
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        const uint8_t *digits = p;
        while (p < end && (unsigned)(*p - '0') < 10) {
            m = m * 10 + (unsigned)(*p - '0');
            p++;
        }
        /* Up to 19 digits cannot overflow; 20 may. */
        if (p - digits > 19) {
            if (p - digits > 20 || digits[0] > '1')
                return NULL;
            if (m < 10000000000000000000u)  /* wrapped */
                return NULL;
        }
    } else {
        return NULL;
    }
done:
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return NULL;
    *mag = m;
    return p;
}

static inline const uint8_t *int_value(const codec_type *t, void *v, const uint8_t *p,
                                const uint8_t *end)
{
    uint64_t m;
    bool neg;
    if (!(p = integer(p, end, &m, &neg)))
        return GIVE_UP;
    int bad;
    if (neg) {
        if (m > (uint64_t)INT64_MAX + 1)
            return GIVE_UP;
        int64_t i = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
        bad = codec_int_store(t->kind, v, i);
    } else {
        switch (t->kind) {
        case CODEC_T_INT32:
            if (m > INT32_MAX)
                return GIVE_UP;
            *(int32_t *)v = (int32_t)m;
            return p;
        case CODEC_T_INT64:
            if (m > INT64_MAX)
                return GIVE_UP;
            *(int64_t *)v = (int64_t)m;
            return p;
        default:
            bad = codec_uint_store(t->kind, v, m);
        }
    }
    return bad ? GIVE_UP : p;
}

/* A number in JSON grammar, read once: its digits as an integer m (exact
 * when digits <= 19), the power of ten they are scaled by, and whether it
 * was written as an integer (no fraction, no exponent). */
typedef struct decimal {
    uint64_t m;
    ptrdiff_t digits, e10;
    bool neg, plain;
} decimal;

/* The run of digits at p appended to *m (m * 10^k + the run, wrapping
 * past 2^64 as a digit at a time would: the caller counts digits), eight
 * at a time; the byte after the run. canada.json's 17-digit coordinates
 * were 38 % of its schemaless decode read a digit at a time. */
static inline const uint8_t *digit_run(const uint8_t *p, const uint8_t *end, uint64_t *m)
{
    static const uint64_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                    100000000};
    uint64_t v = *m;
    while (end - p >= 8) {
        uint64_t x = codec_load_le64(p);
        unsigned n = json_leading_digits8(x);
        if (n == 0)
            break;
        v = v * p10[n] + digits_value8(x, n);
        p += n;
        if (n < 8) {
            *m = v;
            return p;
        }
    }
    while (p < end && (unsigned)(*p - '0') < 10)
        v = v * 10 + (unsigned)(*p++ - '0');
    *m = v;
    return p;
}

#if CODEC_SSE2
/* The run of digits at p when it is 1 to 15 long, its value in *v; 0 or
 * 16 otherwise (*v unset). Reads the 16 bytes at p and the 16 bytes that
 * end with the run (p - 15 and p + 15 must be inside the input): those
 * are the run right-aligned, the bytes before it masked to zero, and are
 * combined in pairs, quads and eights with SSE2 multiply-adds (no digit
 * at a time, no length-dependent shift): canada.json's 15-digit fractions
 * took two 8-byte steps of digit_run(). */
static inline unsigned digits16(const uint8_t *p, uint64_t *v)
{
    static const uint8_t tail[32] = {0,    0,    0,    0,    0,    0,    0,    0,
                                     0,    0,    0,    0,    0,    0,    0,    0,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const __m128i zero = _mm_set1_epi8('0');
    __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), zero);
    /* d < 10 unsigned: a digit */
    __m128i digit = _mm_cmplt_epi8(_mm_xor_si128(d, _mm_set1_epi8((char)0x80)),
                                   _mm_set1_epi8((char)(0x80 + 10)));
    unsigned n = (unsigned)__builtin_ctz(~(unsigned)_mm_movemask_epi8(digit));
    if (n == 0 || n == 16)
        return n;
    __m128i y = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + n - 16)), zero);
    y = _mm_and_si128(y, _mm_loadu_si128((const __m128i *)(const void *)(tail + n)));
    __m128i z = _mm_setzero_si128();
    __m128i m10 = _mm_setr_epi16(10, 1, 10, 1, 10, 1, 10, 1);
    __m128i two = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(y, z), m10),
                                  _mm_madd_epi16(_mm_unpackhi_epi8(y, z), m10));
    __m128i four = _mm_madd_epi16(two, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
    __m128i eight = _mm_madd_epi16(_mm_packs_epi32(four, four),
                                   _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
    uint64_t hi = (uint32_t)_mm_cvtsi128_si32(eight);
    uint64_t lo = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(eight, 4));
    *v = hi * 100000000u + lo;
    return n;
}
#endif

/* The number at p into *d; the byte after it, or NULL outside the grammar. */
static inline const uint8_t *decimal_scan(const uint8_t *p, const uint8_t *end, decimal *d)
{
    d->neg = *p == '-';
    p += d->neg;
    if (p == end)
        return NULL;
    uint64_t m = 0;
    ptrdiff_t digits = 0, e10 = 0;
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        const uint8_t *d0 = p;
        p = digit_run(p, end, &m);
        digits = p - d0;
    } else {
        return NULL;
    }
    d->plain = true;
    if (p < end && *p == '.') {
        if (++p == end || (unsigned)(*p - '0') >= 10)
            return NULL;
        const uint8_t *f0 = p;
        p = digit_run(p, end, &m);
        digits += p - f0;
        e10 = -(p - f0);
        d->plain = false;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        bool eneg = p < end && *p == '-';
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p == end || (unsigned)(*p - '0') >= 10)
            return NULL;
        ptrdiff_t x = 0;
        while (p < end && (unsigned)(*p - '0') < 10) {
            if (x < 100000)
                x = x * 10 + (*p - '0');
            p++;
        }
        e10 += eneg ? -x : x;
        d->plain = false;
    }
    d->m = m;
    d->digits = digits;
    d->e10 = e10;
    return p;
}

/* The double nearest to d, whose text is s[0..end): when all the digits
 * are in m, Clinger's fast path or the Eisel-Lemire step without reading
 * the text again (canada.json's 17-digit coordinates); the rest, and what
 * those leave open, by the exact parser. */
static inline bool decimal_double(const decimal *d, const uint8_t *s, const uint8_t *end,
                                  double *out)
{
    if (d->digits <= 19 && !codec__double_from_decimal(d->m, d->e10, d->neg, out))
        return true;
    return codec__parse_double((const char *)s, (size_t)(end - s), out) == 0;
}

/* A number in JSON grammar at p into a double or float field. */
static __attribute__((noinline)) const uint8_t *real_value(const codec_type *t, void *v,
                                                           const uint8_t *p, const uint8_t *end)
{
    static const float p10f[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                   1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    decimal d;
    const uint8_t *s = p;
    if (!(p = decimal_scan(p, end, &d)))
        return GIVE_UP;
    if (t->kind == CODEC_T_DOUBLE)
        return decimal_double(&d, s, p, v) ? p : GIVE_UP;
    if (d.digits <= 19 && d.m <= (1u << 24) && d.e10 >= -10 && d.e10 <= 10) {
        float x = (float)d.m;
        x = d.e10 < 0 ? x / p10f[-d.e10] : x * p10f[d.e10];
        *(float *)v = d.neg ? -x : x;
        return p;
    }
    return codec__parse_float((const char *)s, (size_t)(p - s), v) ? GIVE_UP : p;
}

/* ---------------------------------------------------------------------------
 * Containers
 * ------------------------------------------------------------------------ */

static const uint8_t *value(fast *f, const codec_type *t, void *v, const uint8_t *p,
                            uint32_t depth);
static inline const uint8_t *skip_value(const fast *f, const uint8_t *p, uint32_t depth);
static const uint8_t *any_value(fast *f, codec_value *v, const uint8_t *p, uint32_t depth);

static inline bool literal(const uint8_t *p, const uint8_t *end, const char *word, size_t n)
{
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* value() with the common scalars decoded in place, without a call. */
static inline const uint8_t *member(fast *f, const codec_type *t, void *v, const uint8_t *p,
                                    uint32_t depth)
{
    switch (t->kind) {
    case CODEC_T_INT32: case CODEC_T_INT64: case CODEC_T_UINT32: case CODEC_T_UINT64:
        return int_value(t, v, p, f->end);
    case CODEC_T_FLOAT:
    case CODEC_T_DOUBLE:
        return real_value(t, v, p, f->end);
    case CODEC_T_STRING:
        return *p == '"' ? string_value(f, p, v) : GIVE_UP;
    case CODEC_T_VALUE:
        return any_value(f, v, p, depth);
    case CODEC_T_BOOL:
        if (literal(p, f->end, "true", 4)) {
            *(bool *)v = true;
            return p + 4;
        }
        if (literal(p, f->end, "false", 5)) {
            *(bool *)v = false;
            return p + 5;
        }
        return GIVE_UP;
    default:
        return value(f, t, v, p, depth);
    }
}

/* After a member or item: past the ',' (and white space, see ws_again)
 * with *more set, or past the closing byte `close`. */
static inline __attribute__((always_inline)) const uint8_t *separator(const uint8_t *p, const uint8_t *end, uint8_t close,
                                       bool *more, unsigned *run)
{
    p = WS(p, end);
    if (p == end)
        return NULL;
    if (*p == ',') {
        *more = true;
        p = ws_again(p + 1, end, run);
        return p < end ? p : NULL;
    }
    *more = false;
    return *p == close ? p + 1 : NULL;
}

/* A key at p (its opening quote) without escapes; p is left on its value. */
/* Past the ':' after a key whose closing quote is at q, and white space. */
static inline const uint8_t *after_colon(const uint8_t *q, const uint8_t *end)
{
    if (q < end && *q == ':')
        q++;
    else if ((q = WS(q, end)) < end && *q == ':')
        q++;
    else
        return NULL;
    q = WS(q, end);
    return q < end ? q : NULL;
}

/* A key at p (its opening quote) without escapes; p is left on its value. */
static inline const uint8_t *plain_key(fast *f, const uint8_t *p, const char **key, size_t *len)
{
    if (*p != '"')
        return NULL;
    bool escaped = false;
    const uint8_t *q = string_end(p + 1, f->end, &escaped, f->scan);
    if (!q || escaped || (size_t)(q - p - 1) > f->o->max_string)
        return NULL;
    *key = (const char *)p + 1;
    *len = (size_t)(q - p - 1);
    return after_colon(q + 1, f->end);
}

/* a[0..n) == b[0..n) with word loads that stay inside both (the tail
 * word overlaps the one before it). */
static inline bool same_name(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8)
            if (codec_load64(a + i) != codec_load64(b + i))
                return false;
        return codec_load64(a + n - 8) == codec_load64(b + n - 8);
    }
    if (n >= 4)
        return codec_load32(a) == codec_load32(b) &&
               codec_load32(a + n - 4) == codec_load32(b + n - 4);
    if (n >= 2)
        return codec_load16(a) == codec_load16(b) && a[n - 1] == b[n - 1];
    return n == 0 || a[0] == b[0];
}

/* Whether a field that must appear is among the `absent` ones (bit i:
 * field i). */
static __attribute__((noinline)) bool missing_required_of(const fast *f, const codec_type *t,
                                                          uint64_t absent)
{
    for (; absent; absent &= absent - 1) {
        const codec_field *fd = &t->fields[__builtin_ctzll(absent)];
        if ((fd->flags & CODEC_FIELD_REQUIRED) ||
            (f->o->require_all && !codec_field_may_be_absent(fd)))
            return true;
    }
    return false;
}

/* Whether a field that must appear is not in `seen` (bit i: field i); no
 * call when every field was there. */
static inline bool missing_required(const fast *f, const codec_type *t, uint64_t seen)
{
    uint64_t absent = ~seen & (t->count == 64 ? ~0ull : (1ull << t->count) - 1);
    return absent && missing_required_of(f, t, absent);
}

/* The memo set (two entries: 2s, 2s + 1) for the key after place `after`
 * of struct t. Two, because optional members make a place alternate
 * between two keys (twitter's users with and without a banner). */
static inline unsigned memo_set(const codec_type *t, unsigned after)
{
    uint32_t h = ((uint32_t)((uintptr_t)t >> 4) * 31 + after) * 0x9E3779B1u;
    return h >> (32 - (KEY_MEMO_BITS - 1));
}

/* Whether m is place `after` of t and holds the key at p (its opening
 * quote). The memo's key is plain and ends at its quote, so the same
 * bytes and a quote are the same key. */
static inline bool memo_holds(const fast *f, const key_memo *m, const codec_type *t,
                              unsigned after, const uint8_t *p)
{
    size_t n = m->len;
    return m->t == t && m->after == after && (size_t)(f->end - p) > n + 1 && p[n + 1] == '"' &&
           same_name((const char *)m->key, (const char *)p + 1, n);
}

/* The memo entry for place `after` of t holding the key at p, or NULL. */
static inline const key_memo *memo_hit(const fast *f, const codec_type *t, unsigned after,
                                       const uint8_t *p)
{
    if (!f->memo_ready || *p != '"')
        return NULL;
    const key_memo *m = &f->memo[2 * memo_set(t, after)];
    return memo_holds(f, m, t, after, p) ? m : memo_holds(f, m + 1, t, after, p) ? m + 1 : NULL;
}

/* Remembers that key k[0..n) followed place `after` of t and named field
 * `field` (-1: unknown), in the entry of its set filled least recently;
 * the place it makes for the next key. */
static unsigned memo_put(fast *f, const codec_type *t, unsigned after, const char *k, size_t n,
                         int field)
{
    if (!f->memo_ready) {
        memset(f->memo, 0, sizeof f->memo);
        f->memo_older = 0;
        f->memo_ready = true;
    }
    unsigned set = memo_set(t, after), slot = 2 * set + (unsigned)(f->memo_older >> set & 1);
    f->memo_older ^= 1ull << set;
    f->memo[slot] = (key_memo){t, (const uint8_t *)k, (uint32_t)n, (uint16_t)after,
                               (int16_t)field};
    return field < 0 ? 64 + slot : (unsigned)field;
}

/* Whether struct t has a union whose members are keys of its own object
 * (asked only for a key t has no field for). */
static bool has_flat_union(const codec_type *t)
{
    for (size_t i = 0; i < t->count; i++)
        if (codec_union_is_flat(t->fields[i].type))
            return true;
    return false;
}

/* The members of an object after its '{' (and white space) into struct t
 * of at most 64 fields (larger ones go to the reference walker). A key
 * that is not the next declared field is looked up in the memo for its
 * place: the field before it (0..63), the unknown key before it (64 +
 * its memo slot) or the start (START). */
#define START (64u + (1u << KEY_MEMO_BITS))

static const uint8_t *struct_value(fast *f, const codec_type *t, uint8_t *v, const uint8_t *p,
                                   uint32_t depth)
{
    const uint8_t *end = f->end;
    uint64_t seen = 0;
    if (*p == '}')
        return missing_required(f, t, seen) ? GIVE_UP : p + 1;
    const uint32_t *lens = codec__type_name_lengths(t);
    const codec_field *fields = t->fields;
    size_t members = 0, expect = 0, count = t->count;
    unsigned after = START;
    bool more;
    unsigned run = 0;
    do {
        const char *k;
        size_t n, i;
        const key_memo *m;
        if (++members > f->o->max_elements)
            return GIVE_UP;
        /* Keys usually come in declaration order: when the names are plain
         * ASCII, the input is compared with the next field's name in place,
         * quotes included, before any scan. */
        if (f->plain_names && lens && expect < count && *p == '"' &&
            (size_t)(end - p) > (n = lens[expect]) + 1 && p[n + 1] == '"' &&
            same_name(fields[expect].name, (const char *)p + 1, n) && n <= f->o->max_string) {
            i = expect;
            if (!(p = after_colon(p + n + 2, end)))
                return GIVE_UP;
        } else if ((m = memo_hit(f, t, after, p))) {
            if (!(p = after_colon(p + m->len + 2, end)))
                return GIVE_UP;
            if (m->field < 0) {
                after = 64 + (unsigned)(m - f->memo);
                if (!(p = skip_value(f, p, depth)) || !(p = separator(p, end, '}', &more, &run)))
                    return GIVE_UP;
                continue;
            }
            i = (size_t)m->field;
        } else if (!(p = plain_key(f, p, &k, &n))) {
            return GIVE_UP;
        } else if (lens && expect < count && lens[expect] == n &&
                   same_name(fields[expect].name, k, n)) {
            i = expect;
        } else {
            const codec_field *fd =
                codec__type_field_by_name_hashed(t, k, n, codec_name_hash(k, n));
            if (!fd && (f->o->reject_unknown || has_flat_union(t)))
                return GIVE_UP;   /* an error, or maybe a flat union's member */
            int field = fd ? (int)(fd - fields) : -1;
            after = memo_put(f, t, after, k, n, field);
            if (!fd) {
                if (!(p = skip_value(f, p, depth)) || !(p = separator(p, end, '}', &more, &run)))
                    return GIVE_UP;
                continue;
            }
            i = (size_t)field;
        }
        after = (unsigned)i;
        expect = i + 1;
        const codec_field *fd = &fields[i];
        if (seen >> i & 1) {
            if (!f->o->allow_duplicates)
                return GIVE_UP;
            memset(v + fd->offset, 0, fd->size);
        }
        seen |= 1ull << i;
        if (!(p = member(f, fd->type, v + fd->offset, p, depth)) ||
            !(p = separator(p, end, '}', &more, &run)))
            return GIVE_UP;
    } while (more);
    return missing_required(f, t, seen) ? GIVE_UP : p;
}

/* Room for item `count` of an array of esz-byte items: a call only when
 * it is full; the slots it adds are zeroed at once (an item whose members
 * are absent stays zero), not one memset per item. NULL when out of memory. */
static inline uint8_t *item_room(fast *f, uint8_t *items, size_t count, size_t *cap, size_t esz)
{
    if (count < *cap)
        return items;
    if ((items = codec__array_grow(f->arena, items, count, cap, esz)))
        memset(items + count * esz, 0, (*cap - count) * esz);
    return items;
}

/* The items of an array after its '[' (and white space) into list t. */
static const uint8_t *list_value(fast *f, const codec_type *t, codec_list *l, const uint8_t *p,
                                 uint32_t depth)
{
    size_t esz = t->elem->size, cap = 0, count = 0;
    uint8_t *items = NULL;
    if (*p != ']') {
        bool more;
        unsigned run = 0;
        do {
            if (count == f->o->max_elements)
                return GIVE_UP;
            if (!(items = item_room(f, items, count, &cap, esz)))
                return out_of_memory(f);
            if (!(p = member(f, t->elem, items + count * esz, p, depth)) ||
                !(p = separator(p, f->end, ']', &more, &run)))
                return GIVE_UP;
            count++;
        } while (more);
    } else {
        p++;
    }
    l->items = items;
    l->count = count;
    return p;
}

/* An object after its '{' (and white space) into map t with string keys. */
static const uint8_t *map_value(fast *f, const codec_type *t, codec_map *m, const uint8_t *p,
                                uint32_t depth)
{
    size_t ksz = t->key->size, vsz = t->elem->size, kcap = 0, vcap = 0, count = 0;
    uint8_t *keys = NULL, *values = NULL;
    const uint8_t *end = f->end;
    if (*p != '}') {
        bool more;
        unsigned run = 0;
        do {
            if (count == f->o->max_elements || *p != '"')
                return GIVE_UP;
            if (!(keys = item_room(f, keys, count, &kcap, ksz)) ||
                !(values = item_room(f, values, count, &vcap, vsz)))
                return out_of_memory(f);
            if (!(p = string_value(f, p, (codec_string *)(keys + count * ksz))))
                return GIVE_UP;
            p = WS(p, end);
            if (p == end || *p != ':')
                return GIVE_UP;
            p = WS(p + 1, end);
            if (p == end || !(p = member(f, t->elem, values + count * vsz, p, depth)) ||
                !(p = separator(p, end, '}', &more, &run)))
                return GIVE_UP;
            count++;
        } while (more);
    } else {
        p++;
    }
    if (!f->o->allow_duplicates) {
        long dup = codec__find_duplicate_map_key(t, keys, count, f->arena);
        if (dup == -2)
            return out_of_memory(f);
        if (dup >= 0)
            return GIVE_UP;
    }
    m->keys = keys;
    m->values = values;
    m->count = count;
    return p;
}

/* ---------------------------------------------------------------------------
 * Schemaless values (codec_value), as the reference's codec__json_read_value()
 * builds them: integers as INT when they fit int64, else UINT, else DOUBLE;
 * objects' members in document order, duplicates refused unless allowed.
 * ------------------------------------------------------------------------ */

/* A number at p into v, read once: an integer (no fraction or exponent)
 * is INT when it fits int64, else UINT when it fits uint64; anything else
 * is a DOUBLE. */
static inline const uint8_t *any_number(codec_value *v, const uint8_t *p, const uint8_t *end)
{
    decimal d;
    const uint8_t *s = p;
    if (!(p = decimal_scan(p, end, &d)))
        return GIVE_UP;
    if (d.plain && d.digits >= 20) {   /* m wrapped: integer() decides uint64 */
        uint64_t m;
        bool neg;
        if (integer(s, end, &m, &neg) == p && !neg)
            d.m = m, d.digits = 19;
    }
    if (d.plain && d.digits <= 19) {
        if (!d.neg && d.m > INT64_MAX) {
            v->kind = CODEC_V_UINT;
            v->as.u = d.m;
            return p;
        }
        if (!d.neg || d.m <= (uint64_t)INT64_MAX + 1) {
            v->kind = CODEC_V_INT;
            v->as.i = !d.neg ? (int64_t)d.m
                      : d.m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)d.m;
            return p;
        }
    }
    v->kind = CODEC_V_DOUBLE;
    return decimal_double(&d, s, p, &v->as.d) ? p : GIVE_UP;
}

/* The value stack: the items and members of the open containers, in the
 * arena. A container's children are pushed as they are decoded (a
 * child's own children above them, popped when it closes), so when the
 * container closes its count is known and they are copied once into an
 * array of exactly that size: no array grows, nothing is zeroed first.
 * Values on it are named by their offset, as the stack may move when it
 * grows. */
#define VALUE_AT(f, at) ((codec_value *)(void *)((f)->vals + (at)))

/* A new stack in the arena, twice as large (4 KiB after the first, which is
 * in `fast` itself: small documents take no arena call for it), with the
 * live part copied. */
static __attribute__((noinline)) bool vals_grow(fast *f, size_t size)
{
    size_t cap = f->vals_cap < 2048 ? 4096 : 2 * f->vals_cap;
    while (cap - f->vals_top < size)
        cap *= 2;
    uint8_t *p = codec_arena_alloc(f->arena, cap, 8);
    if (!p)
        return false;
    if (f->vals_top)
        memcpy(p, f->vals, f->vals_top);
    f->vals = p;
    f->vals_cap = cap;
    return true;
}

/* Pushes `size` bytes; their offset, or SIZE_MAX when out of memory. */
static inline size_t vals_push(fast *f, size_t size)
{
    if (f->vals_cap - f->vals_top < size && !vals_grow(f, size))
        return SIZE_MAX;
    size_t at = f->vals_top;
    f->vals_top += size;
    return at;
}

/* A new chunk of the node pool, of at least `bytes`, and `bytes` from it:
 * twice the document's size (its codec_values take about that), 256 bytes
 * to 64 KiB. */
static __attribute__((noinline)) uint8_t *nodes_refill(fast *f, size_t bytes)
{
    size_t in = (size_t)(f->end - f->base), size = in < 128 ? 256 : in < 32768 ? 2 * in : 65536;
    if (size < bytes)
        size = bytes;
    uint8_t *a = codec_arena_alloc(f->arena, size, 8);
    if (!a)
        return NULL;
    f->nodes = a + bytes;
    f->nodes_end = a + size;
    return a;
}

/* Stores the 8-byte word w at d (a function of its own: the recursive
 * descent keeps no addressable word, which unoptimised sanitizer builds
 * would give a padded stack slot in every level's frame). */
static inline void put_word(uint8_t *d, uint64_t w)
{
    memcpy(d, &w, sizeof w);
}

/* Pops everything above `base` (bytes bytes, a multiple of 8) into a new
 * array of exactly that size, taken from the node pool; NULL when there
 * is nothing (or no memory: *ok). */
static inline void *vals_pop(fast *f, size_t base, size_t bytes, bool *ok)
{
    f->vals_top = base;
    if (!bytes)
        return NULL;
    uint8_t *a = f->nodes;
    if ((size_t)(f->nodes_end - a) >= bytes) {
        f->nodes = a + bytes;
    } else if (!(a = nodes_refill(f, bytes))) {
        *ok = false;
        return NULL;
    }
    const uint8_t *src = f->vals + base;
    if (bytes > 256) {
        memcpy(a, src, bytes);
    } else {
        /* Word by word, as the values were just stored: a wider load of
         * words still in the store buffer waits for them to be written
         * (a store-forwarding stall), which made this copy a quarter of
         * the time of canada.json's pairs. Two words a step (a value is
         * three, a member five): half the loop's compares and jumps; the
         * empty asm keeps the two words in general registers, as the
         * compiler would otherwise merge them into one 16-byte load. */
        size_t i = 0;
        for (; i + 16 <= bytes; i += 16) {
            uint64_t w0 = codec_load64(src + i), w1 = codec_load64(src + i + 8);
            __asm__("" : "+r"(w0), "+r"(w1));
            put_word(a + i, w0);
            put_word(a + i + 8, w1);
        }
        if (i < bytes)
            put_word(a + i, codec_load64(src + i));
    }
    return a;
}

/* Writes the first word of the value at d: its kind and the padding
 * after it (zero). */
static inline void put_kind(uint8_t *d, codec_value_kind k)
{
    /* k at the start of the word in either byte order, the padding after
     * it zero: one 8-byte store */
    uint64_t w = 0;
    _Static_assert(sizeof(codec_value) == 3 * sizeof w, "codec_value is three words");
    memcpy(&w, &k, sizeof k);
    memcpy(d, &w, sizeof w);
}
/* The word whose first byte is the bool b (as.b), in either byte order. */
static inline uint64_t bool_word(bool b)
{
    uint64_t w = 0;
    memcpy(&w, &b, sizeof b);
    return w;
}

/* Writes all 24 bytes of the value at d: its kind and two words, one
 * store each (one array of three words stored at once was read back
 * through memory, a store-forwarding stall per value). */
static inline void put_value(uint8_t *d, codec_value_kind k, uint64_t a, uint64_t b)
{
    put_kind(d, k);
    memcpy(d + 8, &a, sizeof a);
    memcpy(d + 16, &b, sizeof b);
}

/* any_number() into the value at d: the careful way for the numbers
 * any_number_at() leaves. */
static __attribute__((noinline)) const uint8_t *any_number_slow(fast *f, uint8_t *d,
                                                                const uint8_t *p)
{
    codec_value v;
    if (!(p = any_number(&v, p, f->end)))
        return GIVE_UP;
    uint64_t w;
    memcpy(&w, &v.as, sizeof w);
    put_value(d, v.kind, w, 0);
    return p;
}

/* A number at p into the value at d, as any_number() decodes it, with
 * the common forms inline and in registers: an integer of up to 19
 * digits, or one with a fraction and up to 19 digits in all (canada's
 * coordinates); the rest (exponents, more digits, the last 48 bytes of
 * the input, anything outside the grammar) goes the careful way. */
static inline __attribute__((always_inline)) const uint8_t *any_number_at(fast *f, uint8_t *d,
                                                                          const uint8_t *p)
{
    const uint8_t *s = p;
    if (f->end - p < 48)
        return any_number_slow(f, d, s);
    bool neg = *p == '-';
    p += neg;
    uint64_t x = codec_load_le64(p);
    unsigned n = json_leading_digits8(x);
    if (n == 0 || (*p == '0' && n > 1))
        return any_number_slow(f, d, s);
    const uint8_t *d0 = p;
    uint64_t m = digits_value8(x, n);
#if CODEC_SSE2
    uint64_t v16 = 0;   /* one for both digits16() calls (see put_word) */
    unsigned n16;
#endif
    p += n;
    if (n == 8) {
#if CODEC_SSE2
        /* 9 to 15 digits (citm_catalog's ids) at once; d0 - 15 is in the
         * input, d0 + 15 is by the 48 bytes. */
        if (d0 - f->base >= 15 && (n16 = digits16(d0, &v16)) != 16)
            m = v16, p = d0 + n16;
        else
#endif
            p = digit_run(p, f->end, &m);
    }
    size_t digits = (size_t)(p - d0);
    /* digits <= 19: what was read is within the 48 bytes. */
    if (digits > 19 || (*p | 0x20) == 'e')
        return any_number_slow(f, d, s);
    if (*p != '.') {
        if (!neg) {
            put_value(d, m > INT64_MAX ? CODEC_V_UINT : CODEC_V_INT, m, 0);
            return p;
        }
        if (m > (uint64_t)INT64_MAX + 1)
            return any_number_slow(f, d, s);
        put_value(d, CODEC_V_INT, (uint64_t)0 - m, 0);
        return p;
    }
    const uint8_t *f0 = ++p;
    size_t frac;
#if CODEC_SSE2
    /* p - 15 is in the input; p + 15 is, by the 48 bytes. */
    if (p - f->base >= 15 && (n16 = digits16(p, &v16)) - 1 < 15 && digits + n16 <= 19) {
        static const uint64_t p10[16] = {
            1u,           10u,           100u,           1000u,           10000u,
            100000u,      1000000u,      10000000u,      100000000u,      1000000000u,
            10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
            1000000000000000u};
        m = m * p10[n16] + v16;   /* below 10^19: no wrap */
        p += n16;
        frac = n16;
    } else
#endif
    {
        if ((unsigned)(*p - '0') >= 10)
            return any_number_slow(f, d, s);
        p = digit_run(p, f->end, &m);
        frac = (size_t)(p - f0);
    }
    uint64_t bits;
    if (digits + frac > 19 || (*p | 0x20) == 'e' ||
        (bits = codec__double_bits_from_decimal(m, -(int64_t)frac, neg)) == CODEC_DECIMAL_DECLINED)
        return any_number_slow(f, d, s);
    put_value(d, CODEC_V_DOUBLE, bits, 0);
    return p;
}

/* A scalar at p (not white space, not '[' or '{'; p < end) into the value
 * at d. Nothing is taken from the value stack or the node pool. */
static inline __attribute__((always_inline)) const uint8_t *any_scalar(fast *f, uint8_t *d,
                                                                       const uint8_t *p)
{
    const uint8_t *end = f->end;
    switch (*p) {
    case '"':
        put_kind(d, CODEC_V_STRING);
        return string_value(f, p, &((codec_value *)(void *)d)->as.s);
    case 't':
        put_value(d, CODEC_V_BOOL, bool_word(true), 0);
        return literal(p, end, "true", 4) ? p + 4 : GIVE_UP;
    case 'f':
        put_value(d, CODEC_V_BOOL, bool_word(false), 0);
        return literal(p, end, "false", 5) ? p + 5 : GIVE_UP;
    case 'n':
        put_value(d, CODEC_V_NULL, 0, 0);
        return literal(p, end, "null", 4) ? p + 4 : GIVE_UP;
    default:
        return any_number_at(f, d, p);
    }
}

static const uint8_t *any_container(fast *f, size_t at, const uint8_t *p, uint32_t depth);

/* The array or object at p (its '[' or '{') into the value at `at` of the
 * stack, inside `depth` containers: an empty one ("[]" or "{}", nothing
 * between) without the call (citm_catalog.json has 8,695 "blockIds":[]).
 * For members' values only: as an array's items, canada.json's 56,045
 * pairs would each pay the check (+2 % instructions). */
static inline __attribute__((always_inline)) const uint8_t *nested(fast *f, size_t at,
                                                                   const uint8_t *p,
                                                                   uint32_t depth)
{
    if (f->end - p >= 2 && p[1] == p[0] + 2 && depth < f->o->max_depth) {
        put_value(f->vals + at, *p == '[' ? CODEC_V_ARRAY : CODEC_V_OBJECT, 0, 0);
        return p + 2;
    }
    return any_container(f, at, p, depth);
}

/* Direct mode: while the items of the innermost open array are scalars
 * they are written straight into the node pool, where the array will be
 * (nothing else takes from the pool meanwhile: a nested container first
 * leaves direct mode), so it needs no copy when it closes: canada's 56,045
 * coordinate pairs are such. When a container item comes, or the pool's
 * chunk is full, the items so far (`bytes` of them) move to the value
 * stack and the array goes on there. Objects stay on the stack: most of
 * those of twitter and citm_catalog hold a container, and leaving direct
 * mode there cost more than it saved (measured). */
static inline bool direct_start(fast *f)
{
    return f->nodes_end - f->nodes >= 256 || nodes_refill(f, 0);   /* a chunk is >= 256 */
}

static __attribute__((noinline)) bool direct_leave(fast *f, size_t bytes)
{
    if (f->vals_cap - f->vals_top < bytes && !vals_grow(f, bytes))
        return false;
    memcpy(f->vals + f->vals_top, f->nodes, bytes);
    f->vals_top += bytes;
    return true;
}

/* The items of an array after its '[' (and white space) into the value at `at`. */
static inline __attribute__((always_inline)) const uint8_t *any_array(fast *f, size_t at,
                                                                      const uint8_t *p,
                                                                      uint32_t depth)
{
    const size_t esz = sizeof(codec_value);
    size_t base = f->vals_top, count = 0;
    if (*p == ']') {
        put_value(f->vals + at, CODEC_V_ARRAY, 0, 0);
        return p + 1;
    }
    bool direct = direct_start(f), more;
    unsigned run = 0;
    do {
        if (count == f->o->max_elements)
            return GIVE_UP;
        bool container = *p == '[' || *p == '{';
        if (direct && !container && (size_t)(f->nodes_end - f->nodes) >= (count + 1) * esz) {
            if (!(p = any_scalar(f, f->nodes + count * esz, p)))
                return GIVE_UP;
        } else {
            /* On the stack (the items so far moved there first). */
            size_t item;
            if (direct && !direct_leave(f, count * esz))
                return out_of_memory(f);
            direct = false;
            if ((item = vals_push(f, esz)) == SIZE_MAX)
                return out_of_memory(f);
            if (!(p = container ? any_container(f, item, p, depth)
                                : any_scalar(f, f->vals + item, p)))
                return GIVE_UP;
        }
        if (!(p = separator(p, f->end, ']', &more, &run)))
            return GIVE_UP;
        count++;
    } while (more);
    codec_value *items;
    if (direct) {
        items = (codec_value *)(void *)f->nodes;
        f->nodes += count * esz;
    } else {
        bool ok = true;
        items = vals_pop(f, base, count * esz, &ok);
        if (!ok)
            return out_of_memory(f);
    }
    put_value(f->vals + at, CODEC_V_ARRAY, (uint64_t)(uintptr_t)items, count);
    return p;
}

/* The shape memo: documents repeat their objects' keys. The members of an
 * object decoded earlier whose keys are plain (no escapes: their text is
 * their input bytes) and unique, found by its first key and depth; the
 * keys of a new object that starts with that key are compared with them
 * in place, quotes included (no scan, no copy: the key is the earlier
 * one's text), each with the shape's next few keys (optional members
 * left out), and an object whose keys are all, in order, some of the
 * shape's has unique keys without a check. An object that leaves the
 * shape is checked and, when its keys are plain, becomes the shape. */
static unsigned shape_slot(const char *k, size_t n, uint32_t depth)
{
    uint32_t h = (codec_name_hash(k, n) + depth) * 0x9E3779B1u;
    return h >> (32 - SHAPE_BITS);
}

/* Whether the input at p (a quote) is the plain key k and its closing quote. */
static inline bool key_is(const uint8_t *p, const uint8_t *end, codec_string k)
{
    size_t n = k.len;
    return (size_t)(end - p) > n + 1 && p[n + 1] == '"' && same_name(k.ptr, (const char *)p + 1, n);
}

/* The index of the key at p among the shape's keys sk[si + 1..si + SHAPE_SKIP)
 * (below sn), or sn. */
static __attribute__((noinline)) size_t shape_skip(const uint8_t *p, const uint8_t *end,
                                                   const codec_member *sk, size_t si, size_t sn)
{
    for (size_t j = si + 1; j < sn && j < si + SHAPE_SKIP; j++)
        if (key_is(p, end, sk[j].key))
            return j;
    return sn;
}

/* The shape guess: when the last two objects at this depth (mod 64) had
 * the same shape (SHAPE_SURE), and the object at p starts with its first
 * key, that shape's slot (the slot the first key's hash would name),
 * found without copying or hashing the key; else NO_SHAPE. Objects of one
 * kind come in runs (an array's items): citm_catalog.json's 10,935 objects
 * are 10,919 guesses. Tried only when sure, as a guess that fails costs
 * more than the hash it saves (twitter.json's objects alternate). */
static __attribute__((noinline)) unsigned shape_guess(fast *f, const uint8_t *p, uint32_t depth)
{
    unsigned guess = f->shape_at[depth & 63];
    if (!(guess & SHAPE_SURE))
        return NO_SHAPE;
    guess &= SHAPE_SURE - 1;
    const shape *g = &f->shapes[guess];
    if ((f->shapes_valid >> guess & 1) && g->depth == depth && key_is(p, f->end, g->members[0].key))
        return guess;
    f->shape_at[depth & 63] = (uint8_t)guess;   /* not sure any more */
    return NO_SHAPE;
}

/* The members of an object after its '{' (and white space) into the value at `at`. */
static inline __attribute__((always_inline)) const uint8_t *any_object(fast *f, size_t at,
                                                                       const uint8_t *p,
                                                                       uint32_t depth)
{
    const size_t esz = sizeof(codec_member);
    const uint8_t *end = f->end;
    size_t base = f->vals_top, count = 0, sn = 0, si = 0;
    /* The shape's members while the keys follow them (sn of them, si
     * taken: the keys so far are, in order, some of sk[0..si)). */
    const codec_member *sk = NULL;
    unsigned slot = NO_SHAPE;
    bool plain = true;
    if (*p == '}') {
        p++;
    } else {
        bool more;
        unsigned run = 0;
        do {
            size_t at_m;
            if (count == f->o->max_elements || *p != '"')
                return GIVE_UP;
            if ((at_m = vals_push(f, esz)) == SIZE_MAX)
                return out_of_memory(f);
            uint8_t *m = f->vals + at_m;
            codec_string *key = &((codec_member *)(void *)m)->key;
            size_t j = si;
            /* The shape's next key, or one of the few after it (this
             * object lacks some of the shape's optional members). */
            if (j < sn && (key_is(p, end, sk[j].key) || (j = shape_skip(p, end, sk, j, sn)) < sn)) {
            matched:;
                const char *kp = sk[j].key.ptr;
                size_t kn = sk[j].key.len;
                key->ptr = kp;
                key->len = kn;
                p += kn + 2;
                si = j + 1;
            } else {
                /* (Here rather than before the loop: the descent is
                 * sensitive to its layout; docs/formats/json.md.) */
                if (count == 0 && (slot = shape_guess(f, p, depth)) != NO_SHAPE) {
                    sk = f->shapes[slot].members, sn = f->shapes[slot].count, j = 0;
                    goto matched;
                }
                const uint8_t *q = p;
                if (!(p = string_value(f, p, key)))
                    return GIVE_UP;
                const char *kp = key->ptr;
                size_t kn = key->len;
                plain &= kn == (size_t)(p - q) - 2;   /* an escape shortens its text */
                sn = 0;
                if (count == 0) {
                    slot = shape_slot(kp, kn, depth);
                    const shape *sh = &f->shapes[slot];
                    if ((f->shapes_valid >> slot & 1) && sh->depth == depth &&
                        sh->members[0].key.len == kn && same_name(sh->members[0].key.ptr, kp, kn)) {
                        sk = sh->members, sn = sh->count, si = 1;
                        /* sure when the last object here had it too */
                        unsigned last = f->shape_at[depth & 63];
                        f->shape_at[depth & 63] = (uint8_t)(slot | (last == slot ? SHAPE_SURE : 0));
                    }
                }
            }
            if (!(p = after_colon(p, end)))
                return GIVE_UP;
            if (*p == '[' || *p == '{') {
                if (!(p = nested(f, at_m + offsetof(codec_member, value), p, depth)))
                    return GIVE_UP;
            } else if (!(p = any_scalar(f, m + offsetof(codec_member, value), p))) {
                return GIVE_UP;
            }
            if (!(p = separator(p, end, '}', &more, &run)))
                return GIVE_UP;
            count++;
        } while (more);
    }
    bool ok = true;
    codec_member *members = vals_pop(f, base, count * esz, &ok);
    if (!ok)
        return out_of_memory(f);
    /* sn != 0: the keys are, in order, some of the shape's (the first one
     * too): unique as theirs are. */
    if (count > 1 && !sn) {
        if (!f->o->allow_duplicates) {
            long dup = codec__find_duplicate_key(members, sizeof *members, count, 0, f->arena);
            if (dup == -2)
                return out_of_memory(f);
            if (dup >= 0)
                return GIVE_UP;
        }
    }
    if (plain && slot != NO_SHAPE && count && !sn) {
        f->shapes[slot] = (shape){members, count, depth};
        f->shapes_valid |= 1ull << slot;
        f->shape_at[depth & 63] = (uint8_t)slot;
    }
    put_value(f->vals + at, CODEC_V_OBJECT, (uint64_t)(uintptr_t)members, count);
    return p;
}

/* The array or object at p (its '[' or '{') into the value at `at` of the
 * stack: the one call per container (scalars are decoded in the loops,
 * inline). */
static __attribute__((noinline)) const uint8_t *any_container(fast *f, size_t at, const uint8_t *p,
                                                              uint32_t depth)
{
    uint8_t open = *p;
    if (depth >= f->o->max_depth || (p = WS(p + 1, f->end)) == f->end)
        return GIVE_UP;
    return open == '[' ? any_array(f, at, p, depth + 1) : any_object(f, at, p, depth + 1);
}

/* One value at p (not white space; p < end) into v, inside `depth`
 * containers: decoded on the value stack, then copied out. */
static const uint8_t *any_value(fast *f, codec_value *v, const uint8_t *p, uint32_t depth)
{
    size_t at = vals_push(f, sizeof(codec_value));
    if (at == SIZE_MAX)
        return out_of_memory(f);
    if ((p = *p == '[' || *p == '{' ? any_container(f, at, p, depth)
                                    : any_scalar(f, f->vals + at, p)))
        *v = *VALUE_AT(f, at);
    f->vals_top = at;
    return p;
}

/* One value starting at p (not white space; p < end) into v of type t;
 * `depth` containers are open around it. */
static const uint8_t *value(fast *f, const codec_type *t, void *v, const uint8_t *p,
                            uint32_t depth)
{
    const uint8_t *end = f->end;
    switch (t->kind) {
    case CODEC_T_STRUCT:
    case CODEC_T_LIST:
    case CODEC_T_MAP: {
        if ((t->kind == CODEC_T_MAP && t->key->kind != CODEC_T_STRING) ||
            (t->kind == CODEC_T_STRUCT && t->count > 64))
            return by_reference(f, t, v, p, depth);
        uint8_t open = t->kind == CODEC_T_LIST ? '[' : '{';
        if (*p != open || depth >= f->o->max_depth)
            return GIVE_UP;
        p = WS(p + 1, end);
        if (p == end)
            return GIVE_UP;
        if (t->kind == CODEC_T_STRUCT)
            return struct_value(f, t, v, p, depth + 1);
        if (t->kind == CODEC_T_LIST)
            return list_value(f, t, v, p, depth + 1);
        return map_value(f, t, v, p, depth + 1);
    }
    case CODEC_T_OPTIONAL:
        if (*p == 'n') {
            memset(v, 0, t->size);
            return literal(p, end, "null", 4) ? p + 4 : GIVE_UP;
        }
        *(bool *)v = true;
        return value(f, t->elem, (uint8_t *)v + t->value_offset, p, depth);
    case CODEC_T_BOOL:
        if (literal(p, end, "true", 4)) {
            *(bool *)v = true;
            return p + 4;
        }
        if (literal(p, end, "false", 5)) {
            *(bool *)v = false;
            return p + 5;
        }
        return GIVE_UP;
    case CODEC_T_INT8: case CODEC_T_INT16: case CODEC_T_INT32: case CODEC_T_INT64:
    case CODEC_T_UINT8: case CODEC_T_UINT16: case CODEC_T_UINT32: case CODEC_T_UINT64:
        return int_value(t, v, p, end);
    case CODEC_T_FLOAT:
    case CODEC_T_DOUBLE:
        return real_value(t, v, p, end);
    case CODEC_T_STRING:
        return *p == '"' ? string_value(f, p, v) : GIVE_UP;
    case CODEC_T_ENUM: {
        bool escaped = false;
        const uint8_t *q;
        if (*p != '"' || !(q = string_end(p + 1, end, &escaped, f->scan)))
            return GIVE_UP;
        if (escaped)
            return by_reference(f, t, v, p, depth);
        /* codec_enum_by_name() without a strlen per name. */
        size_t n = (size_t)(q - p - 1);
        for (size_t i = 0; i < t->count && n <= f->o->max_string; i++)
            if (codec_name_equals(t->values[i].name, (const char *)p + 1, n)) {
                *(int32_t *)v = t->values[i].number;
                return q + 1;
            }
        return GIVE_UP;
    }
    case CODEC_T_VALUE:
        return any_value(f, v, p, depth);
    default:
        return by_reference(f, t, v, p, depth);
    }
}

/* ---------------------------------------------------------------------------
 * Validation only
 * ------------------------------------------------------------------------ */

/* The end of a string at p (its opening quote) that the reader would accept
 * (escapes, max-string), or NULL. */
static inline const uint8_t *skip_string(const fast *f, const uint8_t *p)
{
    bool escaped = false;
    const uint8_t *start = p + 1, *q = string_end(start, f->end, &escaped, f->scan);
    if (!q)
        return NULL;
    size_t raw = (size_t)(q - start);
    if (escaped) {
        const uint8_t *bad;
        raw = codec__json_unescape(start, raw, NULL, &bad);
        if (raw == (size_t)-1)
            return NULL;
    }
    return raw > f->o->max_string ? NULL : q + 1;
}

/* The end of the value at p (not white space; p < end; not a container),
 * or NULL where the reader would fail. */
static inline const uint8_t *skip_scalar(const fast *f, const uint8_t *p)
{
    const uint8_t *end = f->end;
    switch (*p) {
    case '"':
        return skip_string(f, p);
    case 't':
        return literal(p, end, "true", 4) ? p + 4 : NULL;
    case 'f':
        return literal(p, end, "false", 5) ? p + 5 : NULL;
    case 'n':
        return literal(p, end, "null", 4) ? p + 4 : NULL;
    default:
        return json_number_end(p, end);
    }
}

/* The end of the value at p (not white space; p < end) inside `depth`
 * containers, or NULL where the reader would fail: byte by byte. */
static const uint8_t *skip_walk(const fast *f, const uint8_t *p, uint32_t depth)
{
    const uint8_t *end = f->end;
    bool more;
    unsigned run = 0;
    switch (*p) {
    case '{':
        if (depth >= f->o->max_depth || (p = WS(p + 1, end)) == end)
            return NULL;
        if (*p == '}')
            return p + 1;
        do {
            if (*p != '"' || !(p = skip_string(f, p)) || (p = WS(p, end)) == end ||
                *p != ':' || (p = WS(p + 1, end)) == end || !(p = skip_walk(f, p, depth + 1)) ||
                !(p = separator(p, end, '}', &more, &run)))
                return NULL;
        } while (more);
        return p;
    case '[':
        if (depth >= f->o->max_depth || (p = WS(p + 1, end)) == end)
            return NULL;
        if (*p == ']')
            return p + 1;
        do {
            if (!(p = skip_walk(f, p, depth + 1)) || !(p = separator(p, end, ']', &more, &run)))
                return NULL;
        } while (more);
        return p;
    default:
        return skip_scalar(f, p);
    }
}

/* skip_walk() with the container skipper first for a container; when it
 * is unsure, the walk decides (the skipper is not tried again inside, so
 * an invalid document costs two passes at most). Scalars (most unknown
 * members) are skipped in place, without a call. */
static inline const uint8_t *skip_value(const fast *f, const uint8_t *p, uint32_t depth)
{
    if (*p != '{' && *p != '[')
        return skip_scalar(f, p);
    if (f->skip) {
        size_t max = f->o->max_depth;
        const uint8_t *q = f->skip(p, f->end, max > depth ? (uint32_t)(max - depth) : 0,
                                   f->o->max_string);
        if (q)
            return q;
    }
    return skip_walk(f, p, depth);
}

/* The container skipper, unless max_string is too small for it. */
static json_skip_fn skipper_for(const codec_json_options *o)
{
    return o->max_string >= JSON_SKIP_MIN_MAX_STRING ? codec__json_container_skipper() : NULL;
}

bool codec__json_valid_fast(const uint8_t *in, size_t n, const codec_json_options *o)
{
    fast f;
    f.base = in ? in : (const uint8_t *)"";
    f.end = f.base + n;
    f.o = o;
    f.scan = codec__json_long_scanner();
    f.skip = skipper_for(o);
    const uint8_t *p = WS(f.base, f.end);
    return p < f.end && (p = skip_value(&f, p, 0)) && WS(p, f.end) == f.end;
}

int codec__json_decode_fast(const codec_type *t, const uint8_t *in, size_t n, void *v,
                            const codec_json_options *o, bool plain_names, codec_arena *arena,
                            codec_error *err)
{
    fast f;
    f.base = in ? in : (const uint8_t *)"";
    f.end = f.base + n;
    f.o = o;
    f.arena = arena;
    f.err = err;
    f.text = (codec_text_pool){NULL, NULL};
    f.scan = codec__json_long_scanner();
    f.copy = codec__json_string_copier();
    f.skip = skipper_for(o);
    f.plain_names = plain_names;
    f.nomem = false;
    f.reader_ready = false;
    f.memo_ready = false;
    f.shapes_valid = 0;
    memset(f.shape_at, 0, sizeof f.shape_at);
    f.vals = (uint8_t *)f.vals_local;
    f.vals_top = 0;
    f.vals_cap = sizeof f.vals_local;
    f.nodes = f.nodes_end = NULL;
    const uint8_t *p = WS(f.base, f.end);
    if (p < f.end && (p = value(&f, t, v, p, 0)) && WS(p, f.end) == f.end)
        return CODEC_OK;
    return f.nomem ? JSON_NOMEM(err) : 1;
}
