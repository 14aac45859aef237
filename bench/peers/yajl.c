/* yajl.c — peer: YAJL 2. Specs (peer.h): "json" (the bench structs mapped
 * by hand, below; Users and Clients too, a balance written with
 * yajl_gen_number and read from the tree's number text), "stream" (yajl's
 * event parser into a token tape and yajl_gen from the tape: json_tape.h)
 * and "validate" (yajl_parse with no callbacks: a complete check that
 * builds nothing).
 *
 * Encode streams the C struct through a reused yajl_gen (cleared and reset
 * per value; no tree), the output staying in the generator's buffer until
 * the next encode. Decode copies the bytes into a reused buffer to add the
 * NUL yajl_tree_parse needs, parses them into a tree and fills the C struct;
 * strings point into the tree, kept until the next decode. Lists go to
 * worker buffers kept across decodes (Users' and Clients' to an arena reset
 * per decode). */
#include "json_tape.h"
#include "peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>
#include <yajl/yajl_version.h>

typedef struct yj_worker {
    peer_model model;
    peer_mode mode;
    yajl_gen gen;
    /* stream: the payload's tokens (encode's input) and the decoded ones */
    bench_tape ref, tape;
    codec_arena ref_arena;
    /* reset per decode: Users' and Clients' lists, and the stream strings
     * yajl handed over from its own (reused) buffer */
    codec_arena arena;
    const uint8_t *in, *in_end;   /* the input being parsed */
    peer_bytes text;          /* the input with a NUL, for yajl_tree_parse */
    yajl_val tree;            /* the last decoded document */
    peer_value value;
    peer_bytes items, persons, images;
} yj_worker;

static const char *yj_version(void)
{
    static char v[32];
    int n = yajl_version();
    snprintf(v, sizeof v, "yajl %d.%d.%d", n / 10000, n / 100 % 100, n % 100);
    return v;
}

static void *yj_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_json_open(spec, p, "yajl",
                          PEER_CAN_USERS | PEER_CAN_CLIENTS | PEER_CAN_STREAM | PEER_CAN_VALIDATE,
                          NULL, why, cap);
}

static void *yj_worker_new(void *shared)
{
    yj_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    const peer_json_cell *c = shared;
    w->model = c->model;
    w->mode = c->mode;
    codec_arena_init(&w->ref_arena, NULL, 0);
    codec_arena_init(&w->arena, NULL, 0);
    if (!(w->gen = yajl_gen_alloc(NULL))) {
        free(w);
        return NULL;
    }
    return w;
}

static void yj_worker_free(void *worker)
{
    yj_worker *w = worker;
    bench_tape_free(&w->ref);
    bench_tape_free(&w->tape);
    codec_arena_free(&w->ref_arena);
    codec_arena_free(&w->arena);
    yajl_gen_free(w->gen);
    yajl_tree_free(w->tree);
    peer_bytes_free(&w->text);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->images);
    free(w);
}

/* ---- C struct -> JSON ---------------------------------------------------- */

static bool gstr(yajl_gen g, const char *s, size_t n)
{
    return yajl_gen_string(g, (const unsigned char *)s, n) == yajl_gen_status_ok;
}

static bool key(yajl_gen g, const char *k)
{
    return gstr(g, k, strlen(k));
}

static bool put_str(yajl_gen g, const char *k, bench_str s)
{
    return key(g, k) && gstr(g, s.ptr, s.len);
}

static bool put_int(yajl_gen g, const char *k, int64_t v)
{
    return key(g, k) && yajl_gen_integer(g, v) == yajl_gen_status_ok;
}

static bool put_num(yajl_gen g, const char *k, double v)
{
    return key(g, k) && yajl_gen_double(g, v) == yajl_gen_status_ok;
}

static bool put_bool(yajl_gen g, const char *k, bool v)
{
    return key(g, k) && yajl_gen_bool(g, v) == yajl_gen_status_ok;
}

static bool put_opt(yajl_gen g, const char *k, bench_opt_str s)
{
    return !s.has || put_str(g, k, s.value);
}

static bool open_map(yajl_gen g)
{
    return yajl_gen_map_open(g) == yajl_gen_status_ok;
}

static bool close_map(yajl_gen g)
{
    return yajl_gen_map_close(g) == yajl_gen_status_ok;
}

static bool open_array(yajl_gen g, const char *k)
{
    return key(g, k) && yajl_gen_array_open(g) == yajl_gen_status_ok;
}

static bool close_array(yajl_gen g)
{
    return yajl_gen_array_close(g) == yajl_gen_status_ok;
}

static bool person_to(yajl_gen g, const bench_person *p)
{
    return open_map(g) && put_str(g, "name", p->name) && put_int(g, "age", p->age) &&
           put_bool(g, "active", p->active) && put_str(g, "email", p->email) && close_map(g);
}

static bool order_to(yajl_gen g, const bench_order *ord)
{
    if (!open_map(g) || !put_str(g, "id", ord->id) || !put_str(g, "customer", ord->customer) ||
        !put_bool(g, "paid", ord->paid) || !open_array(g, "items"))
        return false;
    for (size_t i = 0; i < ord->items.count; i++) {
        const bench_line_item *it = &ord->items.items[i];
        if (!open_map(g) || !put_str(g, "sku", it->sku) ||
            !put_str(g, "description", it->description) ||
            !put_int(g, "quantity", it->quantity) || !put_num(g, "unitPrice", it->unit_price) ||
            !close_map(g))
            return false;
    }
    return close_array(g) && close_map(g);
}

static bool media_to(yajl_gen g, const bench_media_content *mc, bool has_bitrate)
{
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
    const bench_media *m = &mc->media;
    if (!open_map(g) || !key(g, "media") || !open_map(g) || !put_str(g, "uri", m->uri) ||
        !put_opt(g, "title", m->title) || !put_int(g, "width", m->width) ||
        !put_int(g, "height", m->height) || !put_str(g, "format", m->format) ||
        !put_int(g, "duration", m->duration) || !put_int(g, "size", m->size) ||
        !put_int(g, "bitrate", m->bitrate) ||
        (has_bitrate && !put_bool(g, "hasBitrate", m->has_bitrate)) ||
        !open_array(g, "persons"))
        return false;
    for (size_t i = 0; i < m->persons.count; i++)
        if (!gstr(g, m->persons.items[i].ptr, m->persons.items[i].len))
            return false;
    if (!close_array(g) || !key(g, "player") || !gstr(g, PLAYER[m->player], strlen(PLAYER[m->player])) ||
        !put_opt(g, "copyright", m->copyright) || !close_map(g) || !open_array(g, "images"))
        return false;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        if (!open_map(g) || !put_str(g, "uri", im->uri) || !put_opt(g, "title", im->title) ||
            !put_int(g, "width", im->width) || !put_int(g, "height", im->height) ||
            !key(g, "size") || !gstr(g, SIZE[im->size], strlen(SIZE[im->size])) || !close_map(g))
            return false;
    }
    return close_array(g) && close_map(g);
}

static bool struct_to(yajl_gen g, const bench_struct *s)
{
    return open_map(g) && put_int(g, "f1", s->f1) && put_int(g, "f2", s->f2) &&
           put_int(g, "f3", s->f3) && put_int(g, "f4", s->f4) && put_num(g, "f5", s->f5) &&
           put_num(g, "f6", s->f6) && put_num(g, "f7", s->f7) && put_num(g, "f8", s->f8) &&
           put_int(g, "f9", s->f9) && put_int(g, "f10", s->f10) && put_int(g, "f11", s->f11) &&
           put_int(g, "f12", s->f12) && put_num(g, "f13", s->f13) && put_num(g, "f14", s->f14) &&
           put_num(g, "f15", s->f15) && put_num(g, "f16", s->f16) && close_map(g);
}

static bool put_strs(yajl_gen g, const char *k, const bench_str *s, size_t n)
{
    if (!open_array(g, k))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!gstr(g, s[i].ptr, s[i].len))
            return false;
    return close_array(g);
}

static bool user_to(yajl_gen g, const bench_user *u)
{
    if (!open_map(g) || !put_str(g, "_id", u->_id) || !put_int(g, "index", u->index) ||
        !put_str(g, "guid", u->guid) || !put_bool(g, "isActive", u->is_active) ||
        !put_str(g, "balance", u->balance) || !put_str(g, "picture", u->picture) ||
        !put_int(g, "age", u->age) || !put_str(g, "eyeColor", u->eye_color) ||
        !put_str(g, "name", u->name) || !put_str(g, "gender", u->gender) ||
        !put_str(g, "company", u->company) || !put_str(g, "email", u->email) ||
        !put_str(g, "phone", u->phone) || !put_str(g, "address", u->address) ||
        !put_str(g, "about", u->about) || !put_str(g, "registered", u->registered) ||
        !put_num(g, "latitude", u->latitude) || !put_num(g, "longitude", u->longitude) ||
        !put_strs(g, "tags", u->tags.items, u->tags.count) || !open_array(g, "friends"))
        return false;
    for (size_t i = 0; i < u->friends.count; i++)
        if (!open_map(g) || !put_str(g, "id", u->friends.items[i].id) ||
            !put_str(g, "name", u->friends.items[i].name) || !close_map(g))
            return false;
    return close_array(g) && put_str(g, "greeting", u->greeting) &&
           put_str(g, "favoriteFruit", u->favorite_fruit) && close_map(g);
}

static bool put_text(yajl_gen g, const char *k, const char *t, size_t n)
{
    return key(g, k) && gstr(g, t, n);
}

static bool client_to(yajl_gen g, const bench_client *c)
{
    char t[PEER_UUID_LEN + 1];
    const char *eye = peer_eye_colors[c->eye_color];
    if (!open_map(g) || !put_int(g, "_id", c->_id) || !put_int(g, "index", c->index) ||
        !put_text(g, "guid", t, peer_uuid_text(&c->guid, t)) ||
        !put_bool(g, "isActive", c->is_active) || !key(g, "balance") ||
        yajl_gen_number(g, c->balance.ptr, c->balance.len) != yajl_gen_status_ok ||
        !put_str(g, "picture", c->picture) || !put_int(g, "age", c->age) ||
        !put_text(g, "eyeColor", eye, strlen(eye)) || !put_str(g, "name", c->name) ||
        !put_str(g, "gender", c->gender) || !put_str(g, "company", c->company) ||
        !put_strs(g, "emails", c->emails.items, c->emails.count) || !open_array(g, "phones"))
        return false;
    for (size_t i = 0; i < c->phones.count; i++)
        if (yajl_gen_integer(g, c->phones.items[i]) != yajl_gen_status_ok)
            return false;
    if (!close_array(g) || !put_str(g, "address", c->address) ||
        !put_str(g, "about", c->about) ||
        !put_text(g, "registered", t, peer_date_text(c->registered, t)) ||
        !put_num(g, "latitude", c->latitude) || !put_num(g, "longitude", c->longitude) ||
        !put_strs(g, "tags", c->tags.items, c->tags.count) || !open_array(g, "partners"))
        return false;
    for (size_t i = 0; i < c->partners.count; i++) {
        const bench_partner *pa = &c->partners.items[i];
        if (!open_map(g) || !put_int(g, "id", pa->id) || !put_str(g, "name", pa->name) ||
            !put_text(g, "since", t, peer_timestamp_text(&pa->since, t)) || !close_map(g))
            return false;
    }
    return close_array(g) && close_map(g);
}

static bool users_to(yajl_gen g, const bench_users *us)
{
    if (!open_map(g) || !open_array(g, "users"))
        return false;
    for (size_t i = 0; i < us->users.count; i++)
        if (!user_to(g, &us->users.items[i]))
            return false;
    return close_array(g) && close_map(g);
}

static bool clients_to(yajl_gen g, const bench_clients *cs)
{
    if (!open_map(g) || !open_array(g, "clients"))
        return false;
    for (size_t i = 0; i < cs->clients.count; i++)
        if (!client_to(g, &cs->clients.items[i]))
            return false;
    return close_array(g) && close_map(g);
}

static bool gen_item(yajl_gen g, const bench_tape_item *it)
{
    const unsigned char *s = (const unsigned char *)it->v.s;
    switch (it->kind) {
    case TAPE_OBJECT_START: return yajl_gen_map_open(g) == yajl_gen_status_ok;
    case TAPE_OBJECT_END: return yajl_gen_map_close(g) == yajl_gen_status_ok;
    case TAPE_ARRAY_START: return yajl_gen_array_open(g) == yajl_gen_status_ok;
    case TAPE_ARRAY_END: return yajl_gen_array_close(g) == yajl_gen_status_ok;
    case TAPE_KEY:
    case TAPE_STRING: return yajl_gen_string(g, s, it->len) == yajl_gen_status_ok;
    case TAPE_INT: return yajl_gen_integer(g, it->v.i) == yajl_gen_status_ok;
    case TAPE_DOUBLE: return yajl_gen_double(g, it->v.d) == yajl_gen_status_ok;
    case TAPE_TRUE: return yajl_gen_bool(g, 1) == yajl_gen_status_ok;
    case TAPE_FALSE: return yajl_gen_bool(g, 0) == yajl_gen_status_ok;
    default: return yajl_gen_null(g) == yajl_gen_status_ok;
    }
}

/* The payload's tape, read on the first (untimed) call. */
static bool tape_to(yj_worker *w, const bench_payload *p)
{
    if (w->ref.n == 0 && bench_tape_load(&w->ref, p, &w->ref_arena) != 0)
        return false;
    for (size_t i = 0; i < w->ref.n; i++)
        if (!gen_item(w->gen, &w->ref.items[i]))
            return false;
    return true;
}

static int yj_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    yj_worker *w = worker;
    yajl_gen_clear(w->gen);
    yajl_gen_reset(w->gen, NULL);
    bool ok = w->mode == PEER_STREAM  ? tape_to(w, p)
              : w->mode != PEER_DATABIND ? false
              : w->model == PEER_USERS   ? users_to(w->gen, p->value)
              : w->model == PEER_CLIENTS ? clients_to(w->gen, p->value)
              : w->model == PEER_PERSON  ? person_to(w->gen, p->value)
              : w->model == PEER_ORDER ? order_to(w->gen, p->value)
              : w->model == PEER_STRUCT
                  ? struct_to(w->gen, p->value)
                  : media_to(w->gen, p->value, w->model == PEER_MEDIA_CONTENT);
    if (!ok)
        return -1;
    return yajl_gen_get_buf(w->gen, out, len) == yajl_gen_status_ok ? 0 : -1;
}

/* ---- tree -> C struct ---------------------------------------------------- */

static yajl_val get(yajl_val o, const char *k)
{
    if (!YAJL_IS_OBJECT(o))
        return NULL;
    for (size_t i = 0; i < o->u.object.len; i++)
        if (strcmp(o->u.object.keys[i], k) == 0)
            return o->u.object.values[i];
    return NULL;
}

/* yajl_tree strings are NUL-terminated copies without a length. */
static bool as_str(yajl_val v, bench_str *s)
{
    if (!YAJL_IS_STRING(v))
        return false;
    *s = (bench_str){v->u.string, strlen(v->u.string)};
    return true;
}

static bool get_str(yajl_val o, const char *k, bench_str *s)
{
    return as_str(get(o, k), s);
}

static bool get_opt(yajl_val o, const char *k, bench_opt_str *s)
{
    s->has = get(o, k) != NULL;
    return !s->has || get_str(o, k, &s->value);
}

static bool get_num(yajl_val o, const char *k, double *d)
{
    yajl_val v = get(o, k);
    if (!YAJL_IS_DOUBLE(v))
        return false;
    *d = YAJL_GET_DOUBLE(v);
    return true;
}

static bool get_i64(yajl_val o, const char *k, int64_t *i)
{
    yajl_val v = get(o, k);
    if (!YAJL_IS_INTEGER(v))
        return false;
    *i = YAJL_GET_INTEGER(v);
    return true;
}

static bool get_i32(yajl_val o, const char *k, int32_t *i)
{
    int64_t x;
    if (!get_i64(o, k, &x) || x < INT32_MIN || x > INT32_MAX)
        return false;
    *i = (int32_t)x;
    return true;
}

static bool get_bool(yajl_val o, const char *k, bool *b)
{
    yajl_val v = get(o, k);
    if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
        return false;
    *b = YAJL_IS_TRUE(v);
    return true;
}

static bool get_enum(yajl_val o, const char *k, const char *a, const char *b, int *e)
{
    yajl_val v = get(o, k);
    if (!YAJL_IS_STRING(v))
        return false;
    *e = strcmp(v->u.string, a) == 0 ? 0 : strcmp(v->u.string, b) == 0 ? 1 : -1;
    return *e >= 0;
}

/* An array member's items in buf, `size` bytes each. */
static void *get_array(yajl_val o, const char *k, size_t size, peer_bytes *buf, size_t *count,
                       yajl_val *arr)
{
    *arr = get(o, k);
    if (!YAJL_IS_ARRAY(*arr))
        return NULL;
    *count = (*arr)->u.array.len;
    return peer_reserve(buf, *count * size + 1) == 0 ? buf->data : NULL;
}

static bool person_from(yajl_val o, bench_person *p)
{
    return get_str(o, "name", &p->name) && get_i32(o, "age", &p->age) &&
           get_bool(o, "active", &p->active) && get_str(o, "email", &p->email);
}

static bool order_from(yj_worker *w, yajl_val o, bench_order *ord)
{
    yajl_val arr;
    if (!get_str(o, "id", &ord->id) || !get_str(o, "customer", &ord->customer) ||
        !get_bool(o, "paid", &ord->paid) ||
        !(ord->items.items = get_array(o, "items", sizeof(bench_line_item), &w->items,
                                       &ord->items.count, &arr)))
        return false;
    for (size_t i = 0; i < ord->items.count; i++) {
        yajl_val e = arr->u.array.values[i];
        bench_line_item *it = &ord->items.items[i];
        if (!get_str(e, "sku", &it->sku) || !get_str(e, "description", &it->description) ||
            !get_i32(e, "quantity", &it->quantity) || !get_num(e, "unitPrice", &it->unit_price))
            return false;
    }
    return true;
}

static bool media_from(yj_worker *w, yajl_val o, bench_media_content *mc)
{
    yajl_val md = get(o, "media"), arr;
    bench_media *m = &mc->media;
    int player;
    if (!YAJL_IS_OBJECT(md) || !get_str(md, "uri", &m->uri) || !get_opt(md, "title", &m->title) ||
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
    for (size_t i = 0; i < m->persons.count; i++)
        if (!as_str(arr->u.array.values[i], &s[i]))
            return false;
    if (!get_enum(md, "player", "JAVA", "FLASH", &player) ||
        !get_opt(md, "copyright", &m->copyright))
        return false;
    m->player = (bench_player)player;
    bench_image *im = get_array(o, "images", sizeof *im, &w->images, &mc->images.count, &arr);
    if (!(mc->images.items = im))
        return false;
    for (size_t i = 0; i < mc->images.count; i++) {
        yajl_val e = arr->u.array.values[i];
        int size;
        if (!get_str(e, "uri", &im[i].uri) || !get_opt(e, "title", &im[i].title) ||
            !get_i32(e, "width", &im[i].width) || !get_i32(e, "height", &im[i].height) ||
            !get_enum(e, "size", "SMALL", "LARGE", &size))
            return false;
        im[i].size = (bench_image_size)size;
    }
    return true;
}

static bool struct_from(yajl_val o, bench_struct *s)
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

/* An array member's items in the worker's arena, `size` bytes each. */
static void *list_of(yj_worker *w, yajl_val o, const char *k, size_t size, size_t *count,
                     yajl_val *arr)
{
    *arr = get(o, k);
    if (!YAJL_IS_ARRAY(*arr))
        return NULL;
    *count = (*arr)->u.array.len;
    return codec_arena_alloc(&w->arena, *count * size + 1, 0);
}

static bool strs_from(yj_worker *w, yajl_val o, const char *k, bench_str **items, size_t *count)
{
    yajl_val arr;
    bench_str *s = list_of(w, o, k, sizeof *s, count, &arr);
    if (!(*items = s))
        return false;
    for (size_t i = 0; i < *count; i++)
        if (!as_str(arr->u.array.values[i], &s[i]))
            return false;
    return true;
}

static bool get_text(yajl_val o, const char *k, peer_text_form form, void *out)
{
    bench_str s;
    return get_str(o, k, &s) && peer_text_parse(form, s.ptr, s.len, out);
}

static bool user_from(yj_worker *w, yajl_val o, bench_user *u)
{
    yajl_val arr;
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
    for (size_t i = 0; i < u->friends.count; i++)
        if (!get_str(arr->u.array.values[i], "id", &f[i].id) ||
            !get_str(arr->u.array.values[i], "name", &f[i].name))
            return false;
    return true;
}

/* yajl_tree keeps each number's text: the decimal's exact form. */
static bool get_decimal(yajl_val o, const char *k, bench_str *s)
{
    yajl_val v = get(o, k);
    if (!YAJL_IS_NUMBER(v))
        return false;
    *s = (bench_str){v->u.number.r, strlen(v->u.number.r)};
    return true;
}

static bool client_from(yj_worker *w, yajl_val o, bench_client *c)
{
    yajl_val arr, v = get(o, "eyeColor");
    int eye = YAJL_IS_STRING(v) ? peer_enum_index(peer_eye_colors, 3, v->u.string,
                                                  strlen(v->u.string))
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
        yajl_val e = arr->u.array.values[i];
        if (!YAJL_IS_INTEGER(e))
            return false;
        ph[i] = YAJL_GET_INTEGER(e);
    }
    bench_partner *pa = list_of(w, o, "partners", sizeof *pa, &c->partners.count, &arr);
    if (!(c->partners.items = pa))
        return false;
    for (size_t i = 0; i < c->partners.count; i++) {
        yajl_val e = arr->u.array.values[i];
        if (!get_i64(e, "id", &pa[i].id) || !get_str(e, "name", &pa[i].name) ||
            !get_text(e, "since", PEER_TIMESTAMP, &pa[i].since))
            return false;
    }
    return true;
}

static bool users_from(yj_worker *w, yajl_val o, bench_users *us)
{
    yajl_val arr;
    bench_user *u = list_of(w, o, "users", sizeof *u, &us->users.count, &arr);
    if (!(us->users.items = u))
        return false;
    for (size_t i = 0; i < us->users.count; i++)
        if (!user_from(w, arr->u.array.values[i], &u[i]))
            return false;
    return true;
}

static bool clients_from(yj_worker *w, yajl_val o, bench_clients *cs)
{
    yajl_val arr;
    bench_client *c = list_of(w, o, "clients", sizeof *c, &cs->clients.count, &arr);
    if (!(cs->clients.items = c))
        return false;
    for (size_t i = 0; i < cs->clients.count; i++)
        if (!client_from(w, arr->u.array.values[i], &c[i]))
            return false;
    return true;
}

/* ---- events -> tape (stream) --------------------------------------------- */

static int push(yj_worker *w, bench_tape_item it)
{
    bench_tape_push(&w->tape, it);
    return !w->tape.failed;
}

static int ev_null(void *w) { return push(w, (bench_tape_item){TAPE_NULL, 0, {.s = NULL}}); }
static int ev_bool(void *w, int b)
{
    return push(w, (bench_tape_item){b ? TAPE_TRUE : TAPE_FALSE, 0, {.s = NULL}});
}
static int ev_int(void *w, long long i)
{
    return push(w, (bench_tape_item){TAPE_INT, 0, {.i = i}});
}
static int ev_double(void *w, double d)
{
    return push(w, (bench_tape_item){TAPE_DOUBLE, 0, {.d = d}});
}

/* yajl hands over a view of the input, or of its own buffer (reused) when
 * the string had escapes: that one is copied. */
static int ev_text(yj_worker *w, bench_tape_kind kind, const unsigned char *s, size_t n)
{
    const char *t = (const char *)s;
    if (s < w->in || s + n > w->in_end) {
        char *copy = codec_arena_alloc(&w->arena, n + 1, 1);
        if (!copy)
            return 0;
        memcpy(copy, s, n);
        t = copy;
    }
    return push(w, (bench_tape_item){kind, n, {.s = t}});
}

static int ev_string(void *w, const unsigned char *s, size_t n)
{
    return ev_text(w, TAPE_STRING, s, n);
}
static int ev_key(void *w, const unsigned char *s, size_t n) { return ev_text(w, TAPE_KEY, s, n); }
static int ev_map_open(void *w)
{
    return push(w, (bench_tape_item){TAPE_OBJECT_START, 0, {.s = NULL}});
}
static int ev_map_close(void *w)
{
    return push(w, (bench_tape_item){TAPE_OBJECT_END, 0, {.s = NULL}});
}
static int ev_array_open(void *w)
{
    return push(w, (bench_tape_item){TAPE_ARRAY_START, 0, {.s = NULL}});
}
static int ev_array_close(void *w)
{
    return push(w, (bench_tape_item){TAPE_ARRAY_END, 0, {.s = NULL}});
}

static const yajl_callbacks TAPE_EVENTS = {
    ev_null, ev_bool, ev_int, ev_double, NULL, ev_string,
    ev_map_open, ev_key, ev_map_close, ev_array_open, ev_array_close};

/* A handle per document: yajl 2 cannot reset one. With no callbacks, a
 * validator. */
static int parse_events(yj_worker *w, const yajl_callbacks *events, const uint8_t *in, size_t n)
{
    yajl_handle h = yajl_alloc(events, NULL, w);
    if (!h)
        return -1;
    w->in = in, w->in_end = in + n;
    int rc = yajl_parse(h, in, n) == yajl_status_ok && yajl_complete_parse(h) == yajl_status_ok
                 ? 0
                 : -1;
    yajl_free(h);
    return rc;
}

static int yj_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    yj_worker *w = worker;
    if (w->mode == PEER_VALIDATE) {
        *out = in, *len = n;
        return parse_events(w, NULL, in, n);
    }
    if (w->mode == PEER_STREAM) {
        *out = NULL, *len = 0;
        bench_tape_clear(&w->tape);
        codec_arena_reset(&w->arena);
        return parse_events(w, &TAPE_EVENTS, in, n);
    }
    yajl_tree_free(w->tree);
    w->tree = NULL;
    *out = NULL, *len = 0;
    /* A NUL inside the input would end the text early: refuse it. */
    if (memchr(in, 0, n) || peer_reserve(&w->text, n + 1) != 0)
        return -1;
    memcpy(w->text.data, in, n);
    w->text.data[n] = 0;
    w->tree = yajl_tree_parse((const char *)w->text.data, NULL, 0);
    if (!YAJL_IS_OBJECT(w->tree))
        return -1;
    codec_arena_reset(&w->arena);
    bool ok = w->model == PEER_USERS     ? users_from(w, w->tree, &w->value.users)
              : w->model == PEER_CLIENTS ? clients_from(w, w->tree, &w->value.clients)
              : w->model == PEER_PERSON  ? person_from(w->tree, &w->value.person)
              : w->model == PEER_ORDER ? order_from(w, w->tree, &w->value.order)
              : w->model == PEER_STRUCT
                  ? struct_from(w->tree, &w->value.numeric)
                  : media_from(w, w->tree, &w->value.media);
    return ok ? 0 : -1;
}

static int yj_matches(void *worker, const bench_payload *p)
{
    yj_worker *w = worker;
    switch (w->mode) {
    case PEER_STREAM: return bench_tape_equal(&w->tape, &w->ref);
    case PEER_VALIDATE: return 1;   /* the bytes it checked, compared by the harness */
    default: return peer_value_matches(p, &w->value);
    }
}

const bench_driver bench_peer_yajl = {
    "yajl", yj_version, yj_open, free, yj_worker_new, yj_worker_free,
    yj_encode, yj_decode, yj_matches, NULL, NULL};
