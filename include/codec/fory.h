/* codec/fory.h — the Apache Fory xlang backend (cross-language binary format).
 *
 * Fory identifies user types by a number (or a name) that both peers
 * register; a type that is not registered is an error when encoding and
 * when decoding, so the registry is also the allowlist of what a payload
 * may contain. Build a registry, register every struct the root reaches,
 * then build codecs from it:
 *
 *   codec_fory_registry *r = codec_fory_registry_new(&err);
 *   codec_fory_register(r, &order_type, 101, &err);
 *   codec_fory_register(r, &line_item_type, 102, &err);
 *   codec_fory_options o = {.mode = CODEC_FORY_COMPATIBLE, .track_ref = true};
 *   codec *c = codec_fory(r, &order_type, &o, &err);
 *   codec_fory_registry_free(r);            // the codec keeps what it needs
 *
 * Without a registry (codec_parse("fory", t, ...)) the structs reachable
 * from `t` get ids 100, 101, ... in depth-first declaration order, and a
 * codec_value (schemaless) is written as Fory lists, maps and scalars.
 * docs/formats/fory.md gives the exact layouts, the type mapping and limits.
 */
#ifndef CODEC_FORY_H
#define CODEC_FORY_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Limits on untrusted input (0 in codec_fory_options means these). */
#define CODEC_FORY_DEFAULT_MAX_DEPTH 64
#define CODEC_FORY_MAX_DEPTH_LIMIT 1024
/** The most struct types one codec can reach. */
#define CODEC_FORY_MAX_STRUCTS 256

/** A set of user types and their Fory ids. Not thread-safe while being
 * filled; codec_fory() copies what it needs, so the registry may be freed
 * (or changed) afterwards. */
typedef struct codec_fory_registry codec_fory_registry;

/** codec_fory_registry_new() — an empty registry, or NULL (CODEC_E_NOMEM). Since 0.1. */
CODEC_API codec_fory_registry *codec_fory_registry_new(codec_error *err);

/** codec_fory_register() — registers struct or enum `t` under user type id
 * `id` (0..65535 here; Fory allows larger). `t` must outlive every codec
 * built from the registry. Registering an enum is optional (its id never
 * reaches the wire).
 * @return 0, or CODEC_E_USAGE (not a struct/enum, id or type already
 *         registered), CODEC_E_NOMEM. Since 0.1. */
CODEC_API CODEC_NODISCARD int codec_fory_register(codec_fory_registry *r, const codec_type *t, uint32_t id,
                                  codec_error *err);

/** codec_fory_registry_free() — NULL is allowed. Since 0.1. */
CODEC_API void codec_fory_registry_free(codec_fory_registry *r);

/** The struct modes. */
typedef enum codec_fory_mode {
    /** Same schema on both sides: fields in Fory order, no names on the wire. */
    CODEC_FORY_CONSISTENT = 0,
    /** Schema evolution: each struct type's definition (field names and
     * types) is written once per message; readers skip fields they lack
     * and leave missing ones zero/absent. */
    CODEC_FORY_COMPATIBLE = 1
} codec_fory_mode;

/** Options. All-zero is consistent mode, root flag "not null" (0xff),
 * no schema hash, default limits. The spec form is shown for each. */
typedef struct codec_fory_options {
    codec_fory_mode mode;  /* `fory:compatible` or `fory:consistent` */
    bool track_ref;        /* `ref=on`: root struct gets the "ref value" flag (0x00),
                              as Fory's builder default track_ref(true) writes */
    bool schema_hash;      /* `hash=on`: consistent mode writes (and checks) the
                              4-byte struct version before each struct's fields */
    size_t max_depth;      /* `max-depth=N`: nesting of structs/lists/maps */
    size_t max_elements;   /* `max-elements=N`: items of one list/map (default 16M) */
    /** Must be zero: room for new options without an ABI change
     * (docs/ARCHITECTURE.md, "ABI"); nonzero is CODEC_E_USAGE. Since 0.1. */
    uint64_t reserved[4];
} codec_fory_options;

/** codec_fory() — a Fory xlang codec for values of type `root`.
 * @param r     the user types (NULL: ids 100.. in declaration order, see above);
 *              every struct `root` reaches must be registered.
 * @param root  a descriptor or codec_value_type(); must outlive the codec.
 * @param o     NULL or all-zero for the defaults; copied.
 * @return a codec, or NULL with CODEC_E_USAGE (bad type, unregistered
 *         struct, a kind Fory cannot carry) or CODEC_E_NOMEM.
 * Encode: CODEC_E_INVALID_VALUE (enum number without a name, bad UTF-8).
 * Decode: CODEC_E_INVALID_PAYLOAD with the byte offset (truncated, corrupt,
 *   unknown type id, over a limit, integer out of its field's range).
 * Threads: the codec is immutable and may be shared. Since 0.1. */
CODEC_API codec *codec_fory(const codec_fory_registry *r, const codec_type *root,
                            const codec_fory_options *o, codec_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CODEC_FORY_H */
