/* test_binary_plan_python.c — the planned decoders' in-order fast paths
 * (formats/binary/plan_decode_internal.h) against bytes written by Python's cbor2 and
 * msgpack (/usr/bin/python3): enums read inline as small integers, and keys
 * matched past optional fields the writer left out. Every map must decode
 * to the expected struct, codec must encode that struct to exactly
 * Python's bytes, and the hostile variants (an integer that is not one of
 * the enum's numbers, a repeat of a key the fast path passed) must fail
 * with the generic walker's error at the offending byte. */
#include "check.h"
#include "binary_checks.h"

#include <unistd.h>

typedef enum shade { SHADE_DARK = 0, SHADE_LIGHT = 1, SHADE_NEON = 5 } shade;

typedef struct pic {
    codec_string uri;
    CODEC_OPTIONAL_OF(codec_string) title;
    int32_t width;
    CODEC_OPTIONAL_OF(int32_t) height;
    CODEC_OPTIONAL_OF(codec_string) note;
    int32_t shade;
    codec_list tags;
} pic;

CODEC_ENUM(shade_type, {"DARK", SHADE_DARK}, {"LIGHT", SHADE_LIGHT}, {"NEON", SHADE_NEON});
CODEC_OPTIONAL(pic_text_type, codec_string, CODEC_STRING);
CODEC_OPTIONAL(pic_int_type, int32_t, CODEC_INT32);
CODEC_LIST(pic_tags_type, CODEC_STRING);
CODEC_STRUCT(pic_type, pic,
             CODEC_FIELD(pic, uri, 1, CODEC_STRING),
             CODEC_FIELD(pic, title, 2, &pic_text_type),
             CODEC_FIELD(pic, width, 3, CODEC_INT32),
             CODEC_FIELD(pic, height, 4, &pic_int_type),
             CODEC_FIELD(pic, note, 5, &pic_text_type),
             CODEC_FIELD(pic, shade, 6, &shade_type),
             CODEC_FIELD(pic, tags, 7, &pic_tags_type));

/* One line of hex per map, in the order of the cases below. */
static const char script[] =
    "import sys\n"
    "if sys.argv[1] == 'cbor':\n"
    "    import cbor2\n"
    "    dumps = cbor2.dumps\n"
    "else:\n"
    "    import msgpack\n"
    "    dumps = lambda o: msgpack.packb(o, use_bin_type=True)\n"
    "def raw(pairs):\n"
    "    head = bytes([(0xa0 if sys.argv[1] == 'cbor' else 0x80) | len(pairs)])\n"
    "    return head + b''.join(dumps(k) + dumps(v) for k, v in pairs)\n"
    "maps = [\n"
    "    {'uri': 'u', 'title': 't\\u00e9', 'width': 300, 'height': -2, 'note': 'n',\n"
    "     'shade': 5, 'tags': ['a', 'bc']},\n"
    "    {'uri': 'v', 'width': 1, 'shade': 0, 'tags': []},\n"
    "    {'uri': 'w', 'width': 2, 'note': 'only', 'shade': 1, 'tags': ['x']},\n"
    "    {'uri': 'x', 'title': 'q', 'width': 3, 'height': 7, 'shade': 1, 'tags': []},\n"
    "    {'uri': 'y', 'width': 4, 'shade': 2},\n"
    "    {'uri': 'z', 'width': 5, 'note': 'n', 'title': 'again'},\n"
    "    {'uri': 'n', 'width': 8, 'shade': 'NEON', 'tags': ['p']},\n"
    "]\n"
    "out = [dumps(m) for m in maps]\n"
    "out.insert(6, raw([('uri', 'z'), ('width', 5), ('height', 1), ('width', 6)]))\n"
    "for b in out:\n"
    "    print(b.hex())\n";

#define CASES 8

static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned x;
    while (n < cap && sscanf(s + 2 * n, "%2x", &x) == 1)
        out[n++] = (uint8_t)x;
    return n;
}

static void check_text(codec_string s, const char *want)
{
    CHECK(bc_same_string(s, (codec_string){want, strlen(want)}));
}

/* Decodes in (n bytes) and checks it against the case's expected struct;
 * for the cases codec writes the same way, also encodes it back. */
static void check_case(const codec *c, int i, const uint8_t *in, size_t n)
{
    pic p;
    codec_error err;
    int rc = codec_decode(c, in, n, &p, &bc_arena, &err);
    switch (i) {
    case 0:
        CHECK_INT(rc, 0);
        check_text(p.uri, "u");
        CHECK(p.title.has);
        check_text(p.title.value, "t\xc3\xa9");
        CHECK_INT(p.width, 300);
        CHECK(p.height.has && p.height.value == -2);
        CHECK(p.note.has);
        CHECK_INT(p.shade, SHADE_NEON);
        CHECK_INT(p.tags.count, 2);
        check_text(((const codec_string *)p.tags.items)[1], "bc");
        break;
    case 1:
        CHECK_INT(rc, 0);
        CHECK(!p.title.has && !p.height.has && !p.note.has);
        CHECK_INT(p.width, 1);
        CHECK_INT(p.shade, SHADE_DARK);
        CHECK_INT(p.tags.count, 0);
        break;
    case 2:
        CHECK_INT(rc, 0);
        CHECK(!p.title.has && !p.height.has && p.note.has);
        check_text(p.note.value, "only");
        CHECK_INT(p.shade, SHADE_LIGHT);
        CHECK_INT(p.tags.count, 1);
        break;
    case 3:
        CHECK_INT(rc, 0);
        CHECK(p.title.has && p.height.has && !p.note.has);
        CHECK_INT(p.height.value, 7);
        CHECK_INT(p.shade, SHADE_LIGHT);
        break;
    case 4:
        /* 2 is no shade: refused at its byte, the last of the input. */
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        CHECK_INT(err.offset, n - 1);
        break;
    case 5:
        /* title comes after note (out of order): read the generic way. */
        CHECK_INT(rc, 0);
        CHECK(p.title.has && p.note.has);
        check_text(p.title.value, "again");
        return;
    case 6:
        /* width again, after height: a repeat refused at its key. */
        CHECK_INT(rc, CODEC_E_INVALID_PAYLOAD);
        CHECK_INT(err.offset, n - 7);
        return;
    default:
        /* An enum by name is still read (by the generic walker). */
        CHECK_INT(rc, 0);
        CHECK_INT(p.shade, SHADE_NEON);
        return;
    }
    if (rc)
        return;
    codec_buf out;
    codec_buf_init(&out, NULL);
    CHECK_INT(codec_encode(c, &p, &out, &err), 0);
    CHECK_MEM(out.data, out.len, in, n);
    codec_buf_free(&out);
}

static void run(const char *spec, const char *script_path)
{
    codec *c = bc_codec(spec, &pic_type);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s", script_path, spec);
    FILE *py = popen(cmd, "r");
    CHECK(py != NULL);
    char line[1024];
    int seen = 0;
    while (py && fgets(line, sizeof line, py) && seen < CASES) {
        uint8_t in[512];
        size_t n = unhex(line, in, sizeof in);
        check_case(c, seen++, in, n);
    }
    CHECK(py && pclose(py) == 0);
    CHECK_INT(seen, CASES);
    codec_free(c);
}

int main(void)
{
    if (access("/usr/bin/python3", X_OK) != 0) {
        printf("test_binary_plan_python: /usr/bin/python3 missing, skipped\n");
        return 0;
    }
    codec_arena_init(&bc_arena, NULL, 0);
    char script_path[] = "/tmp/codec_plan_py_scriptXXXXXX";
    int fd = mkstemp(script_path);
    CHECK(fd >= 0 && write(fd, script, sizeof script - 1) == (ssize_t)(sizeof script - 1));
    close(fd);
    run("cbor", script_path);
    run("msgpack", script_path);
    unlink(script_path);
    codec_arena_free(&bc_arena);
    return check_done("test_binary_plan_python");
}
