/* read.c — the bounded building blocks of every CBOR decode: strings
 * (definite and chunked), count checks and skipping. */
#include "formats/cbor/cbor_internal.h"

int codec__cbor_check_string(cbor_rd *r, const cbor_head *h)
{
    if (h->arg > (uint64_t)(r->end - r->p))
        return CBOR_FAIL(r->err, CODEC_D_TRUNCATED, h->at,
                         "string of %llu bytes but %zu remain", (unsigned long long)h->arg,
                         (size_t)(r->end - r->p));
    if (h->arg > r->o->max_string)
        return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "string longer than max-string (%zu)",
                         r->o->max_string);
    return CODEC_OK;
}

int codec__cbor_check_count(cbor_rd *r, const cbor_head *h, uint64_t items)
{
    /* Each item takes at least one byte: a larger count cannot be real. */
    if (h->arg > (uint64_t)(r->end - r->p) / items)
        return CBOR_FAIL(r->err, CODEC_D_TRUNCATED, h->at,
                         "%llu items declared but only %zu bytes remain",
                         (unsigned long long)h->arg, (size_t)(r->end - r->p));
    if (h->arg > r->o->max_elements)
        return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at, "more items than max-elements (%zu)",
                         r->o->max_elements);
    return CODEC_OK;
}

int codec__cbor_read_chunk_head(cbor_rd *r, const cbor_head *h, cbor_head *c)
{
    int rc = cbor_read_head(r, c);
    if (rc)
        return rc;
    if (c->major != h->major || c->indefinite)
        return CBOR_FAIL(r->err, CODEC_D_CORRUPT, c->at,
                         "a chunk of an indefinite string must be a definite string "
                         "of the same type");
    return CODEC_OK;
}

/* Walks the chunks of an indefinite string: their total length, or copies
 * them to dst when dst is not NULL. */
static int chunks(cbor_rd *r, const cbor_head *h, uint8_t *dst, size_t *total)
{
    size_t sum = 0;
    cbor_head c;
    int rc;
    while (!cbor_at_break(r)) {
        if ((rc = codec__cbor_read_chunk_head(r, h, &c)))
            return rc;
        if ((rc = codec__cbor_check_string(r, &c)))
            return rc;
        if (c.arg > r->o->max_string - sum)
            return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at,
                             "string longer than max-string (%zu)", r->o->max_string);
        if (dst)
            memcpy(dst + sum, r->p, c.arg);
        if (c.major == CBOR_TEXT && !codec__utf8_valid(r->p, c.arg))
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, c.at, "text is not valid UTF-8");
        sum += c.arg;
        r->p += c.arg;
    }
    *total = sum;
    return CODEC_OK;
}

int codec__cbor_read_string(cbor_rd *r, const cbor_head *h, codec_string *out)
{
    int rc;
    if (!h->indefinite) {
        if ((rc = codec__cbor_check_string(r, h)))
            return rc;
        size_t n = (size_t)h->arg;
        if (h->major == CBOR_TEXT && !codec__utf8_valid(r->p, n))
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "text is not valid UTF-8");
        char *p = NULL;
        if (n && !(p = codec_arena_alloc(r->arena, n, 1)))
            return CBOR_NOMEM(r->err);
        if (n)
            memcpy(p, r->p, n);
        r->p += n;
        *out = (codec_string){p, n};
        return CODEC_OK;
    }
    /* Two passes: measure, then copy into one allocation. */
    const uint8_t *start = r->p;
    size_t total;
    if ((rc = chunks(r, h, NULL, &total)))
        return rc;
    char *p = NULL;
    if (total && !(p = codec_arena_alloc(r->arena, total, 1)))
        return CBOR_NOMEM(r->err);
    r->p = start;
    if ((rc = chunks(r, h, (uint8_t *)p, &total)))
        return rc;
    *out = (codec_string){p, total};
    return CODEC_OK;
}

int codec__cbor_skip(cbor_rd *r, const cbor_head *h)
{
    cbor_head c;
    int rc;
    size_t total;
    switch (h->major) {
    case CBOR_BYTES:
    case CBOR_TEXT:
        if (h->indefinite)
            return chunks(r, h, NULL, &total);
        if ((rc = codec__cbor_check_string(r, h)))
            return rc;
        if (h->major == CBOR_TEXT && !codec__utf8_valid(r->p, (size_t)h->arg))
            return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "text is not valid UTF-8");
        r->p += h->arg;
        return CODEC_OK;
    case CBOR_ARRAY:
    case CBOR_MAP: {
        if ((rc = cbor_enter(r, h)))
            return rc;
        uint64_t per = h->major == CBOR_MAP ? 2 : 1;
        if (!h->indefinite && (rc = codec__cbor_check_count(r, h, per)))
            return rc;
        for (uint64_t i = 0; h->indefinite || i < h->arg * per; i++) {
            if (h->indefinite && cbor_at_break(r)) {
                if (h->major == CBOR_MAP && i % 2)
                    return CBOR_FAIL(r->err, CODEC_D_CORRUPT, h->at, "map ends after a key");
                break;
            }
            if (h->indefinite && i / per >= r->o->max_elements)
                return CBOR_FAIL(r->err, CODEC_D_LIMIT, h->at,
                                 "more items than max-elements (%zu)", r->o->max_elements);
            if ((rc = cbor_read_head(r, &c)) || (rc = codec__cbor_skip(r, &c)))
                return rc;
        }
        r->depth--;
        return CODEC_OK;
    }
    case CBOR_TAG:
        if ((rc = cbor_enter(r, h)) || (rc = cbor_read_head(r, &c)) ||
            (rc = codec__cbor_skip(r, &c)))
            return rc;
        r->depth--;
        return CODEC_OK;
    default:
        return CODEC_OK;
    }
}
