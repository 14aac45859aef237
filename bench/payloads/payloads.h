/* payloads.h — every benchmark payload of PAYLOADS.md, generated in C.
 *
 * A payload is either raw bytes (the transform payloads: small, medium,
 * large, and the key-value compression shapes) or a C value from models.h
 * with its compact JSON rendering in `bytes` (for --dump, size checks and
 * the bytes-only cells) — except twitter-typed, whose bytes are the source
 * document the value was decoded from (its decode-only cells read them). Generated once by bench_payloads_init(); read only
 * afterwards, so any number of threads may read them. */
#ifndef BENCH_PAYLOADS_H
#define BENCH_PAYLOADS_H

#include "codec/core.h"
#include "models.h"

#include <stddef.h>
#include <stdint.h>

/* The seed for every payload that PAYLOADS.md leaves to us (kv, users, clients). */
#define BENCH_SEED 20260811

struct json_out;

typedef struct bench_payload {
    const char *name;        /* "small", "person", "users-100k", ... */
    const char *model;       /* NULL for raw bytes; else the models.h type name */
    const uint8_t *bytes;    /* raw bytes, or the value's compact JSON */
    size_t len;
    /* The value's compact JSON (what bench_payload_render gives for it): the
     * same as bytes but for twitter-typed; NULL for raw bytes. */
    const uint8_t *rendered;
    size_t rendered_len;
    const void *value;       /* the C value (NULL for raw bytes) */
    const char *file;        /* the --dump file name */
    const char *about;       /* one line for --list and the report */
    void (*render)(struct json_out *, const void *); /* see bench_payload_render */
} bench_payload;

/* Builds every payload. @return 0, or -1 when out of memory. Idempotent. */
int bench_payloads_init(void);
void bench_payloads_free(void);

/* The payloads in a fixed order; valid after init. */
size_t bench_payload_count(void);
const bench_payload *bench_payload_at(size_t i);
const bench_payload *bench_payload_find(const char *name);

/* Appends the compact JSON of `value`, a value of p's model (typed payloads
 * only), to out: what p->bytes holds for p->value. Typed drivers render
 * their decoded value with it so the harness can compare bytes.
 * @return 0, CODEC_E_NOMEM, or CODEC_E_USAGE for a raw-bytes payload. */
int bench_payload_render(const bench_payload *p, const void *value, codec_buf *out);

/* Writes every payload to dir/<file>. @return 0 or -1 (errno set). */
int bench_payloads_dump(const char *dir);
/* Writes bytes[0..len) to dir/file. @return 0 or -1 (errno set). */
int bench_dump_file(const char *dir, const char *file, const uint8_t *bytes, size_t len);

/* The generators, exposed for the tests. Each appends to `out`;
 * @return 0 or CODEC_E_NOMEM. */
int bench_gen_json(int records, codec_buf *out);      /* json(n) */
int bench_gen_prose(size_t size, codec_buf *out);     /* prose(size) */

#endif
