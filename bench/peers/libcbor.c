/* libcbor.c — peer: libcbor, the bench structs mapped by hand. Spec:
 * "cbor". Structs are maps keyed by field name (the JSON names), enums
 * their names, absent optionals left out: the JSON payloads' shape in CBOR.
 *
 * Encode writes with libcbor's cbor_encode_* into a buffer kept across
 * calls. Decode is cbor_load (libcbor's item tree, the usual API), freed at
 * the worker's next decode, then the bench struct is filled by the tree
 * peers' mapping (dom_map.h); strings point into the tree. */
#include "peer.h"

#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CBOR -> C struct: the decode half of dom_map.h's calls -------------- */

typedef cbor_item_t dm_node;
typedef struct {
    cbor_item_t **items;
} dm_iter;
#define DM_ENCODE 0   /* encode writes with cbor_encode_*, below */
#define DM_USERS 0
#define DM_CLIENTS 0
#define DM_TWITTER 0

static inline bool dm_is_string(dm_node *v)
{
    return v && cbor_isa_string(v) && cbor_string_is_definite(v);
}
static inline bench_str dm_str(dm_node *v)
{
    return (bench_str){(const char *)cbor_string_handle(v), cbor_string_length(v)};
}
static inline dm_node *dm_get(dm_node *o, const char *k)
{
    size_t n = strlen(k);
    if (!o || !cbor_isa_map(o))
        return NULL;
    struct cbor_pair *e = cbor_map_handle(o);
    for (size_t i = 0; i < cbor_map_size(o); i++)
        if (dm_is_string(e[i].key) && cbor_string_length(e[i].key) == n &&
            memcmp(cbor_string_handle(e[i].key), k, n) == 0)
            return e[i].value;
    return NULL;
}
static inline bool dm_is_object(dm_node *v) { return v && cbor_isa_map(v); }
static inline bool dm_is_array(dm_node *v) { return v && cbor_isa_array(v); }
/* Floats of every width (CBOR_FLOAT_0 are the simple values). */
static inline bool dm_is_number(dm_node *v)
{
    return v && cbor_isa_float_ctrl(v) && cbor_float_get_width(v) != CBOR_FLOAT_0;
}
static inline bool dm_is_bool(dm_node *v) { return v && cbor_is_bool(v); }
static inline double dm_double(dm_node *v) { return cbor_float_get_float(v); }
static inline bool dm_bool(dm_node *v) { return cbor_get_bool(v); }
static inline bool dm_int(dm_node *v, int64_t *i)
{
    if (!v || (!cbor_isa_uint(v) && !cbor_isa_negint(v)) || cbor_get_int(v) > INT64_MAX)
        return false;
    *i = cbor_isa_uint(v) ? (int64_t)cbor_get_int(v) : -1 - (int64_t)cbor_get_int(v);
    return true;
}
static inline size_t dm_len(dm_node *a) { return cbor_array_size(a); }
static inline dm_iter dm_items(dm_node *a) { return (dm_iter){cbor_array_handle(a)}; }
static inline dm_node *dm_next(dm_iter *it) { return *it->items++; }

#include "dom_map.h"

typedef struct cb_worker {
    peer_bytes out;
    size_t len;               /* bytes written to out by this encode */
    bool failed;              /* out of memory during this encode */
    cbor_item_t *tree;        /* the last decoded document */
    dom_map map;              /* the model, the last decoded value, its lists */
} cb_worker;

static const char *cb_version(void)
{
    return "libcbor " CBOR_VERSION;
}

static void *cb_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_typed_open(spec, "cbor", p, "libcbor", why, cap);
}

static void *cb_worker_new(void *shared)
{
    cb_worker *w = calloc(1, sizeof *w);
    if (w)
        dom_map_init(&w->map, &(peer_json_cell){*(const peer_model *)shared, PEER_DATABIND});
    return w;
}

static void cb_worker_free(void *worker)
{
    cb_worker *w = worker;
    if (w->tree)
        cbor_decref(&w->tree);
    peer_bytes_free(&w->out);
    dom_map_free(&w->map);
    free(w);
}

/* ---- C struct -> CBOR ---------------------------------------------------- */

/* n writable bytes at the end of the output, or NULL (failed is set). */
static unsigned char *room(cb_worker *w, size_t n)
{
    size_t want = w->len + n;
    if (want > w->out.cap &&
        peer_reserve(&w->out, want > 2 * w->out.cap ? want : 2 * w->out.cap) != 0) {
        w->failed = true;
        return NULL;
    }
    return w->out.data + w->len;
}

static void c_int(cb_worker *w, int64_t v)
{
    unsigned char *p = room(w, 9);
    if (p)
        w->len += v >= 0 ? cbor_encode_uint((uint64_t)v, p, 9)
                         : cbor_encode_negint((uint64_t)(-1 - v), p, 9);
}

static void c_str(cb_worker *w, const char *s, size_t n)
{
    unsigned char *p = room(w, 9 + n);
    if (!p)
        return;
    size_t h = cbor_encode_string_start(n, p, 9);
    memcpy(p + h, s, n);
    w->len += h + n;
}

static void c_head(cb_worker *w, bool map, size_t n)
{
    unsigned char *p = room(w, 9);
    if (p)
        w->len += map ? cbor_encode_map_start(n, p, 9) : cbor_encode_array_start(n, p, 9);
}

static void key(cb_worker *w, const char *k)
{
    c_str(w, k, strlen(k));
}

static void kstr(cb_worker *w, const char *k, bench_str s)
{
    key(w, k), c_str(w, s.ptr, s.len);
}

static void kint(cb_worker *w, const char *k, int64_t v)
{
    key(w, k), c_int(w, v);
}

static void kbool(cb_worker *w, const char *k, bool v)
{
    key(w, k);
    unsigned char *p = room(w, 1);
    if (p)
        w->len += cbor_encode_bool(v, p, 1);
}

static void kdbl(cb_worker *w, const char *k, double v)
{
    key(w, k);
    unsigned char *p = room(w, 9);
    if (p)
        w->len += cbor_encode_double(v, p, 9);
}

static void kflt(cb_worker *w, const char *k, float v)
{
    key(w, k);
    unsigned char *p = room(w, 5);
    if (p)
        w->len += cbor_encode_single(v, p, 5);
}

static void put_person(cb_worker *w, const bench_person *p)
{
    c_head(w, true, 4);
    kstr(w, "name", p->name), kint(w, "age", p->age);
    kbool(w, "active", p->active), kstr(w, "email", p->email);
}

static void put_order(cb_worker *w, const bench_order *o)
{
    c_head(w, true, 4);
    kstr(w, "id", o->id), kstr(w, "customer", o->customer), kbool(w, "paid", o->paid);
    key(w, "items"), c_head(w, false, o->items.count);
    for (size_t i = 0; i < o->items.count; i++) {
        const bench_line_item *it = &o->items.items[i];
        c_head(w, true, 4);
        kstr(w, "sku", it->sku), kstr(w, "description", it->description);
        kint(w, "quantity", it->quantity), kdbl(w, "unitPrice", it->unit_price);
    }
}

static void put_media(cb_worker *w, const bench_media_content *mc, bool has_bitrate)
{
    const bench_media *m = &mc->media;
    c_head(w, true, 2);
    key(w, "media"), c_head(w, true, 9 + has_bitrate + m->title.has + m->copyright.has);
    kstr(w, "uri", m->uri);
    if (m->title.has)
        kstr(w, "title", m->title.value);
    kint(w, "width", m->width), kint(w, "height", m->height), kstr(w, "format", m->format);
    kint(w, "duration", m->duration), kint(w, "size", m->size), kint(w, "bitrate", m->bitrate);
    if (has_bitrate)
        kbool(w, "hasBitrate", m->has_bitrate);
    key(w, "persons"), c_head(w, false, m->persons.count);
    for (size_t i = 0; i < m->persons.count; i++)
        c_str(w, m->persons.items[i].ptr, m->persons.items[i].len);
    key(w, "player"), key(w, DM_PLAYER[m->player]);
    if (m->copyright.has)
        kstr(w, "copyright", m->copyright.value);
    key(w, "images"), c_head(w, false, mc->images.count);
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        c_head(w, true, 4 + im->title.has);
        kstr(w, "uri", im->uri);
        if (im->title.has)
            kstr(w, "title", im->title.value);
        kint(w, "width", im->width), kint(w, "height", im->height);
        key(w, "size"), key(w, DM_SIZE[im->size]);
    }
}

static void put_struct(cb_worker *w, const bench_struct *s)
{
    c_head(w, true, 16);
    kint(w, "f1", s->f1), kint(w, "f2", s->f2), kint(w, "f3", s->f3), kint(w, "f4", s->f4);
    kflt(w, "f5", s->f5), kflt(w, "f6", s->f6), kdbl(w, "f7", s->f7), kdbl(w, "f8", s->f8);
    kint(w, "f9", s->f9), kint(w, "f10", s->f10), kint(w, "f11", s->f11);
    kint(w, "f12", s->f12), kflt(w, "f13", s->f13), kflt(w, "f14", s->f14);
    kdbl(w, "f15", s->f15), kdbl(w, "f16", s->f16);
}

static int cb_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    cb_worker *w = worker;
    w->len = 0;
    w->failed = false;
    if (w->map.model == PEER_PERSON)
        put_person(w, p->value);
    else if (w->map.model == PEER_ORDER)
        put_order(w, p->value);
    else if (w->map.model == PEER_STRUCT)
        put_struct(w, p->value);
    else
        put_media(w, p->value, w->map.model == PEER_MEDIA_CONTENT);
    *out = w->out.data;
    *len = w->len;
    return w->failed ? -1 : 0;
}

static int cb_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    cb_worker *w = worker;
    *out = NULL, *len = 0;
    if (w->tree)
        cbor_decref(&w->tree);
    struct cbor_load_result r;
    w->tree = cbor_load(in, n, &r);
    if (!w->tree || r.error.code != CBOR_ERR_NONE || r.read != n)
        return -1;
    return dom_map_fill(&w->map, w->tree);
}

static int cb_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((cb_worker *)worker)->map.value);
}

const bench_driver bench_peer_libcbor = {
    "libcbor", cb_version, cb_open, free, cb_worker_new, cb_worker_free,
    cb_encode, cb_decode, cb_matches, NULL, NULL};
