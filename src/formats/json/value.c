/* value.c — schemaless JSON: codec_value trees to text and back. */
#include "formats/json/json_internal.h"

#include <string.h>

/* Turns a writer status into a filled error that says what was wrong:
 * `what` for an invalid value (the writer's one other failure is memory). */
static int writer_status(int rc, const char *what, codec_error *err)
{
    if (rc == CODEC_E_NOMEM)
        return JSON_NOMEM(err);
    if (rc)
        return codec_error_set(err, rc, 0, "json", CODEC_NO_OFFSET, "%s", what);
    return CODEC_OK;
}

#define TOO_DEEP "containers nested too deep"

static int write_members(codec_json_writer *w, const codec_value *v, codec_error *err)
{
    int rc = writer_status(codec_json_write_object_start(w), TOO_DEEP, err);
    for (size_t i = 0; i < v->as.object.count && !rc; i++) {
        const codec_member *m = &v->as.object.members[i];
        rc = writer_status(codec_json_write_key(w, m->key.ptr ? m->key.ptr : "", m->key.len),
                           "object key is not valid UTF-8", err);
        if (!rc)
            rc = codec__json_write_value(w, &m->value, err);
    }
    return rc ? rc : writer_status(codec_json_write_object_end(w), TOO_DEEP, err);
}

int codec__json_write_value(codec_json_writer *w, const codec_value *v, codec_error *err)
{
    switch (v->kind) {
    case CODEC_V_NULL: return writer_status(codec_json_write_null(w), "", err);
    case CODEC_V_BOOL: return writer_status(codec_json_write_bool(w, v->as.b), "", err);
    case CODEC_V_INT: return writer_status(codec_json_write_int64(w, v->as.i), "", err);
    case CODEC_V_UINT: return writer_status(codec_json_write_uint64(w, v->as.u), "", err);
    case CODEC_V_DOUBLE:
        return writer_status(codec_json_write_double(w, v->as.d), "NaN or infinity", err);
    case CODEC_V_STRING:
        return writer_status(
            codec_json_write_string(w, v->as.s.ptr ? v->as.s.ptr : "", v->as.s.len),
            "string is not valid UTF-8", err);
    case CODEC_V_BYTES: return writer_status(codec__json_write_base64(w, &v->as.bytes), "", err);
    case CODEC_V_ARRAY: {
        int rc = writer_status(codec_json_write_array_start(w), TOO_DEEP, err);
        for (size_t i = 0; i < v->as.array.count && !rc; i++)
            rc = codec__json_write_value(w, &v->as.array.items[i], err);
        return rc ? rc : writer_status(codec_json_write_array_end(w), TOO_DEEP, err);
    }
    case CODEC_V_OBJECT:
        return write_members(w, v, err);
    default:
        return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "json", CODEC_NO_OFFSET,
                               "value of unknown kind %d", (int)v->kind);
    }
}

static int read_number(codec_json_reader *r, codec_value *out, codec_error *err)
{
    if (!codec_json_reader_int64(r, &out->as.i)) {
        out->kind = CODEC_V_INT;
    } else if (!codec_json_reader_uint64(r, &out->as.u)) {
        out->kind = CODEC_V_UINT;
    } else if (!codec_json_reader_double(r, &out->as.d)) {
        out->kind = CODEC_V_DOUBLE;
    } else {
        return JSON_FAIL(err, CODEC_D_CORRUPT, r->token_offset, "number out of range");
    }
    return CODEC_OK;
}

static int read_array(codec_json_reader *r, codec_value *out, const codec_json_options *o,
                      codec_error *err)
{
    codec_value *items = NULL;
    size_t count = 0, cap = 0;
    codec_json_token tok;
    int rc;
    while (!(rc = codec_json_next(r, &tok, err)) && tok != CODEC_JSON_ARRAY_END) {
        if (count == o->max_elements)
            return JSON_FAIL(err, CODEC_D_LIMIT, r->token_offset, "more items than max-elements");
        if (!(items = codec__array_grow(r->arena, items, count, &cap, sizeof *items)))
            return JSON_NOMEM(err);
        if ((rc = codec__json_read_value(r, tok, &items[count], o, err)))
            return rc;
        count++;
    }
    out->kind = CODEC_V_ARRAY;
    out->as.array.items = items;
    out->as.array.count = count;
    return rc;
}

static int read_object(codec_json_reader *r, codec_value *out, const codec_json_options *o,
                       codec_error *err)
{
    codec_member *members = NULL;
    size_t count = 0, cap = 0, start = r->token_offset;
    codec_json_token tok;
    int rc;
    codec_string k;
    size_t key_at;
    while (!(rc = codec__json_next_member(r, &k, &key_at, &tok, err)) &&
           tok != CODEC_JSON_OBJECT_END) {
        if (count == o->max_elements)
            return JSON_FAIL(err, CODEC_D_LIMIT, key_at, "more members than max-elements");
        if (!(members = codec__array_grow(r->arena, members, count, &cap, sizeof *members)))
            return JSON_NOMEM(err);
        codec_member *m = &members[count];
        m->key = codec__json_keep_text(r, r->arena, k);
        if (m->key.len == SIZE_MAX)
            return JSON_NOMEM(err);
        if ((rc = codec__json_read_value(r, tok, &m->value, o, err)))
            return rc;
        count++;
    }
    if (rc)
        return rc;
    if (!o->allow_duplicates && (rc = codec__check_unique_members(members, count, r->arena, "json",
                                                                  start, "an object", err)))
        return rc;
    out->kind = CODEC_V_OBJECT;
    out->as.object.members = members;
    out->as.object.count = count;
    return CODEC_OK;
}

int codec__json_read_value(codec_json_reader *r, codec_json_token tok, codec_value *out,
                           const codec_json_options *o, codec_error *err)
{
    memset(out, 0, sizeof *out);
    switch (tok) {
    case CODEC_JSON_NULL: return CODEC_OK;
    case CODEC_JSON_TRUE:
    case CODEC_JSON_FALSE:
        out->kind = CODEC_V_BOOL;
        out->as.b = tok == CODEC_JSON_TRUE;
        return CODEC_OK;
    case CODEC_JSON_NUMBER: return read_number(r, out, err);
    case CODEC_JSON_STRING:
        out->kind = CODEC_V_STRING;
        out->as.s = codec__json_keep_text(r, r->arena, r->text);
        return out->as.s.len == SIZE_MAX ? JSON_NOMEM(err) : CODEC_OK;
    case CODEC_JSON_ARRAY_START: return read_array(r, out, o, err);
    case CODEC_JSON_OBJECT_START: return read_object(r, out, o, err);
    default:
        return JSON_FAIL(err, CODEC_D_CORRUPT, r->token_offset, "expected a value");
    }
}
