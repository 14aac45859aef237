#!/usr/bin/env bash
# make coverage: the test suite `make test` runs (ctest without the `large`
# label; it also replays every fuzz corpus, tests/fuzz/corpus/*, through the
# replay drivers) under clang's source-based coverage, then a per-file line
# and branch report.
# Usage: scripts/coverage.sh [BUILD_DIR] [JOBS]     (default build-coverage, nproc)
# Writes BUILD_DIR/coverage/summary.txt (llvm-cov report), summary.json,
# html/index.html, and regenerates the tables of docs/coverage.md.
# Exits non-zero when a test fails (the report is still written).
set -euo pipefail
SECONDS=0   # the run time docs/coverage.md reports: build, tests, report
cd "$(dirname "$0")/.."
build=${1:-build-coverage}
jobs=${2:-$(nproc)}
profdata=llvm-profdata-14
cov=llvm-cov-14

CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DCODEC_COVERAGE=ON
cmake --build "$build" -j "$jobs"

out=$build/coverage
rm -rf "$out" && mkdir -p "$out/profiles"
# %8m: one file per binary (8 slots), merged as processes exit.
status=0
LLVM_PROFILE_FILE=$PWD/$out/profiles/codec-%8m.profraw \
  ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE large || status=$?

"$profdata" merge -sparse "$out"/profiles/*.profraw -o "$out/codec.profdata"
# Every test binary links the same library objects, and libcodec.so is made of
# them too: it (plus the command) is the one place the report reads functions
# from, so a file is counted once whichever binaries ran it.
objects=("$build/libcodec.so" -object "$build/codec")
sources=(src tools/codec include)
"$cov" report -instr-profile="$out/codec.profdata" "${objects[@]}" "${sources[@]}" \
  > "$out/summary.txt"
"$cov" export -summary-only -instr-profile="$out/codec.profdata" "${objects[@]}" "${sources[@]}" \
  > "$out/summary.json"
"$cov" show -format=html -show-branches=count -output-dir="$out/html" \
  -instr-profile="$out/codec.profdata" "${objects[@]}" "${sources[@]}" >/dev/null
/usr/bin/python3 scripts/coverage_doc.py "$out/summary.json" docs/coverage.md "$PWD" "$SECONDS"
echo "coverage: $out/summary.txt, $out/html/index.html, docs/coverage.md (ctest status $status)"
exit "$status"
