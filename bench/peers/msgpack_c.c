/* msgpack_c.c — peer: msgpack-c (the C API), the bench structs mapped by
 * hand. Spec: "msgpack". Structs are maps keyed by field name (the JSON
 * names), enums their names, absent optionals left out: the shape of the
 * JSON payloads in MessagePack.
 *
 * Encode packs into an sbuffer that is cleared, not freed, per call. Decode
 * is msgpack_unpack_next into a msgpack_unpacked kept by the worker (its
 * zone is released at the next call), then the bench struct is filled;
 * strings point into the unpacked objects. Lists go to worker buffers. */
#include "peer.h"

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mp_worker {
    peer_model model;
    msgpack_sbuffer out;
    msgpack_packer pk;
    msgpack_unpacked result;
    peer_value value;
    peer_bytes items, persons, images;
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
    w->model = *(const peer_model *)shared;
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
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->images);
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
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
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
    if (key(pk, "player") || key(pk, PLAYER[m->player]) ||
        (m->copyright.has && kstr(pk, "copyright", m->copyright.value)) ||
        key(pk, "images") || msgpack_pack_array(pk, mc->images.count))
        return -1;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        if (msgpack_pack_map(pk, 4 + im->title.has) || kstr(pk, "uri", im->uri) ||
            (im->title.has && kstr(pk, "title", im->title.value)) ||
            kint(pk, "width", im->width) || kint(pk, "height", im->height) ||
            key(pk, "size") || key(pk, SIZE[im->size]))
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
    int rc = w->model == PEER_PERSON  ? pack_person(&w->pk, p->value)
             : w->model == PEER_ORDER ? pack_order(&w->pk, p->value)
             : w->model == PEER_STRUCT
                 ? pack_struct(&w->pk, p->value)
                 : pack_media(&w->pk, p->value, w->model == PEER_MEDIA_CONTENT);
    *out = (const uint8_t *)w->out.data;
    *len = w->out.size;
    return rc ? -1 : 0;
}

/* ---- MessagePack -> C struct ---------------------------------------------
 * Getters return false on a missing member or a wrong type. */

static const msgpack_object *get(const msgpack_object *o, const char *k)
{
    size_t n = strlen(k);
    if (o->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object *kk = &o->via.map.ptr[i].key;
        if (kk->type == MSGPACK_OBJECT_STR && kk->via.str.size == n &&
            memcmp(kk->via.str.ptr, k, n) == 0)
            return &o->via.map.ptr[i].val;
    }
    return NULL;
}

static bool as_str(const msgpack_object *v, bench_str *s)
{
    if (!v || v->type != MSGPACK_OBJECT_STR)
        return false;
    *s = (bench_str){v->via.str.ptr, v->via.str.size};
    return true;
}

static bool get_str(const msgpack_object *o, const char *k, bench_str *s)
{
    return as_str(get(o, k), s);
}

static bool get_opt(const msgpack_object *o, const char *k, bench_opt_str *s)
{
    const msgpack_object *v = get(o, k);
    s->has = v != NULL;
    return !v || as_str(v, &s->value);
}

static bool get_i64(const msgpack_object *o, const char *k, int64_t *i)
{
    const msgpack_object *v = get(o, k);
    if (v && v->type == MSGPACK_OBJECT_POSITIVE_INTEGER && v->via.u64 <= INT64_MAX)
        return *i = (int64_t)v->via.u64, true;
    if (v && v->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return *i = v->via.i64, true;
    return false;
}

static bool get_i32(const msgpack_object *o, const char *k, int32_t *i)
{
    int64_t v;
    if (!get_i64(o, k, &v) || v < INT32_MIN || v > INT32_MAX)
        return false;
    *i = (int32_t)v;
    return true;
}

static bool get_dbl(const msgpack_object *o, const char *k, double *d)
{
    const msgpack_object *v = get(o, k);
    if (!v || (v->type != MSGPACK_OBJECT_FLOAT64 && v->type != MSGPACK_OBJECT_FLOAT32))
        return false;
    *d = v->via.f64;
    return true;
}

static bool get_flt(const msgpack_object *o, const char *k, float *f)
{
    double d;
    if (!get_dbl(o, k, &d))
        return false;
    *f = (float)d;
    return true;
}

static bool get_bool(const msgpack_object *o, const char *k, bool *b)
{
    const msgpack_object *v = get(o, k);
    if (!v || v->type != MSGPACK_OBJECT_BOOLEAN)
        return false;
    *b = v->via.boolean;
    return true;
}

static bool get_enum(const msgpack_object *o, const char *k, const char *a, const char *b,
                     int *e)
{
    bench_str s;
    if (!get_str(o, k, &s))
        return false;
    *e = s.len == strlen(a) && memcmp(s.ptr, a, s.len) == 0   ? 0
         : s.len == strlen(b) && memcmp(s.ptr, b, s.len) == 0 ? 1
                                                              : -1;
    return *e >= 0;
}

/* An array member: its items, with room for `size` bytes each in buf. */
static const msgpack_object_array *get_array(const msgpack_object *o, const char *k,
                                             size_t size, peer_bytes *buf)
{
    const msgpack_object *v = get(o, k);
    if (!v || v->type != MSGPACK_OBJECT_ARRAY ||
        peer_reserve(buf, v->via.array.size * size + 1) != 0)
        return NULL;
    return &v->via.array;
}

static bool read_person(const msgpack_object *o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool read_order(mp_worker *w, const msgpack_object *o, bench_order *ord)
{
    const msgpack_object_array *a;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(a = get_array(o, "items", sizeof(bench_line_item), &w->items)))
        return false;
    ord->items.items = (bench_line_item *)w->items.data;
    ord->items.count = a->size;
    for (uint32_t i = 0; i < a->size; i++) {
        bench_line_item *it = &ord->items.items[i];
        const msgpack_object *e = &a->ptr[i];
        if (!get_str(e, "sku", &it->sku) || !get_str(e, "description", &it->description) ||
            !get_i32(e, "quantity", &it->quantity) || !get_dbl(e, "unitPrice", &it->unit_price))
            return false;
    }
    return true;
}

static bool read_media(mp_worker *w, const msgpack_object *o, bench_media_content *mc)
{
    const msgpack_object *md = get(o, "media");
    const msgpack_object_array *a;
    bench_media *m = &mc->media;
    int e;
    m->has_bitrate = false;
    if (!md || !get_str(md, "uri", &m->uri) || !get_opt(md, "title", &m->title) ||
        !get_i32(md, "width", &m->width) || !get_i32(md, "height", &m->height) ||
        !get_str(md, "format", &m->format) || !get_i64(md, "duration", &m->duration) ||
        !get_i64(md, "size", &m->size) || !get_i32(md, "bitrate", &m->bitrate) ||
        (w->model == PEER_MEDIA_CONTENT && !get_bool(md, "hasBitrate", &m->has_bitrate)) ||
        !get_enum(md, "player", "JAVA", "FLASH", &e) || !get_opt(md, "copyright", &m->copyright) ||
        !(a = get_array(md, "persons", sizeof(bench_str), &w->persons)))
        return false;
    m->player = (bench_player)e;
    m->persons.items = (bench_str *)w->persons.data;
    m->persons.count = a->size;
    for (uint32_t i = 0; i < a->size; i++)
        if (!as_str(&a->ptr[i], &m->persons.items[i]))
            return false;
    if (!(a = get_array(o, "images", sizeof(bench_image), &w->images)))
        return false;
    mc->images.items = (bench_image *)w->images.data;
    mc->images.count = a->size;
    for (uint32_t i = 0; i < a->size; i++) {
        bench_image *im = &mc->images.items[i];
        const msgpack_object *io = &a->ptr[i];
        if (!get_str(io, "uri", &im->uri) || !get_opt(io, "title", &im->title) ||
            !get_i32(io, "width", &im->width) || !get_i32(io, "height", &im->height) ||
            !get_enum(io, "size", "SMALL", "LARGE", &e))
            return false;
        im->size = (bench_image_size)e;
    }
    return true;
}

static bool read_struct(const msgpack_object *o, bench_struct *s)
{
    return get_i32(o, "f1", &s->f1) && get_i32(o, "f2", &s->f2) && get_i64(o, "f3", &s->f3) &&
           get_i64(o, "f4", &s->f4) && get_flt(o, "f5", &s->f5) && get_flt(o, "f6", &s->f6) &&
           get_dbl(o, "f7", &s->f7) && get_dbl(o, "f8", &s->f8) && get_i32(o, "f9", &s->f9) &&
           get_i32(o, "f10", &s->f10) && get_i64(o, "f11", &s->f11) &&
           get_i64(o, "f12", &s->f12) && get_flt(o, "f13", &s->f13) &&
           get_flt(o, "f14", &s->f14) && get_dbl(o, "f15", &s->f15) && get_dbl(o, "f16", &s->f16);
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
    const msgpack_object *o = &w->result.data;
    bool ok = w->model == PEER_PERSON  ? read_person(o, &w->value.person)
              : w->model == PEER_ORDER ? read_order(w, o, &w->value.order)
              : w->model == PEER_STRUCT
                  ? read_struct(o, &w->value.numeric)
                  : read_media(w, o, &w->value.media);
    return ok ? 0 : -1;
}

static int mp_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((mp_worker *)worker)->value);
}

const bench_driver bench_peer_msgpack_c = {
    "msgpack-c", mp_version, mp_open, free, mp_worker_new, mp_worker_free,
    mp_encode, mp_decode, mp_matches, NULL, NULL};
