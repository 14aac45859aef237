#!/usr/bin/env bash
# The installed-tree test (ctest install/pkg-config): installs the build in
# BUILD_DIR into a temporary prefix, then checks what a user gets there:
#   - examples/pipeline.c builds and runs through pkg-config (shared and
#     static) and through find_package(codec CONFIG) (codec::codec and
#     codec::codec_static), and no dependency's flags leak into its build;
#   - every man page renders with `man -l` without a warning, and there is
#     codec(1) and at least one section-3 page per public header;
#   - the bash completion loads and completes stage names from `codec list`;
#   - codec --version names the installed version;
#   - examples/addressbook.c builds from its .proto in a CMake project that
#     finds the installed package (find_package(codec), codec_generate()).
set -euo pipefail
build=$1
src=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "check-install: $*" >&2; exit 1; }
cmake --install "$build" --prefix "$prefix" >/dev/null

# pkg-config
pc=$(find "$prefix" -name codec.pc -print -quit)
[ -n "$pc" ] || fail "no codec.pc installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
[ -x "$prefix/bin/codec" ] || fail "no codec command installed"
cflags=$(pkg-config --cflags codec)
case " $cflags $(pkg-config --cflags --static codec) " in
  *" -D"*) fail "pkg-config --cflags codec leaks a definition: $cflags" ;;
esac
cc -Wall -Werror "$src/examples/pipeline.c" $cflags $(pkg-config --libs codec) -o "$prefix/shared"
LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) "$prefix/shared" 'zstd:3 | crc32c | base64'
cc -Wall -Werror "$src/examples/pipeline.c" $cflags \
    "$(pkg-config --variable=libdir codec)/libcodec.a" $(pkg-config --libs --static codec | sed 's/-lcodec//') \
    -o "$prefix/static"
"$prefix/static" 'gzip | hex'
# libcodec opens every library it calls on first use: none is for the user
# to link, and a static program without them still runs their stages
# (dlopen by SONAME).
static_libs=$(pkg-config --libs --static codec)
for lib in zstd lz4 z deflate crypto snappy hiredis rdkafka; do
  [[ " $static_libs " != *" -l$lib "* ]] || fail "pkg-config --libs --static codec names -l$lib"
done
[ -z "$(pkg-config --print-requires-private codec)" ] ||
  fail "codec.pc requires $(pkg-config --print-requires-private codec)"
needs=$(ldd "$prefix/static")
for lib in libzstd liblz4 libz.so libdeflate; do
  [[ $needs != *$lib* ]] || fail "the static program links $lib"
done
if grep -q 'define CODEC_HAVE_SNAPPY 1' "$(pkg-config --variable=includedir codec)/codec/config.h"; then
  "$prefix/static" 'snappy | hex' >/dev/null
  needs=$(ldd "$prefix/static")
  [[ $needs != *libsnappy* ]] || fail "the static program links libsnappy"
fi
version=$(pkg-config --modversion codec)
[ "$(LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) "$prefix/bin/codec" --version | head -1)" = "codec $version" ] ||
  fail "codec --version does not say codec $version"

# find_package(codec CONFIG)
mkdir "$prefix/user"
cp "$src/examples/pipeline.c" "$prefix/user/"
cat > "$prefix/user/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(user LANGUAGES C)
find_package(codec CONFIG REQUIRED)
add_executable(shared pipeline.c)
target_link_libraries(shared PRIVATE codec::codec)
add_executable(static pipeline.c)
target_link_libraries(static PRIVATE codec::codec_static)
get_target_property(defs codec::codec INTERFACE_COMPILE_DEFINITIONS)
get_target_property(opts codec::codec INTERFACE_COMPILE_OPTIONS)
if(defs OR opts)
  message(FATAL_ERROR "codec::codec passes flags on to users: ${defs} ${opts}")
endif()
CMAKE
cmake -S "$prefix/user" -B "$prefix/user/build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_C_FLAGS="-Wall -Werror" >/dev/null
cmake --build "$prefix/user/build" >/dev/null
LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) "$prefix/user/build/shared" 'lz4 | hex'
"$prefix/user/build/static" 'deflate | base32'
needs=$(LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) ldd "$prefix/user/build/shared")
[[ $needs == *libcodec.so.[0-9]* ]] || fail "codec::codec is not the shared library"
needs=$(ldd "$prefix/user/build/static")
[[ $needs != *libcodec.so* ]] || fail "codec::codec_static links the shared library"

# codec_generate(): a program built from its .proto against the installed package
proj=$prefix/addressbook
mkdir -p "$proj"
cp "$src/examples/addressbook.c" "$src/examples/addressbook.proto" "$proj/"
cat >"$proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(addressbook C)
find_package(codec CONFIG REQUIRED)
add_executable(addressbook addressbook.c)
codec_generate(addressbook
  PROTOS addressbook.proto /usr/include/google/protobuf/timestamp.proto
  IMPORT_DIRS ${CMAKE_CURRENT_SOURCE_DIR} /usr/include)
target_link_libraries(addressbook PRIVATE codec::codec)
CMAKE
cmake -S "$proj" -B "$proj/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$proj/build" >/dev/null
LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) "$proj/build/addressbook"

# man pages
man1=$(find "$prefix" -path '*/man1/codec.1' | head -1)
[ -n "$man1" ] || fail "no codec(1) installed"
headers=$(ls "$prefix/include/codec/"*.h | grep -vc '/config.h$')
pages=$(find "$prefix" -path '*/man3/*.3' | wc -l)
[ "$pages" -ge "$headers" ] || fail "$pages section-3 pages for $headers public headers"
for page in $(find "$prefix" -path '*/man[13]/*.[13]'); do
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "man -l $page: $warnings"
  rendered=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
  [[ $rendered == *NAME* ]] || fail "man -l $page renders no NAME section"
  ! grep -q '@VERSION@' "$page" || fail "$page: @VERSION@ not filled in"
done

# bash completion
completion=$(find "$prefix" -path '*/bash-completion/completions/codec')
[ -n "$completion" ] || fail "no bash completion installed"
got=$(PATH="$prefix/bin:$PATH" LD_LIBRARY_PATH=$(pkg-config --variable=libdir codec) bash --norc -c '
  source "$1" || exit 1
  complete -p codec >/dev/null || exit 1
  COMP_WORDS=(codec pack -p "zstd:3 | cr"); COMP_CWORD=3; _codec
  echo "${COMPREPLY[*]}"' bash "$completion")
[[ $got == *"zstd:3 | crc32c"* ]] || fail "completion of 'zstd:3 | cr' gave '$got'"

echo "installed codec: pkg-config, find_package and codec_generate builds run, $((pages + 1)) man pages render, completion loads"
