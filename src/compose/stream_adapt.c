/* stream_adapt.c — the push, block and whole adapters of stream_internal.h. */
#include "stream_internal.h"
#include "core/ascii_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- push ------------------------------------------------------------ */

/* Copies pending output to io->dst; true when all of it went. */
static bool push_flush(codec__push *p, codec__io *io)
{
    size_t left = p->pending.len - p->pending_pos;
    size_t room = io->dst_cap - io->dst_pos;
    size_t k = left < room ? left : room;
    if (k)
        memcpy(io->dst + io->dst_pos, p->pending.data + p->pending_pos, k);
    io->dst_pos += k;
    p->pending_pos += k;
    if (p->pending_pos < p->pending.len)
        return false;
    p->pending.len = p->pending_pos = 0;
    return true;
}

static int push_step(codec__sstream *st, codec__io *io, bool end, bool *done, codec_error *err)
{
    codec__push *p = (codec__push *)st;
    while (push_flush(p, io)) {
        int rc;
        if (io->src_pos < io->src_len) {
            size_t n = io->src_len - io->src_pos;
            if (n > CODEC__STREAM_PIECE)
                n = CODEC__STREAM_PIECE;
            rc = p->pops->feed(p, io->src + io->src_pos, n, st->consumed + io->src_pos,
                               &p->pending, err);
            io->src_pos += rc ? 0 : n;
        } else if (!end) {
            return CODEC_OK;
        } else if (!p->finished) {
            p->finished = true;
            rc = p->pops->finish(p, st->consumed + io->src_pos, &p->pending, err);
        } else {
            *done = true;
            return CODEC_OK;
        }
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

static void push_pledge(codec__sstream *st, uint64_t size)
{
    codec__push *p = (codec__push *)st;
    if (p->pops->pledge)
        p->pops->pledge(p, size);
}

static void push_free(codec__sstream *st)
{
    codec__push *p = (codec__push *)st;
    if (p->pops->free)
        p->pops->free(p);
    codec_buf_free(&p->pending);
    free(p);
}

static const codec__sstream_ops push_sops = {
    .step = push_step, .pledge = push_pledge, .free = push_free};

codec__push *codec__push_new(size_t size, const codec__push_ops *ops, const codec_stage *s,
                             bool decode)
{
    codec__push *p = calloc(1, size);
    if (!p)
        return NULL;
    p->base.ops = &push_sops;
    p->base.stage = s;
    p->base.decode = decode;
    p->pops = ops;
    codec_buf_init(&p->pending, NULL);
    return p;
}

/* ---- block ----------------------------------------------------------- */

typedef struct block_stream {
    codec__push p;
    codec__block_cfg cfg;
    size_t chunk;            /* run the one-shot once this much is buffered */
    codec_buf acc;           /* input not yet run */
    uint64_t acc_at;         /* input offset of acc[0] */
    bool ran;                /* a chunk has been run */
} block_stream;

/* Runs the one-shot function of the stage on src[0..n). */
static int block_run(block_stream *b, const uint8_t *src, size_t n, bool last, codec_buf *out,
                     codec_error *err)
{
    const codec_stage *s = b->p.base.stage;
    const uint8_t *pad = b->cfg.padding_last && !last ? memchr(src, '=', n) : NULL;
    if (pad)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT,
                          b->acc_at + (uint64_t)(pad - src), "padding before the end");
    if (b->cfg.separator && b->ran && n &&
        codec_buf_append(out, b->cfg.separator, strlen(b->cfg.separator)))
        return codec__stream_nomem(s, err);
    int rc = b->p.base.decode ? s->ops->decode(s, src, n, out, err)
                              : s->ops->encode(s, src, n, out, err);
    if (rc && err && err->offset != CODEC_NO_OFFSET)
        err->offset += b->acc_at;
    b->ran = true;
    b->acc_at += n;
    return rc;
}

static int block_append(block_stream *b, const uint8_t *src, size_t n)
{
    if (!b->cfg.strip_newlines)
        return codec_buf_append(&b->acc, src, n);
    if (codec_buf_reserve(&b->acc, n))
        return CODEC_E_NOMEM;
    b->acc.len += codec_copy_skipping_line_breaks(b->acc.data + b->acc.len, src, n);
    return CODEC_OK;
}

static int block_feed(codec__push *p, const uint8_t *src, size_t n, uint64_t at, codec_buf *out,
                      codec_error *err)
{
    block_stream *b = (block_stream *)p;
    (void)at;
    if (!b->cfg.strip_newlines && b->cfg.hold == 0 && n >= b->chunk) {
        /* A large piece to encode: complete the buffered blocks from it,
         * then run its whole blocks where they are, buffering only its
         * tail (no copy of the piece into acc). */
        size_t fill = (b->cfg.block - b->acc.len % b->cfg.block) % b->cfg.block;
        if (b->acc.len && block_append(b, src, fill))
            return codec__stream_nomem(p->base.stage, err);
        if (b->acc.len) {
            src += fill, n -= fill;
            int rc = block_run(b, b->acc.data, b->acc.len, false, out, err);
            b->acc.len = 0;
            if (rc)
                return rc;
        }
        size_t take = n / b->cfg.block * b->cfg.block;
        int rc = take ? block_run(b, src, take, false, out, err) : CODEC_OK;
        if (rc)
            return rc;
        return block_append(b, src + take, n - take) ? codec__stream_nomem(p->base.stage, err)
                                                     : CODEC_OK;
    }
    if (block_append(b, src, n))
        return codec__stream_nomem(p->base.stage, err);
    if (b->acc.len < b->cfg.hold + b->chunk)
        return CODEC_OK;
    size_t take = (b->acc.len - b->cfg.hold) / b->cfg.block * b->cfg.block;
    int rc = block_run(b, b->acc.data, take, false, out, err);
    if (rc)
        return rc;
    memmove(b->acc.data, b->acc.data + take, b->acc.len - take);
    b->acc.len -= take;
    return CODEC_OK;
}

static int block_finish(codec__push *p, uint64_t at, codec_buf *out, codec_error *err)
{
    block_stream *b = (block_stream *)p;
    (void)at;
    if (b->acc.len == 0 && b->ran)
        return CODEC_OK;
    return block_run(b, b->acc.data ? b->acc.data : (const uint8_t *)"", b->acc.len, true, out,
                     err);
}

static void block_free(codec__push *p)
{
    codec_buf_free(&((block_stream *)p)->acc);
}

static const codec__push_ops block_ops = {
    .feed = block_feed, .finish = block_finish, .free = block_free};

int codec__block_open(const codec_stage *s, bool decode, const codec__block_cfg *cfg,
                      codec__sstream **out, codec_error *err)
{
    block_stream *b = (block_stream *)codec__push_new(sizeof *b, &block_ops, s, decode);
    if (!b)
        return codec__stream_nomem(s, err);
    b->cfg = *cfg;
    b->chunk = CODEC__STREAM_PIECE / cfg->block * cfg->block;
    if (b->chunk == 0)
        b->chunk = cfg->block;
    codec_buf_init(&b->acc, NULL);
    *out = &b->p.base;
    return CODEC_OK;
}

/* ---- whole ----------------------------------------------------------- */

typedef struct whole_stream {
    codec__push p;
    size_t limit;
    codec_buf acc;
} whole_stream;

static int whole_feed(codec__push *p, const uint8_t *src, size_t n, uint64_t at, codec_buf *out,
                      codec_error *err)
{
    whole_stream *w = (whole_stream *)p;
    const codec_stage *s = p->base.stage;
    (void)out;
    if (n > w->limit - w->acc.len)
        return CODEC_FAIL(err, s, p->base.decode ? CODEC_E_INVALID_PAYLOAD : CODEC_E_INVALID_VALUE,
                          CODEC_D_LIMIT, at,
                          "%s cannot stream: its input is held whole, and exceeds the limit "
                          "of %zu bytes (raise max=)",
                          s->name, w->limit);
    return codec_buf_append(&w->acc, src, n) ? codec__stream_nomem(s, err) : CODEC_OK;
}

static int whole_finish(codec__push *p, uint64_t at, codec_buf *out, codec_error *err)
{
    whole_stream *w = (whole_stream *)p;
    const codec_stage *s = p->base.stage;
    const uint8_t *src = w->acc.data ? w->acc.data : (const uint8_t *)"";
    (void)at;
    int rc = p->base.decode ? codec__stage_decode(s, src, w->acc.len, out, err)
                            : codec__stage_encode(s, src, w->acc.len, out, err);
    codec_buf_free(&w->acc);
    return rc;
}

static void whole_free(codec__push *p)
{
    codec_buf_free(&((whole_stream *)p)->acc);
}

static const codec__push_ops whole_ops = {
    .feed = whole_feed, .finish = whole_finish, .free = whole_free};

int codec__whole_open(const codec_stage *s, bool decode, size_t limit, codec__sstream **out,
                      codec_error *err)
{
    whole_stream *w = (whole_stream *)codec__push_new(sizeof *w, &whole_ops, s, decode);
    if (!w)
        return codec__stream_nomem(s, err);
    w->limit = limit ? limit : SIZE_MAX;
    codec_buf_init(&w->acc, NULL);
    *out = &w->p.base;
    return CODEC_OK;
}

int codec__sstream_open(const codec_stage *s, bool decode, codec__sstream **out,
                        codec_error *err)
{
    *out = NULL;
    if (s->ops->stream_open && !s->gate)
        return s->ops->stream_open(s, decode, out, err);
    size_t limit = s->max_output ? s->max_output : CODEC_DEFAULT_MAX_OUTPUT;
    return codec__whole_open(s, decode, limit, out, err);
}
