/* union_model.h — the tagged-union model the union tests share: a Drawing
 * whose `shape` is a union (protobuf: oneof shape { double circle = 3;
 * Rect rectangle = 4; string label = 5; sint64 code = 6; }, see
 * tests/data/protobuf/union.proto), an older Drawing whose union lacks
 * `code` and which keeps unknown fields, and a Scene with a list of shapes
 * (for the formats that carry a union outside a struct field). */
#ifndef CODEC_TEST_UNION_MODEL_H
#define CODEC_TEST_UNION_MODEL_H

#include "codec/codec.h"

typedef struct rect {
    double w, h;
} rect;
CODEC_STRUCT(rect_type, rect, CODEC_FIELD(rect, w, 1, CODEC_DOUBLE),
             CODEC_FIELD(rect, h, 2, CODEC_DOUBLE));

typedef struct shape {
    uint32_t which;
    union {
        double circle;
        rect rectangle;
        codec_string label;
        int64_t code;
    };
} shape;
enum { SHAPE_NONE = CODEC_UNION_NONE, SHAPE_CIRCLE, SHAPE_RECTANGLE, SHAPE_LABEL, SHAPE_CODE };
CODEC_UNION(shape_type, shape,
            CODEC_FIELD(shape, circle, 3, CODEC_DOUBLE),
            CODEC_FIELD(shape, rectangle, 4, &rect_type),
            CODEC_FIELD(shape, label, 5, CODEC_STRING),
            CODEC_FIELD_EX(shape, code, "code", 6, CODEC_INT64, CODEC_FIELD_ZIGZAG));

typedef struct drawing {
    codec_string name;
    shape shape;
    int32_t layer;
} drawing;
CODEC_STRUCT(drawing_type, drawing,
             CODEC_FIELD(drawing, name, 1, CODEC_STRING),
             CODEC_FIELD(drawing, shape, 2, &shape_type),
             CODEC_FIELD(drawing, layer, 7, CODEC_INT32));

/* The same C types with the union written flat in JSON (proto3's JSON
 * form of a oneof): {"name": "d", "circle": 2.5, "layer": 7}. */
CODEC_UNION_FLAT(shape_flat_type, shape,
                 CODEC_FIELD(shape, circle, 3, CODEC_DOUBLE),
                 CODEC_FIELD(shape, rectangle, 4, &rect_type),
                 CODEC_FIELD(shape, label, 5, CODEC_STRING),
                 CODEC_FIELD_EX(shape, code, "code", 6, CODEC_INT64, CODEC_FIELD_ZIGZAG));
CODEC_STRUCT(flat_drawing_type, drawing,
             CODEC_FIELD(drawing, name, 1, CODEC_STRING),
             CODEC_FIELD(drawing, shape, 2, &shape_flat_type),
             CODEC_FIELD(drawing, layer, 7, CODEC_INT32));

/* The same message as a reader built before `code` existed. */
typedef struct shape_v1 {
    uint32_t which;
    union {
        double circle;
        rect rectangle;
        codec_string label;
    };
} shape_v1;
CODEC_UNION(shape_v1_type, shape_v1,
            CODEC_FIELD(shape_v1, circle, 3, CODEC_DOUBLE),
            CODEC_FIELD(shape_v1, rectangle, 4, &rect_type),
            CODEC_FIELD(shape_v1, label, 5, CODEC_STRING));
typedef struct drawing_v1 {
    codec_string name;
    shape_v1 shape;
    int32_t layer;
    codec_bytes unknown;
} drawing_v1;
CODEC_STRUCT(drawing_v1_type, drawing_v1,
             CODEC_FIELD(drawing_v1, name, 1, CODEC_STRING),
             CODEC_FIELD(drawing_v1, shape, 2, &shape_v1_type),
             CODEC_FIELD(drawing_v1, layer, 7, CODEC_INT32),
             CODEC_FIELD_EX(drawing_v1, unknown, "unknown", 99, CODEC_BYTES,
                            CODEC_FIELD_UNKNOWN_BYTES));

/* Unions outside struct fields: a list of them (not protobuf). */
typedef struct scene {
    CODEC_LIST_OF(shape) shapes;
} scene;
CODEC_LIST(shapes_type, &shape_type);
CODEC_STRUCT(scene_type, scene, CODEC_FIELD(scene, shapes, 1, &shapes_type));

static inline bool union_str_eq(codec_string a, const char *b)
{
    return a.len == strlen(b) && (a.len == 0 || memcmp(a.ptr, b, a.len) == 0);
}

/* Equal when the same member is active with an equal value. */
static inline bool shapes_equal(const shape *a, const shape *b)
{
    if (a->which != b->which)
        return false;
    switch (a->which) {
    case SHAPE_CIRCLE: return a->circle == b->circle;
    case SHAPE_RECTANGLE: return a->rectangle.w == b->rectangle.w && a->rectangle.h == b->rectangle.h;
    case SHAPE_LABEL:
        return a->label.len == b->label.len &&
               (!a->label.len || memcmp(a->label.ptr, b->label.ptr, a->label.len) == 0);
    case SHAPE_CODE: return a->code == b->code;
    default: return true;
    }
}

static inline bool drawings_equal(const drawing *a, const drawing *b)
{
    return a->name.len == b->name.len &&
           (!a->name.len || memcmp(a->name.ptr, b->name.ptr, a->name.len) == 0) &&
           shapes_equal(&a->shape, &b->shape) && a->layer == b->layer;
}

/* One drawing per state of the union: none, and each member (circle 0.0
 * and an empty label: a set member with a default value). */
#define UNION_SAMPLES 6
static inline drawing union_sample(int i)
{
    drawing d = {.name = CODEC_STR("d"), .layer = 7};
    switch (i) {
    case 0: break;
    case 1: d.shape.which = SHAPE_CIRCLE, d.shape.circle = 0.0; break;
    case 2: d.shape.which = SHAPE_RECTANGLE, d.shape.rectangle = (rect){1.5, -2}; break;
    case 3: d.shape.which = SHAPE_LABEL, d.shape.label = CODEC_STR(""); break;
    case 4: d.shape.which = SHAPE_LABEL, d.shape.label = CODEC_STR("h\xc3\xa9"); break;
    default: d.shape.which = SHAPE_CODE, d.shape.code = INT64_MIN; break;
    }
    return d;
}

#endif
