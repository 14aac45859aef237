/* fuzz_target.h — the one function every fuzz target defines: libFuzzer
 * calls it, and so does replay_main.c under ctest. */
#ifndef CODEC_TEST_FUZZ_TARGET_H
#define CODEC_TEST_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
