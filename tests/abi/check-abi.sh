#!/usr/bin/env bash
# The ABI check (docs/ARCHITECTURE.md, "ABI"): abidw describes the built
# libcodec.so (its exported functions and variables and every type they
# reach through the public headers; types defined outside include/, such as
# the insides of the opaque handles, are dropped) and abidiff compares that with the
# baseline committed in abi/libcodec.abi. Any difference fails: a break
# (bump CODEC_ABI, the SONAME) or a new promise (a new function); either
# way the same commit regenerates the baseline with `make abi-baseline`.
# Usage: check-abi.sh LIBCODEC_SO BASELINE SRC_HEADERS BUILD_HEADERS [--update]
set -euo pipefail
lib=$1 baseline=$2 src_headers=$3 build_headers=$4
command -v abidw >/dev/null || { echo "abidw not found: scripts/install-deps.sh installs abigail-tools"; exit 1; }
current=$(mktemp)
trap 'rm -f "$current"' EXIT
abidw --no-corpus-path --no-architecture --drop-private-types --headers-dir "$src_headers" \
      --headers-dir "$build_headers" --out-file "$current" "$lib"
if [ "${5:-}" = --update ]; then
  cp "$current" "$baseline"
  echo "abi baseline written: $baseline"
  exit 0
fi
[ -f "$baseline" ] || { echo "no baseline $baseline: run make abi-baseline"; exit 1; }
if abidiff --no-architecture "$baseline" "$current"; then
  echo "libcodec.so matches $baseline"
else
  rc=$?
  echo
  if (( rc & 8 )); then
    echo "ABI BREAK: an incompatible change against $baseline (abidiff exit $rc)."
  else
    echo "The ABI changed against $baseline (abidiff exit $rc)."
  fi
  echo "Undo it; or, if it is deliberate: an incompatible change (a removed or changed"
  echo "function, a public struct's layout) bumps CODEC_ABI in CMakeLists.txt; then run"
  echo "make abi-baseline and commit abi/libcodec.abi with the change (docs/ARCHITECTURE.md, ABI)."
  exit 1
fi
