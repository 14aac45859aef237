/* fuzz_base32.c — base32 decoders of every preset and kernel (text_fuzz.h). */
#include "text_fuzz.h"

static const text_fuzz_variant variants[] = {
    {"base32", true}, {"base32:hex", true}, {"base32:crockford", false},
    {"base32:z", true}, {"base32:geohash", true}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return text_fuzz_run(variants, sizeof variants / sizeof variants[0], data, size);
}
