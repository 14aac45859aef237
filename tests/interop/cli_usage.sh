#!/usr/bin/env bash
# The command line itself: --help, help CMD, --version, list, and the usage
# errors (one error line plus a hint, exit 2).
. "$(dirname "$0")/cli_lib.bash"

COMMANDS="pack unpack inspect list keygen dict validate convert"
# The redis command exists only in a build with hiredis.
if built_with hiredis; then
    COMMANDS="$COMMANDS redis"
else
    run "redis without hiredis" /dev/null redis get k -p hex
    expect_rc "redis without hiredis" 2
    grep -q "unknown command 'redis'" "$ERR" || fail "redis without hiredis" "not an unknown command"
fi

run "--help" /dev/null --help
expect_rc "--help" 0
expect_no_stderr "--help"
for cmd in $COMMANDS; do
    grep -Eq "^  $cmd +[a-z]" "$OUT" || fail "--help" "command '$cmd' is not listed"
done

# Every exit code of cli.md's table is named in --help.
for code in $(sed -n 's/^| \([0-9]\) | .*/\1/p' "$ROOT/docs/guides/cli.md"); do
    grep -Eq "(codes:|,|^) *$code [a-z]" "$OUT" || fail "--help exit codes" "exit code $code is not listed"
done
[ "$(sed -n 's/^| \([0-9]\) | .*/\1/p' "$ROOT/docs/guides/cli.md" | wc -l)" -eq 6 ] ||
    fail "--help exit codes" "cli.md's exit code table does not have the 6 codes 0..5"

run "help CMD" /dev/null help
expect_rc "help" 0
for cmd in $COMMANDS; do
    run "help $cmd" /dev/null help "$cmd"
    expect_rc "help $cmd" 0
    grep -q "^usage: codec $cmd" "$OUT" || fail "help $cmd" "no usage line"
    cp "$OUT" "$WORK/help"
    run "$cmd --help" /dev/null "$cmd" --help
    expect_stdout_file "$cmd --help is help $cmd" "$WORK/help"
done

run "no arguments" /dev/null
expect_rc "no arguments" 2
expect_no_stdout "no arguments"
grep -q '^usage: codec COMMAND' "$ERR" || fail "no arguments" "no usage on stderr"

# --version: the project's version (CMakeLists.txt), then the CPU features.
VERSION=$(sed -n 's/^project(codec VERSION \([0-9.]*\) .*/\1/p' "$ROOT/CMakeLists.txt")
[ -n "$VERSION" ] || fail "--version" "no project(codec VERSION ...) in CMakeLists.txt"
run "--version" /dev/null --version
expect_rc "--version" 0
[ "$(sed -n 1p "$OUT")" = "codec $VERSION" ] || fail "--version" "first line is '$(sed -n 1p "$OUT")'"
sed -n 2p "$OUT" | grep -Eq '^cpu: ((sse4\.2|pclmul|avx2|bmi2|avx512|avx512vbmi|vpclmulqdq) ?)+$|^cpu: baseline( x86-64)?$' ||
    fail "--version" "second line is '$(sed -n 2p "$OUT")'"
CASES=$((CASES + 1))
CODEC_CPU_MASK=0 "$CODEC" --version >"$OUT" 2>"$ERR"
grep -Eqx 'cpu: baseline( x86-64)?' "$OUT" || fail "--version with CODEC_CPU_MASK=0" "$(cat "$OUT")"

# list: every row of the registry, under its kind.
run "list" /dev/null list
expect_rc "list" 0
expect_line "list" "text:"
expect_line "list" "  hex              base16; decode accepts both cases"
expect_line "list" "                   args: lower|upper (default lower), wrap=N, lines=strict|skip, kernel=auto|scalar|avx2|avx512"
for stage in $(grep -o '{{"[a-z0-9_-]*"' "$ROOT/src/compose/registry.c" | tr -d '{"'); do
    grep -Eq "^  $stage +" "$OUT" || fail "list" "registered stage '$stage' is missing"
done

# Usage errors: one line naming the problem, one hint line, exit 2.
usage_error() {  # NAME REGEX ARGS...
    local name=$1 regex=$2
    shift 2
    run "$name" /dev/null "$@"
    expect_rc "$name" 2
    expect_no_stdout "$name"
    [ "$(wc -l <"$ERR")" -eq 2 ] || fail "$name" "want an error line and a hint line"
    sed -n 1p "$ERR" | grep -Eq -- "$regex" || fail "$name" "error line does not match /$regex/"
    sed -n 2p "$ERR" | grep -Eq "^Try 'codec (--help|help [a-z]+)'\.$" || fail "$name" "no hint"
}
usage_error "unknown command" "^codec: usage: unknown command 'frobnicate'$" frobnicate
usage_error "option before the command" "^codec: usage: unknown option '--frob'" --frob
usage_error "help for an unknown command" "^codec: usage: unknown command 'nope'$" help nope
usage_error "pack without -p" "^codec: usage: pack: missing -p SPEC" pack
usage_error "unpack without -p" "^codec: usage: unpack: missing -p SPEC" unpack
usage_error "-p without a value" "^codec: usage: pack: option '-p' needs a value$" pack -p
usage_error "unknown short option" "^codec: usage: unpack: unknown option '-z'$" unpack -z -p hex
usage_error "unknown letter in a cluster" "^codec: usage: pack: unknown option '-x'$" pack -p hex -xz
usage_error "long option without its value" "^codec: usage: pack: option '--pipeline' needs a value$" pack --pipeline
usage_error "value given to a flag" "^codec: usage: pack: option '--help=3' takes no value$" pack --help=3
usage_error "unknown long option" "^codec: usage: inspect: unknown option '--deep'$" inspect --deep
usage_error "-o with two input files" "^codec: usage: pack: -o names one output" pack -p hex -o x a b
usage_error "list takes no arguments" "^codec: usage: list: unexpected argument 'x'$" list x

finish
