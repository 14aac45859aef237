/* fuzz_hex.c — hex decoders of both cases and every kernel (text_fuzz.h).
 * Not canonical: decoding takes either case. */
#include "text_fuzz.h"

static const text_fuzz_variant variants[] = {{"hex", false}, {"hex:upper", false}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return text_fuzz_run(variants, sizeof variants / sizeof variants[0], data, size);
}
