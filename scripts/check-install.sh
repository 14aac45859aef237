#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a temporary prefix, then builds
# examples/pipeline.c against it with pkg-config (shared and static) and
# runs it through a real pipeline. Used by ctest (install/pkg-config).
set -euo pipefail
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name codec.pc -print -quit)
[ -n "$pc" ] || { echo "no codec.pc installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
[ -x "$prefix/bin/codec" ] || { echo "no codec command installed"; exit 1; }
cc "$src/examples/pipeline.c" $(pkg-config --cflags --libs codec) -o "$prefix/shared"
LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) "$prefix/shared" 'zstd:3 | crc32c | base64'
cc "$src/examples/pipeline.c" $(pkg-config --cflags codec) \
    "$(pkg-config --variable=libdir codec)/libcodec.a" $(pkg-config --libs --static codec | sed 's/-lcodec//') \
    -o "$prefix/static"
"$prefix/static" 'gzip | hex'
echo "installed codec builds and runs through pkg-config"
