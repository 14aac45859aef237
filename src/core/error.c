/* error.c — status names and the error report. */
#include "codec/core.h"
#include "core/error_internal.h"
#include "core/escape_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *codec_status_name(int status)
{
    switch (status) {
    case CODEC_OK: return "ok";
    case CODEC_E_INVALID_PAYLOAD: return "invalid payload";
    case CODEC_E_USAGE: return "usage";
    case CODEC_E_UNSUPPORTED: return "unsupported";
    case CODEC_E_TRANSIENT: return "transient";
    case CODEC_E_INVALID_VALUE: return "invalid value";
    case CODEC_E_NOMEM: return "out of memory";
    case CODEC_E_NOT_FOUND: return "not found";
    default: return "unknown";
    }
}

int codec_error_set(codec_error *err, int family, int detail, const char *stage,
                    uint64_t offset, const char *fmt, ...)
{
    if (err) {
        err->family = family;
        err->detail = detail;
        err->offset = offset;
        snprintf(err->stage, sizeof err->stage, "%s", stage ? stage : "");
        char text[sizeof err->message];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        /* Messages quote keys, names and peers' text: no control byte of
         * theirs may reach a terminal. */
        codec__escape_controls(err->message, sizeof err->message, text);
    }
    return family;
}

char *codec_error_format(const codec_error *err, char *dst, size_t dst_cap)
{
    if (dst_cap == 0)
        return dst;
    const char *stage = err->stage[0] ? err->stage : "codec";
    if (err->offset == CODEC_NO_OFFSET)
        snprintf(dst, dst_cap, "%s: %s", stage, err->message);
    else
        snprintf(dst, dst_cap, "%s: %s (offset %llu)", stage, err->message,
                 (unsigned long long)err->offset);
    return dst;
}

int codec__nomem(codec_error *err, const char *stage)
{
    return codec_error_set(err, CODEC_E_NOMEM, 0, stage, CODEC_NO_OFFSET, "%s",
                           codec_status_name(CODEC_E_NOMEM));
}
