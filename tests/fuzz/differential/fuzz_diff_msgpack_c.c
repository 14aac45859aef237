/* fuzz_diff_msgpack_c.c — differential: codec's MessagePack decoder
 * (schemaless codec_value, duplicates=allow) and msgpack-c's
 * msgpack_unpack_next read the same bytes. Both must accept or both
 * reject, and what both accept must be the same tree (canon.h), after the
 * mapping codec documents (docs/formats/msgpack.md): float 32 and 64 a
 * double, str a string, bin bytes.
 *
 * Allowed differences (listed in docs/fuzzing.md too):
 *  - codec refuses what codec_value cannot hold: an ext (the timestamp
 *    included) and a map key that is not a str; and a str that is not UTF-8
 *    (msgpack-c does not check);
 *  - msgpack-c refuses nesting deeper than its stack (MSGPACK_EMBED_STACK_SIZE,
 *    32); codec's max-depth is 128, and what is deeper codec refuses.
 * msgpack-c reads one object; bytes after it count as a refusal, as codec
 * refuses them. msgpack-c allocates an array or map for its declared count
 * before reading it, so an input declaring more items than it has bytes is
 * not given to msgpack-c; codec must refuse it. */
#include "fuzz_target.h"
#include "canon.h"

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>

#define PEER_STACK 32
#define MAX_DEPTH 128

typedef struct peer_notes {
    bool not_representable, bad_utf8;
} peer_notes;

static void write_object(canon *c, const msgpack_object *o, peer_notes *notes)
{
    switch (o->type) {
    case MSGPACK_OBJECT_NIL: canon_null(c); return;
    case MSGPACK_OBJECT_BOOLEAN: canon_bool(c, o->via.boolean); return;
    case MSGPACK_OBJECT_POSITIVE_INTEGER: canon_uint(c, o->via.u64); return;
    case MSGPACK_OBJECT_NEGATIVE_INTEGER: canon_int(c, o->via.i64); return;
    case MSGPACK_OBJECT_FLOAT32:
    case MSGPACK_OBJECT_FLOAT64: canon_double(c, o->via.f64); return;
    case MSGPACK_OBJECT_STR:
        if (!canon_utf8_valid((const uint8_t *)o->via.str.ptr, o->via.str.size))
            notes->bad_utf8 = true;
        canon_string(c, o->via.str.ptr, o->via.str.size);
        return;
    case MSGPACK_OBJECT_BIN: canon_bytes(c, o->via.bin.ptr, o->via.bin.size); return;
    case MSGPACK_OBJECT_EXT: notes->not_representable = true; return;
    case MSGPACK_OBJECT_ARRAY:
        canon_open(c, '[', o->via.array.size);
        for (uint32_t i = 0; i < o->via.array.size; i++)
            write_object(c, &o->via.array.ptr[i], notes);
        canon_close(c);
        return;
    case MSGPACK_OBJECT_MAP:
        canon_open(c, '{', o->via.map.size);
        for (uint32_t i = 0; i < o->via.map.size; i++) {
            if (o->via.map.ptr[i].key.type != MSGPACK_OBJECT_STR)
                notes->not_representable = true;
            write_object(c, &o->via.map.ptr[i].key, notes);
            write_object(c, &o->via.map.ptr[i].val, notes);
        }
        canon_close(c);
        return;
    }
    abort();
}

static uint64_t load_be(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* The input's shape, from its heads (the MessagePack spec's formats): how
 * deep it nests, and whether a head declares more items than it has bytes. */
typedef struct shape {
    size_t depth;
    bool overdeclared;
} shape;

static void walk(const uint8_t *p, size_t n, size_t *at, size_t depth, shape *s)
{
    if (*at >= n || s->overdeclared || depth > MAX_DEPTH + 1)
        return;
    if (depth > s->depth)
        s->depth = depth;
    uint8_t b = p[(*at)++];
    uint64_t count = 0, skip = 0;
    bool map = false, container = true;
    if (b <= 0x7f || b >= 0xe0 || (b >= 0xc0 && b <= 0xc3)) {
        container = false;
    } else if (b >= 0x80 && b <= 0x8f) {
        count = b & 15, map = true;
    } else if (b >= 0x90 && b <= 0x9f) {
        count = b & 15;
    } else if (b == 0xdc || b == 0xdd || b == 0xde || b == 0xdf) {
        size_t w = (b == 0xdc || b == 0xde) ? 2 : 4;
        if (n - *at < w)
            return;
        count = load_be(p + *at, w), *at += w, map = b >= 0xde;
    } else {
        container = false;
        static const uint8_t fixed[] = {[0xca - 0xc4] = 4, [0xcb - 0xc4] = 8, [0xcc - 0xc4] = 1,
                                        [0xcd - 0xc4] = 2, [0xce - 0xc4] = 4, [0xcf - 0xc4] = 8,
                                        [0xd0 - 0xc4] = 1, [0xd1 - 0xc4] = 2, [0xd2 - 0xc4] = 4,
                                        [0xd3 - 0xc4] = 8, [0xd4 - 0xc4] = 2, [0xd5 - 0xc4] = 3,
                                        [0xd6 - 0xc4] = 5, [0xd7 - 0xc4] = 9, [0xd8 - 0xc4] = 17};
        static const uint8_t sized[] = {[0xc4 - 0xc4] = 1, [0xc5 - 0xc4] = 2, [0xc6 - 0xc4] = 4,
                                        [0xc7 - 0xc4] = 1, [0xc8 - 0xc4] = 2, [0xc9 - 0xc4] = 4,
                                        [0xd9 - 0xc4] = 1, [0xda - 0xc4] = 2, [0xdb - 0xc4] = 4};
        if (b >= 0xa0 && b <= 0xbf) {
            skip = b & 31;
        } else if (b - 0xc4u < sizeof sized && sized[b - 0xc4]) {
            size_t w = sized[b - 0xc4];
            if (n - *at < w)
                return;
            skip = load_be(p + *at, w) + (b >= 0xc7 && b <= 0xc9 ? 1 : 0), *at += w;
        } else if (b - 0xc4u < sizeof fixed) {
            skip = fixed[b - 0xc4];
        }
        if (skip > n - *at) {
            *at = n;
            return;
        }
        *at += skip;
    }
    if (!container)
        return;
    if (count > n) {
        s->overdeclared = true;
        return;
    }
    for (uint64_t i = 0; i < count * (map ? 2 : 1) && *at < n; i++)
        walk(p, n, at, depth + 1, s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *mp;
    canon_input(data, size);
    if (!mp && !(mp = codec_parse("msgpack:duplicates=allow", codec_value_type(), NULL)))
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_value value;
    codec_error err;
    int rc = codec_decode(mp, data, size, &value, &arena, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        canon_disagree("msgpack", "codec failed with an error other than invalid payload");

    size_t at = 0;
    shape s = {0, false};
    walk(data, size, &at, 1, &s);
    if (s.overdeclared) {
        if (!rc)
            canon_disagree("msgpack", "codec accepts a head that declares more than the input has");
        codec_arena_free(&arena);
        return 0;
    }
    msgpack_unpacked unpacked;
    msgpack_unpacked_init(&unpacked);
    size_t offset = 0;
    msgpack_unpack_return ret = msgpack_unpack_next(&unpacked, (const char *)data, size, &offset);
    bool peer_ok = ret == MSGPACK_UNPACK_SUCCESS && offset == size;

    canon ours, theirs;
    canon_init(&ours);
    canon_init(&theirs);
    peer_notes notes = {false, false};
    if (peer_ok)
        write_object(&theirs, &unpacked.data, &notes);
    bool codec_may_refuse = notes.not_representable || notes.bad_utf8 || s.depth >= MAX_DEPTH;
    if (!rc && !peer_ok && s.depth <= PEER_STACK) {
        fprintf(stderr, "msgpack-c: %d, read %zu of %zu\n", (int)ret, offset, size);
        canon_disagree("msgpack", "codec accepts what msgpack-c rejects");
    } else if (rc && peer_ok && !codec_may_refuse) {
        fprintf(stderr, "codec: %s (offset %llu)\n", err.message, (unsigned long long)err.offset);
        canon_disagree("msgpack", "msgpack-c accepts what codec rejects");
    } else if (!rc && peer_ok) {
        if (notes.not_representable)
            canon_disagree("msgpack", "codec accepts a value it documents as having no codec_value form");
        canon_value(&ours, &value);
        canon_expect_same(&ours, &theirs, "msgpack");
    }
    canon_free(&ours);
    canon_free(&theirs);
    msgpack_unpacked_destroy(&unpacked);
    codec_arena_free(&arena);
    return 0;
}
