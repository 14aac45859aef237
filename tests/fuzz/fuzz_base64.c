/* fuzz_base64.c — base64 decoders of every variant and kernel (text_fuzz.h). */
#include "text_fuzz.h"

static const text_fuzz_variant variants[] = {
    {"base64", true}, {"base64:url", true}, {"base64:url-nopad", true},
    {"base64:mime", false}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return text_fuzz_run(variants, sizeof variants / sizeof variants[0], data, size);
}
