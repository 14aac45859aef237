/* deflate_encoder.c — our raw deflate (RFC 1951) compressor for levels 6..9.
 *
 * Why not zlib: on text made of a small vocabulary (the prose payload: 36
 * words) zlib's 3-byte hash chains hold every occurrence of a word in the
 * window, and the longest match (two or three words) is found only by
 * walking most of the chain, which is where zlib 6..9 spend their time.
 * Here two chains work together:
 *   - a long chain keyed on the next LONG_BYTES bytes: its entries share that
 *     prefix, so there are few of them and nearly all are long matches; it is
 *     walked deep;
 *   - a short chain keyed on 3 bytes, walked shallowly, only when the long
 *     chain found nothing (matches of 4..LONG_BYTES-1 bytes); its newest
 *     entry is also the candidate for a 3-byte match (near ones only: see
 *     worth()).
 * Parsing is lazy (zlib's rule: a longer match at p+1 turns p into a
 * literal). Blocks of 32K symbols (zlib: 16K) are written with dynamic
 * Huffman codes, or fixed or stored when that is smaller by exact bit count.
 * Levels 8..9 (one setting) search 4,096 deep like zlib 9, take 3-byte
 * matches as far back as zlib does (4 KiB: on UTF-8 text a 3-byte match is
 * one character), and halve a block, up to five times, where two blocks
 * are smaller by exact bit count: that margin, not the parse, keeps them
 * under zlib 8/9 on every test input (docs/formats/compression.md).
 * After a block that came out stored, the search runs only every 8th
 * position until it finds a match (sparse mode, see parse_segment()):
 * incompressible input then costs a third of what it did.
 *
 * Parts: the input is compressed in parts of CODEC_DEFLATE_PART bytes at
 * fixed offsets (the last one shorter), the same in the one-shot
 * (codec__deflate_compress) and in a stream (codec__deflate_compress_part,
 * flate_stream.c), so both give the same bytes for any input and any split
 * of it. Each part is parsed on its own (its end is the end of the data:
 * no match or lookahead crosses it), but its matches reach back into the
 * WINDOW bytes before it (the table positions go on from part to part, see
 * next_offset) and the block being filled goes on into the next part
 * (items, sparse mode and the unfinished output byte are kept in the
 * context) unless its input would then start more than the level's hold
 * (CODEC_DEFLATE_HOLD bytes, half at levels 6..7) before the next part: a
 * stream keeps only that much input for a
 * block that comes out stored, so such a block is written at the part end.
 * The ratio is then that of one window over the whole input (prose and
 * JSON within 0.2%, docs/formats/compression.md).
 *
 * Positions are 32-bit: a part's position plus a table offset that grows
 * from part to part and call to call; near 2^32 the tables are rebased (see
 * rebase()) without losing an entry within WINDOW, so inputs of any size_t
 * length work and the output never depends on what a pooled context
 * compressed before. The tables are not cleared between calls. */
#include "compress_internal.h"
#include "core/load_internal.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW 32768u           /* deflate's largest distance */
#define WMASK (WINDOW - 1)
_Static_assert(CODEC_DEFLATE_WINDOW == WINDOW && CODEC_DEFLATE_PART >= 65536 &&
                   CODEC_DEFLATE_HOLD >= WINDOW,
               "parts of at least 64 KiB (the largest tables for any input of several)");
#define MIN_MATCH 3
#define MAX_MATCH 258
#define LONG_BYTES 8            /* prefix of the long chain's hash */
/* Head tables of 2^bits entries, bits = log2(input) within these bounds:
 * tables are not cleared per call, so a small input gains nothing from a
 * smaller one, and below 4,096 entries its collisions cost bytes (the
 * 104-byte bench value came out 2 bytes over zlib with 256). The long
 * chain's table stops at 2^15 entries, the short one's at the level's
 * short_bits (levels 8..9 need 2^16 to stay under zlib on twitter.json),
 * as zlib's at 2^15: each halving of a table is 128 KiB less memory. */
#define HASH_BITS_MAX 16
#define LONG_BITS_MAX 15
#define HASH_BITS_MIN 12
/* Literals + matches per block (zlib: 16K); in sparse mode (below) a
 * stored block of as many bytes. Twice that would save 5 bytes per 64 KiB
 * of random input and cost 128 KiB of memory. */
#define BLOCK_ITEMS 32768u
/* Items one lazy step can add before the block-full check: the match grows
 * by at least a byte per literal it pushes out. */
#define ITEMS_SLACK (MAX_MATCH + 2)
#define STORED_MAX 65535u
#define SPLITS_MAX 5            /* halvings of a block (see write_range()) */
#define SPLIT_MIN_ITEMS 1024u   /* shortest block that is halved */
/* Nodes of the tree of halvings: node k (children 2k+1, 2k+2) is one range
 * of a block's items, the root the whole block (see write_range()). */
#define TREE_NODES ((2u << SPLITS_MAX) - 1)
/* The first offset of table positions: 0 is then a stale entry. */
#define FIRST_OFFSET (WINDOW + 1)

#define LITLEN_SYMS 286
#define DIST_SYMS 30
#define CL_SYMS 19
#define MAX_BITS 15
#define CL_MAX_BITS 7
#define END_OF_BLOCK 256

typedef struct level_params {
    unsigned long_depth;   /* long-chain candidates examined */
    unsigned short_depth;  /* short-chain candidates examined */
    unsigned nice;         /* a match this long ends the search */
    unsigned lazy;         /* matches shorter than this try p+1 */
    unsigned good;         /* ... and from this long, only a quarter as deep */
    unsigned near3;        /* 3-byte matches only this close (see worth()) */
    unsigned splits;       /* times a block may be halved (see write_range()) */
    unsigned short_bits;   /* the short chain's largest head table (log2) */
    size_t hold;           /* a block goes on into the next part while its
                            * input fits this (see compress_part()) */
} level_params;

/* Levels 6..7 keep half of CODEC_DEFLATE_HOLD for a block that goes on
 * across parts: a stream touches 128 KiB less, for 0.1-0.2% more bytes on
 * text that compresses well; levels 8..9 keep it all (twitter.json at
 * level 9 is 69 bytes over zlib's with half). */
#define HOLD_FAST (CODEC_DEFLATE_HOLD / 2)
_Static_assert(HOLD_FAST >= WINDOW, "a hold of at least the window");

/* zlib's knobs (its levels 6 and 7 use chains of 128 and 256, lazy 16 and
 * 32, good 8; 8 and 9 chains of 1,024 and 4,096, lazy and nice 258), tuned
 * here on the bench payloads so that each level is no larger than zlib's:
 * docs/formats/compression.md has the figures. */
static const level_params params_for[10] = {
    [6] = {64, 8, 128, 24, 8, 128, 0, 15, HOLD_FAST},
    [7] = {256, 16, 258, 258, 16, 128, 0, 15, HOLD_FAST},
    [8] = {4096, 64, 258, 258, 258, 4096, SPLITS_MAX, 16, CODEC_DEFLATE_HOLD},
    [9] = {4096, 64, 258, 258, 258, 4096, SPLITS_MAX, 16, CODEC_DEFLATE_HOLD},
};

/* One literal (dist 0, value the byte) or one match. */
typedef struct item {
    uint16_t value;
    uint16_t dist;
} item;

/* Code lengths and (bit-reversed) codes of one block. */
typedef struct block_codes {
    uint8_t litlen_len[LITLEN_SYMS + 2]; /* +2: fixed codes define 286, 287 */
    uint8_t dist_len[DIST_SYMS];
    uint16_t litlen_code[LITLEN_SYMS + 2];
    uint16_t dist_code[DIST_SYMS];
} block_codes;

/* The dynamic header: code-length tokens (symbol | extra << 8). */
typedef struct dyn_header {
    unsigned hlit, hdist, hclen, ntok;
    uint16_t tok[LITLEN_SYMS + DIST_SYMS];
    uint8_t cl_len[CL_SYMS];
    uint16_t cl_code[CL_SYMS];
} dyn_header;

/* Symbol counts of one block (with its end-of-block symbol) and the input
 * bytes its items cover. */
typedef struct block_freq {
    uint32_t litlen[LITLEN_SYMS];
    uint32_t dist[DIST_SYMS];
    size_t raw_len;
} block_freq;

/* The smallest encoding of one block: its kind, codes and size in bits. */
typedef enum { BLOCK_STORED, BLOCK_FIXED, BLOCK_DYNAMIC } block_kind;

typedef struct block_plan {
    block_kind kind;
    uint64_t bits;
    size_t raw_len;        /* input bytes the items cover */
    block_codes dyn;
    dyn_header h;
} block_plan;

/* 64 - log2 of each head table's size in use: a key is the top bits of a
 * 64-bit product. Copied into locals before a loop (stores into the tables
 * could alias the context's copy). */
typedef struct hash_shifts {
    unsigned hl, hs;
} hash_shifts;

struct codec_deflater {
    hash_shifts shifts;
    uint32_t part;          /* CODEC_DEFLATE_PART, or less for tests */
    /* The tables hold positions plus an offset: a part's offset is the
     * previous part's plus its length (the previous parts' entries are
     * valid history), the first part of a call or stream starts WINDOW
     * further: an entry left by an earlier call is then always more than
     * WINDOW behind, which the match finder rejects anyway, so the tables
     * are never cleared between calls (zeroed once per size, as 0 is stale
     * too). `next_offset` is where the next part of the current stream
     * starts (the end of the last part); near 2^32 the tables are rebased
     * (rebase()). */
    uint32_t next_offset;
    uint32_t zeroed;        /* head_short entries zeroed so far (a power of 2;
                             * of head_long, up to its size) */
    /* Between the parts of one call or stream: */
    uint64_t pos;           /* input bytes before the next part */
    size_t block_bytes;     /* input bytes of the pending block (its items) */
    size_t nitems;          /* the pending block's items */
    uint64_t bits;          /* output bits not yet written (< 8) */
    unsigned count;
    bool sparse;            /* sparse mode */
    uint32_t head_long[1u << LONG_BITS_MAX];
    uint32_t head_short[1u << HASH_BITS_MAX];
    uint32_t prev_long[WINDOW];
    uint32_t prev_short[WINDOW];
    item items[BLOCK_ITEMS + ITEMS_SLACK];
    /* The tree of halvings of the block being written (write_range()). */
    block_freq tree_freq[TREE_NODES];
    block_plan tree_plan[TREE_NODES];
    bool tree_halve[TREE_NODES];
    block_codes fixed;                /* RFC 1951 3.2.6 */
    /* RFC 1951 3.2.5 tables, filled once per context. */
    uint8_t len_sym[MAX_MATCH + 1];   /* length -> symbol - 257 */
    uint8_t dist_sym_near[256];       /* dist-1 (< 256) -> symbol */
    uint8_t dist_sym_far[256];        /* (dist-1) >> 7 -> symbol */
};

static void fixed_codes(block_codes *c);

codec_deflater *codec__deflater_new(void)
{
    codec_deflater *d = malloc(sizeof *d);
    if (!d)
        return NULL;
    d->part = CODEC_DEFLATE_PART;
    d->next_offset = FIRST_OFFSET - WINDOW;
    d->pos = d->block_bytes = d->nitems = 0;
    d->bits = 0;
    d->count = 0;
    d->sparse = false;
    d->zeroed = 0;
    fixed_codes(&d->fixed);
    for (unsigned s = 0; s < 29; s++)
        for (unsigned l = codec__deflate_len_base[s]; l < codec__deflate_len_base[s] + (1u << codec__deflate_len_extra[s]) && l <= MAX_MATCH;
             l++)
            d->len_sym[l] = (uint8_t)s;
    d->len_sym[MAX_MATCH] = 28; /* 258 has its own symbol, not 284's last slot */
    for (unsigned s = 0; s < 30; s++)
        for (unsigned v = codec__deflate_dist_base[s]; v < codec__deflate_dist_base[s] + (1u << codec__deflate_dist_extra[s]); v++) {
            if (v <= 256)
                d->dist_sym_near[v - 1] = (uint8_t)s;
            else
                d->dist_sym_far[(v - 1) >> 7] = (uint8_t)s;
        }
    return d;
}

void codec__deflater_set_part(codec_deflater *d, uint32_t bytes)
{
    d->part = bytes ? bytes : 1;
}

/* head_long entries zeroed so far. */
static size_t long_zeroed(const codec_deflater *d)
{
    return d->zeroed < 1u << LONG_BITS_MAX ? d->zeroed : 1u << LONG_BITS_MAX;
}

void codec__deflater_set_offset(codec_deflater *d, uint32_t offset)
{
    /* The heads are cleared: an offset below the tables' entries would make
     * them look recent (chains start at the heads, so that is enough). */
    memset(d->head_long, 0, long_zeroed(d) * sizeof d->head_long[0]);
    memset(d->head_short, 0, d->zeroed * sizeof d->head_short[0]);
    d->next_offset = (offset > FIRST_OFFSET ? offset : FIRST_OFFSET) - WINDOW;
}

void codec__deflater_free(codec_deflater *d)
{
    free(d);
}

size_t codec__deflate_bound(size_t n)
{
    /* Every block holds at least 4096 input bytes unless it is the last of
     * a part or ends sparse mode (at most two such per part, as short as a
     * byte), and costs at most its stored size: 5 bytes per 65,535 plus one
     * partial byte; a part that is not the last adds an empty stored block
     * (5 bytes). A part (>= 64 KiB) is 16 slots of 6 bytes, where it needs
     * at most 2 + 2 + 2 and the 5 bytes; 16 more for the final padding and
     * the writer's 8-byte stores. Parts shorter than 16 KiB (tests only,
     * codec__deflater_set_part()) need more. */
    return n + (n / 4096 + 2) * 6 + 16;
}

/* ---------------------------------------------------------------------------
 * Match finding
 * ------------------------------------------------------------------------ */

/* The two keys of one position from one 8-byte load: the long chain's
 * hash of LONG_BYTES bytes and the short chain's of 3. */
typedef struct hashes {
    size_t hl, hs; /* size_t: indexes without a zero extension */
} hashes;

static inline hashes hash_all(const uint8_t *p, hash_shifts sh)
{
    uint64_t v = codec_load_le64(p);
    uint64_t l = v << (64 - 8 * LONG_BYTES);
    return (hashes){(size_t)((l * 0x9E3779B97F4A7C15ull) >> sh.hl),
                    (size_t)(((v << 40) * 0x9E3779B97F4A7C15ull) >> sh.hs)};
}

/* hash_all()'s hs, reading only 3 bytes: it also serves the input's last
 * positions. */
static inline size_t hash_3(const uint8_t *p, hash_shifts sh)
{
    uint64_t v = (uint64_t)p[0] << 40 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 56;
    return (size_t)((v * 0x9E3779B97F4A7C15ull) >> sh.hs);
}

/* Common prefix of a and b, at most `limit` bytes (8 at a time while 8 are
 * in bounds for both: b is the later position, limit keeps b in src). */
static inline unsigned match_len(const uint8_t *a, const uint8_t *b, unsigned limit)
{
    unsigned len = 0;
    while (len + 8 <= limit) {
        uint64_t x = codec_load_le64(a + len) ^ codec_load_le64(b + len);
        if (x)
            return len + (unsigned)__builtin_ctzll(x) / 8;
        len += 8;
    }
    while (len < limit && a[len] == b[len])
        len++;
    return len;
}

typedef struct match {
    unsigned len, dist;
} match;

/* The finder's view of one part: base[0..end) with positions below
 * `inserted` already in the tables, as position + off (see next_offset),
 * and base[-hist..0) the input before it (the history, at least the part's
 * stream position or WINDOW bytes). Positions within LONG_BYTES of the end
 * are not hashed (their matches would be at most 7 bytes). Every table
 * entry within WINDOW of a position of the part is a position of this call
 * or stream (the first part starts WINDOW after the entries of earlier
 * ones), so its bytes are in the part or the history. */
typedef struct segment {
    codec_deflater *d;
    const uint8_t *base;
    uint32_t end, hash_end, inserted, off, hist;
    const level_params *lp;
} segment;

/* Inserts table position pa under its keys h. */
static inline void insert_hashed(codec_deflater *d, uint32_t pa, hashes h)
{
    d->prev_long[pa & WMASK] = d->head_long[h.hl];
    d->head_long[h.hl] = pa;
    d->prev_short[pa & WMASK] = d->head_short[h.hs];
    d->head_short[h.hs] = pa;
}

static inline void insert_short(codec_deflater *d, uint32_t pa, size_t hs)
{
    d->prev_short[pa & WMASK] = d->head_short[hs];
    d->head_short[hs] = pa;
}

/* Inserts the positions before p; those within LONG_BYTES of the end go
 * to the short chain only. */
static inline void insert_upto(segment *s, uint32_t p)
{
    codec_deflater *d = s->d;
    hash_shifts sh = d->shifts;
    uint32_t stop = p < s->hash_end ? p : s->hash_end;
    for (uint32_t i = s->inserted; i < stop; i++)
        insert_hashed(d, i + s->off, hash_all(s->base + i, sh));
    for (uint32_t i = s->inserted > stop ? s->inserted : stop; i < p; i++)
        if (s->end - i >= MIN_MATCH)
            insert_short(d, i + s->off, hash_3(s->base + i, sh));
    if (s->inserted < p)
        s->inserted = p;
}

/* A 3-byte match is worth its distance code only when near: further ones
 * cost more bits than their three literals. 4..7-byte matches are taken
 * at any distance. */
static inline bool worth(const segment *s, unsigned len, unsigned dist)
{
    return len > MIN_MATCH || dist <= s->lp->near3;
}

/* The last positions (fewer than LONG_BYTES left): the newest position
 * with the same 3 bytes, extended. */
static match find_tail_match(segment *s, uint32_t p)
{
    match best = {0, 0};
    uint32_t left = s->end - p;
    if (left < MIN_MATCH)
        return best;
    size_t hs = hash_3(s->base + p, s->d->shifts);
    uint32_t dist = p + s->off - s->d->head_short[hs]; /* stale: more than WINDOW */
    insert_short(s->d, p + s->off, hs);
    s->inserted = p + 1;
    if (dist - 1 < WINDOW) {
        unsigned len = match_len(s->base + p - dist, s->base + p, left);
        if (len >= MIN_MATCH && worth(s, len, dist))
            best = (match){len, dist};
    }
    return best;
}

/* Walks one chain from table position `cand` for a match at p longer than
 * best->len, examining at most *depth candidates (counted down). Distances
 * are taken from `ref`, a position at or after p whose chain it is: the
 * candidate for a chain entry e is at p - (ref - e). The walk ends past
 * max_dist (at most WINDOW). ref is not inserted yet, so every slot the
 * walk reads belongs to a position less than WINDOW back or to the chain's
 * stale end: the chain goes strictly back until WINDOW. */
static inline void walk(segment *s, const uint32_t *prev, uint32_t cand, uint32_t p,
                        uint32_t ref, uint32_t max_dist, unsigned *depth, unsigned limit,
                        match *best)
{
    const uint8_t *cur = s->base + p;
    unsigned nice = s->lp->nice < limit ? s->lp->nice : limit;
    unsigned len_best = best->len, left = *depth;
    if (len_best >= nice) /* an earlier walk found enough (and the loads */
        return;           /* below need len_best < limit) */
    /* A candidate is compared only when it agrees on the 4 bytes that end
     * at len_best (one load: such a candidate may be longer). */
    const uint8_t *tail = cur + len_best - 3;
    uint32_t tail4 = codec_load32(tail);
    uint32_t ra = ref + s->off, dist = ra - cand;
    while (dist <= max_dist && left) {
        left--;
        if (codec_load32(tail - dist) == tail4) {
            unsigned len = match_len(cur - dist, cur, limit);
            if (len > len_best) {
                len_best = len;
                best->len = len;
                best->dist = dist;
                if (len >= nice)
                    break;
                tail = cur + len - 3;
                tail4 = codec_load32(tail);
            }
        }
        cand = prev[cand & WMASK];
        dist = ra - cand;
    }
    *depth = left;
}

/* The longest match at p (ties to the nearest) longer than `shorter`
 * (3, or the match a lazy step has to beat: as zlib, only longer
 * candidates are compared), len 0 when none; inserts every position up to
 * and including p.
 *
 * A lazy step (shorter >= LONG_BYTES) needs a candidate that agrees on
 * shorter + 1 bytes, so also on the LONG_BYTES of them that end there:
 * beyond the nearest k = shorter + 1 - LONG_BYTES distances, such
 * candidates are exactly the entries of the long chain of p + k (shifted
 * by k), a chain of far fewer entries than p's own on repetitive data
 * (records of one JSON shape: p's chain holds every record). */
static match find_match(segment *s, uint32_t p, unsigned depth, unsigned shorter)
{
    match best = {0, 0};
    insert_upto(s, p);
    if (p >= s->hash_end)
        return find_tail_match(s, p);
    codec_deflater *d = s->d;
    const uint8_t *cur = s->base + p;
    uint32_t left = s->end - p, pa = p + s->off;
    unsigned limit = left < MAX_MATCH ? left : MAX_MATCH;
    hash_shifts sh = d->shifts;
    hashes h = hash_all(cur, sh);
    uint32_t cand_long = d->head_long[h.hl], cand_short = d->head_short[h.hs];
    best.len = shorter; /* a candidate must beat it to count; reset below */
    if (shorter >= LONG_BYTES && shorter < limit) {
        /* p + k + LONG_BYTES = p + shorter + 1 <= end: p + k is hashed */
        uint32_t k = shorter + 1 - LONG_BYTES;
        walk(s, d->prev_long, cand_long, p, p, k, &depth, limit, &best);
        size_t hk = hash_all(cur + k, sh).hl;
        /* candidates at p - dist, so at most p + hist back */
        uint32_t back = p + s->hist;
        walk(s, d->prev_long, d->head_long[hk], p, p + k, back < WINDOW ? back : WINDOW, &depth,
             limit, &best);
    } else if (shorter < limit) {
        walk(s, d->prev_long, cand_long, p, p, WINDOW, &depth, limit, &best);
        if (best.len < LONG_BYTES) {
            unsigned short_depth = s->lp->short_depth;
            walk(s, d->prev_short, cand_short, p, p, WINDOW, &short_depth, limit, &best);
        }
    }
    insert_hashed(d, pa, h);
    s->inserted = p + 1;
    if (best.len > shorter)
        return best;
    best.len = 0;
    if (shorter > MIN_MATCH)
        return best;
    uint32_t dist = pa - cand_short; /* stale entries: more than WINDOW */
    if (dist - 1 < WINDOW && worth(s, MIN_MATCH, dist)) {
        const uint8_t *c = cur - dist;
        if (c[0] == cur[0] && c[1] == cur[1] && c[2] == cur[2]) {
            best.len = 3;
            best.dist = dist;
        }
    }
    return best;
}

/* ---------------------------------------------------------------------------
 * Bit output
 * ------------------------------------------------------------------------ */

typedef struct bitwriter {
    uint64_t bits;
    unsigned count;      /* bits held, < 32 between calls */
    uint8_t *out, *end;
    bool overflow;
} bitwriter;

static inline void put_bits(bitwriter *w, uint32_t v, unsigned n)
{
    w->bits |= (uint64_t)v << w->count;
    w->count += n;
    if (w->count >= 32) {
        if (w->end - w->out < 4) {
            w->overflow = true;
            w->count -= 32;
            w->bits >>= 32;
            return;
        }
        uint32_t lo = (uint32_t)w->bits;
        w->out[0] = (uint8_t)lo, w->out[1] = (uint8_t)(lo >> 8);
        w->out[2] = (uint8_t)(lo >> 16), w->out[3] = (uint8_t)(lo >> 24);
        w->out += 4;
        w->bits >>= 32;
        w->count -= 32;
    }
}

/* Pads to a byte boundary and writes out every whole byte held. */
static void align_bytes(bitwriter *w)
{
    while (w->count > 0) {
        if (w->out == w->end) {
            w->overflow = true;
            return;
        }
        *w->out++ = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count = w->count > 8 ? w->count - 8 : 0;
    }
    w->bits = 0;
}

/* ---------------------------------------------------------------------------
 * Huffman codes
 * ------------------------------------------------------------------------ */

/* A symbol and its count as one sortable key: count << 9 | symbol. */
#define KEY_SYM(k) ((unsigned)((k) & 511))

/* Shell sort (Ciura's gaps): no callback, fast on a few hundred keys. */
static void sort_keys(uint64_t *k, unsigned n)
{
    static const unsigned gaps[] = {132, 57, 23, 10, 4, 1};
    for (unsigned g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        unsigned gap = gaps[g];
        for (unsigned i = gap; i < n; i++) {
            uint64_t v = k[i];
            unsigned j = i;
            for (; j >= gap && k[j - gap] > v; j -= gap)
                k[j] = k[j - gap];
            k[j] = v;
        }
    }
}

/* Counts below this are sorted by counting (sorted_leaves()). */
#define SORT_BUCKETS 64

/* The used symbols of freq[0..n) as keys in ascending order, returning
 * their number: a counting sort on the count for counts below
 * SORT_BUCKETS (in symbol order within a count, as the keys order them),
 * the larger ones after them by sort_keys(). */
static unsigned sorted_leaves(const uint32_t *freq, unsigned n, uint64_t *leaf)
{
    unsigned start[SORT_BUCKETS + 1] = {0};
    for (unsigned i = 0; i < n; i++)
        start[freq[i] < SORT_BUCKETS ? freq[i] : SORT_BUCKETS]++;
    unsigned m = 0;
    for (unsigned b = 1; b <= SORT_BUCKETS; b++) { /* bucket 0: unused symbols */
        unsigned c = start[b];
        start[b] = m;
        m += c;
    }
    unsigned large = start[SORT_BUCKETS];
    for (unsigned i = 0; i < n; i++)
        if (freq[i])
            leaf[start[freq[i] < SORT_BUCKETS ? freq[i] : SORT_BUCKETS]++] =
                (uint64_t)freq[i] << 9 | i;
    sort_keys(leaf + large, m - large);
    return m;
}

/* Code lengths of at most `limit` bits for freq[0..n): a Huffman code
 * (two-queue construction over sorted leaves), depths over the limit
 * brought back by JPEG's adjustment (below), which keeps the code complete. A code with
 * fewer than two used symbols gets two 1-bit codes so that every decoder
 * accepts it. */
static void build_lengths(const uint32_t *freq, unsigned n, unsigned limit, uint8_t *len)
{
    uint64_t leaf[LITLEN_SYMS];
    unsigned m = sorted_leaves(freq, n, leaf);
    memset(len, 0, n);
    if (m < 2) {
        unsigned a = m ? KEY_SYM(leaf[0]) : 0;
        len[a] = 1;
        len[a == 0 ? 1 : 0] = 1;
        return;
    }
    uint32_t weight[2 * LITLEN_SYMS];
    uint16_t parent[2 * LITLEN_SYMS];
    for (unsigned i = 0; i < m; i++)
        weight[i] = (uint32_t)(leaf[i] >> 9);
    unsigned li = 0, ni = m;
    for (unsigned k = m; k < 2 * m - 1; k++) {
        unsigned pick[2];
        for (int t = 0; t < 2; t++) {
            if (li < m && (ni >= k || weight[li] <= weight[ni]))
                pick[t] = li++;
            else
                pick[t] = ni++;
        }
        weight[k] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = (uint16_t)k;
    }
    /* Depths reuse weight[]: the root is 2m-2, parents come after children. */
    unsigned count[LITLEN_SYMS + 1] = {0}, deepest = 0;
    weight[2 * m - 2] = 0;
    for (unsigned k = 2 * m - 2; k-- > 0;) {
        weight[k] = weight[parent[k]] + 1;
        if (k < m) {
            count[weight[k]]++;
            if (weight[k] > deepest)
                deepest = weight[k];
        }
    }
    /* Too deep (JPEG's Annex K.3 adjustment): two sibling leaves at depth i
     * become one leaf at i-1, and a leaf at a shallower depth j becomes the
     * parent of the other and itself at j+1. The Kraft sum stays 1, so the
     * code stays complete (zlib's inflate rejects incomplete ones). */
    for (unsigned i = deepest; i > limit; i--) {
        while (count[i] > 0) {
            unsigned j = i - 2;
            while (count[j] == 0)
                j--;
            count[i] -= 2;
            count[i - 1] += 1;
            count[j + 1] += 2;
            count[j] -= 1;
        }
    }
    /* Longest codes to the rarest symbols. */
    unsigned i = 0;
    for (unsigned b = limit; b >= 1; b--)
        for (unsigned c = count[b]; c > 0; c--)
            len[KEY_SYM(leaf[i++])] = (uint8_t)b;
}

static inline uint32_t reverse_bits(uint32_t v, unsigned n)
{
    v = (v & 0x5555) << 1 | (v >> 1 & 0x5555);
    v = (v & 0x3333) << 2 | (v >> 2 & 0x3333);
    v = (v & 0x0F0F) << 4 | (v >> 4 & 0x0F0F);
    v = (v & 0x00FF) << 8 | (v >> 8 & 0x00FF);
    return v >> (16 - n);
}

/* Canonical codes (RFC 1951 3.2.2), bit-reversed for the LSB-first writer. */
static void build_codes(const uint8_t *len, unsigned n, uint16_t *code)
{
    unsigned count[MAX_BITS + 1] = {0}, next[MAX_BITS + 1];
    for (unsigned i = 0; i < n; i++)
        count[len[i]]++;
    count[0] = 0;
    unsigned c = 0;
    for (unsigned b = 1; b <= MAX_BITS; b++) {
        c = (c + count[b - 1]) << 1;
        next[b] = c;
    }
    for (unsigned i = 0; i < n; i++)
        if (len[i])
            code[i] = (uint16_t)reverse_bits(next[len[i]]++, len[i]);
}

/* ---------------------------------------------------------------------------
 * Blocks
 * ------------------------------------------------------------------------ */

static const uint8_t cl_extra_bits[CL_SYMS] = {[16] = 2, [17] = 3, [18] = 7};

static void rle_lengths(const uint8_t *lens, unsigned n, dyn_header *h)
{
    unsigned t = 0;
    for (unsigned i = 0; i < n;) {
        uint8_t v = lens[i];
        unsigned run = 1;
        while (i + run < n && lens[i + run] == v)
            run++;
        i += run;
        if (v == 0) {
            while (run >= 11) {
                unsigned r = run < 138 ? run : 138;
                h->tok[t++] = (uint16_t)(18 | (r - 11) << 8);
                run -= r;
            }
            if (run >= 3) {
                h->tok[t++] = (uint16_t)(17 | (run - 3) << 8);
                run = 0;
            }
        } else {
            h->tok[t++] = v;
            run--;
            while (run >= 3) {
                unsigned r = run < 6 ? run : 6;
                h->tok[t++] = (uint16_t)(16 | (r - 3) << 8);
                run -= r;
            }
        }
        while (run-- > 0)
            h->tok[t++] = v;
    }
    h->ntok = t;
}

/* Builds the header for the codes in c; returns its size in bits. */
static uint64_t plan_header(const block_codes *c, dyn_header *h)
{
    h->hlit = LITLEN_SYMS;
    while (h->hlit > 257 && c->litlen_len[h->hlit - 1] == 0)
        h->hlit--;
    h->hdist = DIST_SYMS;
    while (h->hdist > 1 && c->dist_len[h->hdist - 1] == 0)
        h->hdist--;
    uint8_t lens[LITLEN_SYMS + DIST_SYMS];
    memcpy(lens, c->litlen_len, h->hlit);
    memcpy(lens + h->hlit, c->dist_len, h->hdist);
    rle_lengths(lens, h->hlit + h->hdist, h);
    uint32_t freq[CL_SYMS] = {0};
    for (unsigned i = 0; i < h->ntok; i++)
        freq[h->tok[i] & 0xff]++;
    build_lengths(freq, CL_SYMS, CL_MAX_BITS, h->cl_len);
    build_codes(h->cl_len, CL_SYMS, h->cl_code);
    h->hclen = CL_SYMS;
    while (h->hclen > 4 && h->cl_len[codec__deflate_cl_order[h->hclen - 1]] == 0)
        h->hclen--;
    uint64_t bits = 5 + 5 + 4 + 3 * (uint64_t)h->hclen;
    for (unsigned s = 0; s < CL_SYMS; s++)
        bits += (uint64_t)freq[s] * (h->cl_len[s] + cl_extra_bits[s]);
    return bits;
}

static void write_header(bitwriter *w, const dyn_header *h)
{
    put_bits(w, h->hlit - 257, 5);
    put_bits(w, h->hdist - 1, 5);
    put_bits(w, h->hclen - 4, 4);
    for (unsigned i = 0; i < h->hclen; i++)
        put_bits(w, h->cl_len[codec__deflate_cl_order[i]], 3);
    for (unsigned i = 0; i < h->ntok; i++) {
        unsigned s = h->tok[i] & 0xff;
        put_bits(w, h->cl_code[s], h->cl_len[s]);
        if (cl_extra_bits[s])
            put_bits(w, h->tok[i] >> 8, cl_extra_bits[s]);
    }
}

/* Bits of the block's symbols under its dynamic code lengths (*dyn) and
 * under the fixed code (*fix); the extra bits are the same in both. */
static void data_bits(const block_freq *f, const uint8_t *litlen_len, const uint8_t *dist_len,
                      const block_codes *fixed, uint64_t *dyn, uint64_t *fix)
{
    uint64_t d = 0, x = 0, extra = 0;
    for (unsigned s = 0; s < LITLEN_SYMS; s++) {
        d += (uint64_t)f->litlen[s] * litlen_len[s];
        x += (uint64_t)f->litlen[s] * fixed->litlen_len[s];
    }
    for (unsigned s = 257; s < LITLEN_SYMS; s++)
        extra += (uint64_t)f->litlen[s] * codec__deflate_len_extra[s - 257];
    for (unsigned s = 0; s < DIST_SYMS; s++) {
        d += (uint64_t)f->dist[s] * dist_len[s];
        x += (uint64_t)f->dist[s] * fixed->dist_len[s];
        extra += (uint64_t)f->dist[s] * codec__deflate_dist_extra[s];
    }
    *dyn = d + extra;
    *fix = x + extra;
}

static void fixed_codes(block_codes *c)
{
    for (unsigned s = 0; s < LITLEN_SYMS + 2; s++)
        c->litlen_len[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    memset(c->dist_len, 5, DIST_SYMS);
    build_codes(c->litlen_len, LITLEN_SYMS + 2, c->litlen_code);
    build_codes(c->dist_len, DIST_SYMS, c->dist_code);
}

static inline unsigned dist_symbol(const codec_deflater *d, unsigned dist)
{
    return dist <= 256 ? d->dist_sym_near[dist - 1] : d->dist_sym_far[(dist - 1) >> 7];
}

static void write_items(bitwriter *wp, const codec_deflater *d, const item *it, size_t n,
                        const block_codes *c)
{
    /* A local copy: its fields stay in registers (stores through out
     * could alias *wp). */
    bitwriter local = *wp, *w = &local;
    for (size_t i = 0; i < n; i++) {
        unsigned v = it[i].value, dist = it[i].dist;
        if (!dist) {
            put_bits(w, c->litlen_code[v], c->litlen_len[v]);
            continue;
        }
        unsigned ls = d->len_sym[v];
        put_bits(w, c->litlen_code[257 + ls] | (uint32_t)(v - codec__deflate_len_base[ls])
                                                  << c->litlen_len[257 + ls],
                 c->litlen_len[257 + ls] + codec__deflate_len_extra[ls]);
        unsigned ds = dist_symbol(d, dist);
        put_bits(w, c->dist_code[ds] | (uint32_t)(dist - codec__deflate_dist_base[ds]) << c->dist_len[ds],
                 c->dist_len[ds] + codec__deflate_dist_extra[ds]);
    }
    put_bits(w, c->litlen_code[END_OF_BLOCK], c->litlen_len[END_OF_BLOCK]);
    *wp = local;
}

static void write_stored(bitwriter *w, const uint8_t *raw, size_t n, bool final)
{
    do {
        size_t chunk = n < STORED_MAX ? n : STORED_MAX;
        n -= chunk;
        put_bits(w, final && n == 0, 3);
        align_bytes(w);
        if ((size_t)(w->end - w->out) < chunk + 4) {
            w->overflow = true;
            return;
        }
        w->out[0] = (uint8_t)chunk, w->out[1] = (uint8_t)(chunk >> 8);
        w->out[2] = (uint8_t)~chunk, w->out[3] = (uint8_t)(~chunk >> 8);
        memcpy(w->out + 4, raw, chunk);
        w->out += 4 + chunk;
        raw += chunk;
    } while (n > 0);
}

static void count_items(const codec_deflater *d, const item *it, size_t n, block_freq *f)
{
    memset(f, 0, sizeof *f);
    size_t raw_len = 0;
    for (size_t i = 0; i < n; i++) {
        if (!it[i].dist) {
            f->litlen[it[i].value]++;
            raw_len++;
            continue;
        }
        f->litlen[257 + d->len_sym[it[i].value]]++;
        f->dist[dist_symbol(d, it[i].dist)]++;
        raw_len += it[i].value;
    }
    f->litlen[END_OF_BLOCK] = 1;
    f->raw_len = raw_len;
}

static void plan_block(const codec_deflater *d, const block_freq *f, block_plan *p)
{
    build_lengths(f->litlen, LITLEN_SYMS, MAX_BITS, p->dyn.litlen_len);
    build_lengths(f->dist, DIST_SYMS, MAX_BITS, p->dyn.dist_len);
    uint64_t dyn_bits, fix_bits;
    data_bits(f, p->dyn.litlen_len, p->dyn.dist_len, &d->fixed, &dyn_bits, &fix_bits);
    dyn_bits += plan_header(&p->dyn, &p->h);
    size_t raw_len = f->raw_len;
    uint64_t stored_bits = (uint64_t)raw_len * 8 + (raw_len / STORED_MAX + 1) * 42;
    p->raw_len = raw_len;
    if (stored_bits < dyn_bits && stored_bits < fix_bits)
        p->kind = BLOCK_STORED, p->bits = stored_bits;
    else if (fix_bits <= dyn_bits)
        p->kind = BLOCK_FIXED, p->bits = 3 + fix_bits;
    else
        p->kind = BLOCK_DYNAMIC, p->bits = 3 + dyn_bits;
}

static void write_plan(const codec_deflater *d, bitwriter *w, block_plan *p, const item *it,
                       size_t n, const uint8_t *raw, bool final)
{
    if (p->kind == BLOCK_STORED) {
        write_stored(w, raw, p->raw_len, final);
    } else if (p->kind == BLOCK_FIXED) {
        put_bits(w, final | 1u << 1, 3);
        write_items(w, d, it, n, &d->fixed);
    } else {
        put_bits(w, final | 2u << 1, 3);
        build_codes(p->dyn.litlen_len, LITLEN_SYMS, p->dyn.litlen_code);
        build_codes(p->dyn.dist_len, DIST_SYMS, p->dyn.dist_code);
        write_header(w, &p->h);
        write_items(w, d, it, n, &p->dyn);
    }
}

static inline bool splittable(unsigned splits, size_t n)
{
    return splits > 0 && n >= SPLIT_MIN_ITEMS;
}

/* Counts the symbols of node k (items[0..n)) and of every node below it
 * that plan_splits() may plan: the items once, at the lowest nodes, and
 * each node above as the sum of its two halves. */
static void count_tree(codec_deflater *d, const item *it, size_t n, unsigned splits, unsigned k)
{
    block_freq *f = &d->tree_freq[k];
    if (!splittable(splits, n)) {
        count_items(d, it, n, f);
        return;
    }
    count_tree(d, it, n / 2, splits - 1, 2 * k + 1);
    count_tree(d, it + n / 2, n - n / 2, splits - 1, 2 * k + 2);
    const block_freq *a = &d->tree_freq[2 * k + 1], *b = &d->tree_freq[2 * k + 2];
    for (unsigned s = 0; s < LITLEN_SYMS; s++)
        f->litlen[s] = a->litlen[s] + b->litlen[s];
    for (unsigned s = 0; s < DIST_SYMS; s++)
        f->dist[s] = a->dist[s] + b->dist[s];
    f->litlen[END_OF_BLOCK] = 1;
    f->raw_len = a->raw_len + b->raw_len;
}

/* Bits of node k (n items) written as one block or, up to `splits` times,
 * as two halves, whichever is smaller by exact bit count. Plans each node
 * it looks at once, into tree_plan[k], and records in tree_halve[k]
 * whether node k is written as its halves. */
static uint64_t plan_splits(codec_deflater *d, size_t n, unsigned splits, unsigned k)
{
    block_plan *whole = &d->tree_plan[k];
    plan_block(d, &d->tree_freq[k], whole);
    d->tree_halve[k] = false;
    if (!splittable(splits, n))
        return whole->bits;
    uint64_t two = plan_splits(d, n / 2, splits - 1, 2 * k + 1);
    if (two >= whole->bits)
        return whole->bits;
    two += plan_splits(d, n - n / 2, splits - 1, 2 * k + 2);
    if (two >= whole->bits)
        return whole->bits;
    d->tree_halve[k] = true;
    return two;
}

static void write_tree(codec_deflater *d, bitwriter *w, const item *it, size_t n,
                       const uint8_t *raw, bool final, unsigned k)
{
    if (d->tree_halve[k]) {
        write_tree(d, w, it, n / 2, raw, false, 2 * k + 1);
        write_tree(d, w, it + n / 2, n - n / 2, raw + d->tree_freq[2 * k + 1].raw_len, final,
                   2 * k + 2);
        return;
    }
    write_plan(d, w, &d->tree_plan[k], it, n, raw, final);
}

/* Writes items[0..n) (covering raw[0..)) as the smallest of a dynamic,
 * fixed or stored block, or, up to `splits` times, as two halves written
 * the same way when that is smaller by exact bit count: symbol statistics
 * drift within a block (JSON keys then text, ...), and zlib's blocks are
 * half the size of ours. Blocks shorter than SPLIT_MIN_ITEMS are not
 * halved: two headers cost more than a better fit can win back. Returns
 * whether the range went out as stored block(s), whole (see sparse). */
static bool write_range(codec_deflater *d, bitwriter *w, const item *it, size_t n,
                        const uint8_t *raw, bool final, unsigned splits)
{
    count_tree(d, it, n, splits, 0);
    plan_splits(d, n, splits, 0);
    write_tree(d, w, it, n, raw, final, 0);
    return !d->tree_halve[0] && d->tree_plan[0].kind == BLOCK_STORED;
}

/* ---------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------ */

typedef struct parser {
    codec_deflater *d;
    bitwriter *w;
    const uint8_t *block_start;  /* first input byte of the buffered block */
    size_t nitems;
    unsigned splits;             /* the level's block halvings */
    /* The last full block was stored whole (incompressible input): the
     * match search runs only at every SPARSE_STEP-th position, until it
     * finds a match (see parse_segment()). */
    bool sparse;
} parser;

static inline void emit_literal(parser *ps, uint8_t byte)
{
    ps->d->items[ps->nitems++] = (item){byte, 0};
}

static inline void emit_match(parser *ps, match m)
{
    ps->d->items[ps->nitems++] = (item){(uint16_t)m.len, (uint16_t)m.dist};
}

/* Writes the buffered block; `next` is the first input byte not yet
 * emitted. Returns whether it was stored whole (sparse mode follows). */
static bool flush_block(parser *ps, const uint8_t *next)
{
    bool stored = write_range(ps->d, ps->w, ps->d->items, ps->nitems, ps->block_start, false,
                              ps->splits);
    ps->nitems = 0;
    ps->block_start = next;
    return stored;
}

/* Flushes a full block; *sparse: the mode that follows (in a register in
 * parse_segment()'s loop, d->sparse between parts). */
static inline void maybe_flush(parser *ps, const uint8_t *next, bool *sparse)
{
    if (ps->nitems >= BLOCK_ITEMS)
        *sparse = flush_block(ps, next);
}

/* Subtracts c from the n entries of t; those at or below it become 0
 * (stale). */
static void rebase_entries(uint32_t *t, size_t n, uint32_t c)
{
    for (size_t i = 0; i < n; i++)
        t[i] = t[i] > c ? t[i] - c : 0;
}

/* Moves the table positions down by a multiple of WINDOW (the chain slots,
 * position & WMASK, stay where they are) so that next_offset lands in
 * (WINDOW, 2 * WINDOW]: every entry within WINDOW of it keeps its
 * distance, older ones may become 0 (stale, as they were: a match is never
 * further than WINDOW), so the output is the same as without. The prev
 * slots of positions never inserted hold anything; they are never read. */
static void rebase(codec_deflater *d)
{
    uint32_t c = (d->next_offset - WINDOW - 1) & ~WMASK;
    rebase_entries(d->head_long, long_zeroed(d), c);
    rebase_entries(d->head_short, d->zeroed, c);
    rebase_entries(d->prev_long, WINDOW, c);
    rebase_entries(d->prev_short, WINDOW, c);
    d->next_offset -= c;
}

/* The table offset of a part of len bytes: the first of a call or stream
 * starts WINDOW after the previous part's end, the others at it (see
 * next_offset). */
static uint32_t claim_offset(codec_deflater *d, uint32_t len, bool first)
{
    uint32_t gap = first ? WINDOW : 0;
    if (d->next_offset > UINT32_MAX - gap - len)
        rebase(d);
    uint32_t off = d->next_offset + gap;
    d->next_offset = off + len;
    return off;
}

/* Lazy parse of one part: base[0..n), after base[-hist..0). A match m found at p waits
 * (`pending`) for the search at p+1: a longer match there makes p a
 * literal (zlib's rule). One call site, so find_match() is inlined here.
 *
 * Incompressible input (random bytes, compressed or encrypted data): once
 * a full block came out stored, matches cannot make the next one smaller
 * unless they are frequent, and searching every position is where the time
 * went (cache misses on the heads and chains: 0.84x gzip -6 on 1 GiB of
 * random bytes). In this sparse mode positions are still inserted (a
 * repeat can be found later) but searched only every SPARSE_STEP bytes.
 * The first
 * match of SPARSE_EXIT bytes or more ends it: the literals before it go
 * out as their own block, and the search is full again from there. Until
 * a block is stored whole the parse is the same as without the mode (the
 * same output on text and JSON); the mode lives in one call or stream
 * (d->sparse between its parts), so the output depends on its input only. */
#define SPARSE_STEP 8u
#define SPARSE_EXIT 5u /* shorter ones turn up by chance in random bytes */

/* Sparse mode's literals from p up to the next position searched (a
 * multiple of SPARSE_STEP), or until a block that is not stored whole ends
 * the mode; returns that position. */
static uint32_t sparse_literals(parser *ps, const uint8_t *base, uint32_t p, uint32_t n,
                                bool *sparse)
{
    while (p < n && p % SPARSE_STEP && *sparse) {
        emit_literal(ps, base[p]);
        p++;
        maybe_flush(ps, base + p, sparse);
    }
    return p;
}

static void parse_segment(parser *ps, const level_params *lp, const uint8_t *base, uint32_t hist,
                          uint32_t n, bool first)
{
    segment s = {ps->d, base, n, n >= LONG_BYTES ? n - LONG_BYTES + 1 : 0, 0,
                 claim_offset(ps->d, n, first), hist, lp};
    uint32_t p = 0;
    match m = {0, 0};
    bool pending = false;
    bool sparse = ps->sparse;
    while (p < n) {
        unsigned depth = lp->long_depth, shorter = MIN_MATCH;
        if (pending) {
            if (m.len >= lp->lazy || p + 1 >= n) {
                emit_match(ps, m);
                p += m.len;
                pending = false;
                maybe_flush(ps, base + p, &sparse);
                continue;
            }
            if (m.len >= lp->good)
                depth /= 4;
            shorter = m.len;
        }
        match f = find_match(&s, pending ? p + 1 : p, depth, shorter);
        if (!pending) {
            if (f.len >= MIN_MATCH && sparse) {
                if (f.len < SPARSE_EXIT) {
                    f.len = 0;
                } else {
                    if (ps->nitems)
                        flush_block(ps, base + p);
                    sparse = false;
                }
            }
            if (f.len < MIN_MATCH) {
                emit_literal(ps, base[p]);
                p++;
                maybe_flush(ps, base + p, &sparse);
                if (sparse)
                    p = sparse_literals(ps, base, p, n, &sparse);
            } else {
                m = f;
                pending = true;
            }
        } else if (f.len <= m.len) {
            emit_match(ps, m);
            p += m.len;
            pending = false;
            maybe_flush(ps, base + p, &sparse);
        } else {
            emit_literal(ps, base[p]);
            p++;
            m = f;
        }
    }
    ps->sparse = sparse;
}

/* The first part of a call or stream: head tables of 2^bits entries for
 * `size` bytes (the call's input, or for a stream of more than one part
 * SIZE_MAX), at most 2^LONG_BITS_MAX and 2^short_bits, zeroed on the first
 * use of that size; no history, no pending block, sparse mode off. */
static void start_input(codec_deflater *d, const level_params *lp, size_t size)
{
    unsigned bits = HASH_BITS_MIN;
    while (bits < lp->short_bits && ((size_t)1 << bits) < size)
        bits++;
    d->shifts = (hash_shifts){64 - (bits < LONG_BITS_MAX ? bits : LONG_BITS_MAX), 64 - bits};
    if (d->zeroed < 1u << bits) { /* first use of this size: 0 is stale */
        size_t from_long = long_zeroed(d), from_short = d->zeroed;
        d->zeroed = 1u << bits;
        memset(d->head_long + from_long, 0, (long_zeroed(d) - from_long) * sizeof d->head_long[0]);
        memset(d->head_short + from_short, 0, (d->zeroed - from_short) * sizeof d->head_short[0]);
    }
    d->pos = d->block_bytes = d->nitems = 0;
    d->bits = 0;
    d->count = 0;
    d->sparse = false;
}

size_t codec__deflate_history(const codec_deflater *d)
{
    size_t hist = d->pos < WINDOW ? (size_t)d->pos : WINDOW;
    return d->block_bytes > hist ? d->block_bytes : hist;
}

/* Parses one part, src[0..n) after the history (codec__deflate_history()),
 * into the pending block, which goes on into the next part unless the part
 * is the last or the block's bytes would be more than the level's hold
 * (the input a stream keeps for a stored block): then it is written. */
static void compress_part(codec_deflater *d, const level_params *lp, bitwriter *w,
                          const uint8_t *src, uint32_t n, bool first, bool final)
{
    parser ps = {d, w, src - d->block_bytes, d->nitems, lp->splits, d->sparse};
    parse_segment(&ps, lp, src, d->pos < WINDOW ? (uint32_t)d->pos : WINDOW, n, first);
    d->sparse = ps.sparse;
    size_t block_bytes = (size_t)(src + n - ps.block_start);
    if (final || block_bytes > lp->hold) {
        write_range(d, w, d->items, ps.nitems, ps.block_start, final, lp->splits);
        ps.nitems = 0;
        block_bytes = 0;
    }
    d->nitems = ps.nitems;
    d->block_bytes = block_bytes;
    d->pos += n;
}

size_t codec__deflate_compress(codec_deflater *d, int level, const uint8_t *src, size_t n,
                               uint8_t *dst, size_t cap)
{
    const level_params *lp = &params_for[level];
    bitwriter w = {0, 0, dst, dst + cap, false};
    start_input(d, lp, n);
    size_t off = 0;
    for (;;) {
        size_t len = n - off < d->part ? n - off : d->part;
        bool final = off + len == n;
        compress_part(d, lp, &w, src + off, (uint32_t)len, off == 0, final);
        if (final || w.overflow)
            break;
        off += len;
    }
    align_bytes(&w);
    return w.overflow ? 0 : (size_t)(w.out - dst);
}

bool codec__deflate_compress_part(codec_deflater *d, int level, const uint8_t *src, size_t n,
                                  bool first, bool final, uint8_t *dst, size_t cap,
                                  size_t *written)
{
    const level_params *lp = &params_for[level];
    if (first)
        start_input(d, lp, final ? n : SIZE_MAX);
    bitwriter w = {d->bits, d->count, dst, dst + cap, false};
    compress_part(d, lp, &w, src, (uint32_t)n, first, final);
    if (final) {
        align_bytes(&w);
    } else { /* whole bytes out, the rest for the next part */
        while (w.count >= 8 && w.out < w.end) {
            *w.out++ = (uint8_t)w.bits;
            w.bits >>= 8;
            w.count -= 8;
        }
        if (w.count >= 8)
            w.overflow = true;
        d->bits = w.bits;
        d->count = w.count;
    }
    *written = (size_t)(w.out - dst);
    return !w.overflow;
}
