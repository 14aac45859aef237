/* json_text.h — string forms of bytes, UUID, date and timestamp (text.c). */
#ifndef CODEC_JSON_TEXT_H
#define CODEC_JSON_TEXT_H

#include "codec/types.h"

/* Room needed by the formatters below. */
#define JSON_UUID_CHARS 36
#define JSON_DATE_CHARS 10
#define JSON_TIMESTAMP_MAX_CHARS 35

/* base64 with padding: 4 * ceil(n / 3) characters. */
size_t json_base64_encode(const uint8_t *src, size_t n, char *dst);
/* Canonical padded base64 only; dst needs 3 * n / 4 bytes. 0 or -1. */
int json_base64_decode(const char *s, size_t n, uint8_t *dst, size_t *out_len);

size_t json_format_uuid(const codec_uuid *u, char *dst);
int json_parse_uuid(const char *s, size_t n, codec_uuid *u);

/* The formatters return the length, or -1 when the year is outside 0..9999
 * (or a timestamp field is out of range). The parsers return 0 or -1. */
int json_format_date(codec_date d, char *dst);
int json_parse_date(const char *s, size_t n, codec_date *d);
int json_format_timestamp(const codec_timestamp *t, char *dst);
int json_parse_timestamp(const char *s, size_t n, codec_timestamp *t);

#endif
