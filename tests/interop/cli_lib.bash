# cli_lib.bash — sourced by tests/interop/cli_*.sh (not a test itself: ctest
# runs *.sh only). Runs the `codec` binary named by $CODEC and checks exit
# codes, standard output and standard error; every failed check prints the
# case name, and finish() makes the script exit 1 if any failed.
set -u

: "${CODEC:?CODEC must name the codec binary (ctest sets it)}"
PY=${PYTHON:-/usr/bin/python3}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
OUT=$WORK/stdout
ERR=$WORK/stderr
FAILED=0
CASES=0
RC=0

fail() {
    echo "FAIL [$1]: $2" >&2
    if [ -s "$ERR" ]; then echo "  stderr: $(head -c 400 "$ERR")" >&2; fi
    FAILED=$((FAILED + 1))
}

# built_with LIB — true unless this configuration left LIB out (ctest sets
# CODEC_WITHOUT, e.g. "brotli,snappy", from the CODEC_WITH_* options).
built_with() {
    [[ ",${CODEC_WITHOUT:-}," != *",$1,"* ]]
}

# expect_built_without NAME LIB — the last run refused a stage of LIB: exit 3
# (unsupported) and "built without LIB".
expect_built_without() {
    expect_rc "$1" 3
    grep -q "built without $2" "$ERR" || fail "$1" "no 'built without $2' on stderr"
}

# run NAME INPUT ARGS... — runs codec with INPUT as standard input (a file,
# or /dev/null); sets RC, OUT and ERR.
run() {
    local input=$2
    shift 2
    CASES=$((CASES + 1))
    "$CODEC" "$@" <"$input" >"$OUT" 2>"$ERR"
    RC=$?
}

expect_rc() {  # NAME WANT
    if [ "$RC" -ne "$2" ]; then fail "$1" "exit code $RC, want $2"; fi
}

expect_no_stdout() {  # NAME
    if [ -s "$OUT" ]; then fail "$1" "wrote $(wc -c <"$OUT") bytes to stdout on failure"; fi
}

expect_stdout_file() {  # NAME FILE
    if ! cmp -s "$OUT" "$2"; then fail "$1" "stdout differs from $(basename "$2")"; fi
}

expect_no_stderr() {  # NAME
    if [ -s "$ERR" ]; then fail "$1" "unexpected stderr"; fi
}

# expect_error NAME RC REGEX — the exit code, nothing on stdout, and exactly
# one stderr line matching the extended regex.
expect_error() {
    expect_rc "$1" "$2"
    expect_no_stdout "$1"
    local lines
    lines=$(wc -l <"$ERR")
    if [ "$lines" -ne 1 ]; then fail "$1" "$lines stderr lines, want 1"; fi
    if ! grep -Eq -- "$3" "$ERR"; then fail "$1" "stderr does not match /$3/"; fi
}

expect_line() {  # NAME LINE — stdout has this exact line
    if ! grep -Fxq -- "$2" "$OUT"; then
        fail "$1" "no line '$2' in stdout: $(tr '\n' '|' <"$OUT" | head -c 400)"
    fi
}

expect_no_line() {  # NAME PREFIX — no stdout line starts with PREFIX
    if grep -q -- "^$2" "$OUT"; then fail "$1" "unexpected line '$(grep -- "^$2" "$OUT")'"; fi
}

finish() {
    if [ "$FAILED" -ne 0 ]; then
        echo "$(basename "$0"): $FAILED failed checks in $CASES cases" >&2
        exit 1
    fi
    echo "$(basename "$0"): all $CASES cases passed"
}

# start_redis_server — starts /usr/bin/redis-server on 127.0.0.1 at a free
# port with its files in $WORK/redis (no persistence), waits for PING; sets
# PORT, URL and SERVER, defines rcli, and stops the server at exit (before
# $WORK is removed).
start_redis_server() {
    PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    mkdir "$WORK/redis"
    /usr/bin/redis-server --bind 127.0.0.1 --port "$PORT" --dir "$WORK/redis" --save "" \
        --appendonly no --daemonize no --logfile server.log &
    SERVER=$!
    trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
    for _ in $(seq 200); do
        [ "$(redis-cli -h 127.0.0.1 -p "$PORT" PING 2>/dev/null)" = PONG ] && break
        sleep 0.05
    done
    URL=redis://127.0.0.1:$PORT
}
rcli() { redis-cli -h 127.0.0.1 -p "$PORT" "$@"; }
