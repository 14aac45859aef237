#!/usr/bin/python3
"""check_kafka.py CODEC_BENCH WORKDIR — runs the kafka suite of codec-bench
(librdkafka's mock cluster, quick profile) on the two json cells and checks
its JSON and Markdown: both cells measured (a cell is measured only after
every message consumed back decoded and its first value rendered to the
payload's JSON), the bytes per message are the encodings' (zstd smaller
than plain JSON, the header holds the spec), rates positive, and the
ratios are to the plain json cell. Exits 77 (skipped) when codec was
built without librdkafka."""
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


run = subprocess.run([bench, "--suite", "kafka", "--profile", "quick", "--filter", "kafka/json*",
                      "--out", work], capture_output=True, text=True)
doc = json.load(open(os.path.join(work, "kafka.json")))
if doc["status"] == "not built":
    print("skipped: " + doc.get("reason", ""))
    sys.exit(77)
print(run.stderr[-2000:], file=sys.stderr)
check(run.returncode == 0, f"codec-bench exits 0 (got {run.returncode})")
check(doc["suite"] == "kafka" and doc["status"] == "ok", "the suite ran")
check("mock cluster" in doc["broker"], "the report says the broker is librdkafka's mock")
check(doc["shape"] == "order" and doc["messages"] == 1000, "1000 typed orders per repetition")
cells = {c["pipeline"]: c for c in doc["cells"]}
check(sorted(cells) == ["json", "json|zstd:3"], "the filter kept the two json cells")
for name, c in cells.items():
    check(c["status"] == "ok", f"{name}: measured ({c.get('reason')})")
    if c["status"] != "ok":
        continue
    check(c["produce_msgs_per_s"] > 0 and c["consume_msgs_per_s"] > 0, f"{name}: rates")
    check(c["header_bytes"] == len("codec-spec") + len(c["spec"]), f"{name}: header = spec")
if all(c["status"] == "ok" for c in cells.values()) and len(cells) == 2:
    plain, zstd = cells["json"], cells["json|zstd:3"]
    check(plain["value_bytes"] == 9096, "plain json is the payload's 9,096 bytes")
    check(zstd["value_bytes"] < plain["value_bytes"] / 3, "zstd:3 shrinks the order")
    check(plain["produce_vs_json"] == 1.0 and plain["consume_vs_json"] == 1.0,
          "json is the ratios' base")
    check(abs(zstd["bytes_vs_json"] - zstd["value_bytes"] / plain["value_bytes"]) < 1e-9,
          "bytes ratio")
    check(abs(zstd["consume_vs_json"] * plain["consume_msgs_per_s"]
              - zstd["consume_msgs_per_s"]) < 1e-6 * zstd["consume_msgs_per_s"], "consume ratio")
md = open(os.path.join(work, "kafka.md")).read()
check("**Broker:** librdkafka's mock cluster" in md, "the Markdown names the broker")
check("| `json` | 9096 |" in md and "| `json \\| zstd:3` |" in md, "a row per cell")
if failures:
    sys.exit(1)
print("check_kafka: ok")
