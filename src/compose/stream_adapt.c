/* stream_adapt.c — the push, block and whole adapters of stream_internal.h. */
#include "stream_internal.h"
#include "core/ascii_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- push ------------------------------------------------------------ */

static int push_step(codec__sstream *st, codec__io *io, bool end, bool *done, codec_error *err)
{
    codec__push *p = (codec__push *)st;
    while (codec__io_flush(io, &p->pending, &p->pending_pos)) {
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

/* The one-shot function writes straight into the stream's output (io->dst)
 * through a codec_buf that borrows it: chunks are sized from cfg.out_block
 * so their output fits, and should a stage write more than that, the
 * borrowing allocator moves the output to the heap and it waits in
 * `pending`. Input is run where the caller's buffer holds it; only a
 * partial block, the `hold` bytes and (strip_newlines) text without its
 * line breaks are kept in `acc`. */

typedef struct block_stream {
    codec__sstream base;
    codec__block_cfg cfg;
    size_t chunk;            /* most input acc holds for a run (whole blocks) */
    codec_buf acc;           /* input held back (see above) */
    uint64_t acc_at;         /* input offset of the next run's first byte */
    codec_buf pending;       /* output that did not fit io->dst */
    size_t pending_pos;
    bool ran;                /* a chunk has been run */
    bool finished;           /* the last chunk has been run */
} block_stream;

/* An allocator for a codec_buf over memory it does not own (`mem`): growing
 * it moves the bytes to the heap; the borrowed memory is never released. */
typedef struct borrowed {
    codec_allocator a;
    const void *mem;
} borrowed;

static void *borrow_alloc(void *ctx, size_t n)
{
    (void)ctx;
    return codec_default_allocator()->alloc(NULL, n);
}

static void *borrow_resize(void *ctx, void *p, size_t old, size_t n)
{
    const borrowed *b = ctx;
    const codec_allocator *h = codec_default_allocator();
    if (p != b->mem)
        return h->resize(h->ctx, p, old, n);
    uint8_t *q = h->alloc(h->ctx, n);
    if (q && old)
        memcpy(q, p, old < n ? old : n);
    return q;
}

static void borrow_release(void *ctx, void *p, size_t n)
{
    const borrowed *b = ctx;
    if (p != b->mem)
        codec_default_allocator()->release(NULL, p, n);
}

/* Runs the one-shot function of the stage on src[0..n) (the input from
 * offset acc_at), its output into io->dst (or pending when it does not fit). */
static int block_run(block_stream *b, codec__io *io, const uint8_t *src, size_t n, bool last,
                     codec_error *err)
{
    const codec_stage *s = b->base.stage;
    borrowed bw = {{borrow_alloc, borrow_resize, borrow_release, NULL},
                   io->dst + io->dst_pos};
    bw.a.ctx = &bw;
    codec_buf out = {io->dst + io->dst_pos, 0, io->dst_cap - io->dst_pos, &bw.a, NULL};
    int rc = CODEC_OK;
    if (b->cfg.separator && b->ran && n &&
        codec_buf_append(&out, b->cfg.separator, strlen(b->cfg.separator)))
        rc = codec__stream_nomem(s, err);
    if (!rc)
        rc = b->base.decode ? s->ops->decode(s, src, n, &out, err)
                            : s->ops->encode(s, src, n, &out, err);
    if (rc && err && err->offset != CODEC_NO_OFFSET)
        err->offset += b->acc_at;
    /* '=' may end only the last chunk: the one-shot function has rejected
     * it anywhere but in the chunk's last group. */
    size_t tail = n < b->cfg.block ? n : b->cfg.block;
    const uint8_t *pad = !rc && b->cfg.padding_last && !last ? memchr(src + n - tail, '=', tail)
                                                             : NULL;
    if (pad)
        rc = CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT,
                        b->acc_at + (uint64_t)(pad - src), "padding before the end");
    if (!rc && out.data == bw.mem)
        io->dst_pos += out.len;
    else if (!rc && codec_buf_append(&b->pending, out.data, out.len))
        rc = codec__stream_nomem(s, err);
    if (out.data != bw.mem)
        codec_buf_free(&out);
    b->ran = true;
    b->acc_at += n;
    return rc;
}

/* The input (whole blocks) whose output surely fits the room io->dst has
 * left, in one run however large (a run costs about 100 ns besides its
 * bytes); at least one block (its output may then wait in pending). */
static size_t block_fit(const block_stream *b, const codec__io *io)
{
    size_t room = io->dst_cap - io->dst_pos;
    size_t slack = 64 + (b->cfg.separator ? strlen(b->cfg.separator) : 0);
    size_t fit = (room > slack ? room - slack : room) / b->cfg.out_block * b->cfg.block;
    return fit ? fit : b->cfg.block;
}

/* Runs acc[0..take) and keeps the rest of acc. */
static int block_run_acc(block_stream *b, codec__io *io, size_t take, codec_error *err)
{
    int rc = block_run(b, io, b->acc.data, take, false, err);
    memmove(b->acc.data, b->acc.data + take, b->acc.len - take);
    b->acc.len -= take;
    return rc;
}

/* strip_newlines: the input goes to acc without its line breaks, and runs
 * from there. */
static int block_take_stripped(block_stream *b, codec__io *io, codec_error *err)
{
    const codec__block_cfg *cfg = &b->cfg;
    size_t avail = io->src_len - io->src_pos;
    if (b->acc.len < cfg->hold + b->chunk) {
        size_t k = cfg->hold + b->chunk - b->acc.len;
        k = k < avail ? k : avail;
        if (codec_buf_reserve(&b->acc, k))
            return codec__stream_nomem(b->base.stage, err);
        b->acc.len +=
            codec_copy_skipping_line_breaks(b->acc.data + b->acc.len, io->src + io->src_pos, k);
        io->src_pos += k;
    }
    if (b->acc.len < cfg->hold + cfg->block)
        return CODEC_OK;
    size_t take = (b->acc.len - cfg->hold) / cfg->block * cfg->block, fit = block_fit(b, io);
    return block_run_acc(b, io, take < fit ? take : fit, err);
}

/* The input runs where it is, but for a partial block and the `hold`
 * bytes, which wait in acc. */
static int block_take(block_stream *b, codec__io *io, codec_error *err)
{
    const codec__block_cfg *cfg = &b->cfg;
    const codec_stage *s = b->base.stage;
    const uint8_t *src = io->src + io->src_pos;
    size_t avail = io->src_len - io->src_pos;
    if (b->acc.len) {
        /* Complete acc to whole blocks and run it all when `hold` bytes
         * follow; else keep the input and run what acc can spare. */
        size_t f = (cfg->block - b->acc.len % cfg->block) % cfg->block;
        if (avail >= f + cfg->hold) {
            if (codec_buf_append(&b->acc, src, f))
                return codec__stream_nomem(s, err);
            io->src_pos += f;
            return block_run_acc(b, io, b->acc.len, err);
        }
        if (codec_buf_append(&b->acc, src, avail))
            return codec__stream_nomem(s, err);
        io->src_pos += avail;
        if (b->acc.len < cfg->hold + cfg->block)
            return CODEC_OK;
        return block_run_acc(b, io, (b->acc.len - cfg->hold) / cfg->block * cfg->block, err);
    }
    if (avail < cfg->hold + cfg->block) {
        if (codec_buf_append(&b->acc, src, avail))
            return codec__stream_nomem(s, err);
        io->src_pos += avail;
        return CODEC_OK;
    }
    size_t take = (avail - cfg->hold) / cfg->block * cfg->block, fit = block_fit(b, io);
    take = take < fit ? take : fit;
    int rc = block_run(b, io, src, take, false, err);
    io->src_pos += rc ? 0 : take;
    return rc;
}

static int block_step(codec__sstream *st, codec__io *io, bool end, bool *done, codec_error *err)
{
    block_stream *b = (block_stream *)st;
    while (codec__io_flush(io, &b->pending, &b->pending_pos)) {
        if (b->finished) {
            *done = true;
            return CODEC_OK;
        }
        if (io->dst_pos == io->dst_cap)
            return CODEC_OK;
        int rc;
        if (io->src_pos < io->src_len) {
            rc = b->cfg.strip_newlines ? block_take_stripped(b, io, err) : block_take(b, io, err);
        } else if (!end) {
            return CODEC_OK;
        } else if (b->cfg.strip_newlines && b->acc.len > b->cfg.hold + b->cfg.block) {
            /* acc may hold more than one run's room: all but the last chunk first */
            size_t take = (b->acc.len - b->cfg.hold) / b->cfg.block * b->cfg.block,
                   fit = block_fit(b, io);
            rc = block_run_acc(b, io, take < fit ? take : fit, err);
        } else {
            b->finished = true;
            rc = b->acc.len || !b->ran
                     ? block_run(b, io, b->acc.data ? b->acc.data : (const uint8_t *)"",
                                 b->acc.len, true, err)
                     : CODEC_OK;
            b->acc.len = 0;
        }
        if (rc)
            return rc;
    }
    return CODEC_OK;
}

static void block_free(codec__sstream *st)
{
    block_stream *b = (block_stream *)st;
    codec_buf_free(&b->acc);
    codec_buf_free(&b->pending);
    free(b);
}

static const codec__sstream_ops block_sops = {.step = block_step, .free = block_free};

int codec__block_open(const codec_stage *s, bool decode, const codec__block_cfg *cfg,
                      codec__sstream **out, codec_error *err)
{
    block_stream *b = calloc(1, sizeof *b);
    if (!b)
        return codec__stream_nomem(s, err);
    b->base = (codec__sstream){.ops = &block_sops, .stage = s, .decode = decode};
    b->cfg = *cfg;
    if (!b->cfg.out_block)
        b->cfg.out_block = 1;
    b->chunk = CODEC__STREAM_PIECE / cfg->block * cfg->block;
    if (b->chunk == 0)
        b->chunk = cfg->block;
    codec_buf_init(&b->acc, NULL);
    codec_buf_init(&b->pending, NULL);
    *out = &b->base;
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
