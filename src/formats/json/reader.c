/* reader.c — the strict RFC 8259 pull tokenizer every JSON path goes through.
 *
 * Speed comes from three places: strings are scanned many bytes at a time
 * for the four byte classes that need attention (quote, backslash, control,
 * non-ASCII; json_scan_internal.h); a string without escapes is returned in place,
 * with no copy; integers are accumulated while their grammar is checked.
 * Typed decoding and validation have faster paths (decode.c) and come here
 * for the exact error. */
#include "formats/json/json_scan_internal.h"

#include <string.h>

#include "core/number_internal.h"

enum {
    ST_VALUE,         /* a value must come next */
    ST_ARRAY_FIRST,   /* just after '[': a value or ']' */
    ST_OBJECT_FIRST,  /* just after '{': a key or '}' */
    ST_KEY,           /* after ',' in an object: a key */
    ST_AFTER,         /* after a value: ',' or a close, or the end at depth 0 */
    ST_DONE,
    ST_FAILED
};

void codec_json_reader_init(codec_json_reader *r, const uint8_t *in, size_t n,
                            codec_arena *arena, const codec_json_options *o)
{
    codec_json_options opts;
    codec__json_options_resolve(o, &opts);
    r->base = r->p = in ? in : (const uint8_t *)"";
    r->end = r->base + n;
    r->arena = arena;
    r->max_string = opts.max_string;
    r->max_depth = (uint32_t)opts.max_depth;
    r->depth = 0;
    r->state = ST_VALUE;
    r->number_is_int = r->number_neg = r->number_overflow = false;
    r->number_mag = 0;
    r->token_offset = 0;
    r->text = (codec_string){NULL, 0};
}

static int fail(codec_json_reader *r, codec_error *err, int detail, const uint8_t *at,
                const char *msg)
{
    r->state = ST_FAILED;
    return JSON_FAIL(err, detail, (size_t)(at - r->base), "%s", msg);
}

static int fail_end(codec_json_reader *r, codec_error *err)
{
    return fail(r, err, CODEC_D_TRUNCATED, r->end, "unexpected end of input");
}

static inline const uint8_t *skip_ws(const uint8_t *p, const uint8_t *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* ---------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------ */

static int hex4(const uint8_t *p, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = p[i];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
            d = (uint32_t)((c | 0x20) - 'a' + 10);
        else
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(uint8_t *dst, uint32_t cp)
{
    if (cp < 0x80) {
        dst[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (uint8_t)(0xC0 | cp >> 6);
        dst[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (uint8_t)(0xE0 | cp >> 12);
        dst[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        dst[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    dst[0] = (uint8_t)(0xF0 | cp >> 18);
    dst[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
    dst[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
    dst[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* The escape at s[0] (a backslash) with n bytes available from s: its
 * length (2, 6, or 12 for a surrogate pair) and code point, or 0 when
 * RFC 8259 (with well-formed surrogates) does not allow it. */
static inline size_t escape_decode(const uint8_t *s, size_t n, uint32_t *cp)
{
    if (n < 2)
        return 0;
    switch (s[1]) {
    case '"': *cp = '"'; return 2;
    case '\\': *cp = '\\'; return 2;
    case '/': *cp = '/'; return 2;
    case 'b': *cp = '\b'; return 2;
    case 'f': *cp = '\f'; return 2;
    case 'n': *cp = '\n'; return 2;
    case 'r': *cp = '\r'; return 2;
    case 't': *cp = '\t'; return 2;
    case 'u':
        if (n < 6 || hex4(s + 2, cp))
            return 0;
        if (*cp >= 0xDC00 && *cp <= 0xDFFF)
            return 0;   /* a low surrogate alone */
        if (*cp >= 0xD800 && *cp <= 0xDBFF) {
            uint32_t lo;
            if (n < 12 || s[6] != '\\' || s[7] != 'u' || hex4(s + 8, &lo) || lo < 0xDC00 ||
                lo > 0xDFFF)
                return 0;   /* a high surrogate without its pair */
            *cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
            return 12;
        }
        return 6;
    default:
        return 0;
    }
}

size_t codec__json_escape_length(const uint8_t *s, const uint8_t *end)
{
    uint32_t cp;
    return escape_decode(s, (size_t)(end - s), &cp);
}

size_t codec__json_unescape_one(const uint8_t *s, const uint8_t *end, uint8_t *dst, size_t *len)
{
    uint32_t cp;
    size_t k = escape_decode(s, (size_t)(end - s), &cp);
    if (k)
        *len = put_utf8(dst, cp);
    return k;
}

size_t codec__json_unescape(const uint8_t *s, size_t n, uint8_t *dst, const uint8_t **bad)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] != '\\') {
            /* The run up to the next escape is copied as is. */
            const uint8_t *next = memchr(s + i, '\\', n - i);
            size_t run = next ? (size_t)(next - (s + i)) : n - i;
            if (dst)
                memcpy(dst + o, s + i, run);
            o += run, i += run;
            continue;
        }
        uint32_t cp;
        size_t k = escape_decode(s + i, n - i, &cp);
        if (!k) {
            *bad = s + i;
            return (size_t)-1;
        }
        i += k;
        uint8_t tmp[4];
        o += put_utf8(dst ? dst + o : tmp, cp);
    }
    return o;
}

/* Scans the string whose opening quote is at r->p; sets r->text and moves
 * past the closing quote. */
static inline __attribute__((always_inline)) int read_string(codec_json_reader *r, codec_error *err)
{
    const uint8_t *start = r->p + 1, *end = r->end;
    bool escaped = false;
    const uint8_t *p = json_string_scan(start, end, &escaped, codec__json_long_scanner());
    if (!p)   /* invalid UTF-8 somewhere: find where, byte by byte */
        p = json_string_scan(start, end, &escaped, NULL);
    if (p == end)
        return fail_end(r, err);
    if (*p < 0x20)
        return fail(r, err, CODEC_D_CORRUPT, p, "control character in a string");
    if (*p != '"')
        return fail(r, err, CODEC_D_CORRUPT, p, "invalid UTF-8 in a string");
    size_t raw = (size_t)(p - start);
    r->p = p + 1;
    if (!escaped) {
        if (raw > r->max_string)
            return fail(r, err, CODEC_D_LIMIT, start, "string longer than max-string");
        r->text = (codec_string){(const char *)start, raw};
        return CODEC_OK;
    }
    const uint8_t *bad = start;
    uint8_t *dst = NULL;
    if (r->arena && !(dst = codec_arena_alloc(r->arena, raw ? raw : 1, 1)))
        return JSON_NOMEM(err);
    size_t len = codec__json_unescape(start, raw, dst, &bad);
    if (len == (size_t)-1)
        return fail(r, err, CODEC_D_CORRUPT, bad, "invalid escape sequence");
    if (len > r->max_string)
        return fail(r, err, CODEC_D_LIMIT, start, "string longer than max-string");
    r->text =
        dst ? (codec_string){(const char *)dst, len} : (codec_string){(const char *)start, raw};
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * Numbers and literals
 * ------------------------------------------------------------------------ */

static int read_number(codec_json_reader *r, codec_error *err)
{
    const uint8_t *p = r->p, *end = r->end, *start = p;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        if (++p == end)
            return fail_end(r, err);
    }
    uint64_t mag = 0;
    bool overflow = false;
    if (*p == '0') {
        p++;
    } else if (*p >= '1' && *p <= '9') {
        while (p < end && *p >= '0' && *p <= '9') {
            unsigned d = (unsigned)(*p - '0');
            if (mag > (UINT64_MAX - d) / 10)
                overflow = true;
            else
                mag = mag * 10 + d;
            p++;
        }
    } else {
        return fail(r, err, CODEC_D_CORRUPT, p, "invalid number");
    }
    bool is_int = true;
    if (p < end && *p == '.') {
        is_int = false;
        p++;
        if (p == end)
            return fail_end(r, err);
        if (*p < '0' || *p > '9')
            return fail(r, err, CODEC_D_CORRUPT, p, "digit expected after '.'");
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        is_int = false;
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p == end)
            return fail_end(r, err);
        if (*p < '0' || *p > '9')
            return fail(r, err, CODEC_D_CORRUPT, p, "digit expected in exponent");
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    r->number_is_int = is_int;
    r->number_neg = neg;
    r->number_overflow = overflow;
    r->number_mag = mag;
    r->text = (codec_string){(const char *)start, (size_t)(p - start)};
    r->p = p;
    return CODEC_OK;
}

static int read_literal(codec_json_reader *r, const char *word, size_t n, codec_error *err)
{
    size_t left = (size_t)(r->end - r->p);
    if (left < n) {
        if (memcmp(r->p, word, left) == 0)
            return fail_end(r, err);
        return fail(r, err, CODEC_D_CORRUPT, r->p, "invalid literal");
    }
    if (memcmp(r->p, word, n) != 0)
        return fail(r, err, CODEC_D_CORRUPT, r->p, "invalid literal");
    r->p += n;
    return CODEC_OK;
}

/* ---------------------------------------------------------------------------
 * The token machine
 * ------------------------------------------------------------------------ */

static inline bool in_object(const codec_json_reader *r)
{
    uint32_t d = r->depth - 1;
    return r->stack[d >> 6] >> (d & 63) & 1;
}

static int push(codec_json_reader *r, bool object, codec_error *err)
{
    if (r->depth >= r->max_depth)
        return fail(r, err, CODEC_D_LIMIT, r->p, "nesting deeper than max-depth");
    uint32_t d = r->depth++;
    uint64_t bit = 1ull << (d & 63);
    r->stack[d >> 6] = object ? r->stack[d >> 6] | bit : r->stack[d >> 6] & ~bit;
    return CODEC_OK;
}

static int read_value(codec_json_reader *r, codec_json_token *tok, codec_error *err)
{
    if (r->p == r->end)
        return fail_end(r, err);
    int rc = CODEC_OK;
    r->state = ST_AFTER;
    switch (*r->p) {
    case '{':
        if ((rc = push(r, true, err)))
            return rc;
        r->p++;
        r->state = ST_OBJECT_FIRST;
        *tok = CODEC_JSON_OBJECT_START;
        return CODEC_OK;
    case '[':
        if ((rc = push(r, false, err)))
            return rc;
        r->p++;
        r->state = ST_ARRAY_FIRST;
        *tok = CODEC_JSON_ARRAY_START;
        return CODEC_OK;
    case '"':
        *tok = CODEC_JSON_STRING;
        return read_string(r, err);
    case 't':
        *tok = CODEC_JSON_TRUE;
        return read_literal(r, "true", 4, err);
    case 'f':
        *tok = CODEC_JSON_FALSE;
        return read_literal(r, "false", 5, err);
    case 'n':
        *tok = CODEC_JSON_NULL;
        return read_literal(r, "null", 4, err);
    default:
        if (*r->p == '-' || (*r->p >= '0' && *r->p <= '9')) {
            *tok = CODEC_JSON_NUMBER;
            return read_number(r, err);
        }
        return fail(r, err, CODEC_D_CORRUPT, r->p, "unexpected character, expected a value");
    }
}

static int read_key(codec_json_reader *r, codec_json_token *tok, codec_error *err)
{
    if (r->p == r->end)
        return fail_end(r, err);
    if (*r->p != '"')
        return fail(r, err, CODEC_D_CORRUPT, r->p, "expected a string key");
    int rc = read_string(r, err);
    if (rc)
        return rc;
    const uint8_t *p = skip_ws(r->p, r->end);
    if (p == r->end)
        return fail_end(r, err);
    if (*p != ':')
        return fail(r, err, CODEC_D_CORRUPT, p, "expected ':' after a key");
    r->p = skip_ws(p + 1, r->end);
    r->state = ST_VALUE;
    *tok = CODEC_JSON_KEY;
    return CODEC_OK;
}

static int close_container(codec_json_reader *r, codec_json_token *tok)
{
    *tok = in_object(r) ? CODEC_JSON_OBJECT_END : CODEC_JSON_ARRAY_END;
    r->depth--;
    r->p++;
    r->state = ST_AFTER;
    return CODEC_OK;
}

int codec_json_next(codec_json_reader *r, codec_json_token *tok, codec_error *err)
{
    const uint8_t *p = r->p = skip_ws(r->p, r->end);
    r->token_offset = (size_t)(p - r->base);
    switch (r->state) {
    case ST_VALUE:
        return read_value(r, tok, err);
    case ST_ARRAY_FIRST:
        if (p < r->end && *p == ']')
            return close_container(r, tok);
        return read_value(r, tok, err);
    case ST_OBJECT_FIRST:
        if (p < r->end && *p == '}')
            return close_container(r, tok);
        return read_key(r, tok, err);
    case ST_KEY:
        return read_key(r, tok, err);
    case ST_AFTER:
        if (r->depth == 0) {
            if (p != r->end)
                return fail(r, err, CODEC_D_TRAILING, p, "unexpected data after the value");
            r->state = ST_DONE;
            *tok = CODEC_JSON_END;
            return CODEC_OK;
        }
        if (p == r->end)
            return fail_end(r, err);
        if (*p == ',') {
            r->p = skip_ws(p + 1, r->end);
            r->token_offset = (size_t)(r->p - r->base);
            if (in_object(r))
                return read_key(r, tok, err);
            return read_value(r, tok, err);
        }
        if (*p == (in_object(r) ? '}' : ']'))
            return close_container(r, tok);
        return fail(r, err, CODEC_D_CORRUPT, p,
                    in_object(r) ? "expected ',' or '}'" : "expected ',' or ']'");
    case ST_DONE:
        *tok = CODEC_JSON_END;
        return CODEC_OK;
    default:
        return JSON_FAIL(err, CODEC_D_CORRUPT, r->token_offset, "reader already failed");
    }
}

int codec_json_skip(codec_json_reader *r, codec_json_token tok, codec_error *err)
{
    if (tok != CODEC_JSON_OBJECT_START && tok != CODEC_JSON_ARRAY_START)
        return CODEC_OK;
    /* Skipped strings are validated but never copied. */
    codec_arena *arena = r->arena;
    r->arena = NULL;
    uint32_t target = r->depth - 1;
    int rc = CODEC_OK;
    while (r->depth > target && !(rc = codec_json_next(r, &tok, err)))
        ;
    r->arena = arena;
    return rc;
}

codec_string codec_json_reader_text(const codec_json_reader *r)
{
    return r->text;
}

size_t codec_json_reader_offset(const codec_json_reader *r)
{
    return r->token_offset;
}

int codec_json_reader_int64(const codec_json_reader *r, int64_t *out)
{
    if (!r->number_is_int || r->number_overflow)
        return -1;
    if (r->number_neg) {
        if (r->number_mag > (uint64_t)INT64_MAX + 1)
            return -1;
        *out = r->number_mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)r->number_mag;
        return 0;
    }
    if (r->number_mag > INT64_MAX)
        return -1;
    *out = (int64_t)r->number_mag;
    return 0;
}

int codec_json_reader_uint64(const codec_json_reader *r, uint64_t *out)
{
    if (!r->number_is_int || r->number_overflow || (r->number_neg && r->number_mag))
        return -1;
    *out = r->number_mag;
    return 0;
}

int codec_json_reader_double(const codec_json_reader *r, double *out)
{
    return codec__parse_double(r->text.ptr, r->text.len, out);
}

int codec_json_validate(const uint8_t *in, size_t n, const codec_json_options *o,
                        codec_error *err)
{
    codec_json_options opts;
    codec__json_options_resolve(o, &opts);
    if (n > opts.max_size)
        return JSON_FAIL(err, CODEC_D_LIMIT, 0, "document of %zu bytes exceeds max-size (%zu)",
                         n, opts.max_size);
    if (codec__json_valid_fast(in, n, &opts))
        return CODEC_OK;
    codec_json_reader r;
    codec_json_token tok;
    codec_json_reader_init(&r, in, n, NULL, &opts);
    int rc;
    while (!(rc = codec_json_next(&r, &tok, err)) && tok != CODEC_JSON_END)
        ;
    return rc;
}

int codec__json_next_member(codec_json_reader *r, codec_string *key, size_t *key_offset,
                            codec_json_token *tok, codec_error *err)
{
    int rc = codec_json_next(r, tok, err);
    if (rc || *tok != CODEC_JSON_KEY)
        return rc;
    /* read_key() left r->p on the value, past the ':' and white space. */
    *key = r->text;
    *key_offset = r->token_offset;
    r->token_offset = (size_t)(r->p - r->base);
    return read_value(r, tok, err);
}

void codec__json_reader_seek(codec_json_reader *r, const uint8_t *p, uint32_t depth)
{
    r->p = p;
    r->depth = depth;
    r->state = ST_VALUE;
}
