/* version.c — the version of the library that runs (codec/config.h holds
 * the one the caller compiled against). */
#include "codec/core.h"

unsigned codec_version_number(void)
{
    return CODEC_VERSION_NUMBER;
}

const char *codec_version_string(void)
{
    return CODEC_VERSION_STRING;
}
