#!/usr/bin/python3
"""check_cli.py CODEC_BENCH WORKDIR — runs the cli suite of codec-bench
(quick profile, 1 MiB inputs) and checks its JSON and Markdown: every row
on every input measured (a row is measured only after codec's output was
read back by codec and by the tool, and the tool's by codec), sizes that
make sense (base64's exactly the tool's, random bytes do not shrink, prose
does), times, CPU and peak RSS present, the ratios computed from the
figures beside them, the -T2/-T1 and stream/one-shot tables. Then a fake
`codec` that copies its input instead of compressing must make its row
fail and codec-bench exit 1."""
import json
import os
import shutil
import stat
import subprocess
import sys

bench, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []
SIZE = 1 << 20


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def close(a, b):
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12)


run = subprocess.run([bench, "--suite", "cli", "--profile", "quick", "--cli-size", "1m",
                      "--out", work], capture_output=True, text=True)
print(run.stderr[-3000:], file=sys.stderr)
check(run.returncode == 0, f"codec-bench exits 0 (got {run.returncode})")
doc = json.load(open(os.path.join(work, "cli.json")))
check(doc["suite"] == "cli" and doc["profile"] == "quick", "suite and profile")
check(doc["input_bytes"] == SIZE, "--cli-size 1m is 1 MiB")
check(os.path.basename(doc["codec_command"]) == "codec", "runs the codec command")
rows = ["zstd-3", "zstd-3-st", "zstd-19-T2", "gzip-6", "lz4", "brotli-q5", "base64"]
cells = {(c["row"], c["payload"]): c for c in doc["cells"]}
check(sorted(cells) == sorted((r, p) for r in rows for p in ["prose", "json", "random"]),
      "a cell per row and input")
for (row, payload), c in sorted(cells.items()):
    name = f"{row}/{payload}"
    check(c["status"] == "ok", f"{name}: measured ({c.get('reason')})")
    if c["status"] != "ok":
        continue
    check(c["codec_bytes"] > 0 and c["tool_bytes"] > 0, f"{name}: output sizes")
    if row == "base64":
        lines = (4 * ((SIZE + 2) // 3) + 75) // 76
        check(c["codec_bytes"] == c["tool_bytes"] == 4 * ((SIZE + 2) // 3) + lines,
              f"{name}: base64 with 76-column lines, as the tool writes it")
    elif payload == "random":
        check(c["codec_bytes"] >= SIZE and c["tool_bytes"] >= SIZE,
              f"{name}: random bytes do not shrink")
    else:
        check(c["codec_bytes"] < SIZE / 2 and c["tool_bytes"] < SIZE / 2,
              f"{name}: {payload} compresses")
    if row in ("zstd-3", "lz4"):
        check(c["codec_bytes"] == c["tool_bytes"], f"{name}: the same settings give the tool's bytes")
    if row == "zstd-3-st":  # libzstd fed in other pieces: a few bytes apart at most
        check(abs(c["codec_bytes"] - c["tool_bytes"]) <= 8, f"{name}: the tool's size")
    check(c["codec_threads"] == (2 if row == "zstd-19-T2" else 1), f"{name}: -T")
    for direction in ["compress", "decompress"]:
        d = c[direction]
        for who in ["codec", "tool"]:
            p = d[who]
            check(p["wall_s"] > 0 and p["cpu_s"] >= 0, f"{name} {direction} {who}: times")
            check(close(p["cpu_s"], p["user_s"] + p["sys_s"]), f"{name}: cpu = user + sys")
            check(p["max_rss_kib"] > 100, f"{name} {direction} {who}: peak RSS measured")
            check(close(p["mib_per_s"], SIZE / 1048576 / p["wall_s"]), f"{name}: MiB/s")
        check(close(d["throughput_ratio"], d["tool"]["wall_s"] / d["codec"]["wall_s"]),
              f"{name} {direction}: throughput ratio = tool wall / codec wall")
        check(close(d["rss_ratio"], d["codec"]["max_rss_kib"] / d["tool"]["max_rss_kib"]),
              f"{name} {direction}: RSS ratio")
t = doc.get("threads", {})
check(t.get("status") == "ok", f"threads cell measured ({t.get('reason')})")
if t.get("status") == "ok":
    check(close(t["speedup"], t["t1"]["wall_s"] / t["t2"]["wall_s"]), "speed-up = T1 / T2")
    check(t["target"] == 1.7, "target 1.7x")
streams = {s["spec"]: s for s in doc["stream"]}
check(sorted(streams) == sorted(["zstd:3", "gzip:6", "lz4", "brotli:5", "base64"]),
      "the stream/one-shot specs")
for spec, s in streams.items():
    check(s["status"] == "ok", f"stream {spec}: measured ({s.get('reason')})")
    if s["status"] != "ok":
        continue
    check(s["input_bytes"] == 1 << 20, f"stream {spec}: 1 MiB")
    for way in ["encode", "decode"]:
        w = s[way]
        check(w["oneshot_s"] > 0 and w["stream_s"] > 0, f"stream {spec} {way}: times")
        check(close(w["stream_vs_oneshot"], w["stream_s"] / w["oneshot_s"]),
              f"stream {spec} {way}: ratio")
md = open(os.path.join(work, "cli.md")).read()
check(md.startswith("# codec-bench cli suite\n\n**Machine:**"), "Markdown heading and machine")
check("| `zstd -19 -T2` | json | decompress |" in md, "a row per cell and direction")
check("| `brotli -q 5 -w 22` | random | compress |" in md, "brotli row names its window")
check("## `codec pack -T2` against `-T1`" in md and "speed-up -T2/-T1:" in md, "threads table")
check("| `gzip:6` |" in md, "stream table")

# A `codec` that copies instead of compressing: its row must fail, untimed.
fake = os.path.join(work, "fake-codec")
with open(fake, "w") as f:
    f.write('#!/bin/sh\nfor a; do last=$a; done\nexec cat "$last"\n')
os.chmod(fake, stat.S_IRWXU)
env = dict(os.environ, CODEC_BENCH_CLI=fake)
bad = subprocess.run([bench, "--suite", "cli", "--profile", "quick", "--cli-size", "64k",
                      "--filter", "cli/gzip-6/prose", "--out", os.path.join(work, "fake")],
                     capture_output=True, text=True, env=env)
check(bad.returncode == 1, f"a broken codec makes codec-bench exit 1 (got {bad.returncode})")
bdoc = json.load(open(os.path.join(work, "fake", "cli.json")))
check([(c["row"], c["payload"], c["status"]) for c in bdoc["cells"]] ==
      [("gzip-6", "prose", "failed")], "the broken row is failed")
check("compress" not in bdoc["cells"][0], "a failed row is not timed")
check("read back" in bdoc["cells"][0].get("reason", "") or
      "decode" in bdoc["cells"][0].get("reason", ""), "the reason names the failed check")
if failures:
    sys.exit(1)
print("check_cli: ok")
