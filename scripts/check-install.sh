#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a temporary prefix, then builds
# examples/pipeline.c against it with pkg-config (shared and static) and
# runs it through a real pipeline, and builds examples/addressbook.c from its
# .proto in a CMake project that finds the installed package
# (find_package(codec), codec_generate()). Used by ctest (install/pkg-config).
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
proj=$prefix/addressbook
mkdir -p "$proj"
cp "$src/examples/addressbook.c" "$src/examples/addressbook.proto" "$proj/"
cat >"$proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(addressbook C)
find_package(codec REQUIRED)
add_executable(addressbook addressbook.c)
codec_generate(addressbook
  PROTOS addressbook.proto /usr/include/google/protobuf/timestamp.proto
  IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR} /usr/include)
target_link_libraries(addressbook PRIVATE codec::codec)
CMAKE
cmake -S "$proj" -B "$proj/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$proj/build" >/dev/null
LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) "$proj/build/addressbook"
echo "installed codec builds and runs through pkg-config and find_package(codec)"
