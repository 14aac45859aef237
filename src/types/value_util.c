/* value_util.c — format-neutral helpers the backends share: UTF-8 and
 * decimal text validation, growing arena arrays and finding repeated keys. */
#include "types/value_internal.h"
#include "core/error_internal.h"
#include "types/index_internal.h"

#include <string.h>

bool codec__utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        /* Eight ASCII bytes at a time: the common case. */
        if (n - i >= 8) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (!(w & 0x8080808080808080ull)) {
                i += 8;
                continue;
            }
        }
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = codec_utf8_sequence(s + i, s + n);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

static size_t digits(const char *s, size_t i, size_t n)
{
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i - start;
}

bool codec__decimal_text_valid(const char *s, size_t n)
{
    size_t i = 0, k;
    if (i < n && s[i] == '-')
        i++;
    if (!(k = digits(s, i, n)) || (k > 1 && s[i] == '0'))
        return false;
    i += k;
    if (i < n && s[i] == '.') {
        if (!(k = digits(s, ++i, n)))
            return false;
        i += k;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (!(k = digits(s, i, n)))
            return false;
        i += k;
    }
    return i == n;
}

void *codec__array_grow(codec_arena *arena, void *items, size_t count, size_t *cap, size_t esz)
{
    if (count < *cap)
        return items;
    size_t ncap = *cap ? *cap * 2 : 4;
    if (ncap > SIZE_MAX / esz)
        return NULL;
    const codec_allocator *a = codec_arena_allocator(arena);
    void *p = a->resize(a->ctx, items, *cap * esz, ncap * esz);
    if (p)
        *cap = ncap;
    return p;
}

static const uint8_t *key_bytes(const void *keys, size_t stride, size_t i, size_t raw_size,
                                size_t *len)
{
    const uint8_t *k = (const uint8_t *)keys + i * stride;
    if (raw_size) {
        *len = raw_size;
        return k;
    }
    const codec_string *s = (const codec_string *)k;
    *len = s->len;
    return (const uint8_t *)s->ptr;
}

static bool same_key(const void *keys, size_t stride, size_t a, size_t b, size_t raw_size)
{
    size_t la, lb;
    const uint8_t *ka = key_bytes(keys, stride, a, raw_size, &la);
    const uint8_t *kb = key_bytes(keys, stride, b, raw_size, &lb);
    return la == lb && (la == 0 || memcmp(ka, kb, la) == 0);
}

/* Keys up to this many are checked in a table on the stack (a zeroed
 * table of 2n..4n slots, each a key's index + 1); more take one from the
 * arena. */
#define DUP_LOCAL_SLOTS 512

long codec__find_duplicate_key(const void *keys, size_t stride, size_t n, size_t raw_size,
                               codec_arena *arena)
{
    if (n <= 4) {
        for (size_t i = 1; i < n; i++)
            for (size_t j = 0; j < i; j++)
                if (same_key(keys, stride, i, j, raw_size))
                    return (long)i;
        return -1;
    }
    if (n >= UINT32_MAX / 2)
        return -2;
    /* One pass over a hash table of indexes (open addressing, at most half
     * full), so hostile objects stay linear; the hash is the struct index's
     * word-at-a-time one, and keys are compared only when their slots meet.
     * Pairwise compares up to 16 keys (one memcmp call per pair) were a
     * quarter of the time of decoding twitter.json as a codec_value. */
    size_t size = 8;
    while (size < n * 2)
        size <<= 1;
    uint32_t local[DUP_LOCAL_SLOTS], *table = local;
    if (size > DUP_LOCAL_SLOTS && !(table = codec_arena_alloc(arena, size * sizeof *table, 4)))
        return -2;
    memset(table, 0, size * sizeof *table);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *k = key_bytes(keys, stride, i, raw_size, &len);
        uint32_t h = len ? codec_name_hash((const char *)k, len) : 0;
        for (size_t j = h & (size - 1);; j = (j + 1) & (size - 1)) {
            if (!table[j]) {
                table[j] = (uint32_t)i + 1;
                break;
            }
            if (same_key(keys, stride, table[j] - 1, i, raw_size))
                return (long)i;
        }
    }
    return -1;
}

long codec__find_duplicate_map_key(const codec_type *map, const void *keys, size_t n,
                                   codec_arena *arena)
{
    size_t ksz = map->key->size;
    return codec__find_duplicate_key(keys, ksz, n, map->key->kind == CODEC_T_STRING ? 0 : ksz,
                                     arena);
}

int codec__check_unique_members(const codec_member *members, size_t n, codec_arena *arena,
                                const char *stage, uint64_t at, const char *container,
                                codec_error *err)
{
    long dup = codec__find_duplicate_key(members, sizeof *members, n, 0, arena);
    if (dup == -2)
        return codec__nomem(err, stage);
    if (dup < 0)
        return CODEC_OK;
    const codec_string *k = &members[dup].key;
    return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, stage, at,
                           "duplicate key '%.*s' in %s", (int)(k->len > 64 ? 64 : k->len), k->ptr,
                           container);
}

char *codec__text_pool_refill(codec_text_pool *pool, codec_arena *arena, size_t left, size_t n)
{
    size_t size = left < CODEC_TEXT_POOL_MAX ? left : CODEC_TEXT_POOL_MAX;
    if (size < n)
        size = n;
    char *d = codec_arena_alloc(arena, size, 1);
    if (!d)
        return NULL;
    pool->p = d + n;
    pool->end = d + size;
    return d;
}
