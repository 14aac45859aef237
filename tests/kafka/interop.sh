#!/usr/bin/env bash
# interop.sh — `codec kafka produce|consume` against librdkafka's mock
# cluster (3 brokers on 127.0.0.1, served by $MOCK_CLUSTER for the length
# of this script), with peers no one here wrote: kcat (Debian's) and
# python3-confluent-kafka. Each side consumes what the other produced and
# the values are compared; kcat reads the dead letters codec sent.
source "$(dirname "$0")/kafka_lib.bash"

for peer in /usr/bin/kcat "$PY"; do
    [ -x "$peer" ] || { echo "FAIL: $peer is missing (scripts/install-deps.sh installs it)"; exit 1; }
done
start_mock_cluster c2k:3 k2c:3 dead:1 py2c:3 c2py:2

# --- help and usage ------------------------------------------------------
run help /dev/null help kafka
expect_rc help 0
grep -q "^usage: codec kafka produce" "$OUT" || fail help "no usage line"
run no-brokers /dev/null kafka produce -t x -p gzip
expect_rc no-brokers 2
run wrong-direction /dev/null kafka consume -b "$B" -t x -p gzip -k key
expect_rc wrong-direction 2

# --- codec produces, kcat consumes ---------------------------------------
printf 'order 1\norder 2 {"total":42.5}\nπ ≈ 3.14159\n\nlast line, no newline' >"$WORK/lines"
SPEC='zstd:3 | base64'
run c2k "$WORK/lines" kafka produce -b "$B" -t c2k -p "$SPEC" --spec-header
expect_rc c2k 0
expect_no_stderr c2k
kcat_read c2k '%s\n' >"$WORK/c2k.b64"
CASES=$((CASES + 1))
[ "$(wc -l <"$WORK/c2k.b64")" -eq 5 ] || fail c2k "kcat read $(wc -l <"$WORK/c2k.b64") messages, want 5"
while IFS= read -r line; do
    printf '%s' "$line" | "$CODEC" unpack -p "$SPEC"
    echo
done <"$WORK/c2k.b64" | sort >"$WORK/c2k.got"
{ cat "$WORK/lines"; echo; } | sort >"$WORK/c2k.want"
cmp -s "$WORK/c2k.got" "$WORK/c2k.want" || fail c2k "kcat's messages do not decode to the lines sent"
kcat_read c2k '%h\n' | sort -u >"$WORK/c2k.headers"
[ "$(cat "$WORK/c2k.headers")" = "codec-spec=$SPEC" ] ||
    fail c2k-header "headers are '$(cat "$WORK/c2k.headers")'"

# --- kcat produces (gzip CLI bytes, one file per message), codec consumes --
for i in 1 2 3 4; do
    printf 'message %d from kcat, %s' "$i" "$(head -c $((i * 50)) /dev/zero | tr '\0' x)" >"$WORK/m$i"
    gzip -c "$WORK/m$i" >"$WORK/m$i.gz"
done
printf 'not gzip at all' >"$WORK/bad"
kcat -P -b "$B" -t k2c -p 0 -H codec-spec=gzip "$WORK/m1.gz" "$WORK/m2.gz" "$WORK/bad" \
    "$WORK/m3.gz" || fail k2c "kcat -P failed"
kcat -P -b "$B" -t k2c -p 0 -H codec-spec=zstd "$WORK/m4.gz" || fail k2c "kcat -P failed"
run k2c /dev/null kafka consume -b "$B" -t k2c -p gzip -c 5 --dead-letter dead
expect_rc k2c 3   # the worst: one refused by its header (3) over one corrupt (1)
for i in 1 2 3; do expect_line k2c "$(cat "$WORK/m$i")"; done
CASES=$((CASES + 1))
[ "$(wc -l <"$OUT")" -eq 3 ] || fail k2c "$(wc -l <"$OUT") values written, want 3"
grep -q "^codec: gzip: k2c \[0\] @2: " "$ERR" || fail k2c "no corrupt-message report at offset 2"
grep -q "^codec: kafka: k2c \[0\] @4: written with codec-spec 'zstd'" "$ERR" ||
    fail k2c "no refusal of offset 4"
[ "$(grep -c '^codec: kafka: sent to dead$' "$ERR")" -eq 2 ] || fail k2c "dead letters not reported"
kcat_read dead '%h|%s\n' >"$WORK/dead"
grep -q "codec-spec=gzip,codec-error=gzip: k2c \[0\] @2: .*,codec-source=k2c/0/2|not gzip at all" \
    "$WORK/dead" || fail dead-letter "kcat sees no dead letter for offset 2: $(head -c 300 "$WORK/dead")"
grep -q "codec-source=k2c/0/4|" "$WORK/dead" || fail dead-letter "no dead letter for offset 4"

# --- Python produces, codec consumes; codec produces, Python consumes ----
CASES=$((CASES + 1))
"$PY" "$ROOT/tests/kafka/kafka_peer.py" produce-and-check "$B" py2c "$CODEC" ||
    fail py2c "python -> codec"
printf 'alpha\nbeta\n{"id":3}\n' >"$WORK/c2py"
run c2py "$WORK/c2py" kafka produce -b "$B" -t c2py -p gzip --spec-header -k same-key
expect_rc c2py 0
CASES=$((CASES + 1))
"$PY" "$ROOT/tests/kafka/kafka_peer.py" consume "$B" c2py "$WORK/c2py" || fail c2py "codec -> python"

# --- delivery failure: a partition that does not exist ------------------
run no-partition "$WORK/c2py" kafka produce -b "$B" -t c2py -p gzip --partition 9
expect_rc no-partition 4
grep -q "^codec: kafka: 3 of 3 messages not delivered" "$ERR" || fail no-partition "no summary"
finish
