/* test_fory_vectors.c — every vector of tests/data/fory/vectors.json (made
 * by Apache Fory C++): decode the bytes, compare the C value field by field
 * with the vector's JSON value (parsed with codec's JSON backend), and
 * encode the value back to exactly the bytes (in compatible mode too: each
 * TypeDef's 8-byte hash header included). Built twice: with the descriptors
 * below, written by hand, and (FORY_VECTORS_FROM_FDL, ctest
 * codegen/fory_vectors_fdl) with the code codec-gen generates from
 * tests/data/fory/vectors.fdl.
 * Then truncation at every byte of every vector, and unknown type ids. */
#include "check.h"
#include "codec/codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef FORY_VECTORS_FROM_FDL
/* The same types, generated at build time by codec-gen from
 * tests/data/fory/vectors.fdl (Fory IDL, ids from [id=N]). */
#include "vectors.codec.h"
typedef vectors_Person person;
#define person_type vectors_Person_type
#define order_type vectors_Order_type
#define numeric_type vectors_NumericStruct_type
#define media_content_type vectors_MediaContent_type
#define kitchen_sink_type vectors_KitchenSink_type
CODEC_LIST(strings_type, CODEC_STRING);
CODEC_ARRAY(int32_array_type, CODEC_INT32);
CODEC_MAP(map_str_str_type, CODEC_STRING, CODEC_STRING);
#else
typedef struct person { codec_string name; int32_t age; bool active; codec_string email; } person;
CODEC_STRUCT(person_type, person, CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD(person, age, 2, CODEC_INT32), CODEC_FIELD(person, active, 3, CODEC_BOOL),
             CODEC_FIELD(person, email, 4, CODEC_STRING));

typedef struct line_item { codec_string sku, description; int32_t quantity; double unit_price; } line_item;
CODEC_STRUCT(line_item_type, line_item, CODEC_FIELD(line_item, sku, 1, CODEC_STRING),
             CODEC_FIELD(line_item, description, 2, CODEC_STRING),
             CODEC_FIELD(line_item, quantity, 3, CODEC_INT32),
             CODEC_FIELD(line_item, unit_price, 4, CODEC_DOUBLE));
CODEC_LIST(line_items_type, &line_item_type);
typedef struct order { codec_string id, customer; bool paid; CODEC_LIST_OF(line_item) items; } order;
CODEC_STRUCT(order_type, order, CODEC_FIELD(order, id, 1, CODEC_STRING),
             CODEC_FIELD(order, customer, 2, CODEC_STRING), CODEC_FIELD(order, paid, 3, CODEC_BOOL),
             CODEC_FIELD(order, items, 4, &line_items_type));

typedef struct numeric { int32_t f1, f2; int64_t f3, f4; float f5, f6; double f7, f8;
    int32_t f9, f10; int64_t f11, f12; float f13, f14; double f15, f16; } numeric;
#define NF(m, n, t) CODEC_FIELD(numeric, m, n, t)
CODEC_STRUCT(numeric_type, numeric, NF(f1, 1, CODEC_INT32), NF(f2, 2, CODEC_INT32),
             NF(f3, 3, CODEC_INT64), NF(f4, 4, CODEC_INT64), NF(f5, 5, CODEC_FLOAT),
             NF(f6, 6, CODEC_FLOAT), NF(f7, 7, CODEC_DOUBLE), NF(f8, 8, CODEC_DOUBLE),
             NF(f9, 9, CODEC_INT32), NF(f10, 10, CODEC_INT32), NF(f11, 11, CODEC_INT64),
             NF(f12, 12, CODEC_INT64), NF(f13, 13, CODEC_FLOAT), NF(f14, 14, CODEC_FLOAT),
             NF(f15, 15, CODEC_DOUBLE), NF(f16, 16, CODEC_DOUBLE));

CODEC_ENUM(player_type, {"JAVA", 0}, {"FLASH", 1});
CODEC_ENUM(size_type, {"SMALL", 0}, {"LARGE", 1});
CODEC_OPTIONAL(opt_string_type, codec_string, CODEC_STRING);
CODEC_OPTIONAL(opt_int32_type, int32_t, CODEC_INT32);
CODEC_LIST(strings_type, CODEC_STRING);
typedef CODEC_OPTIONAL_OF(codec_string) opt_string;
typedef struct media { codec_string uri; opt_string title; int32_t width, height;
    codec_string format; int64_t duration, size; int32_t bitrate; bool has_bitrate;
    CODEC_LIST_OF(codec_string) persons; int32_t player; codec_string copyright; } media;
#define MF(m, n, t) CODEC_FIELD(media, m, n, t)
CODEC_STRUCT(media_type, media, MF(uri, 1, CODEC_STRING), MF(title, 2, &opt_string_type),
             MF(width, 3, CODEC_INT32), MF(height, 4, CODEC_INT32), MF(format, 5, CODEC_STRING),
             MF(duration, 6, CODEC_INT64), MF(size, 7, CODEC_INT64), MF(bitrate, 8, CODEC_INT32),
             MF(has_bitrate, 9, CODEC_BOOL), MF(persons, 10, &strings_type),
             MF(player, 11, &player_type), MF(copyright, 12, CODEC_STRING));
typedef struct image { codec_string uri; opt_string title; int32_t width, height, size; } image;
CODEC_STRUCT(image_type, image, CODEC_FIELD(image, uri, 1, CODEC_STRING),
             CODEC_FIELD(image, title, 2, &opt_string_type), CODEC_FIELD(image, width, 3, CODEC_INT32),
             CODEC_FIELD(image, height, 4, CODEC_INT32), CODEC_FIELD(image, size, 5, &size_type));
CODEC_LIST(images_type, &image_type);
typedef struct media_content { media media; CODEC_LIST_OF(image) images; } media_content;
CODEC_STRUCT(media_content_type, media_content, CODEC_FIELD(media_content, media, 1, &media_type),
             CODEC_FIELD(media_content, images, 2, &images_type));

typedef struct nested { int32_t id; codec_string label; } nested;
CODEC_STRUCT(nested_type, nested, CODEC_FIELD(nested, id, 1, CODEC_INT32),
             CODEC_FIELD(nested, label, 2, CODEC_STRING));
CODEC_LIST(nested_list_type, &nested_type);
CODEC_ARRAY(int32_array_type, CODEC_INT32);
CODEC_ARRAY(int64_array_type, CODEC_INT64);
CODEC_LIST(int32_list_type, CODEC_INT32);
CODEC_MAP(map_str_int64_type, CODEC_STRING, CODEC_INT64);
CODEC_MAP(map_int32_str_type, CODEC_INT32, CODEC_STRING);
CODEC_MAP(map_str_str_type, CODEC_STRING, CODEC_STRING);
typedef struct kitchen_sink {
    bool f_bool; int8_t f_int8; int16_t f_int16; int32_t f_int32; int64_t f_int64;
    uint8_t f_uint8; uint16_t f_uint16; uint32_t f_uint32; uint64_t f_uint64;
    float f_float32; double f_float64; codec_string f_string; codec_bytes f_binary;
    CODEC_OPTIONAL_OF(int32_t) f_opt_int32_a, f_opt_int32_b; opt_string f_opt_string;
    codec_list f_int32_array, f_int64_array, f_string_list, f_int32_list;
    codec_map f_map_str_int64, f_map_int32_str; int32_t f_enum; nested f_nested;
    codec_list f_nested_list;
} kitchen_sink;
#define KF(m, n, t) CODEC_FIELD(kitchen_sink, m, n, t)
CODEC_STRUCT(kitchen_sink_type, kitchen_sink, KF(f_bool, 1, CODEC_BOOL), KF(f_int8, 2, CODEC_INT8),
             KF(f_int16, 3, CODEC_INT16), KF(f_int32, 4, CODEC_INT32), KF(f_int64, 5, CODEC_INT64),
             KF(f_uint8, 6, CODEC_UINT8), KF(f_uint16, 7, CODEC_UINT16),
             KF(f_uint32, 8, CODEC_UINT32), KF(f_uint64, 9, CODEC_UINT64),
             KF(f_float32, 10, CODEC_FLOAT), KF(f_float64, 11, CODEC_DOUBLE),
             KF(f_string, 12, CODEC_STRING), KF(f_binary, 13, CODEC_BYTES),
             KF(f_opt_int32_a, 14, &opt_int32_type), KF(f_opt_int32_b, 15, &opt_int32_type),
             KF(f_opt_string, 16, &opt_string_type), KF(f_int32_array, 17, &int32_array_type),
             KF(f_int64_array, 18, &int64_array_type), KF(f_string_list, 19, &strings_type),
             KF(f_int32_list, 20, &int32_list_type), KF(f_map_str_int64, 21, &map_str_int64_type),
             KF(f_map_int32_str, 22, &map_int32_str_type), KF(f_enum, 23, &player_type),
             KF(f_nested, 24, &nested_type), KF(f_nested_list, 25, &nested_list_type));
#endif

typedef struct named { const char *name; const codec_type *t; } named;
static const named types[] = {
    {"Person", &person_type}, {"Order", &order_type},
    {"NumericStruct", &numeric_type}, {"MediaContent", &media_content_type},
    {"KitchenSink", &kitchen_sink_type}, {"string", CODEC_STRING},
    {"array<int32>", &int32_array_type}, {"map<string,string>", &map_str_str_type},
    {"list<string>", &strings_type},
};

static codec_fory_registry *registry(void)
{
    codec_fory_registry *r = codec_fory_registry_new(NULL);
#ifdef FORY_VECTORS_FROM_FDL
    CHECK_INT(vectors_fory_register(r, NULL), 0);   /* the ids of vectors.fdl's [id=N] */
#else
    const codec_type *ts[] = {&person_type, &order_type, &line_item_type, &numeric_type,
                              &media_type, &image_type, &media_content_type,
                              &kitchen_sink_type, &nested_type};
    for (uint32_t i = 0; i < 9; i++)
        CHECK_INT(codec_fory_register(r, ts[i], 100 + i, NULL), 0);
    CHECK_INT(codec_fory_register(r, &player_type, 110, NULL), 0);
    CHECK_INT(codec_fory_register(r, &size_type, 111, NULL), 0);
#endif
    return r;
}

static size_t unhex(const char *s, size_t n, uint8_t *out)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        unsigned v;
        sscanf(s + i, "%2x", &v);
        out[i / 2] = (uint8_t)v;
    }
    return n / 2;
}

static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    *n = fread(b, 1, (size_t)len, f);
    fclose(f);
    return b;
}

/* True when the C value `c` of type `t` equals the vector's JSON value `v`
 * under the file's conventions (binary = hex text, map = [key, value] pairs,
 * enum = name, optional absent = null, float32 compared after (float)). */
static bool matches(const codec_type *t, const void *c, const codec_value *v)
{
    switch (t->kind) {
    case CODEC_T_STRUCT:
        if (v->kind != CODEC_V_OBJECT || v->as.object.count != t->count)
            return false;
        for (size_t i = 0; i < t->count; i++) {
            const codec_field *f = &t->fields[i];
            const codec_value *m = codec_value_get(v, f->name, strlen(f->name));
            if (!m || !matches(f->type, (const uint8_t *)c + f->offset, m))
                return false;
        }
        return true;
    case CODEC_T_OPTIONAL:
        if (!*(const bool *)c)
            return v->kind == CODEC_V_NULL;
        return matches(t->elem, (const uint8_t *)c + t->value_offset, v);
    case CODEC_T_LIST: {
        const codec_list *l = c;
        if (v->kind != CODEC_V_ARRAY || v->as.array.count != l->count)
            return false;
        for (size_t i = 0; i < l->count; i++)
            if (!matches(t->elem, (const uint8_t *)l->items + i * t->elem->size,
                         &v->as.array.items[i]))
                return false;
        return true;
    }
    case CODEC_T_MAP: {
        const codec_map *m = c;
        if (v->kind != CODEC_V_ARRAY || v->as.array.count != m->count)
            return false;
        for (size_t i = 0; i < m->count; i++) {
            const codec_value *pair = &v->as.array.items[i];
            if (pair->kind != CODEC_V_ARRAY || pair->as.array.count != 2 ||
                !matches(t->key, (const uint8_t *)m->keys + i * t->key->size,
                         &pair->as.array.items[0]) ||
                !matches(t->elem, (const uint8_t *)m->values + i * t->elem->size,
                         &pair->as.array.items[1]))
                return false;
        }
        return true;
    }
    case CODEC_T_STRING: {
        const codec_string *s = c;
        return v->kind == CODEC_V_STRING && v->as.s.len == s->len &&
               (s->len == 0 || memcmp(v->as.s.ptr, s->ptr, s->len) == 0);
    }
    case CODEC_T_BYTES: {
        const codec_bytes *b = c;
        if (v->kind != CODEC_V_STRING || v->as.s.len != 2 * b->len)
            return false;
        for (size_t i = 0; i < b->len; i++) {
            char hx[3];
            snprintf(hx, sizeof hx, "%02x", b->data[i]);
            if (memcmp(hx, v->as.s.ptr + 2 * i, 2) != 0)
                return false;
        }
        return true;
    }
    case CODEC_T_ENUM: {
        const codec_enum_value *ev = codec_enum_by_number(t, *(const int32_t *)c);
        return ev && v->kind == CODEC_V_STRING && strlen(ev->name) == v->as.s.len &&
               memcmp(ev->name, v->as.s.ptr, v->as.s.len) == 0;
    }
    case CODEC_T_BOOL: return v->kind == CODEC_V_BOOL && v->as.b == *(const bool *)c;
    case CODEC_T_FLOAT: {
        float want = v->kind == CODEC_V_DOUBLE ? (float)v->as.d
                     : v->kind == CODEC_V_INT ? (float)v->as.i : NAN;
        return memcmp(&want, c, sizeof want) == 0;
    }
    case CODEC_T_DOUBLE: {
        double want = v->kind == CODEC_V_DOUBLE ? v->as.d : v->kind == CODEC_V_INT ? (double)v->as.i : NAN;
        return memcmp(&want, c, sizeof want) == 0;
    }
    default:
        if (codec_kind_is_signed(t->kind))
            return v->kind == CODEC_V_INT && v->as.i == codec_int_load(t->kind, c);
        if (v->kind == CODEC_V_UINT)
            return v->as.u == codec_uint_load(t->kind, c);
        return v->kind == CODEC_V_INT && v->as.i >= 0 &&
               (uint64_t)v->as.i == codec_uint_load(t->kind, c);
    }
}

static int counts[2][2];   /* [compatible][0 decode, 1 encode] passes */

static void run_vector(const codec_value *v, codec_fory_registry *reg)
{
    const codec_value *name = codec_value_get(v, "name", 4), *type = codec_value_get(v, "type", 4),
                      *mode = codec_value_get(v, "mode", 4), *ref = codec_value_get(v, "track_ref", 9),
                      *hex = codec_value_get(v, "hex", 3), *value = codec_value_get(v, "value", 5);
    const named *nt = NULL;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == type->as.s.len &&
            memcmp(types[i].name, type->as.s.ptr, type->as.s.len) == 0)
            nt = &types[i];
    CHECK(nt != NULL);
    if (!nt)
        return;
    bool compatible = mode->as.s.ptr[1] == 'o' && mode->as.s.ptr[3] == 'p';
    codec_fory_options o = {.mode = compatible ? CODEC_FORY_COMPATIBLE : CODEC_FORY_CONSISTENT,
                            .track_ref = ref->as.b};
    codec_error err;
    codec *c = codec_fory(reg, nt->t, &o, &err);
    CHECK(c != NULL);
    if (!c) {
        fprintf(stderr, "%s\n", err.message);
        return;
    }
    uint8_t *bytes = malloc(hex->as.s.len / 2 + 1);
    size_t n = unhex(hex->as.s.ptr, hex->as.s.len, bytes);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    _Alignas(16) uint8_t val[4096];
    int rc = codec_decode(c, bytes, n, val, &arena, &err);
    if (rc)
        fprintf(stderr, "%.*s (%s): decode: %s at %llu\n", (int)name->as.s.len, name->as.s.ptr,
                compatible ? "compatible" : "consistent", err.message,
                (unsigned long long)err.offset);
    CHECK_INT(rc, 0);
    bool decoded_ok = rc == 0;
    /* The value, compared field by field with the vector's JSON. */
    if (!rc && !matches(nt->t, val, value)) {
        fprintf(stderr, "%.*s (%s): decoded value differs from the vector's\n",
                (int)name->as.s.len, name->as.s.ptr, compatible ? "compatible" : "consistent");
        decoded_ok = false;
    }
    CHECK(decoded_ok);
    counts[compatible][0] += decoded_ok;
    if (!rc) {
        codec_buf out;
        codec_buf_init(&out, NULL);
        CHECK_INT(codec_encode(c, val, &out, &err), 0);
        bool same = out.len == n && memcmp(out.data, bytes, n) == 0;
        if (!same)
            fprintf(stderr, "%.*s (%s): encoded %zu bytes, want %zu\n", (int)name->as.s.len,
                    name->as.s.ptr, compatible ? "compatible" : "consistent", out.len, n);
        CHECK(same);
        counts[compatible][1] += same;
        codec_buf_free(&out);
    }
    /* Truncation at every byte must fail cleanly. */
    for (size_t cut = 0; cut < n; cut += n > 2000 ? 37 : 1) {
        codec_arena_reset(&arena);
        CHECK(codec_decode(c, bytes, cut, val, &arena, &err) != 0);
    }
    codec_arena_free(&arena);
    free(bytes);
    codec_free(c);
}

static void unknown_type_ids(codec_fory_registry *reg)
{
    codec_error err;
    codec *c = codec_fory(reg, &person_type, NULL, &err);
    /* Person's bytes claiming user id 99: not registered. */
    static const uint8_t bad[] = {0x01, 0xff, 0x1b, 0x63, 0x01, 0x48, 0x02, 0x02};
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    person p;
    CHECK_INT(codec_decode(c, bad, sizeof bad, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "99") != NULL);
    /* A huge declared string length. */
    static const uint8_t huge[] = {0x01, 0xff, 0x1b, 0x64, 0x01, 0x48, 0xfe, 0xff, 0xff, 0xff, 0x0f};
    CHECK_INT(codec_decode(c, huge, sizeof huge, &p, &arena, &err), CODEC_E_INVALID_PAYLOAD);
    codec_free(c);
    /* A struct that is not registered cannot be encoded. */
    codec_fory_registry *empty = codec_fory_registry_new(NULL);
    CHECK(codec_fory(empty, &person_type, NULL, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_USAGE);
    codec_fory_registry_free(empty);
    codec_arena_free(&arena);
}

int main(void)
{
    size_t n;
    char *text = read_file(CODEC_TEST_DATA "/fory/vectors.json", &n);
    CHECK(text != NULL);
    if (!text)
        return check_done("fory_vectors");
    codec_error err;
    codec *json = codec_json(codec_value_type(), NULL, &err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_value doc;
    CHECK_INT(codec_decode(json, (const uint8_t *)text, n, &doc, &arena, &err), 0);
    const codec_value *vectors = codec_value_get(&doc, "vectors", 7);
    codec_fory_registry *reg = registry();
    size_t total = vectors->as.array.count;
    for (size_t i = 0; i < total; i++)
        run_vector(&vectors->as.array.items[i], reg);
    printf("consistent: %d decode, %d encode; compatible: %d decode, %d encode (of %zu)\n",
           counts[0][0], counts[0][1], counts[1][0], counts[1][1], total / 2);
    unknown_type_ids(reg);
    codec_fory_registry_free(reg);
    codec_arena_free(&arena);
    codec_free(json);
    free(text);
    return check_done("fory_vectors");
}
