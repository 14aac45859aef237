/* hex_checks.h — encoded bytes as hex text, for tests of binary formats
 * (include after check.h): CHECK_HEX compares an encoding with the
 * expected hex, decode_hex decodes hex text. */
#ifndef CODEC_TEST_HEX_CHECKS_H
#define CODEC_TEST_HEX_CHECKS_H

#include "check.h"
#include "codec/codec.h"

/* Encodes v and compares with the hex text `want`. */
static inline void check_hex(const codec *c, const void *v, const char *want, int line)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec_error err = {0};
    int rc = codec_encode(c, v, &out, &err);
    char got[1024] = "";
    for (size_t i = 0; i < out.len && i < 500; i++)
        snprintf(got + 2 * i, 3, "%02x", out.data[i]);
    if (rc || strcmp(got, want) != 0)
        fprintf(stderr, "line %d: got %s (rc %d %s), want %s\n", line, got, rc, err.message,
                want);
    CHECK(rc == 0 && strcmp(got, want) == 0);
    codec_buf_free(&out);
}
#define CHECK_HEX(c, v, want) check_hex((c), (v), (want), __LINE__)

static inline size_t unhex(const char *hex, uint8_t *out)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2)
        sscanf(hex, "%2hhx", &out[n++]);
    return n;
}

/* Decodes hex text (up to 512 bytes); returns the status and fills err. */
static inline int decode_hex(const codec *c, const char *hex, void *v, codec_arena *a,
                             codec_error *err)
{
    uint8_t buf[512];
    size_t n = unhex(hex, buf);
    return codec_decode(c, buf, n, v, a, err);
}

#endif
