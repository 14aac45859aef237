#!/usr/bin/env bash
# codec-gen reads CodeGeneratorRequests and descriptor sets with C it
# generated itself from Debian's descriptor.proto and plugin.proto
# (tools/codec-gen/proto/, and libcodec's static copy in src/schema/proto/). Regenerating them with the protoc-gen-codec
# just built must give the checked-in files byte for byte.
#   bootstrap.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/tools/codec-gen/regen-bootstrap.sh" "$build" "$tmp"
diff -r "$tmp/tools/codec-gen/proto" "$src/tools/codec-gen/proto"
diff -r "$tmp/src/schema/proto" "$src/src/schema/proto"
echo "bootstrap: $(find "$tmp" -type f | wc -l) generated files identical to the checked-in ones"
