/* fdl.c — reads Fory IDL (.fdl) into the file descriptors the generator
 * takes (gen.h), so .proto and .fdl files go through one generator.
 *
 * Grammar: apache/fory docs/compiler/schema-idl.md and
 * compiler/fory_compiler/frontend/fdl/ at commit
 * c8bf23342ba33d8257f350ffdc2b220b8cc55291. Read: `package` (with `alias`),
 * `option` (ignored), `import`, `enum` and `message` with `[id=N]`, nested
 * types, `reserved`, fields with `optional`, `ref` and `repeated`, `list<>`,
 * `array<>`, `map<>`, the scalar encodings `varint`/`fixed`/`tagged`, field
 * options (ignored), `union` (cases become a codec union type), and
 * `service` blocks (skipped). Refused with a message: `any`, `float16`,
 * `bfloat16`, `duration`.
 *
 * FDL types protobuf lacks travel as pseudo type names the generator knows
 * (".codec.int8", ".codec.array.int32"...); `ref` sets FieldOptions.weak;
 * a union is a message marked with MessageOptions.no_standard_descriptor_accessor. */
#include "fdl.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef codec__google_protobuf_FileDescriptorProto file_desc;
typedef codec__google_protobuf_DescriptorProto msg_desc;
typedef codec__google_protobuf_FieldDescriptorProto field_desc;
typedef codec__google_protobuf_EnumDescriptorProto enum_desc;

enum { TYPE_MESSAGE = 11, TYPE_ENUM = 14, LABEL_OPTIONAL = 1, LABEL_REPEATED = 3 };

typedef struct parser {
    const char *path;
    const char *p, *end;
    int line;
    codec_arena *arena;
    codec__fdl_result *out;
    char *err;
    size_t errcap;
    int failed;
    char tok[256];        /* the current token */
    bool tok_string;      /* it was a "string" */
} parser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int perr(parser *ps, const char *fmt, ...)
{
    if (!ps->failed) {
        char what[300];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        snprintf(ps->err, ps->errcap, "%s:%d: %s", ps->path, ps->line, what);
    }
    ps->failed = 1;
    return -1;
}

static void *grow(parser *ps, void *items, size_t count, size_t size)
{
    /* Arena arrays grow by copying; schemas are small. */
    uint8_t *n = codec_arena_alloc(ps->arena, (count + 1) * size, 16);
    if (!n)
        exit(2);
    if (count)
        memcpy(n, items, count * size);
    memset(n + count * size, 0, size);
    return n;
}

#define PUSH(ps, list)                                                                \
    ((list).items = grow((ps), (list).items, (list).count, sizeof *(list).items),     \
     &(list).items[(list).count++])

static codec_string str(parser *ps, const char *s, size_t n)
{
    char *d = codec_arena_alloc(ps->arena, n + 1, 1);
    if (!d)
        exit(2);
    memcpy(d, s, n);
    d[n] = '\0';
    return (codec_string){d, n};
}

static codec_string cstr(parser *ps, const char *s)
{
    return str(ps, s, strlen(s));
}

#define SET(o, v) ((o).has = true, (o).value = (v))

/* ---------------------------------------------------------------------------
 * Tokens
 * ------------------------------------------------------------------------ */

static void skip_space(parser *ps)
{
    while (ps->p < ps->end) {
        if (*ps->p == '\n')
            ps->line++, ps->p++;
        else if (isspace((unsigned char)*ps->p))
            ps->p++;
        else if (ps->end - ps->p >= 2 && ps->p[0] == '/' && ps->p[1] == '/')
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        else if (ps->end - ps->p >= 2 && ps->p[0] == '/' && ps->p[1] == '*') {
            ps->p += 2;
            while (ps->p < ps->end && !(ps->end - ps->p >= 2 && ps->p[0] == '*' && ps->p[1] == '/'))
                ps->line += *ps->p++ == '\n';
            ps->p += ps->p < ps->end ? 2 : 0;
        } else
            break;
    }
}

/* Reads the next token into ps->tok; "" at the end. */
static void next(parser *ps)
{
    skip_space(ps);
    ps->tok[0] = '\0';
    ps->tok_string = false;
    if (ps->p >= ps->end)
        return;
    const char *s = ps->p;
    size_t n = 0;
    if (*s == '"' || *s == '\'') {
        char q = *s++;
        const char *e = s;
        while (e < ps->end && *e != q && *e != '\n')
            e++;
        if (e >= ps->end || *e != q) {
            perr(ps, "unterminated string");
            return;
        }
        n = (size_t)(e - s);
        ps->p = e + 1;
        ps->tok_string = true;
    } else if (isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.') {
        const char *e = s + 1;
        while (e < ps->end && (isalnum((unsigned char)*e) || *e == '_' || *e == '.'))
            e++;
        n = (size_t)(e - s);
        ps->p = e;
    } else {
        n = 1;
        ps->p = s + 1;
    }
    if (n >= sizeof ps->tok) {
        perr(ps, "token too long");
        return;
    }
    memcpy(ps->tok, s, n);
    ps->tok[n] = '\0';
}

static bool is(parser *ps, const char *t)
{
    return !ps->tok_string && strcmp(ps->tok, t) == 0;
}

static int expect(parser *ps, const char *t)
{
    if (!is(ps, t))
        return perr(ps, "expected '%s', found '%s'", t, ps->tok);
    next(ps);
    return 0;
}

static bool is_ident(parser *ps)
{
    return !ps->tok_string && (isalpha((unsigned char)ps->tok[0]) || ps->tok[0] == '_');
}

static int ident(parser *ps, char *dst, size_t cap)
{
    if (!is_ident(ps))
        return perr(ps, "expected a name, found '%s'", ps->tok);
    size_t n = strlen(ps->tok);
    if (n >= cap)
        return perr(ps, "name '%s' is longer than %zu bytes", ps->tok, cap - 1);
    memcpy(dst, ps->tok, n + 1);
    next(ps);
    return 0;
}

static int integer(parser *ps, long long *v)
{
    char *e = NULL;
    if (is(ps, "max")) {
        *v = 536870911;
        next(ps);
        return 0;
    }
    *v = strtoll(ps->tok, &e, 0);
    if (ps->tok_string || !ps->tok[0] || *e)
        return perr(ps, "expected a number, found '%s'", ps->tok);
    next(ps);
    return 0;
}

/* [key=value, ...]: returns id=N in *id (0 when absent). */
static int options(parser *ps, long long *id)
{
    if (!is(ps, "["))
        return 0;
    next(ps);
    while (!ps->failed && !is(ps, "]")) {
        char key[128];
        if (ident(ps, key, sizeof key) || expect(ps, "="))
            return -1;
        if (strcmp(key, "id") == 0 && id) {
            if (integer(ps, id))
                return -1;
        } else {
            next(ps);   /* other options do not change the C types */
        }
        if (is(ps, ","))
            next(ps);
        else if (!is(ps, "]"))
            return perr(ps, "expected ',' or ']' in options, found '%s'", ps->tok);
    }
    return expect(ps, "]");
}

/* Skips a balanced { ... } block (services). */
static int skip_block(parser *ps)
{
    if (expect(ps, "{"))
        return -1;
    for (int depth = 1; depth && !ps->failed; next(ps)) {
        if (!ps->tok[0])
            return perr(ps, "unterminated block");
        depth += is(ps, "{") - is(ps, "}");
    }
    return ps->failed ? -1 : 0;
}

/* reserved 2, 9 to 11, "name"; */
static int reserved(parser *ps, msg_desc *m)
{
    next(ps);
    while (!ps->failed && !is(ps, ";")) {
        if (ps->tok_string) {
            if (m)
                *PUSH(ps, m->reserved_name) = cstr(ps, ps->tok);
            next(ps);
        } else {
            long long a, b;
            if (integer(ps, &a))
                return -1;
            b = a;
            if (is(ps, "to")) {
                next(ps);
                if (integer(ps, &b))
                    return -1;
            }
            if (m) {
                codec__google_protobuf_DescriptorProto_ReservedRange *r = PUSH(ps, m->reserved_range);
                SET(r->start, (int32_t)a);
                SET(r->end, (int32_t)b + 1);
            }
        }
        if (is(ps, ","))
            next(ps);
    }
    return expect(ps, ";");
}

/* ---------------------------------------------------------------------------
 * Types
 * ------------------------------------------------------------------------ */

static const struct prim {
    const char *name;
    int type;              /* protobuf type, or 0 for a pseudo type */
    int fixed_type;        /* with `fixed` */
    const char *pseudo;    /* ".codec.X" */
} prims[] = {
    {"bool", 8, 0, NULL},       {"int8", 0, 0, "int8"},         {"int16", 0, 0, "int16"},
    {"int32", 5, 15, NULL},     {"int64", 3, 16, NULL},         {"uint8", 0, 0, "uint8"},
    {"uint16", 0, 0, "uint16"}, {"uint32", 13, 7, NULL},        {"uint64", 4, 6, NULL},
    {"float32", 2, 0, NULL},    {"float64", 1, 0, NULL},        {"string", 9, 0, NULL},
    {"bytes", 12, 0, NULL},     {"date", 0, 0, "date"},         {"timestamp", 0, 0, "timestamp"},
    {"decimal", 0, 0, "decimal"},
};

static const char *const unsupported[] = {"any", "float16", "bfloat16", "duration", NULL};

/* One value type (no list/map) into f: a primitive with its encoding, or a
 * named type (resolved later). */
static int value_type(parser *ps, field_desc *f)
{
    const char *enc = NULL;
    if (is(ps, "varint") || is(ps, "fixed") || is(ps, "tagged")) {
        enc = is(ps, "varint") ? "varint" : is(ps, "fixed") ? "fixed" : "tagged";
        next(ps);
    }
    for (const char *const *u = unsupported; *u; u++)
        if (is(ps, *u))
            return perr(ps, "type '%s' is not supported by codec-gen yet", *u);
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++) {
        const struct prim *pr = &prims[i];
        if (!is(ps, pr->name))
            continue;
        next(ps);
        if (enc && strcmp(enc, "fixed") == 0) {
            if (!pr->fixed_type)
                return perr(ps, "'fixed' applies to 32- and 64-bit integers only");
            SET(f->type, pr->fixed_type);
        } else if (enc && strcmp(enc, "tagged") == 0) {
            if (pr->type != 3 && pr->type != 4)
                return perr(ps, "'tagged' applies to int64 and uint64 only");
            char pseudo[32];
            snprintf(pseudo, sizeof pseudo, ".codec.tagged.%s", pr->name);
            SET(f->type_name, cstr(ps, pseudo));
        } else if (pr->type) {
            SET(f->type, pr->type);
        } else {
            char pseudo[32];
            snprintf(pseudo, sizeof pseudo, ".codec.%s", pr->pseudo);
            SET(f->type_name, cstr(ps, pseudo));
        }
        return 0;
    }
    if (enc)
        return perr(ps, "'%s' applies to integer types only", enc);
    if (!is_ident(ps))
        return perr(ps, "expected a type, found '%s'", ps->tok);
    SET(f->type_name, cstr(ps, ps->tok));   /* resolved once every type is known */
    next(ps);
    return 0;
}

/* The scalar name of a value type set by value_type (for array<T>). */
static const char *scalar_name(const field_desc *f)
{
    static const char *const names[] = {[8] = "bool", [5] = "int32", [3] = "int64",
                                        [13] = "uint32", [4] = "uint64", [2] = "float32",
                                        [1] = "float64"};
    if (f->type.has && f->type.value < (int)(sizeof names / sizeof names[0]))
        return names[f->type.value];
    if (f->type_name.has && strncmp(f->type_name.value.ptr, ".codec.", 7) == 0 &&
        strchr(f->type_name.value.ptr + 7, '.') == NULL)
        return f->type_name.value.ptr + 7;
    return NULL;
}

/* `map<K, V>`: a nested entry message, as protoc makes for proto maps. */
static int map_type(parser *ps, msg_desc *owner, field_desc *f, const char *fname)
{
    next(ps);
    if (expect(ps, "<"))
        return -1;
    msg_desc *e = PUSH(ps, owner->nested_type);
    char ename[300];
    snprintf(ename, sizeof ename, "%c%sEntry", toupper((unsigned char)fname[0]), fname + 1);
    SET(e->name, cstr(ps, ename));
    e->options = codec_arena_alloc(ps->arena, sizeof *e->options, 16);
    if (!e->options)
        exit(2);
    memset(e->options, 0, sizeof *e->options);
    SET(e->options->map_entry, true);
    PUSH(ps, e->field);
    PUSH(ps, e->field);
    field_desc *k = &e->field.items[0], *v = &e->field.items[1];
    SET(k->name, cstr(ps, "key"));
    SET(k->number, 1);
    SET(k->label, LABEL_OPTIONAL);
    SET(v->name, cstr(ps, "value"));
    SET(v->number, 2);
    SET(v->label, LABEL_OPTIONAL);
    if (value_type(ps, k) || expect(ps, ","))
        return -1;
    while (is(ps, "optional") || is(ps, "ref"))
        next(ps);   /* value nullability and tracking do not change the C type */
    if (value_type(ps, v) || expect(ps, ">"))
        return -1;
    SET(f->label, LABEL_REPEATED);
    SET(f->type, TYPE_MESSAGE);
    SET(f->type_name, cstr(ps, ename));   /* relative: resolved within owner */
    return 0;
}

/* One field (or, with `union_case`, one case of a union: numbers from 0). */
static int field(parser *ps, msg_desc *m, bool union_case)
{
    field_desc *f = PUSH(ps, m->field);
    bool optional = false, ref = false;
    for (;;) {
        if (is(ps, "optional"))
            optional = true;
        else if (is(ps, "ref"))
            ref = true;
        else
            break;
        next(ps);
        if (ref && is(ps, "("))   /* ref(weak=true, ...): carrier options */
            while (!ps->failed && !is(ps, ")") && ps->tok[0])
                next(ps);
        if (is(ps, ")"))
            next(ps);
    }
    SET(f->label, LABEL_OPTIONAL);
    /* The field's name comes after its type; peek past the type for maps. */
    int rc = 0;
    if (is(ps, "list") || is(ps, "repeated")) {
        bool angle = is(ps, "list");
        next(ps);
        if (angle && expect(ps, "<"))
            return -1;
        while (is(ps, "optional") || is(ps, "ref"))
            next(ps);
        rc = value_type(ps, f) || (angle && expect(ps, ">"));
        SET(f->label, LABEL_REPEATED);
    } else if (is(ps, "array")) {
        next(ps);
        if (expect(ps, "<") || value_type(ps, f) || expect(ps, ">"))
            return -1;
        const char *s = scalar_name(f);
        if (!s || strcmp(s, "date") == 0 || strcmp(s, "timestamp") == 0 ||
            strcmp(s, "decimal") == 0)
            return perr(ps, "array<T> takes bool, integer and floating-point types only");
        char pseudo[40];
        snprintf(pseudo, sizeof pseudo, ".codec.array.%s", s);
        f->type.has = false;
        SET(f->type_name, cstr(ps, pseudo));
        SET(f->label, LABEL_REPEATED);
    } else if (is(ps, "map")) {
        /* The entry's name needs the field's: read the map after the name. */
        const char *save_p = ps->p;
        int save_line = ps->line;
        int depth = 0;
        next(ps);
        do {   /* skip <...> to find the field name */
            depth += is(ps, "<") - is(ps, ">");
            next(ps);
        } while (!ps->failed && ps->tok[0] && depth > 0);
        char fname[128];
        if (ident(ps, fname, sizeof fname))
            return -1;
        const char *after = ps->p;
        int after_line = ps->line;
        char after_tok[sizeof ps->tok];
        memcpy(after_tok, ps->tok, sizeof after_tok);
        ps->p = save_p;
        ps->line = save_line;
        snprintf(ps->tok, sizeof ps->tok, "map");
        if (map_type(ps, m, f, fname))
            return -1;
        ps->p = after;
        ps->line = after_line;
        memcpy(ps->tok, after_tok, sizeof after_tok);
        SET(f->name, cstr(ps, fname));
        goto number;
    } else {
        rc = value_type(ps, f);
    }
    if (rc)
        return -1;
    {
        char fname[128];
        if (ident(ps, fname, sizeof fname))
            return -1;
        SET(f->name, cstr(ps, fname));
    }
number:;
    long long num;
    if (expect(ps, "=") || integer(ps, &num))
        return -1;
    if (num < !union_case || num > 536870911)
        return perr(ps, "field number %lld is outside %d..536870911", num, !union_case);
    if (options(ps, NULL) || expect(ps, ";"))
        return -1;
    SET(f->number, (int32_t)num);
    if (optional && f->label.value != LABEL_REPEATED)
        SET(f->proto3_optional, true);
    if (ref) {
        f->options = codec_arena_alloc(ps->arena, sizeof *f->options, 16);
        if (!f->options)
            exit(2);
        memset(f->options, 0, sizeof *f->options);
        SET(f->options->weak, true);
    }
    return 0;
}

static int add_id(parser *ps, const char *scope, const char *name, long long id)
{
    if (!id)
        return 0;
    if (id < 0 || id > 65535)
        return perr(ps, "type id %lld of %s is outside 0..65535", id, name);
    codec__fdl_result *o = ps->out;
    o->ids = realloc(o->ids, (o->nids + 1) * sizeof *o->ids);
    if (!o->ids)
        exit(2);
    char full[512];
    snprintf(full, sizeof full, "%s%s%s", scope, scope[0] ? "." : "", name);
    o->ids[o->nids++] = (codec__gen_fory_id){cstr(ps, full).ptr, (uint32_t)id};
    return 0;
}

/* `enum|message NAME [id=N, ...] {`: the name into name[128], the id kept. */
static int type_head(parser *ps, const char *scope, char *name)
{
    long long id = 0;
    next(ps);
    return ident(ps, name, 128) || options(ps, &id) || add_id(ps, scope, name, id) ||
           expect(ps, "{");
}

static int enum_def(parser *ps, const char *scope, enum_desc *e)
{
    char name[128];
    if (type_head(ps, scope, name))
        return -1;
    SET(e->name, cstr(ps, name));
    while (!ps->failed && !is(ps, "}")) {
        if (is(ps, "reserved")) {
            if (reserved(ps, NULL))
                return -1;
            continue;
        }
        if (is(ps, "option")) {
            while (!ps->failed && ps->tok[0] && !is(ps, ";"))
                next(ps);
            next(ps);
            continue;
        }
        char vname[128];
        long long num;
        if (ident(ps, vname, sizeof vname) || expect(ps, "=") || integer(ps, &num) ||
            options(ps, NULL) || expect(ps, ";"))
            return -1;
        codec__google_protobuf_EnumValueDescriptorProto *v = PUSH(ps, e->value);
        SET(v->name, cstr(ps, vname));
        SET(v->number, (int32_t)num);
    }
    return expect(ps, "}");
}

/* `union U [id=N] { T name = case_id; ... }`: a message whose fields are
 * the members of its one oneof, marked for the generator with
 * MessageOptions.no_standard_descriptor_accessor (gen.c: is_union). */
static int union_def(parser *ps, const char *scope, msg_desc *m)
{
    char name[128];
    if (type_head(ps, scope, name))
        return -1;
    SET(m->name, cstr(ps, name));
    SET(PUSH(ps, m->oneof_decl)->name, cstr(ps, "value"));
    if (!(m->options = codec_arena_alloc(ps->arena, sizeof *m->options, 16)))
        exit(2);
    memset(m->options, 0, sizeof *m->options);
    SET(m->options->no_standard_descriptor_accessor, true);
    while (!ps->failed && !is(ps, "}")) {
        if (!ps->tok[0])
            return perr(ps, "union %s is not closed", name);
        if (is(ps, "optional") || is(ps, "ref"))
            return perr(ps, "union cases cannot be optional or ref");
        if (field(ps, m, true))
            return -1;
        SET(m->field.items[m->field.count - 1].oneof_index, 0);
    }
    if (!m->field.count)
        return perr(ps, "union %s has no cases", name);
    return expect(ps, "}");
}

static int message_def(parser *ps, const char *scope, msg_desc *m)
{
    char name[128];
    if (type_head(ps, scope, name))
        return -1;
    SET(m->name, cstr(ps, name));
    char inner[512];
    snprintf(inner, sizeof inner, "%s%s%s", scope, scope[0] ? "." : "", name);
    while (!ps->failed && !is(ps, "}")) {
        if (!ps->tok[0])
            return perr(ps, "message %s is not closed", name);
        if (is(ps, "reserved"))
            reserved(ps, m);
        else if (is(ps, "enum"))
            enum_def(ps, inner, PUSH(ps, m->enum_type));
        else if (is(ps, "message"))
            message_def(ps, inner, PUSH(ps, m->nested_type));
        else if (is(ps, "union"))
            union_def(ps, inner, PUSH(ps, m->nested_type));
        else
            field(ps, m, false);
    }
    return ps->failed ? -1 : expect(ps, "}");
}

/* ---------------------------------------------------------------------------
 * Name resolution: every named field type to ".pkg.Full.Name"
 * ------------------------------------------------------------------------ */

typedef struct known {
    char **names;
    bool *is_enum;
    size_t count;
} known;

static void know(known *k, const char *full, bool is_enum)
{
    k->names = realloc(k->names, (k->count + 1) * sizeof *k->names);
    k->is_enum = realloc(k->is_enum, (k->count + 1) * sizeof *k->is_enum);
    if (!k->names || !k->is_enum)
        exit(2);
    k->names[k->count] = strdup(full);
    k->is_enum[k->count++] = is_enum;
}

static void collect(known *k, const msg_desc *m, const char *scope)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s%.*s", scope, scope[0] ? "." : "", (int)m->name.value.len,
             m->name.value.ptr);
    know(k, full, false);
    for (size_t i = 0; i < m->enum_type.count; i++) {
        char e[600];
        snprintf(e, sizeof e, "%s.%.*s", full, (int)m->enum_type.items[i].name.value.len,
                 m->enum_type.items[i].name.value.ptr);
        know(k, e, true);
    }
    for (size_t i = 0; i < m->nested_type.count; i++)
        collect(k, &m->nested_type.items[i], full);
}

static int find_known(const known *k, const char *full)
{
    for (size_t i = 0; i < k->count; i++)
        if (strcmp(k->names[i], full) == 0)
            return (int)i;
    return -1;
}

/* Resolves `name` from scope outwards, as protobuf does. */
static int resolve(parser *ps, const known *k, field_desc *f, const char *scope)
{
    const char *name = f->type_name.value.ptr;
    if (strncmp(name, ".codec.", 7) == 0)
        return 0;
    char sc[512], full[800];
    snprintf(sc, sizeof sc, "%s", scope);
    for (;;) {
        snprintf(full, sizeof full, "%s%s%s", sc, sc[0] ? "." : "", name);
        int i = find_known(k, full);
        if (i >= 0) {
            char dotted[810];
            snprintf(dotted, sizeof dotted, ".%s", full);
            SET(f->type_name, cstr(ps, dotted));
            SET(f->type, k->is_enum[i] ? TYPE_ENUM : TYPE_MESSAGE);
            return 0;
        }
        if (!sc[0])
            return perr(ps, "unknown type '%s' (field %s)", name, f->name.value.ptr);
        char *dot = strrchr(sc, '.');
        if (dot)
            *dot = '\0';
        else
            sc[0] = '\0';
    }
}

static int resolve_msg(parser *ps, const known *k, msg_desc *m, const char *scope)
{
    char full[512];
    snprintf(full, sizeof full, "%s%s%s", scope, scope[0] ? "." : "", m->name.value.ptr);
    for (size_t i = 0; i < m->field.count; i++)
        if (m->field.items[i].type_name.has && resolve(ps, k, &m->field.items[i], full))
            return -1;
    for (size_t i = 0; i < m->nested_type.count; i++)
        if (resolve_msg(ps, k, &m->nested_type.items[i], full))
            return -1;
    return 0;
}

/* ---------------------------------------------------------------------------
 * Files
 * ------------------------------------------------------------------------ */

static int parse_file(codec__fdl_result *out, const char *path, const char *name,
                      codec_arena *arena, char *err, size_t errcap, int depth);

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap && !(buf = realloc(buf, cap = cap ? cap * 2 : 8192)))
            exit(2);
        size_t r = fread(buf + *n, 1, cap - *n, f);
        *n += r;
        if (!r)
            break;
    }
    fclose(f);
    return buf;
}

static int import_file(parser *ps, file_desc *fd, int depth)
{
    char rel[512], path[1024];
    snprintf(rel, sizeof rel, "%s", ps->tok);
    next(ps);
    if (expect(ps, ";"))
        return -1;
    const char *slash = strrchr(ps->path, '/');
    snprintf(path, sizeof path, "%.*s%s", slash ? (int)(slash - ps->path + 1) : 0, ps->path, rel);
    *PUSH(ps, fd->dependency) = cstr(ps, rel);
    for (size_t i = 0; i < ps->out->count; i++)
        if (strcmp(ps->out->files[i].name.value.ptr, rel) == 0)
            return 0;   /* already read */
    if (parse_file(ps->out, path, rel, ps->arena, ps->err, ps->errcap, depth + 1))
        ps->failed = 1;
    return ps->failed ? -1 : 0;
}

static int parse_file(codec__fdl_result *out, const char *path, const char *name,
                      codec_arena *arena, char *err, size_t errcap, int depth)
{
    if (depth > 32) {
        snprintf(err, errcap, "%s: imports nest deeper than 32", path);
        return -1;
    }
    size_t n = 0;
    char *text = slurp(path, &n);
    if (!text) {
        snprintf(err, errcap, "cannot read %s", path);
        return -1;
    }
    parser ps = {.path = path, .p = text, .end = text + n, .line = 1, .arena = arena,
                 .out = out, .err = err, .errcap = errcap};
    file_desc fd;
    memset(&fd, 0, sizeof fd);
    SET(fd.name, cstr(&ps, name));
    SET(fd.syntax, cstr(&ps, "proto3"));
    char pkg[256] = "";
    next(&ps);
    while (!ps.failed && ps.tok[0]) {
        if (is(&ps, "package")) {
            next(&ps);
            if (ident(&ps, pkg, sizeof pkg))
                break;
            if (is(&ps, "alias")) {
                next(&ps);
                next(&ps);
            }
            expect(&ps, ";");
            SET(fd.package, cstr(&ps, pkg));
        } else if (is(&ps, "option")) {
            while (!ps.failed && ps.tok[0] && !is(&ps, ";"))
                next(&ps);
            next(&ps);
        } else if (is(&ps, "import")) {
            next(&ps);
            if (is(&ps, "public") || is(&ps, "weak"))
                next(&ps);
            if (!ps.tok_string)
                perr(&ps, "import takes a \"path\"");
            else
                import_file(&ps, &fd, depth);
        } else if (is(&ps, "enum")) {
            enum_def(&ps, pkg, PUSH(&ps, fd.enum_type));
        } else if (is(&ps, "message")) {
            message_def(&ps, pkg, PUSH(&ps, fd.message_type));
        } else if (is(&ps, "service")) {
            while (!ps.failed && ps.tok[0] && !is(&ps, "{"))
                next(&ps);
            skip_block(&ps);
        } else if (is(&ps, "union")) {
            union_def(&ps, pkg, PUSH(&ps, fd.message_type));
        } else {
            perr(&ps, "unexpected '%s'", ps.tok);
        }
    }
    if (!ps.failed) {
        /* Every type this file sees: its own and its imports'. */
        known k = {0};
        for (size_t i = 0; i < out->count; i++) {
            const file_desc *o = &out->files[i];
            const char *op = o->package.has ? o->package.value.ptr : "";
            for (size_t j = 0; j < o->message_type.count; j++)
                collect(&k, &o->message_type.items[j], op);
            for (size_t j = 0; j < o->enum_type.count; j++) {
                char e[600];
                snprintf(e, sizeof e, "%s%s%s", op, op[0] ? "." : "",
                         o->enum_type.items[j].name.value.ptr);
                know(&k, e, true);
            }
        }
        for (size_t j = 0; j < fd.message_type.count; j++)
            collect(&k, &fd.message_type.items[j], pkg);
        for (size_t j = 0; j < fd.enum_type.count; j++) {
            char e[600];
            snprintf(e, sizeof e, "%s%s%s", pkg, pkg[0] ? "." : "", fd.enum_type.items[j].name.value.ptr);
            know(&k, e, true);
        }
        for (size_t j = 0; j < fd.message_type.count && !ps.failed; j++)
            resolve_msg(&ps, &k, &fd.message_type.items[j], pkg);
        for (size_t i = 0; i < k.count; i++)
            free(k.names[i]);
        free(k.names);
        free(k.is_enum);
    }
    free(text);
    if (ps.failed)
        return -1;
    out->files = realloc(out->files, (out->count + 1) * sizeof *out->files);
    if (!out->files)
        exit(2);
    out->files[out->count++] = fd;
    return 0;
}

int codec__fdl_read(const char *path, const char *name, codec_arena *arena,
                    codec__fdl_result *out, char *err, size_t errcap)
{
    memset(out, 0, sizeof *out);
    return parse_file(out, path, name, arena, err, errcap, 0);
}

void codec__fdl_result_free(codec__fdl_result *r)
{
    free(r->files);
    free(r->ids);
    memset(r, 0, sizeof *r);
}
