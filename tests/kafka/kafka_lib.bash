# kafka_lib.bash — sourced by tests/kafka/*.sh (not a test itself): the
# `codec` checks of tests/interop/cli_lib.bash, plus librdkafka's mock
# cluster served by $MOCK_CLUSTER for the length of the script.
source "$(dirname "${BASH_SOURCE[0]}")/../interop/cli_lib.bash"
: "${MOCK_CLUSTER:?MOCK_CLUSTER must name tests/kafka/mock_cluster (ctest sets it)}"

# start_mock_cluster TOPIC:PARTITIONS... — 3 brokers on 127.0.0.1 with
# these topics; sets B (the bootstrap servers). The cluster lives while
# descriptor 3 (its standard input) is open, so until the script exits.
start_mock_cluster() {
    mkfifo "$WORK/ctl"
    "$MOCK_CLUSTER" "$@" <"$WORK/ctl" >"$WORK/boot" &
    MOCK_PID=$!
    exec 3>"$WORK/ctl"
    trap 'exec 3>&-; wait $MOCK_PID; rm -rf "$WORK"' EXIT
    for _ in $(seq 100); do [ -s "$WORK/boot" ] && break; sleep 0.1; done
    B=$(head -n1 "$WORK/boot")
    [[ $B == 127.0.0.1:* ]] || { echo "FAIL: no mock cluster ('$B')"; exit 1; }
}

# kcat_read TOPIC FORMAT — every message of TOPIC, formatted by kcat -f.
kcat_read() {
    kcat -C -b "$B" -t "$1" -o beginning -e -q -f "$2"
}
