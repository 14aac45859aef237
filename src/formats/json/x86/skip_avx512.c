/* skip_avx512.c — skips one JSON array or object 64 bytes at a time while
 * checking everything the reader would check in it, without a loop over
 * the bytes of strings or white space.
 *
 * Each 64-byte block becomes bit masks (bit i: byte i): quotes,
 * backslashes, white space, the six structural bytes (brackets and braces
 * by two compares of the bytes with bit 0x20 set), control bytes. The
 * few backslashes are walked one by one: codec__json_escape_length() checks each
 * escape and the bytes it covers are taken out (an escaped quote ends no
 * string). A carry-less multiplication of the remaining quotes by all ones
 * (a prefix xor) gives the bytes inside strings; the rest are outside.
 * Control bytes are wrong inside strings and, except \t \n \r, outside.
 * UTF-8 is checked on blocks with a byte >= 0x80 (utf8_lookup_internal.h).
 *
 * Outside strings the tokens are the structural bytes, the opening quote
 * of each string (a string is one token) and the first byte of each run of
 * other bytes (an atom: a number or a literal; its run's length is on the
 * masks, integers are checked on the digit mask, the rest by
 * json_number_end() or a compare, and it must fill its run). The tokens
 * are then walked in order through the reader's states, with a bit stack
 * of the open containers' kinds (at most 63 levels here: deeper goes to the
 * caller's walk) that also counts the depth against the limit and finds
 * the end. Where the grammar fixes what comes next, a step takes it too
 * (a value's ','; after a ',' or '{' in an object, the key and its ':'),
 * so the one branch the CPU cannot predict, on the kind of the value that
 * comes, is taken once per member (docs/formats/json.md has the figures).
 * Why this is faster than the byte walk: there, each token's
 * position is computed from the bytes before it (load, compare, count,
 * add: a chain of latencies per string and white-space run); here the
 * positions of all the tokens of a block come at once from the masks, and
 * the walk only reads one byte per token. (Checking the grammar on the
 * masks too — for each class of token, the gap mask added to the bits
 * after its tokens carries them to the next token, so "the token before
 * is a ','" is one mask — was measured: ~300 instructions per block, no
 * faster than the byte walk.)
 *
 * Strings that cross a block boundary are measured from their quote when
 * max_string is below the input's size (a string inside one block is
 * shorter than JSON_SKIP_MIN_MAX_STRING); one longer before unescaping is
 * left to the caller, which unescapes it to measure.
 *
 * The answer is the byte after the closing bracket, or NULL when anything
 * is wrong or unusual; the caller then walks the value byte by byte (and
 * the reader reports the error). Bytes of the last block after the end
 * belong to the document too: a valid document has no error there, so an
 * error there is only a wasted try. Never reads past `end` (the last block
 * is a masked load padded with spaces). Compiled with the AVX-512 flags
 * (file suffix); used only when the CPU has all of them
 * (CODEC_CPU_FOR_AVX512). */
#include "formats/json/json_scan_internal.h"
#include "formats/json/x86/utf8_lookup_internal.h"

#include <immintrin.h>

/* Bits 0..n-1 (n <= 64). */
static inline uint64_t below(unsigned n)
{
    return n >= 64 ? ~0ull : (1ull << n) - 1;
}

static inline uint64_t eq(__m512i in, __m512i c)
{
    return _mm512_cmpeq_epi8_mask(in, c);
}

/* Bit i set when byte i of in is an ASCII digit. */
static inline uint64_t digits_of(__m512i in, __m512i zero)
{
    return _mm512_cmplt_epu8_mask(_mm512_sub_epi8(in, zero), _mm512_set1_epi8(10));
}

/* A byte in all 64 lanes, kept in a register: without the barrier the
 * compiler rebuilds each one in every block (two instructions). */
static inline __m512i splat(char c)
{
    __m512i v = _mm512_set1_epi8(c);
    __asm__("" : "+v"(v));
    return v;
}

static inline __m512i table64(const uint8_t t[16])
{
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)t));
}

static inline __m512i high_nibbles(__m512i x)
{
    return _mm512_and_si512(_mm512_srli_epi16(x, 4), _mm512_set1_epi8(0x0F));
}

/* Whether the UTF-8 of `in`, after `before`, has an error. */
static inline bool utf8_wrong(__m512i in, __m512i before)
{
    /* Each 16-byte lane of `lanes` is the lane before the same one of in. */
    __m512i lanes = _mm512_permutex2var_epi64(before, _mm512_setr_epi64(6, 7, 8, 9, 10, 11, 12, 13),
                                              in);
    __m512i prev1 = _mm512_alignr_epi8(in, lanes, 15);
    __m512i prev2 = _mm512_alignr_epi8(in, lanes, 14);
    __m512i prev3 = _mm512_alignr_epi8(in, lanes, 13);
    __m512i special = _mm512_and_si512(
        _mm512_and_si512(_mm512_shuffle_epi8(table64(utf8_byte_1_high), high_nibbles(prev1)),
                         _mm512_shuffle_epi8(table64(utf8_byte_1_low),
                                             _mm512_and_si512(prev1, _mm512_set1_epi8(0x0F)))),
        _mm512_shuffle_epi8(table64(utf8_byte_2_high), high_nibbles(in)));
    __m512i third = _mm512_subs_epu8(prev2, _mm512_set1_epi8((char)(0xE0 - 0x80)));
    __m512i fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8((char)(0xF0 - 0x80)));
    __m512i must23 = _mm512_and_si512(_mm512_or_si512(third, fourth), _mm512_set1_epi8((char)0x80));
    __m512i wrong = _mm512_xor_si512(must23, special);
    return _mm512_test_epi8_mask(wrong, wrong) != 0;
}

/* Whether a sequence that starts in the last three bytes of `in` is not
 * finished within it (lead bytes >= C0, E0, F0 at 63, 62, 61). */
static inline bool utf8_unfinished(__m512i in)
{
    const __m512i max =
        _mm512_set_epi64((long long)0xBFDFEFFFFFFFFFFFull, -1, -1, -1, -1, -1, -1, -1);
    __m512i over = _mm512_subs_epu8(in, max);
    return _mm512_test_epi8_mask(over, over) != 0;
}

/* The xor of bits 0..i of x, at each bit i. */
static inline uint64_t prefix_xor(uint64_t x)
{
    __m128i r = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)x), _mm_set1_epi8((char)0xFF), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

/* Whether c can follow an atom (white space, a structural byte, a quote:
 * the pair rules decide the rest). */
static inline bool ends_atom(uint8_t c)
{
    const uint64_t low = 1ull << ' ' | 1ull << '\t' | 1ull << '\n' | 1ull << '\r' | 1ull << ',' |
                         1ull << ':' | 1ull << '"';
    return c < 64 ? (low >> c & 1) : (c == ']' || c == '}' || c == '[' || c == '{');
}

/* Whether the atom at a, which may run on past its block, is a number or
 * a literal followed by a byte that can end it. */
static bool long_atom_valid(const uint8_t *a, const uint8_t *end)
{
    size_t left = (size_t)(end - a);
    const uint8_t *z;
    if (*a == 't' || *a == 'n')
        z = left >= 4 && memcmp(a, *a == 't' ? "true" : "null", 4) == 0 ? a + 4 : NULL;
    else if (*a == 'f')
        z = left >= 5 && memcmp(a, "false", 5) == 0 ? a + 5 : NULL;
    else
        z = json_number_end(a, end);
    return z && z < end && ends_atom(*z);
}

/* Whether a[0..n) (n < 64) is a number in JSON grammar, read on `digits`
 * (bit i: a[i] is a digit; none at or past n): each run of digits is one
 * count of trailing bits instead of a loop over its bytes (canada.json's
 * 17-digit coordinates). Reads nothing at or past a[n]. */
static inline bool number_valid(const uint8_t *a, unsigned n, uint64_t digits)
{
    uint64_t other = ~digits;
    unsigned k = a[0] == '-';
    unsigned run = (unsigned)__builtin_ctzll(other >> k);
    if (!run || (a[k] == '0' && run > 1))
        return false;
    k += run;
    if (k < n && a[k] == '.') {
        k++;
        if (!(run = (unsigned)__builtin_ctzll(other >> k)))
            return false;
        k += run;
    }
    if (k < n && (a[k] | 0x20) == 'e') {
        k++;
        /* a[n] may lie past the input (the last block is padded in the
         * register only): nothing at or past n is read. */
        if (k < n && (a[k] == '+' || a[k] == '-'))
            k++;
        if (!(run = (unsigned)__builtin_ctzll(other >> k)))
            return false;
        k += run;
    }
    return k == n;
}

/* Whether the atom at a, whose run of atom bytes is n long (it ends in its
 * block), is a number or a literal; bit i of `digits` says a[i] is a digit.
 * Integers, most atoms, are checked on the masks. */
static inline bool atom_valid(const uint8_t *a, unsigned n, uint64_t digits)
{
    uint64_t all = below(n);
    if ((digits & all) == all)
        return a[0] != '0' || n == 1;
    if (a[0] == '-' && n >= 2 && (digits >> 1 & all >> 1) == all >> 1)
        return a[1] != '0' || n == 2;
    if (a[0] == 't' || a[0] == 'n')
        return n == 4 && memcmp(a, a[0] == 't' ? "true" : "null", 4) == 0;
    if (a[0] == 'f')
        return n == 5 && memcmp(a, "false", 5) == 0;
    return number_valid(a, n, digits & below(n));
}

/* Whether the atom at b[i] is a number or a literal; `last` marks the
 * last byte of each atom of the block, `digits` its digits. */
static inline bool atom_at(const uint8_t *b, unsigned i, const uint8_t *end, uint64_t last,
                           uint64_t digits)
{
    unsigned j = (unsigned)__builtin_ctzll(last >> i) + i;
    return j == 63 ? long_atom_valid(b + i, end) : atom_valid(b + i, j - i + 1, digits >> i);
}

/* The length of the escape at s (a backslash, s < end), 0 when invalid:
 * the one-letter ones here, \u to codec__json_escape_length(). */
static inline unsigned escape_length(const uint8_t *s, const uint8_t *end)
{
    if (end - s >= 2) {
        uint8_t c = s[1];
        if (c == '"' || c == '\\' || c == '/' || c == 'n' || c == 't' || c == 'r' || c == 'b' ||
            c == 'f')
            return 2;
    }
    return (unsigned)codec__json_escape_length(s, end);
}

/* The bytes (bits) of the block at p that escapes cover, each escape
 * checked: the first *taken bytes are covered by one that began in the
 * block before; *taken becomes the count for the next block. Sets *wrong
 * for an invalid escape. */
static inline uint64_t escapes(const uint8_t *p, const uint8_t *end, uint64_t backslash,
                               unsigned *taken_count, bool *wrong)
{
    uint64_t taken = below(*taken_count);
    *taken_count = 0;
    for (uint64_t b = backslash & ~taken; b; b &= ~taken) {
        unsigned i = (unsigned)__builtin_ctzll(b);
        unsigned len = escape_length(p + i, end);
        if (!len) {
            *wrong = true;
            return 0;
        }
        if (i + len > 64)
            *taken_count = i + len - 64;
        taken |= below(i + len) & ~below(i + 1);
        b &= b - 1;
    }
    return taken;
}

/* What the next token may be (the reader's states). */
enum { ST_VALUE, ST_ARRAY_FIRST, ST_OBJECT_FIRST, ST_KEY, ST_COLON, ST_AFTER };

/* Whether the string open at the start of the block at offset `at` (from
 * the skip's start), whose quote is at offset open_at, runs past
 * max_string raw bytes: to its closing quote (the first of `closing`), or
 * to the end of the block when it does not close there. Its raw length
 * bounds its decoded one; a longer raw string is left to the byte walk,
 * which unescapes it to measure. */
static inline bool open_string_too_long(size_t at, size_t open_at, uint64_t closing,
                                        size_t max_string)
{
    size_t stop = at + (closing ? (size_t)__builtin_ctzll(closing) : 64);
    return stop - open_at - 1 > max_string;
}

/* The skip, specialised by whether strings must be measured: only when
 * max_string is below the input's size, since measuring costs time (two
 * more values live through the block loop, and the token walk spills
 * registers; docs/formats/json.md has the figures). */
static inline __attribute__((always_inline)) const uint8_t *
skip(const uint8_t *p, const uint8_t *end, uint32_t room, size_t max_string, bool measure)
{
    __m512i before = _mm512_setzero_si512();
    bool unfinished = false;
    unsigned taken_count = 0, state = ST_VALUE;
    uint64_t in_string_carry = 0, in_atom = 0;
    size_t open_at = 0;   /* where the string open across blocks began (its quote) */
    uint32_t depth = 0, deepest = room < 63 ? room : 63;
    uint64_t kinds = 0;   /* bit i: level depth-i is an object */
    const __m512i quote_v = splat('"'), backslash_v = splat('\\'), space_v = splat(' '),
                  newline_v = splat('\n'), return_v = splat('\r'), tab_v = splat('\t'),
                  open_object_v = splat('{'), close_object_v = splat('}'), colon_v = splat(':'),
                  comma_v = splat(','), zero_v = splat('0');
    for (const uint8_t *b = p; b < end; b += 64) {
        size_t left = (size_t)(end - b);
        __m512i in = left >= 64 ? _mm512_loadu_si512((const void *)b)
                                : _mm512_mask_loadu_epi8(_mm512_set1_epi8(' '),
                                                         below((unsigned)left), b);
        if (_mm512_movepi8_mask(in)) {
            if (utf8_wrong(in, before))
                return NULL;
            unfinished = utf8_unfinished(in);
        } else if (unfinished) {
            return NULL;
        }
        before = in;

        bool wrong = false;
        uint64_t quote = eq(in, quote_v), backslash = eq(in, backslash_v);
        uint64_t taken = backslash | taken_count ? escapes(b, end, backslash, &taken_count, &wrong)
                                                 : 0;
        uint64_t quotes = quote & ~taken, in_string = prefix_xor(quotes) ^ in_string_carry;
        /* Strings that open and close in one block are shorter than 63
         * bytes (the caller's max_string is at least that); one that
         * crosses blocks is measured from its quote. */
        size_t at = (size_t)(b - p);
        if (measure && in_string_carry &&
            open_string_too_long(at, open_at, quotes & ~in_string, max_string))
            return NULL;
        in_string_carry = (uint64_t)((int64_t)in_string >> 63);
        if (measure && in_string_carry && quotes)
            open_at = at + 63 - (size_t)__builtin_clzll(quotes);
        uint64_t outside = ~in_string;
        uint64_t space = eq(in, space_v) | eq(in, newline_v) | eq(in, return_v) | eq(in, tab_v);
        uint64_t control = _mm512_cmplt_epu8_mask(in, space_v);
        if (wrong || (control & (in_string | ~space)))
            return NULL;

        /* '[' and ']' are '{' and '}' without bit 0x20: two compares for four. */
        __m512i folded = _mm512_or_si512(in, space_v);
        uint64_t structural = (eq(folded, open_object_v) | eq(folded, close_object_v) |
                               eq(in, colon_v) | eq(in, comma_v)) & outside;
        uint64_t strings = quote & ~taken & in_string;
        uint64_t other = outside & ~quote & ~space & ~structural;
        uint64_t atoms = other & ~(other << 1 | in_atom);
        in_atom = other >> 63;
        uint64_t last = other & ~(other >> 1);   /* the last byte of each atom */
        uint64_t digits = atoms ? digits_of(in, zero_v) : 0;

        /* The tokens in order, through the reader's states; the position
         * of each comes from the masks, not from the token before. Where
         * the grammar says what comes next, it is checked in the same step:
         * the ',' after a value, and after a ',' or '{' in an object the
         * key and its ':' (when they are in this block; else they come as
         * steps of their own). Those checks are branches the CPU predicts,
         * and the step that has to guess — what kind of value comes — runs
         * once per member instead of once per token. */
        for (uint64_t m = structural | strings | atoms; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctzll(m);
            uint8_t c = b[i];
            switch (c) {
            case '{':
            case '[':
                if ((state != ST_VALUE && state != ST_ARRAY_FIRST) || depth == deepest)
                    return NULL;
                depth++;
                kinds = kinds << 1 | (c == '{');
                state = c == '{' ? ST_OBJECT_FIRST : ST_ARRAY_FIRST;
                if (c == '{')
                    goto key;
                break;
            case '}':
            case ']':
                if ((kinds & 1) != (c == '}') ||
                    (state != ST_AFTER && state != (c == '}' ? ST_OBJECT_FIRST : ST_ARRAY_FIRST)))
                    return NULL;
                if (--depth == 0)
                    return b + i + 1;
                kinds >>= 1;
                goto after_value;
            case ':':
                if (state != ST_COLON)
                    return NULL;
                state = ST_VALUE;
                break;
            case ',':
                if (state != ST_AFTER)
                    return NULL;
            comma:
                if (!(kinds & 1)) {
                    state = ST_VALUE;
                    break;
                }
                state = ST_KEY;
            key: {
                /* The next two tokens a key and a ':': the member's value is next. */
                uint64_t rest = m & (m - 1), after_key = rest & (rest - 1);
                if (after_key && b[__builtin_ctzll(rest)] == '"' &&
                    b[__builtin_ctzll(after_key)] == ':') {
                    m = after_key;
                    state = ST_VALUE;
                }
                break;
            }
            case '"':
                if (state == ST_KEY || state == ST_OBJECT_FIRST) {
                    state = ST_COLON;
                    break;
                }
                if (state != ST_VALUE && state != ST_ARRAY_FIRST)
                    return NULL;
                goto after_value;
            default:   /* an atom */
                if ((state != ST_VALUE && state != ST_ARRAY_FIRST) ||
                    !atom_at(b, i, end, last, digits))
                    return NULL;
            after_value: {
                /* The next token a ',': taken with the value. */
                state = ST_AFTER;
                uint64_t rest = m & (m - 1);
                if (rest && b[__builtin_ctzll(rest)] == ',') {
                    m = rest;
                    goto comma;
                }
                break;
            }
            }
        }
    }
    return NULL;
}

/* One copy of the walk each. */
static __attribute__((noinline)) const uint8_t *skip_measured(const uint8_t *p, const uint8_t *end,
                                                              uint32_t room, size_t max_string)
{
    return skip(p, end, room, max_string, true);
}

static __attribute__((noinline)) const uint8_t *skip_unmeasured(const uint8_t *p,
                                                                const uint8_t *end, uint32_t room)
{
    return skip(p, end, room, 0, false);
}

const uint8_t *codec__json_skip_avx512(const uint8_t *p, const uint8_t *end, uint32_t room,
                                       size_t max_string)
{
    if (max_string < (size_t)(end - p))
        return skip_measured(p, end, room, max_string);
    return skip_unmeasured(p, end, room);
}
