/* buf_internal.h — output-buffer growth for writers that know a ceiling. */
#ifndef CODEC_BUF_INTERNAL_H
#define CODEC_BUF_INTERNAL_H

#include "codec/core.h"

/* codec_buf_reserve(), except that geometric growth stops at a capacity of
 * `max_cap` bytes (it still grows to len + extra when that is more): a
 * decoder whose output is capped then holds at most the cap, not 1.5 times
 * it. codec_buf_reserve() is this with max_cap SIZE_MAX. */
int codec__buf_reserve_capped(codec_buf *buf, size_t extra, size_t max_cap);

#endif /* CODEC_BUF_INTERNAL_H */
