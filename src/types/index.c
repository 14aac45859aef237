/* index.c — per-struct hash tables from field name and from tag to field.
 *
 * Built once per struct type on first use (by codec_type_check or the first
 * lookup) and published with a compare-and-swap, so descriptors stay const
 * and shareable; a thread that loses the race frees its copy. The table
 * lives as long as the static descriptor; run-time types (codec_schema)
 * free it with codec__type_index_free. */
#include "codec/types.h"
#include "types/index_internal.h"

#include <string.h>

typedef struct slot {
    uint32_t hash;       /* name hash; 0 marks an empty name slot */
    uint32_t field;      /* index + 1 into t->fields; 0 = empty */
    uint32_t tag;
    uint32_t tag_field;  /* index + 1 for the tag table; 0 = empty */
} slot;

typedef struct field_index {
    uint32_t mask;
    uint32_t *lens;      /* strlen of each field name, after the slots */
    slot slots[];
} field_index;

static size_t index_bytes(size_t slots, size_t fields)
{
    return sizeof(field_index) + slots * sizeof(slot) + fields * sizeof(uint32_t);
}

static uint32_t table_size(size_t count)
{
    uint32_t n = 4;
    while (n < count * 2)
        n <<= 1;
    return n;
}

static field_index *index_build(const codec_type *t)
{
    uint32_t n = table_size(t->count);
    const codec_allocator *a = codec_default_allocator();
    field_index *ix = a->alloc(a->ctx, index_bytes(n, t->count));
    if (!ix)
        return NULL;
    memset(ix->slots, 0, n * sizeof(slot));
    ix->mask = n - 1;
    ix->lens = (uint32_t *)(ix->slots + n);
    for (uint32_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        ix->lens[i] = (uint32_t)strlen(f->name);
        uint32_t h = codec_name_hash(f->name, ix->lens[i]);
        for (uint32_t j = h & ix->mask;; j = (j + 1) & ix->mask)
            if (!ix->slots[j].field) {
                ix->slots[j].hash = h;
                ix->slots[j].field = i + 1;
                break;
            }
        for (uint32_t j = (f->tag * 0x9E3779B1u) >> 8 & ix->mask;; j = (j + 1) & ix->mask)
            if (!ix->slots[j].tag_field) {
                ix->slots[j].tag = f->tag;
                ix->slots[j].tag_field = i + 1;
                break;
            }
    }
    return ix;
}

/* The published index, building it if needed; NULL only when out of memory. */
static const field_index *index_of(const codec_type *t)
{
    field_index *ix = __atomic_load_n((field_index **)&t->cache->index, __ATOMIC_ACQUIRE);
    if (ix)
        return ix;
    field_index *mine = index_build(t);
    if (!mine)
        return NULL;
    field_index *expected = NULL;
    if (__atomic_compare_exchange_n((field_index **)&t->cache->index, &expected, mine, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return mine;
    const codec_allocator *a = codec_default_allocator();
    a->release(a->ctx, mine, index_bytes(mine->mask + 1, t->count));
    return expected;
}

const uint32_t *codec__type_name_lengths(const codec_type *t)
{
    const field_index *ix = t->cache ? index_of(t) : NULL;
    return ix ? ix->lens : NULL;
}

void codec__type_index_free(const codec_type *t)
{
    field_index *ix = t->cache ? t->cache->index : NULL;
    if (!ix)
        return;
    const codec_allocator *a = codec_default_allocator();
    a->release(a->ctx, ix, index_bytes(ix->mask + 1, t->count));
    t->cache->index = NULL;
}

int codec__type_index_ready(const codec_type *t)
{
    return !t->cache || index_of(t) ? 0 : -1;
}

static const codec_field *scan_name(const codec_type *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->count; i++)
        if (codec_name_equals(t->fields[i].name, name, len))
            return &t->fields[i];
    return NULL;
}

const codec_field *codec__type_field_by_name_hashed(const codec_type *t, const char *name,
                                                    size_t len, uint32_t h)
{
    const field_index *ix = t->cache ? index_of(t) : NULL;
    if (!ix)
        return scan_name(t, name, len);
    for (uint32_t j = h & ix->mask;; j = (j + 1) & ix->mask) {
        const slot *s = &ix->slots[j];
        if (!s->field)
            return NULL;
        if (s->hash == h && ix->lens[s->field - 1] == len) {
            const codec_field *f = &t->fields[s->field - 1];
            if (memcmp(f->name, name, len) == 0)
                return f;
        }
    }
}

const codec_field *codec_type_field_by_name(const codec_type *t, const char *name, size_t len)
{
    if (!t || (t->kind != CODEC_T_STRUCT && t->kind != CODEC_T_UNION))
        return NULL;
    return codec__type_field_by_name_hashed(t, name, len, codec_name_hash(name, len));
}

const codec_field *codec_type_field_by_tag(const codec_type *t, uint32_t tag)
{
    if (!t || (t->kind != CODEC_T_STRUCT && t->kind != CODEC_T_UNION))
        return NULL;
    const field_index *ix = t->cache ? index_of(t) : NULL;
    if (!ix) {
        for (size_t i = 0; i < t->count; i++)
            if (t->fields[i].tag == tag)
                return &t->fields[i];
        return NULL;
    }
    for (uint32_t j = (tag * 0x9E3779B1u) >> 8 & ix->mask;; j = (j + 1) & ix->mask) {
        const slot *s = &ix->slots[j];
        if (!s->tag_field)
            return NULL;
        if (s->tag == tag)
            return &t->fields[s->tag_field - 1];
    }
}
