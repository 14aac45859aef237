/* inflate.c — streaming inflate (RFC 1951) with the zlib and gzip
 * wrappers (RFC 1950, 1952); see inflate_internal.h.
 *
 * Two decoders share one state:
 *   - the fast loop runs while at least FAST_IN bytes of input and FAST_OUT
 *     bytes of output room remain: an 8-byte refill fills the 64-bit bit
 *     buffer with input, 56 to 63 bits of it counted as read, enough for
 *     three literals and the next lookup, or for a whole match (at most
 *     48 bits) and the next lookup, and matches are copied 16 or 8 bytes
 *     at a time, past their end into the output room that remains;
 *   - the careful path decodes one whole item (symbol, match, header field)
 *     at a time, only once all of its bits are in the bit buffer, taking
 *     input one byte at a time. Nothing is consumed for an item that is not
 *     complete, so a call can stop anywhere and the next goes on.
 *
 * Huffman tables: an entry (uint32) holds the bits its item takes, the
 * code length plus the extra bits of the symbol (bits 0..7, at most 28:
 * the low byte, which shifts and x86's bzhi use as they are), the code
 * length alone (bits 8..11), flags (bits 12..15) and the value (bits
 * 16..31: literal byte, length or distance base). Codes longer than the
 * table's bits go to a subtable whose index bits are in the pointing entry
 * (bits 8..11), whose offset is its value, and which takes no bits itself
 * (its low byte is 0), so the fast loop can drop `e`'s bits before it
 * knows what `e` is.
 *
 * History: output written in this call is read back in place; before it,
 * the last 32 KiB of earlier output are in a circular window, updated
 * (with the check value) when a call returns or a member ends. */
#include "inflate_internal.h"
#include "compress_internal.h"
#include "core/cpu_internal.h"
#include "codec/core.h"
#include "codec/integrity.h"

#include <stdlib.h>
#include <string.h>

#define WSIZE 32768u
#define WMASK (WSIZE - 1)

/* Index bits of the literal/length, distance and code-length tables, and
 * their sizes with the largest subtables they can need (every code longer
 * than the index bits in a subtable of 2^(15 - bits) entries). */
#define LBITS 11
#define DBITS 8
#define CBITS 7
#define LTABLE ((1u << LBITS) + 288u * (1u << (15 - LBITS)))
#define DTABLE ((1u << DBITS) + 32u * (1u << (15 - DBITS)))

#define E_EOB (1u << 12)
#define E_BAD (1u << 13)
#define E_SUB (1u << 14)
#define E_LIT (1u << 15)

/* The fast loop needs this much input and output room between two checks
 * of them: up to three 8-byte refills, each at most 7 bytes on from the
 * last (2 * 7 + 8 <= 24), and three literals then a 258-byte match,
 * copied in steps that write up to 272 bytes. */
#define FAST_IN 24
#define FAST_OUT (258 + 32)
_Static_assert(3 + 272 <= FAST_OUT, "three literals and a match between checks");
_Static_assert(56 >= 4 * LBITS, "three literals and a lookup per refill");
_Static_assert(64 >= 15 + 5 + 15 + 13 + LBITS, "a match and a lookup per refill");

enum mode {
    M_HEAD,        /* the wrapper's header */
    M_GZ_FIXED,    /* gzip: the 10 fixed bytes */
    M_GZ_XLEN,
    M_GZ_EXTRA,
    M_GZ_NAME,
    M_GZ_COMMENT,
    M_GZ_HCRC,
    M_BLOCK,       /* a block header */
    M_STORED_LEN,
    M_STORED,
    M_TABLE,       /* HLIT, HDIST, HCLEN */
    M_CLENS,       /* the code-length code */
    M_LENS,        /* the literal/length and distance code lengths */
    M_DECODE,      /* symbols of a Huffman block */
    M_TRAILER,
    M_DONE,        /* a stream (gzip: a member) ended */
    M_ERROR
};

struct codec_inflater {
    uint64_t bitbuf;          /* bits not yet used; zero above bitcnt */
    unsigned bitcnt;
    enum mode mode;
    codec_inflate_wrap wrap;
    bool final;               /* the block being decoded is the last */
    bool fixed;               /* ltab/dtab hold the fixed codes */
    uint32_t copy_len, copy_dist; /* a match not yet all written */
    uint32_t stored_left;
    unsigned hlit, hdist, hclen, have; /* dynamic header, lengths read */
    unsigned count;           /* header bytes read, trailer bytes read */
    unsigned gz_flags, gz_left;
    uint32_t hcrc;
    uint8_t head[10];
    uint64_t trailer;
    uint32_t check;           /* Adler-32 or CRC-32 of the output */
    uint32_t total;           /* output of the member, mod 2^32 */
    unsigned whave, wnext;    /* window bytes held, next write position */
    const char *msg;
    int detail;
    bool unsupported;
    uint8_t lens[288 + 32];
    uint32_t ctab[1u << CBITS];
    uint32_t ltab[LTABLE];
    uint32_t dtab[DTABLE];
    uint8_t window[WSIZE + 16]; /* + room for a 16-byte copy's overrun */
};

/* ---- tables -------------------------------------------------------------- */

/* RFC 1951 3.2.5 and 3.2.7 (shared with the encoder, compress_internal.h). */
const uint16_t codec__deflate_len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,
                                              15, 17, 19, 23, 27, 31, 35, 43, 51,  59,
                                              67, 83, 99, 115, 131, 163, 195, 227, 258};
const uint8_t codec__deflate_len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                              2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
const uint16_t codec__deflate_dist_base[30] = {
    1,   2,   3,   4,   5,    7,    9,    13,   17,   25,   33,   49,    65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
const uint8_t codec__deflate_dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                               6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
const uint8_t codec__deflate_cl_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5,
                                             11, 4,  12, 3, 13, 2, 14, 1, 15};

/* What an entry for symbol `sym` holds besides its code length. */
static uint32_t litlen_value(unsigned sym)
{
    if (sym < 256)
        return E_LIT | (uint32_t)sym << 16;
    if (sym == 256)
        return E_EOB;
    if (sym < 286)
        return (uint32_t)codec__deflate_len_base[sym - 257] << 16 | (uint32_t)codec__deflate_len_extra[sym - 257];
    return E_BAD; /* 286, 287: in the fixed code only */
}

static uint32_t dist_value(unsigned sym)
{
    if (sym < 30)
        return (uint32_t)codec__deflate_dist_base[sym] << 16 | (uint32_t)codec__deflate_dist_extra[sym];
    return E_BAD; /* 30, 31: in the fixed code only */
}

static uint32_t clen_value(unsigned sym)
{
    static const uint8_t extra[3] = {2, 3, 7};
    return (uint32_t)sym << 16 | (sym < 16 ? 0u : (uint32_t)extra[sym - 16]);
}

static unsigned reverse_bits(unsigned code, unsigned len)
{
    unsigned r = 0;
    for (unsigned i = 0; i < len; i++, code >>= 1)
        r = r << 1 | (code & 1);
    return r;
}

/* Builds the decode table of the canonical code with lengths lens[0..n)
 * (RFC 1951 3.2.2), `bits` index bits. Over-subscribed codes are refused,
 * and so are incomplete ones except, where `single` allows (the literal/
 * length and distance codes, as zlib does), an empty code or one code of
 * one bit: its unused code words decode as invalid. */
static bool build_table(uint32_t *table, unsigned bits, const uint8_t *lens, unsigned n,
                        uint32_t (*value)(unsigned), bool single)
{
    unsigned count[16] = {0}, offs[16];
    uint16_t sorted[288];
    for (unsigned i = 0; i < n; i++)
        count[lens[i]]++;
    int left = 1;
    unsigned max = 0;
    for (unsigned len = 1; len <= 15; len++) {
        left = 2 * left - (int)count[len];
        if (left < 0)
            return false;
        if (count[len])
            max = len;
    }
    bool incomplete = left > 0;
    if (incomplete && !(single && max <= 1))
        return false;
    unsigned size = 1u << bits, sub_bits = max > bits ? max - bits : 0;
    if (incomplete)
        for (unsigned i = 0; i < size; i++)
            table[i] = E_BAD | 1u | 1u << 8;
    offs[1] = 0;
    for (unsigned len = 1; len < 15; len++)
        offs[len + 1] = offs[len] + count[len];
    for (unsigned i = 0; i < n; i++)
        if (lens[i])
            sorted[offs[lens[i]]++] = (uint16_t)i;
    unsigned code = 0, k = 0, next_sub = size, prefix = ~0u, sub = 0;
    for (unsigned len = 1; len <= max; len++, code <<= 1) {
        for (unsigned c = 0; c < count[len]; c++, code++) {
            uint32_t e = value(sorted[k++]);
            e += len | len << 8; /* length + extra bits, and length */
            unsigned rev = reverse_bits(code, len);
            if (len <= bits) {
                for (unsigned j = rev; j < size; j += 1u << len)
                    table[j] = e;
                continue;
            }
            if ((rev & (size - 1)) != prefix) {
                prefix = rev & (size - 1);
                sub = next_sub;
                next_sub += 1u << sub_bits;
                table[prefix] = E_SUB | (uint32_t)sub << 16 | sub_bits << 8;
            }
            for (unsigned j = rev >> bits; j < 1u << sub_bits; j += 1u << (len - bits))
                table[sub + j] = e;
        }
    }
    return true;
}

static void build_fixed(codec_inflater *z)
{
    uint8_t lens[288];
    memset(lens, 8, 144);
    memset(lens + 144, 9, 112);
    memset(lens + 256, 7, 24);
    memset(lens + 280, 8, 8);
    build_table(z->ltab, LBITS, lens, 288, litlen_value, false);
    memset(lens, 5, 32);
    build_table(z->dtab, DBITS, lens, 32, dist_value, false);
    z->fixed = true;
}

/* ---- output -------------------------------------------------------------- */

/* Adds out[0..n) to the check value, the size and the window. */
static void take_output(codec_inflater *z, const uint8_t *out, size_t n)
{
    if (!n)
        return;
    if (z->wrap == CODEC_INFLATE_GZIP)
        z->check = codec_crc32(z->check, out, n);
    else if (z->wrap == CODEC_INFLATE_ZLIB)
        z->check = codec_adler32(z->check, out, n);
    z->total += (uint32_t)n;
    if (n >= WSIZE) {
        memcpy(z->window, out + n - WSIZE, WSIZE);
        z->wnext = 0;
        z->whave = WSIZE;
        return;
    }
    size_t k = WSIZE - z->wnext < n ? WSIZE - z->wnext : n;
    memcpy(z->window + z->wnext, out, k);
    memcpy(z->window, out + k, n - k);
    z->wnext = (unsigned)((z->wnext + n) & WMASK);
    z->whave = z->whave + n > WSIZE ? WSIZE : z->whave + (unsigned)n;
}

/* Writes len bytes from dist back; `near` bytes before out are this
 * call's output (the window holds what came before). The caller checked
 * dist <= near + whave and the room. */
static uint8_t *copy_slow(const codec_inflater *z, uint8_t *out, size_t near, uint32_t dist,
                          uint32_t len)
{
    if (dist > near) {
        uint32_t back = (uint32_t)(dist - near);
        uint32_t k = back < len ? back : len;
        unsigned pos = (z->wnext - back) & WMASK;
        len -= k;
        while (k) {
            unsigned run = WSIZE - pos < k ? WSIZE - pos : k;
            memcpy(out, z->window + pos, run);
            out += run, k -= run;
            pos = (pos + run) & WMASK;
        }
    }
    const uint8_t *src = out - dist;
    while (len--)
        *out++ = *src++;
    return out;
}

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* ---- the inflater -------------------------------------------------------- */

codec_inflater *codec__inflater_new(codec_inflate_wrap wrap)
{
    codec_inflater *z = malloc(sizeof *z);
    if (!z)
        return NULL;
    z->wrap = wrap;
    codec__inflater_reset(z);
    return z;
}

void codec__inflater_reset(codec_inflater *z)
{
    codec_inflate_wrap wrap = z->wrap;
    memset(z, 0, offsetof(codec_inflater, lens));
    /* Fast copies out of the window may read bytes past the match (never
     * past the array); they are written to scratch output, so neither an
     * uninitialised heap byte nor one of an earlier stream may reach the
     * caller's buffer. */
    memset(z->window, 0, sizeof z->window);
    z->wrap = wrap;
    z->mode = M_HEAD;
}

void codec__inflater_free(codec_inflater *z)
{
    free(z);
}

bool codec__inflate_finished(const codec_inflater *z)
{
    return z->mode == M_DONE && z->bitcnt == 0;
}

const char *codec__inflate_error(const codec_inflater *z, int *detail, bool *unsupported)
{
    *detail = z->detail;
    *unsupported = z->unsupported;
    return z->msg ? z->msg : "invalid deflate stream";
}

#define MASK(n) (((uint64_t)1 << (n)) - 1)
/* The entry a subtable gives for bit buffer b, `e` pointing to it. */
static inline uint32_t subentry(const uint32_t *t, unsigned bits, uint32_t e, uint64_t b)
{
    return t[(e >> 16) + ((b >> bits) & MASK(e >> 8 & 15))];
}

/* One more input byte into the bit buffer, or stop for more input. */
#define PULL()                                                                                   \
    do {                                                                                         \
        if (in == in_end)                                                                        \
            goto suspend;                                                                        \
        bb |= (uint64_t)*in++ << bc;                                                             \
        bc += 8;                                                                                 \
    } while (0)
#define NEED(n)                                                                                  \
    do {                                                                                         \
        while (bc < (unsigned)(n))                                                               \
            PULL();                                                                              \
    } while (0)
#define DROP(n) (bb >>= (n), bc -= (n))
#define FAIL(d, m)                                                                               \
    do {                                                                                         \
        z->detail = (d);                                                                         \
        z->msg = (m);                                                                            \
        z->mode = M_ERROR;                                                                       \
        goto suspend;                                                                            \
    } while (0)

/* The 10 fixed bytes of a gzip header, then its optional fields. */
static enum mode gzip_next_field(codec_inflater *z)
{
    if (z->gz_flags & 4 && z->mode < M_GZ_XLEN)
        return M_GZ_XLEN;
    if (z->gz_flags & 8 && z->mode < M_GZ_NAME)
        return M_GZ_NAME;
    if (z->gz_flags & 16 && z->mode < M_GZ_COMMENT)
        return M_GZ_COMMENT;
    if (z->gz_flags & 2 && z->mode < M_GZ_HCRC)
        return M_GZ_HCRC;
    return M_BLOCK;
}

static int fast_fail(codec_inflater *z, const char *msg)
{
    z->detail = CODEC_D_CORRUPT;
    z->msg = msg;
    z->mode = M_ERROR;
    return -1;
}

/* in_last and out_last: the last positions with FAST_IN bytes of input and
 * FAST_OUT of room (set up by decode_fast).
 *
 * In the fast loop only the low 6 bits of bc mean anything: an entry's
 * bits are dropped with `bc -= e`, whose low 6 bits are what
 * `bc -= e & 63` leaves (the true count stays in 0..63), and the shifts
 * (which x86 masks to 6 bits for free) and the refill read no more. It
 * saves a mask per symbol. */
#define FAST_ROOM (in <= in_last && out <= out_last)
#define RARELY(x) __builtin_expect(!!(x), 0)
#define REFILL()                                                                                 \
    (bb |= load_le64(in) << (bc & 63), in += 7 - (bc >> 3 & 7), bc |= 56)
#define TAKE(e) (bb >>= (e) & 63, bc -= (e))
#define PUT_LITERAL(e) (*out++ = (uint8_t)((e) >> 16))
/* The extra bits of a length or distance entry e, from the bit buffer
 * `from` that held them: `>> 8 & 63` takes bits 12..13 too, which are
 * clear in such an entry, and lets x86 shift with no mask. */
#define EXTRA(from, e) ((uint32_t)(((from) & MASK((uint8_t)(e))) >> ((e) >> 8 & 63)))

/* Copies a match of len bytes from dist back, all of it in this call's
 * output (dist <= out - taken), in steps that may write up to 32 bytes
 * past its end (FAST_OUT leaves the room). */
static inline __attribute__((always_inline)) void copy_near(uint8_t *out, uint32_t dist,
                                                            uint32_t len)
{
    const uint8_t *src = out - dist;
    uint8_t *end = out + len;
    if (dist >= 16) {
        /* 32 bytes whatever len (most matches are shorter): no branch
         * on the length but for the long ones */
        memcpy(out, src, 16);
        memcpy(out + 16, src + 16, 16);
        for (out += 32, src += 32; out < end; out += 16, src += 16)
            memcpy(out, src, 16);
    } else if (dist >= 8) {
        do {
            memcpy(out, src, 8);
            out += 8, src += 8;
        } while (out < end);
    } else if (dist == 1) {
        uint64_t run = 0x0101010101010101ull * *src;
        do {
            memcpy(out, &run, 8);
            out += 8;
        } while (out < end);
    } else {
        while (out < end)
            *out++ = *src++;
    }
}

/* A match that reaches into the window (dist > near, the output of this
 * call). Not inlined: rare, and its state would crowd the loop's registers. */
static __attribute__((noinline)) uint8_t *copy_far(const codec_inflater *z, uint8_t *out,
                                                   size_t near, uint32_t dist, uint32_t len)
{
    uint32_t back = (uint32_t)(dist - near);
    unsigned pos = (z->wnext - back) & WMASK;
    if (back < len || pos + len > WSIZE) /* wraps, or goes on past the window */
        return copy_slow(z, out, near, dist, len);
    const uint8_t *src = z->window + pos; /* no overlap with out */
    uint8_t *end = out + len;
    do {
        memcpy(out, src, 16);
        out += 16, src += 16;
    } while (out < end);
    return end;
}

/* The fast loop: after a refill the bit buffer holds a whole symbol or
 * match. The next literal/length entry is looked up before a match is
 * copied, so the two overlap. Runs while FAST_IN bytes of input and
 * FAST_OUT of room remain (the caller checked once); returns 0 when they
 * do not, 1 at the end of the block, -1 at an error. Its own function so
 * that its state lives in registers. */
static inline __attribute__((always_inline)) int
decode_fast_body(codec_inflater *z, const uint8_t **inp, const uint8_t *in_end, uint8_t **outp,
                 uint8_t *out_end, const uint8_t *taken, uint64_t *bbp, unsigned *bcp)
{
    const uint8_t *in = *inp;
    uint8_t *out = *outp;
    uint64_t bb = *bbp, from;
    unsigned bc = *bcp;
    const uint8_t *const in_last = in_end - FAST_IN;
    const uint8_t *const out_last = out_end - FAST_OUT;
    REFILL();
    uint32_t e = z->ltab[bb & MASK(LBITS)];
    for (;;) {
        from = bb;
        TAKE(e);
        if (e & E_LIT) {
            /* Up to three literals, then the next entry, from the 56
             * bits: a literal of the main table takes at most LBITS, so
             * 4 * LBITS are enough. */
            PUT_LITERAL(e);
            e = z->ltab[bb & MASK(LBITS)];
            if (e & E_LIT) {
                TAKE(e);
                PUT_LITERAL(e);
                e = z->ltab[bb & MASK(LBITS)];
                if (e & E_LIT) {
                    TAKE(e);
                    PUT_LITERAL(e);
                    e = z->ltab[bb & MASK(LBITS)];
                    if (e & E_LIT) {
                        if (!FAST_ROOM)
                            break;
                        REFILL(); /* adds bits above bc: e stays right */
                        continue;
                    }
                }
            }
            /* A match (or the block's end) after one to three literals:
             * on to it with no check of the room, which FAST_OUT leaves
             * for three literals and a match. */
            REFILL();
            from = bb;
            TAKE(e);
        }
        if (RARELY(e & (E_SUB | E_EOB | E_BAD))) {
            if (e & E_SUB) { /* a code longer than LBITS: rare */
                e = subentry(z->ltab, LBITS, e, bb);
                TAKE(e);
                if (e & E_LIT) {
                    PUT_LITERAL(e);
                    if (!FAST_ROOM)
                        break;
                    REFILL();
                    e = z->ltab[bb & MASK(LBITS)];
                    continue;
                }
            }
            if (e & (E_EOB | E_BAD)) {
                bc &= 63;
                /* The bits above bc are input bytes counted as unread:
                 * clear them for the careful path. */
                bb &= MASK(bc);
                if (e & E_BAD)
                    return fast_fail(z, "invalid literal/length code");
                *bbp = bb, *bcp = bc, *inp = in, *outp = out;
                return 1;
            }
        }
        uint32_t len = (e >> 16) + EXTRA(from, e);
        uint32_t d = z->dtab[bb & MASK(DBITS)];
        if (RARELY(d & (E_SUB | E_BAD))) {
            if (d & E_SUB)
                d = subentry(z->dtab, DBITS, d, bb);
            if (d & E_BAD)
                return fast_fail(z, "invalid distance code");
        }
        from = bb;
        TAKE(d);
        uint32_t dist = (d >> 16) + EXTRA(from, d);
        /* The next lookup before the refill (which adds bits above bc):
         * it then waits on no more than this distance's bits, and
         * overlaps the copy. All 64 bits of the buffer were input after
         * the last refill, and a match takes at most 48: LBITS are left
         * for the lookup, though bc may count fewer. */
        e = z->ltab[bb & MASK(LBITS)];
        REFILL();
        size_t near = (size_t)(out - taken);
        if (!RARELY(dist > near)) {
            copy_near(out, dist, len);
            out += len;
        } else {
            if (dist > near + z->whave)
                return fast_fail(z, "invalid distance too far back");
            out = copy_far(z, out, near, dist, len);
        }
        if (!FAST_ROOM)
            break;
    }
    bc &= 63;
    bb &= MASK(bc);
    *bbp = bb, *bcp = bc, *inp = in, *outp = out;
    return 0;
}
#undef EXTRA
#undef PUT_LITERAL
#undef RARELY
#undef TAKE
#undef REFILL
#undef FAST_ROOM

typedef int decode_fast_fn(codec_inflater *z, const uint8_t **inp, const uint8_t *in_end,
                           uint8_t **outp, uint8_t *out_end, const uint8_t *taken, uint64_t *bbp,
                           unsigned *bcp);

static int decode_fast_base(codec_inflater *z, const uint8_t **inp, const uint8_t *in_end,
                            uint8_t **outp, uint8_t *out_end, const uint8_t *taken,
                            uint64_t *bbp, unsigned *bcp)
{
    return decode_fast_body(z, inp, in_end, outp, out_end, taken, bbp, bcp);
}

#if CODEC_X86_KERNELS
/* The same loop built for BMI2, chosen by CPU as libdeflate does: its
 * shifts by a register (shrx, bzhi) are one micro-op where `shr %cl` is
 * three on Intel cores. 4% off a stream's decode of 1 MiB of prose on a
 * Xeon with AVX-512 (benchmarks.md, part N); AMD's cores gained nothing. */
__attribute__((target("bmi2"))) static int
decode_fast_bmi2(codec_inflater *z, const uint8_t **inp, const uint8_t *in_end, uint8_t **outp,
                 uint8_t *out_end, const uint8_t *taken, uint64_t *bbp, unsigned *bcp)
{
    return decode_fast_body(z, inp, in_end, outp, out_end, taken, bbp, bcp);
}
#endif

static decode_fast_fn *decode_fast_for_cpu(void)
{
    return codec_cpu_has(CODEC_CPU_BMI2) ? CODEC_KERNEL(decode_fast_bmi2) : decode_fast_base;
}

int codec__inflate(codec_inflater *z, const uint8_t **inp, const uint8_t *in_end, uint8_t **outp,
                   uint8_t *out_end)
{
    const uint8_t *in = *inp;
    uint8_t *out = *outp;
    uint8_t *taken = out; /* output before this is in the window */
    uint64_t bb = z->bitbuf;
    unsigned bc = z->bitcnt;
    const uint32_t *lt = z->ltab, *dt = z->dtab;
    for (;;) {
        switch (z->mode) {
        case M_HEAD:
            z->check = z->wrap == CODEC_INFLATE_ZLIB ? 1 : 0;
            z->total = 0;
            z->whave = z->wnext = 0;
            z->count = 0;
            z->copy_len = 0;
            if (z->wrap == CODEC_INFLATE_RAW) {
                z->mode = M_BLOCK;
            } else if (z->wrap == CODEC_INFLATE_GZIP) {
                z->mode = M_GZ_FIXED;
            } else {
                NEED(16);
                unsigned cmf = (unsigned)(bb & 0xff), flg = (unsigned)(bb >> 8 & 0xff);
                if ((cmf << 8 | flg) % 31)
                    FAIL(CODEC_D_BAD_MAGIC, "incorrect header check");
                if ((cmf & 15) != 8)
                    FAIL(CODEC_D_BAD_MAGIC, "unknown compression method");
                if (cmf >> 4 > 7)
                    FAIL(CODEC_D_CORRUPT, "invalid window size");
                if (flg & 0x20) {
                    z->unsupported = true;
                    FAIL(CODEC_D_CORRUPT, "stream needs a preset dictionary (not supported)");
                }
                DROP(16);
                z->mode = M_BLOCK;
            }
            break;

        case M_GZ_FIXED:
            while (z->count < 10) {
                NEED(8);
                z->head[z->count++] = (uint8_t)bb;
                DROP(8);
                if (z->count == 2 && (z->head[0] != 0x1f || z->head[1] != 0x8b))
                    FAIL(CODEC_D_BAD_MAGIC, "incorrect header check");
                if (z->count == 4) {
                    if (z->head[2] != 8)
                        FAIL(CODEC_D_BAD_MAGIC, "unknown compression method");
                    if (z->head[3] & 0xe0)
                        FAIL(CODEC_D_CORRUPT, "unknown header flags set");
                }
            }
            z->gz_flags = z->head[3];
            z->hcrc = z->gz_flags & 2 ? codec_crc32(0, z->head, 10) : 0;
            z->count = 0;
            z->mode = gzip_next_field(z);
            break;

        case M_GZ_XLEN:
        case M_GZ_HCRC:
            NEED(16);
            if (z->mode == M_GZ_HCRC) {
                if ((bb & 0xffff) != (z->hcrc & 0xffff))
                    FAIL(CODEC_D_CORRUPT, "header crc mismatch");
                DROP(16);
                z->mode = M_BLOCK;
                break;
            }
            {
                uint8_t two[2] = {(uint8_t)bb, (uint8_t)(bb >> 8)};
                if (z->gz_flags & 2)
                    z->hcrc = codec_crc32(z->hcrc, two, 2);
                z->gz_left = (unsigned)(bb & 0xffff);
            }
            DROP(16);
            z->mode = M_GZ_EXTRA;
            break;

        case M_GZ_EXTRA:
        case M_GZ_NAME:
        case M_GZ_COMMENT:
            for (;;) {
                if (z->mode == M_GZ_EXTRA && !z->gz_left)
                    break;
                NEED(8);
                uint8_t c = (uint8_t)bb;
                DROP(8);
                if (z->gz_flags & 2)
                    z->hcrc = codec_crc32(z->hcrc, &c, 1);
                if (z->mode == M_GZ_EXTRA)
                    z->gz_left--;
                else if (!c)
                    break;
            }
            z->mode = gzip_next_field(z);
            break;

        case M_BLOCK:
            NEED(3);
            z->final = bb & 1;
            switch (bb >> 1 & 3) {
            case 0:
                z->mode = M_STORED_LEN;
                break;
            case 1:
                if (!z->fixed)
                    build_fixed(z);
                z->mode = M_DECODE;
                break;
            case 2:
                z->mode = M_TABLE;
                break;
            default:
                DROP(3);
                FAIL(CODEC_D_CORRUPT, "invalid block type");
            }
            DROP(3);
            break;

        case M_STORED_LEN:
            DROP(bc & 7);
            NEED(32);
            if ((bb & 0xffff) != (~bb >> 16 & 0xffff))
                FAIL(CODEC_D_CORRUPT, "invalid stored block lengths");
            z->stored_left = (uint32_t)(bb & 0xffff);
            DROP(32);
            z->mode = M_STORED;
            break;

        case M_STORED:
            while (z->stored_left) {
                if (out == out_end)
                    goto suspend;
                if (bc) { /* whole bytes: aligned since M_STORED_LEN */
                    *out++ = (uint8_t)bb;
                    DROP(8);
                    z->stored_left--;
                    continue;
                }
                if (in == in_end)
                    goto suspend;
                size_t k = z->stored_left;
                if ((size_t)(in_end - in) < k)
                    k = (size_t)(in_end - in);
                if ((size_t)(out_end - out) < k)
                    k = (size_t)(out_end - out);
                memcpy(out, in, k);
                in += k, out += k;
                z->stored_left -= (uint32_t)k;
            }
            z->mode = z->final ? M_TRAILER : M_BLOCK;
            break;

        case M_TABLE:
            NEED(14);
            z->hlit = (unsigned)(bb & 31) + 257;
            z->hdist = (unsigned)(bb >> 5 & 31) + 1;
            z->hclen = (unsigned)(bb >> 10 & 15) + 4;
            DROP(14);
            if (z->hlit > 286 || z->hdist > 30)
                FAIL(CODEC_D_CORRUPT, "too many length or distance symbols");
            memset(z->lens, 0, 19);
            z->have = 0;
            z->mode = M_CLENS;
            break;

        case M_CLENS: {
            while (z->have < z->hclen) {
                NEED(3);
                z->lens[codec__deflate_cl_order[z->have++]] = (uint8_t)(bb & 7);
                DROP(3);
            }
            if (!build_table(z->ctab, CBITS, z->lens, 19, clen_value, false))
                FAIL(CODEC_D_CORRUPT, "invalid code lengths set");
            z->have = 0;
            z->mode = M_LENS;
            break;
        }

        case M_LENS: {
            unsigned total = z->hlit + z->hdist;
            while (z->have < total) {
                uint32_t e = z->ctab[bb & MASK(CBITS)];
                unsigned len = e >> 8 & 15, all = e & 63, sym = e >> 16;
                if (all > bc) {
                    PULL();
                    continue;
                }
                if (sym < 16) {
                    z->lens[z->have++] = (uint8_t)sym;
                    DROP(len);
                    continue;
                }
                unsigned rep = (unsigned)((bb & MASK(all)) >> len) + (sym == 18 ? 11 : 3);
                uint8_t v = 0;
                if (sym == 16) {
                    if (!z->have)
                        FAIL(CODEC_D_CORRUPT, "invalid bit length repeat");
                    v = z->lens[z->have - 1];
                }
                if (rep > total - z->have)
                    FAIL(CODEC_D_CORRUPT, "invalid bit length repeat");
                DROP(all);
                memset(z->lens + z->have, v, rep);
                z->have += rep;
            }
            if (!z->lens[256])
                FAIL(CODEC_D_CORRUPT, "invalid code -- missing end-of-block");
            z->fixed = false;
            if (!build_table(z->ltab, LBITS, z->lens, z->hlit, litlen_value, true))
                FAIL(CODEC_D_CORRUPT, "invalid literal/lengths set");
                    if (!build_table(z->dtab, DBITS, z->lens + z->hlit, z->hdist, dist_value, true))
                FAIL(CODEC_D_CORRUPT, "invalid distances set");
            z->mode = M_DECODE;
            break;
        }

        case M_DECODE:
            if (z->copy_len) {
                size_t room = (size_t)(out_end - out);
                uint32_t k = z->copy_len < room ? z->copy_len : (uint32_t)room;
                out = copy_slow(z, out, (size_t)(out - taken), z->copy_dist, k);
                z->copy_len -= k;
                if (z->copy_len)
                    goto suspend;
            }
            for (;;) {
                if (in_end - in >= FAST_IN && out_end - out >= FAST_OUT) {
                    int r = decode_fast_for_cpu()(z, &in, in_end, &out, out_end, taken, &bb, &bc);
                    if (r < 0)
                        goto suspend;
                    if (r > 0)
                        goto block_end;
                }

                /* Careful path: one item once all its bits are there. */
                uint32_t e = lt[bb & MASK(LBITS)];
                if (e & E_SUB) {
                    if (bc < LBITS) {
                        PULL();
                        continue;
                    }
                    e = subentry(lt, LBITS, e, bb);
                }
                unsigned len0 = e >> 8 & 15, all = e & 63;
                if (all > bc) {
                    PULL();
                    continue;
                }
                if (e & E_LIT) {
                    if (out == out_end)
                        goto suspend;
                    *out++ = (uint8_t)(e >> 16);
                    DROP(len0);
                    continue;
                }
                if (e & E_BAD)
                    FAIL(CODEC_D_CORRUPT, "invalid literal/length code");
                if (e & E_EOB) {
                    DROP(len0);
                    goto block_end;
                }
                uint32_t len = (e >> 16) + (uint32_t)((bb & MASK(all)) >> len0);
                uint64_t b2 = bb >> all;
                unsigned c2 = bc - all;
                uint32_t d = dt[b2 & MASK(DBITS)];
                if (d & E_SUB) {
                    if (c2 < DBITS) {
                        PULL();
                        continue;
                    }
                    d = subentry(dt, DBITS, d, b2);
                }
                unsigned dall = d & 63;
                if (dall > c2) {
                    PULL();
                    continue;
                }
                if (d & E_BAD)
                    FAIL(CODEC_D_CORRUPT, "invalid distance code");
                uint32_t dist = (d >> 16) + (uint32_t)((b2 & MASK(dall)) >> (d >> 8 & 15));
                size_t near = (size_t)(out - taken);
                if (dist > near + z->whave)
                    FAIL(CODEC_D_CORRUPT, "invalid distance too far back");
                DROP(all + dall);
                size_t room = (size_t)(out_end - out);
                uint32_t k = len < room ? len : (uint32_t)room;
                out = copy_slow(z, out, near, dist, k);
                if (k < len) {
                    z->copy_len = len - k;
                    z->copy_dist = dist;
                    goto suspend;
                }
            }
        block_end:
            z->mode = z->final ? M_TRAILER : M_BLOCK;
            break;

        case M_TRAILER:
            if (!z->count) {
                take_output(z, taken, (size_t)(out - taken));
                taken = out;
                DROP(bc & 7);
            }
            if (z->wrap == CODEC_INFLATE_RAW) {
                z->mode = M_DONE;
                break;
            }
            while (z->count < (z->wrap == CODEC_INFLATE_GZIP ? 8u : 4u)) {
                NEED(8);
                z->trailer |= (bb & 0xff) << (8 * z->count++);
                DROP(8);
                if (z->count == 4) {
                    uint32_t t = (uint32_t)z->trailer;
                    if (z->wrap == CODEC_INFLATE_ZLIB)
                        t = t >> 24 | (t >> 8 & 0xff00) | (t << 8 & 0xff0000) | t << 24;
                    if (t != z->check)
                        FAIL(CODEC_D_CHECKSUM, "incorrect data check");
                }
            }
            if (z->wrap == CODEC_INFLATE_GZIP && (uint32_t)(z->trailer >> 32) != z->total)
                FAIL(CODEC_D_CHECKSUM, "incorrect length check");
            z->trailer = 0;
            z->mode = M_DONE;
            break;

        case M_DONE:
            DROP(bc & 7);
            if (!bc && in == in_end)
                goto suspend;
            if (z->wrap != CODEC_INFLATE_GZIP)
                FAIL(CODEC_D_TRAILING, "trailing data after the end of the stream");
            z->mode = M_HEAD; /* the next gzip member */
            break;

        case M_ERROR:
            goto suspend;
        }
    }
suspend:
    take_output(z, taken, (size_t)(out - taken));
    z->bitbuf = bb;
    z->bitcnt = bc;
    *inp = in;
    *outp = out;
    return z->mode == M_ERROR ? -1 : 0;
}
