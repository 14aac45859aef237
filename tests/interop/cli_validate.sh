#!/bin/bash
# cli_validate.sh — `codec validate` and `codec convert` (JSON): exit codes,
# one-line errors with byte offsets, and converted output that Python's json
# module reads as the same document as the input.
source "$(dirname "$0")/cli_lib.bash"

TW=$ROOT/tests/data/json/twitter.json

run valid /dev/null validate -f json "$TW"
expect_rc valid 0
expect_no_stdout valid
expect_no_stderr valid

printf '{"a":[1,2,}' >"$WORK/bad.json"
run invalid /dev/null validate -f json "$WORK/bad.json"
expect_error invalid 1 'json: unexpected character, expected a value at line 1, column 11 \(offset 10\)'

# Line and column count lines and characters (é is one character, two bytes).
printf '{\n  "é": [1,\n   2,,3]}' >"$WORK/bad2.json"
run "line and column" /dev/null validate -f json "$WORK/bad2.json"
expect_error "line and column" 1 'json: .* at line 3, column 6 \(offset 19\)'

# RFC 8259 validity: duplicate keys are valid JSON (JSONTestSuite's y_
# files); --reject-duplicates (or duplicates=reject) refuses them.
printf '{"a":1,"a":2}' >"$WORK/dup.json"
run duplicate "$WORK/dup.json" validate -f json
expect_rc duplicate 0
for y in y_object_duplicated_key y_object_duplicated_key_and_value; do
    run "$y" /dev/null validate -f json "$CODEC_TEST_DATA/json/JSONTestSuite/test_parsing/$y.json"
    expect_rc "$y" 0
done
run duplicate-rejected "$WORK/dup.json" validate -f json --reject-duplicates
expect_error duplicate-rejected 1 "duplicate key 'a'"
run duplicate-rejected-spec "$WORK/dup.json" validate -f json:duplicates=reject
expect_error duplicate-rejected-spec 1 "duplicate key 'a'"

printf '[[[1]]]' >"$WORK/deep.json"
run depth "$WORK/deep.json" validate -f json:max-depth=2
expect_error depth 1 'max-depth at line 1, column 3 \(offset 2\)'

# JSON lines: one document per line, every bad line named.
printf '{"a":1}\r\n[1,2]\n\n{"b":}\n"x"\n[1,,2]\n' >"$WORK/doc.ndjson"
run ndjson-invalid "$WORK/doc.ndjson" validate -f json --lines
expect_rc ndjson-invalid 1
expect_no_stdout ndjson-invalid
[ "$(wc -l <"$ERR")" -eq 2 ] || fail ndjson-invalid "$(wc -l <"$ERR") error lines, want 2"
grep -q 'json: .* at line 4, column 6 (offset 21)' "$ERR" || fail ndjson-invalid "line 4"
grep -q 'json: .* at line 6, column 4 (offset 30)' "$ERR" || fail ndjson-invalid "line 6"
printf '{"a":1}\n[1,2]\n"x"\n' >"$WORK/good.ndjson"
run ndjson-valid "$WORK/good.ndjson" validate -f ndjson
expect_rc ndjson-valid 0
run ndjson-not-one-document "$WORK/good.ndjson" validate -f json
expect_rc ndjson-not-one-document 1
run ndjson-convert "$WORK/good.ndjson" convert -f ndjson -t json:pretty
expect_rc ndjson-convert 0
[ "$(grep -c '^\]$\|^}$\|^"x"$' "$OUT")" -eq 3 ] || fail ndjson-convert "three documents"
run ndjson-convert-cbor "$WORK/good.ndjson" convert --lines -f json -t cbor
expect_rc ndjson-convert-cbor 0
"$PY" -c '
import cbor2, io, sys
f = io.BytesIO(open(sys.argv[1], "rb").read())
docs = []
while f.tell() < len(f.getbuffer()):
    docs.append(cbor2.load(f))
sys.exit(docs != [{"a": 1}, [1, 2], "x"])' "$OUT" || fail ndjson-convert-cbor "cbor2 reads other documents"
run ndjson-convert-bad "$WORK/doc.ndjson" convert --lines -f json -t json
expect_error ndjson-convert-bad 1 'at line 4, column 6 \(offset 21\)'

run bad-format /dev/null validate -f nosuch "$TW"
expect_error bad-format 2 "unknown stage 'nosuch'"
run no-format /dev/null validate "$TW"
expect_rc no-format 2

for mode in compact pretty; do
    flag=""
    [ "$mode" = pretty ] && flag="--pretty"
    run "convert-$mode" "$TW" convert -f json -t json $flag
    expect_rc "convert-$mode" 0
    if ! "$PY" -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
        "$TW" "$OUT"; then
        fail "convert-$mode" "Python reads a different document"
    fi
done
printf '{"a":[1,2.5,"x\\u00e9"]}' >"$WORK/small.json"
run convert-exact "$WORK/small.json" convert -f json -t json:pretty
printf '{\n  "a": [\n    1,\n    2.5,\n    "x\xc3\xa9"\n  ]\n}\n' >"$WORK/want.json"
expect_stdout_file convert-exact "$WORK/want.json"
run convert-invalid "$WORK/bad.json" convert -f json -t json
expect_error convert-invalid 1 'offset 10'

finish
