#!/usr/bin/env bash
# cli_redis.sh — `codec redis set|get` and `codec dict train` against real
# peers: a redis-server this script starts on 127.0.0.1 (free port, temp
# dir), redis-cli to plant and read raw bytes, and the zstd tool for frames
# and dictionaries. Skipped (exit 77, which ctest reports as skipped) when
# the binary has no `redis` command (built without hiredis); fails without
# redis-server.
source "$(dirname "$0")/cli_lib.bash"

if ! "$CODEC" redis --help 2>/dev/null | grep -q "codec redis set"; then
    echo "note: this codec has no 'redis' command: skipped"
    exit 77
fi
if [ ! -x /usr/bin/redis-server ]; then
    echo "FAIL: no /usr/bin/redis-server (make test installs it)"
    exit 1
fi

start_redis_server

# A usage error: exit 2, nothing on stdout, the message on stderr.
expect_usage() {  # NAME REGEX
    expect_rc "$1" 2
    expect_no_stdout "$1"
    grep -Eq -- "$2" "$ERR" || fail "$1" "stderr does not match /$2/"
}

has_stage() { "$CODEC" pack -p "$1" </dev/null >/dev/null 2>&1; }

# set through hex, read the raw bytes with redis-cli, get back.
printf 'hello\000redis' >"$WORK/v"
run set-hex "$WORK/v" redis set k:hex -p hex --url "$URL"
expect_rc set-hex 0
[ "$(rcli GET k:hex)" = 68656c6c6f007265646973 ] || fail set-hex "server holds $(rcli GET k:hex)"
run get-hex /dev/null redis get k:hex -p hex --url "$URL"
expect_rc get-hex 0
expect_stdout_file get-hex "$WORK/v"

# FILE instead of stdin, with a TTL.
run set-ttl /dev/null redis set k:ttl -p 'hex:upper' --url "$URL" --ttl 60000 "$WORK/v"
expect_rc set-ttl 0
ttl=$(rcli PTTL k:ttl)
[ "$ttl" -gt 0 ] && [ "$ttl" -le 60000 ] || fail set-ttl "PTTL $ttl"

# Missing key: exit 5, not 1 or 4.
run get-missing /dev/null redis get k:none -p hex --url "$URL"
expect_error get-missing 5 "key 'k:none' not found"

# Bytes the pipeline does not expect: exit 1, naming the key and the stage.
rcli SET k:junk 'xyz!' >/dev/null
run get-junk /dev/null redis get k:junk -p hex --url "$URL"
expect_error get-junk 1 "^codec: hex: key 'k:junk': "

# No server there: exit 4 with the socket's words.
FREE=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
run refused /dev/null redis get k:hex -p hex --url "redis://127.0.0.1:$FREE"
expect_error refused 4 "refused"

# Command-line mistakes: exit 2.
run bad-url /dev/null redis get k -p hex --url "http://127.0.0.1"
expect_error bad-url 2 "bad URL"
run bad-spec /dev/null redis get k -p nosuch --url "$URL"
expect_error bad-spec 2 "unknown stage"
run no-spec /dev/null redis get k --url "$URL"
expect_usage no-spec "-p SPEC is required"
run bad-sub /dev/null redis put k -p hex
expect_usage bad-sub "expected 'set' or 'get'"
run ttl-on-get /dev/null redis get k -p hex --ttl 5
expect_usage ttl-on-get "--ttl is for 'set'"

# The password without the URL (which the process list shows): from
# $CODEC_REDIS_PASSWORD, $REDISCLI_AUTH or --password-file.
rcli CONFIG SET requirepass 'pw with spaces' >/dev/null
export REDISCLI_AUTH='pw with spaces'   # rcli (redis-cli) reads it too
run auth-none /dev/null redis get k:hex -p hex --url "$URL"
expect_rc auth-none 0   # REDISCLI_AUTH is read
unset REDISCLI_AUTH
run auth-missing /dev/null redis get k:hex -p hex --url "$URL"
expect_error auth-missing 4 "NOAUTH"
CODEC_REDIS_PASSWORD='pw with spaces' run auth-env /dev/null redis get k:hex -p hex --url "$URL"
expect_rc auth-env 0
expect_stdout_file auth-env "$WORK/v"
printf 'pw with spaces\n' >"$WORK/pw"
run auth-file /dev/null redis get k:hex -p hex --url "$URL" --password-file "$WORK/pw"
expect_rc auth-file 0
expect_stdout_file auth-file "$WORK/v"
CODEC_REDIS_PASSWORD=wrong run auth-wrong /dev/null redis get k:hex -p hex --url "$URL"
expect_error auth-wrong 4 "WRONGPASS"
run auth-twice /dev/null redis get k:hex -p hex --url "redis://:x@127.0.0.1:$PORT" \
    --password-file "$WORK/pw"
expect_error auth-twice 2 "both in --url and --password-file"
REDISCLI_AUTH='pw with spaces' rcli CONFIG SET requirepass '' >/dev/null

# A hostile server's error text reaches the terminal escaped: no ESC, BEL
# or C1 control byte of its own gets through.
HOSTILE_PORT=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$PY" - "$HOSTILE_PORT" "$WORK/hostile.ready" <<'PY' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
open(sys.argv[2], "w").close()
s.settimeout(20)
c, _ = s.accept()
c.recv(4096)
c.sendall(b"-ERR \x1b]0;pwned\x07\x1b[2J\xc2\x9b31m evil\r\n")
c.close()
PY
HOSTILE=$!
for _ in $(seq 1 100); do [ -e "$WORK/hostile.ready" ] && break; sleep 0.1; done
run hostile-text /dev/null redis get k -p hex --url "redis://127.0.0.1:$HOSTILE_PORT"
wait $HOSTILE
expect_error hostile-text 4 'ERR \\x1b\]0;pwned\\x07\\x1b\[2J\\xc2\\x9b31m evil'
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$ERR"; then
    fail hostile-text "a control byte reached stderr"
fi

# A zstd frame written by another program (the zstd tool stands in for a
# JVM service using zstd-jni) reads back through `-p zstd`.
if has_stage zstd && command -v zstd >/dev/null; then
    seq 1 2000 >"$WORK/nums"
    zstd -q -3 "$WORK/nums" -o "$WORK/nums.zst"
    rcli -x SET k:zstd <"$WORK/nums.zst" >/dev/null
    run get-zstd /dev/null redis get k:zstd -p zstd --url "$URL"
    expect_rc get-zstd 0
    expect_stdout_file get-zstd "$WORK/nums"
else
    echo "note: no zstd stage in this build: the zstd peer check did not run"
fi

# dict train: a dictionary the zstd tool accepts.
mkdir "$WORK/samples"
for i in $(seq 1 300); do
    printf '{"id":%d,"customer":"cust-%05d","status":"%s","total":"%d.%02d EUR"}' \
        "$i" $((i * 7919 % 100000)) "$([ $((i % 3)) = 0 ] && echo PAID || echo SHIPPED)" \
        $((i % 500)) $((i % 100)) >"$WORK/samples/s$i.json"
done
run dict-train /dev/null dict train -o "$WORK/d.dict" --size 4k "$WORK"/samples/*.json
expect_rc dict-train 0
if command -v zstd >/dev/null; then
    zstd -q -D "$WORK/d.dict" "$WORK/samples/s7.json" -o "$WORK/s7.zst" &&
        zstd -q -d -D "$WORK/d.dict" "$WORK/s7.zst" -o "$WORK/s7.back" &&
        cmp -s "$WORK/samples/s7.json" "$WORK/s7.back" || fail dict-train "zstd -D round trip"
fi
run dict-few /dev/null dict train -o "$WORK/e.dict" "$WORK"/samples/s1.json "$WORK"/samples/s2.json
expect_error dict-few 2 "2 samples are too few"
[ ! -e "$WORK/e.dict" ] || fail dict-few "wrote a dictionary anyway"
run dict-no-out /dev/null dict train "$WORK"/samples/s1.json
expect_usage dict-no-out "-o FILE is required"

finish
