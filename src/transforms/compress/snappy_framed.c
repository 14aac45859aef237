/* snappy_framed.c — `snappy:framed`: the snappy framing format
 * (framing_format.txt in google/snappy; what python-snappy's
 * `python -m snappy -c` and Hadoop-free Java's SnappyFramedOutputStream
 * write). A stream identifier, then chunks of at most 64 KiB of input,
 * each compressed (or stored when compression saves less than 1/8) and
 * carrying the masked CRC-32C of its uncompressed bytes.
 *
 * One chunk parser serves the one-shot decode and the stream: both read
 * the same chunks in the same order, so they agree byte for byte. */
#include "compress_internal.h"
#include "compose/stream_internal.h"
#include "codec/integrity.h"
#include "libsnappy_internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_INPUT ((size_t)64 << 10)
#define CHUNK_COMPRESSED 0x00
#define CHUNK_STORED 0x01
#define CHUNK_PADDING 0xFE
#define CHUNK_IDENTIFIER 0xFF

static const uint8_t identifier[10] = {0xFF, 0x06, 0x00, 0x00, 's', 'N', 'a', 'P', 'p', 'Y'};

/* The CRC of the framing format: CRC-32C, rotated and offset. */
static uint32_t masked_crc(const uint8_t *p, size_t n)
{
    uint32_t c = codec_crc32c(0, p, n);
    return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

static void store_le(uint8_t *p, uint32_t v, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t load_le(const uint8_t *p, size_t bytes)
{
    uint32_t v = 0;
    for (size_t i = 0; i < bytes; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* Appends one chunk holding src[0..n) (n <= 64 KiB). */
static int framed_chunk(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                        codec_error *err)
{
    size_t bound = snappy_max_compressed_length(n);
    if (codec_buf_reserve(out, 8 + bound))
        return codec__compress_nomem(s, err);
    uint8_t *head = out->data + out->len;
    size_t written = bound;
    if (snappy_compress((const char *)src, n, (char *)head + 8, &written) != SNAPPY_OK)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_VALUE, 0, CODEC_NO_OFFSET,
                          "snappy failed to compress %zu bytes", n);
    bool stored = written >= n - n / 8;
    if (stored) {
        memcpy(head + 8, src, n);
        written = n;
    }
    head[0] = stored ? CHUNK_STORED : CHUNK_COMPRESSED;
    store_le(head + 1, (uint32_t)(written + 4), 3);
    store_le(head + 4, masked_crc(src, n), 4);
    out->len += 8 + written;
    return CODEC_OK;
}

int codec__snappy_framed_encode(const codec_stage *s, const uint8_t *src, size_t n,
                                codec_buf *out, codec_error *err)
{
    size_t base = out->len;
    if (codec_buf_append(out, identifier, sizeof identifier))
        return codec__compress_nomem(s, err);
    for (size_t at = 0; at < n; at += CHUNK_INPUT) {
        int rc = framed_chunk(s, src + at, n - at < CHUNK_INPUT ? n - at : CHUNK_INPUT, out, err);
        if (rc) {
            out->len = base;
            return rc;
        }
    }
    return CODEC_OK;
}

/* ---- the chunk parser ------------------------------------------------ */

typedef struct framed_reader {
    uint8_t head[4];         /* type and 24-bit length */
    size_t head_len;
    size_t need;             /* body bytes of the current chunk */
    size_t skip;             /* body bytes of a skippable chunk still to skip */
    codec_buf body;
    uint64_t chunk_at;       /* input offset of the current chunk */
    bool started;            /* the stream identifier was read */
    uint64_t produced;       /* for max= */
} framed_reader;

static int corrupt(const codec_stage *s, uint64_t at, const char *what, codec_error *err)
{
    return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, at, "%s", what);
}

/* A complete chunk: checks it and appends its bytes. */
static int framed_emit(const codec_stage *s, framed_reader *r, codec_buf *out, bool cap,
                       codec_error *err)
{
    uint8_t type = r->head[0];
    const uint8_t *b = r->body.data;
    size_t n = r->body.len;
    if (type == CHUNK_IDENTIFIER) {
        if (n != 6 || memcmp(b, identifier + 4, 6) != 0)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, r->chunk_at,
                              "bad snappy stream identifier");
        r->started = true;
        return CODEC_OK;
    }
    if (!r->started)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, 0,
                          "not a framed snappy stream (no stream identifier)");
    if (n < 4)
        return corrupt(s, r->chunk_at, "snappy chunk shorter than its checksum", err);
    size_t len = n - 4, base = out->len;
    if (type == CHUNK_COMPRESSED) {
        if (snappy_uncompressed_length((const char *)b + 4, len, &len) != SNAPPY_OK ||
            len > CHUNK_INPUT)
            return corrupt(s, r->chunk_at, "bad snappy chunk length", err);
    }
    if (cap && s->max_output && r->produced + len > s->max_output)
        return codec__stage_check_cap(s, (size_t)(r->produced + len), err);
    if (codec_buf_reserve(out, len ? len : 1))
        return codec__compress_nomem(s, err);
    if (type == CHUNK_STORED) {
        memcpy(out->data + base, b + 4, len);
    } else {
        size_t got = len;
        if (snappy_uncompress((const char *)b + 4, n - 4, (char *)out->data + base, &got) !=
                SNAPPY_OK ||
            got != len)
            return corrupt(s, r->chunk_at, "corrupt snappy chunk", err);
    }
    if (masked_crc(out->data + base, len) != load_le(b, 4))
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CHECKSUM, r->chunk_at + 4,
                          "snappy chunk checksum mismatch");
    out->len += len;
    r->produced += len;
    return CODEC_OK;
}

/* Starts the chunk whose 4-byte header is complete. */
static int framed_begin(const codec_stage *s, framed_reader *r, codec_error *err)
{
    uint8_t type = r->head[0];
    size_t len = load_le(r->head + 1, 3);
    if (type >= 0x02 && type <= 0x7F)
        return CODEC_FAIL(err, s, CODEC_E_UNSUPPORTED, CODEC_D_CORRUPT, r->chunk_at,
                          "reserved unskippable snappy chunk type 0x%02x", type);
    if (type >= 0x80 && type != CHUNK_IDENTIFIER) {
        if (!r->started)
            return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_BAD_MAGIC, 0,
                              "not a framed snappy stream (no stream identifier)");
        r->skip = len; /* padding or a skippable chunk */
        return CODEC_OK;
    }
    size_t limit = type == CHUNK_IDENTIFIER ? 6
                   : type == CHUNK_STORED   ? CHUNK_INPUT + 4
                                            : snappy_max_compressed_length(CHUNK_INPUT) + 4;
    if (len > limit)
        return corrupt(s, r->chunk_at, "snappy chunk longer than the format allows", err);
    r->need = len;
    r->body.len = 0;
    return CODEC_OK;
}

/* Reads src[0..n) (input offset `at`), appending every complete chunk's
 * bytes to out. */
static int framed_read(const codec_stage *s, framed_reader *r, const uint8_t *src, size_t n,
                       uint64_t at, codec_buf *out, bool cap, codec_error *err)
{
    size_t i = 0;
    while (i < n) {
        if (r->skip) {
            size_t k = n - i < r->skip ? n - i : r->skip;
            r->skip -= k;
            i += k;
            continue;
        }
        if (r->head_len < 4) {
            if (r->head_len == 0)
                r->chunk_at = at + i;
            r->head[r->head_len++] = src[i++];
            if (r->head_len < 4)
                continue;
            int rc = framed_begin(s, r, err);
            if (rc)
                return rc;
            if (r->head[0] >= 0x80 && r->head[0] != CHUNK_IDENTIFIER) {
                r->head_len = 0; /* skipping its body (r->skip) */
                continue;
            }
            if (r->need > 0)
                continue;
        } else {
            size_t k = n - i < r->need - r->body.len ? n - i : r->need - r->body.len;
            if (codec_buf_append(&r->body, src + i, k))
                return codec__compress_nomem(s, err);
            i += k;
        }
        if (r->body.len == r->need) {
            int rc = framed_emit(s, r, out, cap, err);
            if (rc)
                return rc;
            r->head_len = 0;
            r->need = 0;
            r->body.len = 0;
        }
    }
    return CODEC_OK;
}

static int framed_end(const codec_stage *s, const framed_reader *r, uint64_t at,
                      codec_error *err)
{
    /* Empty input is an empty stream, as python-snappy writes it. */
    if (r->head_len || r->skip)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, at,
                          "unexpected end of input");
    return CODEC_OK;
}

int codec__snappy_framed_decode(const codec_stage *s, const uint8_t *src, size_t n,
                                codec_buf *out, codec_error *err)
{
    framed_reader r = {0};
    codec_buf_init(&r.body, NULL);
    size_t base = out->len;
    int rc = framed_read(s, &r, src, n, 0, out, true, err);
    if (!rc)
        rc = framed_end(s, &r, n, err);
    codec_buf_free(&r.body);
    if (rc)
        out->len = base;
    return rc;
}

/* ---- streams --------------------------------------------------------- */

typedef struct framed_stream {
    codec__push p;
    framed_reader r;         /* decode */
    bool begun;              /* encode: identifier written */
    size_t fill;             /* encode: bytes in block */
    uint8_t block[CHUNK_INPUT];
} framed_stream;

static int framed_feed(codec__push *p, const uint8_t *src, size_t n, uint64_t at,
                       codec_buf *out, codec_error *err)
{
    framed_stream *f = (framed_stream *)p;
    const codec_stage *s = p->base.stage;
    if (p->base.decode)
        return framed_read(s, &f->r, src, n, at, out, false, err);
    if (!f->begun && codec_buf_append(out, identifier, sizeof identifier))
        return codec__compress_nomem(s, err);
    f->begun = true;
    while (n) {
        const uint8_t *chunk = codec__block_next(f->block, CHUNK_INPUT, &f->fill, &src, &n);
        if (chunk) {
            int rc = framed_chunk(s, chunk, CHUNK_INPUT, out, err);
            if (rc)
                return rc;
            f->fill = 0;
        }
    }
    return CODEC_OK;
}

static int framed_finish(codec__push *p, uint64_t at, codec_buf *out, codec_error *err)
{
    framed_stream *f = (framed_stream *)p;
    const codec_stage *s = p->base.stage;
    if (p->base.decode)
        return framed_end(s, &f->r, at, err);
    if (!f->begun && codec_buf_append(out, identifier, sizeof identifier))
        return codec__compress_nomem(s, err);
    return f->fill ? framed_chunk(s, f->block, f->fill, out, err) : CODEC_OK;
}

static void framed_free(codec__push *p)
{
    codec_buf_free(&((framed_stream *)p)->r.body);
}

static const codec__push_ops framed_ops = {
    .feed = framed_feed, .finish = framed_finish, .free = framed_free};

int codec__snappy_framed_stream_open(const codec_stage *s, bool decode,
                                     struct codec__sstream **out, codec_error *err)
{
    framed_stream *f = (framed_stream *)codec__push_new(sizeof *f, &framed_ops, s, decode);
    if (!f)
        return codec__compress_nomem(s, err);
    codec_buf_init(&f->r.body, NULL);
    *out = &f->p.base;
    return CODEC_OK;
}
