#!/usr/bin/env bash
# `snappy:framed` against python-snappy's framing format (Debian
# python3-snappy): its stream_compress output codec reads, and codec's
# output its stream_decompress reads; both ways one-shot and streamed.
# Debian's python3-snappy 0.5.3 cannot compute CRC-32C under Python 3.11
# (its C helper lacks PY_SSIZE_T_CLEAN), so the peer takes CRC-32C from
# python3-crcmod; the framing and compression stay python-snappy's.
. "$(dirname "$0")/cli_lib.bash"

"$PY" - "$WORK" <<'PY'
import io, os, random, sys
import crcmod.predefined, snappy, snappy.snappy as ss
ss._crc32c = crcmod.predefined.mkCrcFun('crc-32c')
work = sys.argv[1]
r = random.Random(11)
cases = {"empty": b"", "small": b"abc", "block": bytes(65536),
         "mixed": bytes(r.getrandbits(8) for _ in range(70000)) + b"stream " * 50000}
for name, data in cases.items():
    open(f"{work}/{name}", "wb").write(data)
    out = io.BytesIO()
    snappy.stream_compress(io.BytesIO(data), out)
    open(f"{work}/{name}.py.sz", "wb").write(out.getvalue())
PY

for name in empty small block mixed; do
    run "$name: python -> codec" "$WORK/$name.py.sz" unpack -p snappy:framed
    expect_rc "$name: python -> codec" 0
    cmp -s "$OUT" "$WORK/$name" || fail "$name: python -> codec" "different bytes"
    run "$name: codec -> python" "$WORK/$name" pack -p snappy:framed
    expect_rc "$name: codec -> python" 0
    cp "$OUT" "$WORK/$name.codec.sz"
    if ! "$PY" - "$WORK/$name.codec.sz" "$WORK/$name" <<'PY'
import io, sys
import crcmod.predefined, snappy, snappy.snappy as ss
ss._crc32c = crcmod.predefined.mkCrcFun('crc-32c')
out = io.BytesIO()
snappy.stream_decompress(io.BytesIO(open(sys.argv[1], "rb").read()), out)
sys.exit(0 if out.getvalue() == open(sys.argv[2], "rb").read() else 1)
PY
    then fail "$name: codec -> python" "python-snappy read different bytes"; fi
done

# A flipped byte in a chunk fails its checksum.
"$PY" -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[40] ^= 1
open(sys.argv[2], 'wb').write(b)" "$WORK/mixed.py.sz" "$WORK/flipped.sz"
run "flipped" "$WORK/flipped.sz" unpack -p snappy:framed
expect_rc "flipped" 1

finish
