#!/usr/bin/env bash
# Regenerates the library's reading of descriptor.proto and plugin.proto
# (src/schema/proto/, C names prefixed codec__: used by codec-gen, the
# plugin and codec_schema) with the protoc-gen-codec built in BUILD, from
# Debian's copies (libprotobuf-dev, libprotoc-dev). Run it after changing
# the generator, rebuild, and run it again: the second run must change
# nothing (ctest codegen/bootstrap checks that).
#   tools/codec-gen/regen-bootstrap.sh [BUILD] [OUT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
out=${2:-$here/../../src/schema/proto}
inc=/usr/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
protoc --plugin=protoc-gen-codec="$build/protoc-gen-codec" --codec_out="$tmp" --codec_opt=prefix=codec__ -I"$inc" \
  google/protobuf/descriptor.proto google/protobuf/compiler/plugin.proto
mkdir -p "$out/google/protobuf/compiler"
for f in google/protobuf/descriptor.codec.h google/protobuf/descriptor.codec.c \
         google/protobuf/compiler/plugin.codec.h google/protobuf/compiler/plugin.codec.c; do
  cp "$tmp/$f" "$out/$f"
done
