#!/usr/bin/env bash
# example.sh — runs examples/kafka-orders.c ($EXAMPLE) against librdkafka's
# mock cluster: the three orders are delivered and read back intact by the
# consumer group, the MessagePack one is refused with its place in the log
# and is in orders.dlq (read by kcat); the group commits the offset after
# the four messages it handled.
source "$(dirname "$0")/kafka_lib.bash"
: "${EXAMPLE:?EXAMPLE must name the kafka-orders example (ctest sets it)}"
start_mock_cluster orders:3 orders.dlq:1

example() {  # NAME SPEC — sets RC, OUT and ERR
    CASES=$((CASES + 1))
    KAFKA_BROKERS=$B "$EXAMPLE" "$2" >"$OUT" 2>"$ERR"
    RC=$?
}

example first "json | zstd:3"
expect_rc first 0
for id in 42 43 44; do
    grep -Eq "^delivered order $id to orders \[[0-2]\] @[0-9]+$" "$OUT" ||
        fail first "order $id not delivered"
done
expect_line first "order 42: cust-01554, paid, 2 items, total 42.50"
expect_line first "order 43: cust-01554, unpaid, 0 items, total 0.00"
expect_line first "order 44: cust-01554, paid, 1 items, total 8.00"
grep -Eq "^skipped orders \[[0-2]\] @0: orders \[[0-2]\] @0: written with codec-spec 'msgpack', not accepted here \(accepted: 'json \| zstd:3'\) \(sent to orders.dlq\)$" "$OUT" ||
    fail first "no refusal of the MessagePack order"
CASES=$((CASES + 1))
[ "$(kcat_read orders.dlq '%k %h\n')" = "cust-01554 codec-spec=msgpack,codec-error=kafka: orders [$(sed -n 's/^skipped orders \[\([0-2]\)\].*/\1/p' "$OUT")] @0: written with codec-spec 'msgpack', not accepted here (accepted: 'json | zstd:3'),codec-source=orders/$(sed -n 's/^skipped orders \[\([0-2]\)\].*/\1/p' "$OUT")/0" ] ||
    fail dead-letter "orders.dlq holds '$(kcat_read orders.dlq '%k %h')'"

# The group committed the offset after every message it handled, the
# refused one too (confluent_kafka asks the coordinator).
P=$(sed -n 's/^skipped orders \[\([0-2]\)\].*/\1/p' "$OUT")
CASES=$((CASES + 1))
COMMITTED=$("$PY" -c '
import sys
from confluent_kafka import Consumer, TopicPartition
c = Consumer({"bootstrap.servers": sys.argv[1], "group.id": "order-service"})
print(c.committed([TopicPartition("orders", int(sys.argv[2]))], timeout=10)[0].offset)
c.close()' "$B" "$P")
[ "$COMMITTED" = 4 ] || fail committed "order-service committed '$COMMITTED' on orders [$P], not 4"
finish
