/* schema.c — codec types built at run time from a descriptor set
 * (codec/schema.h), with the mapping codec-gen's generated code has: the
 * same descriptor kinds and flags, and the layout a C compiler gives the
 * generated struct. Everything lives in the schema's arena. */
#include "codec/protobuf.h"
#include "codec/schema.h"
/* descriptor.proto's types, generated static (tools/codec-gen/regen-bootstrap.sh);
 * codec-gen's tools/codec-gen/proto.c #includes the same file. */
#include "google/protobuf/descriptor.codec.c"
#include "types/index_internal.h"
#include "core/error_internal.h"

#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

typedef codec__google_protobuf_FileDescriptorProto file_desc;
typedef codec__google_protobuf_DescriptorProto msg_desc;
typedef codec__google_protobuf_FieldDescriptorProto field_desc;
typedef codec__google_protobuf_EnumDescriptorProto enum_desc;

#define STAGE "schema"

enum {
    T_DOUBLE = 1, T_FLOAT, T_INT64, T_UINT64, T_INT32, T_FIXED64, T_FIXED32, T_BOOL, T_STRING,
    T_GROUP, T_MESSAGE, T_BYTES, T_UINT32, T_ENUM, T_SFIXED32, T_SFIXED64, T_SINT32, T_SINT64
};
enum { L_REQUIRED = 2, L_REPEATED = 3 };

typedef struct entry {
    const char *full;          /* "pkg.Msg" */
    codec_type *type;
    const msg_desc *msg;       /* or */
    const enum_desc *en;
    const file_desc *file;
    bool map_entry;
} entry;

struct codec_schema {
    codec_arena arena;
    entry *entries;
    size_t count;
};

typedef struct builder {
    codec_schema *s;
    codec_error *err;
    size_t cap;
} builder;

static int nomem(builder *b)
{
    return codec__nomem(b->err, STAGE);
}

static void *take(builder *b, size_t n)
{
    void *p = codec_arena_alloc(&b->s->arena, n ? n : 1, 16);
    if (p)
        memset(p, 0, n ? n : 1);
    return p;
}

/* A NUL-terminated copy of `prefix` + "." + s (no dot when prefix is ""). */
static char *name_of(builder *b, const char *prefix, codec_string s)
{
    size_t np = strlen(prefix), n = np + (np ? 1 : 0) + s.len;
    char *d = take(b, n + 1);
    if (!d)
        return NULL;
    memcpy(d, prefix, np);
    if (np)
        d[np] = '.';
    if (s.len)
        memcpy(d + np + (np ? 1 : 0), s.ptr, s.len);
    return d;
}

#define OPT_STR(o) ((o).has ? (o).value : (codec_string){"", 0})

static entry *add_entry(builder *b)
{
    codec_schema *s = b->s;
    if (s->count == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        entry *e = take(b, cap * sizeof *e);
        if (!e)
            return NULL;
        if (s->count)
            memcpy(e, s->entries, s->count * sizeof *e);
        s->entries = e;
        b->cap = cap;
    }
    entry *e = &s->entries[s->count++];
    if (!(e->type = take(b, sizeof *e->type)))
        return NULL;
    return e;
}

static int add_enum(builder *b, const file_desc *f, const enum_desc *ed, const char *scope)
{
    entry *e = add_entry(b);
    if (!e || !(e->full = name_of(b, scope, OPT_STR(ed->name))))
        return nomem(b);
    e->en = ed;
    e->file = f;
    e->type->kind = CODEC_T_ENUM;   /* known before it is built: fields look at it */
    return CODEC_OK;
}

static int add_msg(builder *b, const file_desc *f, const msg_desc *m, const char *scope)
{
    entry *e = add_entry(b);
    if (!e || !(e->full = name_of(b, scope, OPT_STR(m->name))))
        return nomem(b);
    e->msg = m;
    e->file = f;
    e->type->kind = CODEC_T_STRUCT;
    e->map_entry = m->options && m->options->map_entry.has && m->options->map_entry.value;
    const char *full = e->full;   /* e moves when the table grows */
    for (size_t i = 0; i < m->enum_type.count; i++)
        if (add_enum(b, f, &m->enum_type.items[i], full))
            return b->err->family;
    for (size_t i = 0; i < m->nested_type.count; i++)
        if (add_msg(b, f, &m->nested_type.items[i], full))
            return b->err->family;
    return CODEC_OK;
}

static const entry *find(const codec_schema *s, codec_string name)
{
    if (name.len && name.ptr[0] == '.')
        name.ptr++, name.len--;
    for (size_t i = 0; i < s->count; i++)
        if (strlen(s->entries[i].full) == name.len &&
            memcmp(s->entries[i].full, name.ptr, name.len) == 0)
            return &s->entries[i];
    return NULL;
}

/* ---------------------------------------------------------------------------
 * Types of fields
 * ------------------------------------------------------------------------ */

static size_t align_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* One value's type and flags (ZIGZAG/FIXED). */
static int value_type(builder *b, const field_desc *f, const codec_type **t, uint32_t *flags)
{
    static const codec_type *const scalars[] = {
        [T_DOUBLE] = &codec_type_double, [T_FLOAT] = &codec_type_float,
        [T_INT64] = &codec_type_int64,   [T_UINT64] = &codec_type_uint64,
        [T_INT32] = &codec_type_int32,   [T_FIXED64] = &codec_type_uint64,
        [T_FIXED32] = &codec_type_uint32, [T_BOOL] = &codec_type_bool,
        [T_STRING] = &codec_type_string, [T_BYTES] = &codec_type_bytes,
        [T_UINT32] = &codec_type_uint32, [T_SFIXED32] = &codec_type_int32,
        [T_SFIXED64] = &codec_type_int64, [T_SINT32] = &codec_type_int32,
        [T_SINT64] = &codec_type_int64,
    };
    int k = f->type.has ? f->type.value : 0;
    codec_string name = OPT_STR(f->name);
    *flags = (k == T_SINT32 || k == T_SINT64)                                          ? CODEC_FIELD_ZIGZAG
             : (k == T_FIXED32 || k == T_FIXED64 || k == T_SFIXED32 || k == T_SFIXED64) ? CODEC_FIELD_FIXED
                                                                                      : 0;
    if (k == T_MESSAGE || k == T_ENUM || (!k && f->type_name.has)) {
        const entry *e = find(b->s, OPT_STR(f->type_name));
        if (!e)
            return codec_error_set(b->err, CODEC_E_UNSUPPORTED, 0, STAGE, CODEC_NO_OFFSET,
                                   "field %.*s: type %.*s is not in the descriptor set",
                                   (int)name.len, name.ptr, (int)OPT_STR(f->type_name).len,
                                   OPT_STR(f->type_name).ptr);
        *t = e->type;
        return CODEC_OK;
    }
    if (k <= 0 || k >= (int)(sizeof scalars / sizeof scalars[0]) || !scalars[k])
        return codec_error_set(b->err, CODEC_E_UNSUPPORTED, 0, STAGE, CODEC_NO_OFFSET,
                               "field %.*s: %s", (int)name.len, name.ptr,
                               k == T_GROUP ? "groups (proto2) are not supported"
                                            : "unknown field type");
    *t = scalars[k];
    return CODEC_OK;
}

static const field_desc *entry_field(const msg_desc *m, int32_t number)
{
    for (size_t i = 0; i < m->field.count; i++)
        if (m->field.items[i].number.value == number)
            return &m->field.items[i];
    return NULL;
}

static bool in_oneof(const field_desc *f)
{
    return f->oneof_index.has && !(f->proto3_optional.has && f->proto3_optional.value);
}

static codec_type *container(builder *b, codec_type_kind kind, const codec_type *elem,
                             size_t size, size_t align)
{
    codec_type *t = take(b, sizeof *t);
    if (t)
        *t = (codec_type){.kind = kind, .name = elem->name, .size = size, .align = align,
                          .elem = elem};
    return t;
}

/* The type of field f of message e, and its flags. */
static int field_type(builder *b, const entry *e, const field_desc *f, const codec_type **out,
                      uint32_t *flags)
{
    const codec_type *v;
    int rc = value_type(b, f, &v, flags);
    if (rc)
        return rc;
    int label = f->label.has ? f->label.value : 1;
    const entry *target = v->kind == CODEC_T_STRUCT || v->kind == CODEC_T_ENUM
                              ? find(b->s, OPT_STR(f->type_name)) : NULL;
    bool proto3 = e->file->syntax.has && e->file->syntax.value.len == 6 &&
                  memcmp(e->file->syntax.value.ptr, "proto3", 6) == 0;
    codec_type *t = NULL;
    if (label == L_REPEATED && target && target->map_entry) {
        const field_desc *kf = entry_field(target->msg, 1), *vf = entry_field(target->msg, 2);
        const codec_type *kt, *vt;
        uint32_t kflags, vflags;
        if (!kf || !vf)
            return codec_error_set(b->err, CODEC_E_UNSUPPORTED, 0, STAGE, CODEC_NO_OFFSET,
                                   "map entry %s lacks its key or value", target->full);
        if ((rc = value_type(b, kf, &kt, &kflags)) || (rc = value_type(b, vf, &vt, &vflags)))
            return rc;
        if ((t = container(b, CODEC_T_MAP, vt, sizeof(codec_map), alignof(codec_map)))) {
            t->key = kt;
            t->flags = (kflags & CODEC_FIELD_ZIGZAG ? CODEC_TYPE_KEY_ZIGZAG : 0) |
                       (kflags & CODEC_FIELD_FIXED ? CODEC_TYPE_KEY_FIXED : 0);
        }
        *flags = vflags;
    } else if (label == L_REPEATED) {
        t = container(b, CODEC_T_LIST, v, sizeof(codec_list), alignof(codec_list));
        bool packable = v->kind != CODEC_T_STRUCT && v->kind != CODEC_T_STRING &&
                        v->kind != CODEC_T_BYTES;
        bool packed = f->options && f->options->packed.has ? f->options->packed.value : proto3;
        if (packable && !packed)
            *flags |= CODEC_FIELD_UNPACKED;
    } else if (v->kind == CODEC_T_STRUCT) {
        t = container(b, CODEC_T_POINTER, v, sizeof(void *), alignof(void *));
    } else if (!in_oneof(f) && (!proto3 || f->oneof_index.has)) {
        /* The value sits after the flag, at its own alignment (as in
         * CODEC_OPTIONAL_OF(T)); the value's size is known: a scalar. */
        size_t size = align_up(v->align + v->size, v->align);
        if ((t = container(b, CODEC_T_OPTIONAL, v, size, v->align)))
            t->value_offset = v->align;
        if (label == L_REQUIRED)
            *flags |= CODEC_FIELD_REQUIRED;
    } else {
        *out = v;
        return CODEC_OK;
    }
    if (!t)
        return nomem(b);
    *out = t;
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * Messages
 * ------------------------------------------------------------------------ */

static int cmp_number(const void *x, const void *y)
{
    int32_t a = (*(const field_desc *const *)x)->number.value;
    int32_t c = (*(const field_desc *const *)y)->number.value;
    return a < c ? -1 : a > c;
}

static char *cstr(builder *b, codec_string s)
{
    return name_of(b, "", s);
}

/* The union type of oneof k of message e: `which`, then the members at one
 * offset (as a C struct { uint32_t which; union {...}; }); flat, as proto3
 * JSON writes a oneof's member as a field of the message. */
static int oneof_type(builder *b, const entry *e, int32_t k, const field_desc **sorted,
                      size_t n, codec_type **out)
{
    size_t members = 0, ualign = 1, usize = 0;
    for (size_t i = 0; i < n; i++)
        members += in_oneof(sorted[i]) && sorted[i]->oneof_index.value == k;
    codec_field *fs = take(b, members * sizeof *fs);
    codec_type *u = take(b, sizeof *u);
    codec_type_cache *cache = take(b, sizeof *cache);
    if (!fs || !u || !cache)
        return nomem(b);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        const field_desc *f = sorted[i];
        if (!in_oneof(f) || f->oneof_index.value != k)
            continue;
        const codec_type *t;
        uint32_t flags;
        int rc = field_type(b, e, f, &t, &flags);
        if (rc)
            return rc;
        fs[j++] = (codec_field){.name = cstr(b, f->json_name.has ? f->json_name.value
                                                                  : OPT_STR(f->name)),
                                .tag = (uint32_t)f->number.value, .flags = flags,
                                .size = t->size, .type = t};
        if (t->align > ualign)
            ualign = t->align;
        if (t->size > usize)
            usize = t->size;
    }
    size_t at = align_up(sizeof(uint32_t), ualign);
    for (size_t i = 0; i < members; i++)
        fs[i].offset = at;
    size_t align = ualign > sizeof(uint32_t) ? ualign : sizeof(uint32_t);
    const msg_desc *m = e->msg;
    *u = (codec_type){.kind = CODEC_T_UNION,
                      .name = (size_t)k < m->oneof_decl.count
                                  ? cstr(b, OPT_STR(m->oneof_decl.items[k].name)) : "oneof",
                      .size = align_up(at + usize, align), .align = align, .fields = fs,
                      .count = members, .cache = cache, .flags = CODEC_TYPE_FLAT};
    *out = u;
    return CODEC_OK;
}

static int build_msg(builder *b, const entry *e)
{
    const msg_desc *m = e->msg;
    size_t n = m->field.count;
    const field_desc **sorted = take(b, n * sizeof *sorted);
    codec_field *fs = take(b, (n + 1) * sizeof *fs);
    uint32_t *done_oneof = take(b, (m->oneof_decl.count + 1) * sizeof *done_oneof);
    codec_type_cache *cache = take(b, sizeof *cache);
    if (!sorted || !fs || !done_oneof || !cache)
        return nomem(b);
    for (size_t i = 0; i < n; i++)
        sorted[i] = &m->field.items[i];
    qsort(sorted, n, sizeof *sorted, cmp_number);
    size_t count = 0, offset = 0, align = 1;
    uint32_t oneof_tag = 0xfffffffeu;
    int32_t *src = take(b, (n + 1) * sizeof *src);   /* per fs entry: field number, or -1-oneof */
    if (!src)
        return nomem(b);
    for (size_t i = 0; i < n; i++) {
        const field_desc *f = sorted[i];
        codec_field *cf = &fs[count];
        int rc;
        if (in_oneof(f)) {
            int32_t k = f->oneof_index.value;
            if (k < 0 || (size_t)k >= m->oneof_decl.count || done_oneof[k])
                continue;   /* one union per oneof, where its first member is */
            done_oneof[k] = 1;
            codec_type *u = NULL;
            if ((rc = oneof_type(b, e, k, sorted, n, &u)))
                return rc;
            *cf = (codec_field){.name = u->name, .tag = oneof_tag--, .type = u};
            src[count] = -1 - k;
        } else {
            const codec_type *t;
            uint32_t flags;
            if ((rc = field_type(b, e, f, &t, &flags)))
                return rc;
            *cf = (codec_field){.name = cstr(b, f->json_name.has ? f->json_name.value
                                                                  : OPT_STR(f->name)),
                                .tag = (uint32_t)f->number.value, .flags = flags, .type = t};
            src[count] = f->number.value;
        }
        if (!cf->name)
            return nomem(b);
        count++;
    }
    /* The unknown-fields sink, as in generated structs. */
    fs[count++] = (codec_field){.name = "codec_unknown", .tag = 0xffffffffu,
                                .flags = CODEC_FIELD_UNKNOWN_BYTES, .type = &codec_type_bytes};
    /* Members in declaration order, a oneof where its first member is
     * declared, the sink last: the generated struct's layout. */
    for (size_t i = 0; i <= m->field.count; i++) {
        const field_desc *f = i < m->field.count ? &m->field.items[i] : NULL;
        int32_t want = !f ? 0 : in_oneof(f) ? -1 - f->oneof_index.value : f->number.value;
        for (size_t j = 0; j < count; j++) {
            if (f ? src[j] != want || fs[j].size : j != count - 1)
                continue;   /* not this member, or placed already */
            const codec_type *t = fs[j].type;
            offset = align_up(offset, t->align);
            fs[j].offset = offset;
            fs[j].size = t->size;
            offset += t->size;
            if (t->align > align)
                align = t->align;
        }
    }
    *e->type = (codec_type){.kind = CODEC_T_STRUCT, .name = e->full,
                            .size = align_up(offset, align), .align = align, .fields = fs,
                            .count = count, .cache = cache};
    return CODEC_OK;
}

static int build_enum(builder *b, const entry *e)
{
    const enum_desc *ed = e->en;
    codec_enum_value *vs = take(b, (ed->value.count + 1) * sizeof *vs);
    if (!vs)
        return nomem(b);
    for (size_t i = 0; i < ed->value.count; i++) {
        vs[i].number = ed->value.items[i].number.value;
        if (!(vs[i].name = cstr(b, OPT_STR(ed->value.items[i].name))))
            return nomem(b);
    }
    *e->type = (codec_type){.kind = CODEC_T_ENUM, .name = e->full, .size = sizeof(int32_t),
                            .align = alignof(int32_t), .values = vs, .count = ed->value.count};
    return CODEC_OK;
}

codec_schema *codec_schema_from_descriptor_set(const uint8_t *data, size_t n, codec_error *err)
{
    const codec_allocator *a = codec_default_allocator();
    codec_schema *s = a->alloc(a->ctx, sizeof *s);
    if (!s) {
        codec__nomem(err, STAGE);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    codec_arena_init(&s->arena, NULL, n * 4 + 4096);
    codec_error local;
    builder b = {.s = s, .err = err ? err : &local};
    codec__google_protobuf_FileDescriptorSet *set = take(&b, sizeof *set);
    codec_protobuf_options o = {.max_size = n + 1};
    codec *c = set ? codec_protobuf(&codec__google_protobuf_FileDescriptorSet_type, &o, b.err) : NULL;
    int rc = !set ? nomem(&b) : !c ? b.err->family : codec_decode(c, data, n, set, &s->arena, b.err);
    codec_free(c);
    for (size_t f = 0; !rc && f < set->file.count; f++) {
        const file_desc *fd = &set->file.items[f];
        char *pkg = cstr(&b, OPT_STR(fd->package));
        if (!pkg)
            rc = nomem(&b);
        for (size_t i = 0; !rc && i < fd->enum_type.count; i++)
            rc = add_enum(&b, fd, &fd->enum_type.items[i], pkg);
        for (size_t i = 0; !rc && i < fd->message_type.count; i++)
            rc = add_msg(&b, fd, &fd->message_type.items[i], pkg);
    }
    /* Enums first: an optional enum field needs its size. Messages need no
     * other message's size (they hold them by pointer, list or map). */
    for (size_t i = 0; !rc && i < s->count; i++)
        rc = s->entries[i].en ? build_enum(&b, &s->entries[i]) : 0;
    for (size_t i = 0; !rc && i < s->count; i++)
        rc = s->entries[i].msg ? build_msg(&b, &s->entries[i]) : 0;
    if (rc) {
        codec_schema_free(s);
        return NULL;
    }
    return s;
}

const codec_type *codec_schema_type(const codec_schema *s, const char *full_name)
{
    const entry *e = s && full_name ? find(s, (codec_string){full_name, strlen(full_name)}) : NULL;
    return e && !e->map_entry ? e->type : NULL;
}

void codec_schema_free(codec_schema *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++) {
        const codec_type *t = s->entries[i].type;
        if (t->kind != CODEC_T_STRUCT)
            continue;
        for (size_t j = 0; j < t->count; j++)
            if (t->fields[j].type->kind == CODEC_T_UNION)
                codec__type_index_free(t->fields[j].type);
        codec__type_index_free(t);
    }
    codec_arena_free(&s->arena);
    const codec_allocator *a = codec_default_allocator();
    a->release(a->ctx, s, sizeof *s);
}
