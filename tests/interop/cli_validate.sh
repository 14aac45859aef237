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
expect_error invalid 1 'json: unexpected character, expected a value \(offset 10\)'

printf '{"a":1,"a":2}' >"$WORK/dup.json"
run duplicate "$WORK/dup.json" validate -f json
expect_error duplicate 1 "duplicate key 'a'"
run duplicate-allowed "$WORK/dup.json" validate -f json:duplicates=allow
expect_rc duplicate-allowed 0

printf '[[[1]]]' >"$WORK/deep.json"
run depth "$WORK/deep.json" validate -f json:max-depth=2
expect_error depth 1 'max-depth \(offset 2\)'

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
