#!/usr/bin/python3
"""check_outputs.py CODEC_BENCH WORKDIR — runs codec-bench briefly and checks
that its JSON and CSV parse and carry every listed cell, that the report and
its SVG charts render (the json suite's decode-only cells too), and that
--dump writes the payloads of PAYLOADS.md."""
import csv
import glob
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

bench, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def listed(args):
    out = subprocess.run([bench, "--list"] + args, check=True, capture_output=True, text=True)
    return [line.split("\t")[0] for line in out.stdout.splitlines() if line.strip()]


def run(name, args):
    out_dir = os.path.join(work, name)
    subprocess.run([bench, "--profile", "quick", "--out", out_dir] + args, check=True)
    ids = listed(args)
    check(len(ids) > 0, f"{name}: --list shows cells")
    check(len(set(ids)) == len(ids), f"{name}: cell ids are distinct")
    [jpath] = glob.glob(os.path.join(out_dir, "*.json"))
    [cpath] = glob.glob(os.path.join(out_dir, "*.csv"))
    doc = json.load(open(jpath))
    cells = doc["cells"]
    check([c["id"] for c in cells] == ids, f"{name}: JSON carries every listed cell")
    for key in ("cpu", "cores", "compiler", "libraries", "date", "seed"):
        check(key in doc["machine"], f"{name}: machine.{key}")
    check(doc["machine"]["seed"] == 20260811, f"{name}: seed")
    rows = list(csv.DictReader(open(cpath, newline="")))
    check([r["id"] for r in rows] == ids, f"{name}: CSV carries every listed cell")
    for c, r in zip(cells, rows):
        check(c["status"] in ("ok", "failed", "not built"), f"{c['id']}: status")
        check(r["status"] == c["status"], f"{c['id']}: CSV status matches JSON")
        if c["status"] == "ok" and c["cold"] is None:
            enc, dec = c["encode"], c["decode"]
            # decode-only cells (the json suite's validators and twitter
            # databind) time no encode
            decode_only = c["group"] == "validate" or c["id"].endswith("/twitter-typed")
            check((enc is None) == decode_only, f"{c['id']}: encode timed unless decode-only")
            for s in (dec,) if decode_only else (enc, dec):
                check(s["ops_s_min"] <= s["ops_s"] <= s["ops_s_max"], f"{c['id']}: median in range")
                check(abs(s["mb_s"] - s["ops_s"] * c["payload_bytes"] / 1e6) < 1e-6 * s["mb_s"] + 1e-9,
                      f"{c['id']}: MB/s on the uncompressed size")
            most = doc["profile"]["measured_iterations"] * max(1, doc["profile"]["forks"])
            check(1 <= len(dec["samples"]) <= most, f"{c['id']}: one sample per measured iteration")
            check(float(r["dec_ops_s"]) > 0 and int(float(r["encoded_bytes"])) == c["encoded_bytes"],
                  f"{c['id']}: CSV figures")
            check((r["enc_ops_s"] == "") == decode_only, f"{c['id']}: CSV encode figures")
        elif c["status"] != "ok":
            check(c["encode"] is None and r["enc_ops_s"] == "", f"{c['id']}: unmeasured has no figures")
            check(c["reason"] != "", f"{c['id']}: unmeasured says why")
    report = open(os.path.join(out_dir, "latest", "report.md")).read()
    check(report.startswith("# codec-bench report\n\n**Machine:**"), f"{name}: report starts with the machine line")
    for c in cells:
        if c["status"] == "ok" and c["cold"] is None:
            check(f"`{c['spec']}`" in report, f"{name}: report row for {c['id']}")
        elif c["status"] != "ok":
            check(f"`{c['id']}`" in report, f"{name}: report lists {c['id']}")
    for svg in glob.glob(os.path.join(out_dir, "latest", "*.svg")):
        root = ET.parse(svg).getroot()
        check(root.tag.endswith("svg") and len(root.findall("{http://www.w3.org/2000/svg}rect")) > 2,
              f"{svg}: bars")
        check(f"({os.path.basename(svg)})" in report, f"{svg}: linked from the report")
    return cells


# 1. hex (built everywhere) with its JDK peer, thread scaling and cold start
cells = run("hex", ["--suite", "encodings,cold", "--filter", "*hex*", "--threads", "2"])
codec_hex = [c for c in cells if c["driver"] == "codec" and c["suite"] == "encodings"]
check(len(codec_hex) == 2 and all(c["status"] == "ok" for c in codec_hex), "codec hex cells ran")
check(all(len(c["threads"]) == 2 for c in codec_hex), "thread scaling 1..2")
check(all(t["encode_speedup"] > 0 and t["decode_cpu_ns_op"] > 0 for c in codec_hex
          for t in c["threads"]) and all(c["threads"][0]["encode_speedup"] == 1 for c in codec_hex),
      "thread scaling: speed-up (1 for one thread) and CPU time per op")
check(codec_hex[0]["encoded_bytes"] == 2 * 8338, "hex of medium is twice its size")
cold = [c for c in cells if c["suite"] == "cold"]
check(len(cold) == 1 and cold[0]["status"] == "ok" and cold[0]["cold"]["first_ns"]["median"] > 0,
      "cold start of hex")
check(all(a["heap_calls"] == 0 for c in codec_hex for a in c["allocs_per_op"].values()
          if a["heap_calls"] is not None), "codec hex allocates nothing per op")

# 2. compression peers on the small payload, each cell in its own process
cells = run("forks", ["--suite", "compression", "--filter", "*/small", "--forks", "1"])
peers = [c for c in cells if c["driver"] in ("zlib", "zstd", "lz4", "snappy", "libdeflate", "brotli")]
check(len(peers) > 0 and all(c["status"] == "ok" for c in peers), "peers round-trip and run")
zlib6 = [c for c in peers if c["driver"] == "zlib" and c["spec"] == "zlib:6"]
check(len(zlib6) == 1, "zlib level 6 cell")

# 3. the json suite's groups on the smallest models and on twitter.json: codec
# beside its peers in each, the peers that map a model round-trip it, and the
# validators are decode-only
cells = run("json", ["--suite", "json", "--filter", "*-1k"]) + \
    run("json-twitter", ["--suite", "json", "--filter", "*/twitter"])
for group in ("databind", "stream", "dom", "validate"):
    mine = [c for c in cells if c["group"] == group and c["driver"] == "codec"]
    check(len(mine) > 0 and all(c["status"] == "ok" for c in mine), f"json {group}: codec cells ran")
check(all(c["status"] != "failed" for c in cells), "json: no cell fails its round trip")
for driver in ("simdjson", "json-c", "jansson", "yajl"):
    check(all(c["status"] == "ok" for c in cells if c["driver"] == driver and c["group"] == "databind"),
          f"json: {driver} maps Users and Clients")
# twitter.json bound to structs: decode-only on the document, codec and the
# peers that map it all agree with the payload's value; simdjson twice, its
# On-Demand and DOM cells named apart in the ids and the report
typed = run("json-twitter-typed", ["--suite", "json", "--filter", "*/twitter-typed"])
for name in ("codec", "simdjson-ondemand", "simdjson-dom", "json-c", "jansson"):
    check([c["status"] for c in typed if c["id"] == f"json/databind/{name}/twitter-typed"] == ["ok"],
          f"json: {name} binds twitter.json")
report = open(os.path.join(work, "json-twitter-typed", "latest", "report.md")).read()
check("| simdjson-ondemand `json` |" in report and "| simdjson-dom `dom` |" in report,
      "json: the report names simdjson's two twitter-typed cells")

# 4. --dump writes the payloads with the sizes of PAYLOADS.md
dump = os.path.join(work, "dump")
subprocess.run([bench, "--dump", dump], check=True, capture_output=True)
sizes = {"small.txt": 104, "medium.txt": 8338, "large.txt": 1048576, "person.json": 72, "order.json": 9096}
for f, n in sizes.items():
    check(os.path.getsize(os.path.join(dump, f)) == n, f"dump {f} is {n} bytes")
for f in glob.glob(os.path.join(dump, "*.json")):
    json.load(open(f, encoding="utf-8"))
order = json.load(open(os.path.join(dump, "order.json")))
check(len(order["items"]) == 100 and isinstance(order["items"][0]["unitPrice"], float), "order.json")

print("check_outputs:", "FAILED" if failures else "ok", len(failures), "failures")
sys.exit(1 if failures else 0)
