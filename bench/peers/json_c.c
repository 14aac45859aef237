/* json_c.c — peer: json-c, the bench structs mapped by hand (dom_map.h).
 * Specs (peer.h): "json" (Users, Clients and twitter too; a Clients balance
 * is a double carrying its exact text, json_object_new_double_s, and json-c
 * keeps a parsed number's text, so it is read back as written) and "dom" (a
 * json_tokener parse and the tree serialized plain).
 *
 * Encode builds a json_object tree from the C struct (the lists of Users and
 * Clients in arrays sized up front, json_object_new_array_ext) and
 * serializes it plain (no spaces, '/' not escaped); the text lives in the
 * tree, which the worker keeps until its next encode. Decode runs a reused
 * json_tokener over the bytes and fills the C struct; strings point into the
 * tree, kept until the next decode. */
#include "peer.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the mapping's calls (dom_map.h) ---- */

typedef json_object dm_node;
typedef struct {
    json_object *array;
    size_t i;
} dm_iter;
#define DM_ENCODE 1
#define DM_USERS 1
#define DM_CLIENTS 1
#define DM_TWITTER 1

/* Adds v (which may be NULL after a failed allocation) under k; the object
 * takes v's reference either way. */
static inline bool add(json_object *o, const char *k, json_object *v)
{
    if (v && json_object_object_add(o, k, v) == 0)
        return true;
    json_object_put(v);
    return false;
}

static inline bool push(json_object *a, json_object *v)
{
    if (v && json_object_array_add(a, v) == 0)
        return true;
    json_object_put(v);
    return false;
}

static inline dm_node *dm_object(void) { return json_object_new_object(); }
static inline void dm_free(dm_node *t) { json_object_put(t); }
static inline bool dm_add_str(dm_node *o, const char *k, bench_str s)
{
    return add(o, k, json_object_new_string_len(s.ptr, (int)s.len));
}
static inline bool dm_add_cstr(dm_node *o, const char *k, const char *s)
{
    return add(o, k, json_object_new_string(s));
}
static inline bool dm_add_text(dm_node *o, const char *k, const char *t, size_t n)
{
    return add(o, k, json_object_new_string_len(t, (int)n));
}
static inline bool dm_add_i32(dm_node *o, const char *k, int32_t v)
{
    return add(o, k, json_object_new_int(v));
}
static inline bool dm_add_i64(dm_node *o, const char *k, int64_t v)
{
    return add(o, k, json_object_new_int64(v));
}
static inline bool dm_add_real(dm_node *o, const char *k, double v)
{
    return add(o, k, json_object_new_double(v));
}
/* json-c prints a double with 17 significant digits: exact as it is. */
static inline bool dm_add_exact(dm_node *o, const char *k, double v)
{
    return dm_add_real(o, k, v);
}
static inline bool dm_add_bool(dm_node *o, const char *k, bool v)
{
    return add(o, k, json_object_new_boolean(v));
}
static inline bool dm_add_decimal(dm_node *o, const char *k, bench_str s)
{
    return add(o, k, json_object_new_double_s(strtod(s.ptr, NULL), s.ptr));
}
static inline dm_node *dm_add_object(dm_node *o, const char *k)
{
    json_object *v = json_object_new_object();
    return add(o, k, v) ? v : NULL;
}
static inline dm_node *dm_add_array(dm_node *o, const char *k)
{
    json_object *v = json_object_new_array();
    return add(o, k, v) ? v : NULL;
}
static inline dm_node *dm_add_array_n(dm_node *o, const char *k, size_t n)
{
    json_object *v = json_object_new_array_ext((int)n);
    return add(o, k, v) ? v : NULL;
}
static inline dm_node *dm_push_object(dm_node *a)
{
    json_object *e = json_object_new_object();
    return push(a, e) ? e : NULL;
}
static inline bool dm_push_str(dm_node *a, bench_str s)
{
    return push(a, json_object_new_string_len(s.ptr, (int)s.len));
}
static inline bool dm_push_i64(dm_node *a, int64_t v)
{
    return push(a, json_object_new_int64(v));
}

static inline dm_node *dm_get(dm_node *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) ? v : NULL;
}
static inline bool dm_is_object(dm_node *v) { return json_object_is_type(v, json_type_object); }
static inline bool dm_is_array(dm_node *v) { return json_object_is_type(v, json_type_array); }
static inline bool dm_is_string(dm_node *v) { return json_object_is_type(v, json_type_string); }
static inline bool dm_is_number(dm_node *v)
{
    return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}
static inline bool dm_is_bool(dm_node *v) { return json_object_is_type(v, json_type_boolean); }
/* A JSON null is a NULL object, absent to dm_get: null and absent
 * optionals are one case. */
static inline bool dm_is_null(dm_node *v)
{
    (void)v;
    return false;
}
static inline bench_str dm_str(dm_node *v)
{
    return (bench_str){json_object_get_string(v), (size_t)json_object_get_string_len(v)};
}
static inline double dm_double(dm_node *v) { return json_object_get_double(v); }
static inline bool dm_bool(dm_node *v) { return json_object_get_boolean(v); }
static inline bool dm_int(dm_node *v, int64_t *i)
{
    if (!json_object_is_type(v, json_type_int))
        return false;
    *i = json_object_get_int64(v);
    return true;
}
/* json-c keeps a parsed number's text: the decimal's exact form. */
static inline bool dm_decimal(codec_arena *a, dm_node *v, bench_str *s)
{
    (void)a;
    if (!dm_is_number(v))
        return false;
    const char *t = json_object_get_string(v);
    *s = (bench_str){t, strlen(t)};
    return true;
}
static inline size_t dm_len(dm_node *a) { return json_object_array_length(a); }
static inline dm_iter dm_items(dm_node *a) { return (dm_iter){a, 0}; }
static inline dm_node *dm_next(dm_iter *it)
{
    return json_object_array_get_idx(it->array, it->i++);
}

#include "dom_map.h"

/* ---- the peer ---- */

typedef struct jc_worker {
    dom_map map;
    json_object *encoded;     /* the last encoded tree (owns the text) */
    json_object *ref;         /* dom: the payload's tree, what encode serializes */
    json_tokener *tok;
    json_object *tree;        /* the last decoded document */
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
    if (!(w->tok = json_tokener_new())) {
        free(w);
        return NULL;
    }
    dom_map_init(&w->map, shared);
    return w;
}

static void jc_worker_free(void *worker)
{
    jc_worker *w = worker;
    json_object_put(w->encoded);
    json_object_put(w->tree);
    json_object_put(w->ref);
    json_tokener_free(w->tok);
    dom_map_free(&w->map);
    free(w);
}

static int jc_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    jc_worker *w = worker;
    json_object *t;
    if (w->map.mode == PEER_DOM) {
        /* the payload's tree, parsed on the first (untimed) call */
        if (!w->ref && p->len <= INT32_MAX) {
            json_tokener_reset(w->tok);
            w->ref = json_tokener_parse_ex(w->tok, (const char *)p->bytes, (int)p->len);
        }
        t = w->ref;
    } else {
        json_object_put(w->encoded);
        t = w->encoded = dom_map_tree(&w->map, p);
    }
    if (!t)
        return -1;
    *out = (const uint8_t *)json_object_to_json_string_length(
        t, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, len);
    return *out ? 0 : -1;
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
    if (w->map.mode == PEER_DOM)
        return 0;
    return dom_map_fill(&w->map, w->tree);
}

static int jc_matches(void *worker, const bench_payload *p)
{
    jc_worker *w = worker;
    if (w->map.mode == PEER_DOM)
        return json_object_equal(w->tree, w->ref);
    return peer_value_matches(p, &w->map.value);
}

const bench_driver bench_peer_json_c = {
    "json-c", jc_version, jc_open, free, jc_worker_new, jc_worker_free,
    jc_encode, jc_decode, jc_matches, NULL, NULL};
