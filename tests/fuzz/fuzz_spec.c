/* fuzz_spec.c — the pipeline spec parser on arbitrary text: it must either
 * build a codec whose normalised spec parses again to the same spec, or fail
 * with a usage error; never crash, never leak. */
#include "fuzz_target.h"
#include "codec/codec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *spec = malloc(size + 1);
    if (!spec)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (c) {
        codec *again = codec_parse(codec_spec(c), NULL, &err);
        if (!again || strcmp(codec_spec(again), codec_spec(c)) != 0)
            abort();
        codec_free(again);
    } else if (err.family != CODEC_E_USAGE && err.family != CODEC_E_TRANSIENT &&
               err.family != CODEC_E_NOMEM) {
        abort();
    }
    codec_free(c);
    free(spec);
    return 0;
}
