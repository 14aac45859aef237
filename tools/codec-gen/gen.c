/* gen.c — turns protobuf file descriptors into C: structs, enums, codec
 * descriptors, proto names and a Fory registry (gen.h).
 *
 * Every message becomes a struct and a `const codec_type X_type`; singular
 * message fields are pointers (CODEC_T_POINTER: presence is kept and
 * messages may contain themselves), repeated fields lists, maps maps, fields
 * with explicit presence CODEC_OPTIONAL_OF. Every struct ends with a
 * `codec_unknown` member that keeps the fields its schema does not know.
 * Descriptor fields are listed in field-number order, the order Google's
 * serializers write, so the bytes match theirs. */
#include "gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef codec__google_protobuf_FileDescriptorProto file_desc;
typedef codec__google_protobuf_DescriptorProto msg_desc;
typedef codec__google_protobuf_FieldDescriptorProto field_desc;
typedef codec__google_protobuf_EnumDescriptorProto enum_desc;

/* One message or enum of any file. */
typedef struct sym {
    char *full;            /* "pkg.Outer.Inner" */
    char *cname;           /* "pkg_Outer_Inner" */
    const msg_desc *msg;   /* or */
    const enum_desc *en;
    size_t file;
    bool map_entry;
    bool is_union;         /* Fory IDL `union` (fdl.c marks it, see is_fdl_union) */
    uint32_t fory_id;
    int8_t fory_spec;      /* Fory IDL --specialize: 0 not known, 1 yes, 2 no (fory_check) */
} sym;

typedef struct gen {
    const file_desc *files;
    size_t nfiles;
    const codec__gen_options *o;
    sym *syms;
    size_t nsyms, cap;
    char **taken;          /* C identifiers handed out (types and enum constants) */
    size_t ntaken, taken_cap;
    char *error;
    int failed;
} gen;

#define out codec__gen_out

/* ---------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------ */

static void *xalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fputs("codec-gen: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

/* Appends to generated text; like xalloc, out of memory ends the run. */
static void append(codec_buf *b, const void *p, size_t n)
{
    if (codec_buf_append(b, p, n)) {
        fputs("codec-gen: out of memory\n", stderr);
        exit(2);
    }
}

static char *dup_n(const char *s, size_t n)
{
    char *d = xalloc(n + 1);
    if (n)
        memcpy(d, s, n);
    return d;
}

static char *dup_s(codec_string s)
{
    return dup_n(s.ptr, s.len);
}

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = xalloc((size_t)n + 1);
    va_start(ap, f);
    vsnprintf(s, (size_t)n + 1, f, ap);
    va_end(ap);
    return s;
}

void codec__gen_out(codec_buf *b, const char *f, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(small, sizeof small, f, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        append(b, small, (size_t)n);
        return;
    }
    char *big = xalloc((size_t)n + 1);
    va_start(ap, f);
    vsnprintf(big, (size_t)n + 1, f, ap);
    va_end(ap);
    append(b, big, (size_t)n);
    free(big);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int gen_fail(gen *g, const char *f, ...)
{
    if (!g->failed) {
        va_list ap;
        va_start(ap, f);
        vsnprintf(g->error, 512, f, ap);
        va_end(ap);
    }
    g->failed = 1;
    return -1;
}

static bool str_eq(codec_string s, const char *z)
{
    return s.len == strlen(z) && (s.len == 0 || memcmp(s.ptr, z, s.len) == 0);
}

/* An optional string's text, or "". */
#define OPT_STR(o) ((o).has ? (o).value : (codec_string){"", 0})

static const char *const c_keywords[] = {
    "auto", "bool", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "false", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "true", "typedef", "union", "unsigned", "void", "volatile", "while", "alignas", "alignof",
    "codec_unknown", NULL};

/* A member name: the proto name, with `_` appended to C keywords. */
static char *member_name(codec_string name)
{
    for (const char *const *k = c_keywords; *k; k++)
        if (str_eq(name, *k))
            return fmt("%.*s_", (int)name.len, name.ptr);
    return dup_s(name);
}

/* proto3's JSON name: underscores dropped, the letter after one capitalised. */
static char *json_name(codec_string name)
{
    char *d = xalloc(name.len + 1), *p = d;
    bool up = false;
    for (size_t i = 0; i < name.len; i++) {
        char c = name.ptr[i];
        if (c == '_') {
            up = true;
            continue;
        }
        *p++ = up && c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
        up = false;
    }
    return d;
}

/* A C identifier for `want`, unique among those handed out: a clash gets
 * _2, _3... (codec-gen warns: such names depend on declaration order). */
static char *take_name(gen *g, char *want)
{
    char *name = want;
    for (int n = 2;; n++) {
        bool clash = false;
        for (size_t i = 0; i < g->ntaken && !clash; i++)
            clash = strcmp(g->taken[i], name) == 0;
        for (const char *const *k = c_keywords; *k && !clash; k++)
            clash = strcmp(*k, name) == 0;
        if (!clash)
            break;
        if (name != want)
            free(name);
        name = fmt("%s_%d", want, n);
    }
    if (name != want) {
        fprintf(stderr, "codec-gen: warning: C name %s is taken; using %s\n", want, name);
        free(want);
    }
    if (g->ntaken == g->taken_cap) {
        g->taken_cap = g->taken_cap ? g->taken_cap * 2 : 64;
        char **t = realloc(g->taken, g->taken_cap * sizeof *t);
        if (!t)
            exit(2);
        g->taken = t;
    }
    g->taken[g->ntaken++] = name;
    return name;
}

/* ---------------------------------------------------------------------------
 * The symbol table: every message and enum of every file
 * ------------------------------------------------------------------------ */

static sym *add_sym(gen *g)
{
    if (g->nsyms == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 64;
        sym *s = realloc(g->syms, g->cap * sizeof *s);
        if (!s)
            exit(2);
        g->syms = s;
    }
    sym *s = &g->syms[g->nsyms++];
    memset(s, 0, sizeof *s);
    return s;
}

/* "a.b" + "." + "C" (no dot when scope is empty); `sep` joins C names. */
static char *join(const char *scope, codec_string name, char sep)
{
    return scope[0] ? fmt("%s%c%.*s", scope, sep, (int)name.len, name.ptr) : dup_s(name);
}

static char *scope_cname(gen *g, const char *full)
{
    char *c = fmt("%s%s", g->o->prefix, full);
    for (char *p = c; *p; p++)
        if (*p == '.')
            *p = '_';
    return c;
}

static uint32_t fory_id_of(gen *g, const char *full)
{
    for (size_t i = 0; i < g->o->fory_id_count; i++)
        if (strcmp(g->o->fory_ids[i].full_name, full) == 0)
            return g->o->fory_ids[i].id;
    return 0;
}

static void add_enum(gen *g, const enum_desc *e, const char *scope, size_t file)
{
    sym *s = add_sym(g);
    s->full = join(scope, OPT_STR(e->name), '.');
    s->cname = take_name(g, scope_cname(g, s->full));
    s->en = e;
    s->file = file;
    s->fory_id = fory_id_of(g, s->full);
}

static void add_msg(gen *g, const msg_desc *m, const char *scope, size_t file)
{
    sym *s = add_sym(g);
    char *full = join(scope, OPT_STR(m->name), '.');
    s->full = full;
    s->msg = m;
    s->file = file;
    s->map_entry = m->options && m->options->map_entry.has && m->options->map_entry.value;
    /* fdl.c marks a Fory IDL union with MessageOptions.no_standard_descriptor_accessor,
     * an option protobuf files never need here; its fields are the cases. */
    s->is_union = m->options && m->options->no_standard_descriptor_accessor.has &&
                  m->options->no_standard_descriptor_accessor.value;
    s->cname = s->map_entry ? scope_cname(g, full) : take_name(g, scope_cname(g, full));
    s->fory_id = fory_id_of(g, full);
    for (size_t i = 0; i < m->enum_type.count; i++)
        add_enum(g, &m->enum_type.items[i], full, file);
    for (size_t i = 0; i < m->nested_type.count; i++)
        add_msg(g, &m->nested_type.items[i], full, file);
}

static void build_syms(gen *g)
{
    for (size_t f = 0; f < g->nfiles; f++) {
        const file_desc *fd = &g->files[f];
        char *pkg = dup_s(OPT_STR(fd->package));
        for (size_t i = 0; i < fd->enum_type.count; i++)
            add_enum(g, &fd->enum_type.items[i], pkg, f);
        for (size_t i = 0; i < fd->message_type.count; i++)
            add_msg(g, &fd->message_type.items[i], pkg, f);
        free(pkg);
    }
}

/* The message or enum a field's type_name (".pkg.Msg") names. */
static const sym *find_sym(gen *g, codec_string type_name)
{
    if (type_name.len && type_name.ptr[0] == '.')
        type_name.ptr++, type_name.len--;
    for (size_t i = 0; i < g->nsyms; i++)
        if (str_eq(type_name, g->syms[i].full))
            return &g->syms[i];
    return NULL;
}

/* ---------------------------------------------------------------------------
 * Fields: their C member type, descriptor type and flags
 * ------------------------------------------------------------------------ */

enum { L_OPTIONAL = 1, L_REQUIRED, L_REPEATED };

/* One value's C type and descriptor (`CODEC_INT32`, `&pkg_Msg_type`). */
typedef struct vtype {
    const char *ctype;
    char *desc;
    uint32_t flags;        /* ZIGZAG / FIXED */
    const sym *target;     /* message or enum */
    bool is_message;
    bool is_array;         /* Fory IDL array<T> */
} vtype;

static int value_type(gen *g, const field_desc *f, vtype *v)
{
    static const struct {
        const char *ctype, *desc;
        uint32_t flags;
    } scalars[] = {
        [T_DOUBLE] = {"double", "CODEC_DOUBLE", 0},
        [T_FLOAT] = {"float", "CODEC_FLOAT", 0},
        [T_INT64] = {"int64_t", "CODEC_INT64", 0},
        [T_UINT64] = {"uint64_t", "CODEC_UINT64", 0},
        [T_INT32] = {"int32_t", "CODEC_INT32", 0},
        [T_FIXED64] = {"uint64_t", "CODEC_UINT64", CODEC_FIELD_FIXED},
        [T_FIXED32] = {"uint32_t", "CODEC_UINT32", CODEC_FIELD_FIXED},
        [T_BOOL] = {"bool", "CODEC_BOOL", 0},
        [T_STRING] = {"codec_string", "CODEC_STRING", 0},
        [T_BYTES] = {"codec_bytes", "CODEC_BYTES", 0},
        [T_UINT32] = {"uint32_t", "CODEC_UINT32", 0},
        [T_SFIXED32] = {"int32_t", "CODEC_INT32", CODEC_FIELD_FIXED},
        [T_SFIXED64] = {"int64_t", "CODEC_INT64", CODEC_FIELD_FIXED},
        [T_SINT32] = {"int32_t", "CODEC_INT32", CODEC_FIELD_ZIGZAG},
        [T_SINT64] = {"int64_t", "CODEC_INT64", CODEC_FIELD_ZIGZAG},
    };
    static const struct {
        const char *name, *ctype, *desc;
        uint32_t flags;
    } pseudo[] = {
        /* Fory IDL types protobuf lacks (fdl.c names them ".codec.X"). */
        {"int8", "int8_t", "CODEC_INT8", 0},
        {"int16", "int16_t", "CODEC_INT16", 0},
        {"uint8", "uint8_t", "CODEC_UINT8", 0},
        {"uint16", "uint16_t", "CODEC_UINT16", 0},
        {"date", "codec_date", "CODEC_DATE", 0},
        {"timestamp", "codec_timestamp", "CODEC_TIMESTAMP", 0},
        {"decimal", "codec_string", "CODEC_DECIMAL", 0},
        {"tagged.int64", "int64_t", "CODEC_INT64", CODEC_FIELD_TAGGED},
        {"tagged.uint64", "uint64_t", "CODEC_UINT64", CODEC_FIELD_TAGGED},
        {"array.bool", "bool", "CODEC_BOOL", 0},
        {"array.int8", "int8_t", "CODEC_INT8", 0},
        {"array.int16", "int16_t", "CODEC_INT16", 0},
        {"array.int32", "int32_t", "CODEC_INT32", 0},
        {"array.int64", "int64_t", "CODEC_INT64", 0},
        {"array.uint8", "uint8_t", "CODEC_UINT8", 0},
        {"array.uint16", "uint16_t", "CODEC_UINT16", 0},
        {"array.uint32", "uint32_t", "CODEC_UINT32", 0},
        {"array.uint64", "uint64_t", "CODEC_UINT64", 0},
        {"array.float32", "float", "CODEC_FLOAT", 0},
        {"array.float64", "double", "CODEC_DOUBLE", 0},
    };
    memset(v, 0, sizeof *v);
    int t = f->type.has ? f->type.value : 0;
    codec_string name = OPT_STR(f->name);
    codec_string tn = OPT_STR(f->type_name);
    if (!t && tn.len > 7 && memcmp(tn.ptr, ".codec.", 7) == 0) {
        for (size_t i = 0; i < sizeof pseudo / sizeof pseudo[0]; i++)
            if (tn.len - 7 == strlen(pseudo[i].name) &&
                memcmp(tn.ptr + 7, pseudo[i].name, tn.len - 7) == 0) {
                v->ctype = pseudo[i].ctype;
                v->desc = dup_n(pseudo[i].desc, strlen(pseudo[i].desc));
                v->flags = pseudo[i].flags;
                v->is_array = memcmp(tn.ptr + 7, "array.", 6) == 0;
                return 0;
            }
        return gen_fail(g, "field %.*s: unknown type %.*s", (int)name.len, name.ptr,
                        (int)tn.len, tn.ptr);
    }
    if (t == T_GROUP)
        return gen_fail(g, "field %.*s: groups (proto2) are not supported", (int)name.len,
                        name.ptr);
    if (t == T_MESSAGE || t == T_ENUM || (!t && f->type_name.has)) {
        const sym *s = find_sym(g, OPT_STR(f->type_name));
        if (!s)
            return gen_fail(g, "field %.*s: unknown type %.*s", (int)name.len, name.ptr,
                            (int)OPT_STR(f->type_name).len, OPT_STR(f->type_name).ptr);
        v->target = s;
        v->is_message = s->msg != NULL;
        v->ctype = s->msg ? s->cname : "int32_t";
        v->desc = fmt("&%s_type", s->cname);
        return 0;
    }
    if (t <= 0 || t >= (int)(sizeof scalars / sizeof scalars[0]) || !scalars[t].ctype)
        return gen_fail(g, "field %.*s: unknown field type %d", (int)name.len, name.ptr, t);
    v->ctype = scalars[t].ctype;
    v->desc = dup_n(scalars[t].desc, strlen(scalars[t].desc));
    v->flags = scalars[t].flags;
    return 0;
}

static const field_desc *entry_field(const msg_desc *m, int32_t number)
{
    for (size_t i = 0; i < m->field.count; i++)
        if (m->field.items[i].number.value == number)
            return &m->field.items[i];
    return NULL;
}

static bool is_proto3(const file_desc *fd)
{
    return str_eq(OPT_STR(fd->syntax), "proto3");
}

/* How one field is laid out and described. A oneof is one field_plan
 * (f == NULL) whose members are field plans of their own. */
typedef struct field_plan {
    const field_desc *f;
    char *member;          /* C member name */
    char *member_type;     /* C declaration of the member, with %s for its name */
    char *aux;             /* a static descriptor this field needs, or NULL */
    char *desc;            /* its type's descriptor expression */
    uint32_t flags;
    int32_t oneof;         /* oneof index, or -1 */
    struct field_plan *members;   /* oneof members, in field-number order */
    size_t nmembers;
    char *union_cname;     /* the oneof's C type (owned by the taken-name list) */
} field_plan;

/* True for a member of a real oneof (not proto3 `optional`'s synthetic one). */
static bool in_oneof(const field_desc *f)
{
    return f->oneof_index.has && !(f->proto3_optional.has && f->proto3_optional.value);
}

/* Fory IDL `ref` (fdl.c sets FieldOptions.weak): held by pointer. */
static bool is_ref(const field_desc *f)
{
    return f->options && f->options->weak.has && f->options->weak.value;
}

static int plan_field(gen *g, const sym *owner, const field_desc *f, field_plan *p)
{
    const file_desc *fd = &g->files[owner->file];
    memset(p, 0, sizeof *p);
    p->f = f;
    p->oneof = -1;
    p->member = member_name(OPT_STR(f->name));
    vtype v;
    if (value_type(g, f, &v))
        return -1;
    int label = f->label.has ? f->label.value : L_OPTIONAL;
    char *aux_name = fmt("%s__%s_t", owner->cname, p->member);
    p->flags = v.flags;
    if (label == L_REPEATED && v.target && v.target->map_entry) {
        const field_desc *kf = entry_field(v.target->msg, 1), *vf = entry_field(v.target->msg, 2);
        vtype kv, vv;
        if (!kf || !vf)
            return gen_fail(g, "map entry %s lacks its key or value", v.target->full);
        if (value_type(g, kf, &kv) || value_type(g, vf, &vv))
            return -1;
        p->member_type = fmt("CODEC_MAP_OF(%s, %s) %%s", kv.ctype, vv.ctype);
        p->aux = fmt("CODEC_MAP_EX(%s, %s, %s, %s);\n", aux_name, kv.desc, vv.desc,
                     kv.flags & CODEC_FIELD_ZIGZAG  ? "CODEC_TYPE_KEY_ZIGZAG"
                     : kv.flags & CODEC_FIELD_FIXED ? "CODEC_TYPE_KEY_FIXED"
                                                    : "0");
        p->flags = vv.flags;
        free(kv.desc);
        free(vv.desc);
    } else if (label == L_REPEATED) {
        p->member_type = fmt("CODEC_LIST_OF(%s) %%s", v.ctype);
        p->aux = fmt("%s(%s, %s);\n", v.is_array ? "CODEC_ARRAY" : "CODEC_LIST", aux_name, v.desc);
        bool packable = !v.is_message && f->type.value != T_STRING && f->type.value != T_BYTES;
        bool packed = f->options && f->options->packed.has ? f->options->packed.value
                                                          : is_proto3(fd);
        if (packable && !packed)
            p->flags |= CODEC_FIELD_UNPACKED;
    } else if (v.is_message && g->o->fdl && !is_ref(f)) {
        /* Fory IDL: held by value; `optional`: with a presence flag (a
         * union has its own empty state: which == 0). */
        if (f->proto3_optional.has && f->proto3_optional.value && !v.target->is_union) {
            p->member_type = fmt("CODEC_OPTIONAL_OF(%s) %%s", v.ctype);
            p->aux = fmt("CODEC_OPTIONAL(%s, %s, %s);\n", aux_name, v.ctype, v.desc);
        } else {
            p->member_type = fmt("%s %%s", v.ctype);
            p->desc = v.desc;
            free(aux_name);
            return 0;
        }
    } else if (v.is_message) {
        p->member_type = fmt("struct %s *%%s", v.ctype);
        p->aux = fmt("CODEC_POINTER(%s, %s);\n", aux_name, v.desc);
    } else if (!in_oneof(f) && (!is_proto3(fd) || f->oneof_index.has ||
                                (f->proto3_optional.has && f->proto3_optional.value))) {
        /* Explicit presence: proto2 optional/required, proto3 `optional`
         * (a oneof member's presence is its union's `which`). */
        p->member_type = fmt("CODEC_OPTIONAL_OF(%s) %%s", v.ctype);
        p->aux = fmt("CODEC_OPTIONAL(%s, %s, %s);\n", aux_name, v.ctype, v.desc);
        if (label == L_REQUIRED)
            p->flags |= CODEC_FIELD_REQUIRED;
    } else {
        p->member_type = fmt("%s %%s", v.ctype);
        p->desc = v.desc;
        free(aux_name);
        return 0;
    }
    p->desc = fmt("&%s", aux_name);
    free(aux_name);
    free(v.desc);
    return 0;
}

static void free_plan(field_plan *p)
{
    for (size_t i = 0; i < p->nmembers; i++)
        free_plan(&p->members[i]);
    free(p->members);
    free(p->member);
    free(p->member_type);
    free(p->aux);
    free(p->desc);
}

/* How a descriptor is defined: global, or static (`static=1`). */
static const char *linkage(const gen *g)
{
    return g->o->internal ? "static __attribute__((unused)) " : "";
}

/* Its declaration in the header: extern; with `static=1` there is none
 * (the .c declares its descriptors, emit_file), so the header's C types can
 * be used by files that do not #include the .c. */
static void declare(codec_buf *h, const gen *g, const sym *s)
{
    if (!g->o->internal)
        out(h, "extern const codec_type %s_type;\n", s->cname);
}

/* ---------------------------------------------------------------------------
 * Emitting one file
 * ------------------------------------------------------------------------ */

static char *flags_text(uint32_t flags)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {{CODEC_FIELD_REQUIRED, "CODEC_FIELD_REQUIRED"},
                 {CODEC_FIELD_ZIGZAG, "CODEC_FIELD_ZIGZAG"},
                 {CODEC_FIELD_FIXED, "CODEC_FIELD_FIXED"},
                 {CODEC_FIELD_UNPACKED, "CODEC_FIELD_UNPACKED"},
                 {CODEC_FIELD_TAGGED, "CODEC_FIELD_TAGGED"}};
    char buf[160] = "";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? " | " : "",
                     names[i].name);
    return fmt("%s", buf[0] ? buf : "0");
}

/* "dir/x.proto" -> "dir/x" */
static char *stem(codec_string path)
{
    size_t n = path.len;
    if (n > 6 && memcmp(path.ptr + n - 6, ".proto", 6) == 0)
        n -= 6;
    else if (n > 4 && memcmp(path.ptr + n - 4, ".fdl", 4) == 0)
        n -= 4;
    return dup_n(path.ptr, n);
}

/* A C identifier from any text (path characters become _). */
static char *ident_of(const char *s)
{
    char *d = dup_n(s, strlen(s));
    for (char *p = d; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            *p = '_';
    return d;
}

static int cmp_number(const void *a, const void *b)
{
    int32_t x = (*(const field_desc *const *)a)->number.value;
    int32_t y = (*(const field_desc *const *)b)->number.value;
    return x < y ? -1 : x > y;
}

static void emit_enum_h(codec_buf *h, gen *g, const sym *s)
{
    out(h, "/* enum %s (open: any int32 is kept) */\ntypedef int32_t %s;\nenum {\n", s->full,
        s->cname);
    for (size_t i = 0; i < s->en->value.count; i++) {
        const codec__google_protobuf_EnumValueDescriptorProto *v = &s->en->value.items[i];
        codec_string n = OPT_STR(v->name);
        char *c = take_name(g, fmt("%s_%.*s", s->cname, (int)n.len, n.ptr));
        out(h, "    %s = %d,\n", c, (int)v->number.value);
    }
    out(h, "};\n");
    declare(h, g, s);
    out(h, "\n");
}

static void emit_enum_c(codec_buf *c, const gen *g, const sym *s)
{
    out(c, "static const codec_enum_value %s_values_[] = {\n", s->cname);
    for (size_t i = 0; i < s->en->value.count; i++) {
        const codec__google_protobuf_EnumValueDescriptorProto *v = &s->en->value.items[i];
        codec_string n = OPT_STR(v->name);
        out(c, "    {\"%.*s\", %d},\n", (int)n.len, n.ptr, (int)v->number.value);
    }
    out(c,
        "};\n%sconst codec_type %s_type = {.kind = CODEC_T_ENUM, .name = \"%s\", .size = "
        "sizeof(int32_t),\n    .align = alignof(int32_t), .values = %s_values_,\n    .count = "
        "sizeof %s_values_ / sizeof %s_values_[0]};\n\n",
        linkage(g), s->cname, s->full, s->cname, s->cname, s->cname);
}

/* The oneof plan for oneof k of message s, made at its first member. */
static field_plan *oneof_plan(gen *g, const sym *s, field_plan *p, size_t *n, int32_t k)
{
    for (size_t i = 0; i < *n; i++)
        if (p[i].oneof == k)
            return &p[i];
    field_plan *u = &p[(*n)++];
    codec_string name = s->msg->oneof_decl.count > (size_t)k
                            ? OPT_STR(s->msg->oneof_decl.items[k].name)
                            : (codec_string){"oneof", 5};
    u->oneof = k;
    u->member = member_name(name);
    u->union_cname = take_name(g, fmt("%s_%s", s->cname, u->member));
    u->member_type = fmt("%s %%s", u->union_cname);
    u->desc = fmt("&%s__%s_t", s->cname, u->member);
    u->members = xalloc(s->msg->field.count * sizeof *u->members);
    return u;
}

/* The field plans of message s in field-number order (a oneof where its
 * first member is). */
static field_plan *plan_fields(gen *g, const sym *s, size_t *n)
{
    size_t count = s->msg->field.count;
    const field_desc **order = xalloc(count * sizeof *order);
    for (size_t i = 0; i < count; i++)
        order[i] = &s->msg->field.items[i];
    qsort(order, count, sizeof *order, cmp_number);
    field_plan *p = xalloc(count * sizeof *p);
    *n = 0;
    for (size_t i = 0; i < count && !g->failed; i++) {
        field_plan *at = &p[*n];
        if (in_oneof(order[i])) {
            field_plan *u = oneof_plan(g, s, p, n, order[i]->oneof_index.value);
            at = &u->members[u->nmembers++];
        } else {
            (*n)++;
        }
        plan_field(g, s, order[i], at);
    }
    free(order);
    return p;
}

/* The C declaration of a plan's member. */
static void emit_member(codec_buf *h, const field_plan *p, const char *indent)
{
    out(h, "%s", indent);
    out(h, p->member_type, p->member);
    if (p->f)
        out(h, ";   /* = %d */\n", (int)p->f->number.value);
    else
        out(h, ";   /* oneof: `which` is one of %s_* */\n", p->union_cname);
}

/* typedef struct M_o { uint32_t which; union { members }; } M_o; and its
 * `which` constants. */
static void emit_union_h(codec_buf *h, gen *g, const field_plan *u)
{
    out(h, "typedef struct %s {\n    uint32_t which;   /* 0: none, else %s_<member> */\n"
           "    union {\n", u->union_cname, u->union_cname);
    for (size_t i = 0; i < u->nmembers; i++)
        emit_member(h, &u->members[i], "        ");
    out(h, "    };\n} %s;\nenum {\n    %s = 0,\n", u->union_cname,
        take_name(g, fmt("%s_NONE", u->union_cname)));
    for (size_t i = 0; i < u->nmembers; i++)
        out(h, "    %s = %zu,\n", take_name(g, fmt("%s_%s", u->union_cname, u->members[i].member)),
            i + 1);
    out(h, "};\n");
}

static void emit_msg_h(codec_buf *h, gen *g, const sym *s, const field_plan *p, size_t n)
{
    const msg_desc *m = s->msg;
    for (size_t j = 0; j < n; j++)
        if (!p[j].f)
            emit_union_h(h, g, &p[j]);
    out(h, "/* message %s */\nstruct %s {\n", s->full, s->cname);
    /* Members in declaration order, as the .proto reads; a oneof where its
     * first member is declared. */
    for (size_t i = 0; i < m->field.count; i++) {
        const field_desc *f = &m->field.items[i];
        for (size_t j = 0; j < n; j++) {
            bool first_of_oneof = !p[j].f && in_oneof(f) && p[j].oneof == f->oneof_index.value;
            for (size_t k = 0; first_of_oneof && k < i; k++)
                first_of_oneof = !(in_oneof(&m->field.items[k]) &&
                                   m->field.items[k].oneof_index.value == p[j].oneof);
            if (p[j].f == f || first_of_oneof)
                emit_member(h, &p[j], "    ");
        }
    }
    for (size_t i = 0; i < m->reserved_range.count; i++)
        out(h, "    /* reserved %d to %d */\n", (int)m->reserved_range.items[i].start.value,
            (int)m->reserved_range.items[i].end.value - 1);
    for (size_t i = 0; i < m->reserved_name.count; i++)
        out(h, "    /* reserved \"%.*s\" */\n", (int)m->reserved_name.items[i].len,
            m->reserved_name.items[i].ptr);
    if (!g->o->fdl)
        out(h, "    codec_bytes codec_unknown;   /* fields this schema does not know, kept */\n");
    out(h, "};\n");
    declare(h, g, s);
    if (!g->o->internal)
        out(h, "extern const char *const %s_field_names[];   /* proto names, descriptor order */\n",
            s->cname);
    out(h, "\n");
}

/* The CODEC_FIELD_EX lines of plans p[0..n) of C type `owner`. */
static void emit_fields(codec_buf *c, gen *g, const char *owner, const field_plan *p, size_t n,
                        uint32_t *oneof_tag)
{
    for (size_t i = 0; i < n; i++) {
        if (!p[i].f) {   /* the union's own tag is never on the wire */
            out(c, "    CODEC_FIELD_EX(%s, %s, \"%s\", 0x%xu, %s, 0),\n", owner, p[i].member,
                p[i].member, (unsigned)(*oneof_tag)--, p[i].desc);
            continue;
        }
        codec_string name = OPT_STR(p[i].f->name);
        char *jn = g->o->fory_names ? dup_s(name)
                   : p[i].f->json_name.has ? dup_s(p[i].f->json_name.value)
                                           : json_name(name);
        char *fl = flags_text(p[i].flags);
        out(c, "    CODEC_FIELD_EX(%s, %s, \"%s\", %d, %s, %s),\n", owner, p[i].member, jn,
            (int)p[i].f->number.value, p[i].desc, fl);
        free(jn);
        free(fl);
    }
}

/* A union's descriptor `decl` (a oneof's: static, flat; a Fory IDL union's:
 * X_type, nested form), named `name`, and its members. */
static void emit_union_c(codec_buf *c, gen *g, const sym *s, const field_plan *u,
                         const char *decl, const char *name, const char *flags)
{
    for (size_t i = 0; i < u->nmembers; i++)
        if (u->members[i].aux)
            out(c, "%s", u->members[i].aux);
    out(c, "static const codec_field %s__%s_members_[] = {\n", s->cname, u->member);
    uint32_t unused = 0;
    emit_fields(c, g, u->union_cname, u->members, u->nmembers, &unused);
    out(c, "};\nstatic codec_type_cache %s__%s_cache_;\n"
           "%s = {.kind = CODEC_T_UNION, .name = \"%s\",\n"
           "    .size = sizeof(%s), .align = alignof(%s), .fields = %s__%s_members_,\n"
           "    .count = %zu, .cache = &%s__%s_cache_, .flags = %s};\n",
        s->cname, u->member, decl, name, u->union_cname, u->union_cname, s->cname, u->member,
        u->nmembers, s->cname, u->member, flags);
}

/* A Fory IDL union: the cases are one oneof's members; the C type is the
 * union itself (typedef struct X { uint32_t which; union {...}; } X). */
static void emit_fdl_union(codec_buf *h, codec_buf *c, gen *g, const sym *s, field_plan *p,
                           size_t n)
{
    if (n != 1 || p[0].f)
        return (void)gen_fail(g, "union %s: every field must be a case", s->full);
    field_plan *u = &p[0];
    u->union_cname = s->cname;
    out(h, "/* union %s */\n", s->full);
    emit_union_h(h, g, u);
    declare(h, g, s);
    out(h, "\n");
    char *decl = fmt("%sconst codec_type %s_type", linkage(g), s->cname);
    emit_union_c(c, g, s, u, decl, s->full, "0");
    free(decl);
    out(c, "\n");
}

/* Specialized code (specialize.c): protobuf code for .proto messages, Fory
 * code for Fory IDL structs (they have no unknown-fields member and are not
 * read by the protobuf backend). */
static bool specializes(const gen *g)
{
    return g->o->specialize;
}

static bool fory_check(gen *g, const sym *s);

static void fory_val(gen *g, const sym *owner, const field_desc *f, bool item,
                     codec__gen_fory_val *v);

static void fory_cases_free(codec__gen_fory_case *cases, size_t n)
{
    for (size_t i = 0; cases && i < n; i++)
        free(cases[i].member);
    free(cases);
}

/* Union u as a field's value (tid 33) when every case is a primitive, a
 * string or bytes (an enum case the backend refuses; a struct case's ref
 * flag depends on `ref`, which the generated code is not told). */
static void fory_union(gen *g, const sym *u, codec__gen_fory_val *v)
{
    size_t n = u->msg->field.count;
    const field_desc **order = xalloc((n ? n : 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = &u->msg->field.items[i];
    qsort(order, n, sizeof *order, cmp_number);   /* `which` order */
    codec__gen_fory_case *cases = xalloc((n ? n : 1) * sizeof *cases);
    bool ok = n > 0;
    for (size_t i = 0; i < n && ok; i++) {
        codec__gen_fory_val cv;
        fory_val(g, u, order[i], false, &cv);
        ok = cv.tid && cv.tid != 25 && cv.tid != 27 && cv.tid != 33;
        free((int32_t *)cv.numbers);
        fory_cases_free(cv.cases, cv.count);
        cases[i] = (codec__gen_fory_case){member_name(OPT_STR(order[i]->name)),
                                          (uint32_t)order[i]->number.value, cv.tid};
    }
    free(order);
    if (!ok) {
        fory_cases_free(cases, n);
        return;
    }
    v->tid = 33;
    v->cname = u->cname;
    v->cases = cases;
    v->count = n;
}

/* The Fory value of field f's type, as specialize_fory.c handles it (tid 0
 * otherwise). `item`: a list item or map key or value, whose integers the
 * backend writes as varints whatever the field says. Enum numbers are
 * allocated (freed with the field list). */
static void fory_val(gen *g, const sym *owner, const field_desc *f, bool item,
                     codec__gen_fory_val *v)
{
    static const uint8_t by_type[] = {
        [T_DOUBLE] = 20, [T_FLOAT] = 19, [T_INT64] = 7, [T_UINT64] = 14, [T_INT32] = 5,
        [T_FIXED64] = 13, [T_FIXED32] = 11, [T_BOOL] = 1, [T_STRING] = 21, [T_UINT32] = 12,
        [T_SFIXED32] = 4, [T_SFIXED64] = 6, [T_SINT32] = 5, [T_SINT64] = 7, [T_BYTES] = 41};
    static const uint8_t as_item[] = {
        [T_DOUBLE] = 20, [T_FLOAT] = 19, [T_INT64] = 7, [T_UINT64] = 14, [T_INT32] = 5,
        [T_FIXED64] = 14, [T_FIXED32] = 12, [T_BOOL] = 1, [T_STRING] = 21, [T_UINT32] = 12,
        [T_SFIXED32] = 5, [T_SFIXED64] = 7, [T_SINT32] = 5, [T_SINT64] = 7, [T_BYTES] = 41};
    /* Fory IDL's own types (fdl.c); tagged integers are varints as items.
     * date, timestamp and decimal: none (the backend does not carry them). */
    static const struct {
        const char *name;
        uint8_t tid, item_tid;
    } pseudo[] = {{".codec.int8", 2, 2},           {".codec.int16", 3, 3},
                  {".codec.uint8", 9, 9},          {".codec.uint16", 10, 10},
                  {".codec.tagged.int64", 8, 7},   {".codec.tagged.uint64", 15, 14}};
    memset(v, 0, sizeof *v);
    int t = f->type.has ? f->type.value : 0;
    if (t > 0 && t < (int)(sizeof by_type / sizeof by_type[0]) && by_type[t]) {
        v->tid = item ? as_item[t] : by_type[t];
        return;
    }
    for (size_t i = 0; !t && i < sizeof pseudo / sizeof pseudo[0]; i++)
        if (str_eq(OPT_STR(f->type_name), pseudo[i].name))
            v->tid = item ? pseudo[i].item_tid : pseudo[i].tid;
    if (v->tid || (t != T_ENUM && t != T_MESSAGE && !(!t && f->type_name.has)))
        return;   /* a named type may be resolved only by name (Fory IDL) */
    const sym *s = find_sym(g, OPT_STR(f->type_name));
    if (!s)
        return;
    if (s->en) {
        int32_t *numbers = xalloc((s->en->value.count + 1) * sizeof *numbers);
        for (size_t i = 0; i < s->en->value.count; i++)
            numbers[i] = s->en->value.items[i].number.value;
        *v = (codec__gen_fory_val){25, s->cname, numbers, NULL, s->en->value.count};
    } else if (s->msg && s->is_union && !item && s->file == owner->file) {
        fory_union(g, s, v);   /* a struct field only (the backend's rule) */
    } else if (s->msg && !s->map_entry && !s->is_union && s->file == owner->file &&
               fory_check(g, s)) {
        v->tid = 27;
        v->cname = s->cname;
    }
}

/* array<T> (fdl.c's ".codec.array.T"): the Fory array type id the backend
 * writes, the item's fixed-width type id in *item; 0 for the arrays the
 * backend does not carry (unsigned and floating-point items). */
static uint8_t fory_array(codec_string type_name, codec__gen_fory_val *item)
{
    static const struct {
        const char *name;
        uint8_t tid, item;
    } arrays[] = {{".codec.array.bool", 43, 1},  {".codec.array.int8", 44, 2},
                  {".codec.array.int16", 45, 3}, {".codec.array.int32", 46, 4},
                  {".codec.array.int64", 47, 6}};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        if (str_eq(type_name, arrays[i].name)) {
            memset(item, 0, sizeof *item);
            item->tid = arrays[i].item;
            return arrays[i].tid;
        }
    return 0;
}

/* Field f of struct s (member name, nullable set by the caller) as
 * specialize_fory.c takes it; ff->tid 0 when it does not. */
static void fory_field(gen *g, const sym *s, const field_desc *f, codec__gen_fory_field *ff)
{
    codec_string name = OPT_STR(f->name);
    bool ok = name.len && name.ptr[name.len - 1] != '_' && !in_oneof(f) && !is_ref(f);
    for (size_t k = 0; ok && k < name.len; k++)
        ok = !(name.ptr[k] >= 'A' && name.ptr[k] <= 'Z');
    ff->wire_name = ok ? dup_s(name) : NULL;
    if (!ok)
        return;
    bool repeated = f->label.has && f->label.value == L_REPEATED;
    const sym *t = f->type_name.has ? find_sym(g, OPT_STR(f->type_name)) : NULL;
    if (repeated && t && t->map_entry) {
        const field_desc *k = entry_field(t->msg, 1), *v = entry_field(t->msg, 2);
        if (!k || !v)
            return;
        fory_val(g, s, k, true, &ff->key);
        fory_val(g, s, v, true, &ff->val);
        ff->tid = ff->key.tid && ff->val.tid ? 24 : 0;
    } else if (repeated && (ff->tid = fory_array(OPT_STR(f->type_name), &ff->val))) {
        /* array<T>: Fory's packed array; val: the item's width */
    } else if (repeated) {
        fory_val(g, s, f, true, &ff->val);
        ff->tid = ff->val.tid ? 22 : 0;
    } else {
        fory_val(g, s, f, false, &ff->val);
        ff->tid = ff->val.tid;
    }
}

static void fory_fields_free(codec__gen_fory_field *ff, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)ff[i].wire_name);
        free((int32_t *)ff[i].val.numbers);
        free((int32_t *)ff[i].key.numbers);
        fory_cases_free(ff[i].val.cases, ff[i].val.count);
    }
    free(ff);
}

/* Whether struct s gets Fory functions: every field handled, the structs
 * it holds of its own file and getting them too, no cycle (memoized in
 * sym.fory_spec). */
static bool fory_check(gen *g, const sym *s)
{
    sym *m = &g->syms[s - g->syms];
    if (m->fory_spec)
        return m->fory_spec == 1;
    m->fory_spec = 3;   /* being checked: a cycle back here says no */
    size_t n = s->msg->field.count;
    codec__gen_fory_field *ff = xalloc((n ? n : 1) * sizeof *ff);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        fory_field(g, s, &s->msg->field.items[i], &ff[i]);
        ok = ff[i].tid && ff[i].key.tid != 27;
    }
    fory_fields_free(ff, n);
    m->fory_spec = ok ? 1 : 2;
    return ok;
}

/* Fory IDL: the struct's Fory functions, when it has them. Fory sorts
 * fields by their snake_case names; names with capitals or a trailing `_`
 * (which the backend converts) are left to the backend's code. */
static bool specialize_fory(codec_buf *c, gen *g, const sym *s, const field_plan *p, size_t n)
{
    if (s->is_union || !fory_check(g, s))
        return false;
    codec__gen_fory_field *ff = xalloc((n ? n : 1) * sizeof *ff);
    for (size_t i = 0; i < n; i++) {
        fory_field(g, s, p[i].f, &ff[i]);
        ff[i].member = p[i].member;
        ff[i].index = i;
        ff[i].nullable = strncmp(p[i].member_type, "CODEC_OPTIONAL_OF", 17) == 0;
    }
    bool ok = codec__gen_specialize_fory(c, s->cname, ff, n);
    fory_fields_free(ff, n);
    return ok;
}

static void specialize(codec_buf *c, const sym *s, const field_plan *p, size_t n)
{
    codec__gen_spec_field *sf = xalloc((n ? n : 1) * sizeof *sf);
    size_t index = 0;
    for (size_t i = 0; i < n; i++) {
        codec__gen_spec_field *f = &sf[i];
        f->member = p[i].member;
        f->index = index;
        f->members = p[i].f ? 1 : p[i].nmembers;
        index += f->members;
        if (!p[i].f) {
            f->shape = CODEC__GEN_CALL;
            continue;
        }
        f->number = (uint32_t)p[i].f->number.value;
        f->type = p[i].f->type.has ? p[i].f->type.value : 0;
        int label = p[i].f->label.has ? p[i].f->label.value : L_OPTIONAL;
        if (label == L_REPEATED || f->type == T_MESSAGE || f->type == T_GROUP || !f->type) {
            f->shape = CODEC__GEN_CALL;
            f->wire = 2;
            f->repeated = label == L_REPEATED;
        } else if (strncmp(p[i].member_type, "CODEC_OPTIONAL_OF", 17) == 0) {
            f->shape = CODEC__GEN_OPTIONAL;
        } else {
            f->shape = CODEC__GEN_PLAIN;
        }
    }
    codec__gen_specialize(c, s->cname, sf, n);
    free(sf);
}

static void emit_msg_c(codec_buf *c, gen *g, const sym *s, const field_plan *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!p[i].f) {
            char *decl = fmt("static const codec_type %s__%s_t", s->cname, p[i].member);
            char *name = fmt("%s.%s", s->full, p[i].member);
            emit_union_c(c, g, s, &p[i], decl, name, "CODEC_TYPE_FLAT");
            free(decl);
            free(name);
        } else if (p[i].aux)
            out(c, "%s", p[i].aux);
    out(c, "static const codec_field %s_fields_[] = {\n", s->cname);
    uint32_t oneof_tag = 0xfffffffeu;
    emit_fields(c, g, s->cname, p, n, &oneof_tag);
    if (!g->o->fdl)
        out(c, "    CODEC_FIELD_EX(%s, codec_unknown, \"codec_unknown\", 0xffffffffu, CODEC_BYTES,\n"
               "                   CODEC_FIELD_UNKNOWN_BYTES),\n",
            s->cname);
    out(c, "};\n");
    bool special = specializes(g) && !g->o->fdl, fory = false;
    if (special)
        specialize(c, s, p, n);
    if (specializes(g) && g->o->fdl && (fory = specialize_fory(c, g, s, p, n)))
        out(c, "static const codec_codegen %s_codegen_ = {\n    .abi = CODEC_CODEGEN_ABI,\n"
               "    .reserved = {&%s_fory_codegen_}};\n\n", s->cname, s->cname);
    out(c,
        "static codec_type_cache %s_cache_;\n"
        "%sconst codec_type %s_type = {.kind = CODEC_T_STRUCT, .name = \"%s\", .size = sizeof(%s),\n"
        "    .align = alignof(%s), .fields = %s_fields_,\n"
        "    .count = sizeof %s_fields_ / sizeof %s_fields_[0], .cache = &%s_cache_",
        s->cname, linkage(g), s->cname, s->full, s->cname, s->cname, s->cname, s->cname,
        s->cname, s->cname);
    if (special || fory)
        out(c, ",\n    .codegen = &%s_codegen_", s->cname);
    out(c, "};\n");
    if (g->o->internal) {
        out(c, "\n");
        return;
    }
    out(c, "const char *const %s_field_names[] = {", s->cname);
    for (size_t i = 0; i < n; i++) {
        codec_string name = p[i].f ? OPT_STR(p[i].f->name)
                                   : (codec_string){p[i].member, strlen(p[i].member)};
        out(c, "%s\"%.*s\"", i ? ", " : "", (int)name.len, name.ptr);
    }
    out(c, "%s%s};\n\n", n && !g->o->fdl ? ", " : "", g->o->fdl ? "" : "\"codec_unknown\"");
}

static codec__gen_file *add_out(codec__gen_result *r, char *name)
{
    codec__gen_file *f = realloc(r->files, (r->count + 1) * sizeof *f);
    if (!f)
        exit(2);
    r->files = f;
    f = &r->files[r->count++];
    f->name = name;
    codec_buf_init(&f->text, NULL);
    return f;
}

/* Appends message i of file fi to order[] after the messages of that file
 * it holds by value (Fory IDL), so each struct is complete where used. */
static void struct_order(gen *g, size_t fi, size_t i, bool *seen, size_t *order, size_t *n)
{
    const sym *s = &g->syms[i];
    if (seen[i] || s->file != fi || !s->msg || s->map_entry)
        return;
    seen[i] = true;
    for (size_t j = 0; g->o->fdl && j < s->msg->field.count; j++) {
        const field_desc *f = &s->msg->field.items[j];
        if (f->label.value == L_REPEATED || is_ref(f) || f->type.value != T_MESSAGE)
            continue;
        const sym *t = find_sym(g, OPT_STR(f->type_name));
        if (t)
            struct_order(g, fi, (size_t)(t - g->syms), seen, order, n);
    }
    order[(*n)++] = i;
}

static int emit_file(gen *g, size_t fi, codec__gen_result *r)
{
    const file_desc *fd = &g->files[fi];
    char *base = stem(OPT_STR(fd->name));
    char *pid = fmt("%s%s", g->o->prefix, base), *id = ident_of(pid);
    free(pid);
    const char *slash = strrchr(base, '/');
    add_out(r, fmt("%s.codec.h", base));
    add_out(r, fmt("%s.codec.c", base));
    codec_buf *h = &r->files[r->count - 2].text, *c = &r->files[r->count - 1].text;
    out(h, "/* Generated by codec-gen from %.*s. Do not edit. */\n#ifndef CODEC_GEN_%s_H\n"
           "#define CODEC_GEN_%s_H\n\n#include <codec/fory.h>\n#include <codec/types.h>\n",
        (int)OPT_STR(fd->name).len, OPT_STR(fd->name).ptr, id, id);
    for (size_t i = 0; i < fd->dependency.count; i++) {
        char *dep = stem(fd->dependency.items[i]);
        out(h, "#include \"%s.codec.h\"\n", dep);
        free(dep);
    }
    out(h, "\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    out(c, "/* Generated by codec-gen from %.*s. Do not edit. */\n#include \"%s.codec.h\"\n\n"
           "#include <stdalign.h>\n#include <stddef.h>\n\n",
        (int)OPT_STR(fd->name).len, OPT_STR(fd->name).ptr, slash ? slash + 1 : base);
    if (specializes(g))
        out(c, "#include <codec/codegen.h>\n\n#include <stdbool.h>\n#include <stdint.h>\n"
               "#include <string.h>\n\n");
    if (g->o->internal) {   /* the descriptors, which the header does not declare */
        for (size_t i = 0; i < g->nsyms; i++) {
            const sym *s = &g->syms[i];
            if (s->file == fi && (s->en || (s->msg && !s->map_entry)))
                out(c, "static const codec_type %s_type;\n", s->cname);
        }
        out(c, "\n");
    }
    for (size_t i = 0; i < g->nsyms; i++) {
        const sym *s = &g->syms[i];
        if (s->file == fi && s->en) {
            emit_enum_h(h, g, s);
            emit_enum_c(c, g, s);
        }
    }
    for (size_t i = 0; i < g->nsyms; i++) {
        const sym *s = &g->syms[i];
        if (s->file == fi && s->msg && !s->map_entry)
            out(h, "typedef struct %s %s;\n", s->cname, s->cname);
    }
    out(h, "\n");
    uint32_t next_id = g->o->fory_base;
    codec_buf reg;
    codec_buf_init(&reg, NULL);
    for (size_t i = 0; i < g->nsyms; i++) {
        const sym *s = &g->syms[i];
        /* Unions are not registered: Fory carries them as UNION (type id 33)
         * by case id; a registered (typed) union is not supported yet. */
        if (s->file == fi && !s->map_entry && !s->is_union)
            out(&reg, "    {&%s_type, %u},\n", s->cname, s->fory_id ? s->fory_id : next_id++);
    }
    size_t *order = xalloc(g->nsyms * sizeof *order), norder = 0;
    bool *seen = xalloc(g->nsyms);
    for (size_t i = 0; i < g->nsyms; i++)
        struct_order(g, fi, i, seen, order, &norder);
    /* Fory functions call those of the structs they hold, defined later. */
    for (size_t k = 0; specializes(g) && g->o->fdl && k < norder; k++)
        if (!g->syms[order[k]].is_union && fory_check(g, &g->syms[order[k]]))
            codec__gen_specialize_fory_decl(c, g->syms[order[k]].cname);
    for (size_t k = 0; k < norder && !g->failed; k++) {
        const sym *s = &g->syms[order[k]];
        size_t n = 0;
        field_plan *p = plan_fields(g, s, &n);
        if (!g->failed && s->is_union) {
            emit_fdl_union(h, c, g, s, p, n);
        } else if (!g->failed) {
            emit_msg_h(h, g, s, p, n);
            emit_msg_c(c, g, s, p, n);
        }
        for (size_t j = 0; j < n; j++)
            free_plan(&p[j]);
        free(p);
    }
    if (!g->o->internal)
        out(h, "/* Registers every message and enum of %s with its Fory type id. */\n"
               "int %s_fory_register(codec_fory_registry *r, codec_error *err);\n\n",
            base, id);
    out(h, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
    if (!g->o->internal) {
        out(c, "int %s_fory_register(codec_fory_registry *r, codec_error *err)\n{\n"
               "    static const struct {\n        const codec_type *type;\n        uint32_t id;\n"
               "    } ids[] = {\n",
            id);
        append(c, reg.data, reg.len);
        out(c, "        {NULL, 0}};\n    for (size_t i = 0; ids[i].type; i++) {\n"
               "        int rc = codec_fory_register(r, ids[i].type, ids[i].id, err);\n"
               "        if (rc)\n            return rc;\n    }\n    return 0;\n}\n");
    }
    codec_buf_free(&reg);
    free(order);
    free(seen);
    free(base);
    free(id);
    return g->failed ? -1 : 0;
}

/* ---------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------ */

int codec__gen(const codec__google_protobuf_FileDescriptorProto *files, size_t nfiles,
               const codec_string *wanted, size_t nwanted, const codec__gen_options *o,
               codec__gen_result *r)
{
    codec__gen_options defaults = {.fory_base = 100};
    memset(r, 0, sizeof *r);
    gen g = {.files = files, .nfiles = nfiles, .o = o ? o : &defaults, .error = r->error};
    build_syms(&g);
    for (size_t f = 0; f < nfiles && !g.failed; f++) {
        bool want = nwanted == 0;
        for (size_t i = 0; i < nwanted && !want; i++)
            want = wanted[i].len == OPT_STR(files[f].name).len &&
                   memcmp(wanted[i].ptr, OPT_STR(files[f].name).ptr, wanted[i].len) == 0;
        if (want)
            emit_file(&g, f, r);
    }
    for (size_t i = 0; i < g.nsyms; i++) {
        free(g.syms[i].full);
        if (g.syms[i].map_entry)
            free(g.syms[i].cname);
    }
    for (size_t i = 0; i < g.ntaken; i++)
        free(g.taken[i]);
    free(g.taken);
    free(g.syms);
    return g.failed ? -1 : 0;
}

int codec__gen_parse_params(const char *params, size_t len, codec__gen_options *o, char *err,
                            size_t errcap)
{
    char *s = dup_n(params ? params : "", params ? len : 0), *save = NULL;
    int rc = 0;
    for (char *kv = strtok_r(s, ",", &save); kv && !rc; kv = strtok_r(NULL, ",", &save)) {
        char *end = NULL;
        if (strncmp(kv, "fory_base=", 10) == 0) {
            unsigned long v = strtoul(kv + 10, &end, 10);
            if (!*end && v <= UINT32_MAX) {
                o->fory_base = (uint32_t)v;
                continue;
            }
        }
        if (strcmp(kv, "static=1") == 0) {
            o->internal = true;
            continue;
        }
        if (strcmp(kv, "specialize=1") == 0) {
            o->specialize = true;
            continue;
        }
        if (strncmp(kv, "prefix=", 7) == 0 && strlen(kv + 7) < sizeof o->prefix) {
            snprintf(o->prefix, sizeof o->prefix, "%s", kv + 7);
            continue;
        }
        snprintf(err, errcap, "unknown or bad parameter '%s' (known: fory_base=N, prefix=ID, static=1, specialize=1)", kv);
        rc = -1;
    }
    free(s);
    return rc;
}

void codec__gen_result_free(codec__gen_result *r)
{
    for (size_t i = 0; i < r->count; i++) {
        free(r->files[i].name);
        codec_buf_free(&r->files[i].text);
    }
    free(r->files);
    memset(r, 0, sizeof *r);
}
