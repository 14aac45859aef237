#!/usr/bin/env bash
# `codec inspect` on payloads written by the real tools (gzip, zstd, lz4,
# coreutils base64/basenc, xxd) and by Python (zlib, hand-built envelope and
# versioned headers), plus hostile input: every truncation of each sample
# must end in exit 0, 1 or 3 with at most one error line, never a crash.
. "$(dirname "$0")/cli_lib.bash"

for tool in gzip zstd lz4 base64 basenc xxd; do
    command -v "$tool" >/dev/null || { echo "cli_inspect.sh: $tool is missing" >&2; exit 1; }
done

seq 1 30000 >"$WORK/text"
TEXT_SIZE=$(wc -c <"$WORK/text")
head -c 50000 /dev/urandom >"$WORK/random"

# inspect NAME FILE — runs `codec inspect FILE`; checks exit 0 and size.
inspect() {
    run "$1" /dev/null inspect "$2"
    expect_rc "$1" 0
    expect_line "$1" "size: $(wc -c <"$2")"
}

# --- gzip -----------------------------------------------------------------
gzip -n -c "$WORK/text" >"$WORK/n.gz"
inspect "gzip -n" "$WORK/n.gz"
expect_line "gzip -n" "format: gzip"
expect_line "gzip -n" "mtime: 0"
expect_line "gzip -n" "os: 3 (unix)"
expect_line "gzip -n" "isize: $TEXT_SIZE"
expect_line "gzip -n" "decoded size: $TEXT_SIZE"
expect_no_line "gzip -n" "name:"
expect_no_line "gzip -n" "members:"

cp "$WORK/text" "$WORK/named file.txt"
touch -d @1700000000 "$WORK/named file.txt"
gzip -c "$WORK/named file.txt" >"$WORK/named.gz"
inspect "gzip with name and mtime" "$WORK/named.gz"
expect_line "gzip with name and mtime" "name: named file.txt"
expect_line "gzip with name and mtime" "mtime: 1700000000 (2023-11-14T22:13:20Z)"

gzip -n -c "$WORK/random" >"$WORK/r.gz"
cat "$WORK/n.gz" "$WORK/r.gz" "$WORK/n.gz" >"$WORK/multi.gz"
inspect "gzip, three members" "$WORK/multi.gz"
expect_line "gzip, three members" "members: 3"
expect_line "gzip, three members" "isize: $TEXT_SIZE"
expect_line "gzip, three members" "decoded size: $((2 * TEXT_SIZE + 50000))"
gzip -dc "$WORK/multi.gz" | cmp -s - <(cat "$WORK/text" "$WORK/random" "$WORK/text") ||
    fail "gzip, three members" "the peer does not read the sample"

cat "$WORK/n.gz" >"$WORK/trail.gz"
printf 'JUNK' >>"$WORK/trail.gz"
inspect "gzip with trailing bytes" "$WORK/trail.gz"
expect_line "gzip with trailing bytes" "trailing bytes: 4"

# --- zlib (Python's zlib, the reference implementation) ---------------------
for level in 1:0:fastest 4:1:fast 6:2:default 9:3:maximum; do
    IFS=: read -r lv flevel label <<<"$level"
    "$PY" -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(open(sys.argv[1], "rb").read(), int(sys.argv[2])))' \
        "$WORK/text" "$lv" >"$WORK/z$lv"
    inspect "zlib level $lv" "$WORK/z$lv"
    expect_line "zlib level $lv" "format: zlib"
    expect_line "zlib level $lv" "level: $flevel ($label)"
    expect_line "zlib level $lv" "window: 32768"
    expect_line "zlib level $lv" "decoded size: $TEXT_SIZE"
done
"$PY" - "$WORK/zdict" <<'EOF'
import sys, zlib
c = zlib.compressobj(zdict=b"dictionary words")
open(sys.argv[1], "wb").write(c.compress(b"some dictionary words") + c.flush())
EOF
inspect "zlib with a preset dictionary" "$WORK/zdict"
expect_line "zlib with a preset dictionary" \
    "dictionary id: $("$PY" -c 'import zlib; print("0x%08x" % zlib.adler32(b"dictionary words"))')"

# --- zstd -------------------------------------------------------------------
zstd -q -c "$WORK/text" >"$WORK/t.zst"
inspect "zstd file" "$WORK/t.zst"
expect_line "zstd file" "format: zstd"
expect_line "zstd file" "content size: $TEXT_SIZE"
expect_line "zstd file" "checksum: yes"
expect_no_line "zstd file" "dictionary id:"

zstd -q --no-check -c <"$WORK/text" >"$WORK/stdin.zst"
inspect "zstd from a pipe (no size), --no-check" "$WORK/stdin.zst"
expect_no_line "zstd from a pipe (no size), --no-check" "content size:"
expect_line "zstd from a pipe (no size), --no-check" "checksum: no"

mkdir -p "$WORK/samples"
for i in $(seq 1 200); do
    echo "{\"id\": $i, \"name\": \"user$i\", \"email\": \"user$i@example.com\"}" >"$WORK/samples/$i"
done
zstd -q --train "$WORK"/samples/* -o "$WORK/dict" --maxdict=2048 2>/dev/null
zstd -q -D "$WORK/dict" -c "$WORK/samples/7" >"$WORK/d.zst"
DICT_ID=$("$PY" -c 'import sys; print(int.from_bytes(open(sys.argv[1], "rb").read()[4:8], "little"))' "$WORK/dict")
inspect "zstd with a dictionary" "$WORK/d.zst"
expect_line "zstd with a dictionary" "dictionary id: $DICT_ID"

cat "$WORK/t.zst" "$WORK/t.zst" >"$WORK/two.zst"
inspect "zstd, two frames" "$WORK/two.zst"
expect_line "zstd, two frames" "frames: 2"
expect_line "zstd, two frames" "content size: $((2 * TEXT_SIZE))"

# --- lz4 --------------------------------------------------------------------
lz4 -q -c "$WORK/text" >"$WORK/t.lz4"
inspect "lz4 defaults" "$WORK/t.lz4"
expect_line "lz4 defaults" "format: lz4"
expect_line "lz4 defaults" "block mode: independent"
expect_line "lz4 defaults" "block checksum: no"
expect_line "lz4 defaults" "content checksum: yes"
expect_no_line "lz4 defaults" "content size:"

lz4 -q -c -B4 -BD -BX --no-frame-crc --content-size "$WORK/text" >"$WORK/opts.lz4"
inspect "lz4 -B4 -BD -BX --no-frame-crc --content-size" "$WORK/opts.lz4"
expect_line "lz4 -B4 -BD -BX --no-frame-crc --content-size" "block size: 65536"
expect_line "lz4 -B4 -BD -BX --no-frame-crc --content-size" "block mode: linked"
expect_line "lz4 -B4 -BD -BX --no-frame-crc --content-size" "block checksum: yes"
expect_line "lz4 -B4 -BD -BX --no-frame-crc --content-size" "content checksum: no"
expect_line "lz4 -B4 -BD -BX --no-frame-crc --content-size" "content size: $TEXT_SIZE"
expect_line "lz4 -B4 -BD -BX --no-frame-crc --content-size" \
    "blocks: $(( (TEXT_SIZE + 65535) / 65536 ))"

cat "$WORK/t.lz4" "$WORK/opts.lz4" >"$WORK/two.lz4"
inspect "lz4, two frames" "$WORK/two.lz4"
expect_line "lz4, two frames" "frames: 2"

# --- codec's framings (WIRE-FORMATS.md) --------------------------------------
printf '\xc0\xdc\x05' | cat - "$WORK/n.gz" >"$WORK/versioned"
inspect "versioned header over gzip" "$WORK/versioned"
expect_line "versioned header over gzip" "format: versioned"
expect_line "versioned header over gzip" "version: 5"
expect_line "versioned header over gzip" "payload size: $(wc -c <"$WORK/n.gz")"
expect_line "versioned header over gzip" "payload format: gzip"

printf '\xc0\xdc\x00payload' >"$WORK/v0"
run "versioned header, version 0 -> 1" /dev/null inspect "$WORK/v0"
expect_rc "versioned header, version 0 -> 1" 1
expect_line "versioned header, version 0 -> 1" "version: 0"
grep -Eq '^codec: versioned: version 0 is reserved and never valid \(offset 2\)$' "$ERR" ||
    fail "versioned header, version 0 -> 1" "error line"

# The known-answer vector's layout: key id "kek", 41-byte wrapped key, nonce 20..2b.
envelope() {  # VERSION ALGORITHM [KEYID_LEN_OVERRIDE]
    "$PY" - "$@" <<'EOF'
import sys
version, alg = int(sys.argv[1]), int(sys.argv[2])
klen = int(sys.argv[3]) if len(sys.argv) > 3 else 3
head = bytes([0x4a, 0x43, version, alg]) + klen.to_bytes(2, "big") + b"kek"
msg = head + (41).to_bytes(2, "big") + b"\x01" + bytes(40) + bytes(range(0x20, 0x2c)) + bytes(31)
sys.stdout.buffer.write(msg)
EOF
}
envelope 1 1 >"$WORK/env"
inspect "envelope" "$WORK/env"
expect_line "envelope" "size: 95"
expect_line "envelope" "format: envelope"
expect_line "envelope" "algorithm: 1 (aes-256-gcm)"
expect_line "envelope" "key id: kek"
expect_line "envelope" "wrapped key length: 41"
expect_line "envelope" "ciphertext length: 31"
expect_line "envelope" "plaintext length: 15"
[ "$(head -c 12 "$WORK/env" | xxd -p)" = "4a43010100036b656b002901" ] ||
    fail "envelope" "the sample does not start like the known-answer vector"

envelope 2 1 >"$WORK/env2"
run "envelope version 2 -> 3" /dev/null inspect "$WORK/env2"
expect_rc "envelope version 2 -> 3" 3
grep -q '^codec: envelope: envelope format version 2 is not supported (this build reads 1) (offset 2)$' "$ERR" ||
    fail "envelope version 2 -> 3" "error line"

envelope 1 2 >"$WORK/env-alg2"
run "envelope algorithm 2 -> 3" /dev/null inspect "$WORK/env-alg2"
expect_rc "envelope algorithm 2 -> 3" 3

envelope 1 1 65535 >"$WORK/env-klen"
run "envelope, key id length 65535 -> 1" /dev/null inspect "$WORK/env-klen"
expect_rc "envelope, key id length 65535 -> 1" 1
grep -q 'key id length 65535 does not fit a 95-byte envelope (offset 4)' "$ERR" ||
    fail "envelope, key id length 65535 -> 1" "error line"

# --- text and the rest --------------------------------------------------------
printf '  {"a": [1, 2]}\n' >"$WORK/json"
inspect "json" "$WORK/json"
expect_line "json" "format: json"
expect_line "json" "top: object"

base64 "$WORK/random" >"$WORK/b64"
inspect "base64 (coreutils, 76-column lines)" "$WORK/b64"
expect_line "base64 (coreutils, 76-column lines)" "format: base64"
expect_line "base64 (coreutils, 76-column lines)" "padding: yes"
expect_line "base64 (coreutils, 76-column lines)" "decoded size: 50000"
expect_line "base64 (coreutils, 76-column lines)" "lines: $(wc -l <"$WORK/b64")"

head -c 49999 "$WORK/random" | basenc --base64url -w0 | tr -d = >"$WORK/b64url"
inspect "base64url, no padding (basenc)" "$WORK/b64url"
expect_line "base64url, no padding (basenc)" "alphabet: url"
expect_line "base64url, no padding (basenc)" "padding: no"
expect_line "base64url, no padding (basenc)" "decoded size: 49999"

xxd -p -u "$WORK/random" >"$WORK/hex"
inspect "hex (xxd -p -u)" "$WORK/hex"
expect_line "hex (xxd -p -u)" "format: hex"
expect_line "hex (xxd -p -u)" "case: upper"
expect_line "hex (xxd -p -u)" "decoded size: 50000"

"$CODEC" pack -p hex <"$WORK/random" >"$WORK/packed.hex"
inspect "hex from codec pack" "$WORK/packed.hex"
expect_line "hex from codec pack" "case: lower"
expect_no_line "hex from codec pack" "lines:"

inspect "numbers are not hex" "$WORK/text"
expect_line "numbers are not hex" "format: unknown"
expect_line "numbers are not hex" "head: 31 0a 32 0a 33 0a 34 0a"

: >"$WORK/empty"
inspect "empty" "$WORK/empty"
expect_line "empty" "format: empty"

run "standard input" "$WORK/t.zst" inspect
expect_rc "standard input" 0
expect_line "standard input" "format: zstd"

run "inspect --max-input" "$WORK/t.zst" inspect --max-input 10
expect_error "inspect --max-input" 1 '^codec: input: input is larger than --max-input'

# --- CBOR and MessagePack (written by python3-cbor2 and python3-msgpack) ------
# A document is named only when `codec validate` accepts it: for every sample,
# inspect says cbor (msgpack) exactly when `validate -f cbor` (msgpack) exits 0.
"$PY" - "$WORK" <<'PYEOF'
import sys, cbor2, msgpack
w = sys.argv[1]
doc = {"id": 7, "name": "caf\u00e9", "tags": ["a", "b"], "score": 2.5, "blob": b"\x00\xff"}
open(w + "/doc.cbor", "wb").write(cbor2.dumps(doc))
open(w + "/doc-tagged.cbor", "wb").write(cbor2.dumps(cbor2.CBORTag(55799, doc)))
open(w + "/list.cbor", "wb").write(cbor2.dumps(list(range(1000))))
open(w + "/intkeys.cbor", "wb").write(cbor2.dumps({1: "a", 2: "b"}))
open(w + "/doc.msgpack", "wb").write(msgpack.packb(doc, use_bin_type=True))
open(w + "/list.msgpack", "wb").write(msgpack.packb(list(range(1000))))
open(w + "/two.msgpack", "wb").write(msgpack.packb(doc) + msgpack.packb(doc))
PYEOF
inspect "cbor2 map" "$WORK/doc.cbor"
expect_line "cbor2 map" "format: cbor"
expect_line "cbor2 map" "top: map"
expect_line "cbor2 map" "items: 5"
expect_no_line "cbor2 map" "also decodes as: msgpack"
inspect "cbor2 self-described" "$WORK/doc-tagged.cbor"
expect_line "cbor2 self-described" "format: cbor"
expect_line "cbor2 self-described" "self-described: yes"
inspect "cbor2 array" "$WORK/list.cbor"
expect_line "cbor2 array" "top: array"
expect_line "cbor2 array" "items: 1000"
inspect "msgpack map" "$WORK/doc.msgpack"
expect_line "msgpack map" "format: msgpack"
expect_line "msgpack map" "top: map"
expect_line "msgpack map" "items: 5"
inspect "msgpack array" "$WORK/list.msgpack"
expect_line "msgpack array" "format: msgpack"
expect_line "msgpack array" "items: 1000"
for sample in doc.cbor doc-tagged.cbor list.cbor intkeys.cbor doc.msgpack list.msgpack two.msgpack; do
    "$CODEC" inspect "$WORK/$sample" >"$OUT" 2>"$ERR"
    for fmt in cbor msgpack; do
        if "$CODEC" validate -f "$fmt" <"$WORK/$sample" >/dev/null 2>&1; then accepted=yes; else accepted=no; fi
        if grep -qx "format: $fmt" "$OUT"; then named=yes; else named=no; fi
        [ "$accepted" = "$named" ] ||
            fail "$sample as $fmt" "validate accepts: $accepted, inspect names it: $named"
    done
done
# two values back to back are no document; integer map keys are valid CBOR
# but not what decode takes into a value
inspect "two msgpack values" "$WORK/two.msgpack"
expect_line "two msgpack values" "format: unknown"
inspect "cbor with integer keys" "$WORK/intkeys.cbor"
expect_line "cbor with integer keys" "format: unknown"
# the shared test vectors: RFC 8949 appendix A's maps with text keys
"$PY" - "$ROOT/tests/data" "$WORK" <<'PYEOF'
import json, sys
d, w = sys.argv[1], sys.argv[2]
n = 0
for case in json.load(open(d + "/cbor/appendix_a.json")):
    v = case.get("decoded")
    if case.get("roundtrip") and isinstance(v, dict) and v:
        open("%s/vec%d.cbor" % (w, n), "wb").write(bytes.fromhex(case["hex"]))
        n += 1
PYEOF
for vec in "$WORK"/vec*.cbor; do
    [ -e "$vec" ] || { fail "appendix A" "no map vectors"; break; }
    inspect "appendix A $(basename "$vec")" "$vec"
    expect_line "appendix A $(basename "$vec")" "format: cbor"
done

# --- inside base64 and hex text -------------------------------------------------
base64 "$WORK/n.gz" >"$WORK/gz.b64"
inspect "base64 of gzip" "$WORK/gz.b64"
expect_line "base64 of gzip" "format: base64"
expect_line "base64 of gzip" "inner format: gzip"
expect_line "base64 of gzip" "inner decoded size: $TEXT_SIZE"
xxd -p "$WORK/doc.msgpack" >"$WORK/mp.hex"
inspect "hex of msgpack (xxd -p)" "$WORK/mp.hex"
expect_line "hex of msgpack (xxd -p)" "format: hex"
expect_line "hex of msgpack (xxd -p)" "inner format: msgpack"
expect_line "hex of msgpack (xxd -p)" "inner items: 5"
basenc --base64url -w0 "$WORK/doc.cbor" >"$WORK/cbor.b64url"
inspect "base64url of cbor" "$WORK/cbor.b64url"
expect_line "base64url of cbor" "inner format: cbor"
base64 -w0 "$WORK/gz.b64" >"$WORK/gz.b64.b64"
inspect "base64 of base64 of gzip" "$WORK/gz.b64.b64"
expect_line "base64 of base64 of gzip" "inner format: base64"
expect_line "base64 of base64 of gzip" "inner inner format: gzip"
# a truncated gzip inside base64 is the file's error
head -c 100 "$WORK/n.gz" | base64 >"$WORK/cut.b64"
run "base64 of a cut gzip" /dev/null inspect "$WORK/cut.b64"
expect_rc "base64 of a cut gzip" 1
expect_line "base64 of a cut gzip" "inner format: gzip"
# text the decoder refuses is not named: "QR==" has non-zero pad bits
printf 'QR==' >"$WORK/badpad"
"$CODEC" unpack -p base64 <"$WORK/badpad" >/dev/null 2>&1 && fail "QR==" "the decoder takes it"
inspect "base64 the decoder refuses" "$WORK/badpad"
expect_no_line "base64 the decoder refuses" "format: base64"

# --- hostile input: truncations of every sample ---------------------------------
# (tests/unit/test_inspect.c cuts at every byte in-process; here the command
# itself: each cut up to 64 bytes, then every 9th.)
head -c 2000 "$WORK/text" | gzip -n -c >"$WORK/small.gzip"
head -c 2000 "$WORK/text" | zstd -q -c >"$WORK/small.zstd"
head -c 2000 "$WORK/text" | lz4 -q -c -BX --content-size >"$WORK/small.lz4"
head -c 2000 "$WORK/text" | "$PY" -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))' >"$WORK/small.zlib"
printf '\xc0\xdc\x05' | cat - "$WORK/small.gzip" >"$WORK/versioned-small"
for sample in small.gzip small.zstd small.lz4 small.zlib env versioned-small; do
    size=$(wc -c <"$WORK/$sample")
    bad=0
    for cut in $(seq 0 63) $(seq 64 9 $((size - 1))); do
        [ "$cut" -lt "$size" ] || break
        head -c "$cut" "$WORK/$sample" >"$WORK/cut"
        "$CODEC" inspect "$WORK/cut" >"$OUT" 2>"$ERR"
        RC=$?
        if [ "$RC" -ne 0 ] && [ "$RC" -ne 1 ] && [ "$RC" -ne 3 ]; then
            fail "$sample cut at $cut" "exit code $RC"
            bad=1
        elif [ "$RC" -ne 0 ] && [ "$(wc -l <"$ERR")" -ne 1 ]; then
            fail "$sample cut at $cut" "error is not one line"
            bad=1
        elif [ "$RC" -eq 0 ] && [ "$sample" != "${sample#small.}" ] &&
             grep -qx "format: ${sample#small.}" "$OUT"; then
            fail "$sample cut at $cut" "a truncated payload passed"
            bad=1
        fi
        [ "$bad" -eq 1 ] && break
    done
    CASES=$((CASES + 1))
done

# Magic bytes followed by hostile lengths.
for hostile in '\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\x03\xff\xff' \
               '\x1f\x8b\x08\x08\x00\x00\x00\x00\x00\x03name-without-end' \
               '\x28\xb5\x2f\xfd\xc3\x00' '\x28\xb5\x2f\xfd\x00\x58\xff\xff\xff' \
               '\x04\x22\x4d\x18\x60\x70\x73\xff\xff\xff\x7f' \
               '\x4a\x43\x01\x01\xff\xff' '\xc0\xdc' '\x78\x9c\xff\xff\xff'; do
    printf "$hostile" >"$WORK/hostile"
    run "hostile header $hostile" /dev/null inspect "$WORK/hostile"
    expect_rc "hostile header $hostile" 1
    [ "$(wc -l <"$ERR")" -eq 1 ] || fail "hostile header $hostile" "error is not one line"
done

# Several files: one report each, headed by its name, the first failure's exit code.
printf 'abc' | gzip -n >"$WORK/multi.gz"
printf '{"a":1}' >"$WORK/multi.json"
run "several files" /dev/null inspect "$WORK/multi.gz" "$WORK/multi.json" "$WORK/no-such-file"
expect_rc "several files" 4
expect_line "several files" "file: $WORK/multi.gz"
expect_line "several files" "format: gzip"
expect_line "several files" "file: $WORK/multi.json"
expect_line "several files" "format: json"
grep -q "cannot open '$WORK/no-such-file'" "$ERR" || fail "several files" "no error for the missing file"

finish
