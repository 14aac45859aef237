/* diag.c — codec_cbor_diagnose(): CBOR diagnostic notation (RFC 8949 §8),
 * for people and for the conformance tests of items codec_value cannot
 * hold (tags, simple values, non-text keys). */
#include "formats/cbor/cbor_internal.h"
#include "core/number_internal.h"

#include <math.h>
#include <stdio.h>

static int put(cbor_rd *r, codec_buf *out, const char *s, size_t n)
{
    return codec_buf_append(out, s, n) ? CBOR_NOMEM(r->err) : CODEC_OK;
}

static int puts_(cbor_rd *r, codec_buf *out, const char *s)
{
    return put(r, out, s, strlen(s));
}

static int diag_item(cbor_rd *r, codec_buf *out, const cbor_head *h);

static int diag_int(cbor_rd *r, codec_buf *out, const cbor_head *h)
{
    char tmp[32];
    if (h->major == CBOR_UINT)
        return put(r, out, tmp, (size_t)snprintf(tmp, sizeof tmp, "%llu",
                                                 (unsigned long long)h->arg));
    /* -1 - arg, which may need 65 bits. */
    uint8_t mag[9] = {0};
    codec_store_be64(mag + 1, h->arg);
    for (int i = 8; i >= 0; i--)
        if (++mag[i])
            break;
    return put(r, out, tmp, codec__bin_bignum_to_text(mag, 9, true, tmp));
}

static int diag_chunk(cbor_rd *r, codec_buf *out, const cbor_head *h)
{
    int rc = codec__cbor_check_string(r, h);
    if (rc)
        return rc;
    const uint8_t *s = r->p;
    size_t n = (size_t)h->arg;
    r->p += n;
    if (h->major == CBOR_BYTES) {
        static const char hex[] = "0123456789abcdef";
        if ((rc = puts_(r, out, "h'")))
            return rc;
        for (size_t i = 0; i < n && !rc; i++) {
            char two[2] = {hex[s[i] >> 4], hex[s[i] & 15]};
            rc = put(r, out, two, 2);
        }
        return rc ? rc : puts_(r, out, "'");
    }
    if (!codec__utf8_valid(s, n))
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "text is not valid UTF-8");
    if ((rc = puts_(r, out, "\"")))
        return rc;
    for (size_t i = 0; i < n && !rc; i++) {
        char esc[8];
        if (s[i] == '"' || s[i] == '\\')
            rc = put(r, out, esc, (size_t)snprintf(esc, sizeof esc, "\\%c", s[i]));
        else if (s[i] < 0x20)
            rc = put(r, out, esc, (size_t)snprintf(esc, sizeof esc, "\\u%04x", s[i]));
        else
            rc = put(r, out, (const char *)s + i, 1);
    }
    return rc ? rc : puts_(r, out, "\"");
}

static int diag_string(cbor_rd *r, codec_buf *out, const cbor_head *h)
{
    if (!h->indefinite)
        return diag_chunk(r, out, h);
    int rc = puts_(r, out, "(_ ");
    for (size_t i = 0; !rc && !cbor_at_break(r); i++) {
        cbor_head c;
        if ((rc = codec__cbor_read_chunk_head(r, h, &c)))
            return rc;
        if ((i && (rc = puts_(r, out, ", "))) || (rc = diag_chunk(r, out, &c)))
            return rc;
    }
    return rc ? rc : puts_(r, out, ")");
}

static int diag_container(cbor_rd *r, codec_buf *out, const cbor_head *h)
{
    bool map = h->major == CBOR_MAP;
    int rc = cbor_enter(r, h);
    if (rc || (rc = puts_(r, out, map ? "{" : "[")) ||
        (h->indefinite && (rc = puts_(r, out, "_ "))))
        return rc;
    if (!h->indefinite && (rc = codec__cbor_check_count(r, h, map ? 2 : 1)))
        return rc;
    for (uint64_t i = 0; h->indefinite || i < h->arg; i++) {
        if (h->indefinite && cbor_at_break(r))
            break;
        cbor_head c;
        if ((i && (rc = puts_(r, out, ", "))) || (rc = cbor_read_head(r, &c)) ||
            (rc = diag_item(r, out, &c)))
            return rc;
        if (map && ((rc = puts_(r, out, ": ")) || (rc = cbor_read_head(r, &c)) ||
                    (rc = diag_item(r, out, &c))))
            return rc;
    }
    r->depth--;
    return puts_(r, out, map ? "}" : "]");
}

static int diag_simple(cbor_rd *r, codec_buf *out, const cbor_head *h)
{
    char tmp[CODEC_NUMBER_MAX_CHARS];
    if (h->ai >= 25 && h->ai <= 27) {
        double d = cbor_head_double(h);
        if (isnan(d))
            return puts_(r, out, "NaN");
        if (isinf(d))
            return puts_(r, out, d < 0 ? "-Infinity" : "Infinity");
        return put(r, out, tmp, codec__format_double(d, tmp));
    }
    static const char *const names[] = {"false", "true", "null", "undefined"};
    if (h->arg >= 20 && h->arg <= 23)
        return puts_(r, out, names[h->arg - 20]);
    return put(r, out, tmp, (size_t)snprintf(tmp, sizeof tmp, "simple(%u)", (unsigned)h->arg));
}

static int diag_item(cbor_rd *r, codec_buf *out, const cbor_head *h)
{
    char tmp[32];
    int rc;
    switch (h->major) {
    case CBOR_UINT:
    case CBOR_NEGINT: return diag_int(r, out, h);
    case CBOR_BYTES:
    case CBOR_TEXT: return diag_string(r, out, h);
    case CBOR_ARRAY:
    case CBOR_MAP: return diag_container(r, out, h);
    case CBOR_TAG: {
        cbor_head c;
        if ((rc = cbor_enter(r, h)) ||
            (rc = put(r, out, tmp, (size_t)snprintf(tmp, sizeof tmp, "%llu(",
                                                    (unsigned long long)h->arg))) ||
            (rc = cbor_read_head(r, &c)) || (rc = diag_item(r, out, &c)))
            return rc;
        r->depth--;
        return puts_(r, out, ")");
    }
    default: return diag_simple(r, out, h);
    }
}

int codec_cbor_diagnose(const uint8_t *in, size_t n, codec_buf *out, codec_error *err)
{
    codec_cbor_options o;
    codec__cbor_options_resolve(NULL, &o);
    cbor_rd r = {.base = in, .p = in, .end = in + n, .o = &o, .err = err};
    size_t base = out->len;
    cbor_head h;
    int rc = cbor_read_head(&r, &h);
    if (!rc)
        rc = diag_item(&r, out, &h);
    if (!rc && r.p != r.end)
        rc = CBOR_FAIL(err, CODEC_D_TRAILING, r.p - r.base, "bytes after the item");
    if (rc)
        out->len = base;
    return rc;
}
