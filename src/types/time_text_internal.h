/* time_text_internal.h — the text forms of dates and timestamps
 * (time_text.c), for any format that writes them as text. */
#ifndef CODEC_TYPES_TIME_TEXT_INTERNAL_H
#define CODEC_TYPES_TIME_TEXT_INTERNAL_H

#include "codec/types.h"

/* Room needed by the formatters below. */
#define CODEC_DATE_CHARS 10
#define CODEC_TIMESTAMP_MAX_CHARS 35

/* The formatters return the length, or -1 when the year is outside 0..9999
 * (or a timestamp field is out of range). The parsers return 0 or -1. */
int codec__format_date(codec_date d, char *dst);
int codec__parse_date(const char *s, size_t n, codec_date *d);
int codec__format_timestamp(const codec_timestamp *t, char *dst);
int codec__parse_timestamp(const char *s, size_t n, codec_timestamp *t);

#endif
