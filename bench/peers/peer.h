/* peer.h — what every peer adapter shares. A peer is one file here that
 * defines a `const bench_driver bench_peer_<name>` and one row in peers.c.
 * Adapters call the library directly, reuse every context and buffer the
 * library lets them reuse, and decode into a buffer kept across calls, so a
 * peer does no more work than the library requires. */
#ifndef BENCH_PEER_H
#define BENCH_PEER_H

#include "../harness.h"

#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer that keeps its memory across operations. */
typedef struct peer_bytes {
    uint8_t *data;
    size_t len;
    size_t cap;
} peer_bytes;

/* Makes cap >= want (contents kept). @return 0 or -1. */
int peer_reserve(peer_bytes *b, size_t want);
void peer_bytes_free(peer_bytes *b);

/* Parses "name:N" or "N" into *level (default when absent); writes a reason
 * and returns -1 when `spec` is malformed or N is outside lo..hi. */
int peer_level(const char *spec, int dflt, int lo, int hi, int *level, char *why, size_t cap);

/* Decoders that cannot learn the output size up front retry with a larger
 * buffer up to this cap (the same default limit codec's decoders use). */
#define PEER_MAX_OUTPUT ((size_t)64 << 20)

/* The `matches` hook of typed peers: renders `value` (a value of p's model)
 * with bench_payload_render() and compares with p->bytes.
 * @return 1 equal, 0 different, -1 out of memory. */
int peer_value_matches(const bench_payload *p, const void *value);

/* The payloads the typed peers map by hand, and the decoded value of any of
 * them (a worker keeps one, so decoding does not allocate the top level). */
typedef union peer_value {
    bench_person person;
    bench_order order;
    bench_media_content media;
    bench_struct numeric;
} peer_value;

typedef enum peer_model {
    PEER_PERSON, PEER_ORDER, PEER_MEDIA_ITEM, PEER_MEDIA_CONTENT, PEER_STRUCT
} peer_model;

/* Which of them p is; -1 with a reason naming the library otherwise. */
int peer_model_of(const bench_payload *p, const char *library, char *why, size_t cap);

/* The `open` of a typed peer: the spec must be `want` ("json", "protobuf")
 * and p one of the mapped payloads. @return a malloc'ed peer_model (the
 * shared state; close it with free), or NULL with a reason in why. */
void *peer_typed_open(const char *spec, const char *want, const bench_payload *p,
                      const char *library, char *why, size_t cap);

#endif
