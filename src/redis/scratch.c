/* scratch.c — the connection's reusable memory for multi-key commands:
 * one buffer holding every encoded value, and the argument arrays hiredis
 * takes. Grown on demand and kept, so a steady stream of batches of the
 * same shape allocates nothing of codec's own. Also the argument checks. */
#include "redis_internal.h"

#include <string.h>

int codec__redis_check_key(const char *key, size_t key_len, codec_error *err)
{
    if (!key && key_len)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "a key of %zu bytes needs a pointer", key_len);
    return CODEC_OK;
}

static int item_usage(size_t i, const char *what, codec_error *err)
{
    return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET, "item %zu: %s", i,
                           what);
}

int codec__redis_check_items(const codec_redis *r, const codec_redis_item *items, size_t n, int op,
                             codec_error *err)
{
    if (!r || (!items && n))
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "a multi-key call needs a connection and its items");
    if (n > CODEC_REDIS_MAX_ITEMS)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_LIMIT, "redis", CODEC_NO_OFFSET,
                               "%zu items is over the limit of %u per call", n,
                               CODEC_REDIS_MAX_ITEMS);
    for (size_t i = 0; i < n; i++) {
        const codec_redis_item *it = &items[i];
        int it_op = op >= 0 ? op : (int)it->op;
        if (it_op != CODEC_REDIS_GET && it_op != CODEC_REDIS_SET && it_op != CODEC_REDIS_DEL)
            return item_usage(i, "op must be CODEC_REDIS_GET, _SET or _DEL", err);
        if (!it->key && it->key_len)
            return item_usage(i, "a key length without a key", err);
        if (it_op != CODEC_REDIS_DEL && !it->codec)
            return item_usage(i, "no codec", err);
        if (it_op == CODEC_REDIS_SET && (!it->value || it->ttl_ms < 0))
            return item_usage(i, "a set needs a value and a ttl_ms >= 0", err);
        if (it_op == CODEC_REDIS_GET && !it->value_out)
            return item_usage(i, "a get needs value_out", err);
    }
    return CODEC_OK;
}

int codec__redis_scratch_reserve(codec_redis *r, size_t args, codec_error *err)
{
    if (args <= r->scratch_cap)
        return CODEC_OK;
    size_t cap = r->scratch_cap ? r->scratch_cap : 16;
    while (cap < args)
        cap *= 2;
    const codec_allocator *a = r->alloc;
    const char **argv = a->alloc(a->ctx, cap * sizeof *argv);
    size_t *argvlen = a->alloc(a->ctx, cap * sizeof *argvlen);
    size_t *ends = a->alloc(a->ctx, cap * sizeof *ends);
    if (!argv || !argvlen || !ends) {
        if (argv)
            a->release(a->ctx, argv, cap * sizeof *argv);
        if (argvlen)
            a->release(a->ctx, argvlen, cap * sizeof *argvlen);
        if (ends)
            a->release(a->ctx, ends, cap * sizeof *ends);
        return codec_error_set(err, CODEC_E_NOMEM, 0, "redis", CODEC_NO_OFFSET,
                               "out of memory for %zu command arguments", args);
    }
    if (r->scratch_cap) {
        a->release(a->ctx, r->argv, r->scratch_cap * sizeof *r->argv);
        a->release(a->ctx, r->argvlen, r->scratch_cap * sizeof *r->argvlen);
        a->release(a->ctx, r->ends, r->scratch_cap * sizeof *r->ends);
    }
    r->argv = argv;
    r->argvlen = argvlen;
    r->ends = ends;
    r->scratch_cap = cap;
    return CODEC_OK;
}

bool codec__redis_every_item(const codec_redis_item *it)
{
    (void)it;
    return true;
}

int codec__redis_encode_items(codec_redis *r, codec_redis_item *items, size_t n, bool stop_on_error,
                              bool (*wants)(const codec_redis_item *), codec_error *err)
{
    int first = CODEC_OK;
    codec_buf_clear(&r->buf);
    for (size_t i = 0; i < n; i++) {
        codec_redis_item *it = &items[i];
        it->status = CODEC_OK;
        if (wants(it)) {
            it->status = codec_encode(it->codec, it->value, &r->buf, &it->error);
            if (it->status && !first) {
                first = it->status;
                if (err)
                    *err = it->error;
            }
            if (it->status && stop_on_error)
                return first;
        }
        r->ends[i] = r->buf.len;
    }
    return first;
}

const char *codec__redis_value_of(const codec_redis *r, size_t i, size_t *len)
{
    size_t start = i ? r->ends[i - 1] : 0;
    *len = r->ends[i] - start;
    return r->buf.data ? (const char *)r->buf.data + start : "";
}
