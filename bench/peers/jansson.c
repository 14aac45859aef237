/* jansson.c — peer: Jansson, the bench structs mapped by hand (dom_map.h).
 * Specs (peer.h): "json" (Users, Clients and twitter too; Jansson has no
 * exact decimal, so a Clients balance goes through a double: json_real,
 * dumped with 17 digits, read back to its two-digit text by
 * peer_balance_from_double) and "dom" (json_loadb and json_dumpb of the
 * tree).
 *
 * Encode builds a json_t tree from the C struct and dumps it compact with
 * json_dumpb into a reused buffer (grown and redone when it did not fit),
 * then frees the tree. Decode json_loadb's the bytes into a tree and fills
 * the C struct; strings point into the tree, which the worker keeps until
 * its next decode. */
#include "peer.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the mapping's calls (dom_map.h) ---- */

typedef json_t dm_node;
typedef struct {
    json_t *array;
    size_t i;
} dm_iter;
#define DM_ENCODE 1
#define DM_USERS 1
#define DM_CLIENTS 1
#define DM_TWITTER 1

/* The *_new setters take v's reference, also when v is NULL or they fail. */
static inline bool add(json_t *o, const char *k, json_t *v)
{
    return json_object_set_new(o, k, v) == 0;
}

static inline bool push(json_t *a, json_t *v)
{
    return json_array_append_new(a, v) == 0;
}

static inline dm_node *dm_object(void) { return json_object(); }
static inline void dm_free(dm_node *t) { json_decref(t); }
static inline bool dm_add_str(dm_node *o, const char *k, bench_str s)
{
    return add(o, k, json_stringn(s.ptr, s.len));
}
static inline bool dm_add_cstr(dm_node *o, const char *k, const char *s)
{
    return add(o, k, json_string(s));
}
static inline bool dm_add_text(dm_node *o, const char *k, const char *t, size_t n)
{
    return add(o, k, json_stringn(t, n));
}
static inline bool dm_add_i32(dm_node *o, const char *k, int32_t v)
{
    return add(o, k, json_integer(v));
}
static inline bool dm_add_i64(dm_node *o, const char *k, int64_t v)
{
    return add(o, k, json_integer(v));
}
static inline bool dm_add_real(dm_node *o, const char *k, double v)
{
    return add(o, k, json_real(v));
}
/* Jansson dumps a double with 17 significant digits: exact as it is. */
static inline bool dm_add_exact(dm_node *o, const char *k, double v)
{
    return dm_add_real(o, k, v);
}
static inline bool dm_add_bool(dm_node *o, const char *k, bool v)
{
    return add(o, k, json_boolean(v));
}
static inline bool dm_add_decimal(dm_node *o, const char *k, bench_str s)
{
    return add(o, k, json_real(strtod(s.ptr, NULL)));
}
static inline dm_node *dm_add_object(dm_node *o, const char *k)
{
    json_t *v = json_object();
    return add(o, k, v) ? v : NULL;
}
static inline dm_node *dm_add_array(dm_node *o, const char *k)
{
    json_t *v = json_array();
    return add(o, k, v) ? v : NULL;
}
static inline dm_node *dm_add_array_n(dm_node *o, const char *k, size_t n)
{
    (void)n;   /* Jansson's arrays cannot be sized up front */
    return dm_add_array(o, k);
}
static inline dm_node *dm_push_object(dm_node *a)
{
    json_t *e = json_object();
    return push(a, e) ? e : NULL;
}
static inline bool dm_push_str(dm_node *a, bench_str s)
{
    return push(a, json_stringn(s.ptr, s.len));
}
static inline bool dm_push_i64(dm_node *a, int64_t v) { return push(a, json_integer(v)); }

/* json-c exports a json_object_get too (its reference count increment), and
 * codec-bench links both libraries: the symbol would bind to whichever comes
 * first, so look members up through json_object_getn (Jansson 2.14+), which
 * only Jansson defines. */
static inline dm_node *dm_get(dm_node *o, const char *k)
{
    return json_object_getn(o, k, strlen(k));
}
static inline bool dm_is_object(dm_node *v) { return json_is_object(v); }
static inline bool dm_is_array(dm_node *v) { return json_is_array(v); }
static inline bool dm_is_string(dm_node *v) { return json_is_string(v); }
static inline bool dm_is_number(dm_node *v) { return json_is_number(v); }
static inline bool dm_is_bool(dm_node *v) { return json_is_boolean(v); }
static inline bool dm_is_null(dm_node *v) { return json_is_null(v); }
static inline bench_str dm_str(dm_node *v)
{
    return (bench_str){json_string_value(v), json_string_length(v)};
}
static inline double dm_double(dm_node *v) { return json_number_value(v); }
static inline bool dm_bool(dm_node *v) { return json_is_true(v); }
static inline bool dm_int(dm_node *v, int64_t *i)
{
    if (!json_is_integer(v))
        return false;
    *i = json_integer_value(v);
    return true;
}
/* The balance's two-digit text, from the double Jansson kept. */
static inline bool dm_decimal(codec_arena *a, dm_node *v, bench_str *s)
{
    char t[48];
    size_t n;
    char *text;
    if (!json_is_number(v) ||
        (n = peer_balance_from_double(json_number_value(v), t, sizeof t)) == 0 ||
        !(text = codec_arena_alloc(a, n + 1, 1)))
        return false;
    memcpy(text, t, n + 1);
    *s = (bench_str){text, n};
    return true;
}
static inline size_t dm_len(dm_node *a) { return json_array_size(a); }
static inline dm_iter dm_items(dm_node *a) { return (dm_iter){a, 0}; }
static inline dm_node *dm_next(dm_iter *it) { return json_array_get(it->array, it->i++); }

#include "dom_map.h"

/* ---- the peer ---- */

typedef struct ja_worker {
    dom_map map;
    peer_bytes out;
    json_t *tree;             /* the last decoded document */
    json_t *ref;              /* dom: the payload's tree, what encode dumps */
} ja_worker;

static const char *ja_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "Jansson %s", jansson_version_str());
    return v;
}

static void *ja_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_json_open(spec, p, "Jansson",
                          PEER_CAN_USERS | PEER_CAN_CLIENTS | PEER_CAN_TWITTER | PEER_CAN_DOM,
                          NULL, why, cap);
}

static void *ja_worker_new(void *shared)
{
    ja_worker *w = calloc(1, sizeof *w);
    if (w)
        dom_map_init(&w->map, shared);
    return w;
}

static void ja_worker_free(void *worker)
{
    ja_worker *w = worker;
    json_decref(w->tree);
    json_decref(w->ref);
    dom_map_free(&w->map);
    peer_bytes_free(&w->out);
    free(w);
}

static int ja_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    ja_worker *w = worker;
    json_t *t;
    if (w->map.mode == PEER_DOM) {
        /* the payload's tree, parsed on the first (untimed) call */
        if (!w->ref)
            w->ref = json_loadb((const char *)p->bytes, p->len, 0, NULL);
        t = json_incref(w->ref);
    } else {
        t = dom_map_tree(&w->map, p);
    }
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

static int ja_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    ja_worker *w = worker;
    json_decref(w->tree);
    w->tree = json_loadb((const char *)in, n, 0, NULL);
    *out = NULL, *len = 0;
    if (w->map.mode == PEER_DOM)
        return w->tree ? 0 : -1;
    return dom_map_fill(&w->map, w->tree);
}

static int ja_matches(void *worker, const bench_payload *p)
{
    ja_worker *w = worker;
    if (w->map.mode == PEER_DOM)
        return json_equal(w->tree, w->ref);
    return peer_value_matches(p, &w->map.value);
}

const bench_driver bench_peer_jansson = {
    "jansson", ja_version, ja_open, free, ja_worker_new, ja_worker_free,
    ja_encode, ja_decode, ja_matches, NULL, NULL};
