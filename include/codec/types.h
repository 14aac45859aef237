/* codec/types.h — descriptors of C types, and schemaless values.
 *
 * Layer `types`. A backend (JSON, protobuf, CBOR, MessagePack, Fory) walks a
 * `codec_type` to turn a C value into bytes and back. Descriptors are plain
 * `static const` data declared next to the C struct they describe; nothing
 * is registered at run time:
 *
 *   typedef struct person {
 *       codec_string name;
 *       int32_t age;
 *       bool active;
 *       codec_string email;
 *   } person;
 *
 *   CODEC_STRUCT(person_type, person,
 *       CODEC_FIELD(person, name, 1, CODEC_STRING),
 *       CODEC_FIELD(person, age, 2, CODEC_INT32),
 *       CODEC_FIELD(person, active, 3, CODEC_BOOL),
 *       CODEC_FIELD(person, email, 4, CODEC_STRING));
 *
 *   codec *c = codec_parse("json", &person_type, &err);
 *
 * Building a codec runs codec_type_check() on the descriptor, which catches
 * a field whose C size does not match its kind, duplicate names or tags,
 * offsets outside the struct, and missing element types.
 *
 * C layouts, one per kind (what a field of that kind must be in C):
 *
 *   kind            C type                                   note
 *   BOOL            bool
 *   INT8..INT64     int8_t..int64_t
 *   UINT8..UINT64   uint8_t..uint64_t
 *   FLOAT, DOUBLE   float, double
 *   STRING          codec_string                             UTF-8, not NUL-terminated
 *   BYTES           codec_bytes
 *   ENUM            int32_t (or a C enum of that size)       names <-> numbers
 *   STRUCT          the struct                               fields at offsetof
 *   LIST            CODEC_LIST_OF(T) = { T *items; size_t count; }
 *   MAP             CODEC_MAP_OF(K, V) = { K *keys; V *values; size_t count; }
 *                   parallel arrays; entry i is keys[i] -> values[i]; order kept
 *   OPTIONAL        CODEC_OPTIONAL_OF(T) = { bool has; T value; }
 *                   has == false is "absent" (distinct from a zero value)
 *   UNION           struct { uint32_t which; union { members... }; }
 *                   which == 0: no member; which == i: the i-th member
 *                   (see CODEC_UNION)
 *   UUID            codec_uuid    (16 bytes, RFC 9562 byte order)
 *   DATE            codec_date    (days since 1970-01-01, proleptic Gregorian)
 *   TIMESTAMP       codec_timestamp (UTC seconds + nanos + offset minutes)
 *   DECIMAL         codec_string  (exact decimal text, JSON number grammar)
 *   XMAP            any C type; user functions map it to/from a wire type
 *   VALUE           codec_value   (schemaless: null, bool, numbers, ...)
 *   POINTER         T *  (NULL = absent)  a boxed message: presence and recursion
 *
 * Ownership: decoders put every string, byte string, list and map they
 * produce in the caller's codec_arena. Encoders only read the value.
 * Thread-safety: descriptors are immutable; the per-struct field index is
 * built once, lazily, with atomics, so descriptors may be shared by threads.
 */
#ifndef CODEC_TYPES_H
#define CODEC_TYPES_H

#include "compose.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------
 * C value layouts
 * ------------------------------------------------------------------------ */

/** A UTF-8 string: `len` bytes at `ptr` (not NUL-terminated; ptr may be NULL
 * when len is 0). */
typedef struct codec_string {
    const char *ptr;
    size_t len;
} codec_string;

/** A string literal as a codec_string: CODEC_STR("Ada"). */
#define CODEC_STR(lit) ((codec_string){(lit), sizeof(lit) - 1})

/** The generic view of every list: `count` items of the element's size. */
typedef struct codec_list {
    void *items;
    size_t count;
} codec_list;

/** The generic view of every map: two parallel arrays of `count` entries. */
typedef struct codec_map {
    void *keys;
    void *values;
    size_t count;
} codec_map;

/** Typed spellings of the same layouts, for struct members. */
#define CODEC_LIST_OF(T) struct { T *items; size_t count; }
#define CODEC_MAP_OF(K, V) struct { K *keys; V *values; size_t count; }
#define CODEC_OPTIONAL_OF(T) struct { bool has; T value; }

/** 16 bytes in network order ("00112233-4455-..." prints bytes[0] first). */
typedef struct codec_uuid {
    uint8_t bytes[16];
} codec_uuid;

/** A calendar date as days since 1970-01-01 (negative before). */
typedef struct codec_date {
    int32_t days;
} codec_date;

/** An instant with the UTC offset it was written in. `seconds` counts from
 * 1970-01-01T00:00:00Z (UTC, whatever the offset), `nanos` is 0..999999999,
 * `offset_minutes` is -1439..1439 and only says how to display the local time. */
typedef struct codec_timestamp {
    int64_t seconds;
    int32_t nanos;
    int32_t offset_minutes;
} codec_timestamp;

/* ---------------------------------------------------------------------------
 * Descriptors
 * ------------------------------------------------------------------------ */

/** The kinds. The numbers are stable (schemas may store them). */
typedef enum codec_type_kind {
    CODEC_T_BOOL = 1,
    CODEC_T_INT8, CODEC_T_INT16, CODEC_T_INT32, CODEC_T_INT64,
    CODEC_T_UINT8, CODEC_T_UINT16, CODEC_T_UINT32, CODEC_T_UINT64,
    CODEC_T_FLOAT, CODEC_T_DOUBLE,
    CODEC_T_STRING, CODEC_T_BYTES,
    CODEC_T_ENUM, CODEC_T_STRUCT, CODEC_T_LIST, CODEC_T_MAP, CODEC_T_OPTIONAL,
    CODEC_T_UUID, CODEC_T_DATE, CODEC_T_TIMESTAMP, CODEC_T_DECIMAL,
    CODEC_T_XMAP, CODEC_T_VALUE,
    CODEC_T_UNION,             /* Since 0.1 */
    CODEC_T_POINTER            /* Since 0.1 */
} codec_type_kind;

/** Field flags. */
enum codec_field_flag {
    /** Decoding fails when the field is missing, whatever the backend options. */
    CODEC_FIELD_REQUIRED = 1u << 0,
    /** Binary formats: write this integer (or the integers of this list, or
     * the values of this map) zigzag-encoded, protobuf `sint32`/`sint64`.
     * Signed kinds only. Text formats ignore it. */
    CODEC_FIELD_ZIGZAG = 1u << 1,
    /** Binary formats: write this integer in fixed width instead of a varint:
     * protobuf `fixed32`/`fixed64` (unsigned) or `sfixed32`/`sfixed64`
     * (signed), Fory's fixed INT32/INT64/UINT32/UINT64. Text formats ignore
     * it. Floats and doubles are always fixed. */
    CODEC_FIELD_FIXED = 1u << 2,
    /** A codec_bytes member that is not a wire field: the protobuf backend
     * keeps the raw records of fields it does not know there on decode and
     * writes them back after the known fields on encode, so they survive a
     * decode-encode round trip. Its tag must still be unique. At most one
     * per struct. Only protobuf knows this flag today: the other backends
     * read and write the member as an ordinary bytes field. */
    CODEC_FIELD_UNKNOWN_BYTES = 1u << 3,
    /** Fory: write this INT64/UINT64 field in the tagged ("hybrid") form,
     * 4 bytes for small values, 9 otherwise. */
    CODEC_FIELD_TAGGED = 1u << 4,
    /** Protobuf: write a list of scalars as one record per item (`[packed =
     * false]`, proto2's default) instead of one packed record. Decoding
     * accepts both forms either way. Other backends ignore it. Since: 0.1 */
    CODEC_FIELD_UNPACKED = 1u << 5
};

/** Type flags (codec_type.flags). */
enum codec_type_flag {
    /** A LIST of a fixed-width scalar that binary backends with a choice
     * (Fory) write as a packed primitive array rather than a list. The C
     * layout is the same as a list; declare it with CODEC_ARRAY(). */
    CODEC_TYPE_ARRAY = 1u << 0,
    /** A UNION whose members JSON writes flat in the enclosing object, as
     * proto3's JSON mapping writes a oneof ({"name": "x", "circle": 2.5}
     * instead of {"name": "x", "shape": {"circle": 2.5}}). Declare it with
     * CODEC_UNION_FLAT(). Only where the union is a struct field; elsewhere,
     * and in the other backends, it is an ordinary union. Since 0.1. */
    CODEC_TYPE_FLAT = 1u << 1,
    /** On a MAP: binary formats write its integer keys zigzag-encoded
     * (protobuf `map<sint32, V>`); the field's flags apply to the values.
     * Since: 0.1 */
    CODEC_TYPE_KEY_ZIGZAG = 1u << 2,
    /** On a MAP: binary formats write its integer keys in fixed width
     * (protobuf `map<fixed32, V>`, `map<sfixed64, V>`). Since: 0.1 */
    CODEC_TYPE_KEY_FIXED = 1u << 3
};

/** One field of a struct. Use CODEC_FIELD()/CODEC_FIELD_EX() to fill it. */
typedef struct codec_field {
    const char *name;          /* wire name (JSON key); unique in the struct */
    uint32_t tag;              /* wire number (protobuf field, CBOR key...); 1.., unique */
    uint32_t flags;            /* codec_field_flag bits */
    size_t offset;             /* offsetof(struct, member) */
    size_t size;               /* sizeof the member, checked against type->size */
    const struct codec_type *type;
} codec_field;

/** One value of an enum. */
typedef struct codec_enum_value {
    const char *name;
    int32_t number;
} codec_enum_value;

/** A custom adapter ("xmap"): the C value is converted to a value of `wire`
 * for encoding and back for decoding.
 *  - to_wire: fill *wire_value (of wire->size bytes, zeroed) from *c_value.
 *    Strings it produces may point into c_value, static data or `scratch`
 *    (CODEC_XMAP_SCRATCH bytes, valid until the backend has written them).
 *    Return 0, or non-zero when the value cannot be represented
 *    (the backend fails with CODEC_E_INVALID_VALUE).
 *  - from_wire: fill *c_value from *wire_value; allocate in `arena` if needed.
 *    Return 0, or non-zero to reject the payload (CODEC_E_INVALID_PAYLOAD).
 * Both must be thread-safe if the codec is shared. */
#define CODEC_XMAP_SCRATCH 128
typedef struct codec_xmap {
    const struct codec_type *wire;    /* its size must be <= CODEC_XMAP_MAX_WIRE */
    int (*to_wire)(void *ctx, const void *c_value, void *wire_value, char *scratch);
    int (*from_wire)(void *ctx, const void *wire_value, void *c_value, codec_arena *arena);
    void *ctx;
} codec_xmap;
#define CODEC_XMAP_MAX_WIRE 256

/** Mutable, lazily built per-struct lookup tables (name and tag indexes).
 * Declared by CODEC_STRUCT next to the descriptor; treat as private. */
typedef struct codec_type_cache {
    void *index;               /* written once with atomics */
} codec_type_cache;

/** A type descriptor. Fill it with the macros below; which members matter
 * depends on `kind` (the others stay zero). */
struct codec_type {
    codec_type_kind kind;
    const char *name;                     /* for messages and schemas */
    size_t size;                          /* sizeof the C value */
    size_t align;                         /* alignof the C value */
    const struct codec_type *elem;        /* LIST item, MAP value, OPTIONAL value,
                                             POINTER target */
    const struct codec_type *key;         /* MAP key */
    const codec_field *fields;            /* STRUCT fields, UNION members */
    const codec_enum_value *values;       /* ENUM */
    size_t count;                         /* number of fields, members or enum values */
    size_t value_offset;                  /* OPTIONAL: offset of `value` */
    const codec_xmap *xmap;               /* XMAP */
    codec_type_cache *cache;              /* STRUCT, UNION: lookup index */
    uint32_t flags;                       /* codec_type_flag bits */
    /** STRUCT: specialized encode/decode functions written by
     * `codec-gen --specialize` (codec/codegen.h), or NULL. Backends that
     * know them call them instead of walking the descriptor. Since 0.1. */
    const struct codec_codegen *codegen;
};

/** The built-in scalar and leaf types. Since 0.1. */
CODEC_API extern const codec_type codec_type_bool, codec_type_int8, codec_type_int16,
    codec_type_int32, codec_type_int64, codec_type_uint8, codec_type_uint16,
    codec_type_uint32, codec_type_uint64, codec_type_float, codec_type_double,
    codec_type_string, codec_type_bytes, codec_type_uuid, codec_type_date,
    codec_type_timestamp, codec_type_decimal, codec_type_value;

#define CODEC_BOOL (&codec_type_bool)
#define CODEC_INT8 (&codec_type_int8)
#define CODEC_INT16 (&codec_type_int16)
#define CODEC_INT32 (&codec_type_int32)
#define CODEC_INT64 (&codec_type_int64)
#define CODEC_UINT8 (&codec_type_uint8)
#define CODEC_UINT16 (&codec_type_uint16)
#define CODEC_UINT32 (&codec_type_uint32)
#define CODEC_UINT64 (&codec_type_uint64)
#define CODEC_FLOAT (&codec_type_float)
#define CODEC_DOUBLE (&codec_type_double)
#define CODEC_STRING (&codec_type_string)
#define CODEC_BYTES (&codec_type_bytes)
#define CODEC_UUID (&codec_type_uuid)
#define CODEC_DATE (&codec_type_date)
#define CODEC_TIMESTAMP (&codec_type_timestamp)
#define CODEC_DECIMAL (&codec_type_decimal)
#define CODEC_VALUE (&codec_type_value)   /* a codec_value field (schemaless) */

/* ---------------------------------------------------------------------------
 * Declaration macros (each defines a `static const codec_type IDENT`)
 *
 * The descriptors are file-local: to share one across files, define it in
 * one .c file and export a function returning its address. A recursive type
 * declares itself first: `static const codec_type node_type;`, then a
 * CODEC_LIST of &node_type, then CODEC_STRUCT(node_type, ...).
 * ------------------------------------------------------------------------ */

/** A field named like its member. `tag` is its wire number (1.., unique). */
#define CODEC_FIELD(S, member, tag, type_ptr) \
    CODEC_FIELD_EX(S, member, #member, tag, type_ptr, 0)

/** A field with an explicit wire name and flags. */
#define CODEC_FIELD_EX(S, member, wire_name, tag_, type_ptr, flags_)                    \
    {.name = (wire_name), .tag = (tag_), .flags = (flags_), .offset = offsetof(S, member), \
     .size = sizeof(((S *)0)->member), .type = (type_ptr)}

/** A struct type: CODEC_STRUCT(ident, S, CODEC_FIELD(...), ...). Fields are
 * encoded in the order given. */
#define CODEC_STRUCT(ident, S, ...)                                                 \
    static const codec_field ident##_fields_[] = {__VA_ARGS__};                     \
    static codec_type_cache ident##_cache_;                                         \
    static const codec_type ident = {                                               \
        .kind = CODEC_T_STRUCT, .name = #S, .size = sizeof(S), .align = alignof(S), \
        .fields = ident##_fields_,                                                  \
        .count = sizeof ident##_fields_ / sizeof ident##_fields_[0],                \
        .cache = &ident##_cache_}

/** An enum type: CODEC_ENUM(ident, {"JAVA", 0}, {"FLASH", 1}). */
#define CODEC_ENUM(ident, ...)                                                   \
    static const codec_enum_value ident##_values_[] = {__VA_ARGS__};             \
    static const codec_type ident = {                                            \
        .kind = CODEC_T_ENUM, .name = #ident, .size = sizeof(int32_t),           \
        .align = alignof(int32_t), .values = ident##_values_,                    \
        .count = sizeof ident##_values_ / sizeof ident##_values_[0]}

/** A list of `elem` (C layout CODEC_LIST_OF(T)). */
#define CODEC_LIST(ident, elem_ptr)                                              \
    static const codec_type ident = {.kind = CODEC_T_LIST, .name = #ident,       \
                                     .size = sizeof(codec_list),                 \
                                     .align = alignof(codec_list), .elem = (elem_ptr)}

/** A map whose keys binary formats write zigzag-encoded or in fixed width:
 * CODEC_MAP_EX(ident, key, value, CODEC_TYPE_KEY_ZIGZAG). Same C layout. */
#define CODEC_MAP_EX(ident, key_ptr, value_ptr, flags_)                          \
    static const codec_type ident = {.kind = CODEC_T_MAP, .name = #ident,        \
                                     .size = sizeof(codec_map),                  \
                                     .align = alignof(codec_map),                \
                                     .key = (key_ptr), .elem = (value_ptr),      \
                                     .flags = (flags_)}

/** A list of `elem` that Fory writes as a primitive array (INT32_ARRAY...);
 * other backends treat it as a list. Same C layout as CODEC_LIST. */
#define CODEC_ARRAY(ident, elem_ptr)                                             \
    static const codec_type ident = {.kind = CODEC_T_LIST, .name = #ident,       \
                                     .size = sizeof(codec_list),                 \
                                     .align = alignof(codec_list), .elem = (elem_ptr), \
                                     .flags = CODEC_TYPE_ARRAY}

/** A map from `key` to `value` (C layout CODEC_MAP_OF(K, V)). */
#define CODEC_MAP(ident, key_ptr, value_ptr)                                     \
    static const codec_type ident = {.kind = CODEC_T_MAP, .name = #ident,        \
                                     .size = sizeof(codec_map),                  \
                                     .align = alignof(codec_map),                \
                                     .key = (key_ptr), .elem = (value_ptr)}

/** An optional `elem` whose C type is T (layout CODEC_OPTIONAL_OF(T)). */
#define CODEC_OPTIONAL(ident, T, elem_ptr)                                       \
    static const codec_type ident = {                                            \
        .kind = CODEC_T_OPTIONAL, .name = #ident,                                \
        .size = sizeof(CODEC_OPTIONAL_OF(T)), .align = alignof(CODEC_OPTIONAL_OF(T)), \
        .elem = (elem_ptr), .value_offset = alignof(T)}

/** A pointer to a value of `elem` (C layout `T *`), NULL when absent. What
 * generated code uses for message fields: a message's presence is kept
 * (NULL, or a pointer to an empty message), and messages can contain
 * themselves or each other. Decoders allocate the target in the arena (a
 * second occurrence merges into the same target, as protobuf requires).
 * Only the protobuf backend carries pointers today (elem must be a struct);
 * the others refuse them with CODEC_E_USAGE when the codec is built.
 * Since: 0.1 */
#define CODEC_POINTER(ident, elem_ptr)                                           \
    static const codec_type ident = {.kind = CODEC_T_POINTER, .name = #ident,    \
                                     .size = sizeof(void *),                     \
                                     .align = alignof(void *), .elem = (elem_ptr)}

/** A tagged union (Since 0.1): a discriminant and one active member.
 *
 * C layout: a struct whose first member is `uint32_t which`, followed by an
 * anonymous union of the members:
 *
 *   typedef struct shape {
 *       uint32_t which;              // 0: no member; i: the i-th member below
 *       union {
 *           double circle;           // which == 1
 *           rect rectangle;          // which == 2
 *           codec_string label;      // which == 3
 *       };
 *   } shape;
 *   enum { SHAPE_NONE = CODEC_UNION_NONE, SHAPE_CIRCLE, SHAPE_RECTANGLE, SHAPE_LABEL };
 *
 *   CODEC_UNION(shape_type, shape,
 *       CODEC_FIELD(shape, circle, 1, CODEC_DOUBLE),
 *       CODEC_FIELD(shape, rectangle, 2, &rect_type),
 *       CODEC_FIELD_EX(shape, label, "label", 3, CODEC_STRING, 0));
 *
 * `which` is the 1-based position of the active member in the CODEC_UNION
 * list (not its tag), so a zeroed union is empty and tag 0 stays usable.
 * Members are declared with CODEC_FIELD/CODEC_FIELD_EX exactly like struct
 * fields: `name` is the member's key in JSON, CBOR and MessagePack; `tag` is
 * its wire number: the protobuf field number of the oneof member (1..,
 * unique among all fields of the enclosing message) and the Fory case_id
 * (0.. allowed). The ZIGZAG/FIXED/TAGGED flags apply to a member as to a
 * field. A member cannot be an OPTIONAL (the union has its own empty state),
 * and an OPTIONAL cannot hold a union. Members are unique by name and tag.
 *
 * How each backend writes it (docs/formats/<backend>.md has the details):
 *  - protobuf: a union field of a struct is a `oneof`: the active member is
 *    written as a field of the enclosing message with the member's tag (the
 *    union field's own tag is not on the wire); on decode the last member
 *    seen wins. A union elsewhere (list item, map value, root) is refused:
 *    wrap it in a struct, as protobuf requires.
 *  - JSON, CBOR, MessagePack: an object/map with exactly one entry, the
 *    member's name -> its value ({"circle": 2.5}); an empty union is null,
 *    and a struct field holding an empty union is left out.
 *  - Fory: a union struct field is the xlang UNION (type id 33): null flag
 *    (empty union: null), varuint32 case_id (the member's tag), then the
 *    member with its own ref flag and type meta. Unions elsewhere and enum
 *    members are refused (they need TYPED_UNION / registered enum ids).
 * Decoders fail with CODEC_E_INVALID_PAYLOAD on an unknown member name or
 * case_id and on two members in one JSON/CBOR/MessagePack union; protobuf
 * keeps an unknown field number per its unknown-field option as usual.
 * Encoders fail with CODEC_E_INVALID_VALUE when `which` exceeds the member
 * count. Decoded strings, lists and maps inside the member live in the
 * caller's arena, as elsewhere. */
#define CODEC_UNION_NONE 0u

/** A union type: CODEC_UNION(ident, U, CODEC_FIELD(U, member, tag, type), ...).
 * U must start with `uint32_t which` (see above). Since 0.1. */
#define CODEC_UNION(ident, U, ...)                                                  \
    static const codec_field ident##_fields_[] = {__VA_ARGS__};                     \
    static codec_type_cache ident##_cache_;                                         \
    static const codec_type ident = {                                               \
        .kind = CODEC_T_UNION, .name = #U, .size = sizeof(U), .align = alignof(U),  \
        .fields = ident##_fields_,                                                  \
        .count = sizeof ident##_fields_ / sizeof ident##_fields_[0],                \
        .cache = &ident##_cache_}

/** A union whose members JSON writes as keys of the enclosing object
 * (CODEC_TYPE_FLAT): same arguments and C layout as CODEC_UNION. Its member
 * names must differ from the enclosing struct's field names and from the
 * members of its other flat unions (codec_type_check). JSON decoding takes
 * a member key where the struct has no field of that name, refuses a
 * second member of the same union, reads `"member": null` as not set, and
 * still accepts the nested form {"shape": {"circle": 2.5}}. Since 0.1. */
#define CODEC_UNION_FLAT(ident, U, ...)                                             \
    static const codec_field ident##_fields_[] = {__VA_ARGS__};                     \
    static codec_type_cache ident##_cache_;                                         \
    static const codec_type ident = {                                               \
        .kind = CODEC_T_UNION, .name = #U, .size = sizeof(U), .align = alignof(U),  \
        .fields = ident##_fields_,                                                  \
        .count = sizeof ident##_fields_ / sizeof ident##_fields_[0],                \
        .cache = &ident##_cache_, .flags = CODEC_TYPE_FLAT}

/** True when t is a union that JSON writes flat (CODEC_UNION_FLAT). */
static inline bool codec_union_is_flat(const codec_type *t)
{
    return t->kind == CODEC_T_UNION && (t->flags & CODEC_TYPE_FLAT);
}

/** codec_union_which() — the `which` of the union value at `u`. */
static inline uint32_t codec_union_which(const void *u)
{
    return *(const uint32_t *)u;
}

/** codec_union_active() — the member descriptor of the active member of the
 * union value `u` of type `t`, or NULL when it is empty or `which` is out of
 * range (which encoders report as CODEC_E_INVALID_VALUE). Since 0.1. */
static inline const codec_field *codec_union_active(const codec_type *t, const void *u)
{
    uint32_t w = codec_union_which(u);
    return w && w <= t->count ? &t->fields[w - 1] : NULL;
}

/** A custom adapter for C type T; `xmap_ptr` points to a codec_xmap. */
#define CODEC_XMAP(ident, T, xmap_ptr)                                           \
    static const codec_type ident = {.kind = CODEC_T_XMAP, .name = #T,           \
                                     .size = sizeof(T), .align = alignof(T),     \
                                     .xmap = (xmap_ptr)}

/* ---------------------------------------------------------------------------
 * Checking and lookup
 * ------------------------------------------------------------------------ */

/** codec_type_check() — validates `t` and every type it reaches: field
 * offset + size inside the struct, field size equal to its type's size,
 * names present and unique, tags non-zero and unique, enum names
 * unique, element/key types present, optional layout consistent, xmap
 * functions present and its wire type small enough. Builds the field indexes
 * of the structs it reaches. Backends call it when a codec is built, so a
 * bad descriptor fails at codec_parse() rather than at the first encode.
 * @return 0, or CODEC_E_USAGE with `err` naming the path
 *         ("order.items[].quantity: ...") and the problem; CODEC_E_NOMEM.
 * Threads: safe. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_type_check(const codec_type *t, codec_error *err);

/** codec_type_field_by_name() — the field of struct (or member of union) type `t` whose name is
 * name[0..len), or NULL. Hash lookup (built once per type, thread-safe);
 * no scan of the fields. Since 0.1. */
CODEC_API const codec_field *codec_type_field_by_name(const codec_type *t, const char *name,
                                                      size_t len);

/** codec_type_field_by_tag() — the field of struct (or member of union) `t`
 * with wire number `tag`, or NULL. Same index as above. Since 0.1. */
CODEC_API const codec_field *codec_type_field_by_tag(const codec_type *t, uint32_t tag);

/** codec_type_field_index() — the position (0..count-1) of `f` in its struct;
 * backends use it to keep a "seen" bitmap. */
static inline size_t codec_type_field_index(const codec_type *t, const codec_field *f)
{
    return (size_t)(f - t->fields);
}

/** codec_enum_by_name() / codec_enum_by_number() — NULL when not a value.
 * Several names may share a number (protobuf's `allow_alias`): by number,
 * the first one declared is found, the one text encoders write. Since 0.1. */
CODEC_API const codec_enum_value *codec_enum_by_name(const codec_type *t, const char *name,
                                                     size_t len);
CODEC_API const codec_enum_value *codec_enum_by_number(const codec_type *t, int32_t number);

/* ---------------------------------------------------------------------------
 * Scalar helpers shared by backends
 * ------------------------------------------------------------------------ */

/** True for INT8..INT64 and UINT8..UINT64 respectively. */
static inline bool codec_kind_is_signed(codec_type_kind k)
{
    return k >= CODEC_T_INT8 && k <= CODEC_T_INT64;
}
static inline bool codec_kind_is_unsigned(codec_type_kind k)
{
    return k >= CODEC_T_UINT8 && k <= CODEC_T_UINT64;
}

/** Reads a signed / unsigned integer field of kind `k` at `p`. Since 0.1. */
CODEC_API int64_t codec_int_load(codec_type_kind k, const void *p);
CODEC_API uint64_t codec_uint_load(codec_type_kind k, const void *p);

/** Stores `v` into an integer of kind `k` (signed or unsigned) at `p`.
 * @return 0, or -1 when `v` does not fit that width (nothing is written):
 * backends report that as CODEC_E_INVALID_PAYLOAD, never wrap. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_int_store(codec_type_kind k, void *p, int64_t v);
CODEC_API CODEC_NODISCARD int codec_uint_store(codec_type_kind k, void *p, uint64_t v);

/** Converts between days since 1970-01-01 and a proleptic Gregorian date
 * (month 1..12, day 1..31). codec_date_from_ymd returns -1 for an invalid
 * date (e.g. Feb 30) or a year outside -9999..9999. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_date_from_ymd(int32_t year, int month, int day, codec_date *out);
CODEC_API void codec_date_to_ymd(codec_date d, int32_t *year, int *month, int *day);

/* ---------------------------------------------------------------------------
 * Schemaless values
 * ------------------------------------------------------------------------ */

typedef enum codec_value_kind {
    CODEC_V_NULL = 0,
    CODEC_V_BOOL,
    CODEC_V_INT,      /* fits int64 */
    CODEC_V_UINT,     /* above INT64_MAX (decoders use INT whenever it fits) */
    CODEC_V_DOUBLE,
    CODEC_V_STRING,
    CODEC_V_BYTES,
    CODEC_V_ARRAY,
    CODEC_V_OBJECT    /* ordered string keys -> values */
} codec_value_kind;

typedef struct codec_member codec_member;

/** A dynamic value. Decoders build it in the arena; zero is null. */
typedef struct codec_value {
    codec_value_kind kind;
    union {
        bool b;
        int64_t i;
        uint64_t u;
        double d;
        codec_string s;
        codec_bytes bytes;
        struct {
            struct codec_value *items;
            size_t count;
        } array;
        struct {
            codec_member *members;   /* in document order */
            size_t count;
        } object;
    } as;
} codec_value;

/** One key/value pair of an object. */
struct codec_member {
    codec_string key;
    codec_value value;
};

/** codec_value_type() — the descriptor of `codec_value`, for schemaless
 * codecs: codec_parse("json | zstd", codec_value_type(), &err) encodes from
 * and decodes to a codec_value. Never NULL; the same as CODEC_VALUE. Since 0.1. */
CODEC_API const codec_type *codec_value_type(void);

/** codec_value_get() — the value of the first member named key[0..len) of
 * object `v`, or NULL (also when v is not an object). Linear. Since 0.1. */
CODEC_API const codec_value *codec_value_get(const codec_value *v, const char *key, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_TYPES_H */
