#!/usr/bin/env bash
# Installs the Debian packages codec needs to build, test and benchmark: one
# set for `make test` and `make bench`, so either command works first on a
# fresh machine. Does nothing when every package is already present.
# Usage: scripts/install-deps.sh           install what is missing
#        scripts/install-deps.sh --list    print the set, one package a line
#        scripts/install-deps.sh --only PKG...   install those if missing
# tests/deps/check_deps.py (ctest deps/installed-by-make-test) fails when a
# package CMake or a test uses is not in this set.
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config clang libclang-rt-14-dev
  # the ABI check (tests/abi) and the installed-tree test (man -l)
  abigail-tools man-db
  # make coverage: llvm-profdata-14 and llvm-cov-14 (llvm-14); with CC=clang,
  # CMake also picks the llvm binutils and ld.lld (llvm, lld)
  llvm-14 llvm lld
  # libraries the transforms use
  libzstd-dev liblz4-dev zlib1g-dev libdeflate-dev libsnappy-dev libbrotli-dev libssl-dev
  # real peers for interop tests (libprotobuf-dev: the well-known .proto files)
  gzip zstd lz4 brotli xxd time python3 python3-cbor2 python3-msgpack python3-protobuf
  python3-cryptography python3-crcmod python3-snappy protobuf-compiler libprotobuf-dev
  # plugin.proto, which codec-gen bootstraps from (ctest codegen/bootstrap)
  libprotoc-dev
  # Redis integration
  libhiredis-dev redis-server
  # Kafka integration (librdkafka's mock cluster is the broker); peers;
  # libsasl2-dev: rdkafka.pc's static libraries (install/pkg-config links -lsasl2)
  librdkafka-dev kcat python3-confluent-kafka libsasl2-dev
  # benchmark peers (bench/outputs checks their cells in `make test` too)
  libcjson-dev libjansson-dev libjson-c-dev libyajl-dev rapidjson-dev libsimdjson-dev
  libprotobuf-c-dev protobuf-c-compiler libmsgpack-dev libcbor-dev
  default-jdk-headless
)
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi
# --only PKG...: the same, for another set (scripts/setup-cross.sh's).
if [ "${1:-}" = "--only" ]; then
  shift
  packages=("$@")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
