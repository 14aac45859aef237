/* stream.c — the streaming pipeline (include/codec/stream.h).
 *
 * Each transform runs as a "lane": its sstream and a fixed buffer holding
 * the output the next lane (or the caller) has not taken yet. pump() steps
 * every lane, left to right, until none moves a byte; a lane runs only
 * when its buffer has room, so a stage never produces more than one buffer
 * ahead of its reader and memory stays bounded. */
#include "stream_internal.h"
#include "core/error_internal.h"

#include <string.h>

typedef struct lane {
    codec__sstream *st;
    uint8_t *buf;             /* CODEC__STREAM_PIECE bytes, from the first step
                                 that writes there (a last lane that always
                                 writes into the caller's room needs none) */
    size_t rpos, wpos;        /* buf[rpos..wpos) waits for the reader */
    uint64_t produced;        /* for a max= the spec gave */
    bool done;
} lane;

struct codec_stream {
    const codec *c;
    bool finished;            /* no more input */
    bool started;             /* something was fed */
    int status;               /* sticky failure */
    codec_error error;
    const uint8_t *src;       /* the current input of lane 0 */
    size_t src_len, src_pos;
    uint64_t total_in, total_out, limit;
    bool value_decode;        /* typed decode: the last lane fills `value` */
    codec_buf value;          /* typed streams: the backend's bytes */
    size_t value_limit;
    size_t count;
    lane lanes[];
};

int codec__stream_nomem(const codec_stage *s, codec_error *err)
{
    return codec__nomem(err, s->name);
}

static const codec_allocator *heap(void)
{
    return codec_default_allocator();
}

/* Records the first failure and returns it (copied to err). */
static int fail(codec_stream *s, int rc, codec_error *err)
{
    if (!s->status)
        s->status = rc;
    if (err)
        *err = s->error;
    return s->status;
}

static int usage(codec_stream *s, codec_error *err, const char *msg)
{
    codec_error e;
    codec_error_set(&e, CODEC_E_USAGE, 0, "stream", CODEC_NO_OFFSET, "%s", msg);
    if (err)
        *err = e;
    (void)s;
    return CODEC_E_USAGE;
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* The input lane i reads: the caller's (lane 0) or lane i-1's buffer;
 * `end` when no more will come. */
static void lane_input(codec_stream *s, size_t i, const uint8_t **src, size_t *avail, bool *end)
{
    if (i == 0) {
        *src = s->src ? s->src + s->src_pos : NULL;
        *avail = s->src_len - s->src_pos;
        *end = s->finished;
    } else {
        lane *up = &s->lanes[i - 1];
        *src = up->buf ? up->buf + up->rpos : NULL;
        *avail = up->wpos - up->rpos;
        *end = up->done;
    }
}

static void lane_took(codec_stream *s, size_t i, size_t n)
{
    if (i == 0)
        s->src_pos += n;
    else
        s->lanes[i - 1].rpos += n;
}

static int trailing(codec_stream *s, size_t i)
{
    const codec__sstream *st = s->lanes[i].st;
    return CODEC_FAIL(&s->error, st->stage, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRAILING,
                      st->consumed, "trailing data after the end of the %s stream",
                      st->stage->name);
}

/* Where a drain wants the last lane's output: the caller's buffer, which
 * the lane writes straight into while its own buffer is empty. */
typedef struct direct_out {
    uint8_t *dst;
    size_t cap, len;
} direct_out;

/* Steps lane i once; *moved when it consumed, produced or ended. With
 * `direct` (the last lane, its buffer empty), the output goes there. */
static int lane_step(codec_stream *s, size_t i, direct_out *direct, bool *moved)
{
    lane *l = &s->lanes[i];
    const uint8_t *src;
    size_t avail;
    bool end;
    lane_input(s, i, &src, &avail, &end);
    if (l->done)
        return avail ? trailing(s, i) : CODEC_OK;
    if (l->rpos == l->wpos) {
        l->rpos = l->wpos = 0;
    } else if (l->wpos == CODEC__STREAM_PIECE && l->rpos) {
        memmove(l->buf, l->buf + l->rpos, l->wpos - l->rpos);
        l->wpos -= l->rpos;
        l->rpos = 0;
    }
    if (direct && (l->wpos != l->rpos || direct->len == direct->cap))
        direct = NULL;
    if ((!direct && l->wpos == CODEC__STREAM_PIECE) || (!avail && !end))
        return CODEC_OK;
    if (!direct && !l->buf && !(l->buf = heap()->alloc(NULL, CODEC__STREAM_PIECE)))
        return codec__stream_nomem(l->st->stage, &s->error);
    codec__io io = {src ? src : (const uint8_t *)"", avail, 0, l->buf, CODEC__STREAM_PIECE,
                    l->wpos};
    if (direct) {
        io.dst = direct->dst;
        io.dst_cap = direct->cap;
        io.dst_pos = direct->len;
    }
    size_t before = io.dst_pos;
    bool done = false;
    int rc = l->st->ops->step(l->st, &io, end, &done, &s->error);
    if (rc)
        return rc;
    l->st->consumed += io.src_pos;
    lane_took(s, i, io.src_pos);
    *moved = io.src_pos || io.dst_pos != before || done;
    l->produced += io.dst_pos - before;
    if (direct)
        direct->len = io.dst_pos;
    else
        l->wpos = io.dst_pos;
    const codec_stage *stage = l->st->stage;
    if (l->st->decode && stage->max_given && l->produced > stage->max_output)
        return CODEC_FAIL(&s->error, stage, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT,
                          CODEC_NO_OFFSET,
                          "decoded size exceeds the limit of %zu bytes (raise max=)",
                          stage->max_output);
    l->done = done;
    if (done && io.src_pos < avail)
        return trailing(s, i);
    return CODEC_OK;
}

/* A typed decode keeps the last lane's output (the backend's bytes). */
static int keep_value(codec_stream *s)
{
    lane *l = &s->lanes[s->count - 1];
    size_t n = l->wpos - l->rpos;
    if (!n)
        return CODEC_OK;
    const codec_stage *b = codec__stage_at(s->c, 0);
    if (n > s->value_limit - s->value.len)
        return CODEC_FAIL(&s->error, b, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, s->value.len,
                          "input exceeds the limit of %zu bytes", s->value_limit);
    if (codec_buf_append(&s->value, l->buf + l->rpos, n))
        return codec__stream_nomem(b, &s->error);
    l->rpos = l->wpos;
    return CODEC_OK;
}

/* Steps every lane until none moves; with `direct`, the last lane writes
 * there while it can, and pumping stops once it is full. */
static int pump(codec_stream *s, direct_out *direct)
{
    bool moved = true;
    while (moved) {
        moved = false;
        for (size_t i = 0; i < s->count; i++) {
            bool m = false;
            int rc = lane_step(s, i, i + 1 == s->count ? direct : NULL, &m);
            if (rc)
                return rc;
            moved |= m;
        }
        if (direct && direct->len == direct->cap)
            break;
        if (s->value_decode) {
            int rc = keep_value(s);
            if (rc)
                return rc;
        }
    }
    return CODEC_OK;
}

static void stream_free_lanes(codec_stream *s)
{
    for (size_t i = 0; i < s->count; i++) {
        lane *l = &s->lanes[i];
        if (l->st)
            l->st->ops->free(l->st);
        if (l->buf)
            heap()->release(NULL, l->buf, CODEC__STREAM_PIECE);
    }
}

void codec_stream_free(codec_stream *s)
{
    if (!s)
        return;
    stream_free_lanes(s);
    codec_buf_free(&s->value);
    heap()->release(NULL, s, sizeof *s + s->count * sizeof s->lanes[0]);
}

/* A stream over the transforms of c (stages first..count-1). */
static codec_stream *stream_make(const codec *c, bool decode, codec_error *err)
{
    size_t first = codec__has_backend(c) ? 1 : 0;
    size_t count = codec_stage_count(c) - first;
    codec_stream *s = heap()->alloc(NULL, sizeof *s + count * sizeof s->lanes[0]);
    if (!s) {
        codec__nomem(err, "stream");
        return NULL;
    }
    memset(s, 0, sizeof *s + count * sizeof s->lanes[0]);
    s->c = c;
    s->count = count;
    codec_buf_init(&s->value, NULL);
    for (size_t k = 0; k < count; k++) {
        const codec_stage *stage = codec__stage_at(c, first + (decode ? count - 1 - k : k));
        int rc = codec__sstream_open(stage, decode, &s->lanes[k].st, err);
        if (rc) {
            codec_stream_free(s);
            return NULL;
        }
    }
    return s;
}

codec_stream *codec_stream_new(const codec *c, codec_stream_mode mode, codec_error *err)
{
    if (!c || (mode != CODEC_STREAM_ENCODE && mode != CODEC_STREAM_DECODE)) {
        codec_error_set(err, CODEC_E_USAGE, 0, "stream", CODEC_NO_OFFSET,
                        "codec_stream_new needs a codec and a mode");
        return NULL;
    }
    bool typed = codec__has_backend(c);
    if (typed && mode == CODEC_STREAM_ENCODE) {
        codec_error_set(err, CODEC_E_USAGE, 0, "stream", CODEC_NO_OFFSET,
                        "a typed codec streams its encode with codec_stream_new_value");
        return NULL;
    }
    if (typed && codec_stage_count(c) == 1) {
        codec_error_set(err, CODEC_E_USAGE, 0, "stream", CODEC_NO_OFFSET,
                        "a lone backend has no bytes to stream: use codec_decode");
        return NULL;
    }
    codec_stream *s = stream_make(c, mode == CODEC_STREAM_DECODE, err);
    if (s && typed) {
        const codec_stage *b = codec__stage_at(c, 0);
        s->value_decode = true;
        s->value_limit = b->max_output ? b->max_output : CODEC_DEFAULT_MAX_OUTPUT;
    }
    return s;
}

codec_stream *codec_stream_new_value(const codec *c, const void *value, codec_error *err)
{
    if (!c || !value || !codec__has_backend(c) || codec_stage_count(c) == 1) {
        codec_error_set(err, CODEC_E_USAGE, 0, "stream", CODEC_NO_OFFSET,
                        "codec_stream_new_value needs a typed codec with transforms, and a "
                        "value");
        return NULL;
    }
    codec_stream *s = stream_make(c, false, err);
    if (!s)
        return NULL;
    const codec_stage *b = codec__stage_at(c, 0);
    if (b->ops->encode_value(b, value, &s->value, err)) {
        codec_stream_free(s);
        return NULL;
    }
    s->src = s->value.data;
    s->src_len = s->value.len;
    s->total_in = s->value.len;
    s->started = s->finished = true;
    return s;
}

int codec_stream_pledge(codec_stream *s, uint64_t size, codec_error *err)
{
    if (s->started || s->value_decode)
        return usage(s, err, "codec_stream_pledge comes before the first feed of an encode");
    const codec__sstream *st = s->count ? s->lanes[0].st : NULL;
    if (st && !st->decode && st->ops->pledge)
        st->ops->pledge(s->lanes[0].st, size);
    return CODEC_OK;
}

void codec_stream_limit(codec_stream *s, uint64_t max_output)
{
    s->limit = max_output;
}

/* The checks of a call that gives input, then in[0..n) becomes lane 0's
 * input. The messages name the call. */
typedef struct input_call {
    const char *after_finish, *null_input;
} input_call;

static const input_call FEED = {"codec_stream_feed after codec_stream_finish",
                                "codec_stream_feed: NULL input"};
static const input_call UPDATE = {"codec_stream_update after codec_stream_finish",
                                  "codec_stream_update: NULL input"};

static int input_begin(codec_stream *s, const uint8_t *in, size_t n, const input_call *call,
                       codec_error *err)
{
    if (s->status)
        return fail(s, s->status, err);
    if (s->finished)
        return usage(s, err, call->after_finish);
    if (!in && n)
        return usage(s, err, call->null_input);
    s->started = true;
    s->src = in;
    s->src_len = n;
    s->src_pos = 0;
    return CODEC_OK;
}

/* Lane 0's input goes back to the caller; *used is what was taken. */
static void input_end(codec_stream *s, size_t *used)
{
    *used = s->src_pos;
    s->total_in += s->src_pos;
    s->src = NULL;
    s->src_len = s->src_pos = 0;
}

int codec_stream_feed(codec_stream *s, const uint8_t *in, size_t n, size_t *used,
                      codec_error *err)
{
    *used = 0;
    int rc = input_begin(s, in, n, &FEED, err);
    if (rc)
        return rc;
    rc = pump(s, NULL);
    input_end(s, used);
    return rc ? fail(s, rc, err) : CODEC_OK;
}

int codec_stream_update(codec_stream *s, const uint8_t *in, size_t n, size_t *used,
                        uint8_t *out, size_t cap, size_t *got, codec_error *err)
{
    *used = 0;
    *got = 0;
    if (!s->status && s->value_decode)
        return usage(s, err, "a typed decode stream gives its value with codec_stream_value");
    int rc = input_begin(s, in, n, &UPDATE, err);
    if (rc)
        return rc;
    /* The drain pumps the lanes with the input in place, the last one
     * writing into out; what out had no room for waits in the buffers. */
    rc = codec_stream_drain(s, out, cap, got, err);
    if (!rc && s->src_pos < n && (rc = pump(s, NULL)))
        rc = fail(s, rc, err);
    input_end(s, used);
    return rc;
}

int codec_stream_finish(codec_stream *s, codec_error *err)
{
    if (s->status)
        return fail(s, s->status, err);
    s->finished = true;
    int rc = pump(s, NULL);
    return rc ? fail(s, rc, err) : CODEC_OK;
}

static int over_limit(codec_stream *s)
{
    return codec_error_set(&s->error, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "stream",
                           s->limit, "output exceeds the limit of %llu bytes",
                           (unsigned long long)s->limit);
}

int codec_stream_drain(codec_stream *s, uint8_t *out, size_t cap, size_t *got,
                       codec_error *err)
{
    *got = 0;
    if (s->status)
        return fail(s, s->status, err);
    if (s->value_decode)
        return usage(s, err, "a typed decode stream gives its value with codec_stream_value");
    lane *last = &s->lanes[s->count - 1];
    while (*got < cap) {
        size_t k = min_size(last->wpos - last->rpos, cap - *got);
        if (s->limit && k > s->limit - s->total_out)
            return fail(s, over_limit(s), err);
        if (k)
            memcpy(out + *got, last->buf + last->rpos, k);
        last->rpos += k;
        *got += k;
        s->total_out += k;
        if (*got == cap)
            break;
        /* The last lane's buffer is empty: it writes into out itself (up
         * to one byte past the limit, to see it passed). */
        direct_out d = {out + *got, cap - *got, 0};
        if (s->limit && d.cap > s->limit - s->total_out)
            d.cap = s->limit - s->total_out + 1;
        int rc = pump(s, &d);
        if (!rc && s->limit && d.len > s->limit - s->total_out)
            rc = over_limit(s);
        if (rc)
            return fail(s, rc, err);
        *got += d.len;
        s->total_out += d.len;
        if (last->wpos == last->rpos && (d.len < d.cap || *got == cap))
            break;
    }
    return CODEC_OK;
}

bool codec_stream_done(const codec_stream *s)
{
    if (s->status || !s->finished)
        return false;
    for (size_t i = 0; i < s->count; i++)
        if (!s->lanes[i].done)
            return false;
    return s->lanes[s->count - 1].wpos == s->lanes[s->count - 1].rpos;
}

int codec_stream_value(codec_stream *s, void *value_out, codec_arena *arena, codec_error *err)
{
    if (s->status)
        return fail(s, s->status, err);
    if (!s->value_decode || !codec_stream_done(s))
        return usage(s, err, "codec_stream_value needs a typed decode stream that is done");
    const codec_stage *b = codec__stage_at(s->c, 0);
    /* The value may point into its bytes: they move to the arena. */
    uint8_t *bytes = codec_arena_alloc(arena, s->value.len ? s->value.len : 1, 1);
    if (!bytes)
        return fail(s, codec__stream_nomem(b, &s->error), err);
    if (s->value.len)
        memcpy(bytes, s->value.data, s->value.len);
    return b->ops->decode_value(b, bytes, s->value.len, value_out, arena, err);
}

uint64_t codec_stream_total_in(const codec_stream *s)
{
    return s->total_in;
}

uint64_t codec_stream_total_out(const codec_stream *s)
{
    return s->total_out;
}
