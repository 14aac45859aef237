#!/usr/bin/env bash
# example_redis_cache.bash EXAMPLE CODEC — runs examples/redis-cache.c
# against a real redis-server this script starts (127.0.0.1, a free port, a
# temporary directory) with a temporary 0600 key ring made by `codec keygen`,
# and checks that the first read of order 42 misses (loads from the
# "database") and the second hits the cache, the order intact both times.
# Not a *.sh: the top CMakeLists.txt registers it next to the examples, as it
# needs the example's path. Skips (exit 0, with a note) without redis-server.
set -u
EXAMPLE=$1
CODEC=$2
if [ ! -x /usr/bin/redis-server ]; then
    echo "note: no /usr/bin/redis-server: skipping"
    exit 0
fi
WORK=$(mktemp -d)
PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
/usr/bin/redis-server --bind 127.0.0.1 --port "$PORT" --dir "$WORK" --save "" \
    --appendonly no --daemonize no --logfile server.log &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 200); do
    [ "$(redis-cli -h 127.0.0.1 -p "$PORT" PING 2>/dev/null)" = PONG ] && break
    sleep 0.05
done
FAILED=0
fail() { echo "FAIL [$1]: $2" >&2; FAILED=$((FAILED + 1)); }

RING=$WORK/orders.ring
(umask 077 && "$CODEC" keygen --id orders-1 >"$RING") || fail keygen "codec keygen failed"
ORDER="order 42 from the %s: cust-01554, paid, 2 items, total 42.50"

# check NAME SPEC — the example through SPEC: a miss, then a hit.
check() {
    local out
    out=$(REDIS_URL=redis://127.0.0.1:$PORT "$EXAMPLE" "$2" 2>"$WORK/stderr")
    local rc=$?
    [ $rc -eq 0 ] || fail "$1" "exit $rc: $(head -c 400 "$WORK/stderr")"
    [ -s "$WORK/stderr" ] && fail "$1" "stderr: $(head -c 400 "$WORK/stderr")"
    # shellcheck disable=SC2059
    local want
    want=$(printf "$ORDER\n$ORDER" "database (miss)" "cache (hit)")
    [ "$out" = "$want" ] || fail "$1" "stdout is '$out', not '$want'"
}

check default-spec "json | zstd:3 | envelope:keyring=$RING"
check binary-backend "msgpack | lz4"
# The example deletes its key at the end, so a second run misses again.
check rerun "json | zstd:3 | envelope:keyring=$RING"
[ "$(redis-cli -h 127.0.0.1 -p "$PORT" DBSIZE)" = 0 ] || fail cleanup "keys left behind"

# Another ring cannot read what this ring wrote: the cached value is
# dropped (quarantined) and the order is loaded from the database again.
RING2=$WORK/other.ring
(umask 077 && "$CODEC" keygen --id other-1 >"$RING2") || fail keygen "codec keygen failed"
printf '{"id":42,"customer":"cust-01554","paid":true,"items":[]}' |
    "$CODEC" pack -p "zstd:3 | envelope:keyring=$RING2" >"$WORK/foreign" ||
    fail foreign "codec pack failed"
redis-cli -h 127.0.0.1 -p "$PORT" -x SET order:42 <"$WORK/foreign" >/dev/null
out=$(REDIS_URL=redis://127.0.0.1:$PORT "$EXAMPLE" "json | zstd:3 | envelope:keyring=$RING" 2>"$WORK/stderr")
[ "$(echo "$out" | head -1)" = "$(printf "$ORDER" "database (miss)")" ] ||
    fail foreign "a value from another ring was not treated as a miss: '$out'"
grep -q "dropping a value that does not decode" "$WORK/stderr" ||
    fail foreign "no quarantine message: $(head -c 400 "$WORK/stderr")"

[ $FAILED -eq 0 ] && echo "ok: example redis-cache, miss then hit" || exit 1
