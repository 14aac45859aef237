#!/usr/bin/env bash
# `codec pack` / `codec unpack`: round trips through hex (checked against
# Python's bytes.hex), binary-safe standard input, FILE vs standard input,
# the exit code of each family, the one-line error format, nothing on
# standard output on failure, and the --max-input cap.
. "$(dirname "$0")/cli_lib.bash"

# Every byte value, then Python's idea of its hex forms.
"$PY" -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 3)' >"$WORK/all.bin"
"$PY" -c 'import sys; sys.stdout.write((bytes(range(256)) * 3).hex())' >"$WORK/all.hex"
"$PY" -c 'import sys; sys.stdout.write((bytes(range(256)) * 3).hex().upper().encode().hex())' \
    >"$WORK/all.hexhex"
head -c 1048576 /dev/urandom >"$WORK/random.bin"
: >"$WORK/empty"

run "pack hex, all byte values" "$WORK/all.bin" pack -p hex
expect_rc "pack hex, all byte values" 0
expect_stdout_file "pack hex, all byte values" "$WORK/all.hex"
expect_no_stderr "pack hex, all byte values"

run "unpack hex, all byte values" "$WORK/all.hex" unpack -p hex
expect_rc "unpack hex, all byte values" 0
expect_stdout_file "unpack hex, all byte values" "$WORK/all.bin"

run "pack 'hex:upper | hex'" "$WORK/all.bin" pack -p 'hex:upper | hex'
expect_rc "pack 'hex:upper | hex'" 0
expect_stdout_file "pack 'hex:upper | hex'" "$WORK/all.hexhex"

run "unpack 'hex:upper | hex' (right to left)" "$WORK/all.hexhex" unpack -p 'hex:upper|hex'
expect_rc "unpack 'hex:upper | hex' (right to left)" 0
expect_stdout_file "unpack 'hex:upper | hex' (right to left)" "$WORK/all.bin"

# 1 MiB of random bytes, through a pipe both ways.
"$CODEC" pack -p 'hex | hex:upper' <"$WORK/random.bin" >"$WORK/random.packed" &&
    "$CODEC" unpack -p 'hex | hex:upper' <"$WORK/random.packed" >"$WORK/random.back"
CASES=$((CASES + 1))
cmp -s "$WORK/random.bin" "$WORK/random.back" || fail "1 MiB random round trip" "bytes differ"

# The decoded-size cap as cli.md spells it (`STAGE:max=1g`): options follow
# the stage name after ':' (a ',' before the first option is a usage error).
gzip -c "$WORK/all.bin" >"$WORK/all.gz"
run "unpack gzip:max=1g" "$WORK/all.gz" unpack -p 'gzip:max=1g'
expect_rc "unpack gzip:max=1g" 0
expect_stdout_file "unpack gzip:max=1g" "$WORK/all.bin"
run "unpack gzip,max=1g" "$WORK/all.gz" unpack -p 'gzip,max=1g'
expect_rc "unpack gzip,max=1g" 2

run "FILE argument, -c" /dev/null pack -c -p hex "$WORK/all.bin"
expect_rc "FILE argument, -c" 0
expect_stdout_file "FILE argument, -c" "$WORK/all.hex"

run "'-' is standard input" "$WORK/all.bin" pack -p hex -
expect_stdout_file "'-' is standard input" "$WORK/all.hex"

run "long option --pipeline" "$WORK/all.bin" pack --pipeline=hex
expect_stdout_file "long option --pipeline" "$WORK/all.hex"

run "empty input" "$WORK/empty" pack -p hex
expect_rc "empty input" 0
expect_stdout_file "empty input" "$WORK/empty"

# Exit code per family, with the one-line error and nothing on stdout.
printf '0a1zff' >"$WORK/bad.hex"
run "bad hex digit -> 1" "$WORK/bad.hex" unpack -p hex
expect_error "bad hex digit -> 1" 1 '^codec: hex: not a hex digit \(offset 3\)$'

printf 'abc' >"$WORK/odd.hex"
run "odd hex length -> 1" "$WORK/odd.hex" unpack -p hex
expect_error "odd hex length -> 1" 1 '^codec: hex: .* \(offset 3\)$'

# The outer stage succeeds, the inner one fails: still nothing written.
printf '7a7a7a7a' >"$WORK/inner-bad"
run "inner stage fails, nothing written" "$WORK/inner-bad" unpack -p 'hex | hex'
expect_error "inner stage fails, nothing written" 1 '^codec: hex: not a hex digit \(offset 0\)$'

run "unknown stage -> 2" "$WORK/all.bin" pack -p 'hex | nosuchstage'
expect_error "unknown stage -> 2" 2 "^codec: spec: unknown stage 'nosuchstage'.*\\(offset 6\\)$"

run "bad stage argument -> 2" "$WORK/all.bin" pack -p 'hex:purple'
expect_error "bad stage argument -> 2" 2 "^codec: hex: .*purple"

run "malformed spec -> 2" "$WORK/all.bin" unpack -p 'hex ||'
expect_error "malformed spec -> 2" 2 '^codec: spec: empty stage'

run "missing file -> 4" /dev/null pack -c -p hex "$WORK/does-not-exist"
expect_error "missing file -> 4" 4 "^codec: input: cannot open '.*does-not-exist': No such file"

run "directory as FILE -> 4" /dev/null unpack -c -p hex "$WORK"
expect_error "directory as FILE -> 4" 4 '^codec: input: cannot read'

CASES=$((CASES + 1))
"$CODEC" pack -p hex <"$WORK/all.bin" >/dev/full 2>"$ERR"
RC=$?
expect_rc "write error (/dev/full) -> 4" 4
grep -q '^codec: output: cannot write standard output' "$ERR" ||
    fail "write error (/dev/full) -> 4" "no output error line"

# --max-input: at the cap passes; one byte over fails, from a file or a pipe.
head -c 100 "$WORK/all.bin" >"$WORK/100.bin"
run "--max-input equal to the size" "$WORK/100.bin" pack -p hex --max-input 100
expect_rc "--max-input equal to the size" 0
run "--max-input one under (file)" /dev/null pack -c -p hex --max-input 99 "$WORK/100.bin"
expect_error "--max-input one under (file)" 1 'input: input is larger than --max-input \(99 bytes\)'

CASES=$((CASES + 1))
cat "$WORK/100.bin" | "$CODEC" pack -p hex --max-input 99 >"$OUT" 2>"$ERR"
RC=$?
expect_error "--max-input one under (pipe)" 1 'larger than --max-input \(99 bytes\)'

# An endless standard input stops at the cap. Its output (2 MiB) is past
# what standard output holds back (128 KiB), so part of it went out: the
# command says so on a second line.
CASES=$((CASES + 1))
timeout 20 bash -c 'yes | "$1" pack -p hex --max-input 1m' _ "$CODEC" >"$OUT" 2>"$ERR"
RC=$?
expect_rc "endless stdin, --max-input 1m" 1
grep -Eq '^codec: input: input is larger than --max-input \(1048576 bytes\)' "$ERR" ||
    fail "endless stdin, --max-input 1m" "no limit error line"
grep -q 'written to standard output before the error are incomplete and unverified' "$ERR" ||
    fail "endless stdin, --max-input 1m" "no warning about the partial output"

run "--max-input with a suffix" "$WORK/all.bin" pack -p hex --max-input 1k
expect_rc "--max-input with a suffix" 0

run "bad --max-input -> 2" "$WORK/all.bin" pack -p hex --max-input lots
expect_rc "bad --max-input -> 2" 2
grep -q "^codec: usage: pack: bad --max-input 'lots'" "$ERR" || fail "bad --max-input -> 2" "message"

finish
