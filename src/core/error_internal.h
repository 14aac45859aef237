/* error_internal.h — the error reports every layer shares: one
 * payload-error macro and one out-of-memory report. The formats bind their
 * stage name to them (JSON_FAIL is CODEC_PAYLOAD_FAIL for "json"); the
 * message "out of memory" exists once, in error.c. */
#ifndef CODEC_ERROR_INTERNAL_H
#define CODEC_ERROR_INTERNAL_H

#include "codec/core.h"

/* Fills `err` for a payload problem of `stage` at `offset` (family
 * CODEC_E_INVALID_PAYLOAD) and evaluates to that family. */
#define CODEC_PAYLOAD_FAIL(err, stage, detail, offset, ...)                                  \
    codec_error_set((err), CODEC_E_INVALID_PAYLOAD, (detail), (stage), (uint64_t)(offset),    \
                    __VA_ARGS__)

/* Fills `err` (may be NULL) with the out-of-memory report of `stage`
 * (family CODEC_E_NOMEM, no offset). @return CODEC_E_NOMEM. */
int codec__nomem(codec_error *err, const char *stage);

#endif /* CODEC_ERROR_INTERNAL_H */
