/* stage_internal.h — how a stage (backend or transform) plugs into compose.
 *
 * Every stage is a `codec_stage`: a table of functions plus its own state.
 * A transform implements encode/decode over bytes; a backend implements
 * encode_value/decode_value over a typed value. compose builds pipelines of
 * stages; the registry (registry.c) maps spec names to constructors.
 *
 * Adding a transform = one .c file that defines a constructor of type
 * codec_stage_ctor, plus one row in CODEC_STAGES (stages_internal.h).
 */
#ifndef CODEC_STAGE_INTERNAL_H
#define CODEC_STAGE_INTERNAL_H

#include "codec/compose.h"

#include <stdbool.h>

typedef struct codec_stage codec_stage;
struct codec__sstream;

/** The function table of a stage. Transforms set encode/decode; backends set
 * encode_value/decode_value. destroy may be NULL when state needs no care. */
typedef struct codec_stage_ops {
    /* Appends the transform of src[0..n) to out. */
    int (*encode)(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                  codec_error *err);
    /* Appends the inverse of src[0..n) to out. Must respect s->max_output. */
    int (*decode)(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                  codec_error *err);
    /* Backends: value -> bytes appended to out; on failure out->len is back
     * where it was (codec_encode relies on it for a lone backend). */
    int (*encode_value)(const codec_stage *s, const void *value, codec_buf *out,
                        codec_error *err);
    /* Backends: bytes -> value, allocations in arena. */
    int (*decode_value)(const codec_stage *s, const uint8_t *src, size_t n, void *value_out,
                        codec_arena *arena, codec_error *err);
    /* Releases state (not the stage itself). */
    void (*destroy)(codec_stage *s);
    /* Optional: opens a stream of this stage (compose/stream_internal.h);
     * stages without one stream through the whole adapter. */
    int (*stream_open)(const codec_stage *s, bool decode, struct codec__sstream **out,
                       codec_error *err);
    /* Optional: decode by reference (codec_decode_view()). When what decode
     * would append is a sub-range of src[0..n) (a trailer's body, the
     * payload after a header), runs every check of decode, with its errors,
     * and sets *body to that range; nothing is written anywhere. Returns
     * CODEC__NO_VIEW, having done only cheap checks, when this input's
     * decoded bytes are new ones (a routed version): decode then runs.
     * NULL: decode always produces new bytes. */
    int (*view)(const codec_stage *s, const uint8_t *src, size_t n, codec_bytes *body,
                codec_error *err);
} codec_stage_ops;

/* What ops->view returns when the stage must decode this input instead; no
 * status (all are positive) has this value. */
#define CODEC__NO_VIEW (-1)

struct codec_stage {
    const codec_stage_ops *ops;
    codec_stage_kind kind;
    char name[24];          /* registry name, used as the error stage */
    char spec[512];         /* normalised spec text of this stage */
    size_t max_output;      /* decode cap (decompressors), 0 = none */
    bool max_given;         /* the spec gave max= (a stream honours it) */
    size_t gate;            /* compression size gate (see compose/gate.c), 0 = off */
    void *state;            /* owned by the stage; freed by ops->destroy */
    const codec_type *type; /* backends only */
};

/* ---------------------------------------------------------------------------
 * Arguments of one stage in a spec: `name:pos,key=value,...`
 * ------------------------------------------------------------------------ */

#define CODEC_MAX_ARGS 8

typedef struct codec_arg {
    char key[24];           /* "" for the positional argument */
    char value[256];
    bool used;              /* set by the getters; unused keys are an error */
} codec_arg;

typedef struct codec_args {
    const char *stage;      /* stage name, for error messages */
    size_t offset;          /* offset of the stage in the spec */
    size_t count;
    codec_arg items[CODEC_MAX_ARGS];
} codec_args;

/* Each getter looks up `key` (or, when `positional` is true, the positional
 * argument as well), validates it and marks it used. A missing argument
 * leaves *out at `def` and returns 0; a malformed one returns CODEC_E_USAGE
 * with a message that names the stage, the key and what is allowed. */
int codec__args_int(codec_args *a, const char *key, bool positional, long def, long min, long max,
                    long *out, codec_error *err);
/* Sizes accept k, m, g suffixes (powers of 1024): "64m". */
int codec__args_size(codec_args *a, const char *key, bool positional, size_t def, size_t min,
                     size_t max, size_t *out, codec_error *err);
/* Picks one of `choices` (NULL-terminated); *out is its index. */
int codec__args_choice(codec_args *a, const char *key, bool positional, const char *const *choices,
                       size_t def, size_t *out, codec_error *err);
/* A free string; *out points into `a` (valid while `a` is) or is NULL. */
int codec__args_string(codec_args *a, const char *key, bool positional, const char **out,
                       codec_error *err);
/* After the getters: an argument nobody asked for is CODEC_E_USAGE naming it
 * and `allowed` (the registry's argument summary). */
int codec__args_finish(const codec_args *a, const char *allowed, codec_error *err);

/* Decode cap default for every decompressor (64 MiB), and the max= getter
 * shared by all of them. */
#define CODEC_DEFAULT_MAX_OUTPUT ((size_t)64 << 20)
int codec__args_max_output(codec_args *a, size_t *out, codec_error *err);

/** The `reserved` words of a public options struct (`type` names it) must
 * be zero: they are room for options a newer build may add. @return 0 or
 * CODEC_E_USAGE. */
static inline int codec_options_reserved(const uint64_t reserved[4], const char *stage,
                                         const char *type, codec_error *err)
{
    for (int i = 0; i < 4; i++)
        if (reserved[i])
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, stage,
                                   CODEC_NO_OFFSET, "%s.reserved must be zero", type);
    return CODEC_OK;
}

/** A constructor: fills `s` (ops, state, max_output, kind is preset) from
 * `args`. `type` is the descriptor for backends (NULL for transforms).
 * @return 0 or a status with `err` filled. On failure it must leave nothing
 * allocated. */
typedef int (*codec_stage_ctor)(codec_stage *s, codec_args *args, const codec_type *type,
                                codec_error *err);

/** A stage's inspect operation (codec_inspect() in compose.h): the header
 * checks of its decoder, reporting each field through `field` (NULL when
 * the decoder itself calls it). */
typedef int (*codec_stage_inspect)(const uint8_t *p, size_t n, codec_inspect_fn field,
                                   void *ctx, size_t *header_len, codec_error *err);

/** One registry row (stages_internal.h lists them). */
typedef struct codec_registry_row {
    codec_stage_info info;
    codec_stage_ctor ctor;
    codec_stage_inspect inspect;   /* NULL: the stage has none */
} codec_registry_row;

/** Reports a formatted text field through `field` (nothing when it is
 * NULL: the decoder runs the same checks without reporting). */
void codec__inspect_printf(codec_inspect_fn field, void *ctx, const char *key,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#include "codec/types.h"
#include "stages_internal.h"

/* Spec parsing (spec.c). The bound is the most stages `spec` can hold. */
size_t codec__spec_stage_bound(const char *spec);
int codec__spec_parse(const char *spec, const codec_type *type, codec_stage *stages, size_t cap,
                      size_t *count_out, codec_error *err);

/* Releases a stage's state. */
void codec__stage_destroy(codec_stage *s);

/* Reads the `gate=SIZE` argument of compression stages (gate.c). */
int codec__stage_apply_gate(codec_stage *s, codec_args *args, codec_error *err);

/* A stage with a size gate, run through it (gate.c). */
int codec__gate_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                       codec_error *err);
int codec__gate_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                       codec_error *err);

/* Runs one transform stage, through the size gate when the stage has one.
 * Inline: on the per-call path of every pipeline, the common (ungated)
 * case is one test and the stage's own call. */
static inline int codec__stage_encode(const codec_stage *s, const uint8_t *src, size_t n,
                                      codec_buf *out, codec_error *err)
{
    return s->gate ? codec__gate_encode(s, src, n, out, err) : s->ops->encode(s, src, n, out, err);
}

static inline int codec__stage_decode(const codec_stage *s, const uint8_t *src, size_t n,
                                      codec_buf *out, codec_error *err)
{
    return s->gate ? codec__gate_decode(s, src, n, out, err) : s->ops->decode(s, src, n, out, err);
}

/* A stage's view of src[0..n): through the size gate when the stage has
 * one (a value stored raw is a view; a compressed one is not), else its
 * ops->view, or CODEC__NO_VIEW when it has none. */
int codec__gate_view(const codec_stage *s, const uint8_t *src, size_t n, codec_bytes *body,
                     codec_error *err);

static inline int codec__stage_view(const codec_stage *s, const uint8_t *src, size_t n,
                                    codec_bytes *body, codec_error *err)
{
    if (s->gate)
        return codec__gate_view(s, src, n, body, err);
    return s->ops->view ? s->ops->view(s, src, n, body, err) : CODEC__NO_VIEW;
}

/** Finds a row by name (exact match). NULL when unknown. */
const codec_registry_row *codec__registry_find(const char *name);

/* Error helpers shared by stages: set stage name from s. */
#define CODEC_FAIL(err, s, family, detail, offset, ...) \
    codec_error_set((err), (family), (detail), (s)->name, (uint64_t)(offset), __VA_ARGS__)

/** Fails with the decode-cap error when `needed` > s->max_output (and
 * max_output != 0). Every decompressor calls this before committing memory. */
int codec__stage_check_cap(const codec_stage *s, size_t needed, codec_error *err);

/** Builds a single-stage codec around a filled stage (takes ownership of its
 * state). Used by the typed constructors (codec_zstd(), codec_json(), ...).
 * On failure the stage is destroyed. */
codec *codec__from_stage(const codec_stage *s, codec_error *err);

/** Builds a single-stage codec from registry name + spec-style argument text
 * ("3,max=1m"); the typed public constructors use it. */
codec *codec__make(const char *name, const char *args_text, const codec_type *type,
                   codec_error *err);

/** Stage i of c (0 = the backend, if any), or NULL past the end. */
const codec_stage *codec__stage_at(const codec *c, size_t i);

/** True when stage 0 of `c` is a backend (a typed codec, not a bytes one). */
bool codec__has_backend(const codec *c);

/** Runs a bytes codec (no backend) inside a stage, for stages that hold
 * codecs of their own (codec_versioned's routes). Encode appends c's
 * encoding of src[0..n) to `out`, taking scratch from out's spare chain so
 * it never overwrites the outer pipeline's input; decode appends c's
 * decoding to `out`, with intermediates grown by out's allocator.
 * Same statuses as codec_encode()/codec_decode(). */
int codec__run_encode(const codec *c, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err);
int codec__run_decode(const codec *c, const uint8_t *src, size_t n, codec_buf *out,
                      codec_error *err);

#endif /* CODEC_STAGE_INTERNAL_H */
