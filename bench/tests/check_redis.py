#!/usr/bin/python3
"""check_redis.py CODEC_BENCH WORKDIR — runs the redis suite of codec-bench on
one bytes shape and on one typed shape through one backend (quick profile)
and checks its JSON: every pipeline's cell is there and measured (a typed
cell is measured only after its value read back renders to the payload's
JSON), MEMORY USAGE is positive, percentiles are ordered, batches ran, and
the cheapest pipeline named is the one with the least memory. Then the
scale-out cells (filter redis-*): batches on the 3-master cluster against one
node, measured and verified, with their ratios; near-cache get latency, every
timed get a hit, against a round trip. Exits 77 (skipped) when the suite
reports redis-server missing."""
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

# The scale-out cells: cluster batches (they start the 6-node cluster) and
# the near cache, with the ids --list gives them.
scale_work = os.path.join(work, "scale")
run = subprocess.run([bench, "--suite", "redis", "--profile", "quick", "--filter", "redis-*",
                      "--out", scale_work], capture_output=True, text=True)
print(run.stderr, file=sys.stderr)
check(run.returncode == 0, f"scale-out: codec-bench exits 0 (got {run.returncode})")
doc = json.load(open(os.path.join(scale_work, "redis.json")))
check(doc["shapes"] == [], "scale-out: the filter left the pipeline cells out")
IDS = ["redis-cluster/batch/small", "redis-cluster/batch/medium", "redis-near/get/small",
       "redis-near/get/medium"]
check([c["id"] for c in doc["cluster_batches"] + doc["near_cache"]] == IDS,
      "scale-out: a cluster and a near-cache cell per shape")
listing = subprocess.run([bench, "--list", "--suite", "redis", "--filter", "redis-*"],
                         check=True, capture_output=True, text=True).stdout.splitlines()
check(listing == [f"{i}\tready (redis suite)" for i in IDS], "scale-out: --list shows them")
for c in doc["cluster_batches"]:
    name = c["id"]
    check(c["status"] == "ok", f"{name}: measured ({c.get('reason')})")
    if c["status"] != "ok":
        continue
    check(c["masters"] == 3 and c["batch_items"] >= 1000, f"{name}: 3 masters, big batches")
    for what in ("set", "get"):
        one, clu = c[f"one_node_{what}_items_per_s"], c[f"cluster_{what}_items_per_s"]
        check(one > 0 and clu > 0, f"{name}: {what} rates")
        check(abs(c[f"{what}_ratio"] - clu / one) < 1e-6 * c[f"{what}_ratio"] + 1e-9,
              f"{name}: {what} ratio is cluster / one node")
for c in doc["near_cache"]:
    name = c["id"]
    check(c["status"] == "ok", f"{name}: measured ({c.get('reason')})")
    if c["status"] != "ok":
        continue
    check(c["hits"] >= 200, f"{name}: every timed get was a near-cache hit")
    check(0 < c["hit_p50_us"] <= c["hit_p99_us"], f"{name}: hit p50 <= p99")
    check(0 < c["round_trip_p50_us"] <= c["round_trip_p99_us"], f"{name}: round trip p50 <= p99")
    check(c["hit_p50_us"] < c["round_trip_p50_us"], f"{name}: a hit is faster than a round trip")
md = open(os.path.join(scale_work, "redis.md")).read()
check("## Batches on a 3-master cluster against one node" in md and
      "## get: near-cache hit against a round trip" in md, "scale-out: both tables")
sys.exit(1 if failures else 0)
