#!/usr/bin/env bash
# `codec convert` between JSON, CBOR and MessagePack, checked by the
# reference Python modules (cbor2, msgpack): what codec writes Python reads
# back as the same document, what Python writes codec converts to the same
# JSON; binary output has no trailing newline; a byte string going to JSON
# is refused with exit 2 (invalid value) naming where it is; truncated
# input exits 1.
. "$(dirname "$0")/cli_lib.bash"

cat >"$WORK/doc.json" <<'JSON'
{"name":"Ada","n":[0,-1,23,24,255,256,65536,-4294967297,18446744073709551615],
 "f":[1.5,0.1,-0.0,1e300,5e-324],"t":true,"z":null,"s":"h\u00e9llo \ud83d\ude00","o":{"":[]}}
JSON

for fmt in cbor msgpack; do
    run "json to $fmt" "$WORK/doc.json" convert -f json -t "$fmt"
    expect_rc "json to $fmt" 0
    cp "$OUT" "$WORK/doc.$fmt"
    # Python decodes our bytes to the same document as json.load.
    if ! "$PY" - "$fmt" "$WORK/doc.$fmt" "$WORK/doc.json" <<'PY'
import json, sys
fmt, path, ref = sys.argv[1:4]
data = open(path, 'rb').read()
if fmt == 'cbor':
    import cbor2
    got = cbor2.loads(data)
else:
    import msgpack
    got = msgpack.unpackb(data, raw=False)
if got != json.load(open(ref)):
    sys.exit('%s differs: %r' % (fmt, got))
PY
    then fail "python reads $fmt" "Python decoded a different document"; fi
    # Back to JSON: the same document.
    run "$fmt to json" "$WORK/doc.$fmt" convert -f "$fmt" -t json
    expect_rc "$fmt to json" 0
    "$PY" -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' \
        "$OUT" "$WORK/doc.json" || fail "$fmt to json" "different document"
    # Every truncation is an invalid payload (exit 1), never a crash.
    size=$(wc -c <"$WORK/doc.$fmt")
    for cut in 0 1 2 7 19 $((size / 2)) $((size - 1)); do
        head -c "$cut" "$WORK/doc.$fmt" >"$WORK/cut"
        run "$fmt cut $cut" "$WORK/cut" convert -f "$fmt" -t json
        expect_error "$fmt cut $cut" 1 "$fmt"
    done
done

# Python writes bytes: CBOR/MessagePack keep them, JSON refuses them.
"$PY" -c 'import cbor2,sys; sys.stdout.buffer.write(cbor2.dumps({"k": [1, {"raw": b"\x00\xff"}]}))' \
    >"$WORK/bytes.cbor"
run "cbor bytes to msgpack" "$WORK/bytes.cbor" convert -f cbor -t msgpack
expect_rc "cbor bytes to msgpack" 0
"$PY" -c 'import msgpack,sys; sys.exit(msgpack.unpackb(open(sys.argv[1],"rb").read()) != {"k": [1, {"raw": b"\x00\xff"}]})' \
    "$OUT" || fail "cbor bytes to msgpack" "Python read a different document"
run "cbor bytes to json" "$WORK/bytes.cbor" convert -f cbor -t json
expect_error "cbor bytes to json" 2 'byte string at \$\.k\[1\]\.raw has no json form'

# A CBOR tag is dropped and its content converted (RFC 8949 6.1, cli.md):
# tag 100 over 1 is 1; a bignum that fits is an integer; CBOR undefined has
# no codec_value form (exit 1, nothing written).
printf '\xd8\x64\x01' >"$WORK/tag.cbor"
run "cbor tag to json" "$WORK/tag.cbor" convert -f cbor -t json
expect_rc "cbor tag to json" 0
printf '1\n' >"$WORK/one.txt"
expect_stdout_file "cbor tag to json" "$WORK/one.txt"
printf '\xc2\x42\x01\x00' >"$WORK/bignum.cbor"
run "cbor bignum to json" "$WORK/bignum.cbor" convert -f cbor -t json
printf '256\n' >"$WORK/256.txt"
expect_stdout_file "cbor bignum to json" "$WORK/256.txt"
printf '\x82\x01\xf7' >"$WORK/undef.cbor"
run "cbor undefined to json" "$WORK/undef.cbor" convert -f cbor -t json
expect_error "cbor undefined to json" 1 'cbor'

# Binary output ends with its last item, not a newline.
printf '[1]' >"$WORK/one.json"
run "no newline" "$WORK/one.json" convert -f json -t msgpack
printf '\x91\x01' >"$WORK/one.mp"
expect_stdout_file "no newline" "$WORK/one.mp"

finish
