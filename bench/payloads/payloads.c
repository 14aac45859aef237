/* payloads.c — generates the payloads of PAYLOADS.md byte for byte and
 * renders the C values as compact JSON. */
#include "payloads.h"

#include "jrandom.h"
#include "json_out.h"

#include "codec/json.h"
#include "models_types.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const WORDS[36] = {
    "codec", "encode", "decode", "payload", "stream", "buffer", "byte", "frame", "block",
    "cache", "queue", "record", "field", "value", "compress", "encrypt", "wrap", "key",
    "nonce", "tag", "header", "version", "format", "text", "binary", "the", "of", "and",
    "with", "into", "from", "over", "under", "between", "before", "after"};

#define MAX_PAYLOADS 32

static struct {
    int ready;
    codec_arena arena;             /* every value, string and rendering */
    bench_payload list[MAX_PAYLOADS];
    size_t count;
} g;

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static void *take(size_t n)
{
    return codec_arena_alloc(&g.arena, n ? n : 1, 0);
}

/* Initialisers for static data, and STR() for expressions. */
#define S_(lit) {(lit), sizeof(lit) - 1}
#define OPT_(lit) {true, S_(lit)}
#define NONE_ {false, {NULL, 0}}
#define STR(lit) ((bench_str)S_(lit))

static bench_str str_of(const char *s)
{
    return (bench_str){s, strlen(s)};
}

/* A copy in the arena (NUL-terminated too); ptr NULL when out of memory. */
static bench_str keep(const char *s, size_t n)
{
    char *d = take(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return (bench_str){d, n};
}

static bench_str keepf(const char *fmt, long long v)
{
    char t[64];
    int n = snprintf(t, sizeof t, fmt, v);
    return keep(t, (size_t)n);
}

static bench_str rand_from(jrandom *r, const char *alphabet, size_t n)
{
    char *d = take(n + 1);
    if (!d)
        return (bench_str){NULL, 0};
    int32_t k = (int32_t)strlen(alphabet);
    for (size_t i = 0; i < n; i++)
        d[i] = alphabet[jrandom_next_int(r, k)];
    d[n] = 0;
    return (bench_str){d, n};
}

static void jstr(json_out *j, bench_str s)
{
    jo_string_n(j, s.ptr, s.len);
}

/* Sets list.count to n (evaluated once) and gives it items in the arena;
 * yields NULL when out of memory. */
#define NEW_LIST(list, n) \
    ((list).count = (n), (list).items = take((list).count * sizeof *(list).items), (list).items)

static const char ALNUM[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
static const char LETTERS[] = "abcdefghijklmnopqrstuvwxyz";
static const char DIGITS[] = "0123456789";

static int64_t next_long_nonneg(jrandom *r)
{
    int64_t hi = jrandom_next(r, 31);   /* sequenced: the draws' order is the value */
    return (hi << 32) | (uint32_t)jrandom_next(r, 32);
}

/* Copies a rendering into the arena so the payload owns it. */
static int finish_bytes(bench_payload *p, codec_buf *b)
{
    uint8_t *d = take(b->len);
    if (!d)
        return -1;
    memcpy(d, b->data, b->len);
    p->bytes = d;
    p->len = b->len;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Transform payloads (§1)
 * ------------------------------------------------------------------------ */

int bench_gen_json(int records, codec_buf *out)
{
    jrandom r;
    jrandom_seed(&r, 42);
    size_t start = out->len;
    char rec[512];
    if (codec_buf_append(out, "[", 1) != 0)
        return CODEC_E_NOMEM;
    for (int i = 0; i < records; i++) {
        const char *w1 = WORDS[jrandom_next_int(&r, 36)];
        const char *w2 = WORDS[jrandom_next_int(&r, 36)];
        int age = 20 + jrandom_next_int(&r, 50);
        int active = jrandom_next_bool(&r);
        int whole = jrandom_next_int(&r, 100000);
        int frac = jrandom_next_int(&r, 100);
        int n = snprintf(rec, sizeof rec,
                         "%s{\"id\":%d,\"name\":\"%s %s\",\"age\":%d,\"active\":%s,"
                         "\"email\":\"user%d@example.com\",\"balance\":%d.%d}",
                         i ? "," : "", 1000 + i, w1, w2, age, active ? "true" : "false", i,
                         whole, frac);
        if (codec_buf_append(out, rec, (size_t)n) != 0) {
            out->len = start;
            return CODEC_E_NOMEM;
        }
    }
    if (codec_buf_append(out, "]", 1) != 0) {
        out->len = start;
        return CODEC_E_NOMEM;
    }
    return 0;
}

int bench_gen_prose(size_t size, codec_buf *out)
{
    jrandom r;
    jrandom_seed(&r, 7);
    size_t start = out->len;
    if (codec_buf_reserve(out, size + 32) != 0)
        return CODEC_E_NOMEM;
    while (out->len - start < size) {
        const char *w = WORDS[jrandom_next_int(&r, 36)];
        size_t n = strlen(w);
        /* reserve() above plus this bound keeps appends from failing */
        if (codec_buf_append(out, w, n) != 0 || codec_buf_append(out, " ", 1) != 0)
            goto nomem;
        if (jrandom_next_int(&r, 12) == 0 && codec_buf_append(out, ". ", 2) != 0)
            goto nomem;
    }
    out->len = start + size;
    return 0;
nomem:
    out->len = start;
    return CODEC_E_NOMEM;
}

/* Repetitive service log lines: a handful of templates, ids that count up. */
static int gen_log_lines(size_t size, codec_buf *out)
{
    static const char *const LEVEL[] = {"INFO", "INFO", "INFO", "DEBUG", "WARN"};
    static const char *const WHAT[] = {"GET /api/v1/orders", "GET /api/v1/users",
                                       "POST /api/v1/orders", "GET /health"};
    jrandom r;
    jrandom_seed(&r, BENCH_SEED);
    size_t start = out->len;
    char line[160];
    for (int i = 0; out->len - start < size; i++) {
        /* Drawn last field first: the order gcc evaluated the arguments of
         * the snprintf these once were, which the pinned bytes keep. */
        int ms = jrandom_next_int(&r, 50), bytes = 200 + jrandom_next_int(&r, 4000);
        const char *what = WHAT[jrandom_next_int(&r, 4)];
        int worker = jrandom_next_int(&r, 8);
        const char *level = LEVEL[jrandom_next_int(&r, 5)];
        int n = snprintf(line, sizeof line,
                         "2026-08-11T10:%02d:%02d.%03dZ %-5s [worker-%d] %s status=200 "
                         "bytes=%d ms=%d\n",
                         (i / 600) % 60, (i / 10) % 60, (i % 10) * 100, level, worker, what,
                         bytes, ms);
        if (codec_buf_append(out, line, (size_t)n) != 0) {
            out->len = start;
            return CODEC_E_NOMEM;
        }
    }
    out->len = start + size;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Backend payloads (§2) and their JSON
 * ------------------------------------------------------------------------ */

static const bench_person PERSON = {S_("Ada Lovelace"), 36, true, S_("ada@example.com")};

static void render_person(json_out *j, const void *v)
{
    const bench_person *p = v;
    jo_begin_object(j);
    jo_key(j, "name"), jstr(j, p->name);
    jo_key(j, "age"), jo_int(j, p->age);
    jo_key(j, "active"), jo_bool(j, p->active);
    jo_key(j, "email"), jstr(j, p->email);
    jo_end_object(j);
}

static bench_order *gen_order(void)
{
    bench_order *o = take(sizeof *o);
    if (!o || !NEW_LIST(o->items, 100))
        return NULL;
    bench_line_item *items = o->items.items;
    jrandom r;
    jrandom_seed(&r, 99);
    for (int i = 0; i < 100; i++) {
        bench_line_item *it = &items[i];
        it->sku = keepf("SKU-%lld", 10000 + jrandom_next_int(&r, 90000));
        char d[64];
        char model = (char)('A' + jrandom_next_int(&r, 26));
        int size = jrandom_next_int(&r, 50);
        int n = snprintf(d, sizeof d, "Widget model %c size %d", model, size);
        it->description = keep(d, (size_t)n);
        it->quantity = 1 + jrandom_next_int(&r, 20);
        it->unit_price = (double)jrandom_math_round(jrandom_next_double(&r) * 10000) / 100.0;
        if (!it->sku.ptr || !it->description.ptr)
            return NULL;
    }
    o->id = STR("ord-2026-000123");
    o->customer = STR("Ada Lovelace");
    o->paid = true;
    return o;
}

static void render_order(json_out *j, const void *v)
{
    const bench_order *o = v;
    jo_begin_object(j);
    jo_key(j, "id"), jstr(j, o->id);
    jo_key(j, "customer"), jstr(j, o->customer);
    jo_key(j, "paid"), jo_bool(j, o->paid);
    jo_key(j, "items"), jo_begin_array(j);
    for (size_t i = 0; i < o->items.count; i++) {
        const bench_line_item *it = &o->items.items[i];
        jo_begin_object(j);
        jo_key(j, "sku"), jstr(j, it->sku);
        jo_key(j, "description"), jstr(j, it->description);
        jo_key(j, "quantity"), jo_int(j, it->quantity);
        jo_key(j, "unitPrice"), jo_double(j, it->unit_price);
        jo_end_object(j);
    }
    jo_end_array(j);
    jo_end_object(j);
}

/* ---------------------------------------------------------------------------
 * Classic serializer objects (§4)
 * ------------------------------------------------------------------------ */

static bench_str ITEM_PERSONS[] = {S_("Bill Gates"), S_("Steve Jobs")};
static bench_image ITEM_IMAGES[] = {
    {S_("http://javaone.com/keynote_large.jpg"), OPT_("Javaone Keynote"), 1024, 768,
     BENCH_SIZE_LARGE},
    {S_("http://javaone.com/keynote_small.jpg"), OPT_("Javaone Keynote"), 320, 240,
     BENCH_SIZE_SMALL}};
static const bench_media_content MEDIA_ITEM = {
    {S_("http://javaone.com/keynote.mpg"), OPT_("Javaone Keynote"), 640, 480,
     S_("video/mpg4"), 18000000, 58982400, 262144, true, {ITEM_PERSONS, 2},
     BENCH_PLAYER_JAVA, OPT_("None")},
    {ITEM_IMAGES, 2}};

static bench_str CONTENT_PERSONS[] = {S_("Bill Gates, Jr."), S_("Steven Jobs")};
static bench_image CONTENT_IMAGES[] = {
    {S_("http://javaone.com/keynote_huge.jpg"), OPT_("Javaone Keynote\xe1\x88\xb4"), 32000,
     24000, BENCH_SIZE_LARGE},
    {S_("http://javaone.com/keynote_large.jpg"), NONE_, 1024, 768, BENCH_SIZE_LARGE},
    {S_("http://javaone.com/keynote_small.jpg"), NONE_, 320, 240, BENCH_SIZE_SMALL}};
static const bench_media_content MEDIA_CONTENT = {
    {S_("http://javaone.com/keynote.ogg"), NONE_, 641, 481, S_("video/theora\xe1\x88\xb4"),
     18000001, 58982401, 0, false, {CONTENT_PERSONS, 2}, BENCH_PLAYER_FLASH,
     OPT_("Copyright (c) 2009, Scooby Dooby Doo")},
    {CONTENT_IMAGES, 3}};

static const bench_struct STRUCT = {10, 2, 3, 34, 400, 5, 50, 5788,
                                    6, 67, 7, 78, 8, 88, 98, 90};

/* Absent optional fields are left out of the JSON. */
static void opt_string(json_out *j, const char *key, bench_opt_str s)
{
    if (s.has)
        jo_key(j, key), jstr(j, s.value);
}

static void render_media_common(json_out *j, const bench_media_content *m, bool has_bitrate)
{
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
    const bench_media *md = &m->media;
    jo_begin_object(j);
    jo_key(j, "media"), jo_begin_object(j);
    jo_key(j, "uri"), jstr(j, md->uri);
    opt_string(j, "title", md->title);
    jo_key(j, "width"), jo_int(j, md->width);
    jo_key(j, "height"), jo_int(j, md->height);
    jo_key(j, "format"), jstr(j, md->format);
    jo_key(j, "duration"), jo_int(j, md->duration);
    jo_key(j, "size"), jo_int(j, md->size);
    jo_key(j, "bitrate"), jo_int(j, md->bitrate);
    if (has_bitrate)
        jo_key(j, "hasBitrate"), jo_bool(j, md->has_bitrate);
    jo_key(j, "persons"), jo_begin_array(j);
    for (size_t i = 0; i < md->persons.count; i++)
        jstr(j, md->persons.items[i]);
    jo_end_array(j);
    jo_key(j, "player"), jo_string(j, PLAYER[md->player]);
    opt_string(j, "copyright", md->copyright);
    jo_end_object(j);
    jo_key(j, "images"), jo_begin_array(j);
    for (size_t i = 0; i < m->images.count; i++) {
        const bench_image *im = &m->images.items[i];
        jo_begin_object(j);
        jo_key(j, "uri"), jstr(j, im->uri);
        opt_string(j, "title", im->title);
        jo_key(j, "width"), jo_int(j, im->width);
        jo_key(j, "height"), jo_int(j, im->height);
        jo_key(j, "size"), jo_string(j, SIZE[im->size]);
        jo_end_object(j);
    }
    jo_end_array(j);
    jo_end_object(j);
}

static void render_media_item(json_out *j, const void *v)
{
    render_media_common(j, v, false);
}

static void render_media_content(json_out *j, const void *v)
{
    render_media_common(j, v, true);
}

static void render_struct(json_out *j, const void *v)
{
    const bench_struct *s = v;
    jo_begin_object(j);
    jo_key(j, "f1"), jo_int(j, s->f1);
    jo_key(j, "f2"), jo_int(j, s->f2);
    jo_key(j, "f3"), jo_int(j, s->f3);
    jo_key(j, "f4"), jo_int(j, s->f4);
    jo_key(j, "f5"), jo_float(j, s->f5);
    jo_key(j, "f6"), jo_float(j, s->f6);
    jo_key(j, "f7"), jo_double(j, s->f7);
    jo_key(j, "f8"), jo_double(j, s->f8);
    jo_key(j, "f9"), jo_int(j, s->f9);
    jo_key(j, "f10"), jo_int(j, s->f10);
    jo_key(j, "f11"), jo_int(j, s->f11);
    jo_key(j, "f12"), jo_int(j, s->f12);
    jo_key(j, "f13"), jo_float(j, s->f13);
    jo_key(j, "f14"), jo_float(j, s->f14);
    jo_key(j, "f15"), jo_double(j, s->f15);
    jo_key(j, "f16"), jo_double(j, s->f16);
    jo_end_object(j);
}

/* ---------------------------------------------------------------------------
 * Key-value shapes (§3); all drawn from Random(BENCH_SEED) in this order.
 * ------------------------------------------------------------------------ */

static const int64_t KV_INT64 = 1786406400123;  /* a millisecond timestamp */

static int gen_kv_bean(jrandom *r, bench_kv_bean *b, int i)
{
    char name[64];
    /* the second word first: see gen_log_lines */
    const char *second = WORDS[jrandom_next_int(r, 36)];
    snprintf(name, sizeof name, "%s %s", WORDS[jrandom_next_int(r, 36)], second);
    b->id = keepf("bean-%06lld", i);
    b->name = keep(name, strlen(name));
    b->count = jrandom_next_int(r, 1000);
    b->created = 1786406400000 + jrandom_next_int(r, 1000000000);
    b->enabled = jrandom_next_bool(r);
    b->score = (double)jrandom_math_round(jrandom_next_double(r) * 10000) / 100.0;
    return b->id.ptr && b->name.ptr ? 0 : -1;
}

static void render_kv_bean_fields(json_out *j, const bench_kv_bean *b)
{
    jo_begin_object(j);
    jo_key(j, "id"), jstr(j, b->id);
    jo_key(j, "name"), jstr(j, b->name);
    jo_key(j, "count"), jo_int(j, b->count);
    jo_key(j, "created"), jo_int(j, b->created);
    jo_key(j, "enabled"), jo_bool(j, b->enabled);
    jo_key(j, "score"), jo_double(j, b->score);
    jo_end_object(j);
}

static void render_kv_int64(json_out *j, const void *v)
{
    jo_int(j, *(const int64_t *)v);
}

static void render_kv_string(json_out *j, const void *v)
{
    jstr(j, *(const bench_str *)v);
}

static void render_kv_bean(json_out *j, const void *v)
{
    render_kv_bean_fields(j, v);
}

static bench_kv_nested *gen_kv_nested(jrandom *r)
{
    bench_kv_nested *n = take(sizeof *n);
    if (!n || !NEW_LIST(n->tags, 8) || !NEW_LIST(n->history, 16))
        return NULL;
    n->attrs.count = 6;
    n->attrs.keys = take(6 * sizeof *n->attrs.keys);
    n->attrs.values = take(6 * sizeof *n->attrs.values);
    if (!n->attrs.keys || !n->attrs.values)
        return NULL;
    n->id = STR("graph-000001");
    if (gen_kv_bean(r, &n->owner, 1) != 0)
        return NULL;
    for (int i = 0; i < 8; i++)
        n->tags.items[i] = str_of(WORDS[jrandom_next_int(r, 36)]);
    for (int i = 0; i < 16; i++)
        n->history.items[i] = 1786406400000 + (int64_t)i * 60000 + jrandom_next_int(r, 60000);
    for (int i = 0; i < 6; i++) {
        if (!(n->attrs.keys[i] = keepf("attr%lld", i)).ptr)
            return NULL;
        n->attrs.values[i] = str_of(WORDS[jrandom_next_int(r, 36)]);
    }
    return n;
}

static void render_kv_nested(json_out *j, const void *v)
{
    const bench_kv_nested *n = v;
    jo_begin_object(j);
    jo_key(j, "id"), jstr(j, n->id);
    jo_key(j, "owner"), render_kv_bean_fields(j, &n->owner);
    jo_key(j, "tags"), jo_begin_array(j);
    for (size_t i = 0; i < n->tags.count; i++)
        jstr(j, n->tags.items[i]);
    jo_end_array(j);
    jo_key(j, "history"), jo_begin_array(j);
    for (size_t i = 0; i < n->history.count; i++)
        jo_int(j, n->history.items[i]);
    jo_end_array(j);
    jo_key(j, "attrs"), jo_begin_object(j);
    for (size_t i = 0; i < n->attrs.count; i++)
        jo_key_n(j, n->attrs.keys[i].ptr, n->attrs.keys[i].len), jstr(j, n->attrs.values[i]);
    jo_end_object(j);
    jo_end_object(j);
}

/* A list of `count` strings: a word, a dash and a number below 100,000. */
static bench_kv_strings *gen_kv_strings(jrandom *r, size_t count)
{
    bench_kv_strings *s = take(sizeof *s);
    if (!s || !NEW_LIST(s->items, count))
        return NULL;
    for (size_t i = 0; i < count; i++) {
        char t[48];
        const char *w = WORDS[jrandom_next_int(r, 36)];
        int n = snprintf(t, sizeof t, "%s-%d", w, jrandom_next_int(r, 100000));
        if (!(s->items.items[i] = keep(t, (size_t)n)).ptr)
            return NULL;
    }
    return s;
}

static void render_kv_strings(json_out *j, const void *v)
{
    const bench_kv_strings *s = v;
    jo_begin_array(j);
    for (size_t i = 0; i < s->items.count; i++)
        jstr(j, s->items.items[i]);
    jo_end_array(j);
}

static bench_kv_bean_map *gen_kv_bean_map(jrandom *r, size_t count)
{
    bench_kv_bean_map *m = take(sizeof *m);
    if (!m)
        return NULL;
    m->beans.count = count;
    m->beans.keys = take(count * sizeof *m->beans.keys);
    m->beans.values = take(count * sizeof *m->beans.values);
    if (!m->beans.keys || !m->beans.values)
        return NULL;
    for (size_t i = 0; i < count; i++) {
        if (gen_kv_bean(r, &m->beans.values[i], (int)i + 100) != 0)
            return NULL;
        m->beans.keys[i] = m->beans.values[i].id;
    }
    return m;
}

static void render_kv_bean_map(json_out *j, const void *v)
{
    const bench_kv_bean_map *m = v;
    jo_begin_object(j);
    for (size_t i = 0; i < m->beans.count; i++)
        jo_key_n(j, m->beans.keys[i].ptr, m->beans.keys[i].len), render_kv_bean_fields(j, &m->beans.values[i]);
    jo_end_object(j);
}

/* 1,024 strings of 64 random letters; its bytes are the strings back to
 * back (65,536 bytes, log2(26) = 4.7 bits of entropy per byte). */
static bench_kv_strings *gen_kv_letters(jrandom *r, codec_buf *bytes)
{
    bench_kv_strings *s = take(sizeof *s);
    if (!s || !NEW_LIST(s->items, 1024))
        return NULL;
    for (size_t i = 0; i < 1024; i++) {
        bench_str w = rand_from(r, LETTERS, 64);
        if (!w.ptr || codec_buf_append(bytes, w.ptr, w.len) != 0)
            return NULL;
        s->items.items[i] = w;
    }
    return s;
}

/* ---------------------------------------------------------------------------
 * java-json-benchmark models (§5)
 * ------------------------------------------------------------------------ */

static int gen_user(jrandom *r, bench_user *u, int index)
{
    u->_id = rand_from(r, DIGITS, 20);
    u->index = index;
    u->guid = rand_from(r, ALNUM, 20);
    u->is_active = jrandom_next_bool(r);
    u->balance = rand_from(r, ALNUM, 20);
    u->picture = rand_from(r, ALNUM, 100);
    u->age = jrandom_next_int(r, 100);
    bench_str *s[] = {&u->eye_color, &u->name,    &u->gender, &u->company, &u->email,
                      &u->phone,     &u->address, &u->about,  &u->registered};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (!(*s[i] = rand_from(r, ALNUM, 20)).ptr)
            return -1;
    u->latitude = jrandom_next_double(r) * 90;
    u->longitude = jrandom_next_double(r) * 180;
    if (!NEW_LIST(u->tags, (size_t)jrandom_next_int(r, 50)))
        return -1;
    for (size_t i = 0; i < u->tags.count; i++)
        if (!(u->tags.items[i] = rand_from(r, ALNUM, 10)).ptr)
            return -1;
    if (!NEW_LIST(u->friends, (size_t)jrandom_next_int(r, 50)))
        return -1;
    for (size_t i = 0; i < u->friends.count; i++) {
        bench_friend *f = &u->friends.items[i];
        f->id = keepf("%lld", jrandom_next_int(r, 10000));
        f->name = rand_from(r, LETTERS, 30);
        if (!f->id.ptr || !f->name.ptr)
            return -1;
    }
    u->greeting = rand_from(r, ALNUM, 20);
    u->favorite_fruit = rand_from(r, ALNUM, 20);
    return u->_id.ptr && u->guid.ptr && u->balance.ptr && u->picture.ptr && u->greeting.ptr &&
                   u->favorite_fruit.ptr
               ? 0
               : -1;
}

static void render_user(json_out *j, const bench_user *u)
{
    jo_begin_object(j);
    jo_key(j, "_id"), jstr(j, u->_id);
    jo_key(j, "index"), jo_int(j, u->index);
    jo_key(j, "guid"), jstr(j, u->guid);
    jo_key(j, "isActive"), jo_bool(j, u->is_active);
    jo_key(j, "balance"), jstr(j, u->balance);
    jo_key(j, "picture"), jstr(j, u->picture);
    jo_key(j, "age"), jo_int(j, u->age);
    jo_key(j, "eyeColor"), jstr(j, u->eye_color);
    jo_key(j, "name"), jstr(j, u->name);
    jo_key(j, "gender"), jstr(j, u->gender);
    jo_key(j, "company"), jstr(j, u->company);
    jo_key(j, "email"), jstr(j, u->email);
    jo_key(j, "phone"), jstr(j, u->phone);
    jo_key(j, "address"), jstr(j, u->address);
    jo_key(j, "about"), jstr(j, u->about);
    jo_key(j, "registered"), jstr(j, u->registered);
    jo_key(j, "latitude"), jo_double(j, u->latitude);
    jo_key(j, "longitude"), jo_double(j, u->longitude);
    jo_key(j, "tags"), jo_begin_array(j);
    for (size_t i = 0; i < u->tags.count; i++)
        jstr(j, u->tags.items[i]);
    jo_end_array(j);
    jo_key(j, "friends"), jo_begin_array(j);
    for (size_t i = 0; i < u->friends.count; i++) {
        jo_begin_object(j);
        jo_key(j, "id"), jstr(j, u->friends.items[i].id);
        jo_key(j, "name"), jstr(j, u->friends.items[i].name);
        jo_end_object(j);
    }
    jo_end_array(j);
    jo_key(j, "greeting"), jstr(j, u->greeting);
    jo_key(j, "favoriteFruit"), jstr(j, u->favorite_fruit);
    jo_end_object(j);
}

/* Days since 1970-01-01 from a civil date, and back (Howard Hinnant's
 * algorithms, proleptic Gregorian). */
static int32_t days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400;
    int yoe = y - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

static int gen_client(jrandom *r, bench_client *c, int index)
{
    c->_id = next_long_nonneg(r);
    c->index = index;
    for (int i = 0; i < 16; i += 4) {
        uint32_t w = (uint32_t)jrandom_next(r, 32);
        memcpy(&c->guid.bytes[i], &w, 4);
    }
    c->guid.bytes[6] = (uint8_t)((c->guid.bytes[6] & 0x0f) | 0x40); /* version 4 */
    c->guid.bytes[8] = (uint8_t)((c->guid.bytes[8] & 0x3f) | 0x80); /* RFC 9562 variant */
    c->is_active = jrandom_next_bool(r);
    int32_t cents = jrandom_next_int(r, 100000000);
    char t[32];
    int n = snprintf(t, sizeof t, "%d.%02d", cents / 100, cents % 100);
    c->balance = keep(t, (size_t)n);
    c->picture = rand_from(r, ALNUM, 100);
    c->age = jrandom_next_int(r, 100);
    c->eye_color = (bench_eye_color)jrandom_next_int(r, 3);
    c->name = rand_from(r, ALNUM, 20);
    c->gender = rand_from(r, ALNUM, 20);
    c->company = rand_from(r, ALNUM, 20);
    if (!NEW_LIST(c->emails, (size_t)jrandom_next_int(r, 10)))
        return -1;
    for (size_t i = 0; i < c->emails.count; i++)
        if (!(c->emails.items[i] = rand_from(r, ALNUM, 20)).ptr)
            return -1;
    if (!NEW_LIST(c->phones, (size_t)jrandom_next_int(r, 10)))
        return -1;
    for (size_t i = 0; i < c->phones.count; i++)
        c->phones.items[i] = 10000000000LL + jrandom_next_int(r, 1000000000);
    c->address = rand_from(r, ALNUM, 20);
    c->about = rand_from(r, ALNUM, 100);
    int year = 1900 + jrandom_next_int(r, 110);
    int month = 1 + jrandom_next_int(r, 12);
    int day = 1 + jrandom_next_int(r, 28);
    c->registered.days = days_from_civil(year, month, day);
    c->latitude = jrandom_next_double(r) * 90;
    c->longitude = jrandom_next_double(r) * 180;
    if (!NEW_LIST(c->tags, (size_t)jrandom_next_int(r, 50)))
        return -1;
    for (size_t i = 0; i < c->tags.count; i++)
        if (!(c->tags.items[i] = rand_from(r, ALNUM, 10)).ptr)
            return -1;
    if (!NEW_LIST(c->partners, (size_t)jrandom_next_int(r, 30)))
        return -1;
    for (size_t i = 0; i < c->partners.count; i++) {
        bench_partner *p = &c->partners.items[i];
        p->id = next_long_nonneg(r);
        p->name = rand_from(r, ALNUM, 30);
        /* 1970 .. about 2038, whole seconds, UTC */
        p->since = (bench_timestamp){jrandom_next(r, 31), 0, 0};
        if (!p->name.ptr)
            return -1;
    }
    return c->balance.ptr && c->picture.ptr && c->name.ptr && c->gender.ptr &&
                   c->company.ptr && c->address.ptr && c->about.ptr
               ? 0
               : -1;
}

static void render_client(json_out *j, const bench_client *c)
{
    static const char *const EYES[] = {"BROWN", "BLUE", "GREEN"};
    char t[64];
    int n, y, mo, d;
    jo_begin_object(j);
    jo_key(j, "_id"), jo_int(j, c->_id);
    jo_key(j, "index"), jo_int(j, c->index);
    const uint8_t *g = c->guid.bytes;
    n = snprintf(t, sizeof t,
                 "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
                 g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11],
                 g[12], g[13], g[14], g[15]);
    jo_key(j, "guid"), jo_raw(j, t, (size_t)n);
    jo_key(j, "isActive"), jo_bool(j, c->is_active);
    jo_key(j, "balance"), jo_raw(j, c->balance.ptr, c->balance.len);
    jo_key(j, "picture"), jstr(j, c->picture);
    jo_key(j, "age"), jo_int(j, c->age);
    jo_key(j, "eyeColor"), jo_string(j, EYES[c->eye_color]);
    jo_key(j, "name"), jstr(j, c->name);
    jo_key(j, "gender"), jstr(j, c->gender);
    jo_key(j, "company"), jstr(j, c->company);
    jo_key(j, "emails"), jo_begin_array(j);
    for (size_t i = 0; i < c->emails.count; i++)
        jstr(j, c->emails.items[i]);
    jo_end_array(j);
    jo_key(j, "phones"), jo_begin_array(j);
    for (size_t i = 0; i < c->phones.count; i++)
        jo_int(j, c->phones.items[i]);
    jo_end_array(j);
    jo_key(j, "address"), jstr(j, c->address);
    jo_key(j, "about"), jstr(j, c->about);
    civil_from_days(c->registered.days, &y, &mo, &d);
    n = snprintf(t, sizeof t, "\"%04d-%02d-%02d\"", y, mo, d);
    jo_key(j, "registered"), jo_raw(j, t, (size_t)n);
    jo_key(j, "latitude"), jo_double(j, c->latitude);
    jo_key(j, "longitude"), jo_double(j, c->longitude);
    jo_key(j, "tags"), jo_begin_array(j);
    for (size_t i = 0; i < c->tags.count; i++)
        jstr(j, c->tags.items[i]);
    jo_end_array(j);
    jo_key(j, "partners"), jo_begin_array(j);
    for (size_t i = 0; i < c->partners.count; i++) {
        const bench_partner *p = &c->partners.items[i];
        int64_t s = p->since.seconds;
        civil_from_days(s / 86400, &y, &mo, &d);
        int sec = (int)(s % 86400);
        n = snprintf(t, sizeof t, "\"%04d-%02d-%02dT%02d:%02d:%02dZ\"", y, mo, d, sec / 3600,
                     sec / 60 % 60, sec % 60);
        jo_begin_object(j);
        jo_key(j, "id"), jo_int(j, p->id);
        jo_key(j, "name"), jstr(j, p->name);
        jo_key(j, "since"), jo_raw(j, t, (size_t)n);
        jo_end_object(j);
    }
    jo_end_array(j);
    jo_end_object(j);
}

static void render_users(json_out *j, const void *v)
{
    const bench_users *u = v;
    jo_begin_object(j);
    jo_key(j, "users"), jo_begin_array(j);
    for (size_t i = 0; i < u->users.count; i++)
        render_user(j, &u->users.items[i]);
    jo_end_array(j);
    jo_end_object(j);
}

static void render_clients(json_out *j, const void *v)
{
    const bench_clients *c = v;
    jo_begin_object(j);
    jo_key(j, "clients"), jo_begin_array(j);
    for (size_t i = 0; i < c->clients.count; i++)
        render_client(j, &c->clients.items[i]);
    jo_end_array(j);
    jo_end_object(j);
}

/* Measures one record's JSON so records can be appended until the
 * document reaches `target` bytes. */
static size_t record_json_len(codec_buf *scratch, void (*render)(json_out *, const void *),
                              const void *rec)
{
    json_out j;
    codec_buf_clear(scratch);
    jo_init(&j, scratch);
    render(&j, rec);
    return j.failed ? 0 : scratch->len;
}

static void render_user_v(json_out *j, const void *v) { render_user(j, v); }
static void render_client_v(json_out *j, const void *v) { render_client(j, v); }

/* Generates records until the compact document is at least `target` bytes.
 * `wrapper` is the length of `{"users":[` + `]}`. */
static void *gen_until(size_t target, size_t wrapper, size_t rec_size,
                       int (*gen)(jrandom *, void *, int),
                       void (*render)(json_out *, const void *), size_t *count_out)
{
    jrandom r;
    jrandom_seed(&r, BENCH_SEED);
    size_t cap = 16, count = 0, len = wrapper;
    uint8_t *recs = malloc(cap * rec_size);
    codec_buf scratch;
    codec_buf_init(&scratch, NULL);
    while (recs && len < target) {
        if (count == cap) {
            uint8_t *more = realloc(recs, 2 * cap * rec_size);
            if (!more)
                break;
            recs = more, cap *= 2;
        }
        void *rec = recs + count * rec_size;
        size_t n;
        if (gen(&r, rec, (int)count) != 0 || (n = record_json_len(&scratch, render, rec)) == 0)
            break;
        len += n + (count ? 1 : 0);
        count++;
    }
    codec_buf_free(&scratch);
    void *kept = NULL;
    if (recs && len >= target && (kept = take(count * rec_size)))
        memcpy(kept, recs, count * rec_size);
    free(recs);
    *count_out = count;
    return kept;
}

static int gen_user_v(jrandom *r, void *u, int i) { return gen_user(r, u, i); }
static int gen_client_v(jrandom *r, void *c, int i) { return gen_client(r, c, i); }

/* ---------------------------------------------------------------------------
 * The catalogue
 * ------------------------------------------------------------------------ */

static bench_payload *add(const char *name, const char *model, const void *value,
                          const char *file, const char *about)
{
    bench_payload *p = &g.list[g.count++];
    *p = (bench_payload){name, model, NULL, 0, NULL, 0, value, file, about, NULL};
    return p;
}

static int add_bytes(const char *name, codec_buf *b, const char *file, const char *about)
{
    return finish_bytes(add(name, NULL, NULL, file, about), b);
}

static int add_value(const char *name, const char *model, const void *value,
                     void (*render)(json_out *, const void *), const char *file,
                     const char *about)
{
    if (!value)
        return -1;
    codec_buf b;
    codec_buf_init(&b, NULL);
    json_out j;
    jo_init(&j, &b);
    render(&j, value);
    bench_payload *p = j.failed ? NULL : add(name, model, value, file, about);
    int rc = p ? finish_bytes(p, &b) : -1;
    if (p) {
        p->render = render;
        p->rendered = p->bytes;
        p->rendered_len = p->len;
    }
    codec_buf_free(&b);
    return rc;
}

int bench_payload_render(const bench_payload *p, const void *value, codec_buf *out)
{
    if (!p->render)
        return CODEC_E_USAGE;
    size_t start = out->len;
    json_out j;
    jo_init(&j, out);
    p->render(&j, value);
    if (j.failed) {
        out->len = start;
        return CODEC_E_NOMEM;
    }
    return 0;
}

static int build_transform_payloads(codec_buf *b)
{
    codec_buf_clear(b);
    if (bench_gen_json(1, b) || add_bytes("small", b, "small.txt", "json(1), 104 B"))
        return -1;
    codec_buf_clear(b);
    if (bench_gen_json(80, b) || add_bytes("medium", b, "medium.txt", "json(80), 8,338 B"))
        return -1;
    codec_buf_clear(b);
    if (bench_gen_prose(1u << 20, b) ||
        add_bytes("large", b, "large.txt", "prose(2^20), 1,048,576 B"))
        return -1;
    return 0;
}

static int build_kv_payloads(codec_buf *b)
{
    jrandom r;
    jrandom_seed(&r, BENCH_SEED);
    bench_str *s64 = take(sizeof *s64);
    if (!s64 || !(*s64 = rand_from(&r, ALNUM, 64)).ptr)
        return -1;
    bench_kv_bean *bean = take(sizeof *bean);
    if (!bean || gen_kv_bean(&r, bean, 0) != 0)
        return -1;
    if (add_value("kv-int64", "int64", &KV_INT64, render_kv_int64, "kv-int64.json",
                  "a boxed 64-bit integer") ||
        add_value("kv-string", "string", s64, render_kv_string, "kv-string.json",
                  "a 64-character string") ||
        add_value("kv-bean", "bench_kv_bean", bean, render_kv_bean, "kv-bean.json",
                  "a flat six-field bean") ||
        add_value("kv-nested", "bench_kv_nested", gen_kv_nested(&r), render_kv_nested,
                  "kv-nested.json", "a bean holding a bean, two lists and a map") ||
        add_value("kv-strings", "bench_kv_strings", gen_kv_strings(&r, 1000),
                  render_kv_strings, "kv-strings.json", "a list of 1,000 strings") ||
        add_value("kv-bean-map", "bench_kv_bean_map", gen_kv_bean_map(&r, 100),
                  render_kv_bean_map, "kv-bean-map.json", "a map of 100 beans"))
        return -1;
    codec_buf_clear(b);
    if (gen_log_lines(65536, b) ||
        add_bytes("kv-logs", b, "kv-logs.txt", "repetitive log lines, 65,536 B"))
        return -1;
    codec_buf_clear(b);
    if (bench_gen_prose(65536, b) ||
        add_bytes("kv-prose", b, "kv-prose.txt", "prose(65,536), a prefix of large"))
        return -1;
    codec_buf_clear(b);
    if (!gen_kv_letters(&r, b) ||
        add_bytes("kv-letters", b, "kv-letters.txt", "1,024 x 64 random letters, 65,536 B"))
        return -1;
    return 0;
}

static int build_model_payloads(void)
{
    if (add_value("person", "bench_person", &PERSON, render_person, "person.json",
                  "Person, JSON 72 B") ||
        add_value("order", "bench_order", gen_order(), render_order, "order.json",
                  "Order with 100 line items, JSON 9,096 B") ||
        add_value("media-item", "bench_media_content", &MEDIA_ITEM, render_media_item,
                  "media-item.json", "jackson-benchmarks MediaItem") ||
        add_value("media-content", "bench_media_content", &MEDIA_CONTENT,
                  render_media_content, "media-content.json", "fory-benchmarks MediaContent") ||
        add_value("struct", "bench_struct", &STRUCT, render_struct, "struct.json",
                  "fory-benchmarks numeric Struct"))
        return -1;
    static const char *const USERS[] = {"users-1k", "users-10k", "users-100k", "users-1000k"};
    static const char *const CLIENTS[] = {"clients-1k", "clients-10k", "clients-100k",
                                          "clients-1000k"};
    static const char *const USER_FILES[] = {"users-1k.json", "users-10k.json",
                                             "users-100k.json", "users-1000k.json"};
    static const char *const CLIENT_FILES[] = {"clients-1k.json", "clients-10k.json",
                                               "clients-100k.json", "clients-1000k.json"};
    static const size_t KB[] = {1, 10, 100, 1000};
    for (int i = 0; i < 4; i++) {
        bench_users *u = take(sizeof *u);
        bench_clients *c = take(sizeof *c);
        if (!u || !c)
            return -1;
        u->users.items = gen_until(KB[i] * 1000, strlen("{\"users\":[]}"), sizeof(bench_user),
                                   gen_user_v, render_user_v, &u->users.count);
        c->clients.items = gen_until(KB[i] * 1000, strlen("{\"clients\":[]}"),
                                     sizeof(bench_client), gen_client_v, render_client_v,
                                     &c->clients.count);
        if (!u->users.items || !c->clients.items ||
            add_value(USERS[i], "bench_users", u, render_users, USER_FILES[i],
                      "java-json-benchmark Users") ||
            add_value(CLIENTS[i], "bench_clients", c, render_clients, CLIENT_FILES[i],
                      "java-json-benchmark Clients"))
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------
 * Real-world JSON (tests/data/json), read when present
 * ------------------------------------------------------------------------ */

/* A codec_value's compact JSON as codec's json backend writes it: encoding
 * is deterministic, so a decoded value whose rendering equals the payload's
 * bytes is the value that was encoded. */
/* A value rendered by codec's own JSON encoder: the models here that have
 * no hand-written renderer (a document, twitter-typed). */
static void render_typed(json_out *j, const codec_type *t, const void *v)
{
    codec *c = codec_json(t, NULL, NULL);
    codec_buf b;
    codec_buf_init(&b, NULL);
    if (!c || codec_encode(c, v, &b, NULL) != 0)
        j->failed = true;
    else
        jo_raw(j, (const char *)b.data, b.len);
    codec_buf_free(&b);
    codec_free(c);
}

static void render_value(json_out *j, const void *v)
{
    render_typed(j, codec_value_type(), v);
}

static void render_twitter(json_out *j, const void *v)
{
    render_typed(j, bench_twitter_type(), v);
}

/* twitter.json (in b) bound to the bench_twitter model by codec's JSON
 * decoder: the payload of the twitter databind cells, decode-only, whose
 * input is the document itself with every member the model skips. */
static int add_twitter_typed(codec_buf *b)
{
    codec *c = codec_json(bench_twitter_type(), NULL, NULL);
    bench_twitter *v = take(sizeof *v);
    int rc = !c || !v || codec_decode(c, b->data, b->len, v, &g.arena, NULL) != 0 ||
             add_value("twitter-typed", "bench_twitter", v, render_twitter, "twitter-typed.json",
                       "tests/data/json/twitter.json as it is, bound to bench_twitter");
    codec_free(c);
    if (rc)
        return -1;
    /* The bytes become the document; rendered keeps the compact JSON. */
    return finish_bytes(&g.list[g.count - 1], b);
}

/* One nativejson-benchmark document as a codec_value (its bytes: the compact
 * re-encoding, the file's indentation and \u escapes gone). No file, no
 * payload. */
static int add_document(codec_buf *b, const char *name, const char *about)
{
    char path[512];
    snprintf(path, sizeof path, "%s/json/%s.json", BENCH_DATA_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    codec_buf_clear(b);
    char chunk[1 << 16];
    size_t n;
    int rc = 0;
    while (rc == 0 && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rc = codec_buf_append(b, chunk, n);
    rc = rc || ferror(f);
    fclose(f);
    codec *c = rc ? NULL : codec_json(codec_value_type(), NULL, NULL);
    codec_value *v = take(sizeof *v);
    char *file = take(strlen(name) + 6);
    rc = !c || !v || !file || codec_decode(c, b->data, b->len, v, &g.arena, NULL) != 0;
    if (!rc) {
        snprintf(file, strlen(name) + 6, "%s.json", name);
        rc = add_value(name, "codec_value", v, render_value, file, about) ||
             (strcmp(name, "twitter") == 0 && add_twitter_typed(b));
    }
    codec_free(c);
    return rc ? -1 : 0;
}

static int build_document_payloads(codec_buf *b)
{
    return add_document(b, "twitter", "tests/data/json/twitter.json as a codec_value, compact") ||
                   add_document(b, "citm_catalog",
                                "tests/data/json/citm_catalog.json as a codec_value, compact") ||
                   add_document(b, "canada", "tests/data/json/canada.json as a codec_value, compact")
               ? -1
               : 0;
}

int bench_payloads_init(void)
{
    if (g.ready)
        return 0;
    codec_arena_init(&g.arena, NULL, 1u << 20);
    g.count = 0;
    codec_buf b;
    codec_buf_init(&b, NULL);
    int rc = build_transform_payloads(&b) || build_model_payloads() ||
                     build_kv_payloads(&b) || build_document_payloads(&b)
                 ? -1
                 : 0;
    codec_buf_free(&b);
    if (rc != 0) {
        codec_arena_free(&g.arena);
        return -1;
    }
    g.ready = 1;
    return 0;
}

void bench_payloads_free(void)
{
    if (g.ready)
        codec_arena_free(&g.arena);
    g.ready = 0;
    g.count = 0;
}

size_t bench_payload_count(void)
{
    return g.count;
}

const bench_payload *bench_payload_at(size_t i)
{
    return i < g.count ? &g.list[i] : NULL;
}

const bench_payload *bench_payload_find(const char *name)
{
    for (size_t i = 0; i < g.count; i++)
        if (strcmp(g.list[i].name, name) == 0)
            return &g.list[i];
    return NULL;
}

int bench_dump_file(const char *dir, const char *file, const uint8_t *bytes, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(bytes, 1, len, f);
    if (fclose(f) != 0 || w != len) {
        errno = errno ? errno : EIO;
        return -1;
    }
    return 0;
}

int bench_payloads_dump(const char *dir)
{
    for (size_t i = 0; i < g.count; i++)
        if (bench_dump_file(dir, g.list[i].file, g.list[i].bytes, g.list[i].len) != 0)
            return -1;
    return 0;
}
