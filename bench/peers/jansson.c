/* jansson.c — peer: Jansson, the bench structs mapped by hand. Spec: "json".
 *
 * Encode builds a json_t tree from the C struct and dumps it compact with
 * json_dumpb into a reused buffer (grown and redone when it did not fit),
 * then frees the tree. Decode json_loadb's the bytes into a tree and fills
 * the C struct; strings point into the tree, which the worker keeps until
 * its next decode. Lists go to worker buffers kept across decodes. */
#include "peer.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ja_worker {
    peer_model model;
    peer_bytes out;
    json_t *tree;             /* the last decoded document */
    peer_value value;
    peer_bytes items, persons, images;
} ja_worker;

static const char *ja_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "Jansson %s", jansson_version_str());
    return v;
}

static void *ja_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_typed_open(spec, "json", p, "Jansson", why, cap);
}

static void *ja_worker_new(void *shared)
{
    ja_worker *w = calloc(1, sizeof *w);
    if (w)
        w->model = *(const peer_model *)shared;
    return w;
}

static void ja_worker_free(void *worker)
{
    ja_worker *w = worker;
    json_decref(w->tree);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->images);
    free(w);
}

/* ---- C struct -> tree ---------------------------------------------------- */

/* The *_new setters take v's reference, also when v is NULL or they fail. */
static bool add(json_t *o, const char *k, json_t *v)
{
    return json_object_set_new(o, k, v) == 0;
}

static bool push(json_t *a, json_t *v)
{
    return json_array_append_new(a, v) == 0;
}

static json_t *str(bench_str s)
{
    return json_stringn(s.ptr, s.len);
}

static bool add_opt(json_t *o, const char *k, bench_opt_str s)
{
    return !s.has || add(o, k, str(s.value));
}

static json_t *person_to(const bench_person *p)
{
    json_t *o = json_object();
    if (o && add(o, "name", str(p->name)) && add(o, "age", json_integer(p->age)) &&
        add(o, "active", json_boolean(p->active)) && add(o, "email", str(p->email)))
        return o;
    json_decref(o);
    return NULL;
}

static json_t *order_to(const bench_order *ord)
{
    json_t *o = json_object(), *items;
    if (!o || !add(o, "id", str(ord->id)) || !add(o, "customer", str(ord->customer)) ||
        !add(o, "paid", json_boolean(ord->paid)) || !add(o, "items", items = json_array()))
        goto fail;
    for (size_t i = 0; i < ord->items.count; i++) {
        const bench_line_item *it = &ord->items.items[i];
        json_t *e = json_object();
        if (!push(items, e) || !add(e, "sku", str(it->sku)) ||
            !add(e, "description", str(it->description)) ||
            !add(e, "quantity", json_integer(it->quantity)) ||
            !add(e, "unitPrice", json_real(it->unit_price)))
            goto fail;
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

static json_t *media_to(const bench_media_content *mc, bool has_bitrate)
{
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
    const bench_media *m = &mc->media;
    json_t *o = json_object(), *md, *persons, *images;
    if (!o || !add(o, "media", md = json_object()) || !add(md, "uri", str(m->uri)) ||
        !add_opt(md, "title", m->title) || !add(md, "width", json_integer(m->width)) ||
        !add(md, "height", json_integer(m->height)) || !add(md, "format", str(m->format)) ||
        !add(md, "duration", json_integer(m->duration)) ||
        !add(md, "size", json_integer(m->size)) ||
        !add(md, "bitrate", json_integer(m->bitrate)) ||
        (has_bitrate && !add(md, "hasBitrate", json_boolean(m->has_bitrate))) ||
        !add(md, "persons", persons = json_array()))
        goto fail;
    for (size_t i = 0; i < m->persons.count; i++)
        if (!push(persons, str(m->persons.items[i])))
            goto fail;
    if (!add(md, "player", json_string(PLAYER[m->player])) ||
        !add_opt(md, "copyright", m->copyright) || !add(o, "images", images = json_array()))
        goto fail;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        json_t *e = json_object();
        if (!push(images, e) || !add(e, "uri", str(im->uri)) || !add_opt(e, "title", im->title) ||
            !add(e, "width", json_integer(im->width)) ||
            !add(e, "height", json_integer(im->height)) ||
            !add(e, "size", json_string(SIZE[im->size])))
            goto fail;
    }
    return o;
fail:
    json_decref(o);
    return NULL;
}

static json_t *struct_to(const bench_struct *s)
{
    json_t *o = json_object();
    if (o && add(o, "f1", json_integer(s->f1)) && add(o, "f2", json_integer(s->f2)) &&
        add(o, "f3", json_integer(s->f3)) && add(o, "f4", json_integer(s->f4)) &&
        add(o, "f5", json_real(s->f5)) && add(o, "f6", json_real(s->f6)) &&
        add(o, "f7", json_real(s->f7)) && add(o, "f8", json_real(s->f8)) &&
        add(o, "f9", json_integer(s->f9)) && add(o, "f10", json_integer(s->f10)) &&
        add(o, "f11", json_integer(s->f11)) && add(o, "f12", json_integer(s->f12)) &&
        add(o, "f13", json_real(s->f13)) && add(o, "f14", json_real(s->f14)) &&
        add(o, "f15", json_real(s->f15)) && add(o, "f16", json_real(s->f16)))
        return o;
    json_decref(o);
    return NULL;
}

static int ja_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    ja_worker *w = worker;
    json_t *t = w->model == PEER_PERSON  ? person_to(p->value)
                : w->model == PEER_ORDER ? order_to(p->value)
                : w->model == PEER_STRUCT
                    ? struct_to(p->value)
                    : media_to(p->value, w->model == PEER_MEDIA_CONTENT);
    if (!t)
        return -1;
    /* json_dumpb returns the size it needs; the buffer grows once to fit. */
    size_t n = json_dumpb(t, (char *)w->out.data, w->out.cap, JSON_COMPACT);
    if (n > w->out.cap && n <= PEER_MAX_OUTPUT && peer_reserve(&w->out, n) == 0)
        n = json_dumpb(t, (char *)w->out.data, w->out.cap, JSON_COMPACT);
    json_decref(t);
    if (n == 0 || n > w->out.cap)
        return -1;
    *out = w->out.data;
    *len = n;
    return 0;
}

/* ---- tree -> C struct ---------------------------------------------------- */

/* json-c exports a json_object_get too (its reference count increment), and
 * codec-bench links both libraries: the symbol would bind to whichever comes
 * first, so look members up through json_object_getn (Jansson 2.14+), which
 * only Jansson defines. */
static const json_t *get(const json_t *o, const char *k)
{
    return json_object_getn(o, k, strlen(k));
}

static bool get_str(const json_t *o, const char *k, bench_str *s)
{
    const json_t *v = get(o, k);
    if (!json_is_string(v))
        return false;
    *s = (bench_str){json_string_value(v), json_string_length(v)};
    return true;
}

static bool get_opt(const json_t *o, const char *k, bench_opt_str *s)
{
    s->has = get(o, k) != NULL;
    return !s->has || get_str(o, k, &s->value);
}

static bool get_num(const json_t *o, const char *k, double *d)
{
    const json_t *v = get(o, k);
    if (!json_is_number(v))
        return false;
    *d = json_number_value(v);
    return true;
}

static bool get_i64(const json_t *o, const char *k, int64_t *i)
{
    const json_t *v = get(o, k);
    if (!json_is_integer(v))
        return false;
    *i = json_integer_value(v);
    return true;
}

static bool get_i32(const json_t *o, const char *k, int32_t *i)
{
    int64_t x;
    if (!get_i64(o, k, &x) || x < INT32_MIN || x > INT32_MAX)
        return false;
    *i = (int32_t)x;
    return true;
}

static bool get_bool(const json_t *o, const char *k, bool *b)
{
    const json_t *v = get(o, k);
    if (!json_is_boolean(v))
        return false;
    *b = json_is_true(v);
    return true;
}

static bool get_enum(const json_t *o, const char *k, const char *a, const char *b, int *e)
{
    const char *s = json_string_value(get(o, k));
    if (!s)
        return false;
    *e = strcmp(s, a) == 0 ? 0 : strcmp(s, b) == 0 ? 1 : -1;
    return *e >= 0;
}

/* An array member's items in buf, `size` bytes each. */
static void *get_array(const json_t *o, const char *k, size_t size, peer_bytes *buf,
                       size_t *count, const json_t **arr)
{
    *arr = get(o, k);
    if (!json_is_array(*arr))
        return NULL;
    *count = json_array_size(*arr);
    return peer_reserve(buf, *count * size + 1) == 0 ? buf->data : NULL;
}

static bool person_from(const json_t *o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool order_from(ja_worker *w, const json_t *o, bench_order *ord)
{
    const json_t *arr;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(ord->items.items = get_array(o, "items", sizeof(bench_line_item), &w->items,
                                       &ord->items.count, &arr)))
        return false;
    for (size_t i = 0; i < ord->items.count; i++) {
        const json_t *e = json_array_get(arr, i);
        bench_line_item *it = &ord->items.items[i];
        if (!get_str(e, "sku", &it->sku) || !get_str(e, "description", &it->description) ||
            !get_i32(e, "quantity", &it->quantity) || !get_num(e, "unitPrice", &it->unit_price))
            return false;
    }
    return true;
}

static bool media_from(ja_worker *w, const json_t *o, bench_media_content *mc)
{
    const json_t *md = get(o, "media"), *arr;
    bench_media *m = &mc->media;
    int player;
    if (!json_is_object(md) || !get_str(md, "uri", &m->uri) || !get_opt(md, "title", &m->title) ||
        !get_i32(md, "width", &m->width) || !get_i32(md, "height", &m->height) ||
        !get_str(md, "format", &m->format) || !get_i64(md, "duration", &m->duration) ||
        !get_i64(md, "size", &m->size) || !get_i32(md, "bitrate", &m->bitrate))
        return false;
    m->has_bitrate = false;
    if (w->model == PEER_MEDIA_CONTENT && !get_bool(md, "hasBitrate", &m->has_bitrate))
        return false;
    bench_str *s = get_array(md, "persons", sizeof *s, &w->persons, &m->persons.count, &arr);
    if (!(m->persons.items = s))
        return false;
    for (size_t i = 0; i < m->persons.count; i++) {
        const json_t *e = json_array_get(arr, i);
        if (!json_is_string(e))
            return false;
        s[i] = (bench_str){json_string_value(e), json_string_length(e)};
    }
    if (!get_enum(md, "player", "JAVA", "FLASH", &player) ||
        !get_opt(md, "copyright", &m->copyright))
        return false;
    m->player = (bench_player)player;
    bench_image *im = get_array(o, "images", sizeof *im, &w->images, &mc->images.count, &arr);
    if (!(mc->images.items = im))
        return false;
    for (size_t i = 0; i < mc->images.count; i++) {
        const json_t *e = json_array_get(arr, i);
        int size;
        if (!get_str(e, "uri", &im[i].uri) || !get_opt(e, "title", &im[i].title) ||
            !get_i32(e, "width", &im[i].width) || !get_i32(e, "height", &im[i].height) ||
            !get_enum(e, "size", "SMALL", "LARGE", &size))
            return false;
        im[i].size = (bench_image_size)size;
    }
    return true;
}

static bool struct_from(const json_t *o, bench_struct *s)
{
    double f5, f6, f13, f14;
    if (!get_i32(o, "f1", &s->f1) || !get_i32(o, "f2", &s->f2) || !get_i64(o, "f3", &s->f3) ||
        !get_i64(o, "f4", &s->f4) || !get_num(o, "f5", &f5) || !get_num(o, "f6", &f6) ||
        !get_num(o, "f7", &s->f7) || !get_num(o, "f8", &s->f8) || !get_i32(o, "f9", &s->f9) ||
        !get_i32(o, "f10", &s->f10) || !get_i64(o, "f11", &s->f11) ||
        !get_i64(o, "f12", &s->f12) || !get_num(o, "f13", &f13) || !get_num(o, "f14", &f14) ||
        !get_num(o, "f15", &s->f15) || !get_num(o, "f16", &s->f16))
        return false;
    s->f5 = (float)f5, s->f6 = (float)f6, s->f13 = (float)f13, s->f14 = (float)f14;
    return true;
}

static int ja_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    ja_worker *w = worker;
    json_decref(w->tree);
    w->tree = json_loadb((const char *)in, n, 0, NULL);
    *out = NULL, *len = 0;
    if (!json_is_object(w->tree))
        return -1;
    bool ok = w->model == PEER_PERSON  ? person_from(w->tree, &w->value.person)
              : w->model == PEER_ORDER ? order_from(w, w->tree, &w->value.order)
              : w->model == PEER_STRUCT
                  ? struct_from(w->tree, &w->value.numeric)
                  : media_from(w, w->tree, &w->value.media);
    return ok ? 0 : -1;
}

static int ja_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((ja_worker *)worker)->value);
}

const bench_driver bench_peer_jansson = {
    "jansson", ja_version, ja_open, free, ja_worker_new, ja_worker_free,
    ja_encode, ja_decode, ja_matches, NULL, NULL};
