#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR for SECONDS each, seeded from its
# corpus in tests/fuzz/corpus/<target>. Fails if any target finds a crash.
set -euo pipefail
build=${1:-build-fuzz}
seconds=${2:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
for bin in "$build"/tests/fuzz_*; do
  [ -x "$bin" ] || continue
  case "$bin" in *_replay) continue ;; esac
  name=$(basename "$bin")
  work=$(mktemp -d)
  seeds=()
  [ -d "$root/tests/fuzz/corpus/$name" ] && seeds=("$root/tests/fuzz/corpus/$name")
  if "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/" \
       "$work" "${seeds[@]}" >"$work/log" 2>&1; then
    echo "fuzz $name: ok ($(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/log" | awk '{print $2}') runs)"
  else
    echo "fuzz $name: FAILED"; tail -40 "$work/log"; status=1
  fi
  rm -rf "$work"
done
exit $status
