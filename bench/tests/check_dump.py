#!/usr/bin/python3
"""check_dump.py CODEC_BENCH PROTOC PROTO_DIR WORKDIR — `codec-bench --dump`
writes every typed payload in every backend, and peers no one here wrote
read them back as the payload's JSON: cbor2 and msgpack (Debian's Python
modules) for CBOR and MessagePack, Google protobuf (protoc --python_out
and python3-protobuf) for protobuf. Fory has no Debian peer: its files
must exist and be non-empty."""
import glob
import json
import os
import shutil
import subprocess
import sys

bench, protoc, proto_dir, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
dump = os.path.join(work, "dump")
gen = os.path.join(work, "pb2")
os.makedirs(gen)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


out = subprocess.run([bench, "--dump", dump], check=True, capture_output=True, text=True)
written = {os.path.basename(line.split("\t")[0]) for line in out.stdout.splitlines()}
for f in written:
    check(os.path.getsize(os.path.join(dump, f)) > 0, f"{f} is not empty")

# Every typed payload (a .json with a model) has its CBOR, MessagePack and
# Fory files; the examples by name.
for f in ["person.pb", "person.cbor", "person.msgpack", "person.fory", "order.pb",
          "order.cbor", "order.msgpack", "order.fory", "media-content.pb", "twitter-typed.pb"]:
    check(f in written, f"--dump wrote {f}")
typed = [f[:-len(".cbor")] for f in written if f.endswith(".cbor")]
check(len(typed) >= 20, f"{len(typed)} typed payloads dumped")
for base in typed:
    for ext in ("msgpack", "fory"):
        if not (base.startswith("clients-") and ext == "fory"):  # uuid: no Fory mapping
            check(f"{base}.{ext}" in written, f"--dump wrote {base}.{ext}")

import cbor2  # noqa: E402
import msgpack  # noqa: E402


def load(name, mode="rb"):
    with open(os.path.join(dump, name), mode) as f:
        return f.read()


# Payloads whose values are plain JSON types (no uuid, timestamp or decimal,
# which CBOR tags and MessagePack extensions carry differently).
for base in ["person", "order", "kv-bean", "kv-nested", "kv-strings", "struct", "twitter",
             "citm_catalog", "canada"]:
    want = json.loads(load(base + ".json"))
    check(cbor2.loads(load(base + ".cbor")) == want, f"cbor2 reads {base}.cbor as {base}.json")
    check(msgpack.unpackb(load(base + ".msgpack"), raw=False, strict_map_key=False) == want,
          f"msgpack reads {base}.msgpack as {base}.json")

subprocess.run([protoc, "-I", proto_dir, "--python_out", gen,
                os.path.join(proto_dir, "person.proto"), os.path.join(proto_dir, "order.proto")],
               check=True)
sys.path.insert(0, gen)
import order_pb2  # noqa: E402
import person_pb2  # noqa: E402
from google.protobuf import json_format  # noqa: E402

for base, message in [("person", person_pb2.Person), ("order", order_pb2.Order)]:
    want = json_format.Parse(load(base + ".json", "r"), message())
    got = message()
    got.ParseFromString(load(base + ".pb"))
    check(got == want, f"protobuf reads {base}.pb as {base}.json")

print("check_dump:", "FAILED" if failures else "ok", len(failures), "failures")
sys.exit(1 if failures else 0)
