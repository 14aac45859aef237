#!/usr/bin/env bash
# Installs the Debian packages codec needs to build, test and benchmark.
# Does nothing when every package is already present; safe to run often.
# Usage: scripts/install-deps.sh [--bench]   (--bench adds the peer libraries)
set -euo pipefail

packages=(
  # build
  build-essential cmake pkg-config clang libclang-rt-14-dev
  # libraries the transforms use
  libzstd-dev liblz4-dev zlib1g-dev libdeflate-dev libsnappy-dev libbrotli-dev libssl-dev
  # real peers for interop tests
  gzip zstd lz4 brotli python3 python3-cbor2 python3-msgpack python3-protobuf
  python3-cryptography python3-crcmod protobuf-compiler
  # Redis integration
  libhiredis-dev redis-server
)
if [ "${1:-}" = "--bench" ]; then
  packages+=(
    libcjson-dev libjansson-dev libjson-c-dev libyajl-dev rapidjson-dev libsimdjson-dev
    libprotobuf-c-dev protobuf-c-compiler libprotobuf-dev libmsgpack-dev libcbor-dev
    default-jdk-headless
  )
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
