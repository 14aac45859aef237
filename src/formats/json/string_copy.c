/* string_copy.c — the portable string-body copier (json_internal.h says
 * its contract; x86/string_avx2.c has the AVX2 one): ASCII is copied and
 * classified 16 bytes a step with SSE2 (8 with SWAR elsewhere), and each
 * non-ASCII sequence is checked on its own and copied. */
#include "formats/json/json_internal.h"
#include "formats/json/json_scan_internal.h"

#include <string.h>

const uint8_t *codec__json_copy_string(const uint8_t *p, const uint8_t *end, uint8_t *dst,
                                       const uint8_t *dst_end)
{
    while (end - p >= 32 && dst_end - dst >= 32) {
        size_t k;
#if CODEC_SSE2
        __m128i x = _mm_loadu_si128((const __m128i *)p);
        _mm_storeu_si128((__m128i *)dst, x);
        unsigned m = json_special16v(x);
        if (!m) {
            p += 16, dst += 16;
            continue;
        }
        k = (size_t)__builtin_ctz(m);
#else
        uint64_t w = codec_load_le64(p);
        memcpy(dst, p, 8);
        uint64_t m = json_special_bytes(w);
        if (!m) {
            p += 8, dst += 8;
            continue;
        }
        k = (size_t)__builtin_ctzll(m) >> 3;
#endif
        p += k, dst += k;
        if (*p < 0x80)
            return p;   /* '"', '\\' or a control byte */
        size_t n = codec_utf8_sequence(p, end);
        if (!n)
            return NULL;
        memcpy(dst, p, 4);   /* 32 bytes are left of both */
        p += n, dst += n;
    }
    return p;
}
