/* fuzz_crc32c.c — the crc32c trailer decoder on arbitrary bytes, with every
 * kernel this CPU has: all must agree with the scalar reference on the
 * outcome, the payload and (through the raw kernels) the CRC of the input
 * from any starting value. Aborts on a disagreement. */
#include "fuzz_target.h"
#include "codec/codec.h"
#include "codec/integrity.h"
#include "transforms/integrity/crc32c_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const specs[CRC32C_KERNEL_COUNT] = {
    "crc32c", "crc32c:kernel=scalar", "crc32c:kernel=sse42", "crc32c:kernel=avx512"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *codecs[CRC32C_KERNEL_COUNT];
    static codec_arena arena;
    if (!codecs[CRC32C_SCALAR]) {
        for (int id = 0; id < CRC32C_KERNEL_COUNT; id++)
            codecs[id] = codec__crc32c_kernel(id) ? codec_parse(specs[id], NULL, NULL) : NULL;
        codec_arena_init(&arena, NULL, 0);
    }
    uint32_t start = 0;
    if (size >= 4)
        memcpy(&start, data, 4);
    uint32_t want = codec__crc32c_kernel(CRC32C_SCALAR)(start, data, size);
    codec_arena_reset(&arena);
    codec_bytes ref;
    int ref_rc = codec_decode(codecs[CRC32C_SCALAR], data, size, &ref, &arena, NULL);
    if (ref_rc == 0 && (ref.len != size - 4 || memcmp(ref.data, data, ref.len) != 0))
        abort();
    for (int id = 0; id < CRC32C_KERNEL_COUNT; id++) {
        if (!codecs[id])
            continue;
        if (codec__crc32c_kernel(id)(start, data, size) != want)
            abort();
        codec_bytes out;
        int rc = codec_decode(codecs[id], data, size, &out, &arena, NULL);
        if (rc != ref_rc || (rc == 0 && (out.len != ref.len || memcmp(out.data, ref.data,
                                                                      out.len) != 0)))
            abort();
    }
    return 0;
}
