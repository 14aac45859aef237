/* cjson.c — peer: cJSON, the bench structs mapped by hand (dom_map.h).
 * Specs (peer.h): "json" (Users too, their doubles printed exactly:
 * dm_add_exact; not Clients nor twitter: cJSON keeps every number as a
 * double, and their 63- and 60-bit ids do not survive that) and "dom"
 * (cJSON_ParseWithLength and cJSON_PrintPreallocated of the tree).
 *
 * Encode builds a cJSON tree from the C struct and prints it unformatted
 * into a reused buffer (cJSON_PrintPreallocated), then frees the tree: the
 * work a cJSON user does per value. Decode parses into a tree and fills the
 * same C struct; strings point into the tree, which the worker keeps until
 * its next decode (codec copies them into its arena instead, one block per
 * decode). Arrays are walked along their linked lists. */
#include "peer.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the mapping's calls (dom_map.h) ---- */

typedef cJSON dm_node;
typedef cJSON *dm_iter;
#define DM_ENCODE 1
#define DM_USERS 1
#define DM_CLIENTS 0
#define DM_TWITTER 0

/* bench strings are NUL-terminated (models.h), as cJSON needs. Numbers are
 * doubles. The cJSON_Add*ToObject calls create the member and add it, and
 * free it when adding fails. */
static inline dm_node *dm_object(void) { return cJSON_CreateObject(); }
static inline void dm_free(dm_node *t) { cJSON_Delete(t); }
static inline bool dm_add_str(dm_node *o, const char *k, bench_str s)
{
    return cJSON_AddStringToObject(o, k, s.ptr) != NULL;
}
static inline bool dm_add_cstr(dm_node *o, const char *k, const char *s)
{
    return cJSON_AddStringToObject(o, k, s) != NULL;
}
static inline bool dm_add_real(dm_node *o, const char *k, double v)
{
    return cJSON_AddNumberToObject(o, k, v) != NULL;
}
static inline bool dm_add_i32(dm_node *o, const char *k, int32_t v) { return dm_add_real(o, k, v); }
static inline bool dm_add_i64(dm_node *o, const char *k, int64_t v)
{
    return dm_add_real(o, k, (double)v);
}
static inline bool dm_add_bool(dm_node *o, const char *k, bool v)
{
    return cJSON_AddBoolToObject(o, k, v) != NULL;
}
/* cJSON prints a double with 15 significant digits whenever they read back
 * within an epsilon of it, which loses the last bits of most coordinates:
 * Users' doubles go in as raw 17-digit text instead, which reads back exact. */
static inline bool dm_add_exact(dm_node *o, const char *k, double v)
{
    char t[32];
    snprintf(t, sizeof t, "%.17g", v);
    return cJSON_AddRawToObject(o, k, t) != NULL;
}
static inline dm_node *dm_add_object(dm_node *o, const char *k)
{
    return cJSON_AddObjectToObject(o, k);
}
static inline dm_node *dm_add_array(dm_node *o, const char *k)
{
    return cJSON_AddArrayToObject(o, k);
}
static inline dm_node *dm_add_array_n(dm_node *o, const char *k, size_t n)
{
    (void)n;   /* a linked list: nothing to size */
    return cJSON_AddArrayToObject(o, k);
}
static inline dm_node *dm_push_object(dm_node *a)
{
    cJSON *e = cJSON_CreateObject();
    return e && cJSON_AddItemToArray(a, e) ? e : NULL;
}
static inline bool dm_push_str(dm_node *a, bench_str s)
{
    return cJSON_AddItemToArray(a, cJSON_CreateString(s.ptr));
}

static inline dm_node *dm_get(dm_node *o, const char *k)
{
    return cJSON_GetObjectItemCaseSensitive(o, k);
}
static inline bool dm_is_object(dm_node *v) { return cJSON_IsObject(v); }
static inline bool dm_is_array(dm_node *v) { return cJSON_IsArray(v); }
static inline bool dm_is_string(dm_node *v) { return cJSON_IsString(v); }
static inline bool dm_is_number(dm_node *v) { return cJSON_IsNumber(v); }
static inline bool dm_is_bool(dm_node *v) { return cJSON_IsBool(v); }
static inline bench_str dm_str(dm_node *v)
{
    return (bench_str){v->valuestring, strlen(v->valuestring)};
}
static inline double dm_double(dm_node *v) { return v->valuedouble; }
static inline bool dm_bool(dm_node *v) { return cJSON_IsTrue(v); }
/* An integer is a double in int64_t's range (cJSON has no other kind). */
static inline bool dm_int(dm_node *v, int64_t *i)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < -0x1p63 || v->valuedouble >= 0x1p63)
        return false;
    *i = (int64_t)v->valuedouble;
    return true;
}
static inline size_t dm_len(dm_node *a) { return (size_t)cJSON_GetArraySize(a); }
static inline dm_iter dm_items(dm_node *a) { return a->child; }
static inline dm_node *dm_next(dm_iter *it)
{
    cJSON *e = *it;
    *it = e->next;
    return e;
}

#include "dom_map.h"

/* ---- the peer ---- */

typedef struct cj_worker {
    dom_map map;
    peer_bytes out;
    cJSON *tree;              /* the last decoded document */
    cJSON *ref;               /* dom: the payload's tree, what encode prints */
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
    if (w)
        dom_map_init(&w->map, shared);
    return w;
}

static void cj_worker_free(void *worker)
{
    cj_worker *w = worker;
    cJSON_Delete(w->tree);
    cJSON_Delete(w->ref);
    dom_map_free(&w->map);
    peer_bytes_free(&w->out);
    free(w);
}

/* The tree encode prints: built from the C value, or (dom) the payload's
 * own tree, parsed on the first call and kept (*owned false). */
static cJSON *tree_of(cj_worker *w, const bench_payload *p, bool *owned)
{
    *owned = w->map.mode != PEER_DOM;
    if (*owned)
        return dom_map_tree(&w->map, p);
    if (!w->ref)
        w->ref = cJSON_ParseWithLength((const char *)p->bytes, p->len);
    return w->ref;
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

static int cj_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                     size_t *len)
{
    cj_worker *w = worker;
    cJSON_Delete(w->tree);
    w->tree = cJSON_ParseWithLength((const char *)in, n);
    *out = NULL, *len = 0;
    if (w->map.mode == PEER_DOM)
        return w->tree ? 0 : -1;
    return dom_map_fill(&w->map, w->tree);
}

static int cj_matches(void *worker, const bench_payload *p)
{
    cj_worker *w = worker;
    if (w->map.mode == PEER_DOM)
        return cJSON_Compare(w->tree, w->ref, true);
    return peer_value_matches(p, &w->map.value);
}

const bench_driver bench_peer_cjson = {
    "cjson", cj_version, cj_open, free, cj_worker_new, cj_worker_free,
    cj_encode, cj_decode, cj_matches, NULL, NULL};
