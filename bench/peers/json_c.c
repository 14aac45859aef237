/* json_c.c — peer: json-c, the bench structs mapped by hand. Specs (peer.h):
 * "json" (Users, Clients and twitter too; a Clients balance is a double carrying its
 * exact text, json_object_new_double_s, and json-c keeps a parsed number's
 * text, so it is read back as written) and "dom" (a json_tokener parse and
 * the tree serialized plain).
 *
 * Encode builds a json_object tree from the C struct and serializes it
 * plain (no spaces, '/' not escaped); the text lives in the tree, which the
 * worker keeps until its next encode. Decode runs a reused json_tokener over
 * the bytes and fills the C struct; strings point into the tree, kept until
 * the next decode. Lists go to worker buffers kept across decodes. */
#include "peer.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jc_worker {
    peer_model model;
    peer_mode mode;
    json_object *encoded;     /* the last encoded tree (owns the text) */
    json_object *ref;         /* dom: the payload's tree, what encode serializes */
    codec_arena lists;        /* Users' and Clients' lists, reset per decode */
    json_tokener *tok;
    json_object *tree;        /* the last decoded document */
    peer_value value;
    peer_bytes items, persons, images;
} jc_worker;

static const char *jc_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "json-c %s", json_c_version());
    return v;
}

static void *jc_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_json_open(spec, p, "json-c",
                          PEER_CAN_USERS | PEER_CAN_CLIENTS | PEER_CAN_TWITTER | PEER_CAN_DOM,
                          NULL, why, cap);
}

static void *jc_worker_new(void *shared)
{
    jc_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const peer_json_cell *c = shared;
    w->model = c->model;
    w->mode = c->mode;
    codec_arena_init(&w->lists, NULL, 0);
    if (!(w->tok = json_tokener_new())) {
        free(w);
        return NULL;
    }
    return w;
}

static void jc_worker_free(void *worker)
{
    jc_worker *w = worker;
    json_object_put(w->encoded);
    json_object_put(w->tree);
    json_object_put(w->ref);
    codec_arena_free(&w->lists);
    json_tokener_free(w->tok);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->images);
    free(w);
}

/* ---- C struct -> tree ---------------------------------------------------- */

/* Adds v (which may be NULL after a failed allocation) under k; the object
 * takes v's reference either way. */
static bool add(json_object *o, const char *k, json_object *v)
{
    if (v && json_object_object_add(o, k, v) == 0)
        return true;
    json_object_put(v);
    return false;
}

static bool push(json_object *a, json_object *v)
{
    if (v && json_object_array_add(a, v) == 0)
        return true;
    json_object_put(v);
    return false;
}

static json_object *str(bench_str s)
{
    return json_object_new_string_len(s.ptr, (int)s.len);
}

static bool add_opt(json_object *o, const char *k, bench_opt_str s)
{
    return !s.has || add(o, k, str(s.value));
}

static json_object *person_to(const bench_person *p)
{
    json_object *o = json_object_new_object();
    if (o && add(o, "name", str(p->name)) && add(o, "age", json_object_new_int(p->age)) &&
        add(o, "active", json_object_new_boolean(p->active)) && add(o, "email", str(p->email)))
        return o;
    json_object_put(o);
    return NULL;
}

static json_object *order_to(const bench_order *ord)
{
    json_object *o = json_object_new_object(), *items;
    if (!o || !add(o, "id", str(ord->id)) || !add(o, "customer", str(ord->customer)) ||
        !add(o, "paid", json_object_new_boolean(ord->paid)) ||
        !add(o, "items", items = json_object_new_array()))
        goto fail;
    for (size_t i = 0; i < ord->items.count; i++) {
        const bench_line_item *it = &ord->items.items[i];
        json_object *e = json_object_new_object();
        if (!push(items, e) || !add(e, "sku", str(it->sku)) ||
            !add(e, "description", str(it->description)) ||
            !add(e, "quantity", json_object_new_int(it->quantity)) ||
            !add(e, "unitPrice", json_object_new_double(it->unit_price)))
            goto fail;
    }
    return o;
fail:
    json_object_put(o);
    return NULL;
}

static json_object *media_to(const bench_media_content *mc, bool has_bitrate)
{
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
    const bench_media *m = &mc->media;
    json_object *o = json_object_new_object(), *md, *persons, *images;
    if (!o || !add(o, "media", md = json_object_new_object()) || !add(md, "uri", str(m->uri)) ||
        !add_opt(md, "title", m->title) || !add(md, "width", json_object_new_int(m->width)) ||
        !add(md, "height", json_object_new_int(m->height)) || !add(md, "format", str(m->format)) ||
        !add(md, "duration", json_object_new_int64(m->duration)) ||
        !add(md, "size", json_object_new_int64(m->size)) ||
        !add(md, "bitrate", json_object_new_int(m->bitrate)) ||
        (has_bitrate && !add(md, "hasBitrate", json_object_new_boolean(m->has_bitrate))) ||
        !add(md, "persons", persons = json_object_new_array()))
        goto fail;
    for (size_t i = 0; i < m->persons.count; i++)
        if (!push(persons, str(m->persons.items[i])))
            goto fail;
    if (!add(md, "player", json_object_new_string(PLAYER[m->player])) ||
        !add_opt(md, "copyright", m->copyright) ||
        !add(o, "images", images = json_object_new_array()))
        goto fail;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        json_object *e = json_object_new_object();
        if (!push(images, e) || !add(e, "uri", str(im->uri)) || !add_opt(e, "title", im->title) ||
            !add(e, "width", json_object_new_int(im->width)) ||
            !add(e, "height", json_object_new_int(im->height)) ||
            !add(e, "size", json_object_new_string(SIZE[im->size])))
            goto fail;
    }
    return o;
fail:
    json_object_put(o);
    return NULL;
}

static json_object *struct_to(const bench_struct *s)
{
    json_object *o = json_object_new_object();
    if (o && add(o, "f1", json_object_new_int(s->f1)) && add(o, "f2", json_object_new_int(s->f2)) &&
        add(o, "f3", json_object_new_int64(s->f3)) && add(o, "f4", json_object_new_int64(s->f4)) &&
        add(o, "f5", json_object_new_double(s->f5)) &&
        add(o, "f6", json_object_new_double(s->f6)) &&
        add(o, "f7", json_object_new_double(s->f7)) &&
        add(o, "f8", json_object_new_double(s->f8)) && add(o, "f9", json_object_new_int(s->f9)) &&
        add(o, "f10", json_object_new_int(s->f10)) &&
        add(o, "f11", json_object_new_int64(s->f11)) &&
        add(o, "f12", json_object_new_int64(s->f12)) &&
        add(o, "f13", json_object_new_double(s->f13)) &&
        add(o, "f14", json_object_new_double(s->f14)) &&
        add(o, "f15", json_object_new_double(s->f15)) &&
        add(o, "f16", json_object_new_double(s->f16)))
        return o;
    json_object_put(o);
    return NULL;
}

static bool add_strs(json_object *o, const char *k, const bench_str *s, size_t n)
{
    json_object *a = json_object_new_array_ext((int)n);
    if (!add(o, k, a))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!push(a, str(s[i])))
            return false;
    return true;
}

static bool add_text(json_object *o, const char *k, const char *t, size_t n)
{
    return add(o, k, json_object_new_string_len(t, (int)n));
}

static bool user_to(json_object *o, const bench_user *u)
{
    json_object *friends;
    if (!add(o, "_id", str(u->_id)) || !add(o, "index", json_object_new_int(u->index)) ||
        !add(o, "guid", str(u->guid)) ||
        !add(o, "isActive", json_object_new_boolean(u->is_active)) ||
        !add(o, "balance", str(u->balance)) || !add(o, "picture", str(u->picture)) ||
        !add(o, "age", json_object_new_int(u->age)) || !add(o, "eyeColor", str(u->eye_color)) ||
        !add(o, "name", str(u->name)) || !add(o, "gender", str(u->gender)) ||
        !add(o, "company", str(u->company)) || !add(o, "email", str(u->email)) ||
        !add(o, "phone", str(u->phone)) || !add(o, "address", str(u->address)) ||
        !add(o, "about", str(u->about)) || !add(o, "registered", str(u->registered)) ||
        !add(o, "latitude", json_object_new_double(u->latitude)) ||
        !add(o, "longitude", json_object_new_double(u->longitude)) ||
        !add_strs(o, "tags", u->tags.items, u->tags.count) ||
        !add(o, "friends", friends = json_object_new_array_ext((int)u->friends.count)))
        return false;
    for (size_t i = 0; i < u->friends.count; i++) {
        json_object *f = json_object_new_object();
        if (!push(friends, f) || !add(f, "id", str(u->friends.items[i].id)) ||
            !add(f, "name", str(u->friends.items[i].name)))
            return false;
    }
    return add(o, "greeting", str(u->greeting)) &&
           add(o, "favoriteFruit", str(u->favorite_fruit));
}

static bool client_to(json_object *o, const bench_client *c)
{
    char t[PEER_UUID_LEN + 1];
    json_object *phones, *partners;
    if (!add(o, "_id", json_object_new_int64(c->_id)) ||
        !add(o, "index", json_object_new_int(c->index)) ||
        !add_text(o, "guid", t, peer_uuid_text(&c->guid, t)) ||
        !add(o, "isActive", json_object_new_boolean(c->is_active)) ||
        !add(o, "balance",
             json_object_new_double_s(strtod(c->balance.ptr, NULL), c->balance.ptr)) ||
        !add(o, "picture", str(c->picture)) || !add(o, "age", json_object_new_int(c->age)) ||
        !add(o, "eyeColor", json_object_new_string(peer_eye_colors[c->eye_color])) ||
        !add(o, "name", str(c->name)) || !add(o, "gender", str(c->gender)) ||
        !add(o, "company", str(c->company)) ||
        !add_strs(o, "emails", c->emails.items, c->emails.count) ||
        !add(o, "phones", phones = json_object_new_array_ext((int)c->phones.count)))
        return false;
    for (size_t i = 0; i < c->phones.count; i++)
        if (!push(phones, json_object_new_int64(c->phones.items[i])))
            return false;
    if (!add(o, "address", str(c->address)) || !add(o, "about", str(c->about)) ||
        !add_text(o, "registered", t, peer_date_text(c->registered, t)) ||
        !add(o, "latitude", json_object_new_double(c->latitude)) ||
        !add(o, "longitude", json_object_new_double(c->longitude)) ||
        !add_strs(o, "tags", c->tags.items, c->tags.count) ||
        !add(o, "partners", partners = json_object_new_array_ext((int)c->partners.count)))
        return false;
    for (size_t i = 0; i < c->partners.count; i++) {
        const bench_partner *pa = &c->partners.items[i];
        json_object *e = json_object_new_object();
        if (!push(partners, e) || !add(e, "id", json_object_new_int64(pa->id)) ||
            !add(e, "name", str(pa->name)) ||
            !add_text(e, "since", t, peer_timestamp_text(&pa->since, t)))
            return false;
    }
    return true;
}

/* {"<key>": [records]} with each record filled by `fill`. */
static json_object *records_to(const char *key, const void *items, size_t count, size_t size,
                               bool (*fill)(json_object *, const void *))
{
    json_object *o = json_object_new_object(), *a;
    if (!o || !add(o, key, a = json_object_new_array_ext((int)count)))
        goto fail;
    for (size_t i = 0; i < count; i++) {
        json_object *e = json_object_new_object();
        if (!push(a, e) || !fill(e, (const char *)items + i * size))
            goto fail;
    }
    return o;
fail:
    json_object_put(o);
    return NULL;
}

static bool user_to_v(json_object *o, const void *u) { return user_to(o, u); }
static bool client_to_v(json_object *o, const void *c) { return client_to(o, c); }

static json_object *tree_to(const jc_worker *w, const bench_payload *p)
{
    const bench_users *u = p->value;
    const bench_clients *c = p->value;
    switch (w->model) {
    case PEER_PERSON: return person_to(p->value);
    case PEER_ORDER: return order_to(p->value);
    case PEER_STRUCT: return struct_to(p->value);
    case PEER_USERS:
        return records_to("users", u->users.items, u->users.count, sizeof(bench_user), user_to_v);
    case PEER_CLIENTS:
        return records_to("clients", c->clients.items, c->clients.count, sizeof(bench_client),
                          client_to_v);
    case PEER_TWITTER: return NULL;   /* decode-only cells */
    default: return media_to(p->value, w->model == PEER_MEDIA_CONTENT);
    }
}

static int jc_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    jc_worker *w = worker;
    json_object *t;
    if (w->mode == PEER_DOM) {
        /* the payload's tree, parsed on the first (untimed) call */
        if (!w->ref && p->len <= INT32_MAX) {
            json_tokener_reset(w->tok);
            w->ref = json_tokener_parse_ex(w->tok, (const char *)p->bytes, (int)p->len);
        }
        t = w->ref;
    } else {
        json_object_put(w->encoded);
        t = w->encoded = tree_to(w, p);
    }
    if (!t)
        return -1;
    *out = (const uint8_t *)json_object_to_json_string_length(
        t, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, len);
    return *out ? 0 : -1;
}

/* ---- tree -> C struct ---------------------------------------------------- */

static json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static bool get_str(json_object *o, const char *k, bench_str *s)
{
    json_object *v = get(o, k);
    if (!json_object_is_type(v, json_type_string))
        return false;
    *s = (bench_str){json_object_get_string(v), (size_t)json_object_get_string_len(v)};
    return true;
}

static bool get_opt(json_object *o, const char *k, bench_opt_str *s)
{
    s->has = get(o, k) != NULL;
    return !s->has || get_str(o, k, &s->value);
}

static bool get_num(json_object *o, const char *k, double *d)
{
    json_object *v = get(o, k);
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return false;
    *d = json_object_get_double(v);
    return true;
}

static bool get_i64(json_object *o, const char *k, int64_t *i)
{
    json_object *v = get(o, k);
    if (!json_object_is_type(v, json_type_int))
        return false;
    *i = json_object_get_int64(v);
    return true;
}

static bool get_i32(json_object *o, const char *k, int32_t *i)
{
    int64_t x;
    if (!get_i64(o, k, &x) || x < INT32_MIN || x > INT32_MAX)
        return false;
    *i = (int32_t)x;
    return true;
}

static bool get_bool(json_object *o, const char *k, bool *b)
{
    json_object *v = get(o, k);
    if (!json_object_is_type(v, json_type_boolean))
        return false;
    *b = json_object_get_boolean(v);
    return true;
}

static bool get_enum(json_object *o, const char *k, const char *a, const char *b, int *e)
{
    json_object *v = get(o, k);
    if (!json_object_is_type(v, json_type_string))
        return false;
    const char *s = json_object_get_string(v);
    *e = strcmp(s, a) == 0 ? 0 : strcmp(s, b) == 0 ? 1 : -1;
    return *e >= 0;
}

/* An array member's items in buf, `size` bytes each. */
static void *get_array(json_object *o, const char *k, size_t size, peer_bytes *buf,
                       size_t *count, json_object **arr)
{
    *arr = get(o, k);
    if (!json_object_is_type(*arr, json_type_array))
        return NULL;
    *count = json_object_array_length(*arr);
    return peer_reserve(buf, *count * size + 1) == 0 ? buf->data : NULL;
}

static bool person_from(json_object *o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool order_from(jc_worker *w, json_object *o, bench_order *ord)
{
    json_object *arr;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(ord->items.items = get_array(o, "items", sizeof(bench_line_item), &w->items,
                                       &ord->items.count, &arr)))
        return false;
    for (size_t i = 0; i < ord->items.count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        bench_line_item *it = &ord->items.items[i];
        if (!get_str(e, "sku", &it->sku) || !get_str(e, "description", &it->description) ||
            !get_i32(e, "quantity", &it->quantity) || !get_num(e, "unitPrice", &it->unit_price))
            return false;
    }
    return true;
}

static bool media_from(jc_worker *w, json_object *o, bench_media_content *mc)
{
    json_object *md = get(o, "media"), *arr;
    bench_media *m = &mc->media;
    int player;
    if (!json_object_is_type(md, json_type_object) || !get_str(md, "uri", &m->uri) ||
        !get_opt(md, "title", &m->title) || !get_i32(md, "width", &m->width) ||
        !get_i32(md, "height", &m->height) || !get_str(md, "format", &m->format) ||
        !get_i64(md, "duration", &m->duration) || !get_i64(md, "size", &m->size) ||
        !get_i32(md, "bitrate", &m->bitrate))
        return false;
    m->has_bitrate = false;
    if (w->model == PEER_MEDIA_CONTENT && !get_bool(md, "hasBitrate", &m->has_bitrate))
        return false;
    bench_str *s = get_array(md, "persons", sizeof *s, &w->persons, &m->persons.count, &arr);
    if (!(m->persons.items = s))
        return false;
    for (size_t i = 0; i < m->persons.count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(e, json_type_string))
            return false;
        s[i] = (bench_str){json_object_get_string(e), (size_t)json_object_get_string_len(e)};
    }
    if (!get_enum(md, "player", "JAVA", "FLASH", &player) ||
        !get_opt(md, "copyright", &m->copyright))
        return false;
    m->player = (bench_player)player;
    bench_image *im = get_array(o, "images", sizeof *im, &w->images, &mc->images.count, &arr);
    if (!(mc->images.items = im))
        return false;
    for (size_t i = 0; i < mc->images.count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        int size;
        if (!get_str(e, "uri", &im[i].uri) || !get_opt(e, "title", &im[i].title) ||
            !get_i32(e, "width", &im[i].width) || !get_i32(e, "height", &im[i].height) ||
            !get_enum(e, "size", "SMALL", "LARGE", &size))
            return false;
        im[i].size = (bench_image_size)size;
    }
    return true;
}

static bool struct_from(json_object *o, bench_struct *s)
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

static bool get_text(json_object *o, const char *k, peer_text_form form, void *out)
{
    json_object *v = get(o, k);
    return json_object_is_type(v, json_type_string) &&
           peer_text_parse(form, json_object_get_string(v),
                           (size_t)json_object_get_string_len(v), out);
}

/* An array member's items in the list arena, `size` bytes each. */
static void *list_of(jc_worker *w, json_object *o, const char *k, size_t size, size_t *count,
                     json_object **arr)
{
    *arr = get(o, k);
    if (!json_object_is_type(*arr, json_type_array))
        return NULL;
    *count = json_object_array_length(*arr);
    return codec_arena_alloc(&w->lists, *count * size + 1, 0);
}

static bool strs_from(jc_worker *w, json_object *o, const char *k, bench_str **items,
                      size_t *count)
{
    json_object *arr;
    bench_str *s = list_of(w, o, k, sizeof *s, count, &arr);
    if (!(*items = s))
        return false;
    for (size_t i = 0; i < *count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(e, json_type_string))
            return false;
        s[i] = (bench_str){json_object_get_string(e), (size_t)json_object_get_string_len(e)};
    }
    return true;
}

static bool user_from(jc_worker *w, json_object *o, bench_user *u)
{
    json_object *arr;
    if (!get_str(o, "_id", &u->_id) || !get_i32(o, "index", &u->index) ||
        !get_str(o, "guid", &u->guid) || !get_bool(o, "isActive", &u->is_active) ||
        !get_str(o, "balance", &u->balance) || !get_str(o, "picture", &u->picture) ||
        !get_i32(o, "age", &u->age) || !get_str(o, "eyeColor", &u->eye_color) ||
        !get_str(o, "name", &u->name) || !get_str(o, "gender", &u->gender) ||
        !get_str(o, "company", &u->company) || !get_str(o, "email", &u->email) ||
        !get_str(o, "phone", &u->phone) || !get_str(o, "address", &u->address) ||
        !get_str(o, "about", &u->about) || !get_str(o, "registered", &u->registered) ||
        !get_num(o, "latitude", &u->latitude) || !get_num(o, "longitude", &u->longitude) ||
        !strs_from(w, o, "tags", &u->tags.items, &u->tags.count) ||
        !get_str(o, "greeting", &u->greeting) ||
        !get_str(o, "favoriteFruit", &u->favorite_fruit))
        return false;
    bench_friend *f = list_of(w, o, "friends", sizeof *f, &u->friends.count, &arr);
    if (!(u->friends.items = f))
        return false;
    for (size_t i = 0; i < u->friends.count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        if (!get_str(e, "id", &f[i].id) || !get_str(e, "name", &f[i].name))
            return false;
    }
    return true;
}

/* json-c keeps a parsed number's text: the decimal's exact form. */
static bool get_decimal(json_object *o, const char *k, bench_str *s)
{
    json_object *v = get(o, k);
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return false;
    const char *t = json_object_get_string(v);
    *s = (bench_str){t, strlen(t)};
    return true;
}

static bool client_from(jc_worker *w, json_object *o, bench_client *c)
{
    json_object *arr, *v = get(o, "eyeColor");
    int eye = json_object_is_type(v, json_type_string)
                  ? peer_enum_index(peer_eye_colors, 3, json_object_get_string(v),
                                    (size_t)json_object_get_string_len(v))
                  : -1;
    if (eye < 0 || !get_i64(o, "_id", &c->_id) || !get_i32(o, "index", &c->index) ||
        !get_text(o, "guid", PEER_UUID, &c->guid) ||
        !get_bool(o, "isActive", &c->is_active) || !get_decimal(o, "balance", &c->balance) ||
        !get_str(o, "picture", &c->picture) || !get_i32(o, "age", &c->age) ||
        !get_str(o, "name", &c->name) || !get_str(o, "gender", &c->gender) ||
        !get_str(o, "company", &c->company) ||
        !strs_from(w, o, "emails", &c->emails.items, &c->emails.count) ||
        !get_str(o, "address", &c->address) || !get_str(o, "about", &c->about) ||
        !get_text(o, "registered", PEER_DATE, &c->registered) ||
        !get_num(o, "latitude", &c->latitude) || !get_num(o, "longitude", &c->longitude) ||
        !strs_from(w, o, "tags", &c->tags.items, &c->tags.count))
        return false;
    c->eye_color = (bench_eye_color)eye;
    int64_t *ph = list_of(w, o, "phones", sizeof *ph, &c->phones.count, &arr);
    if (!(c->phones.items = ph))
        return false;
    for (size_t i = 0; i < c->phones.count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(e, json_type_int))
            return false;
        ph[i] = json_object_get_int64(e);
    }
    bench_partner *pa = list_of(w, o, "partners", sizeof *pa, &c->partners.count, &arr);
    if (!(c->partners.items = pa))
        return false;
    for (size_t i = 0; i < c->partners.count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        if (!get_i64(e, "id", &pa[i].id) || !get_str(e, "name", &pa[i].name) ||
            !get_text(e, "since", PEER_TIMESTAMP, &pa[i].since))
            return false;
    }
    return true;
}

/* The records of {"<key>": [...]} into a list of `size`-byte items. */
static bool records_from(jc_worker *w, json_object *o, const char *key, size_t size,
                         void **items, size_t *count,
                         bool (*fill)(jc_worker *, json_object *, void *))
{
    json_object *arr;
    char *r = list_of(w, o, key, size, count, &arr);
    if (!(*items = r))
        return false;
    for (size_t i = 0; i < *count; i++)
        if (!fill(w, json_object_array_get_idx(arr, i), r + i * size))
            return false;
    return true;
}

static bool user_from_v(jc_worker *w, json_object *o, void *u) { return user_from(w, o, u); }
static bool client_from_v(jc_worker *w, json_object *o, void *c) { return client_from(w, o, c); }

/* ---- twitter.json into bench_twitter ---- */

static bool is_object(json_object *o)
{
    return json_object_is_type(o, json_type_object);
}

/* An optional member: absent or null (a NULL member) leaves it unset. */
static bool get_opt_null(json_object *o, const char *k, bool *has)
{
    *has = get(o, k) != NULL;
    return true;
}

static bool get_opt_str(json_object *o, const char *k, bench_opt_str *s)
{
    return get_opt_null(o, k, &s->has) && (!s->has || get_str(o, k, &s->value));
}

static bool get_opt_i64(json_object *o, const char *k, bench_opt_i64 *i)
{
    return get_opt_null(o, k, &i->has) && (!i->has || get_i64(o, k, &i->value));
}

static bool get_opt_i32(json_object *o, const char *k, bench_opt_i32 *i)
{
    return get_opt_null(o, k, &i->has) && (!i->has || get_i32(o, k, &i->value));
}

static bool indices_from(jc_worker *w, json_object *o, bench_indices *l)
{
    json_object *arr;
    int32_t *x = list_of(w, o, "indices", sizeof *x, &l->count, &arr);
    if (!(l->items = x))
        return false;
    for (size_t i = 0; i < l->count; i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        int64_t v = json_object_get_int64(e);
        if (!json_object_is_type(e, json_type_int) || v < INT32_MIN || v > INT32_MAX)
            return false;
        x[i] = (int32_t)v;
    }
    return true;
}

static bool hashtag_from(jc_worker *w, json_object *o, void *v)
{
    bench_tw_hashtag *h = v;
    return get_str(o, "text", &h->text) && indices_from(w, o, &h->indices);
}

static bool url_from(jc_worker *w, json_object *o, void *v)
{
    bench_tw_url *u = v;
    return get_str(o, "url", &u->url) && get_str(o, "expanded_url", &u->expanded_url) &&
           get_str(o, "display_url", &u->display_url) && indices_from(w, o, &u->indices);
}

static bool mention_from(jc_worker *w, json_object *o, void *v)
{
    bench_tw_mention *m = v;
    return get_str(o, "screen_name", &m->screen_name) && get_str(o, "name", &m->name) &&
           get_i64(o, "id", &m->id) && get_str(o, "id_str", &m->id_str) &&
           indices_from(w, o, &m->indices);
}

static bool tw_user_from(json_object *o, bench_tw_user *u)
{
    return is_object(o) && get_i64(o, "id", &u->id) && get_str(o, "id_str", &u->id_str) &&
           get_str(o, "name", &u->name) && get_str(o, "screen_name", &u->screen_name) &&
           get_str(o, "location", &u->location) && get_str(o, "description", &u->description) &&
           get_opt_str(o, "url", &u->url) && get_bool(o, "protected", &u->protected_) &&
           get_i32(o, "followers_count", &u->followers_count) &&
           get_i32(o, "friends_count", &u->friends_count) &&
           get_i32(o, "listed_count", &u->listed_count) &&
           get_str(o, "created_at", &u->created_at) &&
           get_i32(o, "favourites_count", &u->favourites_count) &&
           get_opt_i32(o, "utc_offset", &u->utc_offset) &&
           get_opt_str(o, "time_zone", &u->time_zone) &&
           get_bool(o, "geo_enabled", &u->geo_enabled) && get_bool(o, "verified", &u->verified) &&
           get_i32(o, "statuses_count", &u->statuses_count) && get_str(o, "lang", &u->lang) &&
           get_str(o, "profile_image_url", &u->profile_image_url) &&
           get_str(o, "profile_image_url_https", &u->profile_image_url_https) &&
           get_bool(o, "default_profile", &u->default_profile) &&
           get_bool(o, "following", &u->following);
}

static bool status_from(jc_worker *w, json_object *o, void *v)
{
    bench_tw_status *s = v;
    json_object *md = get(o, "metadata"), *en = get(o, "entities");
    bench_tw_entities *e = &s->entities;
    return is_object(md) && get_str(md, "result_type", &s->metadata.result_type) &&
           get_str(md, "iso_language_code", &s->metadata.iso_language_code) &&
           get_str(o, "created_at", &s->created_at) && get_i64(o, "id", &s->id) &&
           get_str(o, "id_str", &s->id_str) && get_str(o, "text", &s->text) &&
           get_str(o, "source", &s->source) && get_bool(o, "truncated", &s->truncated) &&
           get_opt_i64(o, "in_reply_to_status_id", &s->in_reply_to_status_id) &&
           get_opt_str(o, "in_reply_to_status_id_str", &s->in_reply_to_status_id_str) &&
           get_opt_i64(o, "in_reply_to_user_id", &s->in_reply_to_user_id) &&
           get_opt_str(o, "in_reply_to_user_id_str", &s->in_reply_to_user_id_str) &&
           get_opt_str(o, "in_reply_to_screen_name", &s->in_reply_to_screen_name) &&
           tw_user_from(get(o, "user"), &s->user) &&
           get_i32(o, "retweet_count", &s->retweet_count) &&
           get_i32(o, "favorite_count", &s->favorite_count) && is_object(en) &&
           records_from(w, en, "hashtags", sizeof(bench_tw_hashtag),
                        (void **)&e->hashtags.items, &e->hashtags.count, hashtag_from) &&
           records_from(w, en, "urls", sizeof(bench_tw_url), (void **)&e->urls.items,
                        &e->urls.count, url_from) &&
           records_from(w, en, "user_mentions", sizeof(bench_tw_mention),
                        (void **)&e->user_mentions.items, &e->user_mentions.count,
                        mention_from) &&
           get_bool(o, "favorited", &s->favorited) && get_bool(o, "retweeted", &s->retweeted) &&
           get_str(o, "lang", &s->lang);
}

static bool twitter_from(jc_worker *w, json_object *o, bench_twitter *t)
{
    json_object *sm = get(o, "search_metadata");
    bench_tw_search_metadata *m = &t->search_metadata;
    return records_from(w, o, "statuses", sizeof(bench_tw_status), (void **)&t->statuses.items,
                        &t->statuses.count, status_from) &&
           is_object(sm) && get_num(sm, "completed_in", &m->completed_in) &&
           get_i64(sm, "max_id", &m->max_id) && get_str(sm, "max_id_str", &m->max_id_str) &&
           get_str(sm, "next_results", &m->next_results) && get_str(sm, "query", &m->query) &&
           get_str(sm, "refresh_url", &m->refresh_url) && get_i32(sm, "count", &m->count) &&
           get_i64(sm, "since_id", &m->since_id) && get_str(sm, "since_id_str", &m->since_id_str);
}

static bool value_from(jc_worker *w, json_object *o)
{
    peer_value *v = &w->value;
    switch (w->model) {
    case PEER_PERSON: return person_from(o, &v->person);
    case PEER_ORDER: return order_from(w, o, &v->order);
    case PEER_STRUCT: return struct_from(o, &v->numeric);
    case PEER_USERS:
        return records_from(w, o, "users", sizeof(bench_user), (void **)&v->users.users.items,
                            &v->users.users.count, user_from_v);
    case PEER_CLIENTS:
        return records_from(w, o, "clients", sizeof(bench_client),
                            (void **)&v->clients.clients.items, &v->clients.clients.count,
                            client_from_v);
    case PEER_TWITTER: return twitter_from(w, o, &v->twitter);
    default: return media_from(w, o, &v->media);
    }
}

static int jc_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    jc_worker *w = worker;
    json_object_put(w->tree);
    *out = NULL, *len = 0;
    if (n > INT32_MAX)
        return -1;
    json_tokener_reset(w->tok);
    w->tree = json_tokener_parse_ex(w->tok, (const char *)in, (int)n);
    /* The whole input must be one complete document. */
    if (json_tokener_get_error(w->tok) != json_tokener_success ||
        json_tokener_get_parse_end(w->tok) != n)
        return -1;
    if (w->mode == PEER_DOM)
        return 0;
    if (!json_object_is_type(w->tree, json_type_object))
        return -1;
    codec_arena_reset(&w->lists);
    return value_from(w, w->tree) ? 0 : -1;
}

static int jc_matches(void *worker, const bench_payload *p)
{
    jc_worker *w = worker;
    if (w->mode == PEER_DOM)
        return json_object_equal(w->tree, w->ref);
    return peer_value_matches(p, &w->value);
}

const bench_driver bench_peer_json_c = {
    "json-c", jc_version, jc_open, free, jc_worker_new, jc_worker_free,
    jc_encode, jc_decode, jc_matches, NULL, NULL};
