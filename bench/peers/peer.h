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
 * with bench_payload_render() and compares with p->rendered.
 * @return 1 equal, 0 different, -1 out of memory. */
int peer_value_matches(const bench_payload *p, const void *value);

/* The payloads the typed peers map by hand, and the decoded value of any of
 * them (a worker keeps one, so decoding does not allocate the top level). */
typedef union peer_value {
    bench_person person;
    bench_order order;
    bench_media_content media;
    bench_struct numeric;
    bench_users users;
    bench_clients clients;
    bench_twitter twitter;
} peer_value;

/* The last four only through peer_json_open(); PEER_TWITTER is twitter.json
 * bound to bench_twitter (decode-only cells: the input is the document; in
 * mode PEER_DATABIND or PEER_DOM);
 * PEER_DOCUMENT is JSON read without a model (the dom, validate and stream
 * cells). */
typedef enum peer_model {
    PEER_PERSON, PEER_ORDER, PEER_MEDIA_ITEM, PEER_MEDIA_CONTENT, PEER_STRUCT,
    PEER_USERS, PEER_CLIENTS, PEER_TWITTER, PEER_DOCUMENT
} peer_model;

/* Which of them p is; -1 with a reason naming the library otherwise. */
int peer_model_of(const bench_payload *p, const char *library, char *why, size_t cap);

/* The `open` of a typed peer: the spec must be `want` ("json", "protobuf")
 * and p one of the mapped payloads. @return a malloc'ed peer_model (the
 * shared state; close it with free), or NULL with a reason in why. */
void *peer_typed_open(const char *spec, const char *want, const bench_payload *p,
                      const char *library, char *why, size_t cap);

/* ---- JSON peers ----------------------------------------------------------
 * A JSON peer's spec names the work of its cell (bench/suites.c):
 *   "json"      databind: the C struct to JSON and back (PEER_DATABIND)
 *   "dom"       a real-world document (payload model codec_value) parsed
 *               into the library's tree and the tree serialized (PEER_DOM);
 *               on twitter-typed (PEER_CAN_TWITTER_DOM), twitter.json parsed
 *               into the tree, then the tree mapped into bench_twitter
 *               (decode only: a complete parse where the library's "json"
 *               cell checks only what it reads, simdjson On-Demand)
 *   "validate"  the document checked, nothing built (PEER_VALIDATE)
 *   "stream"    the library's event parser and generator, no structs
 *               (PEER_STREAM; see bench/json_tape.h) */
typedef enum peer_mode { PEER_DATABIND, PEER_DOM, PEER_VALIDATE, PEER_STREAM } peer_mode;

/* What an adapter can do, or-ed into peer_json_open's `can`. */
enum {
    PEER_CAN_USERS = 1 << 0,     /* databind of Users */
    PEER_CAN_CLIENTS = 1 << 1,   /* databind of Clients */
    PEER_CAN_DOM = 1 << 2,
    PEER_CAN_VALIDATE = 1 << 3,
    PEER_CAN_STREAM = 1 << 4,
    PEER_CAN_TWITTER = 1 << 5,   /* databind of twitter.json (decode only) */
    PEER_CAN_TWITTER_DOM = 1 << 6,   /* "dom" on twitter-typed (decode only) */
};

typedef struct peer_json_cell {
    peer_model model;
    peer_mode mode;
} peer_json_cell;

/* The `open` of a JSON peer: the spec's mode, checked against `can` and the
 * payload. @return a malloc'ed peer_json_cell (close with free), or NULL
 * with a reason naming the library (`int64_why` explains a library that
 * cannot map Clients and twitter, whose ids need 64-bit integers; NULL for
 * the generic reason). */
void *peer_json_open(const char *spec, const bench_payload *p, const char *library,
                     unsigned can, const char *int64_why, char *why, size_t cap);

/* The text forms codec's JSON backend writes for the Clients model's kinds
 * (docs/formats/json.md): a UUID as 36 lowercase hex-and-hyphen characters,
 * a date as YYYY-MM-DD, a timestamp as RFC 3339 YYYY-MM-DDTHH:MM:SSZ (the
 * model's are whole UTC seconds; the parser accepts only that form), an
 * enum by its name. Each *_text writes a NUL-terminated string and returns
 * its length; each *_parse returns true when s[0..n) is that form. */
#define PEER_UUID_LEN 36
#define PEER_DATE_LEN 10
#define PEER_TIMESTAMP_LEN 20
size_t peer_uuid_text(const bench_uuid *u, char *dst);
bool peer_uuid_parse(const char *s, size_t n, bench_uuid *u);
size_t peer_date_text(bench_date d, char *dst);
bool peer_date_parse(const char *s, size_t n, bench_date *d);
size_t peer_timestamp_text(const bench_timestamp *t, char *dst);
bool peer_timestamp_parse(const char *s, size_t n, bench_timestamp *t);

/* Any of the three parsers by kind, for adapters that look a text member
 * up once: `out` is a bench_uuid, bench_date or bench_timestamp. */
typedef enum peer_text_form { PEER_UUID, PEER_DATE, PEER_TIMESTAMP } peer_text_form;
bool peer_text_parse(peer_text_form form, const char *s, size_t n, void *out);

extern const char *const peer_eye_colors[3];
/* The index of s[0..n) in names[0..count), or -1. */
int peer_enum_index(const char *const *names, int count, const char *s, size_t n);

/* A Clients balance (a decimal with two fraction digits: payloads.c) from a
 * library that keeps numbers only as doubles: the two-digit text, exact for
 * the model's values (below 10^6, so the double is within 2^-33 of it). */
size_t peer_balance_from_double(double v, char *dst, size_t cap);

#endif
