#!/usr/bin/env bash
# `codec pack`/`unpack` as a gzip/zstd-style command: file naming and
# removal, -c -o -k -f -q -v -T --, several files, the terminal refusal,
# no partial output files, checksums on by default, truthful errors, and
# text wrapping read back by coreutils and written by it.
. "$(dirname "$0")/cli_lib.bash"

"$PY" - "$WORK/prose" <<'PY'
import random, sys
r = random.Random(3)
words = "stream frame block window level checksum output input pipe".split()
with open(sys.argv[1], "w") as f:
    f.write(" ".join(r.choice(words) for _ in range(400000)))
PY
cp "$WORK/prose" "$WORK/keep.orig"

in_dir() { (cd "$WORK/d" && "$CODEC" "$@") >"$OUT" 2>"$ERR"; RC=$?; CASES=$((CASES + 1)); }
fresh() { rm -rf "$WORK/d"; mkdir "$WORK/d"; for f in "$@"; do cp "$WORK/prose" "$WORK/d/$f"; done; }
exists() { [ -e "$WORK/d/$2" ] || fail "$1" "no $2"; }
absent() { [ ! -e "$WORK/d/$2" ] || fail "$1" "$2 should not exist"; }
no_temp() { ! ls -a "$WORK/d" | grep -q 'codec-' || fail "$1" "a temporary file was left: $(ls -a "$WORK/d")"; }

# FILE -> FILE.zst, input removed; -d undoes it; the zstd tool reads it.
fresh a
in_dir pack -p zstd a
expect_rc "pack FILE" 0
exists "pack FILE" a.zst
absent "pack FILE removes the input" a
zstd -lv "$WORK/d/a.zst" 2>&1 | grep -q 'Check: XXH64' || fail "checksum on by default" "no XXH64 check in the frame"
zstd -dcq "$WORK/d/a.zst" | cmp -s - "$WORK/prose" || fail "zstd reads FILE.zst" "bytes differ"
in_dir pack -d -p zstd a.zst
expect_rc "pack -d FILE.zst" 0
exists "pack -d FILE.zst" a
absent "pack -d removes FILE.zst" a.zst
cmp -s "$WORK/d/a" "$WORK/prose" || fail "pack -d FILE.zst" "bytes differ"

# -k keeps, -f overwrites, without -f an existing output is kept.
fresh a
in_dir pack -k -p gzip a
exists "-k keeps the input" a
exists "-k" a.gz
gzip -dc "$WORK/d/a.gz" | cmp -s - "$WORK/prose" || fail "gzip reads FILE.gz" "bytes differ"
# The prose is over 1 MiB: deflate streams in parts with empty stored
# blocks between them, which zlib (Python's) reads as one stream.
"$CODEC" pack -c -p deflate:9 <"$WORK/prose" |
    "$PY" -c 'import sys, zlib; sys.stdout.buffer.write(zlib.decompress(sys.stdin.buffer.read()))' |
    cmp -s - "$WORK/prose" || fail "zlib reads deflate:9 in parts" "bytes differ"
CASES=$((CASES + 1))
in_dir pack -k -p gzip a
expect_rc "existing output without -f" 2
grep -q 'a.gz already exists; not overwritten' "$ERR" || fail "existing output without -f" "message"
in_dir pack -k -f -p gzip:9 a
expect_rc "-f overwrites" 0
no_temp "-f overwrites"

# Several files, each to its own FILE.<suffix>; suffixes from the last stage that has one.
fresh a b c
in_dir pack -p 'lz4 | crc32c' a b c
expect_rc "several files" 0
for f in a b c; do exists "several files" "$f.lz4"; done
in_dir unpack -p 'lz4 | crc32c' a.lz4 b.lz4 c.lz4
for f in a b c; do cmp -s "$WORK/d/$f" "$WORK/prose" || fail "several files back" "$f differs"; done
fresh a
in_dir pack -p 'brotli:4' a && exists ".br" a.br
fresh a
in_dir pack -p 'zstd | base64' a && exists ".b64 (text last)" a.b64

# unpack of a name without the suffix is refused, nothing written.
fresh a
in_dir unpack -p zstd a
expect_rc "unknown suffix" 2
grep -q "a: unknown suffix (expected .zst) -- ignored" "$ERR" || fail "unknown suffix" "message"

# -c and -o; -- ends the options (a file named -k).
fresh a
in_dir pack -c -p zstd a
expect_rc "-c" 0
exists "-c keeps the input" a
zstd -dcq <"$OUT" | cmp -s - "$WORK/prose" || fail "-c" "bytes differ"
in_dir pack -p zstd -o out.zst a
exists "-o" out.zst
absent "-o does not name FILE.zst" a.zst
in_dir pack -p hex -o x a a
expect_rc "-o with two inputs" 2
cp "$WORK/prose" "$WORK/d/-k"
in_dir pack -p zstd -- -k
expect_rc "-- then a file named -k" 0
exists "-- then a file named -k" -k.zst
absent "-- then a file named -k" -k

# -v reports sizes, -q silences, -T 2 gives zstd workers (same data back).
fresh a
in_dir pack -v -k -T 2 -p zstd:19 a
grep -Eq '^codec: a: [0-9]+ -> [0-9]+ bytes \([0-9.]+%\), wrote a.zst$' "$ERR" || fail "-v" "no size line"
zstd -dcq "$WORK/d/a.zst" | cmp -s - "$WORK/prose" || fail "-T 2" "bytes differ"
in_dir pack -q -k -f -p zstd a
expect_no_stderr "-q"

# A failure leaves no output file and no temporary file; the input stays.
fresh a
head -c 100000 "$WORK/prose" | gzip -c | head -c 5000 >"$WORK/d/t.gz"
in_dir unpack -p gzip t.gz
expect_rc "truncated gzip" 1
grep -q "t.gz: gzip: unexpected end of input (offset 5000)" "$ERR" || fail "truncated gzip" "message: $(cat "$ERR")"
absent "truncated gzip: no output" t
exists "truncated gzip: input kept" t.gz
no_temp "truncated gzip"

# Output files go through one helper (tools/codec/outfile.c, shared with
# `dict train -o`): a fatal signal mid-stream removes the temporary file and
# leaves no output; a FIFO or /dev/null is written in place, never replaced;
# a symbolic link's file is written; a directory is refused.
fresh a
mkfifo "$WORK/slow"
( head -c 200000 "$WORK/prose"; sleep 30 ) >"$WORK/slow" &
FEEDER=$!
(cd "$WORK/d" && exec "$CODEC" pack -p zstd -o out.zst <"$WORK/slow") 2>"$ERR" &
PACKER=$!
for _ in $(seq 1 50); do ls -a "$WORK/d" | grep -q 'codec-' && break; sleep 0.1; done
ls -a "$WORK/d" | grep -q 'codec-' || fail "signal" "no temporary file while streaming"
kill -TERM "$PACKER"
wait "$PACKER"
[ $? -eq 143 ] || fail "signal" "codec did not die of SIGTERM"
kill "$FEEDER" 2>/dev/null; wait "$FEEDER" 2>/dev/null
absent "SIGTERM: no output" out.zst
no_temp "SIGTERM"
rm -f "$WORK/slow"

fresh a
mkfifo "$WORK/d/fifo"
zstd -dcq <"$WORK/d/fifo" >"$WORK/from-fifo" &
READER=$!
in_dir pack -f -k -p zstd -o fifo a
expect_rc "-o FIFO" 0
wait "$READER"
cmp -s "$WORK/from-fifo" "$WORK/prose" || fail "-o FIFO" "the reader got other bytes"
[ -p "$WORK/d/fifo" ] || fail "-o FIFO" "the FIFO was replaced"
no_temp "-o FIFO"
in_dir pack -f -k -p zstd -o /dev/null a
expect_rc "-o /dev/null" 0
[ -c /dev/null ] || fail "-o /dev/null" "/dev/null is no longer a device"

fresh a
: >"$WORK/d/real"
ln -s real "$WORK/d/link"
in_dir pack -f -k -p gzip -o link a
expect_rc "-o symbolic link" 0
[ -L "$WORK/d/link" ] || fail "-o symbolic link" "the link was replaced"
gzip -dc "$WORK/d/real" | cmp -s - "$WORK/prose" || fail "-o symbolic link" "the linked file does not hold the output"
mkdir "$WORK/d/adir"
in_dir pack -f -k -p gzip -o adir a
expect_rc "-o directory" 4
grep -q "cannot write 'adir': it is a directory" "$ERR" || fail "-o directory" "message: $(cat "$ERR")"
no_temp "-o directory"

# A flipped byte in a checksummed zstd frame: exit 1, no output file.
fresh a
in_dir pack -k -p zstd a
"$PY" -c "
import sys; p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); b[len(b) // 2] ^= 0x10
open(p, 'wb').write(b)" "$WORK/d/a.zst"
rm "$WORK/d/a"
in_dir unpack -p zstd a.zst
expect_rc "flipped byte -> 1" 1
absent "flipped byte: no output" a
no_temp "flipped byte"
run "flipped byte, pipe -> 1" "$WORK/d/a.zst" unpack -p zstd
expect_rc "flipped byte, pipe -> 1" 1
run "--no-check writes no checksum" "$WORK/prose" pack --no-check -p zstd
zstd -lv - <"$OUT" 2>&1 | grep -q 'Check: XXH64' && fail "--no-check" "frame has a checksum"

# --max-output against bombs, and an explicit max= in the spec.
head -c 30000000 /dev/zero | zstd -19cq >"$WORK/bomb.zst"
run "--max-output" "$WORK/bomb.zst" unpack -p zstd --max-output 1m
expect_rc "--max-output" 1
grep -q 'output exceeds the limit of 1048576 bytes' "$ERR" || fail "--max-output" "message"
run "no cap by default" "$WORK/bomb.zst" unpack -p zstd
expect_rc "no cap by default" 0
[ "$(wc -c <"$OUT")" -eq 30000000 ] || fail "no cap by default" "size"

# The terminal: binary output refused unless -f (gzip's words).
if "$PY" -c 'import pty' 2>/dev/null; then
    CASES=$((CASES + 1))
    "$PY" - "$CODEC" "$WORK/prose" >"$WORK/tty.out" <<'PY'
import os, pty, sys
codec, src = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.dup2(os.open(src, os.O_RDONLY), 0)
    os.execv(codec, [codec, "pack", "-p", "zstd"])
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(f"{os.waitstatus_to_exitcode(status)}\n{out.decode(errors='replace')}")
PY
    head -1 "$WORK/tty.out" | grep -qx 1 || fail "terminal refusal" "exit $(head -1 "$WORK/tty.out")"
    grep -q 'compressed data not written to a terminal. Use -f to force compression.' "$WORK/tty.out" ||
        fail "terminal refusal" "message"
fi

# Progress on a terminal's standard error (input arriving over 2.5 s), and none with -q.
progress_run() {  # ARGS... — prints what codec wrote to a pty as its stderr
    "$PY" - "$CODEC" "$@" <<'PY'
import os, pty, subprocess, sys, time
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
for _ in range(3):
    p.stdin.write(os.urandom(1 << 20)); p.stdin.flush(); time.sleep(1.25)
p.stdin.close()
p.wait()
out = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
sys.stdout.write(out.decode(errors="replace"))
PY
}
if "$PY" -c 'import pty' 2>/dev/null; then
    CASES=$((CASES + 1))
    progress_run pack -p zstd >"$WORK/progress.out"
    grep -Eq 'standard input: [0-9.]+ MiB -> [0-9.]+ MiB \([0-9.]+%\) [0-9.]+ MiB/s' "$WORK/progress.out" ||
        fail "progress line" "none: $(head -c 300 "$WORK/progress.out")"
    CASES=$((CASES + 1))
    progress_run pack -q -p zstd >"$WORK/progress-q.out"
    [ ! -s "$WORK/progress-q.out" ] || fail "-q silences progress" "$(head -c 200 "$WORK/progress-q.out")"
fi

# Errors that tell the truth.
run "did you mean" "$WORK/prose" pack -p zstdd
expect_error "did you mean" 2 "unknown stage 'zstdd'; did you mean 'zstd'\\?"
run "wrong case" "$WORK/prose" pack -p ZSTD
expect_error "wrong case" 2 "stage names are lower case \\('zstd'\\)"
head -c 1000 "$WORK/prose" | zstd -q --no-check -c | head -c 20 >"$WORK/short.zst"
run "no double prefix" "$WORK/short.zst" unpack -p zstd
grep -q 'zstd: zstd:' "$ERR" && fail "no double prefix" "$(cat "$ERR")"

# Text: coreutils base64 output decodes (lines=skip), wrap=76 writes it.
base64 "$WORK/prose" >"$WORK/prose.b64"
run "base64 FILE | unpack base64" "$WORK/prose.b64" unpack -p base64
expect_rc "base64 FILE | unpack base64" 0
expect_stdout_file "base64 FILE | unpack base64" "$WORK/prose"
base32 "$WORK/prose" >"$WORK/prose.b32"
run "base32 FILE | unpack base32" "$WORK/prose.b32" unpack -p base32
expect_stdout_file "base32 FILE | unpack base32" "$WORK/prose"
run "lines=strict refuses the newline" "$WORK/prose.b64" unpack -p base64:lines=strict
expect_rc "lines=strict refuses the newline" 1
{ head -c 1000 "$WORK/prose.b64"; printf '*'; tail -c +1001 "$WORK/prose.b64"; } >"$WORK/prose.b64.bad"
run "line breaks are skipped, other bytes are not" "$WORK/prose.b64.bad" unpack -p base64
expect_rc "line breaks are skipped, other bytes are not" 1
run "pack base64:wrap=76 = base64" "$WORK/prose" pack -p base64:wrap=76
expect_stdout_file "pack base64:wrap=76 = base64" "$WORK/prose.b64"
base64 -d <"$OUT" | cmp -s - "$WORK/prose" || fail "base64 -d reads wrap=76" "bytes differ"

# With CODEC_READ_AHEAD=on a second thread reads ahead past the first
# 128 KiB (by default the command reads alone); both ways: through pipes
# (short reads), a decoding error while the writer keeps the pipe open (the
# command must not wait for the rest, and leaves no file), and --max-input
# past the first read.
for ahead in on off; do
    CASES=$((CASES + 1))
    cat "$WORK/prose" "$WORK/prose" | CODEC_READ_AHEAD=$ahead "$CODEC" pack -p zstd |
        CODEC_READ_AHEAD=$ahead "$CODEC" unpack -p zstd >"$WORK/rt.out" 2>"$ERR" &&
        cat "$WORK/prose" "$WORK/prose" | cmp -s - "$WORK/rt.out" ||
        fail "read-ahead $ahead through pipes" "bytes differ"
done
head -c 1048576 /dev/urandom >"$WORK/rand"
{ zstd -q -c "$WORK/rand"; head -c 100000 "$WORK/prose"; } >"$WORK/trailing.zst"
for ahead in on off; do
    export CODEC_READ_AHEAD=$ahead
    CASES=$((CASES + 1))
    timeout 60 "$CODEC" unpack -p zstd \
        <(cat "$WORK/trailing.zst"; exec sleep 120) -o "$WORK/t.out" >"$OUT" 2>"$ERR"
    RC=$?
    kill "$!" 2>/dev/null
    [ "$RC" -ne 124 ] || fail "decoding error, pipe left open ($ahead)" "the command waited for the pipe"
    expect_rc "decoding error, pipe left open ($ahead)" 1
    [ ! -e "$WORK/t.out" ] || fail "decoding error, pipe left open ($ahead)" "partial output file"
    ls -a "$WORK" | grep -q 'codec-' && fail "decoding error, pipe left open ($ahead)" "temporary file left"
    run "--max-input past the first read ($ahead)" "$WORK/prose" \
        pack -p zstd --max-input 1500k -o "$WORK/mi.zst"
    expect_error "--max-input past the first read ($ahead)" 1 \
        'input is larger than --max-input \(1536000 bytes\)'
    [ ! -e "$WORK/mi.zst" ] || fail "--max-input past the first read ($ahead)" "partial output file"
done
unset CODEC_READ_AHEAD

finish
