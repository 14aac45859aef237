/* test_types.c — descriptors: the macros, codec_type_check catching misuse,
 * the field index, integer range checks, calendar arithmetic. */
#include "check.h"
#include "codec/codec.h"
#include "json_payloads.h"   /* the person struct and its descriptor */

/* Misuse 1: a member declared int64 in the descriptor but int32 in C. */
CODEC_STRUCT(wrong_size_type, person,
             CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD(person, age, 2, CODEC_INT64));

/* Misuse 2: the same name twice (via an explicit wire name). */
CODEC_STRUCT(dup_name_type, person,
             CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD_EX(person, email, "name", 2, CODEC_STRING, 0));

/* Misuse 3: the same tag twice. */
CODEC_STRUCT(dup_tag_type, person,
             CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD(person, email, 1, CODEC_STRING));

/* Misuse 4: tag 0. */
CODEC_STRUCT(zero_tag_type, person, CODEC_FIELD(person, name, 0, CODEC_STRING));

/* Misuse 5: a nested struct with a bad field, found through a list. */
typedef struct holder {
    CODEC_LIST_OF(person) people;
} holder;
CODEC_LIST(bad_people_type, &wrong_size_type);
CODEC_STRUCT(holder_bad_type, holder, CODEC_FIELD(holder, people, 1, &bad_people_type));

CODEC_ENUM(dup_enum_type, {"A", 0}, {"B", 1}, {"A", 2});
CODEC_ENUM(alias_enum_type, {"A", 0}, {"B", 1}, {"ALSO_B", 1});
CODEC_ENUM(player_type, {"JAVA", 0}, {"FLASH", 1});
CODEC_MAP(bad_map_type, &person_type, CODEC_INT32);
CODEC_LIST(no_elem_type, NULL);

typedef struct opt_holder {
    CODEC_OPTIONAL_OF(double) x;
    CODEC_OPTIONAL_OF(int8_t) y;
} opt_holder;
CODEC_OPTIONAL(opt_double_type, double, CODEC_DOUBLE);
CODEC_OPTIONAL(opt_i8_type, int8_t, CODEC_INT8);
CODEC_STRUCT(opt_holder_type, opt_holder,
             CODEC_FIELD(opt_holder, x, 1, &opt_double_type),
             CODEC_FIELD(opt_holder, y, 2, &opt_i8_type));

static void expect_bad(const codec_type *t, const char *needle)
{
    codec_error err = {0};
    CHECK_INT(codec_type_check(t, &err), CODEC_E_USAGE);
    if (!strstr(err.message, needle)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", err.message, needle);
        CHECK(0);
    }
}

static void test_check(void)
{
    codec_error err = {0};
    CHECK_INT(codec_type_check(&person_type, &err), 0);
    CHECK_INT(codec_type_check(&node_type, &err), 0);
    CHECK_INT(codec_type_check(&opt_holder_type, &err), 0);
    CHECK_INT(codec_type_check(&player_type, &err), 0);
    CHECK_INT(codec_type_check(codec_value_type(), &err), 0);
    expect_bad(&wrong_size_type, "'age' is 4 bytes in C but its type needs 8");
    expect_bad(&dup_name_type, "duplicate field name 'name'");
    expect_bad(&dup_tag_type, "repeats tag 1");
    expect_bad(&zero_tag_type, "tag 0");
    expect_bad(&holder_bad_type, "holder.people[]: field 'age'");
    expect_bad(&dup_enum_type, "duplicate enum name 'A'");
    /* Aliases (protobuf allow_alias): by number, the first name. */
    CHECK_INT(codec_type_check(&alias_enum_type, &err), 0);
    CHECK(strcmp(codec_enum_by_number(&alias_enum_type, 1)->name, "B") == 0);
    CHECK(codec_enum_by_name(&alias_enum_type, "ALSO_B", 6)->number == 1);
    expect_bad(&bad_map_type, "not a scalar");
    expect_bad(&no_elem_type, "no element type");
    expect_bad(NULL, "missing type");
}

static void test_layouts(void)
{
    CHECK_INT(opt_double_type.value_offset, offsetof(opt_holder, x.value) - offsetof(opt_holder, x));
    CHECK_INT(opt_i8_type.value_offset, offsetof(opt_holder, y.value) - offsetof(opt_holder, y));
    CHECK_INT(opt_double_type.size, sizeof(((opt_holder *)0)->x));
    CHECK_INT(sizeof(CODEC_LIST_OF(person)), sizeof(codec_list));
    CHECK_INT(sizeof(CODEC_MAP_OF(int, double)), sizeof(codec_map));
}

/* A wide struct: 64 int32 fields named f0..f63 with tags 1..64. */
typedef struct wide {
    int32_t f[64];
} wide;
CODEC_STRUCT(wide_type, wide,
             CODEC_FIELD_EX(wide, f[0], "f0", 1, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[1], "f1", 2, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[2], "f2", 3, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[3], "f3", 4, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[4], "f4", 5, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[5], "f5", 6, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[6], "f6", 7, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[7], "f7", 8, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[8], "f8", 9, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[9], "f9", 10, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[10], "f10", 11, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[11], "f11", 12, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[12], "f12", 13, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[13], "f13", 14, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[14], "f14", 15, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[15], "f15", 16, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[16], "f16", 17, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[17], "f17", 18, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[18], "f18", 19, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[19], "f19", 20, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[20], "f20", 21, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[21], "f21", 22, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[22], "f22", 23, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[23], "f23", 24, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[24], "f24", 25, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[25], "f25", 26, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[26], "f26", 27, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[27], "f27", 28, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[28], "f28", 29, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[29], "f29", 30, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[30], "f30", 31, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[31], "f31", 32, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[32], "f32", 33, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[33], "f33", 34, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[34], "f34", 35, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[35], "f35", 36, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[36], "f36", 37, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[37], "f37", 38, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[38], "f38", 39, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[39], "f39", 40, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[40], "f40", 41, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[41], "f41", 42, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[42], "f42", 43, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[43], "f43", 44, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[44], "f44", 45, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[45], "f45", 46, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[46], "f46", 47, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[47], "f47", 48, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[48], "f48", 49, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[49], "f49", 50, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[50], "f50", 51, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[51], "f51", 52, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[52], "f52", 53, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[53], "f53", 54, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[54], "f54", 55, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[55], "f55", 56, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[56], "f56", 57, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[57], "f57", 58, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[58], "f58", 59, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[59], "f59", 60, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[60], "f60", 61, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[61], "f61", 62, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[62], "f62", 63, CODEC_INT32, 0),
             CODEC_FIELD_EX(wide, f[63], "f63", 64, CODEC_INT32, 0));

static void test_lookup(void)
{
    CHECK_INT(codec_type_check(&wide_type, NULL), 0);
    for (int i = 0; i < 64; i++) {
        char name[8];
        int n = snprintf(name, sizeof name, "f%d", i);
        const codec_field *f = codec_type_field_by_name(&wide_type, name, (size_t)n);
        CHECK(f && codec_type_field_index(&wide_type, f) == (size_t)i);
        CHECK(codec_type_field_by_tag(&wide_type, (uint32_t)i + 1) == f);
    }
    CHECK(codec_type_field_by_name(&wide_type, "f64", 3) == NULL);
    CHECK(codec_type_field_by_name(&wide_type, "f1\0x", 4) == NULL);
    CHECK(codec_type_field_by_name(&wide_type, "f", 1) == NULL);
    CHECK(codec_type_field_by_tag(&wide_type, 65) == NULL);
    CHECK(codec_type_field_by_name(&person_type, "email", 5) == &person_type.fields[3]);
    CHECK(codec_enum_by_name(&player_type, "FLASH", 5)->number == 1);
    CHECK(codec_enum_by_number(&player_type, 7) == NULL);
}

static void test_ints(void)
{
    int8_t i8 = 0;
    uint16_t u16 = 0;
    int64_t i64 = 0;
    uint64_t u64 = 0;
    CHECK_INT(codec_int_store(CODEC_T_INT8, &i8, 127), 0);
    CHECK_INT(i8, 127);
    CHECK_INT(codec_int_store(CODEC_T_INT8, &i8, 128), -1);
    CHECK_INT(codec_int_store(CODEC_T_INT8, &i8, -129), -1);
    CHECK_INT(i8, 127);
    CHECK_INT(codec_int_store(CODEC_T_UINT16, &u16, -1), -1);
    CHECK_INT(codec_uint_store(CODEC_T_UINT16, &u16, 65536), -1);
    CHECK_INT(codec_uint_store(CODEC_T_UINT16, &u16, 65535), 0);
    CHECK_INT(codec_uint_load(CODEC_T_UINT16, &u16), 65535);
    CHECK_INT(codec_uint_store(CODEC_T_INT64, &i64, (uint64_t)INT64_MAX + 1), -1);
    CHECK_INT(codec_int_store(CODEC_T_INT64, &i64, INT64_MIN), 0);
    CHECK(codec_int_load(CODEC_T_INT64, &i64) == INT64_MIN);
    CHECK_INT(codec_uint_store(CODEC_T_UINT64, &u64, UINT64_MAX), 0);
    CHECK(codec_uint_load(CODEC_T_UINT64, &u64) == UINT64_MAX);
}

static void test_dates(void)
{
    codec_date d;
    CHECK_INT(codec_date_from_ymd(1970, 1, 1, &d), 0);
    CHECK_INT(d.days, 0);
    CHECK_INT(codec_date_from_ymd(2000, 3, 1, &d), 0);
    CHECK_INT(d.days, 11017);
    CHECK_INT(codec_date_from_ymd(1969, 12, 31, &d), 0);
    CHECK_INT(d.days, -1);
    CHECK_INT(codec_date_from_ymd(2023, 2, 29, &d), -1);
    CHECK_INT(codec_date_from_ymd(2024, 2, 29, &d), 0);
    CHECK_INT(codec_date_from_ymd(1900, 2, 29, &d), -1);
    /* Every day from -9999 to 9999 round-trips and days are consecutive. */
    codec_date prev;
    CHECK_INT(codec_date_from_ymd(-9999, 1, 1, &prev), 0);
    codec_date last;
    CHECK_INT(codec_date_from_ymd(9999, 12, 31, &last), 0);
    int bad = 0;
    for (int32_t days = prev.days; days <= last.days; days++) {
        int32_t y;
        int m, dd;
        codec_date_to_ymd((codec_date){days}, &y, &m, &dd);
        codec_date back;
        if (codec_date_from_ymd(y, m, dd, &back) || back.days != days)
            bad++;
    }
    CHECK_INT(bad, 0);
}

int main(void)
{
    test_check();
    test_layouts();
    test_lookup();
    test_ints();
    test_dates();
    return check_done("test_types");
}
