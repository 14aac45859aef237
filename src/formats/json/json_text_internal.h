/* json_text_internal.h — string forms of bytes and UUID (text.c); dates and
 * timestamps are in types/time_text_internal.h. */
#ifndef CODEC_JSON_TEXT_H
#define CODEC_JSON_TEXT_H

#include "codec/types.h"

/* Room needed by the formatters below. */
#define JSON_UUID_CHARS 36

/* base64 with padding: 4 * ceil(n / 3) characters. */
size_t codec__json_base64_encode(const uint8_t *src, size_t n, char *dst);
/* Canonical padded base64 only; dst needs 3 * n / 4 bytes. 0 or -1. */
int codec__json_base64_decode(const char *s, size_t n, uint8_t *dst, size_t *out_len);

size_t codec__json_format_uuid(const codec_uuid *u, char *dst);
int codec__json_parse_uuid(const char *s, size_t n, codec_uuid *u);

#endif
