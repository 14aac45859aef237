/* type.c — the built-in descriptors, scalar helpers and calendar arithmetic. */
#include "codec/types.h"

#include <string.h>

#define LEAF(ident, k, T, label) \
    const codec_type ident = {.kind = (k), .name = (label), .size = sizeof(T), .align = alignof(T)}

LEAF(codec_type_bool, CODEC_T_BOOL, bool, "bool");
LEAF(codec_type_int8, CODEC_T_INT8, int8_t, "int8");
LEAF(codec_type_int16, CODEC_T_INT16, int16_t, "int16");
LEAF(codec_type_int32, CODEC_T_INT32, int32_t, "int32");
LEAF(codec_type_int64, CODEC_T_INT64, int64_t, "int64");
LEAF(codec_type_uint8, CODEC_T_UINT8, uint8_t, "uint8");
LEAF(codec_type_uint16, CODEC_T_UINT16, uint16_t, "uint16");
LEAF(codec_type_uint32, CODEC_T_UINT32, uint32_t, "uint32");
LEAF(codec_type_uint64, CODEC_T_UINT64, uint64_t, "uint64");
LEAF(codec_type_float, CODEC_T_FLOAT, float, "float");
LEAF(codec_type_double, CODEC_T_DOUBLE, double, "double");
LEAF(codec_type_string, CODEC_T_STRING, codec_string, "string");
LEAF(codec_type_bytes, CODEC_T_BYTES, codec_bytes, "bytes");
LEAF(codec_type_uuid, CODEC_T_UUID, codec_uuid, "uuid");
LEAF(codec_type_date, CODEC_T_DATE, codec_date, "date");
LEAF(codec_type_timestamp, CODEC_T_TIMESTAMP, codec_timestamp, "timestamp");
LEAF(codec_type_decimal, CODEC_T_DECIMAL, codec_string, "decimal");

LEAF(codec_type_value, CODEC_T_VALUE, codec_value, "value");

const codec_type *codec_value_type(void)
{
    return &codec_type_value;
}

const codec_value *codec_value_get(const codec_value *v, const char *key, size_t len)
{
    if (!v || v->kind != CODEC_V_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->as.object.count; i++) {
        const codec_member *m = &v->as.object.members[i];
        if (m->key.len == len && (len == 0 || memcmp(m->key.ptr, key, len) == 0))
            return &m->value;
    }
    return NULL;
}

int64_t codec_int_load(codec_type_kind k, const void *p)
{
    switch (k) {
    case CODEC_T_INT8: return *(const int8_t *)p;
    case CODEC_T_INT16: return *(const int16_t *)p;
    case CODEC_T_INT32: return *(const int32_t *)p;
    default: return *(const int64_t *)p;
    }
}

uint64_t codec_uint_load(codec_type_kind k, const void *p)
{
    switch (k) {
    case CODEC_T_UINT8: return *(const uint8_t *)p;
    case CODEC_T_UINT16: return *(const uint16_t *)p;
    case CODEC_T_UINT32: return *(const uint32_t *)p;
    default: return *(const uint64_t *)p;
    }
}

int codec_int_store(codec_type_kind k, void *p, int64_t v)
{
    switch (k) {
    case CODEC_T_INT8:
        if (v < INT8_MIN || v > INT8_MAX) return -1;
        *(int8_t *)p = (int8_t)v;
        return 0;
    case CODEC_T_INT16:
        if (v < INT16_MIN || v > INT16_MAX) return -1;
        *(int16_t *)p = (int16_t)v;
        return 0;
    case CODEC_T_INT32:
        if (v < INT32_MIN || v > INT32_MAX) return -1;
        *(int32_t *)p = (int32_t)v;
        return 0;
    case CODEC_T_INT64:
        *(int64_t *)p = v;
        return 0;
    default:
        return v < 0 ? -1 : codec_uint_store(k, p, (uint64_t)v);
    }
}

int codec_uint_store(codec_type_kind k, void *p, uint64_t v)
{
    switch (k) {
    case CODEC_T_UINT8:
        if (v > UINT8_MAX) return -1;
        *(uint8_t *)p = (uint8_t)v;
        return 0;
    case CODEC_T_UINT16:
        if (v > UINT16_MAX) return -1;
        *(uint16_t *)p = (uint16_t)v;
        return 0;
    case CODEC_T_UINT32:
        if (v > UINT32_MAX) return -1;
        *(uint32_t *)p = (uint32_t)v;
        return 0;
    case CODEC_T_UINT64:
        *(uint64_t *)p = v;
        return 0;
    default:
        return v > INT64_MAX ? -1 : codec_int_store(k, p, (int64_t)v);
    }
}

/* Days from civil (Howard Hinnant's algorithm, public domain facts). */
int codec_date_from_ymd(int32_t year, int month, int day, codec_date *out)
{
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < -9999 || year > 9999 || month < 1 || month > 12 || day < 1)
        return -1;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (day > mdays[month - 1] + (month == 2 && leap))
        return -1;
    int32_t y = year - (month <= 2);
    int32_t era = (y >= 0 ? y : y - 399) / 400;
    int32_t yoe = y - era * 400;
    int32_t doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int32_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    out->days = era * 146097 + doe - 719468;
    return 0;
}

void codec_date_to_ymd(codec_date d, int32_t *year, int *month, int *day)
{
    int64_t z = (int64_t)d.days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *day = (int)(doy - (153 * mp + 2) / 5 + 1);
    *month = m;
    *year = (int32_t)(yoe + era * 400 + (m <= 2));
}

const codec_enum_value *codec_enum_by_name(const codec_type *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->count; i++)
        if (strlen(t->values[i].name) == len && memcmp(t->values[i].name, name, len) == 0)
            return &t->values[i];
    return NULL;
}

const codec_enum_value *codec_enum_by_number(const codec_type *t, int32_t number)
{
    for (size_t i = 0; i < t->count; i++)
        if (t->values[i].number == number)
            return &t->values[i];
    return NULL;
}
