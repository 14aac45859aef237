/* lines.c — the line layout every text encoding shares: `wrap=N` (a line
 * feed after every N characters and at the end, as `base64 -w N` writes)
 * and `lines=strict|skip` (skip: CR and LF anywhere in the input are
 * dropped before decoding, so `base64 FILE` output decodes), plus their
 * streams (compose/stream_internal.h). */
#include "text_internal.h"
#include "compose/stream_internal.h"
#include "core/ascii_internal.h"
#include "core/error_internal.h"

#include <stdlib.h>
#include <string.h>

int codec__text_args_lines(codec_args *a, const text_layout *shape, text_lines *out,
                    codec_error *err)
{
    static const char *const modes[] = {"strict", "skip", NULL};
    size_t wrap, mode;
    int rc = codec__args_size(a, "wrap", false, 0, 0, SIZE_MAX / 4, &wrap, err);
    /* Wrapped text is read back line-tolerant unless lines=strict. */
    if (!rc)
        rc = codec__args_choice(a, "lines", false, modes, wrap ? 1 : 0, &mode, err);
    if (rc)
        return rc;
    out->wrap = wrap;
    out->skip = mode == 1;
    out->shape = *shape;
    return CODEC_OK;
}

int codec__text_wrap(const codec_stage *s, const text_lines *l, codec_buf *out, size_t base,
              codec_error *err)
{
    size_t chars = out->len - base;
    if (!l->wrap || !chars)
        return CODEC_OK;
    size_t lines = (chars - 1) / l->wrap + 1;
    if (codec_buf_reserve(out, lines))
        return codec__nomem(err, s->name);
    /* Spread the lines out from the last one back, in place. */
    uint8_t *p = out->data + base;
    size_t from = chars, to = chars + lines;
    for (size_t i = lines; i-- > 0;) {
        size_t len = i == lines - 1 ? chars - i * l->wrap : l->wrap;
        p[--to] = '\n';
        to -= len;
        from -= len;
        memmove(p + to, p + from, len);
    }
    out->len = base + chars + lines;
    return CODEC_OK;
}

int codec__text_decode_skipping(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                         text_decode_fn decode, codec_error *err)
{
    if (!codec_find_line_break(src, n))
        return decode(s, src, n, out, err);
    uint8_t *text = malloc(n);
    if (!text)
        return codec__nomem(err, s->name);
    size_t len = codec_copy_skipping_line_breaks(text, src, n);
    int rc = decode(s, text, len, out, err);
    free(text);
    return rc;
}

int codec__text_stream_open(const codec_stage *s, const text_lines *l, bool decode,
                     struct codec__sstream **out, codec_error *err)
{
    const text_layout *t = &l->shape;
    codec__block_cfg cfg = {0};
    if (decode) {
        cfg.block = cfg.hold = t->group_chars;
        cfg.strip_newlines = l->skip || t->line_chars;
        cfg.padding_last = t->padded;
        cfg.out_block = t->group_bytes;
    } else if (t->line_chars) {
        /* Fixed lines joined by a separator (base64:mime). */
        cfg.block = t->line_chars / t->group_chars * t->group_bytes;
        cfg.separator = t->line_separator;
        cfg.out_block = t->line_chars + strlen(t->line_separator);
    } else {
        /* Whole groups, and whole lines when wrapped (wrap lines of a
         * group's characters each: group_chars line feeds). */
        cfg.block = t->group_bytes * (l->wrap ? l->wrap : 1);
        cfg.out_block = t->group_chars * (l->wrap ? l->wrap + 1 : 1);
    }
    return codec__block_open(s, decode, &cfg, out, err);
}
