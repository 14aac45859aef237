#!/usr/bin/env bash
# `codec pack` and `unpack` stay small (issue 17: peak RSS within 2x of the
# tool's): on 16 MiB, GNU time's peak RSS of `codec pack -p base64`,
# `unpack -p base64` and `pack -p lz4` is under BOUND times the peak of
# coreutils' `base64` on the same input (the floor of a process that maps
# only libc, measured here, so the bound follows the machine). The bound is
# generous (the cli suite measures the real ratios): it catches a buffer
# that grows with the input, a held output, or a library loaded for
# nothing. No timing. Fails without /usr/bin/time (make test installs GNU
# time); skipped (exit 77, which ctest reports as skipped) for instrumented
# builds, whose sanitizer or coverage runtimes have floors of their own.
. "$(dirname "$0")/cli_lib.bash"

BOUND=2.2
if [ ! -x /usr/bin/time ] || ! command -v base64 >/dev/null; then
    echo "FAIL: no /usr/bin/time or base64 (make test installs them)"
    exit 1
fi
if readelf -d "$CODEC" | grep -q 'NEEDED.*san\.so' || nm "$CODEC" 2>/dev/null |
    grep -qE '__llvm_profile_runtime|__asan_init|__tsan_init|__msan_init'; then
    echo "note: instrumented build: skipped"
    exit 77
fi

# 16 MiB: text (README.md over and over), then random bytes for lz4.
while [ "$(stat -c %s "$WORK/in" 2>/dev/null || echo 0)" -lt $((16 << 20)) ]; do
    cat "$ROOT/README.md" "$ROOT/docs/guides/cli.md" >>"$WORK/in"
done
head -c $((16 << 20)) /dev/urandom >"$WORK/random"

# peak NAME FILE CMD... — KiB of peak RSS of CMD (stdout to FILE) into PEAK.
peak() {
    local name=$1 out=$2
    shift 2
    CASES=$((CASES + 1))
    if ! /usr/bin/time -f %M -o "$WORK/rss" "$@" >"$out" 2>"$ERR"; then
        fail "$name" "exit code not 0"
    fi
    PEAK=$(tail -1 "$WORK/rss")
}

peak "base64 (the reference)" "$WORK/in.b64" base64 "$WORK/in"
TOOL=$PEAK
LIMIT=$(awk -v t="$TOOL" -v b="$BOUND" 'BEGIN { printf "%d", t * b }')

check() {  # NAME OUTFILE CMD...
    local name=$1
    peak "$@"
    if [ "$PEAK" -gt "$LIMIT" ]; then
        fail "$name" "peak RSS $PEAK KiB, over $BOUND x base64's $TOOL KiB ($LIMIT KiB)"
    fi
}

check "pack base64" "$WORK/c.b64" "$CODEC" pack -q -c -p base64:wrap=76 "$WORK/in"
cmp -s "$WORK/c.b64" "$WORK/in.b64" || fail "pack base64" "differs from base64's"
check "unpack base64" /dev/null "$CODEC" unpack -q -c -p base64 "$WORK/in.b64"
check "pack lz4" "$WORK/r.lz4" "$CODEC" pack -q -c -p lz4 "$WORK/random"
check "unpack lz4" /dev/null "$CODEC" unpack -q -c -p lz4 "$WORK/r.lz4"
gzip -1 -c "$WORK/in" >"$WORK/in.gz"
check "unpack gzip" /dev/null "$CODEC" unpack -q -c -p gzip "$WORK/in.gz"

finish
