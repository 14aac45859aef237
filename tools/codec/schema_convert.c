/* schema_convert.c — `codec convert --schema x.desc --type pkg.Msg`: protobuf
 * to and from JSON, CBOR or MessagePack with a type built at run time from a
 * descriptor set (codec_schema), as `protoc --decode` does for text.
 *
 * The protobuf side is the typed value (the run-time type's C layout); the
 * other side is a codec_value, so any schemaless backend can read or write
 * it. The value follows proto3 JSON where it can: fields by JSON name, a
 * oneof's member as a field of the message, enums by name (by number when
 * unnamed), bytes as base64 text and NaN/Infinity/-Infinity as strings (for
 * JSON, which has neither), 64-bit integers as numbers, default values and
 * unknown fields left out (JSON has no place for them). */
#include "schema_convert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk {
    codec_arena *arena;
    codec_error *err;
    const codec *b64;      /* base64 for bytes, when the other side is JSON (set only then) */
    size_t depth;
} walk;

#define WALK_MAX_DEPTH 200

static int fail(walk *w, int family, const char *what, const char *name)
{
    return codec_error_set(w->err, family, 0, "convert", CODEC_NO_OFFSET, "%s%s%s", what,
                           name ? ": " : "", name ? name : "");
}

static void *grab(walk *w, size_t n)
{
    void *p = codec_arena_alloc(w->arena, n ? n : 1, 16);
    if (p)
        memset(p, 0, n ? n : 1);
    return p;
}

/* ---------------------------------------------------------------------------
 * Typed value -> codec_value
 * ------------------------------------------------------------------------ */

static int to_value(walk *w, const codec_type *t, const void *v, codec_value *out);

static bool is_default(const codec_type *t, const void *v)
{
    switch (t->kind) {
    case CODEC_T_STRING:
    case CODEC_T_BYTES: return ((const codec_bytes *)v)->len == 0;
    case CODEC_T_LIST: return ((const codec_list *)v)->count == 0;
    case CODEC_T_MAP: return ((const codec_map *)v)->count == 0;
    case CODEC_T_OPTIONAL: return !*(const bool *)v;
    case CODEC_T_POINTER: return *(void *const *)v == NULL;
    case CODEC_T_UNION: return codec_union_which(v) == 0;
    default: {
        const uint8_t *b = v;
        for (size_t i = 0; i < t->size; i++)
            if (b[i])
                return false;
        return true;
    }
    }
}

static int member(walk *w, codec_member *m, const char *name, const codec_type *t, const void *v)
{
    m->key = (codec_string){name, strlen(name)};
    return to_value(w, t, v, &m->value);
}

static int struct_to_value(walk *w, const codec_type *t, const uint8_t *v, codec_value *out)
{
    codec_member *ms = grab(w, t->count * sizeof *ms);
    if (!ms)
        return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
    size_t n = 0;
    for (size_t i = 0; i < t->count; i++) {
        const codec_field *f = &t->fields[i];
        const uint8_t *fv = v + f->offset;
        if ((f->flags & CODEC_FIELD_UNKNOWN_BYTES) || is_default(f->type, fv))
            continue;
        int rc;
        if (f->type->kind == CODEC_T_UNION) {   /* a oneof: its member, by name */
            const codec_field *m = codec_union_active(f->type, fv);
            if (!m)
                return fail(w, CODEC_E_INVALID_VALUE, "oneof selects no member", f->name);
            rc = member(w, &ms[n++], m->name, m->type, fv + m->offset);
        } else {
            rc = member(w, &ms[n++], f->name, f->type, fv);
        }
        if (rc)
            return rc;
    }
    *out = (codec_value){.kind = CODEC_V_OBJECT, .as.object = {ms, n}};
    return CODEC_OK;
}

static int key_text(walk *w, const codec_type *t, const void *k, codec_string *out)
{
    if (t->kind == CODEC_T_STRING) {
        *out = *(const codec_string *)k;
        return CODEC_OK;
    }
    char *s = grab(w, 24);
    if (!s)
        return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
    if (t->kind == CODEC_T_BOOL)
        snprintf(s, 24, "%s", *(const bool *)k ? "true" : "false");
    else if (codec_kind_is_unsigned(t->kind))
        snprintf(s, 24, "%llu", (unsigned long long)codec_uint_load(t->kind, k));
    else
        snprintf(s, 24, "%lld", (long long)codec_int_load(t->kind == CODEC_T_ENUM ? CODEC_T_INT32
                                                                                   : t->kind, k));
    *out = (codec_string){s, strlen(s)};
    return CODEC_OK;
}

static int bytes_to_value(walk *w, const codec_bytes *b, codec_value *out)
{
    if (!w->b64) {
        *out = (codec_value){.kind = CODEC_V_BYTES, .as.bytes = *b};
        return CODEC_OK;
    }
    codec_buf text;
    codec_buf_init(&text, NULL);
    int rc = codec_encode(w->b64, b, &text, w->err);
    char *copy = rc ? NULL : grab(w, text.len);
    if (!rc && !copy)
        rc = fail(w, CODEC_E_NOMEM, "out of memory", NULL);
    if (copy) {
        if (text.len)
            memcpy(copy, text.data, text.len);
        *out = (codec_value){.kind = CODEC_V_STRING, .as.s = {copy, text.len}};
    }
    codec_buf_free(&text);
    return rc;
}

static int to_value(walk *w, const codec_type *t, const void *v, codec_value *out)
{
    if (++w->depth > WALK_MAX_DEPTH)
        return fail(w, CODEC_E_INVALID_VALUE, "messages nest too deeply", t->name);
    int rc = CODEC_OK;
    switch (t->kind) {
    case CODEC_T_STRUCT: rc = struct_to_value(w, t, v, out); break;
    case CODEC_T_POINTER: rc = to_value(w, t->elem, *(void *const *)v, out); break;
    case CODEC_T_OPTIONAL: rc = to_value(w, t->elem, (const uint8_t *)v + t->value_offset, out); break;
    case CODEC_T_LIST: {
        const codec_list *l = v;
        codec_value *items = grab(w, l->count * sizeof *items);
        if (!items)
            return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
        for (size_t i = 0; i < l->count && !rc; i++)
            rc = to_value(w, t->elem, (const uint8_t *)l->items + i * t->elem->size, &items[i]);
        *out = (codec_value){.kind = CODEC_V_ARRAY, .as.array = {items, l->count}};
        break;
    }
    case CODEC_T_MAP: {
        const codec_map *m = v;
        codec_member *ms = grab(w, m->count * sizeof *ms);
        if (!ms)
            return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
        for (size_t i = 0; i < m->count && !rc; i++)
            if (!(rc = key_text(w, t->key, (const uint8_t *)m->keys + i * t->key->size, &ms[i].key)))
                rc = to_value(w, t->elem, (const uint8_t *)m->values + i * t->elem->size,
                              &ms[i].value);
        *out = (codec_value){.kind = CODEC_V_OBJECT, .as.object = {ms, m->count}};
        break;
    }
    case CODEC_T_ENUM: {
        const codec_enum_value *e = codec_enum_by_number(t, *(const int32_t *)v);
        *out = e ? (codec_value){.kind = CODEC_V_STRING, .as.s = {e->name, strlen(e->name)}}
                 : (codec_value){.kind = CODEC_V_INT, .as.i = *(const int32_t *)v};
        break;
    }
    case CODEC_T_BOOL: *out = (codec_value){.kind = CODEC_V_BOOL, .as.b = *(const bool *)v}; break;
    case CODEC_T_FLOAT:
    case CODEC_T_DOUBLE: {
        double d = t->kind == CODEC_T_FLOAT ? *(const float *)v : *(const double *)v;
        const char *word = isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
        *out = isfinite(d) || !w->b64
                   ? (codec_value){.kind = CODEC_V_DOUBLE, .as.d = d}
                   : (codec_value){.kind = CODEC_V_STRING, .as.s = {word, strlen(word)}};
        break;
    }
    case CODEC_T_STRING: *out = (codec_value){.kind = CODEC_V_STRING, .as.s = *(const codec_string *)v}; break;
    case CODEC_T_BYTES: rc = bytes_to_value(w, v, out); break;
    default:
        if (codec_kind_is_unsigned(t->kind)) {
            uint64_t u = codec_uint_load(t->kind, v);
            *out = u > INT64_MAX ? (codec_value){.kind = CODEC_V_UINT, .as.u = u}
                                 : (codec_value){.kind = CODEC_V_INT, .as.i = (int64_t)u};
        } else if (codec_kind_is_signed(t->kind)) {
            *out = (codec_value){.kind = CODEC_V_INT, .as.i = codec_int_load(t->kind, v)};
        } else {
            rc = fail(w, CODEC_E_UNSUPPORTED, "a kind run-time schemas do not make", t->name);
        }
    }
    w->depth--;
    return rc;
}

/* ---------------------------------------------------------------------------
 * codec_value -> typed value
 * ------------------------------------------------------------------------ */

static int from_value(walk *w, const codec_type *t, const codec_value *v, void *out);

static int mismatch(walk *w, const char *want, const codec_type *t)
{
    return codec_error_set(w->err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, "convert",
                           CODEC_NO_OFFSET, "expected %s for %s", want, t->name ? t->name : "value");
}

/* The field (or oneof member: *u is then its union field) named key. */
static const codec_field *find_field(const codec_type *t, codec_string key, const codec_field **u)
{
    *u = NULL;
    const codec_field *f = codec_type_field_by_name(t, key.ptr, key.len);
    if (f)
        return f;
    for (size_t i = 0; i < t->count; i++)
        if (t->fields[i].type->kind == CODEC_T_UNION &&
            (f = codec_type_field_by_name(t->fields[i].type, key.ptr, key.len))) {
            *u = &t->fields[i];
            return f;
        }
    return NULL;
}

static int struct_from_value(walk *w, const codec_type *t, const codec_value *v, uint8_t *out)
{
    if (v->kind != CODEC_V_OBJECT)
        return mismatch(w, "an object", t);
    for (size_t i = 0; i < v->as.object.count; i++) {
        const codec_member *m = &v->as.object.members[i];
        const codec_field *u, *f = find_field(t, m->key, &u);
        if (!f || (f->flags & CODEC_FIELD_UNKNOWN_BYTES))
            return codec_error_set(w->err, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, "convert",
                                   CODEC_NO_OFFSET, "%s has no field '%.*s'", t->name,
                                   (int)m->key.len, m->key.ptr);
        uint8_t *dst = out + f->offset;
        if (u) {   /* a oneof member: select it */
            dst = out + u->offset;
            memset(dst, 0, u->type->size);
            *(uint32_t *)dst = (uint32_t)(f - u->type->fields) + 1;
            dst += f->offset;
        }
        if (m->value.kind == CODEC_V_NULL)
            continue;
        int rc = from_value(w, f->type, &m->value, dst);
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

/* A number from a JSON number or a decimal string (proto3 JSON's int64). */
static int number_of(walk *w, const codec_type *t, const codec_value *v, codec_value *n)
{
    static const struct {
        const char *word;
        double d;
    } special[] = {{"NaN", NAN}, {"Infinity", INFINITY}, {"-Infinity", -INFINITY}};
    for (size_t i = 0; v->kind == CODEC_V_STRING && i < 3; i++)
        if (v->as.s.len == strlen(special[i].word) &&
            memcmp(v->as.s.ptr, special[i].word, v->as.s.len) == 0) {
            *n = (codec_value){.kind = CODEC_V_DOUBLE, .as.d = special[i].d};
            return CODEC_OK;
        }
    if (v->kind == CODEC_V_STRING) {
        char buf[64];
        if (v->as.s.len == 0 || v->as.s.len >= sizeof buf)
            return mismatch(w, "a number", t);
        memcpy(buf, v->as.s.ptr, v->as.s.len);
        buf[v->as.s.len] = '\0';
        char *end;
        if (buf[0] == '-') {
            *n = (codec_value){.kind = CODEC_V_INT, .as.i = strtoll(buf, &end, 10)};
        } else {
            *n = (codec_value){.kind = CODEC_V_UINT, .as.u = strtoull(buf, &end, 10)};
        }
        return *end ? mismatch(w, "a number", t) : CODEC_OK;
    }
    if (v->kind != CODEC_V_INT && v->kind != CODEC_V_UINT && v->kind != CODEC_V_DOUBLE)
        return mismatch(w, "a number", t);
    *n = *v;
    return CODEC_OK;
}

static int int_from_value(walk *w, const codec_type *t, const codec_value *v, void *out)
{
    codec_value n;
    int rc = number_of(w, t, v, &n);
    if (rc)
        return rc;
    if (n.kind == CODEC_V_DOUBLE) {
        if (n.as.d != (double)(int64_t)n.as.d)
            return mismatch(w, "an integer", t);
        n = (codec_value){.kind = CODEC_V_INT, .as.i = (int64_t)n.as.d};
    }
    rc = n.kind == CODEC_V_UINT ? codec_uint_store(t->kind, out, n.as.u)
                                : codec_int_store(t->kind, out, n.as.i);
    return rc ? mismatch(w, "an integer in range", t) : CODEC_OK;
}

static int list_from_value(walk *w, const codec_type *t, const codec_value *v, codec_list *out)
{
    if (v->kind != CODEC_V_ARRAY)
        return mismatch(w, "an array", t);
    size_t n = v->as.array.count;
    uint8_t *items = grab(w, n * t->elem->size);
    if (!items)
        return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
    for (size_t i = 0; i < n; i++) {
        int rc = from_value(w, t->elem, &v->as.array.items[i], items + i * t->elem->size);
        if (rc)
            return rc;
    }
    *out = (codec_list){items, n};
    return CODEC_OK;
}

static int map_from_value(walk *w, const codec_type *t, const codec_value *v, codec_map *out)
{
    if (v->kind != CODEC_V_OBJECT)
        return mismatch(w, "an object", t);
    size_t n = v->as.object.count;
    uint8_t *keys = grab(w, n * t->key->size), *vals = grab(w, n * t->elem->size);
    if (!keys || !vals)
        return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
    for (size_t i = 0; i < n; i++) {
        const codec_member *m = &v->as.object.members[i];
        codec_value k = {.kind = CODEC_V_STRING, .as.s = m->key};
        if (t->key->kind == CODEC_T_BOOL)
            k = (codec_value){.kind = CODEC_V_BOOL,
                              .as.b = m->key.len == 4 && memcmp(m->key.ptr, "true", 4) == 0};
        int rc = from_value(w, t->key, &k, keys + i * t->key->size);
        if (!rc)
            rc = from_value(w, t->elem, &m->value, vals + i * t->elem->size);
        if (rc)
            return rc;
    }
    *out = (codec_map){keys, vals, n};
    return CODEC_OK;
}

static int bytes_from_value(walk *w, const codec_type *t, const codec_value *v, codec_bytes *out)
{
    if (v->kind == CODEC_V_BYTES) {
        *out = v->as.bytes;
        return CODEC_OK;
    }
    if (v->kind != CODEC_V_STRING || !w->b64)
        return mismatch(w, "base64 text", t);
    return codec_decode(w->b64, (const uint8_t *)v->as.s.ptr, v->as.s.len, out, w->arena, w->err);
}

static int from_value(walk *w, const codec_type *t, const codec_value *v, void *out)
{
    if (++w->depth > WALK_MAX_DEPTH)
        return fail(w, CODEC_E_INVALID_PAYLOAD, "values nest too deeply", t->name);
    int rc = CODEC_OK;
    switch (t->kind) {
    case CODEC_T_STRUCT: rc = struct_from_value(w, t, v, out); break;
    case CODEC_T_POINTER: {
        void *target = grab(w, t->elem->size);
        if (!target)
            return fail(w, CODEC_E_NOMEM, "out of memory", NULL);
        *(void **)out = target;
        rc = from_value(w, t->elem, v, target);
        break;
    }
    case CODEC_T_OPTIONAL:
        *(bool *)out = true;
        rc = from_value(w, t->elem, v, (uint8_t *)out + t->value_offset);
        break;
    case CODEC_T_LIST: rc = list_from_value(w, t, v, out); break;
    case CODEC_T_MAP: rc = map_from_value(w, t, v, out); break;
    case CODEC_T_ENUM: {
        const codec_enum_value *e = v->kind == CODEC_V_STRING
                                        ? codec_enum_by_name(t, v->as.s.ptr, v->as.s.len) : NULL;
        if (e)
            *(int32_t *)out = e->number;
        else
            rc = int_from_value(w, &codec_type_int32, v, out);
        break;
    }
    case CODEC_T_BOOL:
        if (v->kind != CODEC_V_BOOL)
            return mismatch(w, "true or false", t);
        *(bool *)out = v->as.b;
        break;
    case CODEC_T_FLOAT:
    case CODEC_T_DOUBLE: {
        codec_value n;
        if ((rc = number_of(w, t, v, &n)))
            break;
        double d = n.kind == CODEC_V_DOUBLE ? n.as.d : n.kind == CODEC_V_INT ? (double)n.as.i
                                                                             : (double)n.as.u;
        if (t->kind == CODEC_T_FLOAT)
            *(float *)out = (float)d;
        else
            *(double *)out = d;
        break;
    }
    case CODEC_T_STRING:
        if (v->kind != CODEC_V_STRING)
            return mismatch(w, "a string", t);
        *(codec_string *)out = v->as.s;
        break;
    case CODEC_T_BYTES: rc = bytes_from_value(w, t, v, out); break;
    default:
        if (codec_kind_is_signed(t->kind) || codec_kind_is_unsigned(t->kind))
            rc = int_from_value(w, t, v, out);
        else
            rc = fail(w, CODEC_E_UNSUPPORTED, "a kind run-time schemas do not make", t->name);
    }
    w->depth--;
    return rc;
}

/* ---------------------------------------------------------------------------
 * The command
 * ------------------------------------------------------------------------ */

static bool is_protobuf(const char *spec)
{
    return strncmp(spec, "protobuf", 8) == 0 && strchr(":| \t", spec[8] ? spec[8] : ' ');
}

static bool is_json(const char *spec)
{
    return strncmp(spec, "json", 4) == 0 && strchr(":| \t", spec[4] ? spec[4] : ' ');
}

int cli_convert_with_schema(const char *from_spec, const char *to_spec, const char *schema_path,
                            const char *type_name, const cli_input *in, codec_error *err)
{
    if (is_protobuf(from_spec) == is_protobuf(to_spec))
        return codec_error_set(err, CODEC_E_USAGE, 0, "convert", CODEC_NO_OFFSET,
                               "--schema converts protobuf to or from another format: one of "
                               "-f and -t must be protobuf");
    cli_input desc;
    int rc = cli_read_input(schema_path, CLI_DEFAULT_MAX_INPUT, &desc, err);
    if (rc)
        return rc;
    codec_schema *s = codec_schema_from_descriptor_set(desc.data, desc.len, err);
    cli_input_free(&desc);
    if (!s)
        return err->family;
    const codec_type *t = codec_schema_type(s, type_name);
    if (!t || t->kind != CODEC_T_STRUCT) {
        codec_schema_free(s);
        return codec_error_set(err, CODEC_E_USAGE, 0, "convert", CODEC_NO_OFFSET,
                               "%s: no message '%s' in the descriptor set", schema_path,
                               type_name);
    }
    bool from_pb = is_protobuf(from_spec);
    const char *other = from_pb ? to_spec : from_spec;
    codec *pb = codec_parse(from_pb ? from_spec : to_spec, t, err);
    codec *val = pb ? codec_parse(other, codec_value_type(), err) : NULL;
    codec *b64 = is_json(other) ? codec_parse("base64", NULL, err) : NULL;
    codec_arena arena;
    codec_arena_init(&arena, NULL, in->len * 2 + 4096);
    codec_buf out;
    codec_buf_init(&out, NULL);
    walk w = {.arena = &arena, .err = err, .b64 = b64};
    void *typed = codec_arena_alloc(&arena, t->size, t->align);
    codec_value v;
    rc = !pb || !val || (is_json(other) && !b64) ? err->family : !typed ? CODEC_E_NOMEM : CODEC_OK;
    if (!rc && from_pb) {
        rc = codec_decode(pb, in->data, in->len, typed, &arena, err);
        if (!rc)
            rc = to_value(&w, t, typed, &v);
        if (!rc)
            rc = codec_encode(val, &v, &out, err);
        if (!rc && is_json(other) && !strchr(other, '|'))
            rc = codec_buf_append(&out, "\n", 1);
    } else if (!rc) {
        memset(typed, 0, t->size);
        rc = codec_decode(val, in->data, in->len, &v, &arena, err);
        if (!rc)
            rc = from_value(&w, t, &v, typed);
        if (!rc)
            rc = codec_encode(pb, typed, &out, err);
    }
    if (!rc)
        rc = cli_write_output(out.data, out.len, err);
    codec_buf_free(&out);
    codec_arena_free(&arena);
    codec_free(b64);
    codec_free(val);
    codec_free(pb);
    codec_schema_free(s);
    return rc;
}
