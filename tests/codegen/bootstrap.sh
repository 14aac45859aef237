#!/usr/bin/env bash
# codec-gen reads CodeGeneratorRequests and descriptor sets with C it
# generated itself from Debian's descriptor.proto and plugin.proto
# (libcodec's static copy of descriptor.proto's in src/schema/proto/, which
# codec-gen shares, and plugin.proto's in tools/codec-gen/proto/).
# Regenerating them with the protoc-gen-codec just built must give the
# checked-in files byte for byte.
#   bootstrap.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/tools/codec-gen/regen-bootstrap.sh" "$build" "$tmp"
diff -r "$tmp/tools/codec-gen/proto" "$src/tools/codec-gen/proto"
diff -r "$tmp/src/schema/proto" "$src/src/schema/proto"
echo "bootstrap: $(find "$tmp" -type f | wc -l) generated files identical to the checked-in ones"
