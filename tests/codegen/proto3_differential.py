#!/usr/bin/python3
"""Differential test of codec-gen's code for Google's conformance schema
(test_messages_proto3.proto) against Google's protobuf for Python (Debian's
python3-protobuf, its C++ implementation).

    proto3_differential.py ROUNDTRIP_BINARY PROTO_DIR [COUNT]

1. COUNT (default 10000) random TestAllTypesProto3 messages: every field of
   every message type reachable (scalars, repeated packed and unpacked, maps
   of every key kind, the oneof, well-known types), unknown fields 501-510 of
   every wire type, NaN and -0.0, extreme varints, open enum numbers no enum
   names, recursion chains up to depth 90. Python serializes each
   deterministically; codec decodes and re-encodes it (ROUNDTRIP_BINARY);
   the bytes must be identical, and Python must parse codec's bytes back to
   a message whose deterministic serialization is the original bytes.
2. Malformed input in the categories of Google's conformance suite; codec
   must reject each with invalid-payload and an offset inside the input.
   Python must reject it too (so the case is really malformed), except the
   few that Python 3.21's parser lets through (LENIENT: field number 0 or
   2^29, bits beyond 64 in a varint, a stray end-group, a group for a known
   field), which the proto spec forbids and codec refuses.
   Truncations at every byte of a message holding one field of each kind:
   codec accepts exactly the prefixes Python accepts (a cut between two
   records of a repeated field is a valid message), and rejects the others
   with invalid-payload and an offset.
Exit status 0 only when every check passed."""

import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from google.protobuf.descriptor import FieldDescriptor as FD

INVALID_PAYLOAD = 1
LENIENT = {"varint over 64 bits", "field number 0", "field number 0, len", "field number 2^29",
           "unmatched end group", "group for a known field"}
MAX_DEPTH = 90          # below both parsers' limit of 100

# ---------------------------------------------------------------------------
# Random values

INT32 = [0, 1, -1, 2**31 - 1, -2**31, 127, 128, -128, 300]
INT64 = [0, 1, -1, 2**63 - 1, -2**63, 2**31, -2**31 - 1, 2**35]
UINT32 = [0, 1, 2**32 - 1, 2**31, 127, 128, 16383, 16384]
UINT64 = [0, 1, 2**64 - 1, 2**63, 2**32, 2**56 - 1]
FLOATS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.5, -2.25, 1e-45, 3.4e38, 1e-300,
          1.7976931348623157e308, 5e-324]


def rand_int(rng, choices, lo, hi):
    return rng.choice(choices) if rng.random() < 0.5 else rng.randint(lo, hi)


def rand_text(rng):
    alphabet = "abcXYZ 019_-\u00e9\u00df\u4e2d\u6587\U0001f600\u0000\u007f\u0080\u07ff\u0800\uffff"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))


def scalar(rng, f):
    t = f.type
    if t in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32):
        return rand_int(rng, INT32, -2**31, 2**31 - 1)
    if t in (FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
        return rand_int(rng, INT64, -2**63, 2**63 - 1)
    if t in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
        return rand_int(rng, UINT32, 0, 2**32 - 1)
    if t in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
        return rand_int(rng, UINT64, 0, 2**64 - 1)
    if t in (FD.TYPE_DOUBLE, FD.TYPE_FLOAT):
        v = rng.choice(FLOATS) if rng.random() < 0.5 else rng.uniform(-1e6, 1e6)
        if t == FD.TYPE_FLOAT and math.isfinite(v) and abs(v) > 3.4e38:
            v = 1.0
        return v
    if t == FD.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FD.TYPE_STRING:
        return rand_text(rng)
    if t == FD.TYPE_BYTES:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
    if t == FD.TYPE_ENUM:
        named = [v.number for v in f.enum_type.values]
        # Open enums: numbers without a name, negative ones too, are kept.
        return rng.choice(named) if rng.random() < 0.7 else rand_int(rng, INT32, -2**31, 2**31 - 1)
    raise AssertionError(t)


def fill(rng, m, depth):
    """Sets a random subset of m's fields (every field has a fair chance)."""
    desc = m.DESCRIPTOR
    p = 0.25 if depth == 0 else 0.3 / (1 + depth)
    oneof_done = set()
    for f in desc.fields:
        if rng.random() > p:
            continue
        if f.containing_oneof is not None and not f.containing_oneof.name.startswith("_"):
            if f.containing_oneof.name in oneof_done:
                continue
            oneof_done.add(f.containing_oneof.name)
        if f.message_type is not None and f.message_type.GetOptions().map_entry:
            kf, vf = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
            target = getattr(m, f.name)
            for _ in range(rng.randint(1, 3)):
                k = scalar(rng, kf)
                if vf.message_type is not None:
                    if depth < 3:
                        fill(rng, target[k], depth + 1)
                    else:
                        target[k].SetInParent()
                else:
                    target[k] = scalar(rng, vf)
        elif f.label == FD.LABEL_REPEATED:
            target = getattr(m, f.name)
            for _ in range(rng.randint(1, 3)):
                if f.message_type is not None:
                    item = target.add()
                    if depth < 3:
                        fill(rng, item, depth + 1)
                else:
                    target.append(scalar(rng, f))
        elif f.message_type is not None:
            sub = getattr(m, f.name)
            sub.SetInParent()
            if depth < 3:
                fill(rng, sub, depth + 1)
        else:
            setattr(m, f.name, scalar(rng, f))


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def key(number, wire):
    return varint(number << 3 | wire)


def unknown_fields(rng):
    out = b""
    for _ in range(rng.randint(1, 4)):
        n = rng.randint(501, 510)
        w = rng.choice([0, 1, 2, 5])
        if w == 0:
            out += key(n, 0) + varint(rng.choice(UINT64))
        elif w == 1:
            out += key(n, 1) + bytes(rng.randrange(256) for _ in range(8))
        elif w == 5:
            out += key(n, 5) + bytes(rng.randrange(256) for _ in range(4))
        else:
            body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 9)))
            out += key(n, 2) + varint(len(body)) + body
    return out


def make_cases(pb, count, seed):
    rng = random.Random(seed)
    T = pb.TestAllTypesProto3
    cases, seen = [], set()
    for i in range(count):
        m = T()
        fill(rng, m, 0)
        seen.update(f.name for f, _ in m.ListFields())
        if i % 10 == 0:   # a recursion chain through recursive_message and corecursive
            cur = m
            for d in range(rng.randint(1, MAX_DEPTH // 2)):
                if d % 2:
                    cur = cur.recursive_message
                else:
                    cur = cur.optional_nested_message.corecursive
                cur.optional_int32 = d
        data = m.SerializeToString(deterministic=True)
        if rng.random() < 0.5:
            data += unknown_fields(rng)
        canon = T.FromString(data).SerializeToString(deterministic=True)
        cases.append(canon)
    never = [f.name for f in T.DESCRIPTOR.fields if f.name not in seen]
    return cases, never

# ---------------------------------------------------------------------------
# Malformed input


def malformed_cases(pb):
    """(category, bytes) that Google's parser must reject too."""
    T = pb.TestAllTypesProto3
    rng = random.Random(7)
    cases = []
    # Premature end inside every field kind: a message with one field set,
    # cut at every position inside it.
    for f in T.DESCRIPTOR.fields:
        m = T()
        for _ in range(30):   # find a value whose encoding is not empty
            m.Clear()
            fill_one(rng, m, f)
            if m.ByteSize():
                break
        data = m.SerializeToString(deterministic=True)
        for cut in range(1, len(data)):
            cases.append(("truncated " + f.name, data[:cut]))
    for wt in (6, 7):
        for n in (1, 14, 18, 501):
            cases.append(("wire type %d" % wt, key(n, wt) + b"\x00" * 8))
    over = b"\xff" * 10 + b"\x01"   # 11 bytes
    cases.append(("overlong varint value", key(1, 0) + over))
    cases.append(("overlong varint key", over + b"\x00"))
    cases.append(("varint over 64 bits", key(1, 0) + b"\xff" * 9 + b"\x02"))
    cases.append(("length past end", key(14, 2) + varint(10) + b"abc"))
    cases.append(("length past end, nested", key(18, 2) + varint(3) + key(1, 2) + varint(5) + b"x"))
    cases.append(("length past end, huge", key(14, 2) + varint(2**62) + b"abc"))
    cases.append(("field number 0", b"\x00\x01"))
    cases.append(("field number 0, len", b"\x02\x00"))
    cases.append(("field number 2^29", key(2**29, 0) + b"\x01"))
    cases.append(("field number 2^32", varint((2**32) << 3) + b"\x01"))
    for name, n in (("optional_string", 14), ("repeated_string", 44), ("oneof_string", 113)):
        for bad in (b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"ab\xe2\x82"):
            cases.append(("invalid utf-8 in " + name, key(n, 2) + varint(len(bad)) + bad))
    bad = b"\xc3\x28"
    entry = key(1, 2) + varint(len(bad)) + bad + key(2, 2) + varint(1) + b"x"
    cases.append(("invalid utf-8 in a map key", key(69, 2) + varint(len(entry)) + entry))
    cases.append(("unmatched end group", key(501, 4)))
    cases.append(("unmatched start group", key(501, 3) + key(1, 0) + b"\x01"))
    cases.append(("end group of another number", key(501, 3) + key(502, 4)))
    cases.append(("group for a known field", key(1, 3) + key(1, 4)))
    # Recursion at the depth limit (100 for both parsers): codec accepts
    # exactly the depths Python accepts.
    for depth in range(95, 103):
        body = key(1, 0) + b"\x07"
        for _ in range(depth):
            body = key(27, 2) + varint(len(body)) + body
        cases.append(("depth %d" % depth, body))
    # Nesting bombs: recursive_message (27) nested past the depth limits.
    for depth in (101, 150, 1000, 100000):
        body = b""
        for _ in range(depth):
            body = key(27, 2) + varint(len(body)) + body
        cases.append(("nesting depth %d" % depth, body))
    return cases


def fill_one(rng, m, f):
    """Sets field f of m to a random non-default value."""
    if f.message_type is not None and f.message_type.GetOptions().map_entry:
        kf, vf = f.message_type.fields_by_name["key"], f.message_type.fields_by_name["value"]
        k = scalar(rng, kf)
        if vf.message_type is not None:
            getattr(m, f.name)[k].SetInParent()
        else:
            getattr(m, f.name)[k] = scalar(rng, vf)
    elif f.label == FD.LABEL_REPEATED:
        if f.message_type is not None:
            fill(rng, getattr(m, f.name).add(), 3)
        else:
            getattr(m, f.name).extend([scalar(rng, f), scalar(rng, f)])
    elif f.message_type is not None:
        getattr(m, f.name).SetInParent()
        fill(rng, getattr(m, f.name), 3)
    else:
        setattr(m, f.name, scalar(rng, f))

# ---------------------------------------------------------------------------


def run_codec(binary, inputs, tmp):
    src, dst = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
    with open(src, "wb") as f:
        for data in inputs:
            f.write(struct.pack("<I", len(data)) + data)
    subprocess.run([binary, src, dst], check=True)
    out = open(dst, "rb").read()
    results, p = [], 0
    while p < len(out):
        if out[p] == 0:
            (n,) = struct.unpack_from("<I", out, p + 1)
            results.append(("ok", out[p + 5:p + 5 + n]))
            p += 5 + n
        else:
            fam, det, off, n = struct.unpack_from("<IIQI", out, p + 1)
            msg = out[p + 21:p + 21 + n].decode()
            results.append(("err", (fam, det, off, msg)))
            p += 21 + n
    assert len(results) == len(inputs), (len(results), len(inputs))
    return results


def python_accepts(T, data):
    try:
        T.FromString(data)
        return True
    except Exception:
        return False


def main():
    binary, proto_dir = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["protoc", "-I" + proto_dir, "-I/usr/include", "--python_out=" + tmp,
                        os.path.join(proto_dir, "test_messages_proto3.proto")], check=True)
        sys.path.insert(0, tmp)
        import test_messages_proto3_pb2 as pb
        T = pb.TestAllTypesProto3
        failures = 0

        cases, never = make_cases(pb, count, 2026)
        if never and count >= 1000:
            failures += 1
            print("fields never set in %d messages: %s" % (count, never))
        results = run_codec(binary, cases, tmp)
        identical = 0
        for i, (data, (status, got)) in enumerate(zip(cases, results)):
            if status != "ok":
                failures += 1
                if failures < 10:
                    print("case %d: codec rejected a valid message: %s" % (i, got))
                continue
            back = T.FromString(got).SerializeToString(deterministic=True)
            if back != data:
                failures += 1
                if failures < 10:
                    print("case %d: Python reads codec's bytes as a different message" % i)
            if got == data:
                identical += 1
            else:
                failures += 1
                if failures < 10:
                    print("case %d: bytes differ from Python's deterministic form\n  py:    %s\n"
                          "  codec: %s" % (i, data.hex(), got.hex()))
        total_bytes = sum(len(c) for c in cases)
        print("random messages: %d (%d bytes, all %d fields of TestAllTypesProto3 set in some), "
              "byte-identical round trips: %d"
              % (len(cases), total_bytes, len(T.DESCRIPTOR.fields), identical))

        bad = malformed_cases(pb)
        results = run_codec(binary, [b for _, b in bad], tmp)
        categories = {}
        lenient = 0
        for (cat, data), (status, got) in zip(bad, results):
            base = cat.split(" ")[0]
            categories[base] = categories.get(base, 0) + 1
            py_ok = python_accepts(T, data)
            if base in ("truncated", "depth") and py_ok:
                if status != "ok":
                    failures += 1
                    print("'%s' prefix %s: Python accepts, codec rejects: %s"
                          % (cat, data.hex(), got))
                elif got != T.FromString(data).SerializeToString(deterministic=True):
                    failures += 1
                    print("'%s' prefix %s read differently" % (cat, data.hex()))
                continue
            if py_ok and cat in LENIENT:
                lenient += 1
            elif py_ok:
                failures += 1
                print("malformed case '%s' is accepted by Python: not malformed" % cat)
                continue
            if status == "ok":
                failures += 1
                print("malformed case '%s' (%s) accepted by codec" % (cat, data[:40].hex()))
                continue
            fam, det, off, msg = got
            if fam != INVALID_PAYLOAD or off > len(data):
                failures += 1
                print("malformed case '%s': family %d offset %d (%s)" % (cat, fam, off, msg))
        print("malformed inputs: %d %s; codec rejected all with an offset (%d that Python "
              "3.21 lets through)" % (len(bad), sorted(categories.items()), lenient))
        print("FAILURES: %d" % failures if failures else "all checks passed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
