/* gate.c — the opt-in size gate of compression stages (`zstd:3,gate=256`).
 *
 * Inputs shorter than the gate, and inputs that would not shrink, are stored
 * raw behind a one-byte marker, so no value ever grows by more than one byte.
 * Layout (docs/formats/size-gate.md): [0x00][raw bytes] or
 * [0x01][compressed bytes]. */
#include "stage_internal.h"
#include "core/error_internal.h"

#include <string.h>

#define GATE_RAW 0x00
#define GATE_COMPRESSED 0x01

int codec__stage_apply_gate(codec_stage *s, codec_args *args, codec_error *err)
{
    if (s->kind != CODEC_KIND_COMPRESSION)
        return CODEC_OK;
    return codec__args_size(args, "gate", false, 0, 1, SIZE_MAX, &s->gate, err);
}

static int store_raw(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                     size_t base, codec_error *err)
{
    out->len = base;
    uint8_t marker = GATE_RAW;
    if (codec_buf_reserve(out, n + 1))
        return codec__nomem(err, s->name);
    out->data[out->len] = marker;   /* room reserved above */
    memcpy(out->data + out->len + 1, src, n);
    out->len += n + 1;
    return CODEC_OK;
}

int codec__gate_encode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                       codec_error *err)
{
    size_t base = out->len;
    if (n < s->gate)
        return store_raw(s, src, n, out, base, err);
    uint8_t marker = GATE_COMPRESSED;
    if (codec_buf_append(out, &marker, 1))
        return codec__nomem(err, s->name);
    int rc = s->ops->encode(s, src, n, out, err);
    if (rc) {
        out->len = base;
        return rc;
    }
    if (out->len - base - 1 >= n)
        return store_raw(s, src, n, out, base, err);
    return CODEC_OK;
}

/* The marker checks of decode, in its order: *raw tells which marker
 * src[0] is (a raw value is also checked against the decode cap). */
static int gate_marker(const codec_stage *s, const uint8_t *src, size_t n, bool *raw,
                       codec_error *err)
{
    if (n == 0)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_TRUNCATED, 0,
                          "missing size-gate marker");
    *raw = src[0] == GATE_RAW;
    if (src[0] == GATE_COMPRESSED)
        return CODEC_OK;
    if (!*raw)
        return CODEC_FAIL(err, s, CODEC_E_INVALID_PAYLOAD, CODEC_D_CORRUPT, 0,
                          "bad size-gate marker 0x%02x (expected 0x00 or 0x01)", src[0]);
    return codec__stage_check_cap(s, n - 1, err);
}

int codec__gate_decode(const codec_stage *s, const uint8_t *src, size_t n, codec_buf *out,
                       codec_error *err)
{
    bool raw;
    int rc = gate_marker(s, src, n, &raw, err);
    if (rc || !raw)
        return rc ? rc : s->ops->decode(s, src + 1, n - 1, out, err);
    if (codec_buf_append(out, src + 1, n - 1))
        return codec__nomem(err, s->name);
    return CODEC_OK;
}

/* A value stored raw is the bytes after its marker; a compressed one is the
 * stage's own view (compressors have none: CODEC__NO_VIEW). */
int codec__gate_view(const codec_stage *s, const uint8_t *src, size_t n, codec_bytes *body,
                     codec_error *err)
{
    bool raw;
    int rc = gate_marker(s, src, n, &raw, err);
    if (rc || !raw)
        return rc ? rc
                  : s->ops->view ? s->ops->view(s, src + 1, n - 1, body, err) : CODEC__NO_VIEW;
    body->data = src + 1;
    body->len = n - 1;
    return CODEC_OK;
}
