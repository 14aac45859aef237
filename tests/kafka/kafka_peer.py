"""kafka_peer.py — the Python side of tests/kafka/interop.sh: Debian's
python3-confluent-kafka (its own librdkafka client) against the mock
cluster, checking what `codec kafka` produced and producing what it
consumes. Values are gzip members (Python's gzip module, not codec).

  kafka_peer.py consume BROKERS TOPIC EXPECTED_FILE
      reads every message of TOPIC; each must carry codec-spec=gzip and
      gunzip to one line of EXPECTED_FILE (the same multiset of lines).
  kafka_peer.py produce-and-check BROKERS TOPIC CODEC
      produces values gzip'ed by Python with codec-spec=gzip, runs
      `CODEC kafka consume ... -p gzip --require-spec` and compares its
      output with the values.
"""
import gzip
import random
import subprocess
import sys

from confluent_kafka import Consumer, Producer, TopicPartition, OFFSET_BEGINNING


def fail(message):
    print("kafka_peer: " + message, file=sys.stderr)
    sys.exit(1)


def read_all(brokers, topic):
    consumer = Consumer({"bootstrap.servers": brokers, "group.id": "python-peer",
                         "enable.auto.commit": False})
    meta = consumer.list_topics(topic, timeout=10)
    partitions = meta.topics[topic].partitions
    total = 0
    for p in partitions:
        low, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)
        total += high - low
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions])
    messages = []
    idle = 0
    while len(messages) < total and idle < 100:
        m = consumer.poll(0.1)
        if m is None:
            idle += 1
            continue
        if m.error():
            fail("consumer error: %s" % m.error())
        messages.append(m)
    consumer.close()
    if len(messages) != total:
        fail("read %d of %d messages" % (len(messages), total))
    return messages


def consume(brokers, topic, expected_file):
    with open(expected_file, "rb") as f:
        want = sorted(f.read().split(b"\n")[:-1])
    got = []
    for m in read_all(brokers, topic):
        headers = dict(m.headers() or [])
        if headers.get("codec-spec") != b"gzip":
            fail("offset %d: codec-spec header is %r" % (m.offset(), headers.get("codec-spec")))
        got.append(gzip.decompress(m.value()))
    if sorted(got) != want:
        fail("values differ: got %r, want %r" % (sorted(got)[:5], want[:5]))
    print("python consumed %d codec messages, all equal" % len(got))


def produce_and_check(brokers, topic, codec):
    rng = random.Random(19)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 {}[]\":,é→😀"
    values = ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 300))).encode()
              for _ in range(50)]
    values.append(b"x" * 100000)  # larger than one socket read
    producer = Producer({"bootstrap.servers": brokers, "enable.idempotence": True})
    failures = []
    for v in values:
        producer.produce(topic, gzip.compress(v), headers=[("codec-spec", b"gzip")],
                         on_delivery=lambda err, msg: err and failures.append(err))
    producer.flush(30)
    if failures:
        fail("python delivery failed: %s" % failures[0])
    out = subprocess.run([codec, "kafka", "consume", "-b", brokers, "-t", topic, "-p", "gzip",
                          "--require-spec", "-c", str(len(values))],
                         capture_output=True, timeout=60)
    if out.returncode != 0:
        fail("codec kafka consume exited %d: %s" % (out.returncode, out.stderr[:400]))
    got = out.stdout.split(b"\n")[:-1]
    if sorted(got) != sorted(values):
        fail("codec decoded %d values, not the %d Python sent" % (len(got), len(values)))
    print("codec consumed %d python messages, all equal" % len(got))


if __name__ == "__main__":
    if sys.argv[1] == "consume":
        consume(*sys.argv[2:5])
    elif sys.argv[1] == "produce-and-check":
        produce_and_check(*sys.argv[2:5])
    else:
        fail("unknown mode " + sys.argv[1])
