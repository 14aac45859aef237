/* dom_map.h — the bench structs mapped by hand to a library's tree and
 * back, written once for the tree peers (cjson.c, json_c.c, jansson.c; yajl.c,
 * libcbor.c and msgpack_c.c use the decode half: they encode through their
 * own writers). Not an ordinary
 * header: an adapter includes it once, after defining its library's calls
 * as the static inline functions below. The mapping is the same for all, so
 * what differs between their cells is the library: the same members built
 * and read in the same order, through each library's own calls.
 *
 * The adapter defines before the #include:
 *   dm_node               its tree node type (cJSON, json_object, ...)
 *   DM_ENCODE 0|1         whether encode builds a tree (the *_to functions)
 *   DM_USERS 0|1          whether it maps Users (and the lists Clients and
 *                         twitter use too)
 *   DM_CLIENTS 0|1        whether it maps Clients (63-bit ids, decimals, texts)
 *   DM_TWITTER 0|1        whether it maps twitter.json (decode only)
 * decode (member lookup, type checks, getters of a value of that type):
 *   dm_node *dm_get(dm_node *o, const char *k)   NULL when absent
 *   bool dm_is_object / dm_is_array / dm_is_string / dm_is_number /
 *        dm_is_bool (dm_node *v)                  false for NULL
 *   bool dm_is_null(dm_node *v)                   DM_TWITTER
 *   bench_str dm_str(v); double dm_double(v)     (any number)
 *   bool dm_bool(v)
 *   bool dm_int(dm_node *v, int64_t *i)           false unless an int64
 *   size_t dm_len(dm_node *array); dm_iter dm_items(dm_node *array);
 *   dm_node *dm_next(dm_iter *it)                 the items in order
 *   bool dm_decimal(codec_arena *a, dm_node *v, bench_str *s)   DM_CLIENTS:
 *                         a balance's two-digit text (copies go to a)
 * encode (DM_ENCODE; each returns false / NULL on failure, and a member or
 * item that failed is not left allocated):
 *   dm_node *dm_object(void); void dm_free(dm_node *tree)
 *   bool dm_add_str(o, k, bench_str); dm_add_cstr(o, k, const char *);
 *        dm_add_i32(o, k, int32_t); dm_add_i64(o, k, int64_t);
 *        dm_add_real(o, k, double); dm_add_bool(o, k, bool)
 *   bool dm_add_exact(o, k, double)      a double that must read back exact
 *   dm_node *dm_add_object(o, k); dm_add_array(o, k);
 *        dm_add_array_n(o, k, size_t n)  an array that will hold n items
 *   dm_node *dm_push_object(a); bool dm_push_str(a, bench_str)
 *   DM_CLIENTS: bool dm_add_text(o, k, const char *, size_t),
 *        dm_add_decimal(o, k, bench_str), dm_push_i64(a, int64_t)
 *
 * It defines dom_map (the worker's mapping state: embed one), dom_map_init,
 * dom_map_free, dom_map_fill (decode: the document into m->value) and, with
 * DM_ENCODE, dom_map_tree (encode: a new tree of the payload's value). */
#ifndef BENCH_DOM_MAP_H
#define BENCH_DOM_MAP_H
#else
#error "dom_map.h is a template: include it once, in one adapter"
#endif

#include "peer.h"

#include <stdlib.h>
#include <string.h>

typedef struct dom_map {
    peer_model model;
    peer_mode mode;
    codec_arena arena;        /* Users', Clients' and twitter's lists, reset per decode */
    peer_value value;         /* the last decoded value */
    peer_bytes items, persons, images;   /* Order's and Media's lists */
} dom_map;

#if (DM_CLIENTS || DM_TWITTER) && !DM_USERS
#error "dom_map.h: DM_CLIENTS and DM_TWITTER need DM_USERS"
#endif

/* `shared` is the cell's peer_json_cell. */
static void dom_map_init(dom_map *m, const void *shared)
{
    const peer_json_cell *c = shared;
    m->model = c->model;
    m->mode = c->mode;
    codec_arena_init(&m->arena, NULL, 0);
}

static void dom_map_free(dom_map *m)
{
    codec_arena_free(&m->arena);
    peer_bytes_free(&m->items);
    peer_bytes_free(&m->persons);
    peer_bytes_free(&m->images);
}

static const char *const DM_PLAYER[] = {"JAVA", "FLASH"};
static const char *const DM_SIZE[] = {"SMALL", "LARGE"};

#if DM_ENCODE
/* ---- C struct -> tree ---------------------------------------------------- */

static bool add_opt(dm_node *o, const char *k, bench_opt_str s)
{
    return !s.has || dm_add_str(o, k, s.value);
}

static dm_node *person_to(const bench_person *p)
{
    dm_node *o = dm_object();
    if (o && dm_add_str(o, "name", p->name) && dm_add_i32(o, "age", p->age) &&
        dm_add_bool(o, "active", p->active) && dm_add_str(o, "email", p->email))
        return o;
    dm_free(o);
    return NULL;
}

static dm_node *order_to(const bench_order *ord)
{
    dm_node *o = dm_object(), *items;
    if (!o || !dm_add_str(o, "id", ord->id) || !dm_add_str(o, "customer", ord->customer) ||
        !dm_add_bool(o, "paid", ord->paid) || !(items = dm_add_array(o, "items")))
        goto fail;
    for (size_t i = 0; i < ord->items.count; i++) {
        const bench_line_item *it = &ord->items.items[i];
        dm_node *e = dm_push_object(items);
        if (!e || !dm_add_str(e, "sku", it->sku) ||
            !dm_add_str(e, "description", it->description) ||
            !dm_add_i32(e, "quantity", it->quantity) ||
            !dm_add_real(e, "unitPrice", it->unit_price))
            goto fail;
    }
    return o;
fail:
    dm_free(o);
    return NULL;
}

static dm_node *media_to(const bench_media_content *mc, bool has_bitrate)
{
    const bench_media *m = &mc->media;
    dm_node *o = dm_object(), *md, *persons, *images;
    if (!o || !(md = dm_add_object(o, "media")) || !dm_add_str(md, "uri", m->uri) ||
        !add_opt(md, "title", m->title) || !dm_add_i32(md, "width", m->width) ||
        !dm_add_i32(md, "height", m->height) || !dm_add_str(md, "format", m->format) ||
        !dm_add_i64(md, "duration", m->duration) || !dm_add_i64(md, "size", m->size) ||
        !dm_add_i32(md, "bitrate", m->bitrate) ||
        (has_bitrate && !dm_add_bool(md, "hasBitrate", m->has_bitrate)) ||
        !(persons = dm_add_array(md, "persons")))
        goto fail;
    for (size_t i = 0; i < m->persons.count; i++)
        if (!dm_push_str(persons, m->persons.items[i]))
            goto fail;
    if (!dm_add_cstr(md, "player", DM_PLAYER[m->player]) ||
        !add_opt(md, "copyright", m->copyright) || !(images = dm_add_array(o, "images")))
        goto fail;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        dm_node *e = dm_push_object(images);
        if (!e || !dm_add_str(e, "uri", im->uri) || !add_opt(e, "title", im->title) ||
            !dm_add_i32(e, "width", im->width) || !dm_add_i32(e, "height", im->height) ||
            !dm_add_cstr(e, "size", DM_SIZE[im->size]))
            goto fail;
    }
    return o;
fail:
    dm_free(o);
    return NULL;
}

static dm_node *struct_to(const bench_struct *s)
{
    dm_node *o = dm_object();
    if (o && dm_add_i32(o, "f1", s->f1) && dm_add_i32(o, "f2", s->f2) &&
        dm_add_i64(o, "f3", s->f3) && dm_add_i64(o, "f4", s->f4) &&
        dm_add_real(o, "f5", s->f5) && dm_add_real(o, "f6", s->f6) &&
        dm_add_real(o, "f7", s->f7) && dm_add_real(o, "f8", s->f8) &&
        dm_add_i32(o, "f9", s->f9) && dm_add_i32(o, "f10", s->f10) &&
        dm_add_i64(o, "f11", s->f11) && dm_add_i64(o, "f12", s->f12) &&
        dm_add_real(o, "f13", s->f13) && dm_add_real(o, "f14", s->f14) &&
        dm_add_real(o, "f15", s->f15) && dm_add_real(o, "f16", s->f16))
        return o;
    dm_free(o);
    return NULL;
}

static bool add_strs(dm_node *o, const char *k, const bench_str *s, size_t n)
{
    dm_node *a = dm_add_array_n(o, k, n);
    for (size_t i = 0; a && i < n; i++)
        if (!dm_push_str(a, s[i]))
            return false;
    return a != NULL;
}

static bool user_to(dm_node *o, const void *v)
{
    const bench_user *u = v;
    dm_node *friends;
    if (!dm_add_str(o, "_id", u->_id) || !dm_add_i32(o, "index", u->index) ||
        !dm_add_str(o, "guid", u->guid) || !dm_add_bool(o, "isActive", u->is_active) ||
        !dm_add_str(o, "balance", u->balance) || !dm_add_str(o, "picture", u->picture) ||
        !dm_add_i32(o, "age", u->age) || !dm_add_str(o, "eyeColor", u->eye_color) ||
        !dm_add_str(o, "name", u->name) || !dm_add_str(o, "gender", u->gender) ||
        !dm_add_str(o, "company", u->company) || !dm_add_str(o, "email", u->email) ||
        !dm_add_str(o, "phone", u->phone) || !dm_add_str(o, "address", u->address) ||
        !dm_add_str(o, "about", u->about) || !dm_add_str(o, "registered", u->registered) ||
        !dm_add_exact(o, "latitude", u->latitude) ||
        !dm_add_exact(o, "longitude", u->longitude) ||
        !add_strs(o, "tags", u->tags.items, u->tags.count) ||
        !(friends = dm_add_array_n(o, "friends", u->friends.count)))
        return false;
    for (size_t i = 0; i < u->friends.count; i++) {
        dm_node *f = dm_push_object(friends);
        if (!f || !dm_add_str(f, "id", u->friends.items[i].id) ||
            !dm_add_str(f, "name", u->friends.items[i].name))
            return false;
    }
    return dm_add_str(o, "greeting", u->greeting) &&
           dm_add_str(o, "favoriteFruit", u->favorite_fruit);
}

#if DM_CLIENTS
static bool client_to(dm_node *o, const void *v)
{
    const bench_client *c = v;
    char t[PEER_UUID_LEN + 1];
    dm_node *phones, *partners;
    if (!dm_add_i64(o, "_id", c->_id) || !dm_add_i32(o, "index", c->index) ||
        !dm_add_text(o, "guid", t, peer_uuid_text(&c->guid, t)) ||
        !dm_add_bool(o, "isActive", c->is_active) ||
        !dm_add_decimal(o, "balance", c->balance) || !dm_add_str(o, "picture", c->picture) ||
        !dm_add_i32(o, "age", c->age) ||
        !dm_add_cstr(o, "eyeColor", peer_eye_colors[c->eye_color]) ||
        !dm_add_str(o, "name", c->name) || !dm_add_str(o, "gender", c->gender) ||
        !dm_add_str(o, "company", c->company) ||
        !add_strs(o, "emails", c->emails.items, c->emails.count) ||
        !(phones = dm_add_array_n(o, "phones", c->phones.count)))
        return false;
    for (size_t i = 0; i < c->phones.count; i++)
        if (!dm_push_i64(phones, c->phones.items[i]))
            return false;
    if (!dm_add_str(o, "address", c->address) || !dm_add_str(o, "about", c->about) ||
        !dm_add_text(o, "registered", t, peer_date_text(c->registered, t)) ||
        !dm_add_real(o, "latitude", c->latitude) || !dm_add_real(o, "longitude", c->longitude) ||
        !add_strs(o, "tags", c->tags.items, c->tags.count) ||
        !(partners = dm_add_array_n(o, "partners", c->partners.count)))
        return false;
    for (size_t i = 0; i < c->partners.count; i++) {
        const bench_partner *pa = &c->partners.items[i];
        dm_node *e = dm_push_object(partners);
        if (!e || !dm_add_i64(e, "id", pa->id) || !dm_add_str(e, "name", pa->name) ||
            !dm_add_text(e, "since", t, peer_timestamp_text(&pa->since, t)))
            return false;
    }
    return true;
}
#endif

/* {"<key>": [records]} with each record filled by `fill`. */
static dm_node *records_to(const char *key, const void *items, size_t count, size_t size,
                           bool (*fill)(dm_node *, const void *))
{
    dm_node *o = dm_object(), *a;
    if (!o || !(a = dm_add_array_n(o, key, count)))
        goto fail;
    for (size_t i = 0; i < count; i++) {
        dm_node *e = dm_push_object(a);
        if (!e || !fill(e, (const char *)items + i * size))
            goto fail;
    }
    return o;
fail:
    dm_free(o);
    return NULL;
}

/* A new tree of the payload's value (the caller frees it); NULL for the
 * decode-only and the model-less cells. */
static dm_node *dom_map_tree(const dom_map *m, const bench_payload *p)
{
    const bench_users *u = p->value;
    switch (m->model) {
    case PEER_PERSON: return person_to(p->value);
    case PEER_ORDER: return order_to(p->value);
    case PEER_STRUCT: return struct_to(p->value);
    case PEER_MEDIA_ITEM:
    case PEER_MEDIA_CONTENT: return media_to(p->value, m->model == PEER_MEDIA_CONTENT);
    case PEER_USERS:
        return records_to("users", u->users.items, u->users.count, sizeof(bench_user), user_to);
#if DM_CLIENTS
    case PEER_CLIENTS: {
        const bench_clients *c = p->value;
        return records_to("clients", c->clients.items, c->clients.count, sizeof(bench_client),
                          client_to);
    }
#endif
    default: return NULL;
    }
}
#endif /* DM_ENCODE */

/* ---- tree -> C struct ---------------------------------------------------- */

static bool get_str(dm_node *o, const char *k, bench_str *s)
{
    dm_node *v = dm_get(o, k);
    if (!dm_is_string(v))
        return false;
    *s = dm_str(v);
    return true;
}

static bool get_opt(dm_node *o, const char *k, bench_opt_str *s)
{
    s->has = dm_get(o, k) != NULL;
    return !s->has || get_str(o, k, &s->value);
}

static bool get_num(dm_node *o, const char *k, double *d)
{
    dm_node *v = dm_get(o, k);
    if (!dm_is_number(v))
        return false;
    *d = dm_double(v);
    return true;
}

static bool get_i64(dm_node *o, const char *k, int64_t *i)
{
    return dm_int(dm_get(o, k), i);
}

static bool get_i32(dm_node *o, const char *k, int32_t *i)
{
    int64_t x;
    if (!get_i64(o, k, &x) || x < INT32_MIN || x > INT32_MAX)
        return false;
    *i = (int32_t)x;
    return true;
}

static bool get_bool(dm_node *o, const char *k, bool *b)
{
    dm_node *v = dm_get(o, k);
    if (!dm_is_bool(v))
        return false;
    *b = dm_bool(v);
    return true;
}

/* A two-name enum member: 0 for a, 1 for b. */
static bool get_enum(dm_node *o, const char *k, const char *const names[2], int *e)
{
    bench_str s;
    return get_str(o, k, &s) && (*e = peer_enum_index(names, 2, s.ptr, s.len)) >= 0;
}

/* An array member's items in buf, `size` bytes each. */
static void *get_array(dm_node *o, const char *k, size_t size, peer_bytes *buf, size_t *count,
                       dm_node **arr)
{
    *arr = dm_get(o, k);
    if (!dm_is_array(*arr))
        return NULL;
    *count = dm_len(*arr);
    return peer_reserve(buf, *count * size + 1) == 0 ? buf->data : NULL;
}

static bool person_from(dm_node *o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool order_from(dom_map *m, dm_node *o, bench_order *ord)
{
    dm_node *arr;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(ord->items.items = get_array(o, "items", sizeof(bench_line_item), &m->items,
                                       &ord->items.count, &arr)))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < ord->items.count; i++) {
        dm_node *e = dm_next(&it);
        bench_line_item *li = &ord->items.items[i];
        if (!get_str(e, "sku", &li->sku) || !get_str(e, "description", &li->description) ||
            !get_i32(e, "quantity", &li->quantity) || !get_num(e, "unitPrice", &li->unit_price))
            return false;
    }
    return true;
}

static bool media_from(dom_map *m, dm_node *o, bench_media_content *mc)
{
    dm_node *md = dm_get(o, "media"), *arr;
    bench_media *me = &mc->media;
    int player;
    if (!dm_is_object(md) || !get_str(md, "uri", &me->uri) ||
        !get_opt(md, "title", &me->title) || !get_i32(md, "width", &me->width) ||
        !get_i32(md, "height", &me->height) || !get_str(md, "format", &me->format) ||
        !get_i64(md, "duration", &me->duration) || !get_i64(md, "size", &me->size) ||
        !get_i32(md, "bitrate", &me->bitrate))
        return false;
    me->has_bitrate = false;
    if (m->model == PEER_MEDIA_CONTENT && !get_bool(md, "hasBitrate", &me->has_bitrate))
        return false;
    bench_str *s = get_array(md, "persons", sizeof *s, &m->persons, &me->persons.count, &arr);
    if (!(me->persons.items = s))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < me->persons.count; i++) {
        dm_node *e = dm_next(&it);
        if (!dm_is_string(e))
            return false;
        s[i] = dm_str(e);
    }
    if (!get_enum(md, "player", DM_PLAYER, &player) || !get_opt(md, "copyright", &me->copyright))
        return false;
    me->player = (bench_player)player;
    bench_image *im = get_array(o, "images", sizeof *im, &m->images, &mc->images.count, &arr);
    if (!(mc->images.items = im))
        return false;
    it = dm_items(arr);
    for (size_t i = 0; i < mc->images.count; i++) {
        dm_node *e = dm_next(&it);
        int size;
        if (!get_str(e, "uri", &im[i].uri) || !get_opt(e, "title", &im[i].title) ||
            !get_i32(e, "width", &im[i].width) || !get_i32(e, "height", &im[i].height) ||
            !get_enum(e, "size", DM_SIZE, &size))
            return false;
        im[i].size = (bench_image_size)size;
    }
    return true;
}

static bool struct_from(dm_node *o, bench_struct *s)
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

#if DM_USERS
/* An array member's items in the arena, `size` bytes each. */
static void *list_of(dom_map *m, dm_node *o, const char *k, size_t size, size_t *count,
                     dm_node **arr)
{
    *arr = dm_get(o, k);
    if (!dm_is_array(*arr))
        return NULL;
    *count = dm_len(*arr);
    return codec_arena_alloc(&m->arena, *count * size + 1, 0);
}

static bool strs_from(dom_map *m, dm_node *o, const char *k, bench_str **items, size_t *count)
{
    dm_node *arr;
    bench_str *s = list_of(m, o, k, sizeof *s, count, &arr);
    if (!(*items = s))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < *count; i++) {
        dm_node *e = dm_next(&it);
        if (!dm_is_string(e))
            return false;
        s[i] = dm_str(e);
    }
    return true;
}

/* The records of {"<key>": [...]} into a list of `size`-byte items. */
static bool records_from(dom_map *m, dm_node *o, const char *key, size_t size, void **items,
                         size_t *count, bool (*fill)(dom_map *, dm_node *, void *))
{
    dm_node *arr;
    char *r = list_of(m, o, key, size, count, &arr);
    if (!(*items = r))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < *count; i++)
        if (!fill(m, dm_next(&it), r + i * size))
            return false;
    return true;
}

static bool user_from(dom_map *m, dm_node *o, void *v)
{
    bench_user *u = v;
    dm_node *arr;
    if (!get_str(o, "_id", &u->_id) || !get_i32(o, "index", &u->index) ||
        !get_str(o, "guid", &u->guid) || !get_bool(o, "isActive", &u->is_active) ||
        !get_str(o, "balance", &u->balance) || !get_str(o, "picture", &u->picture) ||
        !get_i32(o, "age", &u->age) || !get_str(o, "eyeColor", &u->eye_color) ||
        !get_str(o, "name", &u->name) || !get_str(o, "gender", &u->gender) ||
        !get_str(o, "company", &u->company) || !get_str(o, "email", &u->email) ||
        !get_str(o, "phone", &u->phone) || !get_str(o, "address", &u->address) ||
        !get_str(o, "about", &u->about) || !get_str(o, "registered", &u->registered) ||
        !get_num(o, "latitude", &u->latitude) || !get_num(o, "longitude", &u->longitude) ||
        !strs_from(m, o, "tags", &u->tags.items, &u->tags.count) ||
        !get_str(o, "greeting", &u->greeting) ||
        !get_str(o, "favoriteFruit", &u->favorite_fruit))
        return false;
    bench_friend *f = list_of(m, o, "friends", sizeof *f, &u->friends.count, &arr);
    if (!(u->friends.items = f))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < u->friends.count; i++) {
        dm_node *e = dm_next(&it);
        if (!get_str(e, "id", &f[i].id) || !get_str(e, "name", &f[i].name))
            return false;
    }
    return true;
}

#endif /* DM_USERS */

#if DM_CLIENTS
static bool get_text(dm_node *o, const char *k, peer_text_form form, void *out)
{
    bench_str s;
    return get_str(o, k, &s) && peer_text_parse(form, s.ptr, s.len, out);
}

static bool client_from(dom_map *m, dm_node *o, void *v)
{
    bench_client *c = v;
    dm_node *arr, *eye_v = dm_get(o, "eyeColor");
    bench_str eye_s;
    int eye = dm_is_string(eye_v) ? (eye_s = dm_str(eye_v),
                                     peer_enum_index(peer_eye_colors, 3, eye_s.ptr, eye_s.len))
                                  : -1;
    if (eye < 0 || !get_i64(o, "_id", &c->_id) || !get_i32(o, "index", &c->index) ||
        !get_text(o, "guid", PEER_UUID, &c->guid) ||
        !get_bool(o, "isActive", &c->is_active) ||
        !dm_decimal(&m->arena, dm_get(o, "balance"), &c->balance) ||
        !get_str(o, "picture", &c->picture) || !get_i32(o, "age", &c->age) ||
        !get_str(o, "name", &c->name) || !get_str(o, "gender", &c->gender) ||
        !get_str(o, "company", &c->company) ||
        !strs_from(m, o, "emails", &c->emails.items, &c->emails.count) ||
        !get_str(o, "address", &c->address) || !get_str(o, "about", &c->about) ||
        !get_text(o, "registered", PEER_DATE, &c->registered) ||
        !get_num(o, "latitude", &c->latitude) || !get_num(o, "longitude", &c->longitude) ||
        !strs_from(m, o, "tags", &c->tags.items, &c->tags.count))
        return false;
    c->eye_color = (bench_eye_color)eye;
    int64_t *ph = list_of(m, o, "phones", sizeof *ph, &c->phones.count, &arr);
    if (!(c->phones.items = ph))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < c->phones.count; i++)
        if (!dm_int(dm_next(&it), &ph[i]))
            return false;
    bench_partner *pa = list_of(m, o, "partners", sizeof *pa, &c->partners.count, &arr);
    if (!(c->partners.items = pa))
        return false;
    it = dm_items(arr);
    for (size_t i = 0; i < c->partners.count; i++) {
        dm_node *e = dm_next(&it);
        if (!get_i64(e, "id", &pa[i].id) || !get_str(e, "name", &pa[i].name) ||
            !get_text(e, "since", PEER_TIMESTAMP, &pa[i].since))
            return false;
    }
    return true;
}
#endif

#if DM_TWITTER
/* ---- twitter.json into bench_twitter ---- */

/* An optional member: absent or null leaves it unset. */
static bool get_opt_null(dm_node *o, const char *k, bool *has)
{
    dm_node *v = dm_get(o, k);
    *has = v && !dm_is_null(v);
    return true;
}

static bool get_opt_str(dm_node *o, const char *k, bench_opt_str *s)
{
    return get_opt_null(o, k, &s->has) && (!s->has || get_str(o, k, &s->value));
}

static bool get_opt_i64(dm_node *o, const char *k, bench_opt_i64 *i)
{
    return get_opt_null(o, k, &i->has) && (!i->has || get_i64(o, k, &i->value));
}

static bool get_opt_i32(dm_node *o, const char *k, bench_opt_i32 *i)
{
    return get_opt_null(o, k, &i->has) && (!i->has || get_i32(o, k, &i->value));
}

static bool indices_from(dom_map *m, dm_node *o, bench_indices *l)
{
    dm_node *arr;
    int32_t *x = list_of(m, o, "indices", sizeof *x, &l->count, &arr);
    if (!(l->items = x))
        return false;
    dm_iter it = dm_items(arr);
    for (size_t i = 0; i < l->count; i++) {
        int64_t v;
        if (!dm_int(dm_next(&it), &v) || v < INT32_MIN || v > INT32_MAX)
            return false;
        x[i] = (int32_t)v;
    }
    return true;
}

static bool hashtag_from(dom_map *m, dm_node *o, void *v)
{
    bench_tw_hashtag *h = v;
    return get_str(o, "text", &h->text) && indices_from(m, o, &h->indices);
}

static bool url_from(dom_map *m, dm_node *o, void *v)
{
    bench_tw_url *u = v;
    return get_str(o, "url", &u->url) && get_str(o, "expanded_url", &u->expanded_url) &&
           get_str(o, "display_url", &u->display_url) && indices_from(m, o, &u->indices);
}

static bool mention_from(dom_map *m, dm_node *o, void *v)
{
    bench_tw_mention *me = v;
    return get_str(o, "screen_name", &me->screen_name) && get_str(o, "name", &me->name) &&
           get_i64(o, "id", &me->id) && get_str(o, "id_str", &me->id_str) &&
           indices_from(m, o, &me->indices);
}

static bool tw_user_from(dm_node *o, bench_tw_user *u)
{
    return dm_is_object(o) && get_i64(o, "id", &u->id) && get_str(o, "id_str", &u->id_str) &&
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

static bool status_from(dom_map *m, dm_node *o, void *v)
{
    bench_tw_status *s = v;
    dm_node *md = dm_get(o, "metadata"), *en = dm_get(o, "entities");
    bench_tw_entities *e = &s->entities;
    return dm_is_object(md) && get_str(md, "result_type", &s->metadata.result_type) &&
           get_str(md, "iso_language_code", &s->metadata.iso_language_code) &&
           get_str(o, "created_at", &s->created_at) && get_i64(o, "id", &s->id) &&
           get_str(o, "id_str", &s->id_str) && get_str(o, "text", &s->text) &&
           get_str(o, "source", &s->source) && get_bool(o, "truncated", &s->truncated) &&
           get_opt_i64(o, "in_reply_to_status_id", &s->in_reply_to_status_id) &&
           get_opt_str(o, "in_reply_to_status_id_str", &s->in_reply_to_status_id_str) &&
           get_opt_i64(o, "in_reply_to_user_id", &s->in_reply_to_user_id) &&
           get_opt_str(o, "in_reply_to_user_id_str", &s->in_reply_to_user_id_str) &&
           get_opt_str(o, "in_reply_to_screen_name", &s->in_reply_to_screen_name) &&
           tw_user_from(dm_get(o, "user"), &s->user) &&
           get_i32(o, "retweet_count", &s->retweet_count) &&
           get_i32(o, "favorite_count", &s->favorite_count) && dm_is_object(en) &&
           records_from(m, en, "hashtags", sizeof(bench_tw_hashtag),
                        (void **)&e->hashtags.items, &e->hashtags.count, hashtag_from) &&
           records_from(m, en, "urls", sizeof(bench_tw_url), (void **)&e->urls.items,
                        &e->urls.count, url_from) &&
           records_from(m, en, "user_mentions", sizeof(bench_tw_mention),
                        (void **)&e->user_mentions.items, &e->user_mentions.count,
                        mention_from) &&
           get_bool(o, "favorited", &s->favorited) && get_bool(o, "retweeted", &s->retweeted) &&
           get_str(o, "lang", &s->lang);
}

static bool twitter_from(dom_map *m, dm_node *o, bench_twitter *t)
{
    dm_node *sm = dm_get(o, "search_metadata");
    bench_tw_search_metadata *md = &t->search_metadata;
    return records_from(m, o, "statuses", sizeof(bench_tw_status), (void **)&t->statuses.items,
                        &t->statuses.count, status_from) &&
           dm_is_object(sm) && get_num(sm, "completed_in", &md->completed_in) &&
           get_i64(sm, "max_id", &md->max_id) && get_str(sm, "max_id_str", &md->max_id_str) &&
           get_str(sm, "next_results", &md->next_results) && get_str(sm, "query", &md->query) &&
           get_str(sm, "refresh_url", &md->refresh_url) && get_i32(sm, "count", &md->count) &&
           get_i64(sm, "since_id", &md->since_id) &&
           get_str(sm, "since_id_str", &md->since_id_str);
}
#endif /* DM_TWITTER */

/* Decode: the parsed document (an object) into m->value, its lists into
 * m's buffers and arena (reset first). @return 0, or -1 when the document
 * does not hold the model. */
static int dom_map_fill(dom_map *m, dm_node *root)
{
    if (!dm_is_object(root))
        return -1;
    codec_arena_reset(&m->arena);
    peer_value *v = &m->value;
    bool ok;
    switch (m->model) {
    case PEER_PERSON: ok = person_from(root, &v->person); break;
    case PEER_ORDER: ok = order_from(m, root, &v->order); break;
    case PEER_STRUCT: ok = struct_from(root, &v->numeric); break;
    case PEER_MEDIA_ITEM:
    case PEER_MEDIA_CONTENT: ok = media_from(m, root, &v->media); break;
#if DM_USERS
    case PEER_USERS:
        ok = records_from(m, root, "users", sizeof(bench_user), (void **)&v->users.users.items,
                          &v->users.users.count, user_from);
        break;
#endif
#if DM_CLIENTS
    case PEER_CLIENTS:
        ok = records_from(m, root, "clients", sizeof(bench_client),
                          (void **)&v->clients.clients.items, &v->clients.clients.count,
                          client_from);
        break;
#endif
#if DM_TWITTER
    case PEER_TWITTER: ok = twitter_from(m, root, &v->twitter); break;
#endif
    default: ok = false;
    }
    return ok ? 0 : -1;
}
