/* yajl.c — peer: YAJL 2. Specs (peer.h): "json" (the bench structs mapped
 * by hand; Users and Clients too, a balance written with yajl_gen_number
 * and read from the tree's number text), "stream" (yajl's event parser into
 * a token tape and yajl_gen from the tape: json_tape.h) and "validate"
 * (yajl_parse with no callbacks: a complete check that builds nothing).
 *
 * Encode streams the C struct through a reused yajl_gen (cleared and reset
 * per value; no tree), the output staying in the generator's buffer until
 * the next encode. Decode copies the bytes into a reused buffer to add the
 * NUL yajl_tree_parse needs, parses them into a tree and fills the C struct
 * with the tree peers' mapping (dom_map.h); strings point into the tree,
 * kept until the next decode. */
#include "json_tape.h"
#include "peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>
#include <yajl/yajl_version.h>

/* ---- the decode half of the mapping's calls (dom_map.h) ---- */

typedef struct yajl_val_s dm_node;
typedef struct {
    yajl_val array;
    size_t i;
} dm_iter;
#define DM_ENCODE 0   /* encode streams through yajl_gen, below */
#define DM_USERS 1
#define DM_CLIENTS 1
#define DM_TWITTER 0

static inline dm_node *dm_get(dm_node *o, const char *k)
{
    if (!YAJL_IS_OBJECT(o))
        return NULL;
    for (size_t i = 0; i < o->u.object.len; i++)
        if (strcmp(o->u.object.keys[i], k) == 0)
            return o->u.object.values[i];
    return NULL;
}
static inline bool dm_is_object(dm_node *v) { return YAJL_IS_OBJECT(v); }
static inline bool dm_is_array(dm_node *v) { return YAJL_IS_ARRAY(v); }
static inline bool dm_is_string(dm_node *v) { return YAJL_IS_STRING(v); }
/* Every number yajl could convert to a double, integers included. */
static inline bool dm_is_number(dm_node *v) { return YAJL_IS_DOUBLE(v); }
static inline bool dm_is_bool(dm_node *v) { return YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v); }
/* yajl_tree strings are NUL-terminated copies without a length. */
static inline bench_str dm_str(dm_node *v) { return (bench_str){v->u.string, strlen(v->u.string)}; }
static inline double dm_double(dm_node *v) { return YAJL_GET_DOUBLE(v); }
static inline bool dm_bool(dm_node *v) { return YAJL_IS_TRUE(v); }
static inline bool dm_int(dm_node *v, int64_t *i)
{
    if (!YAJL_IS_INTEGER(v))
        return false;
    *i = YAJL_GET_INTEGER(v);
    return true;
}
/* yajl_tree keeps each number's text: the decimal's exact form. */
static inline bool dm_decimal(codec_arena *a, dm_node *v, bench_str *s)
{
    (void)a;
    if (!YAJL_IS_NUMBER(v))
        return false;
    *s = (bench_str){v->u.number.r, strlen(v->u.number.r)};
    return true;
}
static inline size_t dm_len(dm_node *a) { return a->u.array.len; }
static inline dm_iter dm_items(dm_node *a) { return (dm_iter){a, 0}; }
static inline dm_node *dm_next(dm_iter *it) { return it->array->u.array.values[it->i++]; }

#include "dom_map.h"

/* ---- the peer ---- */

typedef struct yj_worker {
    /* its arena, reset per decode, also holds the stream strings yajl
     * handed over from its own (reused) buffer */
    dom_map map;
    yajl_gen gen;
    /* stream: the payload's tokens (encode's input) and the decoded ones */
    bench_tape ref, tape;
    codec_arena ref_arena;
    const uint8_t *in, *in_end;   /* the input being parsed */
    peer_bytes text;          /* the input with a NUL, for yajl_tree_parse */
    yajl_val tree;            /* the last decoded document */
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
    if (!(w->gen = yajl_gen_alloc(NULL))) {
        free(w);
        return NULL;
    }
    dom_map_init(&w->map, shared);
    codec_arena_init(&w->ref_arena, NULL, 0);
    return w;
}

static void yj_worker_free(void *worker)
{
    yj_worker *w = worker;
    bench_tape_free(&w->ref);
    bench_tape_free(&w->tape);
    codec_arena_free(&w->ref_arena);
    dom_map_free(&w->map);
    yajl_gen_free(w->gen);
    yajl_tree_free(w->tree);
    peer_bytes_free(&w->text);
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
    const char *player = DM_PLAYER[m->player];
    if (!close_array(g) || !key(g, "player") || !gstr(g, player, strlen(player)) ||
        !put_opt(g, "copyright", m->copyright) || !close_map(g) || !open_array(g, "images"))
        return false;
    for (size_t i = 0; i < mc->images.count; i++) {
        const bench_image *im = &mc->images.items[i];
        if (!open_map(g) || !put_str(g, "uri", im->uri) || !put_opt(g, "title", im->title) ||
            !put_int(g, "width", im->width) || !put_int(g, "height", im->height) ||
            !key(g, "size") || !gstr(g, DM_SIZE[im->size], strlen(DM_SIZE[im->size])) ||
            !close_map(g))
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
    bool ok = w->map.mode == PEER_STREAM  ? tape_to(w, p)
              : w->map.mode != PEER_DATABIND ? false
              : w->map.model == PEER_USERS   ? users_to(w->gen, p->value)
              : w->map.model == PEER_CLIENTS ? clients_to(w->gen, p->value)
              : w->map.model == PEER_PERSON  ? person_to(w->gen, p->value)
              : w->map.model == PEER_ORDER ? order_to(w->gen, p->value)
              : w->map.model == PEER_STRUCT
                  ? struct_to(w->gen, p->value)
                  : media_to(w->gen, p->value, w->map.model == PEER_MEDIA_CONTENT);
    if (!ok)
        return -1;
    return yajl_gen_get_buf(w->gen, out, len) == yajl_gen_status_ok ? 0 : -1;
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
        char *copy = codec_arena_alloc(&w->map.arena, n + 1, 1);
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
    if (w->map.mode == PEER_VALIDATE) {
        *out = in, *len = n;
        return parse_events(w, NULL, in, n);
    }
    if (w->map.mode == PEER_STREAM) {
        *out = NULL, *len = 0;
        bench_tape_clear(&w->tape);
        codec_arena_reset(&w->map.arena);
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
    return dom_map_fill(&w->map, w->tree);
}

static int yj_matches(void *worker, const bench_payload *p)
{
    yj_worker *w = worker;
    switch (w->map.mode) {
    case PEER_STREAM: return bench_tape_equal(&w->tape, &w->ref);
    case PEER_VALIDATE: return 1;   /* the bytes it checked, compared by the harness */
    default: return peer_value_matches(p, &w->map.value);
    }
}

const bench_driver bench_peer_yajl = {
    "yajl", yj_version, yj_open, free, yj_worker_new, yj_worker_free,
    yj_encode, yj_decode, yj_matches, NULL, NULL};
