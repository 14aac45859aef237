/* msgpack_c.c — peer: msgpack-c (the C API), the bench structs mapped by
 * hand. Spec: "msgpack". Structs are maps keyed by field name (the JSON
 * names), enums their names, absent optionals left out: the shape of the
 * JSON payloads in MessagePack.
 *
 * Encode packs into an sbuffer that is cleared, not freed, per call. Decode
 * is msgpack_unpack_next into a msgpack_unpacked kept by the worker (its
 * zone is released at the next call), then the bench struct is filled by
 * the tree peers' mapping (dom_map.h); strings point into the unpacked
 * objects. */
#include "peer.h"

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- MessagePack -> C struct: the decode half of dom_map.h's calls ------ */

typedef msgpack_object dm_node;
typedef struct {
    msgpack_object *items;
} dm_iter;
#define DM_ENCODE 0   /* encode packs with msgpack_pack_*, below */
#define DM_USERS 0
#define DM_CLIENTS 0
#define DM_TWITTER 0

static inline bool dm_is_string(dm_node *v) { return v && v->type == MSGPACK_OBJECT_STR; }
static inline bench_str dm_str(dm_node *v) { return (bench_str){v->via.str.ptr, v->via.str.size}; }
static inline dm_node *dm_get(dm_node *o, const char *k)
{
    size_t n = strlen(k);
    if (!o || o->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        msgpack_object_kv *e = &o->via.map.ptr[i];
        if (dm_is_string(&e->key) && e->key.via.str.size == n &&
            memcmp(e->key.via.str.ptr, k, n) == 0)
            return &e->val;
    }
    return NULL;
}
static inline bool dm_is_object(dm_node *v) { return v && v->type == MSGPACK_OBJECT_MAP; }
static inline bool dm_is_array(dm_node *v) { return v && v->type == MSGPACK_OBJECT_ARRAY; }
static inline bool dm_is_number(dm_node *v)
{
    return v && (v->type == MSGPACK_OBJECT_FLOAT64 || v->type == MSGPACK_OBJECT_FLOAT32);
}
static inline bool dm_is_bool(dm_node *v) { return v && v->type == MSGPACK_OBJECT_BOOLEAN; }
static inline double dm_double(dm_node *v) { return v->via.f64; }
static inline bool dm_bool(dm_node *v) { return v->via.boolean; }
static inline bool dm_int(dm_node *v, int64_t *i)
{
    if (v && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT64_MAX)
        return *i = (int64_t)v->via.u64, true;
    if (v && v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return *i = v->via.i64, true;
    return false;
}
static inline size_t dm_len(dm_node *a) { return a->via.array.size; }
static inline dm_iter dm_items(dm_node *a) { return (dm_iter){a->via.array.ptr}; }
static inline dm_node *dm_next(dm_iter *it) { return it->items++; }

#include "dom_map.h"

typedef struct mp_worker {
    msgpack_sbuffer out;
    msgpack_packer pk;
    msgpack_unpacked result;
    dom_map map;              /* the model, the last decoded value, its lists */
} mp_worker;

static const char *mp_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "msgpack-c %s", msgpack_version());
    return v;
}

static void *mp_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_typed_open(spec, "msgpack", p, "msgpack-c", why, cap);
}

static void *mp_worker_new(void *shared)
{
    mp_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    dom_map_init(&w->map, &(peer_json_cell){*(const peer_model *)shared, PEER_DATABIND});
    msgpack_sbuffer_init(&w->out);
    msgpack_packer_init(&w->pk, &w->out, msgpack_sbuffer_write);
    msgpack_unpacked_init(&w->result);
    return w;
}

static void mp_worker_free(void *worker)
{
    mp_worker *w = worker;
    msgpack_sbuffer_destroy(&w->out);
    msgpack_unpacked_destroy(&w->result);
    dom_map_free(&w->map);
    free(w);
}

/* ---- C struct -> MessagePack ---------------------------------------------
 * The packers return non-zero on failure; chains join them with ||. */

static int str(msgpack_packer *pk, const char *s, size_t n)
{
    return msgpack_pack_str(pk, n) || msgpack_pack_str_body(pk, s, n);
}

static int key(msgpack_packer *pk, const char *k)
{
    return str(pk, k, strlen(k));
}

static int kstr(msgpack_packer *pk, const char *k, bench_str s)
{
    return key(pk, k) || str(pk, s.ptr, s.len);
}

static int kint(msgpack_packer *pk, const char *k, int64_t v)
{
    return key(pk, k) || msgpack_pack_int64(pk, v);
}

static int kdbl(msgpack_packer *pk, const char *k, double v)
{
    return key(pk, k) || msgpack_pack_double(pk, v);
}

static int kflt(msgpack_packer *pk, const char *k, float v)
{
    return key(pk, k) || msgpack_pack_float(pk, v);
}

static int kbool(msgpack_packer *pk, const char *k, bool v)
{
    return key(pk, k) || (v ? msgpack_pack_true(pk) : msgpack_pack_false(pk));
}

static int pack_person(msgpack_packer *pk, const bench_person *p)
{
    return msgpack_pack_map(pk, 4) || kstr(pk, "name", p->name) || kint(pk, "age", p->age) ||
           kbool(pk, "active", p->active) || kstr(pk, "email", p->email);
}

static int pack_order(msgpack_packer *pk, const bench_order *o)
{
    if (msgpack_pack_map(pk, 4) || kstr(pk, "id", o->id) ||
        kstr(pk, "customer", o->customer) || kbool(pk, "paid", o->paid) ||
        key(pk, "items") || msgpack_pack_array(pk, o->items.count))
        return -1;
    for (size_t i = 0; i < o->items.count; i++) {
        const bench_line_item *it = &o->items.items[i];
        if (msgpack_pack_map(pk, 4) || kstr(pk, "sku", it->sku) ||
            kstr(pk, "description", it->description) || kint(pk, "quantity", it->quantity) ||
            kdbl(pk, "unitPrice", it->unit_price))
            return -1;
    }
    return 0;
}

static int pack_media(msgpack_packer *pk, const bench_media_content *mc, bool has_bitrate)
{
    const bench_media *m = &mc->media;
    size_t fields = 9 + has_bitrate + m->title.has + m->copyright.has;
    if (msgpack_pack_map(pk, 2) || key(pk, "media") || msgpack_pack_map(pk, fields) ||
        kstr(pk, "uri", m->uri) || (m->title.has && kstr(pk, "title", m->title.value)) ||
        kint(pk, "width", m->width) || kint(pk, "height", m->height) ||
        kstr(pk, "format", m->format) || kint(pk, "duration", m->duration) ||
        kint(pk, "size", m->size) || kint(pk, "bitrate", m->bitrate) ||
        (has_bitrate && kbool(pk, "hasBitrate", m->has_bitrate)) || key(pk, "persons") ||
        msgpack_pack_array(pk, m->persons.count))
        return -1;
    for (size_t i = 0; i < m->persons.count; i++)
        if (str(pk, m->persons.items[i].ptr, m->persons.items[i].len))
            return -1;
    if (key(pk, "player") || key(pk, DM_PLAYER[m->player]) ||
        (m->copyright.has && kstr(pk, "copyright", m->copyright.value)) ||
        key(pk, "images") || msgpack_pack_array(pk, mc->images.count))
        return -1;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        if (msgpack_pack_map(pk, 4 + im->title.has) || kstr(pk, "uri", im->uri) ||
            (im->title.has && kstr(pk, "title", im->title.value)) ||
            kint(pk, "width", im->width) || kint(pk, "height", im->height) ||
            key(pk, "size") || key(pk, DM_SIZE[im->size]))
            return -1;
    }
    return 0;
}

static int pack_struct(msgpack_packer *pk, const bench_struct *s)
{
    return msgpack_pack_map(pk, 16) || kint(pk, "f1", s->f1) || kint(pk, "f2", s->f2) ||
           kint(pk, "f3", s->f3) || kint(pk, "f4", s->f4) || kflt(pk, "f5", s->f5) ||
           kflt(pk, "f6", s->f6) || kdbl(pk, "f7", s->f7) || kdbl(pk, "f8", s->f8) ||
           kint(pk, "f9", s->f9) || kint(pk, "f10", s->f10) || kint(pk, "f11", s->f11) ||
           kint(pk, "f12", s->f12) || kflt(pk, "f13", s->f13) || kflt(pk, "f14", s->f14) ||
           kdbl(pk, "f15", s->f15) || kdbl(pk, "f16", s->f16);
}

static int mp_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    mp_worker *w = worker;
    msgpack_sbuffer_clear(&w->out);
    int rc = w->map.model == PEER_PERSON  ? pack_person(&w->pk, p->value)
             : w->map.model == PEER_ORDER ? pack_order(&w->pk, p->value)
             : w->map.model == PEER_STRUCT
                 ? pack_struct(&w->pk, p->value)
                 : pack_media(&w->pk, p->value, w->map.model == PEER_MEDIA_CONTENT);
    *out = (const uint8_t *)w->out.data;
    *len = w->out.size;
    return rc ? -1 : 0;
}

static int mp_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    mp_worker *w = worker;
    size_t off = 0;
    *out = NULL, *len = 0;
    if (msgpack_unpack_next(&w->result, (const char *)in, n, &off) != MSGPACK_UNPACK_SUCCESS ||
        off != n)
        return -1;
    return dom_map_fill(&w->map, &w->result.data);
}

static int mp_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((mp_worker *)worker)->map.value);
}

const bench_driver bench_peer_msgpack_c = {
    "msgpack-c", mp_version, mp_open, free, mp_worker_new, mp_worker_free,
    mp_encode, mp_decode, mp_matches, NULL, NULL};
