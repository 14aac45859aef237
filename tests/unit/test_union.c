/* test_union.c — tagged unions (CODEC_UNION) in every backend: the
 * descriptor checks, exact bytes of each member in protobuf (a oneof),
 * JSON, CBOR, MessagePack and Fory, round trips of every union state,
 * the decode rules (protobuf: last member wins, unknown members kept as
 * unknown fields; the keyed formats: unknown or second member refused),
 * refused shapes, and truncation at every byte. The peers (python3-protobuf,
 * cbor2, msgpack) are in test_union_peers.c. */
#include "check.h"
#include "hex_checks.h"
#include "union_model.h"

/* ---------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static codec *make(const char *spec, const codec_type *t)
{
    codec_error err = {0};
    codec *c = codec_parse(spec, t, &err);
    if (!c)
        fprintf(stderr, "codec_parse(%s): %s\n", spec, err.message);
    CHECK(c != NULL);
    return c;
}

/* Encodes v and compares with the text `want` (JSON). */
static void check_text(const codec *c, const void *v, const char *want, int line)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    int rc = codec_encode(c, v, &out, &err);
    if (rc || out.len != strlen(want) || memcmp(out.data, want, out.len) != 0)
        fprintf(stderr, "line %d: got %.*s (rc %d %s), want %s\n", line, (int)out.len,
                (const char *)out.data, rc, err.message, want);
    CHECK(rc == 0 && out.len == strlen(want) && memcmp(out.data, want, out.len) == 0);
    codec_buf_free(&out);
}
#define CHECK_TEXT(c, v, want) check_text((c), (v), (want), __LINE__)

static int decode_text(const codec *c, const char *text, void *v, codec_arena *a, codec_error *err)
{
    return codec_decode(c, (const uint8_t *)text, strlen(text), v, a, err);
}

/* An input a decoder must refuse: invalid payload at `offset`, with `why`
 * in the message. */
typedef struct refusal {
    const char *input;      /* hex, or the text itself for JSON */
    size_t offset;
    const char *why;
} refusal;

static void check_refusals(const codec *c, const refusal *bad, size_t n, bool hex)
{
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err = {0};
    _Alignas(16) uint8_t v[256];
    for (size_t i = 0; i < n; i++) {
        int rc = hex ? decode_hex(c, bad[i].input, v, &a, &err)
                     : decode_text(c, bad[i].input, v, &a, &err);
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        if (err.offset != bad[i].offset || !strstr(err.message, bad[i].why))
            fprintf(stderr, "%s refusal %zu: offset %llu: %s\n", codec_spec(c), i,
                    (unsigned long long)err.offset, err.message);
        CHECK_INT(err.offset, bad[i].offset);
        CHECK(strstr(err.message, bad[i].why) != NULL);
    }
    codec_arena_free(&a);
}

/* Every union state encodes, decodes to an equal drawing and encodes to
 * the same bytes; every strict prefix of those bytes decodes or fails with
 * invalid-payload (never anything else, never a crash under ASan). */
static void check_round_trips(const codec *c)
{
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    for (int i = 0; i < UNION_SAMPLES; i++) {
        drawing d = union_sample(i), back;
        codec_buf one, two;
        codec_buf_init(&one, NULL);
        codec_buf_init(&two, NULL);
        codec_error err = {0};
        CHECK_INT(codec_encode(c, &d, &one, &err), 0);
        memset(&back, 0xA5, sizeof back);
        CHECK_INT(codec_decode(c, one.data, one.len, &back, &a, &err), 0);
        if (!drawings_equal(&d, &back))
            fprintf(stderr, "%s: sample %d differs after a round trip\n", codec_spec(c), i);
        CHECK(drawings_equal(&d, &back));
        CHECK_INT(codec_encode(c, &back, &two, &err), 0);
        CHECK_MEM(two.data, two.len, one.data, one.len);
        for (size_t n = 0; n < one.len; n++) {
            int rc = codec_decode(c, one.data, n, &back, &a, &err);
            CHECK(rc == 0 || rc == CODEC_E_INVALID_PAYLOAD);
        }
        codec_buf_free(&one);
        codec_buf_free(&two);
    }
    /* `which` past the last member is refused, not written. */
    drawing bad = union_sample(1);
    bad.shape.which = 5;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &bad, &out, &err), CODEC_E_INVALID_VALUE);
    codec_buf_free(&out);
    codec_arena_free(&a);
}

/* A union `name` of one member `v` (C type T, descriptor vt), and a struct
 * holds_<name> with one field of it: shapes some backends refuse. */
#define ONE_MEMBER_UNION(name, T, vt)                                                   \
    typedef struct name {                                                               \
        uint32_t which;                                                                 \
        union {                                                                         \
            T v;                                                                        \
        };                                                                              \
    } name;                                                                             \
    CODEC_UNION(name##_type, name, CODEC_FIELD(name, v, 1, vt));                        \
    typedef struct holds_##name {                                                       \
        name u;                                                                         \
    } holds_##name;                                                                     \
    CODEC_STRUCT(holds_##name##_type, holds_##name, CODEC_FIELD(holds_##name, u, 1, &name##_type))

/* ---------------------------------------------------------------------------
 * Descriptor checks
 * ------------------------------------------------------------------------ */

typedef struct dup_union {
    uint32_t which;
    union {
        int32_t a;
        int32_t b;
    };
} dup_union;
CODEC_UNION(dup_tag_type, dup_union, CODEC_FIELD(dup_union, a, 1, CODEC_INT32),
            CODEC_FIELD(dup_union, b, 1, CODEC_INT32));
CODEC_UNION(dup_name_type, dup_union, CODEC_FIELD_EX(dup_union, a, "x", 1, CODEC_INT32, 0),
            CODEC_FIELD_EX(dup_union, b, "x", 2, CODEC_INT32, 0));
typedef struct bad_layout {
    int32_t a;
    uint32_t which;
} bad_layout;
CODEC_UNION(overlap_type, bad_layout, CODEC_FIELD(bad_layout, a, 1, CODEC_INT32));
typedef struct opt_member {
    uint32_t which;
    union {
        CODEC_OPTIONAL_OF(int32_t) a;
    };
} opt_member;
CODEC_OPTIONAL(opt_i32_type, int32_t, CODEC_INT32);
CODEC_UNION(opt_member_type, opt_member, CODEC_FIELD(opt_member, a, 1, &opt_i32_type));
typedef struct opt_union {
    CODEC_OPTIONAL_OF(shape) s;
} opt_union;
CODEC_OPTIONAL(opt_shape_type, shape, &shape_type);
CODEC_STRUCT(opt_union_type, opt_union, CODEC_FIELD(opt_union, s, 1, &opt_shape_type));
/* Tag 0 is a valid member tag (a Fory case_id), not a protobuf number. */
typedef struct zero_union {
    uint32_t which;
    union {
        codec_string email;
        int32_t phone;
    };
} zero_union;
CODEC_UNION(contact_type, zero_union, CODEC_FIELD(zero_union, email, 0, CODEC_STRING),
            CODEC_FIELD(zero_union, phone, 1, CODEC_INT32));
typedef struct holds_contact {
    zero_union contact;
} holds_contact;
CODEC_STRUCT(holds_contact_type, holds_contact,
             CODEC_FIELD(holds_contact, contact, 1, &contact_type));

static void test_check(void)
{
    codec_error err = {0};
    CHECK_INT(codec_type_check(&drawing_type, &err), 0);
    CHECK_INT(codec_type_check(&contact_type, &err), 0);
    const codec_type *bad[] = {&dup_tag_type, &dup_name_type, &overlap_type, &opt_member_type,
                               &opt_union_type};
    const char *why[] = {"repeats tag", "duplicate field name", "overlaps", "optional",
                         "holds a union"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_INT(codec_type_check(bad[i], &err), CODEC_E_USAGE);
        if (!strstr(err.message, why[i]))
            fprintf(stderr, "check %zu: %s\n", i, err.message);
        CHECK(strstr(err.message, why[i]) != NULL);
    }
    /* Lookup by name and by tag reaches members. */
    CHECK(codec_type_field_by_name(&shape_type, "label", 5) == &shape_type.fields[2]);
    CHECK(codec_type_field_by_tag(&shape_type, 6) == &shape_type.fields[3]);
    CHECK(codec_type_field_by_tag(&contact_type, 0) == &contact_type.fields[0]);
    shape s = {.which = SHAPE_LABEL};
    CHECK(codec_union_active(&shape_type, &s) == &shape_type.fields[2]);
    s.which = 9;
    CHECK(codec_union_active(&shape_type, &s) == NULL);
    s.which = SHAPE_NONE;
    CHECK(codec_union_active(&shape_type, &s) == NULL);
}

/* ---------------------------------------------------------------------------
 * protobuf: a oneof
 * ------------------------------------------------------------------------ */

typedef struct clash {
    int32_t x;
    shape s;
} clash;
CODEC_STRUCT(clash_type, clash, CODEC_FIELD(clash, x, 4, CODEC_INT32),
             CODEC_FIELD(clash, s, 1, &shape_type));
CODEC_LIST(i32_list_type, CODEC_INT32);
ONE_MEMBER_UNION(list_member, CODEC_LIST_OF(int32_t), &i32_list_type);

/* ---------------------------------------------------------------------------
 * JSON, flat (CODEC_UNION_FLAT): the member is a key of the enclosing object
 * ------------------------------------------------------------------------ */

typedef struct clash_flat {
    codec_string label;
    shape s;
} clash_flat;
CODEC_STRUCT(clash_flat_type, clash_flat, CODEC_FIELD(clash_flat, label, 1, CODEC_STRING),
             CODEC_FIELD(clash_flat, s, 2, &shape_flat_type));

static void test_json_flat(void)
{
    codec *c = make("json", &flat_drawing_type);
    const char *want[UNION_SAMPLES] = {
        "{\"name\":\"d\",\"layer\":7}",
        "{\"name\":\"d\",\"circle\":0.0,\"layer\":7}",
        "{\"name\":\"d\",\"rectangle\":{\"w\":1.5,\"h\":-2.0},\"layer\":7}",
        "{\"name\":\"d\",\"label\":\"\",\"layer\":7}",
        "{\"name\":\"d\",\"label\":\"h\xc3\xa9\",\"layer\":7}",
        "{\"name\":\"d\",\"code\":-9223372036854775808,\"layer\":7}",
    };
    for (int i = 0; i < UNION_SAMPLES; i++) {
        drawing d = union_sample(i);
        CHECK_TEXT(c, &d, want[i]);
    }
    check_round_trips(c);
    codec *pretty = make("json:pretty", &flat_drawing_type);
    check_round_trips(pretty);
    codec_free(pretty);

    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err = {0};
    drawing d;
    /* A member anywhere among the keys; null is "not set"; the nested form too. */
    CHECK_INT(decode_text(c, "{\"layer\":1,\"code\":5,\"name\":\"x\"}", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_CODE && d.shape.code == 5 && d.layer == 1);
    CHECK_INT(decode_text(c, "{\"circle\":null,\"label\":\"x\"}", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_LABEL && union_str_eq(d.shape.label, "x"));
    CHECK_INT(decode_text(c, "{\"shape\":{\"circle\":2}}", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_CIRCLE && d.shape.circle == 2);
    const refusal bad[] = {
        {"{\"circle\":1,\"label\":\"x\"}", 12, "a second member 'label' of union 'shape'"},
        {"{\"shape\":{\"circle\":2},\"label\":\"x\"}", 22, "a second member 'label'"},
        {"{\"label\":\"x\",\"shape\":{\"circle\":2}}", 13, "duplicate key 'shape'"},
        {"{\"circle\":\"x\"}", 10, "expected a number"},
    };
    check_refusals(c, bad, sizeof bad / sizeof bad[0], false);
    codec_free(c);
    /* The flag is JSON's: the binary formats write the union as usual. */
    codec *plain = make("cbor", &drawing_type), *flat = make("cbor", &flat_drawing_type);
    drawing s = union_sample(4);
    codec_buf x, y;
    codec_buf_init(&x, NULL);
    codec_buf_init(&y, NULL);
    CHECK_INT(codec_encode(plain, &s, &x, &err), 0);
    CHECK_INT(codec_encode(flat, &s, &y, &err), 0);
    CHECK_MEM(x.data, x.len, y.data, y.len);
    codec_buf_free(&x);
    codec_buf_free(&y);
    codec_free(plain);
    codec_free(flat);
    /* Member names share the struct's keys. */
    CHECK_INT(codec_type_check(&clash_flat_type, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "flat union member 'label' repeats a name") != NULL);
    codec_arena_free(&a);
}

/* A union field that must hold a member. */
typedef struct needs_shape {
    shape s;
} needs_shape;
CODEC_STRUCT(needs_shape_type, needs_shape,
             CODEC_FIELD_EX(needs_shape, s, "s", 1, &shape_type, CODEC_FIELD_REQUIRED));

static void test_required(void)
{
    const char *specs[] = {"protobuf", "json"};
    const char *none[] = {"", "{}"}, *some[] = {"2a0178", "{\"s\":{\"label\":\"x\"}}"};
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    for (int i = 0; i < 2; i++) {
        codec *c = make(specs[i], &needs_shape_type);
        codec_error err = {0};
        needs_shape v;
        int rc = i ? decode_text(c, none[i], &v, &a, &err) : decode_hex(c, none[i], &v, &a, &err);
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        CHECK(strstr(err.message, "missing") != NULL);
        rc = i ? decode_text(c, some[i], &v, &a, &err) : decode_hex(c, some[i], &v, &a, &err);
        CHECK_INT(rc, 0);
        CHECK(v.s.which == SHAPE_LABEL && union_str_eq(v.s.label, "x"));
        codec_free(c);
    }
    codec_arena_free(&a);
}

static void test_protobuf(void)
{
    codec *c = make("protobuf", &drawing_type);
    /* name, then the active member as field 3..6 (written even when it
     * holds its default: a oneof has presence), then layer. */
    drawing d = union_sample(0);
    CHECK_HEX(c, &d, "0a0164" "3807");
    d = union_sample(1);
    CHECK_HEX(c, &d, "0a0164" "190000000000000000" "3807");
    d = union_sample(2);
    CHECK_HEX(c, &d, "0a0164" "2212" "09000000000000f83f" "1100000000000000c0" "3807");
    d = union_sample(3);
    CHECK_HEX(c, &d, "0a0164" "2a00" "3807");
    d = union_sample(4);
    CHECK_HEX(c, &d, "0a0164" "2a0368c3a9" "3807");
    d = union_sample(5);
    CHECK_HEX(c, &d, "0a0164" "30ffffffffffffffffff01" "3807");
    check_round_trips(c);

    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err = {0};
    /* Two members: the last one wins... */
    CHECK_INT(decode_hex(c, "190000000000000840" "2a0178", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_LABEL && union_str_eq(d.shape.label, "x"));
    CHECK_INT(decode_hex(c, "2a0178" "190000000000000840", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_CIRCLE && d.shape.circle == 3.0);
    /* ...the same message member twice merges, and a member replaced by
     * another starts from zero when it comes back. */
    CHECK_INT(decode_hex(c, "2209" "09000000000000f03f" "2209" "110000000000000040", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_RECTANGLE && d.shape.rectangle.w == 1 && d.shape.rectangle.h == 2);
    CHECK_INT(decode_hex(c, "2209" "09000000000000f03f" "3001" "2209" "110000000000000040", &d,
                         &a, &err), 0);
    CHECK(d.shape.which == SHAPE_RECTANGLE && d.shape.rectangle.w == 0 && d.shape.rectangle.h == 2);
    /* A member with the wrong wire type is refused at its record. */
    CHECK_INT(decode_hex(c, "0a0164" "1d00000000", &d, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 3);
    codec_free(c);

    /* A member the reader does not know is an unknown field: kept (and
     * written back), skipped or refused as the `unknown` option says. */
    c = make("protobuf", &drawing_v1_type);
    drawing_v1 v1;
    CHECK_INT(decode_hex(c, "0a0164" "3001" "3807", &v1, &a, &err), 0);
    CHECK(v1.shape.which == 0 && v1.layer == 7);
    CHECK_MEM(v1.unknown.data, v1.unknown.len, "\x30\x01", 2);
    CHECK_HEX(c, &v1, "0a0164" "3807" "3001");
    /* Known member then unknown member: the known one stays set (the
     * reader cannot tell they belong to one oneof); the writer keeps both. */
    CHECK_INT(decode_hex(c, "2a0178" "3001", &v1, &a, &err), 0);
    CHECK(v1.shape.which == 3 && union_str_eq(v1.shape.label, "x") && v1.unknown.len == 2);
    codec_free(c);
    c = make("protobuf:unknown=reject", &drawing_v1_type);
    CHECK_INT(decode_hex(c, "0a0164" "3001", &v1, &a, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 3);
    codec_free(c);

    /* Shapes protobuf cannot express fail when the codec is built. */
    const codec_type *bad[] = {&scene_type, &shape_type, &clash_type, &holds_contact_type,
                               &holds_list_member_type};
    const char *why[] = {"must be a struct field", "must be a struct", "used twice",
                         "field numbers are", "cannot be a list"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(codec_parse("protobuf", bad[i], &err) == NULL);
        CHECK_INT(err.family, CODEC_E_USAGE);
        if (!strstr(err.message, why[i]))
            fprintf(stderr, "protobuf refusal %zu: %s\n", i, err.message);
        CHECK(strstr(err.message, why[i]) != NULL);
    }
    codec_arena_free(&a);
}

/* ---------------------------------------------------------------------------
 * JSON: {"member": value}
 * ------------------------------------------------------------------------ */

static void test_json(void)
{
    codec *c = make("json", &drawing_type);
    const char *want[UNION_SAMPLES] = {
        "{\"name\":\"d\",\"layer\":7}",
        "{\"name\":\"d\",\"shape\":{\"circle\":0.0},\"layer\":7}",
        "{\"name\":\"d\",\"shape\":{\"rectangle\":{\"w\":1.5,\"h\":-2.0}},\"layer\":7}",
        "{\"name\":\"d\",\"shape\":{\"label\":\"\"},\"layer\":7}",
        "{\"name\":\"d\",\"shape\":{\"label\":\"h\xc3\xa9\"},\"layer\":7}",
        "{\"name\":\"d\",\"shape\":{\"code\":-9223372036854775808},\"layer\":7}",
    };
    for (int i = 0; i < UNION_SAMPLES; i++) {
        drawing d = union_sample(i);
        CHECK_TEXT(c, &d, want[i]);
    }
    check_round_trips(c);
    codec *pretty = make("json:pretty", &drawing_type);
    check_round_trips(pretty);
    codec_free(pretty);

    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err = {0};
    drawing d;
    /* null is the empty union; white space and member order are free. */
    CHECK_INT(decode_text(c, "{\"shape\":null,\"name\":\"x\"}", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_NONE && union_str_eq(d.name, "x"));
    CHECK_INT(decode_text(c, "{ \"layer\": 1, \"shape\" : { \"code\" : 5 } }", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_CODE && d.shape.code == 5 && d.layer == 1);
    /* Refused, with the offset of the offending key or token. */
    const refusal bad[] = {
        {"{\"shape\":{\"square\":1}}", 10, "unknown union member 'square'"},
        {"{\"shape\":{\"circle\":1,\"label\":\"x\"}}", 21, "second member 'label'"},
        {"{\"shape\":{}}", 10, "has none"},
        {"{\"shape\":1.5}", 9, "expected an object of one member"},
        {"{\"shape\":{\"circle\":\"1\"}}", 19, "expected a number"},
    };
    check_refusals(c, bad, sizeof bad / sizeof bad[0], false);
    /* require-all does not require an empty union's field. */
    codec *all = make("json:require=all", &drawing_type);
    CHECK_INT(decode_text(all, "{\"name\":\"x\",\"layer\":1}", &d, &a, &err), 0);
    codec_free(all);
    codec_free(c);

    /* A list of unions: empty ones are null. */
    c = make("json", &scene_type);
    shape items[3] = {{.which = SHAPE_LABEL, .label = CODEC_STR("a")}, {0},
                      {.which = SHAPE_CIRCLE, .circle = 2.5}};
    scene sc = {.shapes = {items, 3}}, back;
    CHECK_TEXT(c, &sc, "{\"shapes\":[{\"label\":\"a\"},null,{\"circle\":2.5}]}");
    CHECK_INT(decode_text(c, "{\"shapes\":[{\"label\":\"a\"},null,{\"circle\":2.5}]}", &back, &a,
                          &err), 0);
    CHECK(back.shapes.count == 3 && shapes_equal(&back.shapes.items[0], &items[0]) &&
          shapes_equal(&back.shapes.items[1], &items[1]) &&
          shapes_equal(&back.shapes.items[2], &items[2]));
    codec_free(c);
    codec_arena_free(&a);
}

/* ---------------------------------------------------------------------------
 * CBOR and MessagePack: a map of one entry, the member's key -> its value
 * ------------------------------------------------------------------------ */

static void check_scene(const codec *c)
{
    shape items[3] = {{.which = SHAPE_LABEL, .label = CODEC_STR("a")}, {0},
                      {.which = SHAPE_RECTANGLE, .rectangle = {2.5, 0}}};
    scene sc = {.shapes = {items, 3}}, back;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &sc, &out, &err), 0);
    CHECK_INT(codec_decode(c, out.data, out.len, &back, &a, &err), 0);
    CHECK(back.shapes.count == 3);
    for (size_t i = 0; i < 3 && i < back.shapes.count; i++)
        CHECK(shapes_equal(&back.shapes.items[i], &items[i]));
    codec_buf_free(&out);
    codec_arena_free(&a);
}

static void check_keyed(const char *spec, const char *none_hex, const char *label_hex,
                        const refusal *bad, size_t nbad)
{
    codec *c = make(spec, &drawing_type);
    drawing d = union_sample(0);
    CHECK_HEX(c, &d, none_hex);
    d = union_sample(4);
    CHECK_HEX(c, &d, label_hex);
    check_round_trips(c);
    check_refusals(c, bad, nbad, true);
    codec_free(c);
    c = make(spec, &scene_type);
    check_scene(c);
    codec_free(c);
}

static void test_cbor(void)
{
    /* {"name": "d", "layer": 7} and {"name": "d", "shape": {"label": "hé"},
     * "layer": 7}; with keys=tags {1: "d", 2: {5: "hé"}, 7: 7}. */
    const refusal bad[] = {
        {"a1" "657368617065" "a1" "66737175617265" "01", 8, "unknown union member"},
        {"a1" "657368617065" "a2" "66636972636c65" "f93c00" "656c6162656c" "6178", 18,
         "a second member"},
        {"a1" "657368617065" "a0", 7, "needs one member"},
        {"a1" "657368617065" "01", 7, "expected a map"},
        /* Indefinite-length maps follow the same rules. */
        {"a1" "657368617065" "bf" "66636972636c65" "f93c00" "656c6162656c" "6178" "ff", 18,
         "a second member"},
    };
    check_keyed("cbor", "a2" "646e616d65" "6164" "656c61796572" "07",
                "a3" "646e616d65" "6164" "657368617065" "a1" "656c6162656c" "6368c3a9"
                "656c61796572" "07",
                bad, sizeof bad / sizeof bad[0]);
    const refusal bad_tags[] = {{"a1" "02" "a1" "09" "01", 3, "unknown union member"}};
    check_keyed("cbor:keys=tags", "a2" "01" "6164" "07" "07",
                "a3" "01" "6164" "02" "a1" "05" "6368c3a9" "07" "07", bad_tags, 1);
    /* An indefinite map with one member is accepted. */
    codec *c = make("cbor", &drawing_type);
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    codec_error err = {0};
    drawing d;
    CHECK_INT(decode_hex(c, "a1" "657368617065" "bf" "6464636f6465" "20" "ff", &d, &a, &err),
              CODEC_E_INVALID_PAYLOAD);   /* "dcode" is not a member */
    CHECK_INT(decode_hex(c, "a1" "657368617065" "bf" "64636f6465" "20" "ff", &d, &a, &err), 0);
    CHECK(d.shape.which == SHAPE_CODE && d.shape.code == -1);
    codec_free(c);
    c = make("cbor:deterministic", &drawing_type);
    check_round_trips(c);
    codec_free(c);
    codec_arena_free(&a);
}

static void test_msgpack(void)
{
    const refusal bad[] = {
        {"81" "a57368617065" "81" "a6737175617265" "01", 8, "unknown union member"},
        {"81" "a57368617065" "82" "a6636972636c65" "00" "a56c6162656c" "a178", 7,
         "holds one member, not 2"},
        {"81" "a57368617065" "80", 7, "holds one member, not 0"},
        {"81" "a57368617065" "01", 7, "expected a map of one member"},
    };
    const char *none = "82" "a46e616d65" "a164" "a56c61796572" "07";
    const char *label = "83" "a46e616d65" "a164" "a57368617065" "81" "a56c6162656c" "a368c3a9"
                        "a56c61796572" "07";
    check_keyed("msgpack", none, label, bad, sizeof bad / sizeof bad[0]);
    /* structs=array: element tag-1 is the field with that tag; the union
     * is still a map of one entry, an empty one nil. */
    check_keyed("msgpack:structs=array", "97" "a164" "c0" "c0c0c0c0" "07",
                "97" "a164" "81" "a56c6162656c" "a368c3a9" "c0c0c0c0" "07", bad + 3, 0);
}

/* ---------------------------------------------------------------------------
 * Fory: the xlang UNION (type id 33)
 * ------------------------------------------------------------------------ */

/* The spec's example union Contact { string email = 0; int32 phone = 1; }
 * as a field of a struct. */
typedef struct card {
    codec_string name;
    zero_union contact;
} card;
CODEC_STRUCT(card_type, card, CODEC_FIELD(card, name, 1, CODEC_STRING),
             CODEC_FIELD(card, contact, 2, &contact_type));
/* An older reader of the same struct (user id 100 too), without `contact`. */
typedef struct card_v0 {
    codec_string name;
} card_v0;
CODEC_STRUCT(card_v0_type, card_v0, CODEC_FIELD(card_v0, name, 1, CODEC_STRING));

CODEC_ENUM(tone_type, {"LOW", 0}, {"HIGH", 1});
ONE_MEMBER_UNION(enum_case, int32_t, &tone_type);

static void test_fory(void)
{
    /* Made by hand from the spec text (docs/formats/fory.md): xlang header
     * 01, root flag ff, STRUCT (0x1b) and user id 100 (0x64); the fields in
     * Fory order (non-primitives by snake_case name: contact, then name);
     * the union field's null flag (ff, or fd when empty), case_id as
     * varuint32, then the case value "Any-style": ref flag ff, its type id
     * (VARINT32 05, STRING 0x15) and its bytes (zigzag 21 = 0x2a; a string
     * is varuint (len << 2 | 2) and UTF-8); then name "Ann" (0e 41 6e 6e). */
    codec *c = make("fory", &card_type);
    card k = {.name = CODEC_STR("Ann"), .contact = {.which = 2, .phone = 21}};
    CHECK_HEX(c, &k, "01ff1b64" "ff" "01" "ff052a" "0e416e6e");
    k.contact = (zero_union){.which = 1, .email = CODEC_STR("a@b.c")};
    CHECK_HEX(c, &k, "01ff1b64" "ff" "00" "ff15" "166140622e63" "0e416e6e");
    k.contact.which = 0;
    CHECK_HEX(c, &k, "01ff1b64" "fd" "0e416e6e");
    k.contact.which = 3;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, &k, &out, &err), CODEC_E_INVALID_VALUE);
    codec_buf_free(&out);

    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    card back;
    CHECK_INT(decode_hex(c, "01ff1b64" "ff" "01" "ff052a" "0e416e6e", &back, &a, &err), 0);
    CHECK(back.contact.which == 2 && back.contact.phone == 21 && union_str_eq(back.name, "Ann"));
    CHECK_INT(decode_hex(c, "01ff1b64" "ff" "00" "ff15" "166140622e63" "0e416e6e", &back, &a,
                         &err), 0);
    CHECK(back.contact.which == 1 && union_str_eq(back.contact.email, "a@b.c"));
    CHECK_INT(decode_hex(c, "01ff1b64" "fd" "0e416e6e", &back, &a, &err), 0);
    CHECK(back.contact.which == 0 && union_str_eq(back.name, "Ann"));
    /* An unknown case_id, a null case value, a case value of another type. */
    const refusal bad[] = {
        {"01ff1b64" "ff" "07" "ff052a" "0e416e6e", 5, "unknown union case_id 7"},
        {"01ff1b64" "ff" "01" "fd" "0e416e6e", 7, "case value is null"},
        {"01ff1b64" "ff" "01" "ff15" "0e416e6e", 7, "type id 21 is not the 5 expected"},
        {"01ff1b64" "ff" "01" "fe052a" "0e416e6e", 7, "unexpected reference flag"},
        {"01ff1b64" "ff" "01", 6, "input ends early"},
    };
    check_refusals(c, bad, sizeof bad / sizeof bad[0], true);
    codec_free(c);

    /* Every state of the model, with a struct member (its case value
     * carries STRUCT + user id, or a TypeDef when compatible). */
    const char *specs[] = {"fory", "fory:compatible", "fory:hash=on", "fory:compatible,ref=on"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        c = make(specs[i], &drawing_type);
        check_round_trips(c);
        codec_free(c);
    }

    /* Compatible mode: a reader without the union field skips it (its case
     * value is typed, so it can). */
    c = make("fory:compatible", &card_type);
    codec *old = make("fory:compatible", &card_v0_type);
    const zero_union states[] = {{0}, {.which = 1, .email = CODEC_STR("x@y")}, {.which = 2, .phone = -5}};
    for (size_t i = 0; i < 3; i++) {
        card full = {.name = CODEC_STR("Bo"), .contact = states[i]};
        codec_buf_init(&out, NULL);
        CHECK_INT(codec_encode(c, &full, &out, &err), 0);
        card_v0 v0;
        CHECK_INT(codec_decode(old, out.data, out.len, &v0, &a, &err), 0);
        CHECK(union_str_eq(v0.name, "Bo"));
        CHECK_INT(codec_decode(c, out.data, out.len, &back, &a, &err), 0);
        CHECK(back.contact.which == states[i].which && union_str_eq(back.name, "Bo"));
        codec_buf_free(&out);
    }
    codec_free(c);
    codec_free(old);

    /* A union outside a struct field would need TYPED_UNION type meta, an
     * enum case the enum's registered id. */
    const codec_type *refused[] = {&shape_type, &scene_type, &holds_enum_case_type};
    const char *why[] = {"must be a struct field", "must be a struct field", "cannot be an enum"};
    for (size_t i = 0; i < 3; i++) {
        CHECK(codec_parse("fory", refused[i], &err) == NULL);
        CHECK_INT(err.family, CODEC_E_USAGE);
        CHECK(strstr(err.message, why[i]) != NULL);
    }
    codec_arena_free(&a);
}

int main(void)
{
    test_check();
    test_protobuf();
    test_json();
    test_json_flat();
    test_required();
    test_cbor();
    test_msgpack();
    test_fory();
    return check_done("test_union");
}
