#!/usr/bin/env bash
# More than 4 GiB through the command with no disk: generator -> codec pack
# -> codec unpack -> SHA-256, in one pipe. The digests must match, and
# neither codec process may pass the peak RSS bound (64 MiB, the issue's
# ceiling for any input size). ctest label `large` (not part of `make
# test`; run with `make test-large`).
# Environment: CODEC (the binary), CODEC_LARGE_BYTES (default 4.5 GiB),
# CODEC_LARGE_SPEC (default 'zstd | crc32c'), CODEC_LARGE_RSS_KB (65536).
set -euo pipefail
: "${CODEC:?CODEC must name the codec binary (ctest sets it)}"
PY=${PYTHON:-/usr/bin/python3}
BYTES=${CODEC_LARGE_BYTES:-4831838208}
SPEC=${CODEC_LARGE_SPEC:-zstd | crc32c}
BOUND_KB=${CODEC_LARGE_RSS_KB:-65536}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Writes BYTES of text and noise (16 MiB blocks, each rotated, so nothing
# repeats within zstd's window) to stdout and their SHA-256 to argv[2].
gen() {
    "$PY" - "$BYTES" "$WORK/in.sha256" <<'PY'
import hashlib, random, sys
total, digest_path = int(sys.argv[1]), sys.argv[2]
r = random.Random(17)
words = [w.encode() for w in "stream frame block window level checksum pipe byte".split()]
parts = []
for i in range(4096):
    if i % 2:
        parts.append(r.randbytes(4096))
    else:
        parts.append(b" ".join(r.choice(words) for _ in range(700))[:4096])
block = b"".join(parts)
h = hashlib.sha256()
out = sys.stdout.buffer
i = written = 0
while written < total:
    off = (i * 7919) % len(block)
    piece = (block[off:] + block[:off])[: total - written]
    h.update(piece)
    out.write(piece)
    written += len(piece)
    i += 1
out.flush()
open(digest_path, "w").write(h.hexdigest() + "\n")
PY
}

start=$(date +%s)
gen | /usr/bin/time -f %M -o "$WORK/pack.rss" "$CODEC" pack -p "$SPEC" |
    /usr/bin/time -f %M -o "$WORK/unpack.rss" "$CODEC" unpack -p "$SPEC" |
    sha256sum | cut -d' ' -f1 >"$WORK/out.sha256"
elapsed=$(( $(date +%s) - start ))

fail=0
if ! cmp -s "$WORK/in.sha256" "$WORK/out.sha256"; then
    echo "FAIL: SHA-256 differs: in $(cat "$WORK/in.sha256"), out $(cat "$WORK/out.sha256")" >&2
    fail=1
fi
for side in pack unpack; do
    rss=$(tail -1 "$WORK/$side.rss")
    echo "$side: peak RSS ${rss} KiB (bound ${BOUND_KB} KiB)"
    if [ "$rss" -gt "$BOUND_KB" ]; then
        echo "FAIL: codec $side peaked at ${rss} KiB" >&2
        fail=1
    fi
done
echo "pipe_4g.sh: $BYTES bytes through '$SPEC' in ${elapsed} s"
exit $fail
