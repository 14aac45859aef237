#!/usr/bin/env bash
# Cross-builds codec for ARCH (arm64 or s390x) and runs its unit and
# conformance tests under qemu-user. Sets the machine up first
# (scripts/setup-cross.sh), so it works on a fresh Debian 12.
# Usage: scripts/cross-test.sh ARCH [JOBS]      (make test-aarch64, test-s390x)
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:?usage: cross-test.sh arm64|s390x [JOBS]}
jobs=${2:-$(nproc)}
case $arch in
  arm64) cpu=aarch64 ;;
  s390x) cpu=s390x ;;
  *) echo "cross-test: unknown architecture $arch" >&2; exit 2 ;;
esac
scripts/setup-cross.sh "$arch"
build=build-$cpu
# s390x: the minimal configuration (scripts/setup-cross.sh says why).
options=()
[ "$cpu" = s390x ] && options=(-DCODEC_WITH_HIREDIS=OFF -DCODEC_WITH_BROTLI=OFF
  -DCODEC_WITH_SNAPPY=OFF -DCODEC_WITH_LIBDEFLATE=OFF -DCODEC_WITH_OPENSSL=OFF)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-$cpu.cmake -DCODEC_BUILD_BENCH=OFF "${options[@]}"
cmake --build "$build" -j "$jobs"
# The library and the programs really are for $cpu (no host binary slipped in).
file -L "$build/tests/unit_test_core" | grep -q "$(case $cpu in aarch64) echo aarch64 ;; s390x) echo 'IBM S/390' ;; esac)"
ctest --test-dir "$build" --output-on-failure -j "$jobs" -L '^(unit|conformance)$'
