/* libcbor.c — peer: libcbor, the bench structs mapped by hand. Spec:
 * "cbor". Structs are maps keyed by field name (the JSON names), enums
 * their names, absent optionals left out: the JSON payloads' shape in CBOR.
 *
 * Encode writes with libcbor's cbor_encode_* into a buffer kept across
 * calls. Decode is cbor_load (libcbor's item tree, the usual API), freed at
 * the worker's next decode, then the bench struct is filled; strings point
 * into the tree. Lists go to worker buffers. */
#include "peer.h"

#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cb_worker {
    peer_model model;
    peer_bytes out;
    size_t len;               /* bytes written to out by this encode */
    bool failed;              /* out of memory during this encode */
    cbor_item_t *tree;        /* the last decoded document */
    peer_value value;
    peer_bytes items, persons, images;
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
        w->model = *(const peer_model *)shared;
    return w;
}

static void cb_worker_free(void *worker)
{
    cb_worker *w = worker;
    if (w->tree)
        cbor_decref(&w->tree);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->images);
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
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
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
    key(w, "player"), key(w, PLAYER[m->player]);
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
        key(w, "size"), key(w, SIZE[im->size]);
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
    if (w->model == PEER_PERSON)
        put_person(w, p->value);
    else if (w->model == PEER_ORDER)
        put_order(w, p->value);
    else if (w->model == PEER_STRUCT)
        put_struct(w, p->value);
    else
        put_media(w, p->value, w->model == PEER_MEDIA_CONTENT);
    *out = w->out.data;
    *len = w->len;
    return w->failed ? -1 : 0;
}

/* ---- CBOR -> C struct ---------------------------------------------------- */

static bool as_str(const cbor_item_t *v, bench_str *s)
{
    if (!v || !cbor_isa_string(v) || !cbor_string_is_definite(v))
        return false;
    *s = (bench_str){(const char *)cbor_string_handle(v), cbor_string_length(v)};
    return true;
}

static const cbor_item_t *get(const cbor_item_t *o, const char *k)
{
    size_t n = strlen(k);
    if (!o || !cbor_isa_map(o))
        return NULL;
    const struct cbor_pair *e = cbor_map_handle(o);
    for (size_t i = 0; i < cbor_map_size(o); i++) {
        bench_str s;
        if (as_str(e[i].key, &s) && s.len == n && memcmp(s.ptr, k, n) == 0)
            return e[i].value;
    }
    return NULL;
}

static bool get_str(const cbor_item_t *o, const char *k, bench_str *s)
{
    return as_str(get(o, k), s);
}

static bool get_opt(const cbor_item_t *o, const char *k, bench_opt_str *s)
{
    const cbor_item_t *v = get(o, k);
    s->has = v != NULL;
    return !v || as_str(v, &s->value);
}

static bool get_i64(const cbor_item_t *o, const char *k, int64_t *i)
{
    const cbor_item_t *v = get(o, k);
    if (!v || (!cbor_isa_uint(v) && !cbor_isa_negint(v)) || cbor_get_int(v) > INT64_MAX)
        return false;
    *i = cbor_isa_uint(v) ? (int64_t)cbor_get_int(v) : -1 - (int64_t)cbor_get_int(v);
    return true;
}

static bool get_i32(const cbor_item_t *o, const char *k, int32_t *i)
{
    int64_t v;
    if (!get_i64(o, k, &v) || v < INT32_MIN || v > INT32_MAX)
        return false;
    *i = (int32_t)v;
    return true;
}

static bool get_dbl(const cbor_item_t *o, const char *k, double *d)
{
    const cbor_item_t *v = get(o, k);
    if (!v || !cbor_isa_float_ctrl(v) || cbor_float_get_width(v) == CBOR_FLOAT_0)
        return false;
    *d = cbor_float_get_float(v);
    return true;
}

static bool get_flt(const cbor_item_t *o, const char *k, float *f)
{
    double d;
    if (!get_dbl(o, k, &d))
        return false;
    *f = (float)d;
    return true;
}

static bool get_bool(const cbor_item_t *o, const char *k, bool *b)
{
    const cbor_item_t *v = get(o, k);
    if (!v || !cbor_is_bool(v))
        return false;
    *b = cbor_get_bool(v);
    return true;
}

static bool get_enum(const cbor_item_t *o, const char *k, const char *a, const char *b, int *e)
{
    bench_str s;
    if (!get_str(o, k, &s))
        return false;
    *e = s.len == strlen(a) && memcmp(s.ptr, a, s.len) == 0   ? 0
         : s.len == strlen(b) && memcmp(s.ptr, b, s.len) == 0 ? 1
                                                              : -1;
    return *e >= 0;
}

/* An array member's items, with room for `size` bytes each in buf. */
static cbor_item_t **get_array(const cbor_item_t *o, const char *k, size_t size,
                               peer_bytes *buf, size_t *count)
{
    const cbor_item_t *v = get(o, k);
    if (!v || !cbor_isa_array(v) || peer_reserve(buf, cbor_array_size(v) * size + 1) != 0)
        return NULL;
    *count = cbor_array_size(v);
    return cbor_array_handle(v);
}

static bool read_person(const cbor_item_t *o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool read_order(cb_worker *w, const cbor_item_t *o, bench_order *ord)
{
    cbor_item_t **a;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(a = get_array(o, "items", sizeof(bench_line_item), &w->items, &ord->items.count)))
        return false;
    ord->items.items = (bench_line_item *)w->items.data;
    for (size_t i = 0; i < ord->items.count; i++) {
        bench_line_item *it = &ord->items.items[i];
        if (!get_str(a[i], "sku", &it->sku) || !get_str(a[i], "description", &it->description) ||
            !get_i32(a[i], "quantity", &it->quantity) ||
            !get_dbl(a[i], "unitPrice", &it->unit_price))
            return false;
    }
    return true;
}

static bool read_media(cb_worker *w, const cbor_item_t *o, bench_media_content *mc)
{
    const cbor_item_t *md = get(o, "media");
    cbor_item_t **a;
    bench_media *m = &mc->media;
    int e;
    m->has_bitrate = false;
    if (!md || !get_str(md, "uri", &m->uri) || !get_opt(md, "title", &m->title) ||
        !get_i32(md, "width", &m->width) || !get_i32(md, "height", &m->height) ||
        !get_str(md, "format", &m->format) || !get_i64(md, "duration", &m->duration) ||
        !get_i64(md, "size", &m->size) || !get_i32(md, "bitrate", &m->bitrate) ||
        (w->model == PEER_MEDIA_CONTENT && !get_bool(md, "hasBitrate", &m->has_bitrate)) ||
        !get_enum(md, "player", "JAVA", "FLASH", &e) || !get_opt(md, "copyright", &m->copyright) ||
        !(a = get_array(md, "persons", sizeof(bench_str), &w->persons, &m->persons.count)))
        return false;
    m->player = (bench_player)e;
    m->persons.items = (bench_str *)w->persons.data;
    for (size_t i = 0; i < m->persons.count; i++)
        if (!as_str(a[i], &m->persons.items[i]))
            return false;
    if (!(a = get_array(o, "images", sizeof(bench_image), &w->images, &mc->images.count)))
        return false;
    mc->images.items = (bench_image *)w->images.data;
    for (size_t i = 0; i < mc->images.count; i++) {
        bench_image *im = &mc->images.items[i];
        if (!get_str(a[i], "uri", &im->uri) || !get_opt(a[i], "title", &im->title) ||
            !get_i32(a[i], "width", &im->width) || !get_i32(a[i], "height", &im->height) ||
            !get_enum(a[i], "size", "SMALL", "LARGE", &e))
            return false;
        im->size = (bench_image_size)e;
    }
    return true;
}

static bool read_struct(const cbor_item_t *o, bench_struct *s)
{
    return get_i32(o, "f1", &s->f1) && get_i32(o, "f2", &s->f2) && get_i64(o, "f3", &s->f3) &&
           get_i64(o, "f4", &s->f4) && get_flt(o, "f5", &s->f5) && get_flt(o, "f6", &s->f6) &&
           get_dbl(o, "f7", &s->f7) && get_dbl(o, "f8", &s->f8) && get_i32(o, "f9", &s->f9) &&
           get_i32(o, "f10", &s->f10) && get_i64(o, "f11", &s->f11) &&
           get_i64(o, "f12", &s->f12) && get_flt(o, "f13", &s->f13) &&
           get_flt(o, "f14", &s->f14) && get_dbl(o, "f15", &s->f15) && get_dbl(o, "f16", &s->f16);
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
    bool ok = w->model == PEER_PERSON  ? read_person(w->tree, &w->value.person)
              : w->model == PEER_ORDER ? read_order(w, w->tree, &w->value.order)
              : w->model == PEER_STRUCT
                  ? read_struct(w->tree, &w->value.numeric)
                  : read_media(w, w->tree, &w->value.media);
    return ok ? 0 : -1;
}

static int cb_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((cb_worker *)worker)->value);
}

const bench_driver bench_peer_libcbor = {
    "libcbor", cb_version, cb_open, free, cb_worker_new, cb_worker_free,
    cb_encode, cb_decode, cb_matches, NULL, NULL};
