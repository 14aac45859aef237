#!/usr/bin/env bash
# example_redis_cache.bash EXAMPLE CODEC — runs examples/redis-cache.c
# against a real redis-server this script starts (127.0.0.1, a free port, a
# temporary directory) with a temporary 0600 key ring made by `codec keygen`,
# and checks that the first read of order 42 misses (loads from the
# "database") and the second hits the cache, the order intact both times.
# Not a *.sh: the top CMakeLists.txt registers it next to the examples, as it
# needs the example's path. Fails without redis-server.
EXAMPLE=$1
CODEC=$2
source "$(dirname "$0")/cli_lib.bash"

if [ ! -x /usr/bin/redis-server ]; then
    echo "FAIL: no /usr/bin/redis-server (make test installs it)"
    exit 1
fi
start_redis_server

RING=$WORK/orders.ring
(umask 077 && "$CODEC" keygen --id orders-1 >"$RING") || fail keygen "codec keygen failed"
ORDER="order 42 from the %s: cust-01554, paid, 2 items, total 42.50"

# cache NAME SPEC — runs the example through SPEC; sets RC, OUT and ERR.
cache() {
    CASES=$((CASES + 1))
    REDIS_URL=$URL "$EXAMPLE" "$2" >"$OUT" 2>"$ERR"
    RC=$?
}

# miss_then_hit NAME SPEC — a miss, then a hit, and nothing on stderr.
miss_then_hit() {
    cache "$@"
    expect_rc "$1" 0
    expect_no_stderr "$1"
    local want
    # shellcheck disable=SC2059
    want=$(printf "$ORDER\n$ORDER" "database (miss)" "cache (hit)")
    [ "$(cat "$OUT")" = "$want" ] || fail "$1" "stdout is '$(cat "$OUT")', not '$want'"
}

miss_then_hit default-spec "json | zstd:3 | envelope:keyring=$RING"
miss_then_hit binary-backend "msgpack | lz4"
# The example deletes its key at the end, so a second run misses again.
miss_then_hit rerun "json | zstd:3 | envelope:keyring=$RING"
[ "$(rcli DBSIZE)" = 0 ] || fail cleanup "keys left behind"

# Another ring cannot read what this ring wrote: the cached value is
# dropped (quarantined) and the order is loaded from the database again.
RING2=$WORK/other.ring
(umask 077 && "$CODEC" keygen --id other-1 >"$RING2") || fail keygen "codec keygen failed"
printf '{"id":42,"customer":"cust-01554","paid":true,"items":[]}' |
    "$CODEC" pack -p "zstd:3 | envelope:keyring=$RING2" >"$WORK/foreign" ||
    fail foreign "codec pack failed"
rcli -x SET order:42 <"$WORK/foreign" >/dev/null
cache foreign "json | zstd:3 | envelope:keyring=$RING"
expect_rc foreign 0
# shellcheck disable=SC2059
expect_line foreign "$(printf "$ORDER" "database (miss)")"
grep -q "dropping a value that does not decode" "$ERR" ||
    fail foreign "no quarantine message"
finish
