#!/usr/bin/env bash
# Regenerates the code that reads descriptor.proto and plugin.proto messages
# with the protoc-gen-codec built in BUILD, from Debian's copies
# (libprotobuf-dev, libprotoc-dev), C names prefixed codec__, static
# (`static=1`: libcodec's globals are its own):
#   src/schema/proto/        descriptor.proto, the one copy: #included by
#                            src/schema/schema.c and by tools/codec-gen/proto.c
#   tools/codec-gen/proto/   plugin.proto, for codec-gen and the plugin
#                            (#included by tools/codec-gen/proto.c)
# Run it after changing the generator, rebuild, and run it again: the second
# run must change nothing (ctest codegen/bootstrap checks that).
#   tools/codec-gen/regen-bootstrap.sh [BUILD] [OUT_ROOT]   (OUT_ROOT: the repository)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
root=${2:-$here/../..}
inc=/usr/include
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() {   # OPTIONS OUT FILES...
  local opts=$1 out=$2
  shift 2
  mkdir -p "$tmp/$out"
  protoc --plugin=protoc-gen-codec="$build/protoc-gen-codec" --codec_out="$tmp/$out" \
    --codec_opt="$opts" -I"$inc" "$@"
  for f in $(cd "$tmp/$out" && find . -type f); do
    mkdir -p "$root/$out/$(dirname "$f")"
    cp "$tmp/$out/$f" "$root/$out/$f"
  done
}
gen prefix=codec__,static=1 src/schema/proto google/protobuf/descriptor.proto
gen prefix=codec__,static=1 tools/codec-gen/proto google/protobuf/compiler/plugin.proto
