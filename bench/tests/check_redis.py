#!/usr/bin/python3
"""check_redis.py CODEC_BENCH WORKDIR — runs the redis suite of codec-bench on
one bytes shape and on one typed shape through one backend (quick profile)
and checks its JSON: every pipeline's cell is there and measured (a typed
cell is measured only after its value read back renders to the payload's
JSON), MEMORY USAGE is positive, percentiles are ordered, batches ran, and
the cheapest pipeline named is the one with the least memory. Exits 77
(skipped) when the suite reports redis-server missing."""
import json
import os
import shutil
import subprocess
import sys

bench, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


PIPELINES = ["none", "lz4", "zstd:3", "zstd:3+dict", "envelope", "lz4|envelope",
             "zstd:3|envelope", "zstd:3+dict|envelope"]

run = subprocess.run([bench, "--suite", "redis", "--profile", "quick", "--filter", "redis/*/small",
                      "--out", work], capture_output=True, text=True)
print(run.stderr, file=sys.stderr)
doc = json.load(open(os.path.join(work, "redis.json")))
if doc["status"] == "not built" and "redis-server not found" in doc.get("reason", ""):
    print("skipped: redis-server not found")
    sys.exit(77)
check(run.returncode == 0, f"codec-bench exits 0 (got {run.returncode})")
check(doc["suite"] == "redis" and doc["status"] == "ok", "the suite ran")
check([s["shape"] for s in doc["shapes"]] == ["small"], "the filter kept one shape")
shape = doc["shapes"][0]
cells = shape["cells"]
check([c["pipeline"] for c in cells] == PIPELINES, "a cell per pipeline")
# --list names the same cells, ready, with the same filter; unfiltered it
# lists the suite's every shape (bytes shapes and typed shapes per backend).
listing = subprocess.run([bench, "--list", "--suite", "redis", "--filter", "redis/*/small"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
check(listing == [f"redis/{p}/small\tready (redis suite)" for p in PIPELINES],
      "--list shows the run's cells")
every = subprocess.run([bench, "--list", "--suite", "redis"], check=True, capture_output=True,
                       text=True).stdout.splitlines()
check(len(every) == len(set(every)) and "redis/msgpack|zstd:3/order\tready (redis suite)" in every,
      "--list shows every cell of the suite once, typed cells too")
for c in cells:
    name = c["pipeline"]
    check(c["status"] == "ok", f"{name}: measured ({c.get('reason')})")
    if c["status"] != "ok":
        continue
    check(c["memory_usage"] > 0, f"{name}: MEMORY USAGE positive")
    check(c["memory_usage"] >= c["stored_bytes"] > 0, f"{name}: memory covers the stored bytes")
    check(0 < c["set_p50_us"] <= c["set_p99_us"], f"{name}: set p50 <= p99")
    check(0 < c["get_p50_us"] <= c["get_p99_us"], f"{name}: get p50 <= p99")
    check(c["batch_items"] == 1000, f"{name}: 1000-item batches of a small value")
    check(c["batch_set_items_per_s"] > 0 and c["batch_get_items_per_s"] > 0, f"{name}: batch rates")
by = {c["pipeline"]: c for c in cells if c["status"] == "ok"}
check(by["none"]["stored_bytes"] == 104, "none stores the 104 raw bytes")
check(by["envelope"]["stored_bytes"] > by["none"]["stored_bytes"], "envelope adds bytes")
plain = [c for c in by.values() if "envelope" not in c["pipeline"]]
least = min(plain, key=lambda c: (c["memory_usage"], c["stored_bytes"]))
check(shape["cheapest"] == least["pipeline"], "cheapest names the pipeline with least memory")
md = open(os.path.join(work, "redis.md")).read()
check("Cheapest in memory for small: **" in md, "the report names the cheapest pipeline")

# A typed shape through one backend: the backend alone, then each pipeline.
typed_work = os.path.join(work, "typed")
run = subprocess.run([bench, "--suite", "redis", "--profile", "quick", "--filter",
                      "redis/protobuf*/kv-bean", "--out", typed_work], capture_output=True, text=True)
print(run.stderr, file=sys.stderr)
check(run.returncode == 0, f"typed: codec-bench exits 0 (got {run.returncode})")
doc = json.load(open(os.path.join(typed_work, "redis.json")))
check([(s["shape"], s["backend"]) for s in doc["shapes"]] == [("kv-bean", "protobuf")],
      "typed: the filter kept kv-bean through protobuf")
shape = doc["shapes"][0]
names = ["protobuf" if p == "none" else "protobuf|" + p for p in PIPELINES]
check([c["pipeline"] for c in shape["cells"]] == names, "typed: a cell per pipeline")
for c in shape["cells"]:
    check(c["status"] == "ok", f"typed {c['pipeline']}: measured ({c.get('reason')})")
by = {c["pipeline"]: c for c in shape["cells"] if c["status"] == "ok"}
check(by["protobuf"]["stored_bytes"] < shape["value_bytes"], "typed: protobuf is smaller than JSON")
check(by["protobuf|zstd:3+dict"]["stored_bytes"] < by["protobuf|zstd:3"]["stored_bytes"],
      "typed: the held-out dictionary helps a 100-byte bean")
typed = doc["typed_cheapest"]
check([t["shape"] for t in typed] == ["kv-bean"], "typed: one cheapest line per typed shape")
plain = [c for c in by.values() if "envelope" not in c["pipeline"]]
least = min(plain, key=lambda c: (c["memory_usage"], c["stored_bytes"]))
check(typed[0]["cheapest"]["pipeline"] == least["pipeline"], "typed: cheapest is the least memory")
check(typed[0]["cheapest_json"] is None, "typed: no JSON cell ran, so no cheapest JSON")
md = open(os.path.join(typed_work, "redis.md")).read()
check("## Cheapest per typed shape, across backends" in md, "typed: the summary table")
sys.exit(1 if failures else 0)
