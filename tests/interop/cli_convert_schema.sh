#!/bin/bash
# cli_convert_schema.sh — `codec convert --schema DESC --type MSG`: protobuf
# read and written with a type built at run time from a descriptor set.
# Peers: protoc (--encode makes the input, --decode reads codec's output)
# and Python's protobuf (the messages of the fuzz corpus, made by its
# deterministic serializer): protobuf -> JSON/CBOR/MessagePack -> protobuf
# gives back Python's bytes (less unknown fields). The JSON is proto3-like,
# not proto3 JSON (well-known types stay objects), so Python's json_format
# is not a peer here.
source "$(dirname "$0")/cli_lib.bash"

PB=$ROOT/tests/data/protobuf
EX=$ROOT/examples
protoc --include_imports -o "$WORK/ab.desc" -I"$EX" -I/usr/include addressbook.proto
protoc --include_imports -o "$WORK/t3.desc" -I"$PB" -I/usr/include test_messages_proto3.proto

# protoc's text -> bytes -> codec JSON -> codec protobuf -> protoc's text.
text='people { name: "Ada" id: 1815 phones { number: "555" type: PHONE_TYPE_HOME }
 phones { number: "9" type: 42 } last_updated { seconds: 5 } slack: "@ada"
 nickname: "" scores { key: "go" value: -3 } }'
echo "$text" | protoc --encode=tutorial.AddressBook -I"$EX" -I/usr/include addressbook.proto \
    >"$WORK/ab.bin"
run to-json "$WORK/ab.bin" convert -f protobuf -t json --schema "$WORK/ab.desc" --type tutorial.AddressBook
expect_rc to-json 0
want='{"people":[{"name":"Ada","id":1815,"phones":[{"number":"555","type":"PHONE_TYPE_HOME"},{"number":"9","type":42}],"lastUpdated":{"seconds":5},"slack":"@ada","nickname":"","scores":{"go":-3}}]}'
[ "$(cat "$OUT")" = "$want" ] || fail to-json "got $(cat "$OUT")"
cp "$OUT" "$WORK/ab.json"
run from-json "$WORK/ab.json" convert -f json -t protobuf --schema "$WORK/ab.desc" --type tutorial.AddressBook
expect_rc from-json 0
cmp -s "$OUT" "$WORK/ab.bin" || fail from-json "protobuf bytes differ from protoc's"
protoc --decode=tutorial.AddressBook -I"$EX" -I/usr/include addressbook.proto <"$OUT" >"$WORK/back.txt"
grep -q 'nickname: ""' "$WORK/back.txt" || fail from-json "protoc does not read the optional empty nickname"

# Python-made TestAllTypesProto3 messages through every schemaless format:
# back to Python's bytes without the unknown fields (no format but protobuf
# has a place for them).
protoc -I"$PB" -I/usr/include --python_out="$WORK" test_messages_proto3.proto
n=0
for f in "$ROOT"/tests/fuzz/corpus/fuzz_codegen_proto3/*; do
    "$PY" - "$WORK" "$f" "$WORK/want" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import test_messages_proto3_pb2 as pb
m = pb.TestAllTypesProto3.FromString(open(sys.argv[2], "rb").read())
m.DiscardUnknownFields()
open(sys.argv[3], "wb").write(m.SerializeToString(deterministic=True))
PY
    for fmt in json cbor msgpack; do
        run "to-$fmt" "$f" convert -f protobuf -t "$fmt" --schema "$WORK/t3.desc" \
            --type protobuf_test_messages.proto3.TestAllTypesProto3
        expect_rc "to-$fmt $(basename "$f")" 0
        cp "$OUT" "$WORK/mid"
        run "back-$fmt" "$WORK/mid" convert -f "$fmt" -t protobuf --schema "$WORK/t3.desc" \
            --type protobuf_test_messages.proto3.TestAllTypesProto3
        expect_rc "back-$fmt $(basename "$f")" 0
        cmp -s "$OUT" "$WORK/want" || fail "back-$fmt $(basename "$f")" "bytes differ from Python's"
    done
    n=$((n + 1))
done
[ "$n" -ge 20 ] || fail corpus "only $n corpus files"

# Errors: no such message, schema without -f/-t protobuf, bad bytes.
run no-type "$WORK/ab.bin" convert -f protobuf -t json --schema "$WORK/ab.desc" --type tutorial.Nope
expect_error no-type 2 "no message 'tutorial.Nope'"
run both-json "$WORK/ab.json" convert -f json -t json --schema "$WORK/ab.desc" --type tutorial.AddressBook
expect_error both-json 2 "one of -f and -t must be protobuf"
printf '\x0a\x05\x0a' >"$WORK/bad.bin"
run bad-bytes "$WORK/bad.bin" convert -f protobuf -t json --schema "$WORK/ab.desc" --type tutorial.AddressBook
expect_error bad-bytes 1 'protobuf: .*\(offset [0-9]+\)'
finish
