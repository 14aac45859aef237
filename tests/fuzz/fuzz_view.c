/* fuzz_view.c — codec_decode_view() against codec_decode() on arbitrary
 * bytes. Byte 0 picks a bytes pipeline (stages that borrow, chains of them,
 * chains with a stage that decodes, a routed version, gated compressors),
 * the rest is the input. For each input:
 *   - hostile: both decodes give the same status and error (family, detail,
 *     stage, offset, message), or the same bytes; a result that borrows lies
 *     inside the input and took nothing from the arena; without an arena the
 *     view succeeds exactly when it borrows (else CODEC_E_USAGE);
 *   - round trip: the input encoded by the pipeline decodes by view to it.
 * Aborts on a violation. */
#include "fuzz_target.h"
#include "codec/codec.h"
#include "codec/framing.h"

#include <stdlib.h>
#include <string.h>

static const char *const specs[] = {
    "crc32c", "crc32", "adler32", "versioned:2,accept=1-3", "crc32c | versioned:2",
    "versioned:1 | crc32c | adler32", "zstd:1 | crc32c", "crc32c | hex",
    "zstd:1,gate=64 | crc32c", "lz4:gate=32", "crc32c | base64 | versioned:3",
    NULL /* codec_versioned: 1 as is, 2 through hex | crc32c */};
#define SPEC_COUNT (sizeof specs / sizeof specs[0])

static codec *codecs[SPEC_COUNT];

static codec *build(size_t i)
{
    if (specs[i])
        return codec_parse(specs[i], NULL, NULL);
    codec_version_route routes[] = {{1, NULL}, {2, codec_parse("hex | crc32c", NULL, NULL)}};
    return codec_versioned(1, routes, 2, NULL);
}

static bool same_error(const codec_error *a, const codec_error *b)
{
    return a->family == b->family && a->detail == b->detail && a->offset == b->offset &&
           strcmp(a->stage, b->stage) == 0 && strcmp(a->message, b->message) == 0;
}

/* The checks on in[0..n); returns the view's status. */
static int check(const codec *c, const uint8_t *in, size_t n, codec_arena *arena)
{
    codec_error e1, e2, e3;
    codec_bytes a, b, v;
    bool borrowed = false, strict_borrowed = false;
    codec_arena_reset(arena);
    int r1 = codec_decode(c, in, n, &a, arena, &e1);
    size_t used = codec_arena_used(arena);
    int r2 = codec_decode_view(c, in, n, &b, &borrowed, arena, &e2);
    if (r1 != r2 || (r1 && !same_error(&e1, &e2)))
        abort();
    if (r1)
        return r2;
    if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len) != 0))
        abort();
    uintptr_t from = (uintptr_t)in, at = (uintptr_t)b.data;
    if (borrowed && (at < from || at + b.len > from + n || codec_arena_used(arena) != used))
        abort();
    int r3 = codec_decode_view(c, in, n, &v, &strict_borrowed, NULL, &e3);
    if (borrowed ? r3 != 0 || !strict_borrowed || v.data != b.data || v.len != b.len
                 : r3 != CODEC_E_USAGE)
        abort();
    return r2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec_arena arena;
    static codec_buf enc;
    if (size < 1)
        return 0;
    size_t which = data[0] % SPEC_COUNT;
    if (!codecs[which] && !(codecs[which] = build(which)))
        abort();
    if (!enc.alloc) {
        codec_arena_init(&arena, NULL, 0);
        codec_buf_init(&enc, NULL);
    }
    const codec *c = codecs[which];
    check(c, data + 1, size - 1, &arena);
    codec_bytes in = {data + 1, size - 1};
    codec_buf_clear(&enc);
    if (codec_encode(c, &in, &enc, NULL) != 0 || check(c, enc.data, enc.len, &arena) != 0)
        abort();
    codec_arena_reset(&arena);
    codec_bytes out;
    if (codec_decode_view(c, enc.data, enc.len, &out, NULL, &arena, NULL) != 0 ||
        out.len != in.len || (in.len && memcmp(out.data, in.data, in.len) != 0))
        abort();
    return 0;
}
