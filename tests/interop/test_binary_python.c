/* test_binary_python.c — interop with the reference Python implementations
 * (/usr/bin/python3 with Debian's python3-cbor2 and python3-msgpack), both
 * ways, for CBOR and MessagePack:
 *   - Python decodes what codec wrote: 300 random codec_values (every kind,
 *     UTF-8 of all lengths, doubles at the extremes, uint64 above 2^63),
 *     and Person/Order, which must equal the JSON codec's view of the same
 *     struct (json.loads) and, for Person, re-encode to exactly our bytes;
 *   - codec decodes what Python wrote: Python re-encodes every value with
 *     its own encoder and codec must read back the very same value (doubles
 *     bit for bit) and the same Person/Order structs. */
#include "check.h"
#include "binary_checks.h"
#include "formats/binary/binary_internal.h"

#include <unistd.h>

#define VALUES 300

/* Keys longer than the encoders' 16-byte key copies, between short ones,
 * with optionals present and absent: Python must write the same bytes. */
typedef struct long_keys {
    int64_t a_rather_long_field_name;
    codec_string s;
    CODEC_OPTIONAL_OF(codec_string) another_long_optional_text;
    CODEC_OPTIONAL_OF(int32_t) gone;
    bool ok;
    codec_string fifteen_chars_x;
} long_keys;
CODEC_OPTIONAL(lk_text_type, codec_string, CODEC_STRING);
CODEC_OPTIONAL(lk_gone_type, int32_t, CODEC_INT32);
CODEC_STRUCT(long_keys_type, long_keys,
             CODEC_FIELD(long_keys, a_rather_long_field_name, 1, CODEC_INT64),
             CODEC_FIELD(long_keys, s, 2, CODEC_STRING),
             CODEC_FIELD(long_keys, another_long_optional_text, 3, &lk_text_type),
             CODEC_FIELD(long_keys, gone, 4, &lk_gone_type),
             CODEC_FIELD(long_keys, ok, 5, CODEC_BOOL),
             CODEC_FIELD(long_keys, fifteen_chars_x, 6, CODEC_STRING));

static const char script[] =
    "import json, struct, sys\n"
    "mode, path = sys.argv[1], sys.argv[2]\n"
    "if mode == 'cbor':\n"
    "    import cbor2\n"
    "    loads, dumps = cbor2.loads, cbor2.dumps\n"
    "else:\n"
    "    import msgpack\n"
    "    loads = lambda b: msgpack.unpackb(b, raw=False)\n"
    "    dumps = lambda o: msgpack.packb(o, use_bin_type=True)\n"
    "data, i, out = open(path, 'rb').read(), 0, sys.stdout.buffer\n"
    "while i < len(data):\n"
    "    n = struct.unpack('>I', data[i:i + 4])[0]\n"
    "    kind, body = data[i + 4:i + 5], data[i + 5:i + 4 + n]\n"
    "    i += 4 + n\n"
    "    if kind == b'V':\n"
    "        r = dumps(loads(body))\n"
    "    else:\n"
    "        jn = struct.unpack('>I', body[:4])[0]\n"
    "        obj = loads(body[4 + jn:])\n"
    "        if obj != json.loads(body[4:4 + jn]):\n"
    "            sys.exit('typed value differs: %r' % (obj,))\n"
    "        r = dumps(obj)\n"
    "        if kind == b'E' and r != body[4 + jn:]:\n"
    "            sys.exit('Python encodes %s, codec %s' % (r.hex(), body[4 + jn:].hex()))\n"
    "    out.write(struct.pack('>I', len(r)) + r)\n";

static void put_frame(FILE *f, char kind, const uint8_t *a, size_t an, const uint8_t *b,
                      size_t bn)
{
    uint8_t head[9] = {0, 0, 0, 0, (uint8_t)kind, 0, 0, 0, 0};
    size_t total = 1 + (b ? 4 : 0) + an + bn;
    codec_store_be32(head, (uint32_t)total);
    codec_store_be32(head + 5, (uint32_t)an);
    fwrite(head, 1, b ? 9 : 5, f);
    fwrite(a, 1, an, f);
    if (b)
        fwrite(b, 1, bn, f);
}

/* One typed frame: JSON text of v, then its encoding with c. */
static void put_typed(FILE *f, char kind, const codec *c, const codec *json, const void *v)
{
    codec_buf a, b;
    codec_buf_init(&a, NULL);
    codec_buf_init(&b, NULL);
    codec_error err;
    CHECK_INT(codec_encode(json, v, &a, &err), 0);
    CHECK_INT(codec_encode(c, v, &b, &err), 0);
    put_frame(f, kind, a.data, a.len, b.data, b.len);
    codec_buf_free(&a);
    codec_buf_free(&b);
}

static bool bits_equal(const codec_value *a, const codec_value *b)
{
    if (a->kind == CODEC_V_DOUBLE)
        return b->kind == CODEC_V_DOUBLE && memcmp(&a->as.d, &b->as.d, 8) == 0;
    if (a->kind == CODEC_V_ARRAY) {
        if (b->kind != CODEC_V_ARRAY || a->as.array.count != b->as.array.count)
            return false;
        for (size_t i = 0; i < a->as.array.count; i++)
            if (!bits_equal(&a->as.array.items[i], &b->as.array.items[i]))
                return false;
        return true;
    }
    if (a->kind == CODEC_V_OBJECT) {
        if (b->kind != CODEC_V_OBJECT || a->as.object.count != b->as.object.count)
            return false;
        for (size_t i = 0; i < a->as.object.count; i++) {
            const codec_member *m = &a->as.object.members[i], *n = &b->as.object.members[i];
            if (!bc_same_string(m->key, n->key) || !bits_equal(&m->value, &n->value))
                return false;
        }
        return true;
    }
    return a->kind == b->kind && vu_equal(a, b);
}

static void run(const char *spec, const char *mode, const char *script_path)
{
    codec *vc = bc_codec(spec, codec_value_type()), *pc = bc_codec(spec, &person_type),
          *oc = bc_codec(spec, &order_type), *jp = bc_codec("json", &person_type),
          *jo = bc_codec("json", &order_type), *lc = bc_codec(spec, &long_keys_type),
          *jl = bc_codec("json", &long_keys_type);
    char path[] = "/tmp/codec_bin_pyXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    static codec_value values[VALUES];
    uint64_t rng = 20261130;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err;
    for (int i = 0; i < VALUES; i++) {
        bc_random_value(&values[i], &rng, 0);
        codec_buf_clear(&out);
        CHECK_INT(codec_encode(vc, &values[i], &out, &err), 0);
        put_frame(f, 'V', out.data, out.len, NULL, 0);
    }
    person p = payload_person();
    line_item items[100];
    char text[100 * 64];
    order o = payload_order(items, text);
    put_typed(f, 'E', pc, jp, &p);
    put_typed(f, 'T', oc, jo, &o);
    long_keys lk = {.a_rather_long_field_name = -70000, .s = {"é", 2},
                    .another_long_optional_text = {true, {"not so short text", 17}},
                    .ok = true, .fifteen_chars_x = {"x", 1}};
    put_typed(f, 'E', lc, jl, &lk);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s %s", script_path, mode, path);
    FILE *py = popen(cmd, "r");
    CHECK(py != NULL);
    int agreed = 0;
    for (int i = 0; py && i < VALUES + 3; i++) {
        uint8_t head[4];
        if (fread(head, 1, 4, py) != 4)
            break;
        size_t n = codec_load_be32(head);
        uint8_t *body = codec_arena_alloc(&bc_arena, n + 1, 1);
        if (fread(body, 1, n, py) != n)
            break;
        if (i < VALUES) {
            codec_value back;
            if (codec_decode(vc, body, n, &back, &bc_arena, &err) == 0 &&
                bits_equal(&values[i], &back))
                agreed++;
            else
                fprintf(stderr, "%s: value %d differs after Python\n", mode, i);
        } else if (i == VALUES) {
            person pb;
            agreed += codec_decode(pc, body, n, &pb, &bc_arena, &err) == 0 &&
                      bc_same_string(pb.name, p.name) && pb.age == p.age &&
                      bc_same_string(pb.email, p.email) && pb.active;
        } else if (i == VALUES + 2) {
            long_keys lb;
            agreed += codec_decode(lc, body, n, &lb, &bc_arena, &err) == 0 &&
                      lb.a_rather_long_field_name == -70000 && !lb.gone.has &&
                      bc_same_string(lb.another_long_optional_text.value,
                                     lk.another_long_optional_text.value);
        } else {
            order ob;
            bool ok = codec_decode(oc, body, n, &ob, &bc_arena, &err) == 0 &&
                      ob.items.count == 100;
            for (size_t k = 0; ok && k < 100; k++)
                ok = bc_same_string(ob.items.items[k].sku, items[k].sku) &&
                     ob.items.items[k].unit_price == items[k].unit_price &&
                     ob.items.items[k].quantity == items[k].quantity;
            agreed += ok;
        }
    }
    CHECK(py && pclose(py) == 0);
    CHECK_INT(agreed, VALUES + 3);
    unlink(path);
    codec_buf_free(&out);
    codec_free(vc);
    codec_free(pc);
    codec_free(oc);
    codec_free(jp);
    codec_free(jo);
    codec_free(lc);
    codec_free(jl);
}

int main(void)
{
    if (access("/usr/bin/python3", X_OK) != 0) {
        printf("test_binary_python: /usr/bin/python3 missing, skipped\n");
        return 0;
    }
    codec_arena_init(&bc_arena, NULL, 0);
    char script_path[] = "/tmp/codec_bin_py_scriptXXXXXX";
    int fd = mkstemp(script_path);
    CHECK(fd >= 0 && write(fd, script, sizeof script - 1) == (ssize_t)(sizeof script - 1));
    close(fd);
    run("cbor", "cbor", script_path);
    run("msgpack", "msgpack", script_path);
    unlink(script_path);
    codec_arena_free(&bc_arena);
    return check_done("test_binary_python");
}
