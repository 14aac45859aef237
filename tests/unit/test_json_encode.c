/* test_json_encode.c — the fast JSON encoder (encode.c over the plan of
 * plan.c) against the reference walker (bind.c over writer.c): the same
 * bytes for every value it writes, and for every value it gives up on the
 * reference's error through codec_encode. Strings of every length 0..100
 * with a byte that needs care at every position (the 8- and 16-byte steps
 * of the one-pass copy and their edges), each in an exactly sized heap
 * block so that the sanitizer build catches a read outside it; names and
 * enum names that need escapes or are not UTF-8; keys around the 32-byte
 * copy; optionals; empty containers; nesting at the depth limit; NaN.
 * The string writer itself against a byte-at-a-time model of its rules,
 * over text long enough for its 16-byte steps and the UTF-8 kernel.
 * Schemaless values (the fast encoder's own walk) against the reference:
 * every kind, nesting, and the errors. And a real peer: Python's
 * json.dumps writes the same text for strings holding every ASCII byte and
 * non-ASCII text. */
#include "check.h"
#include "codec/codec.h"
#include "formats/json/json_internal.h"
#include "formats/json/json_plan_internal.h"
#include "types/value_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PREFIX "[0,"   /* encoders append: what is there must stay */

/* Encodes v both ways after PREFIX and checks the fast encoder against the
 * reference: the same bytes when it finishes (expect 0), or it gives up
 * (expect 1) leaving the prefix alone, and then codec_encode reports the
 * reference's error, whose message contains `error`. */
static void compare(const codec_type *t, const void *v, int expect, const char *error)
{
    json_plan plan;
    codec_error err = {0};
    codec_buf fast, ref;
    codec_buf_init(&fast, NULL);
    codec_buf_init(&ref, NULL);
    CHECK_INT(codec__json_plan_build(&plan, t), 0);
    CHECK_INT(codec_buf_append(&fast, PREFIX, 3), 0);
    CHECK_INT(codec_buf_append(&ref, PREFIX, 3), 0);
    int rc = codec__json_encode_fast(&plan, v, &fast, &err);
    int ref_rc = codec__json_encode_reference(t, v, false, &ref, &err);
    CHECK_INT(rc, expect);
    if (expect == 0) {
        CHECK_INT(ref_rc, 0);
        CHECK_MEM(fast.data, fast.len, ref.data, ref.len);
    } else {
        CHECK_MEM(fast.data, fast.len, PREFIX, 3);
        CHECK_INT(ref_rc, CODEC_E_INVALID_VALUE);
        codec *c = codec_parse("json", t, &err);
        CHECK(c != NULL);
        memset(&err, 0, sizeof err);
        CHECK_INT(codec_encode(c, v, &fast, &err), CODEC_E_INVALID_VALUE);
        CHECK(strstr(err.message, error) != NULL);
        if (!strstr(err.message, error))
            fprintf(stderr, "message: %s\n", err.message);
        CHECK_MEM(fast.data, fast.len, PREFIX, 3);
        codec_free(c);
    }
    codec__json_plan_free(&plan);
    codec_buf_free(&fast);
    codec_buf_free(&ref);
}

/* The exact text through the codec. */
static void encodes_to(const codec_type *t, const void *v, const char *text)
{
    codec_error err = {0};
    codec *c = codec_parse("json", t, &err);
    CHECK(c != NULL);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(codec_encode(c, v, &out, &err), 0);
    CHECK_MEM(out.data, out.len, text, strlen(text));
    if (out.len != strlen(text) || memcmp(out.data, text, out.len))
        fprintf(stderr, "got %.*s\n", (int)out.len, (const char *)out.data);
    codec_buf_free(&out);
    codec_free(c);
}

/* ---------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------ */

typedef struct texts {
    codec_string s;
    CODEC_LIST_OF(codec_string) list;
    CODEC_MAP_OF(codec_string, codec_string) map;
} texts;

CODEC_LIST(string_list_t, CODEC_STRING);
CODEC_MAP(string_map_t, CODEC_STRING, CODEC_STRING);
CODEC_STRUCT(texts_t, texts, CODEC_FIELD(texts, s, 1, CODEC_STRING),
             CODEC_FIELD(texts, list, 2, &string_list_t),
             CODEC_FIELD(texts, map, 3, &string_map_t));

/* The string in every place a string goes: a field, two list items, a
 * map key and a map value. */
static void compare_text(const char *s, size_t n, int expect)
{
    codec_string items[2] = {{s, n}, {s, n}};
    texts v = {.s = {s, n}};
    v.list.items = items, v.list.count = 2;
    v.map.keys = &items[0], v.map.values = &items[1], v.map.count = 1;
    compare(&texts_t, &v, expect, "not valid UTF-8");
}

/* `special` (1 to 4 bytes) at every position of strings of every length
 * 0..100 filled with plain text. */
static void strings_with(const char *special, size_t k, int expect)
{
    for (size_t n = k; n <= 100; n++)
        for (size_t at = 0; at + k <= n; at++) {
            char *s = malloc(n ? n : 1);
            for (size_t i = 0; i < n; i++)
                s[i] = (char)('a' + (i * 7 + n) % 26);
            memcpy(s + at, special, k);
            compare_text(s, n, expect);
            free(s);
        }
}

static void test_strings(void)
{
    for (size_t n = 0; n <= 100; n++) {
        char *s = malloc(n ? n : 1);
        for (size_t i = 0; i < n; i++)
            s[i] = (char)(0x20 + (i * 13 + n) % 95);   /* printable ASCII, '"' and '\\' too */
        compare_text(s, n, 0);
        free(s);
    }
    strings_with("\"", 1, 0);
    strings_with("\\", 1, 0);
    strings_with("\n", 1, 0);
    strings_with("\x01", 1, 0);
    strings_with("\x1f", 1, 0);
    strings_with("\x7f", 1, 0);           /* DEL is written as is */
    strings_with(" ", 1, 0);              /* the lowest plain byte */
    strings_with("\xc3\xa9", 2, 0);       /* é */
    strings_with("\xf0\x9f\x98\x80", 4, 0);
    strings_with("\xff", 1, 1);
    strings_with("\xc3", 1, 1);           /* truncated sequence */
    strings_with("\xed\xa0\x80", 3, 1);   /* a surrogate */
    strings_with("\xc0\x80", 2, 1);       /* overlong */
    compare_text(NULL, 0, 0);

    texts v = {.s = CODEC_STR("tab\there \"q\" back\\ \x01 caf\xc3\xa9 /")};
    encodes_to(&texts_t, &v, "{\"s\":\"tab\\there \\\"q\\\" back\\\\ \\u0001 caf\xc3\xa9 /\","
                             "\"list\":[],\"map\":{}}");
}

/* The writer's rules one byte at a time: '"', '\\' and control bytes
 * escaped (short forms for \b \f \n \r \t), everything else as it is,
 * and the whole text valid UTF-8. Returns the length, or 0 when invalid. */
static size_t model_string(const uint8_t *s, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    char *o = out;
    *o++ = '"';
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        const char *e = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b"
                      : c == '\f' ? "\\f" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                      : c == '\t' ? "\\t" : NULL;
        if (e) {
            memcpy(o, e, 2), o += 2, i++;
        } else if (c < 0x20) {
            o += sprintf(o, "\\u00%c%c", hex[c >> 4], hex[c & 15]), i++;
        } else if (c < 0x80) {
            *o++ = (char)c, i++;
        } else {
            size_t k = codec_utf8_sequence(s + i, s + n);
            if (!k)
                return 0;
            memcpy(o, s + i, k), o += k, i += k;
        }
    }
    *o++ = '"';
    return (size_t)(o - out);
}

/* codec__json_put_string on s[0..n) (an exactly sized heap copy) against the
 * model, after a prefix that must stay. */
static void put_string_agrees(const uint8_t *text, size_t n)
{
    uint8_t *s = malloc(n ? n : 1);
    memcpy(s, text, n);
    char *want = malloc(6 * n + 3);
    size_t want_len = model_string(s, n, want);
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(codec_buf_append(&out, PREFIX, 3), 0);
    int rc = codec__json_put_string(&out, (const char *)s, n);
    CHECK_INT(rc, want_len ? 0 : CODEC_E_INVALID_VALUE);
    if (want_len) {
        CHECK_MEM(out.data + 3, out.len - 3, want, want_len);
        CHECK_MEM(out.data, 3, PREFIX, 3);
    }
    codec_buf_free(&out);
    free(want);
    free(s);
}

/* Text of every length 0..200 mixing ASCII and 2-, 3- and 4-byte
 * characters, with `special` (1 to 4 bytes) at every position. */
static void put_strings_with(const char *special, size_t k)
{
    static const char *const pieces[] = {"a", "Z", "\xc3\xa9", "\xe3\x81\x82", "\xf0\x9f\x98\x80",
                                         " ", "~", "\xe6\x97\xa5"};
    uint8_t text[256];
    for (size_t n = 0; n <= 200; n++)
        for (size_t at = 0; at + k <= n; at += 1 + at / 16) {
            size_t len = 0, piece = n;
            while (len < n) {   /* whole characters, ASCII to fill the end */
                const char *p = pieces[piece++ % 8];
                size_t m = strlen(p);
                if (len + m > n)
                    p = "x", m = 1;
                memcpy(text + len, p, m), len += m;
            }
            memcpy(text + at, special, k);
            put_string_agrees(text, n);
        }
}

static void test_put_string(void)
{
    put_strings_with("", 0);
    put_strings_with("\"", 1);
    put_strings_with("\\", 1);
    put_strings_with("\x01", 1);
    put_strings_with("\t", 1);
    put_strings_with("\x7f", 1);
    put_strings_with("\xe3\x81\x82", 3);
    put_strings_with("\xff", 1);             /* invalid UTF-8 from here on */
    put_strings_with("\x80", 1);             /* a lone continuation (or a cut one) */
    put_strings_with("\xe3\x81", 2);         /* cut short (or more bytes than a sequence) */
    put_strings_with("\xed\xa0\x80", 3);     /* a surrogate */
    put_strings_with("\xe0\x80\x80", 3);     /* overlong */
    put_strings_with("\xf4\x90\x80\x80", 4); /* above U+10FFFF */
}

/* Every ASCII byte, at a moving position in strings of moving lengths,
 * and non-ASCII text: our list of strings against Python's
 * json.dumps(..., ensure_ascii=False, separators=(",", ":")), which
 * escapes minimally as the writer does (short forms for \b \f \n \r \t,
 * \u00xx for other control bytes, DEL and non-ASCII as they are). */
static void test_python_strings(void)
{
    if (access("/usr/bin/python3", X_OK) != 0) {
        printf("test_json_encode: /usr/bin/python3 missing, Python check skipped\n");
        return;
    }
    enum { COUNT = 130 };
    static char text[COUNT][64];
    codec_string items[COUNT];
    char path[] = "/tmp/codec_json_encXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < COUNT; i++) {
        size_t n = 1 + (size_t)(i * 7) % 40;
        for (size_t j = 0; j < n; j++)
            text[i][j] = (char)('A' + (i + j) % 26);
        if (i < 128)
            text[i][(size_t)i % n] = (char)i;
        else
            memcpy(text[i] + n, "caf\xc3\xa9 \xf0\x9f\x98\x80", 10), n += 10;
        items[i] = (codec_string){text[i], n};
        for (size_t j = 0; j < n; j++)
            fprintf(f, "%02x", (uint8_t)text[i][j]);
        fputc('\n', f);
    }
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "PYTHONIOENCODING=utf-8 /usr/bin/python3 -c 'import json,sys\n"
             "s=[bytes.fromhex(l.strip()).decode() for l in open(sys.argv[1])]\n"
             "sys.stdout.write(json.dumps(s, ensure_ascii=False, separators=(\",\",\":\")))' %s",
             path);
    FILE *py = popen(cmd, "r");
    CHECK(py != NULL);
    static char expect[1 << 16];
    size_t n = py ? fread(expect, 1, sizeof expect - 1, py) : 0;
    CHECK(py && pclose(py) == 0);
    CHECK(n > COUNT * 4);
    unlink(path);
    codec_error err = {0};
    codec *c = codec_parse("json", &string_list_t, &err);
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_list list = {items, COUNT};
    CHECK_INT(codec_encode(c, &list, &out, &err), 0);
    CHECK_MEM(out.data, out.len, expect, n);
    codec_buf_free(&out);
    codec_free(c);
}

/* Strings and lists long enough to make the output grow in the middle of
 * a struct, a list and an escape, from an empty buffer. */
static void test_growth(void)
{
    size_t n = 100000;
    char *big = malloc(n);
    memset(big, 'x', n);
    codec_string *items = malloc(1000 * sizeof *items);
    for (size_t i = 0; i < 1000; i++)
        items[i] = (codec_string){big + i, 300 + i % 40};
    texts v = {.s = {big, n}};
    v.list.items = items, v.list.count = 1000;
    v.map.keys = items, v.map.values = items + 1, v.map.count = 999;
    compare(&texts_t, &v, 0, "");
    big[n - 1] = '\n';
    big[350] = '"';
    compare(&texts_t, &v, 0, "");
    free(items);
    free(big);
}

/* ---------------------------------------------------------------------------
 * Names
 * ------------------------------------------------------------------------ */

typedef struct named {
    int32_t a, b, c, d, e, f;
} named;

/* Keys `,"name":` of 32 and 33 bytes sit on either side of the fixed
 * 32-byte copy; the 60-byte one is copied by length. */
CODEC_STRUCT(named_t, named, CODEC_FIELD_EX(named, a, "quote\"d", 1, CODEC_INT32, 0),
             CODEC_FIELD_EX(named, b, "back\\slash\ttab", 2, CODEC_INT32, 0),
             CODEC_FIELD_EX(named, c, "caf\xc3\xa9", 3, CODEC_INT32, 0),
             CODEC_FIELD_EX(named, d, "a_name_of_exactly_28_bytes_x", 4, CODEC_INT32, 0),
             CODEC_FIELD_EX(named, e, "a_name_that_is_29_bytes_long_", 5, CODEC_INT32, 0),
             CODEC_FIELD_EX(named, f,
                            "a_long_name_of_sixty_bytes_that_no_fixed_copy_covers_at_all_", 6,
                            CODEC_INT32, 0));

typedef struct bad_named {
    int32_t ok, bad;
} bad_named;

CODEC_STRUCT(bad_named_t, bad_named, CODEC_FIELD(bad_named, ok, 1, CODEC_INT32),
             CODEC_FIELD_EX(bad_named, bad, "bad\xff", 2, CODEC_INT32, 0));

CODEC_ENUM(color_t, {"RED", 0}, {"gr\"een", 1}, {"bl\xffue", 2}, {"gr\\ay", 3});
CODEC_LIST(colors_t, &color_t);

typedef struct painted {
    int32_t color;
    CODEC_LIST_OF(int32_t) colors;
    CODEC_LIST_OF(named) names;
} painted;

CODEC_LIST(named_list_t, &named_t);
CODEC_STRUCT(painted_t, painted, CODEC_FIELD(painted, color, 1, &color_t),
             CODEC_FIELD(painted, colors, 2, &colors_t),
             CODEC_FIELD(painted, names, 3, &named_list_t));

static void test_names(void)
{
    named v = {1, 2, 3, 4, 5, -6};
    encodes_to(&named_t, &v,
               "{\"quote\\\"d\":1,\"back\\\\slash\\ttab\":2,\"caf\xc3\xa9\":3,"
               "\"a_name_of_exactly_28_bytes_x\":4,\"a_name_that_is_29_bytes_long_\":5,"
               "\"a_long_name_of_sixty_bytes_that_no_fixed_copy_covers_at_all_\":-6}");
    compare(&named_t, &v, 0, "");
    bad_named b = {1, 2};
    compare(&bad_named_t, &b, 1, "field name is not valid UTF-8");

    int32_t colors[] = {1, 0, 3};
    named items[2] = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}};
    painted p = {.color = 1};
    p.colors.items = colors, p.colors.count = 3;
    p.names.items = items, p.names.count = 2;
    compare(&painted_t, &p, 0, "");
    encodes_to(&painted_t, &(painted){.color = 3},
               "{\"color\":\"gr\\\\ay\",\"colors\":[],\"names\":[]}");
    p.color = 2;
    compare(&painted_t, &p, 1, "enum name is not valid UTF-8");
    p.color = 7;
    compare(&painted_t, &p, 1, "7 is not one of its names");
    p.color = 0;
    colors[2] = -1;
    compare(&painted_t, &p, 1, "-1 is not one of its names");
}

/* ---------------------------------------------------------------------------
 * Optionals, empty containers, numbers
 * ------------------------------------------------------------------------ */

typedef CODEC_OPTIONAL_OF(double) opt_double;
typedef struct inner {
    bool on;
} inner;

typedef struct opts {
    CODEC_OPTIONAL_OF(int32_t) a;
    CODEC_OPTIONAL_OF(codec_string) b;
    CODEC_LIST_OF(opt_double) c;
    CODEC_OPTIONAL_OF(inner) d;
    CODEC_MAP_OF(codec_string, opt_double) e;
} opts;

CODEC_STRUCT(inner_t, inner, CODEC_FIELD(inner, on, 1, CODEC_BOOL));
CODEC_OPTIONAL(opt_int_t, int32_t, CODEC_INT32);
CODEC_OPTIONAL(opt_string_t, codec_string, CODEC_STRING);
CODEC_OPTIONAL(opt_double_t, double, CODEC_DOUBLE);
CODEC_OPTIONAL(opt_inner_t, inner, &inner_t);
CODEC_LIST(opt_doubles_t, &opt_double_t);
CODEC_MAP(opt_double_map_t, CODEC_STRING, &opt_double_t);
CODEC_STRUCT(opts_t, opts, CODEC_FIELD(opts, a, 1, &opt_int_t),
             CODEC_FIELD(opts, b, 2, &opt_string_t), CODEC_FIELD(opts, c, 3, &opt_doubles_t),
             CODEC_FIELD(opts, d, 4, &opt_inner_t), CODEC_FIELD(opts, e, 5, &opt_double_map_t));

typedef struct only_opts {
    CODEC_OPTIONAL_OF(int32_t) a;
    CODEC_OPTIONAL_OF(codec_string) b;
} only_opts;

CODEC_STRUCT(only_opts_t, only_opts, CODEC_FIELD(only_opts, a, 1, &opt_int_t),
             CODEC_FIELD(only_opts, b, 2, &opt_string_t));

static void test_optionals(void)
{
    opt_double ds[3] = {{true, 1.5}, {false, 0}, {true, -0.0}};
    codec_string keys[3] = {CODEC_STR("x"), CODEC_STR("y"), CODEC_STR("z")};
    for (int mask = 0; mask < 16; mask++) {
        opts v = {0};
        v.a.has = mask & 1, v.a.value = -7;
        v.b.has = mask >> 1 & 1, v.b.value = CODEC_STR("bee");
        v.d.has = mask >> 2 & 1, v.d.value.on = true;
        if (mask & 8) {
            v.c.items = ds, v.c.count = 3;
            v.e.keys = keys, v.e.values = ds, v.e.count = 3;
        }
        compare(&opts_t, &v, 0, "");
    }
    opts v = {0};
    encodes_to(&opts_t, &v, "{\"c\":[],\"e\":{}}");
    v.c.items = ds, v.c.count = 3;
    v.e.keys = keys, v.e.values = ds, v.e.count = 3;
    encodes_to(&opts_t, &v, "{\"c\":[1.5,null,-0.0],\"e\":{\"x\":1.5,\"y\":null,\"z\":-0.0}}");
    encodes_to(&only_opts_t, &(only_opts){0}, "{}");
    only_opts o = {.b = {true, CODEC_STR("")}};
    encodes_to(&only_opts_t, &o, "{\"b\":\"\"}");
}

typedef struct reals {
    double x;
    float y;
    CODEC_LIST_OF(double) z;
} reals;

CODEC_LIST(doubles_t, CODEC_DOUBLE);
CODEC_STRUCT(reals_t, reals, CODEC_FIELD(reals, x, 1, CODEC_DOUBLE),
             CODEC_FIELD(reals, y, 2, CODEC_FLOAT), CODEC_FIELD(reals, z, 3, &doubles_t));

static void test_not_finite(void)
{
    double zs[2] = {1.0, 2.5};
    reals v = {.x = 0.1, .y = 3.0f};
    v.z.items = zs, v.z.count = 2;
    compare(&reals_t, &v, 0, "");
    encodes_to(&reals_t, &v, "{\"x\":0.1,\"y\":3.0,\"z\":[1.0,2.5]}");
    v.x = NAN;
    compare(&reals_t, &v, 1, "NaN or infinity");
    v.x = 1;
    v.y = -INFINITY;
    compare(&reals_t, &v, 1, "NaN or infinity");
    v.y = 1;
    zs[1] = INFINITY;
    compare(&reals_t, &v, 1, "NaN or infinity");
}

/* ---------------------------------------------------------------------------
 * UUID, dates, timestamps, decimals
 * ------------------------------------------------------------------------ */

typedef struct times {
    codec_uuid id;
    codec_date day;
    codec_timestamp at;
    codec_string amount;
    CODEC_LIST_OF(codec_timestamp) log;
    CODEC_LIST_OF(codec_string) amounts;
} times;

CODEC_LIST(timestamps_t, CODEC_TIMESTAMP);
CODEC_LIST(decimals_t, CODEC_DECIMAL);
CODEC_STRUCT(times_t, times, CODEC_FIELD(times, id, 1, CODEC_UUID),
             CODEC_FIELD(times, day, 2, CODEC_DATE), CODEC_FIELD(times, at, 3, CODEC_TIMESTAMP),
             CODEC_FIELD(times, amount, 4, CODEC_DECIMAL),
             CODEC_FIELD(times, log, 5, &timestamps_t),
             CODEC_FIELD(times, amounts, 6, &decimals_t));

static void test_times(void)
{
    codec_timestamp log[3] = {{0, 0, 0}, {-62135596800, 999999999, -1439}, {253402300799, 1000, 0}};
    codec_string amounts[2] = {CODEC_STR("-0.5e+10"), CODEC_STR("123456789012345678901234567890")};
    times v = {.day = {-719528}, .at = {1700000000, 120000000, 60}, .amount = CODEC_STR("12.50")};
    for (int i = 0; i < 16; i++)
        v.id.bytes[i] = (uint8_t)(i * 17 + 10);
    v.log.items = log, v.log.count = 3;
    v.amounts.items = amounts, v.amounts.count = 2;
    compare(&times_t, &v, 0, "");
    encodes_to(&times_t, &v,
               "{\"id\":\"0a1b2c3d-4e5f-7081-92a3-b4c5d6e7f809\",\"day\":\"0000-01-01\","
               "\"at\":\"2023-11-14T23:13:20.120+01:00\",\"amount\":12.50,"
               "\"log\":[\"1970-01-01T00:00:00Z\",\"0000-12-31T00:01:00.999999999-23:59\","
               "\"9999-12-31T23:59:59.000001Z\"],"
               "\"amounts\":[-0.5e+10,123456789012345678901234567890]}");
    v.day.days = 2932897;   /* 10000-01-01 */
    compare(&times_t, &v, 1, "year outside 0..9999");
    v.day.days = 0;
    v.at.nanos = 1000000000;
    compare(&times_t, &v, 1, "out of range");
    v.at.nanos = 0;
    log[1].offset_minutes = 1440;
    compare(&times_t, &v, 1, "out of range");
    log[1].offset_minutes = 0;
    v.amount = CODEC_STR("012");
    compare(&times_t, &v, 1, "not a decimal number");
    v.amount = CODEC_STR("1");
    amounts[1] = CODEC_STR("");
    compare(&times_t, &v, 1, "not a decimal number");
}

/* ---------------------------------------------------------------------------
 * Nesting
 * ------------------------------------------------------------------------ */

typedef struct tree {
    CODEC_LIST_OF(struct tree) kids;
} tree;

static const codec_type tree_t;
CODEC_LIST(trees_t, &tree_t);
CODEC_STRUCT(tree_t, tree, CODEC_FIELD(tree, kids, 1, &trees_t));

/* A chain of `levels` objects, each with an array: 2 * levels containers. */
static void test_depth(void)
{
    size_t levels = CODEC_JSON_MAX_DEPTH_LIMIT / 2 + 1;
    tree *chain = calloc(levels, sizeof *chain);
    for (size_t i = 0; i + 1 < levels; i++)
        chain[i].kids.items = &chain[i + 1], chain[i].kids.count = 1;
    /* At the limit: the last level's array is container 4096. */
    compare(&tree_t, &chain[1], 0, "");
    /* One level more is refused by the reference walker, which says so. */
    compare(&tree_t, &chain[0], 1, "containers nested too deep");
    free(chain);
}

/* ---------------------------------------------------------------------------
 * Schemaless values
 * ------------------------------------------------------------------------ */

static uint32_t rng = 7;

static uint32_t next_random(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

static const char *const TEXTS[] = {"",
                                    "plain",
                                    "tab\there",
                                    "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac",
                                    "q\"uote\\",
                                    "a long plain string of more than thirty-two bytes"};

/* A random value of at most `depth` more levels, its arrays and members
 * from `pool` (which has room). */
static void random_value(codec_value *v, unsigned depth, codec_value **pool, codec_member **mpool)
{
    memset(v, 0, sizeof *v);
    unsigned kind = next_random() % (depth ? 9 : 7);
    static const uint8_t raw[] = {0, 1, 2, 0xfe, 0xff};
    switch (kind) {
    case 0: break;
    case 1: v->kind = CODEC_V_BOOL, v->as.b = next_random() & 1; break;
    case 2: v->kind = CODEC_V_INT, v->as.i = (int64_t)next_random() - (1 << 23); break;
    case 3: v->kind = CODEC_V_UINT, v->as.u = UINT64_MAX - next_random(); break;
    case 4: {
        static const double ds[] = {0.1,  -2.5e-300, 1e21, 123.0,
                                    -0.0, 5e-324,    1.7976931348623157e308};
        v->kind = CODEC_V_DOUBLE, v->as.d = ds[next_random() % 7];
        break;
    }
    case 5: {
        const char *t = TEXTS[next_random() % 6];
        v->kind = CODEC_V_STRING, v->as.s = (codec_string){t, strlen(t)};
        break;
    }
    case 6: v->kind = CODEC_V_BYTES, v->as.bytes = (codec_bytes){raw, next_random() % 6}; break;
    case 7: {
        size_t n = next_random() % 4;
        v->kind = CODEC_V_ARRAY, v->as.array.items = *pool, v->as.array.count = n;
        *pool += n;
        for (size_t i = 0; i < n; i++)
            random_value(&v->as.array.items[i], depth - 1, pool, mpool);
        break;
    }
    default: {
        size_t n = next_random() % 4;
        v->kind = CODEC_V_OBJECT, v->as.object.members = *mpool, v->as.object.count = n;
        *mpool += n;
        for (size_t i = 0; i < n; i++) {
            const char *t = TEXTS[next_random() % 6];
            v->as.object.members[i].key = (codec_string){t, strlen(t)};
            random_value(&v->as.object.members[i].value, depth - 1, pool, mpool);
        }
    }
    }
}

static void test_values(void)
{
    enum { ROOM = 1 << 14 };
    codec_value *items = malloc(ROOM * sizeof *items);
    codec_member *members = malloc(ROOM * sizeof *members);
    for (int i = 0; i < 2000; i++) {
        codec_value v, *pool = items;
        codec_member *mpool = members;
        random_value(&v, 5, &pool, &mpool);
        compare(codec_value_type(), &v, 0, "");
    }
    /* Errors anywhere in the tree: the fast walk gives up, the reference says why. */
    codec_value bad[3] = {{.kind = CODEC_V_DOUBLE, .as.d = NAN},
                          {.kind = CODEC_V_STRING, .as.s = {"ok\xc3", 3}},
                          {.kind = (codec_value_kind)99}};
    static const char *const why[] = {"NaN or infinity", "string is not valid UTF-8",
                                      "unknown kind 99"};
    for (int i = 0; i < 3; i++) {
        codec_member m[2] = {{CODEC_STR("k"), {.kind = CODEC_V_NULL}}, {CODEC_STR("x"), bad[i]}};
        codec_value inner[2] = {{.kind = CODEC_V_INT, .as.i = 1},
                                {.kind = CODEC_V_OBJECT, .as.object = {m, 2}}};
        codec_value v = {.kind = CODEC_V_ARRAY, .as.array = {inner, 2}};
        compare(codec_value_type(), &v, 1, why[i]);
    }
    codec_member key = {{"\xff", 1}, {.kind = CODEC_V_NULL}};
    codec_value obj = {.kind = CODEC_V_OBJECT, .as.object = {&key, 1}};
    compare(codec_value_type(), &obj, 1, "object key is not valid UTF-8");
    /* Nesting: 4096 arrays are written, 4097 refused. */
    size_t levels = CODEC_JSON_MAX_DEPTH_LIMIT + 1;
    codec_value *chain = calloc(levels, sizeof *chain);
    for (size_t i = 0; i < levels; i++) {
        chain[i].kind = CODEC_V_ARRAY;
        if (i + 1 < levels)
            chain[i].as.array.items = &chain[i + 1], chain[i].as.array.count = 1;
    }
    compare(codec_value_type(), &chain[1], 0, "");
    compare(codec_value_type(), &chain[0], 1, "containers nested too deep");
    free(chain);
    codec_value list[5] = {{.kind = CODEC_V_INT, .as.i = 1}, {.kind = CODEC_V_INT, .as.i = -2},
                           {.kind = CODEC_V_DOUBLE, .as.d = 1.5}, {.kind = CODEC_V_NULL},
                           {.kind = CODEC_V_BOOL, .as.b = true}};
    codec_member sample[2] = {
        {CODEC_STR("a"), {.kind = CODEC_V_ARRAY, .as.array = {list, 5}}},
        {CODEC_STR("b"), {.kind = CODEC_V_STRING, .as.s = CODEC_STR("caf\xc3\xa9\n")}}};
    codec_value doc = {.kind = CODEC_V_OBJECT, .as.object = {sample, 2}};
    encodes_to(codec_value_type(), &doc, "{\"a\":[1,-2,1.5,null,true],\"b\":\"caf\xc3\xa9\\n\"}");
    free(items);
    free(members);
}

int main(void)
{
    test_put_string();
    test_values();
    test_strings();
    test_python_strings();
    test_growth();
    test_names();
    test_optionals();
    test_not_finite();
    test_times();
    test_depth();
    return check_done("test_json_encode");
}
