/* fuzz_versioned.c — the versioned header on arbitrary bytes, through the
 * spec stage `versioned:2,accept=1-3,7` and a routing table {1 → as is,
 * 2 → hex, 3 → hex | crc32c}. The plain stage must return exactly the
 * bytes after the header; whatever the router decodes must re-encode with
 * the same header and decode again to the same value (hex accepts either
 * case, so the re-encoding may differ from the input). Aborts on a
 * violation. */
#include "fuzz_target.h"
#include "codec/codec.h"
#include "codec/framing.h"

#include <stdlib.h>
#include <string.h>

static codec *router_for(uint8_t version)
{
    codec_version_route routes[] = {{1, NULL},
                                    {2, codec_parse("hex", NULL, NULL)},
                                    {3, codec_parse("hex | crc32c", NULL, NULL)}};
    return codec_versioned(version, routes, 3, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *plain, *routers[4];
    static codec_arena arena;
    static codec_buf out;
    if (!plain) {
        plain = codec_parse("versioned:2,accept=1-3,7", NULL, NULL);
        for (uint8_t v = 1; v <= 3; v++)
            routers[v] = router_for(v);
        codec_arena_init(&arena, NULL, 0);
        codec_buf_init(&out, NULL);
    }
    codec_arena_reset(&arena);
    codec_bytes dec;
    if (codec_decode(plain, data, size, &dec, &arena, NULL) == 0) {
        if (size < 3 || dec.len != size - 3 || memcmp(dec.data, data + 3, dec.len) != 0)
            abort();
    }
    if (codec_decode(routers[1], data, size, &dec, &arena, NULL) == 0) {
        uint8_t v = data[2];
        if (v < 1 || v > 3)
            abort();
        out.len = 0;
        codec_bytes again;
        if (codec_encode(routers[v], &dec, &out, NULL) != 0 || out.len < 3 ||
            memcmp(out.data, data, 3) != 0 ||
            codec_decode(routers[1], out.data, out.len, &again, &arena, NULL) != 0 ||
            again.len != dec.len || memcmp(again.data, dec.data, dec.len) != 0)
            abort();
    }
    return 0;
}
