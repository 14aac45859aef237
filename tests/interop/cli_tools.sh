#!/usr/bin/env bash
# `codec pack`/`unpack` against the standard command-line tools, end to end:
# what codec writes, gzip/zstd/lz4/brotli read back; what they write, codec
# reads; whole pipelines (compression | checksum | text) undone by chains of
# the real tools (python's zlib/base64 for the checksum and text layers).
. "$(dirname "$0")/cli_lib.bash"

"$PY" - "$WORK/prose" <<'PY'
import random, sys
r = random.Random(7)
words = "codec encode decode payload stream buffer byte frame block cache".split()
with open(sys.argv[1], "w") as f:
    f.write(" ".join(r.choice(words) for _ in range(60000)))
PY

# ours -> the tool
check_tool_reads() {  # NAME SPEC TOOL...
    local name=$1 spec=$2
    shift 2
    run "$name: pack" "$WORK/prose" pack -p "$spec"
    expect_rc "$name: pack" 0
    if ! "$@" <"$OUT" >"$WORK/back" 2>"$WORK/tool.err"; then
        fail "$name" "'$*' could not read codec's output: $(head -c 200 "$WORK/tool.err")"
    elif ! cmp -s "$WORK/back" "$WORK/prose"; then
        fail "$name" "'$*' read different bytes"
    fi
}

# the tool -> ours
check_reads_tool() {  # NAME SPEC TOOL...
    local name=$1 spec=$2
    shift 2
    "$@" <"$WORK/prose" >"$WORK/made" || { fail "$name" "'$*' failed"; return; }
    run "$name: unpack" "$WORK/made" unpack -p "$spec"
    expect_rc "$name: unpack" 0
    expect_stdout_file "$name: unpack" "$WORK/prose"
}

check_tool_reads "gzip -> gzip -dc" "gzip" gzip -dc
check_tool_reads "gzip:1 -> gzip -dc" "gzip:1" gzip -dc
check_tool_reads "zstd:19 -> zstd -dc" "zstd:19" zstd -dcq
check_tool_reads "lz4 -> lz4 -dc" "lz4" lz4 -dcq
check_tool_reads "lz4hc:9 -> lz4 -dc" "lz4hc:9" lz4 -dcq
if built_with brotli; then
    check_tool_reads "brotli:5 -> brotli -dc" "brotli:5" brotli -dc
else
    run "brotli:5 without brotli" "$WORK/prose" pack -p brotli:5
    expect_built_without "brotli:5 without brotli" brotli
fi
check_reads_tool "gzip -9 -> gzip" "gzip" gzip -9c
check_reads_tool "zstd -3 -> zstd" "zstd" zstd -3cq
check_reads_tool "lz4 -> lz4" "lz4" lz4 -cq
if built_with brotli; then
    check_reads_tool "brotli -> brotli" "brotli" brotli -c
fi

# Incompressible input (random bytes, then prose, then random bytes again:
# three of the stream's 1 MiB parts and more): gzip reads it back, and it is
# no larger than gzip's own at the same level (stored blocks of 64 KiB once
# a block came out stored; deflate_encoder.c's sparse mode).
"$PY" - "$WORK/prose" "$WORK/random" <<'PY'
import random, sys
r = random.Random(11)
prose = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "wb") as f:
    f.write(r.randbytes(3 << 20) + prose + r.randbytes(1 << 20))
PY
for level in 6 9; do
    name="gzip:$level random -> gzip -dc"
    run "$name: pack" "$WORK/random" pack -p "gzip:$level"
    expect_rc "$name: pack" 0
    if ! gzip -dc <"$OUT" | cmp -s - "$WORK/random"; then
        fail "$name" "gzip -dc read different bytes"
    elif [ "$(wc -c <"$OUT")" -gt "$(gzip -"$level"c <"$WORK/random" | wc -c)" ]; then
        fail "$name" "$(wc -c <"$OUT") bytes, more than gzip -$level's"
    fi
done

# A whole pipeline, undone by real peers layer by layer.
run "gzip | crc32c | base64: pack" "$WORK/prose" pack -p 'gzip:6 | crc32c | base64'
expect_rc "gzip | crc32c | base64: pack" 0
if [ "$RC" -eq 0 ]; then
    "$PY" - "$OUT" "$WORK/layers" <<'PY'
import base64, sys, crcmod.predefined
raw = base64.b64decode(open(sys.argv[1], "rb").read(), validate=True)
body, trailer = raw[:-4], raw[-4:]
crc = crcmod.predefined.mkPredefinedCrcFun("crc-32c")
assert crc(body).to_bytes(4, "big") == trailer, "crc32c trailer differs"
open(sys.argv[2], "wb").write(body)
PY
    if [ $? -ne 0 ]; then
        fail "gzip | crc32c | base64" "python could not undo the text and checksum layers"
    elif ! gzip -dc <"$WORK/layers" | cmp -s - "$WORK/prose"; then
        fail "gzip | crc32c | base64" "gzip -dc read different bytes"
    fi
fi

# ...and the same layers made by the peers, read by codec.
gzip -6c <"$WORK/prose" >"$WORK/peer.gz"
"$PY" - "$WORK/peer.gz" "$WORK/peer.txt" <<'PY'
import base64, sys, zlib
body = open(sys.argv[1], "rb").read()
body += zlib.adler32(body).to_bytes(4, "big")
open(sys.argv[2], "wb").write(base64.urlsafe_b64encode(body).rstrip(b"="))
PY
run "peer gzip | adler32 | base64:url-nopad" "$WORK/peer.txt" unpack -p 'gzip | adler32 | base64:url-nopad'
expect_rc "peer gzip | adler32 | base64:url-nopad" 0
expect_stdout_file "peer gzip | adler32 | base64:url-nopad" "$WORK/prose"

# A flipped bit under the checksum is caught by the checksum stage (exit 1).
# 100 kB: an output standard output holds back whole (128 KiB), so none of
# it is written (a longer one would be, with the warning line).
head -c 100000 "$WORK/prose" >"$WORK/prose100k"
run "tamper: pack" "$WORK/prose100k" pack -p 'zstd | crc32c'
cp "$OUT" "$WORK/sealed"
printf '\x00' | dd of="$WORK/sealed" bs=1 seek=20 conv=notrunc status=none
run "tamper: unpack" "$WORK/sealed" unpack -p 'zstd | crc32c'
# The command packs zstd frames with their checksum, which sees the flip
# (or zstd's own checks do) before the crc32c trailer at the end does.
expect_error "tamper: unpack" 1 \
    '^codec: (zstd: (Restored data doesn.t match checksum|Data corruption detected)|crc32c: checksum mismatch)'

# A decompression bomb through the command stops at max= (under what
# standard output holds back, 128 KiB: nothing is written).
head -c 20000000 /dev/zero | zstd -19cq >"$WORK/bomb.zst"
run "bomb: unpack zstd:max=100k" "$WORK/bomb.zst" unpack -p 'zstd:max=100k'
expect_error "bomb: unpack zstd:max=100k" 1 '^codec: zstd: .*limit'
# Over it, the bytes before the limit went out, and the command says so.
run "bomb: unpack zstd:max=1m" "$WORK/bomb.zst" unpack -p 'zstd:max=1m'
expect_rc "bomb: unpack zstd:max=1m" 1
grep -q '^codec: zstd: .*limit' "$ERR" || fail "bomb: unpack zstd:max=1m" "no limit error line"
grep -q 'written to standard output before the error are incomplete and unverified' "$ERR" ||
    fail "bomb: unpack zstd:max=1m" "no warning about the partial output"

finish
