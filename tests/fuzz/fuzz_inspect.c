/* fuzz_inspect.c — `codec inspect`'s parser on arbitrary bytes: it must stay
 * in bounds, report a known family, and keep every field a short string. */
#include "fuzz_target.h"
#include "inspect.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    inspect_report r;
    /* A small walk budget keeps deflate bombs fast; the walk stays exercised. */
    int rc = inspect_bytes(data, size, (uint64_t)1 << 20, &r);
    if (rc != CODEC_OK && rc != CODEC_E_INVALID_PAYLOAD && rc != CODEC_E_UNSUPPORTED &&
        rc != CODEC_E_NOMEM)
        abort();
    if (rc != r.status || !r.format || r.size != size || r.count > INSPECT_MAX_FIELDS)
        abort();
    if (rc && (strcmp(r.err.stage, r.format) != 0 || r.err.message[0] == '\0'))
        abort();
    for (size_t i = 0; i < r.count; i++)
        if (memchr(r.fields[i].value, '\0', sizeof r.fields[i].value) == NULL ||
            memchr(r.fields[i].value, '\n', strlen(r.fields[i].value)))
            abort();
    return 0;
}
