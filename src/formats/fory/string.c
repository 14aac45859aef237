/* string.c — Fory strings: a varuint36_small header (byte length << 2 |
 * encoding) then the bytes. codec writes UTF-8 (encoding 2), as Fory C++
 * does; it reads Latin-1 (0), UTF-16LE (1) and UTF-8 (2), converting to
 * validated UTF-8 in the arena. */
#include "formats/fory/fory_internal.h"
#include "types/value_internal.h"

#include <string.h>

static size_t put_utf8(uint8_t *o, uint32_t cp)
{
    if (cp < 0x80) { o[0] = (uint8_t)cp; return 1; }
    if (cp < 0x800) {
        o[0] = (uint8_t)(0xc0 | cp >> 6);
        o[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xe0 | cp >> 12); o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | cp >> 18); o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)); o[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

static inline int read_utf8(fory_in *in, fory_pool *pool, size_t at, size_t len,
                            codec_string *out, codec_error *err)
{
    const uint8_t *s = in->p;
    /* An empty pool answers NULL for 0 bytes; an empty string is "". */
    char *o = len ? codec_text_pool_take(&pool->text, pool->arena, fory_left(in), len) : "";
    if (!o)
        return FORY_NOMEM(err);
    if (codec_copy_ascii((uint8_t *)o, s, len) && !codec__utf8_valid(s, len))
        return FORY_FAIL(err, CODEC_D_CORRUPT, at, "string is not valid UTF-8");
    in->p = s + len;
    *out = (codec_string){o, len};
    return CODEC_OK;
}

int codec__fory_read_string(fory_in *in, fory_pool *pool, codec_string *out, codec_error *err)
{
    size_t at = fory_off(in);
    /* Short UTF-8 strings (a one-byte header) are the common case. */
    if (in->p != in->end && (*in->p & 0x83) == 2 && (size_t)(*in->p >> 2) < fory_left(in)) {
        size_t len = *in->p++ >> 2;
        return read_utf8(in, pool, at, len, out, err);
    }
    uint64_t h;
    int r = fory_get_varu64(in, &h);
    if (r)
        return FORY_FAIL(err, r == -1 ? CODEC_D_TRUNCATED : CODEC_D_CORRUPT, at, "string header");
    uint64_t len = h >> 2;
    unsigned encoding = (unsigned)(h & 3);
    if (len > fory_left(in))
        return FORY_FAIL(err, CODEC_D_TRUNCATED, at, "string of %llu bytes past the end",
                         (unsigned long long)len);
    if (encoding == 2)
        return read_utf8(in, pool, at, (size_t)len, out, err);
    const uint8_t *s = in->p;
    in->p += len;
    uint8_t *o;
    size_t n = 0;
    switch (encoding) {
    case 0:   /* Latin-1 */
        if (!(o = codec_arena_alloc(pool->arena, len * 2 + 1, 1)))
            return FORY_NOMEM(err);
        for (size_t i = 0; i < len; i++)
            n += put_utf8(o + n, s[i]);
        break;
    case 1:   /* UTF-16LE */
        if (len & 1)
            return FORY_FAIL(err, CODEC_D_CORRUPT, at, "UTF-16 string of odd length");
        if (!(o = codec_arena_alloc(pool->arena, len / 2 * 3 + 1, 1)))
            return FORY_NOMEM(err);
        for (size_t i = 0; i < len; i += 2) {
            uint32_t u = (uint32_t)s[i] | (uint32_t)s[i + 1] << 8;
            if (u >= 0xd800 && u <= 0xdbff && i + 3 < len) {
                uint32_t lo = (uint32_t)s[i + 2] | (uint32_t)s[i + 3] << 8;
                if (lo >= 0xdc00 && lo <= 0xdfff) {
                    n += put_utf8(o + n, 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00));
                    i += 2;
                    continue;
                }
            }
            if (u >= 0xd800 && u <= 0xdfff)
                return FORY_FAIL(err, CODEC_D_CORRUPT, at, "UTF-16 string has a lone surrogate");
            n += put_utf8(o + n, u);
        }
        break;
    default:
        return FORY_FAIL(err, CODEC_D_CORRUPT, at, "string encoding 3 is reserved");
    }
    *out = (codec_string){(const char *)o, n};
    return CODEC_OK;
}

