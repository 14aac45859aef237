/* test_union_peers.c — tagged unions against implementations no one here
 * wrote, both ways (/usr/bin/python3 with Debian's python3-protobuf,
 * python3-cbor2 and python3-msgpack; protoc generates union_pb2 from
 * tests/data/protobuf/union.proto at test time):
 *   - protobuf: codec's bytes of every union state parse in Python to the
 *     same Drawing, with WhichOneof() naming the member, and are byte for
 *     byte Python's SerializeToString(); Python's bytes decode in codec to
 *     the same drawing; concatenated messages (two members: the last wins;
 *     the same message member twice: merged) decode as Python decodes them;
 *     a reader without the `code` member keeps it as an unknown field and
 *     writes it back where Python finds it again;
 *   - proto3 JSON: a CODEC_UNION_FLAT drawing's JSON parses with
 *     google.protobuf.json_format to the same message, and json_format's
 *     MessageToJson (a oneof's member flat in the object) decodes in codec;
 *   - JSON (json.loads), CBOR (cbor2) and MessagePack (msgpack): codec's
 *     bytes load to {"name": "d", "shape": {"<member>": value}, "layer": 7}
 *     (no "shape" when empty), lists of unions to [{...}, None, ...], and
 *     Python's encoding of those dicts decodes in codec to the same values;
 *     Python-made maps with two members or an unknown member are refused.
 * Skipped (exit 0) when protoc or /usr/bin/python3 is absent. */
#include "check.h"
#include "peer_files.h"
#include "union_model.h"

static void encode_to(const codec *c, const void *v, const char *name)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    CHECK_INT(codec_encode(c, v, &out, &err), 0);
    write_file(name, out.data, out.len);
    codec_buf_free(&out);
}

/* Decodes the file `name` with c into v; the status. */
static int decode_from(const codec *c, const char *name, void *v, codec_arena *a)
{
    size_t n;
    unsigned char *data = read_back(name, &n);
    if (!data)
        return -1;
    codec_error err = {0};
    int rc = codec_decode(c, data, n, v, a, &err);
    if (rc && rc != CODEC_E_INVALID_PAYLOAD)
        fprintf(stderr, "%s: %s\n", name, err.message);
    free(data);
    return rc;
}

static const char script[] =
    "import json, sys\n"
    "phase, d = sys.argv[1], sys.argv[2]\n"
    "sys.path.insert(0, d)\n"
    "import union_pb2, cbor2, msgpack\n"
    "from google.protobuf import json_format\n"
    "from union_pb2 import Drawing, Rect\n"
    "def rd(n): return open('%s/%s' % (d, n), 'rb').read()\n"
    "def wr(n, b): open('%s/%s' % (d, n), 'wb').write(b)\n"
    "bad = 0\n"
    "def fail(msg):\n"
    "    global bad; print('python:', msg); bad += 1\n"
    "if phase == 'check':\n"
    "    members = [None, ('circle', 0.0), ('rectangle', {'w': 1.5, 'h': -2.0}), ('label', ''),\n"
    "               ('label', 'h\\u00e9'), ('code', -2**63)]\n"
    "    for i, m in enumerate(members):\n"
    "        pb = Drawing(name='d', layer=7)\n"
    "        obj = {'name': 'd', 'layer': 7}\n"
    "        if m:\n"
    "            obj['shape'] = {m[0]: m[1]}\n"
    "            if m[0] == 'rectangle': pb.rectangle.CopyFrom(Rect(**m[1]))\n"
    "            else: setattr(pb, m[0], m[1])\n"
    "        theirs = Drawing.FromString(rd('pb_%d.bin' % i))\n"
    "        if theirs != pb or theirs.WhichOneof('shape') != (m[0] if m else None):\n"
    "            fail('protobuf sample %d: %s' % (i, theirs))\n"
    "        if rd('pb_%d.bin' % i) != pb.SerializeToString():\n"
    "            fail('protobuf sample %d bytes %s, Python %s' % (i, rd('pb_%d.bin' % i).hex(),\n"
    "                 pb.SerializeToString().hex()))\n"
    "        wr('pb_%d_py.bin' % i, pb.SerializeToString())\n"
    "        # proto3 JSON: the flat union is json_format's oneof form.\n"
    "        flat = json_format.Parse(rd('flat_%d.json' % i), Drawing())\n"
    "        if flat != pb: fail('proto3 JSON sample %d: %s' % (i, flat))\n"
    "        if m is None or m[0] != 'code':   # int64 is a JSON string in proto3 JSON\n"
    "            wr('flat_%d_py.json' % i, json_format.MessageToJson(pb).encode())\n"
    "        for fmt, loads, dumps in (\n"
    "                ('json', json.loads, lambda o: json.dumps(o).encode()),\n"
    "                ('cbor', cbor2.loads, cbor2.dumps),\n"
    "                ('mp', lambda b: msgpack.unpackb(b, raw=False), msgpack.packb)):\n"
    "            got = loads(rd('%s_%d.bin' % (fmt, i)))\n"
    "            if got != obj: fail('%s sample %d: %r, want %r' % (fmt, i, got, obj))\n"
    "            wr('%s_%d_py.bin' % (fmt, i), dumps(obj))\n"
    "    scene = {'shapes': [{'label': 'a'}, None, {'rectangle': {'w': 2.5, 'h': 0.0}}]}\n"
    "    for fmt, loads, dumps in (('cbor', cbor2.loads, cbor2.dumps),\n"
    "                              ('mp', lambda b: msgpack.unpackb(b, raw=False), msgpack.packb)):\n"
    "        got = loads(rd('%s_scene.bin' % fmt))\n"
    "        if got != scene: fail('%s scene: %r' % (fmt, got))\n"
    "        wr('%s_scene_py.bin' % fmt, dumps(scene))\n"
    "        wr('%s_two.bin' % fmt, dumps({'shape': {'circle': 1.0, 'label': 'x'}}))\n"
    "        wr('%s_unknown.bin' % fmt, dumps({'shape': {'square': 1.0}}))\n"
    "    # Two members on the wire: Python keeps the last; a message member twice merges.\n"
    "    two = Drawing(circle=3.0).SerializeToString() + Drawing(label='x').SerializeToString()\n"
    "    if Drawing.FromString(two).WhichOneof('shape') != 'label': fail('python last-wins')\n"
    "    wr('pb_two.bin', two)\n"
    "    merge = (Drawing(rectangle=Rect(w=1.0)).SerializeToString() +\n"
    "             Drawing(rectangle=Rect(h=2.0)).SerializeToString())\n"
    "    if Drawing.FromString(merge).rectangle != Rect(w=1.0, h=2.0): fail('python merge')\n"
    "    wr('pb_merge.bin', merge)\n"
    "    wr('pb_code.bin', Drawing(name='n', code=5, layer=1).SerializeToString())\n"
    "else:\n"
    "    # The reader without `code` wrote it back as an unknown field.\n"
    "    back = Drawing.FromString(rd('pb_code_back.bin'))\n"
    "    if back != Drawing(name='n', code=5, layer=1) or back.WhichOneof('shape') != 'code':\n"
    "        fail('unknown member not kept: %s' % back)\n"
    "sys.exit(1 if bad else 0)\n";

static void scene_value(scene *sc, shape items[3])
{
    items[0] = (shape){.which = SHAPE_LABEL, .label = CODEC_STR("a")};
    items[1] = (shape){0};
    items[2] = (shape){.which = SHAPE_RECTANGLE, .rectangle = {2.5, 0}};
    sc->shapes.items = items;
    sc->shapes.count = 3;
}

int main(void)
{
    if (access("/usr/bin/protoc", X_OK) != 0 || access("/usr/bin/python3", X_OK) != 0) {
        printf("test_union_peers: protoc or /usr/bin/python3 missing, skipped\n");
        return 0;
    }
    CHECK(peer_dir_make("codec_union"));
    const char *specs[] = {"protobuf", "json", "cbor", "msgpack"};
    const char *prefix[] = {"pb", "json", "cbor", "mp"};
    codec *c[4];
    codec_error err = {0};
    for (int k = 0; k < 4; k++) {
        c[k] = codec_parse(specs[k], &drawing_type, &err);
        CHECK(c[k] != NULL);
    }
    char name[64];
    for (int i = 0; i < UNION_SAMPLES; i++) {
        drawing d = union_sample(i);
        for (int k = 0; k < 4; k++) {
            snprintf(name, sizeof name, "%s_%d.bin", prefix[k], i);
            encode_to(c[k], &d, name);
        }
    }
    codec *flat = codec_parse("json", &flat_drawing_type, &err);
    CHECK(flat != NULL);
    for (int i = 0; i < UNION_SAMPLES; i++) {
        drawing d = union_sample(i);
        snprintf(name, sizeof name, "flat_%d.json", i);
        encode_to(flat, &d, name);
    }
    codec *cs = codec_parse("cbor", &scene_type, &err), *ms = codec_parse("msgpack", &scene_type, &err);
    CHECK(cs && ms);
    shape items[3];
    scene sc;
    scene_value(&sc, items);
    encode_to(cs, &sc, "cbor_scene.bin");
    encode_to(ms, &sc, "mp_scene.bin");

    write_file("check.py", script, strlen(script));
    CHECK_INT(run("protoc -I " CODEC_TEST_DATA "/protobuf --python_out=%s union.proto", peer_dir), 0);
    CHECK_INT(run("/usr/bin/python3 %s/check.py check %s", peer_dir, peer_dir), 0);

    /* Python's bytes in every format decode to the samples. */
    codec_arena a;
    codec_arena_init(&a, NULL, 0);
    for (int i = 0; i < UNION_SAMPLES; i++) {
        drawing want = union_sample(i);
        for (int k = 0; k < 4; k++) {
            drawing got;
            snprintf(name, sizeof name, "%s_%d_py.bin", prefix[k], i);
            CHECK_INT(decode_from(c[k], name, &got, &a), 0);
            if (!drawings_equal(&got, &want))
                fprintf(stderr, "%s differs from sample %d\n", name, i);
            CHECK(drawings_equal(&got, &want));
        }
    }
    for (int i = 0; i < UNION_SAMPLES - 1; i++) {   /* the last has code: an int64 */
        drawing want = union_sample(i), got;
        snprintf(name, sizeof name, "flat_%d_py.json", i);
        CHECK_INT(decode_from(flat, name, &got, &a), 0);
        CHECK(drawings_equal(&got, &want));
    }
    codec_free(flat);
    const codec *sc_codecs[] = {cs, ms};
    const char *sc_prefix[] = {"cbor", "mp"};
    for (int k = 0; k < 2; k++) {
        scene got;
        snprintf(name, sizeof name, "%s_scene_py.bin", sc_prefix[k]);
        CHECK_INT(decode_from(sc_codecs[k], name, &got, &a), 0);
        CHECK(got.shapes.count == 3);
        for (size_t i = 0; i < 3 && i < got.shapes.count; i++)
            CHECK(shapes_equal(&got.shapes.items[i], &items[i]));
        drawing d;
        snprintf(name, sizeof name, "%s_two.bin", sc_prefix[k]);
        CHECK_INT(decode_from(c[k + 2], name, &d, &a), CODEC_E_INVALID_PAYLOAD);
        snprintf(name, sizeof name, "%s_unknown.bin", sc_prefix[k]);
        CHECK_INT(decode_from(c[k + 2], name, &d, &a), CODEC_E_INVALID_PAYLOAD);
    }

    /* protobuf: last member wins, a message member merges, as in Python. */
    drawing d;
    CHECK_INT(decode_from(c[0], "pb_two.bin", &d, &a), 0);
    CHECK(d.shape.which == SHAPE_LABEL && union_str_eq(d.shape.label, "x"));
    CHECK_INT(decode_from(c[0], "pb_merge.bin", &d, &a), 0);
    CHECK(d.shape.which == SHAPE_RECTANGLE && d.shape.rectangle.w == 1.0 &&
          d.shape.rectangle.h == 2.0);
    /* A reader without `code` keeps it and writes it back. */
    codec *v1 = codec_parse("protobuf", &drawing_v1_type, &err);
    CHECK(v1 != NULL);
    drawing_v1 old;
    CHECK_INT(decode_from(v1, "pb_code.bin", &old, &a), 0);
    CHECK(old.shape.which == 0 && old.unknown.len == 2);
    encode_to(v1, &old, "pb_code_back.bin");
    CHECK_INT(run("/usr/bin/python3 %s/check.py back %s", peer_dir, peer_dir), 0);

    codec_free(v1);
    codec_free(cs);
    codec_free(ms);
    for (int k = 0; k < 4; k++)
        codec_free(c[k]);
    codec_arena_free(&a);
    if (!check_failures)
        run("rm -rf %s", peer_dir);
    return check_done("test_union_peers");
}
