#!/usr/bin/env bash
# Text encodings against GNU coreutils (base64, base32, basenc) through the
# `codec` command, both ways, on random data of many lengths: codec's text
# must equal coreutils' and each must read the other's. Also base64:mime
# against `base64 -w 76` (LF lines, which the mime decoder skips), a
# pipeline ending in base64 read back by `base64 -d | zstd -d`, and the
# strict base32 rules as exit codes and offsets.
. "$(dirname "$0")/cli_lib.bash"

check_peer() {  # NAME SPEC PEER-ENCODE... (data in $WORK/in)
    local name=$1 spec=$2
    shift 2
    "$@" <"$WORK/in" | tr -d '\n' >"$WORK/peer.txt"
    run "$name: codec pack" "$WORK/in" pack -p "$spec"
    expect_rc "$name: codec pack" 0
    expect_stdout_file "$name: codec pack" "$WORK/peer.txt"
    run "$name: codec unpack of the peer's text" "$WORK/peer.txt" unpack -p "$spec"
    expect_rc "$name: codec unpack of the peer's text" 0
    expect_stdout_file "$name: codec unpack of the peer's text" "$WORK/in"
}

for len in 0 1 2 3 4 5 6 7 8 9 10 47 48 49 63 64 65 95 96 97 200 1000 8338 65537; do
    head -c "$len" /dev/urandom >"$WORK/in"
    check_peer "base64 $len" base64 base64 -w0
    check_peer "base64:url $len" base64:url basenc --base64url -w0
    check_peer "base32 $len" base32 base32 -w0
    check_peer "base32:hex $len" base32:hex basenc --base32hex -w0
    check_peer "hex:upper $len" hex:upper basenc --base16 -w0
    # coreutils' decoders read codec's unpadded url text once re-padded
    "$CODEC" pack -p base64:url-nopad <"$WORK/in" >"$WORK/nopad.txt"
    pad=$(( (4 - $(wc -c <"$WORK/nopad.txt") % 4) % 4 ))
    { cat "$WORK/nopad.txt"; head -c "$pad" /dev/zero | tr '\0' '='; } |
        basenc --base64url -d >"$WORK/back"
    CASES=$((CASES + 1))
    cmp -s "$WORK/in" "$WORK/back" || fail "base64:url-nopad $len" "basenc -d differs"
    # mime: coreutils writes 76-column lines ending in LF
    base64 -w 76 <"$WORK/in" >"$WORK/lf.txt"
    run "base64:mime $len: unpack LF lines" "$WORK/lf.txt" unpack -p base64:mime
    expect_stdout_file "base64:mime $len: unpack LF lines" "$WORK/in"
    "$CODEC" pack -p base64:mime <"$WORK/in" | tr -d '\r' | base64 -d >"$WORK/back"
    CASES=$((CASES + 1))
    cmp -s "$WORK/in" "$WORK/back" || fail "base64:mime $len" "base64 -d of codec's lines differs"
done

# A pipeline: zstd then base64, read back by the command-line tools.
head -c 100000 /dev/urandom | base64 >"$WORK/in"
"$CODEC" pack -p 'zstd:3 | base64' <"$WORK/in" | base64 -d | zstd -q -d >"$WORK/back"
CASES=$((CASES + 1))
cmp -s "$WORK/in" "$WORK/back" || fail "zstd | base64" "base64 -d | zstd -d differs"

# Strict base32: each must fail as an invalid payload (exit 1) at its offset.
printf 'MY======' >"$WORK/ok"
run "base32 MY======" "$WORK/ok" unpack -p base32
expect_rc "base32 MY======" 0
printf 'MZ======' >"$WORK/bad"
run "base32 MZ======" "$WORK/bad" unpack -p base32
expect_error "base32 MZ======" 1 '^codec: base32: nonzero trailing bits \(offset 1\)$'
printf 'MZXW6Y==' >"$WORK/bad"
run "base32 two pads" "$WORK/bad" unpack -p base32
expect_error "base32 two pads" 1 'offset 6\)$'
printf 'Zm9v YmFy' >"$WORK/bad"
run "base64:mime space" "$WORK/bad" unpack -p base64:mime
expect_error "base64:mime space" 1 'not a base64 character \(0x20\) \(offset 4\)$'

# Line breaks are skipped a run at a time (core/ascii_internal.h): LF and
# CRLF lines, a lone CR, blank lines, through the stream (unpack) and the
# one-shot library path (lines=skip), split across the command's reads.
head -c 3000000 /dev/urandom >"$WORK/big"
base64 "$WORK/big" >"$WORK/big.b64"
sed 's/$/\r/' "$WORK/big.b64" >"$WORK/big.crlf"
awk 'NR % 7 == 0 { printf "%s\r", $0; next } NR % 11 == 0 { print ""; print; next } { print }' \
    "$WORK/big.b64" >"$WORK/big.mixed"
for f in big.b64 big.crlf big.mixed; do
    for spec in base64:wrap=76 base64:lines=skip; do
        run "$f through unpack -p $spec" "$WORK/$f" unpack -p "$spec"
        expect_rc "$f through unpack -p $spec" 0
        expect_stdout_file "$f through unpack -p $spec" "$WORK/big"
    done
done
xxd -p "$WORK/big" | sed 's/$/\r/' >"$WORK/big.hex"
run "xxd -p, CRLF lines" "$WORK/big.hex" unpack -p hex:lines=skip
expect_rc "xxd -p, CRLF lines" 0
expect_stdout_file "xxd -p, CRLF lines" "$WORK/big"

finish
