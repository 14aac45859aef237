/* string.c — Fory strings: a varuint36_small header (byte length << 2 |
 * encoding) then the bytes. codec writes UTF-8 (encoding 2), as Fory C++
 * does; it reads Latin-1 (0), UTF-16LE (1) and UTF-8 (2), converting to
 * validated UTF-8 in the arena. */
#include "formats/fory/fory_internal.h"

#include <string.h>

static bool utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (!(w & 0x8080808080808080ull)) {
                i += 8;
                continue;
            }
        }
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp, min;
        if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; min = 0x80; }
        else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; min = 0x800; }
        else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return false;
        if (n - i < len)
            return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

static size_t put_utf8(uint8_t *o, uint32_t cp)
{
    if (cp < 0x80) { o[0] = (uint8_t)cp; return 1; }
    if (cp < 0x800) { o[0] = (uint8_t)(0xc0 | cp >> 6); o[1] = (uint8_t)(0x80 | (cp & 0x3f)); return 2; }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xe0 | cp >> 12); o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | cp >> 18); o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)); o[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

int fory_read_string(fory_in *in, codec_arena *arena, codec_string *out, codec_error *err)
{
    size_t at = fory_off(in);
    /* Short UTF-8 strings (a one-byte header) are the common case. */
    if (in->p != in->end && (*in->p & 0x83) == 2) {
        size_t len = *in->p >> 2;
        if (len < fory_left(in)) {
            const uint8_t *s = in->p + 1;
            if (!utf8_valid(s, len))
                return FORY_FAIL(err, CODEC_D_CORRUPT, at, "string is not valid UTF-8");
            char *o = codec_arena_alloc(arena, len ? len : 1, 1);
            if (!o)
                return FORY_NOMEM(err);
            memcpy(o, s, len);
            in->p = s + len;
            *out = (codec_string){o, len};
            return CODEC_OK;
        }
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
    const uint8_t *s = in->p;
    in->p += len;
    uint8_t *o;
    size_t n = 0;
    switch (encoding) {
    case 2:
        if (!utf8_valid(s, len))
            return FORY_FAIL(err, CODEC_D_CORRUPT, at, "string is not valid UTF-8");
        if (!(o = codec_arena_alloc(arena, len ? len : 1, 1)))
            return FORY_NOMEM(err);
        memcpy(o, s, len);
        n = len;
        break;
    case 0:   /* Latin-1 */
        if (!(o = codec_arena_alloc(arena, len * 2 + 1, 1)))
            return FORY_NOMEM(err);
        for (size_t i = 0; i < len; i++)
            n += put_utf8(o + n, s[i]);
        break;
    case 1:   /* UTF-16LE */
        if (len & 1)
            return FORY_FAIL(err, CODEC_D_CORRUPT, at, "UTF-16 string of odd length");
        if (!(o = codec_arena_alloc(arena, len / 2 * 3 + 1, 1)))
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

