/* cjson.c — peer: cJSON, the bench structs mapped by hand. Specs (peer.h):
 * "json" (Users too, their doubles printed exactly: add_exact; not Clients
 * nor twitter: cJSON keeps every number as a double, and their 63- and 60-bit
 * ids do not survive that) and "dom" (cJSON_ParseWithLength
 * and cJSON_PrintPreallocated of the tree).
 *
 * Encode builds a cJSON tree from the C struct and prints it unformatted
 * into a reused buffer (cJSON_PrintPreallocated), then frees the tree: the
 * work a cJSON user does per value. Decode parses into a tree and fills the
 * same C struct; strings point into the tree, which the worker keeps until
 * its next decode (codec copies them into its arena instead, one block per
 * decode). Lists go to worker buffers kept across decodes. */
#include "peer.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cj_worker {
    peer_model model;
    peer_mode mode;
    peer_bytes out;
    cJSON *tree;              /* the last decoded document */
    cJSON *ref;               /* dom: the payload's tree, what encode prints */
    peer_value value;
    peer_bytes items, persons, images;
    codec_arena lists;        /* Users' lists, reset per decode */
} cj_worker;

static const char *cj_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "cJSON %s", cJSON_Version());
    return v;
}

static void *cj_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_json_open(spec, p, "cJSON", PEER_CAN_USERS | PEER_CAN_DOM,
                          "cJSON keeps every number as a double: the 60- and 63-bit ids of "
                          "twitter and Clients do not survive it",
                          why, cap);
}

static void *cj_worker_new(void *shared)
{
    cj_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const peer_json_cell *c = shared;
    w->model = c->model;
    w->mode = c->mode;
    codec_arena_init(&w->lists, NULL, 0);
    return w;
}

static void cj_worker_free(void *worker)
{
    cj_worker *w = worker;
    cJSON_Delete(w->tree);
    cJSON_Delete(w->ref);
    codec_arena_free(&w->lists);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->images);
    free(w);
}

/* ---- C struct -> tree ---------------------------------------------------- */

/* bench strings are NUL-terminated (models.h), as cJSON needs. Each adder
 * returns NULL on failure, so a chain of them fails once at the end. */
static bool add_str(cJSON *o, const char *k, bench_str s)
{
    return cJSON_AddStringToObject(o, k, s.ptr) != NULL;
}

static bool add_num(cJSON *o, const char *k, double v)
{
    return cJSON_AddNumberToObject(o, k, v) != NULL;
}

static bool add_bool(cJSON *o, const char *k, bool v)
{
    return cJSON_AddBoolToObject(o, k, v) != NULL;
}

static cJSON *person_to(const bench_person *p)
{
    cJSON *o = cJSON_CreateObject();
    if (o && add_str(o, "name", p->name) && add_num(o, "age", p->age) &&
        add_bool(o, "active", p->active) && add_str(o, "email", p->email))
        return o;
    cJSON_Delete(o);
    return NULL;
}

static cJSON *order_to(const bench_order *ord)
{
    cJSON *o = cJSON_CreateObject(), *items;
    if (!o || !add_str(o, "id", ord->id) || !add_str(o, "customer", ord->customer) ||
        !add_bool(o, "paid", ord->paid) || !(items = cJSON_AddArrayToObject(o, "items")))
        goto fail;
    for (size_t i = 0; i < ord->items.count; i++) {
        const bench_line_item *it = &ord->items.items[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(items, e) || !add_str(e, "sku", it->sku) ||
            !add_str(e, "description", it->description) ||
            !add_num(e, "quantity", it->quantity) || !add_num(e, "unitPrice", it->unit_price))
            goto fail;
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

static bool add_opt(cJSON *o, const char *k, bench_opt_str s)
{
    return !s.has || add_str(o, k, s.value);
}

static cJSON *media_to(const bench_media_content *mc, bool has_bitrate)
{
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
    const bench_media *m = &mc->media;
    cJSON *o = cJSON_CreateObject(), *md, *persons, *images;
    if (!o || !(md = cJSON_AddObjectToObject(o, "media")) || !add_str(md, "uri", m->uri) ||
        !add_opt(md, "title", m->title) || !add_num(md, "width", m->width) ||
        !add_num(md, "height", m->height) || !add_str(md, "format", m->format) ||
        !add_num(md, "duration", (double)m->duration) || !add_num(md, "size", (double)m->size) ||
        !add_num(md, "bitrate", m->bitrate) ||
        (has_bitrate && !add_bool(md, "hasBitrate", m->has_bitrate)) ||
        !(persons = cJSON_AddArrayToObject(md, "persons")))
        goto fail;
    for (size_t i = 0; i < m->persons.count; i++)
        if (!cJSON_AddItemToArray(persons, cJSON_CreateString(m->persons.items[i].ptr)))
            goto fail;
    if (!cJSON_AddStringToObject(md, "player", PLAYER[m->player]) ||
        !add_opt(md, "copyright", m->copyright) ||
        !(images = cJSON_AddArrayToObject(o, "images")))
        goto fail;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(images, e) || !add_str(e, "uri", im->uri) ||
            !add_opt(e, "title", im->title) || !add_num(e, "width", im->width) ||
            !add_num(e, "height", im->height) ||
            !cJSON_AddStringToObject(e, "size", SIZE[im->size]))
            goto fail;
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

static cJSON *struct_to(const bench_struct *s)
{
    const double v[16] = {s->f1, s->f2, (double)s->f3,  (double)s->f4,  s->f5,  s->f6,
                          s->f7, s->f8, s->f9,          s->f10,         (double)s->f11,
                          (double)s->f12, s->f13, s->f14, s->f15, s->f16};
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; o && i < 16; i++) {
        char k[4];
        snprintf(k, sizeof k, "f%d", i + 1);
        if (!add_num(o, k, v[i])) {
            cJSON_Delete(o);
            return NULL;
        }
    }
    return o;
}

static bool add_strs(cJSON *o, const char *k, const bench_str *s, size_t n)
{
    cJSON *a = cJSON_AddArrayToObject(o, k);
    for (size_t i = 0; a && i < n; i++)
        if (!cJSON_AddItemToArray(a, cJSON_CreateString(s[i].ptr)))
            return false;
    return a != NULL;
}

/* cJSON prints a double with 15 significant digits whenever they read back
 * within an epsilon of it, which loses the last bits of most coordinates:
 * Users' doubles go in as raw 17-digit text instead, which reads back exact. */
static bool add_exact(cJSON *o, const char *k, double v)
{
    char t[32];
    snprintf(t, sizeof t, "%.17g", v);
    return cJSON_AddRawToObject(o, k, t) != NULL;
}

static bool user_to(cJSON *o, const bench_user *u)
{
    cJSON *friends;
    if (!add_str(o, "_id", u->_id) || !add_num(o, "index", u->index) ||
        !add_str(o, "guid", u->guid) || !add_bool(o, "isActive", u->is_active) ||
        !add_str(o, "balance", u->balance) || !add_str(o, "picture", u->picture) ||
        !add_num(o, "age", u->age) || !add_str(o, "eyeColor", u->eye_color) ||
        !add_str(o, "name", u->name) || !add_str(o, "gender", u->gender) ||
        !add_str(o, "company", u->company) || !add_str(o, "email", u->email) ||
        !add_str(o, "phone", u->phone) || !add_str(o, "address", u->address) ||
        !add_str(o, "about", u->about) || !add_str(o, "registered", u->registered) ||
        !add_exact(o, "latitude", u->latitude) || !add_exact(o, "longitude", u->longitude) ||
        !add_strs(o, "tags", u->tags.items, u->tags.count) ||
        !(friends = cJSON_AddArrayToObject(o, "friends")))
        return false;
    for (size_t i = 0; i < u->friends.count; i++) {
        cJSON *f = cJSON_CreateObject();
        if (!f || !cJSON_AddItemToArray(friends, f) || !add_str(f, "id", u->friends.items[i].id) ||
            !add_str(f, "name", u->friends.items[i].name))
            return false;
    }
    return add_str(o, "greeting", u->greeting) && add_str(o, "favoriteFruit", u->favorite_fruit);
}

static cJSON *users_to(const bench_users *us)
{
    cJSON *o = cJSON_CreateObject(), *a;
    if (!o || !(a = cJSON_AddArrayToObject(o, "users")))
        goto fail;
    for (size_t i = 0; i < us->users.count; i++) {
        cJSON *u = cJSON_CreateObject();
        if (!u || !cJSON_AddItemToArray(a, u) || !user_to(u, &us->users.items[i]))
            goto fail;
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

/* The tree encode prints: built from the C value, or (dom) the payload's
 * own tree, parsed on the first call and kept (*owned false). */
static cJSON *tree_of(cj_worker *w, const bench_payload *p, bool *owned)
{
    *owned = w->mode != PEER_DOM;
    switch (w->model) {
    case PEER_PERSON: return person_to(p->value);
    case PEER_ORDER: return order_to(p->value);
    case PEER_STRUCT: return struct_to(p->value);
    case PEER_USERS: return users_to(p->value);
    case PEER_DOCUMENT:
        if (!w->ref)
            w->ref = cJSON_ParseWithLength((const char *)p->bytes, p->len);
        return w->ref;
    default: return media_to(p->value, w->model == PEER_MEDIA_CONTENT);
    }
}

static int cj_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    cj_worker *w = worker;
    bool owned;
    cJSON *t = tree_of(w, p, &owned);
    if (!t)
        return -1;
    /* The buffer grows until the document fits, then is reused. */
    bool ok = w->out.cap > 0 || peer_reserve(&w->out, 256) == 0;
    while (ok && !cJSON_PrintPreallocated(t, (char *)w->out.data, (int)w->out.cap, false))
        ok = w->out.cap <= PEER_MAX_OUTPUT && peer_reserve(&w->out, 2 * w->out.cap) == 0;
    if (owned)
        cJSON_Delete(t);
    if (!ok)
        return -1;
    *out = w->out.data;
    *len = strlen((const char *)w->out.data);
    return 0;
}

/* ---- tree -> C struct ---------------------------------------------------- */

static const cJSON *get(const cJSON *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}

static bool get_str(const cJSON *o, const char *k, bench_str *s)
{
    const cJSON *v = get(o, k);
    if (!cJSON_IsString(v))
        return false;
    *s = (bench_str){v->valuestring, strlen(v->valuestring)};
    return true;
}

static bool get_opt(const cJSON *o, const char *k, bench_opt_str *s)
{
    s->has = get(o, k) != NULL;
    return !s->has || get_str(o, k, &s->value);
}

static bool get_num(const cJSON *o, const char *k, double *d)
{
    const cJSON *v = get(o, k);
    if (!cJSON_IsNumber(v))
        return false;
    *d = v->valuedouble;
    return true;
}

static bool get_i32(const cJSON *o, const char *k, int32_t *i)
{
    double d;
    if (!get_num(o, k, &d) || d < INT32_MIN || d > INT32_MAX)
        return false;
    *i = (int32_t)d;
    return true;
}

static bool get_i64(const cJSON *o, const char *k, int64_t *i)
{
    double d;
    if (!get_num(o, k, &d) || d < -0x1p63 || d >= 0x1p63)
        return false;
    *i = (int64_t)d;
    return true;
}

static bool get_bool(const cJSON *o, const char *k, bool *b)
{
    const cJSON *v = get(o, k);
    if (!cJSON_IsBool(v))
        return false;
    *b = cJSON_IsTrue(v);
    return true;
}

static bool get_enum(const cJSON *o, const char *k, const char *a, const char *b, int *e)
{
    const cJSON *v = get(o, k);
    if (!cJSON_IsString(v))
        return false;
    *e = strcmp(v->valuestring, a) == 0 ? 0 : strcmp(v->valuestring, b) == 0 ? 1 : -1;
    return *e >= 0;
}

/* An array member's items in buf, `size` bytes each. */
static void *get_array(const cJSON *o, const char *k, size_t size, peer_bytes *buf,
                       size_t *count, const cJSON **arr)
{
    *arr = get(o, k);
    if (!cJSON_IsArray(*arr))
        return NULL;
    *count = (size_t)cJSON_GetArraySize(*arr);
    return peer_reserve(buf, *count * size + 1) == 0 ? buf->data : NULL;
}

static bool person_from(const cJSON *o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool order_from(cj_worker *w, const cJSON *o, bench_order *ord)
{
    const cJSON *arr, *e;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(ord->items.items = get_array(o, "items", sizeof(bench_line_item), &w->items,
                                       &ord->items.count, &arr)))
        return false;
    bench_line_item *it = ord->items.items;
    cJSON_ArrayForEach(e, arr)
    {
        if (!get_str(e, "sku", &it->sku) || !get_str(e, "description", &it->description) ||
            !get_i32(e, "quantity", &it->quantity) || !get_num(e, "unitPrice", &it->unit_price))
            return false;
        it++;
    }
    return true;
}

static bool media_from(cj_worker *w, const cJSON *o, bench_media_content *mc)
{
    const cJSON *md = get(o, "media"), *arr, *e;
    bench_media *m = &mc->media;
    int player;
    if (!cJSON_IsObject(md) || !get_str(md, "uri", &m->uri) || !get_opt(md, "title", &m->title) ||
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
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e))
            return false;
        *s++ = (bench_str){e->valuestring, strlen(e->valuestring)};
    }
    if (!get_enum(md, "player", "JAVA", "FLASH", &player) ||
        !get_opt(md, "copyright", &m->copyright))
        return false;
    m->player = (bench_player)player;
    bench_image *im = get_array(o, "images", sizeof *im, &w->images, &mc->images.count, &arr);
    if (!(mc->images.items = im))
        return false;
    cJSON_ArrayForEach(e, arr)
    {
        int size;
        if (!get_str(e, "uri", &im->uri) || !get_opt(e, "title", &im->title) ||
            !get_i32(e, "width", &im->width) || !get_i32(e, "height", &im->height) ||
            !get_enum(e, "size", "SMALL", "LARGE", &size))
            return false;
        im->size = (bench_image_size)size;
        im++;
    }
    return true;
}

static bool struct_from(const cJSON *o, bench_struct *s)
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

/* An array member's items in the list arena, `size` bytes each. */
static void *list_of(cj_worker *w, const cJSON *o, const char *k, size_t size, size_t *count,
                     const cJSON **arr)
{
    *arr = get(o, k);
    if (!cJSON_IsArray(*arr))
        return NULL;
    *count = (size_t)cJSON_GetArraySize(*arr);
    return codec_arena_alloc(&w->lists, *count * size + 1, 0);
}

static bool user_from(cj_worker *w, const cJSON *o, bench_user *u)
{
    const cJSON *arr, *e;
    if (!get_str(o, "_id", &u->_id) || !get_i32(o, "index", &u->index) ||
        !get_str(o, "guid", &u->guid) || !get_bool(o, "isActive", &u->is_active) ||
        !get_str(o, "balance", &u->balance) || !get_str(o, "picture", &u->picture) ||
        !get_i32(o, "age", &u->age) || !get_str(o, "eyeColor", &u->eye_color) ||
        !get_str(o, "name", &u->name) || !get_str(o, "gender", &u->gender) ||
        !get_str(o, "company", &u->company) || !get_str(o, "email", &u->email) ||
        !get_str(o, "phone", &u->phone) || !get_str(o, "address", &u->address) ||
        !get_str(o, "about", &u->about) || !get_str(o, "registered", &u->registered) ||
        !get_num(o, "latitude", &u->latitude) || !get_num(o, "longitude", &u->longitude) ||
        !get_str(o, "greeting", &u->greeting) ||
        !get_str(o, "favoriteFruit", &u->favorite_fruit))
        return false;
    bench_str *s = list_of(w, o, "tags", sizeof *s, &u->tags.count, &arr);
    if (!(u->tags.items = s))
        return false;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e))
            return false;
        *s++ = (bench_str){e->valuestring, strlen(e->valuestring)};
    }
    bench_friend *f = list_of(w, o, "friends", sizeof *f, &u->friends.count, &arr);
    if (!(u->friends.items = f))
        return false;
    cJSON_ArrayForEach(e, arr)
    {
        if (!get_str(e, "id", &f->id) || !get_str(e, "name", &f->name))
            return false;
        f++;
    }
    return true;
}

static bool users_from(cj_worker *w, const cJSON *o, bench_users *us)
{
    const cJSON *arr, *e;
    bench_user *u = list_of(w, o, "users", sizeof *u, &us->users.count, &arr);
    if (!(us->users.items = u))
        return false;
    cJSON_ArrayForEach(e, arr)
        if (!user_from(w, e, u++))
            return false;
    return true;
}

static int cj_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    cj_worker *w = worker;
    cJSON_Delete(w->tree);
    w->tree = cJSON_ParseWithLength((const char *)in, n);
    *out = NULL, *len = 0;
    if (w->model == PEER_DOCUMENT)
        return w->tree ? 0 : -1;
    if (!cJSON_IsObject(w->tree))
        return -1;
    codec_arena_reset(&w->lists);
    bool ok = w->model == PEER_PERSON  ? person_from(w->tree, &w->value.person)
              : w->model == PEER_ORDER ? order_from(w, w->tree, &w->value.order)
              : w->model == PEER_STRUCT
                  ? struct_from(w->tree, &w->value.numeric)
              : w->model == PEER_USERS ? users_from(w, w->tree, &w->value.users)
                                       : media_from(w, w->tree, &w->value.media);
    return ok ? 0 : -1;
}

static int cj_matches(void *worker, const bench_payload *p)
{
    cj_worker *w = worker;
    if (w->mode == PEER_DOM)
        return cJSON_Compare(w->tree, w->ref, true);
    return peer_value_matches(p, &w->value);
}

const bench_driver bench_peer_cjson = {
    "cjson", cj_version, cj_open, free, cj_worker_new, cj_worker_free,
    cj_encode, cj_decode, cj_matches, NULL, NULL};
