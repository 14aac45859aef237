/* serde.c — the serializer and deserializer: encoding with the spec
 * header, choosing the pipeline a message names, decoding with the
 * message's place in the log in every error. */
#include "kafka_internal.h"

#include <stdio.h>
#include <string.h>

/* Longest topic name and header value quoted in a message. */
#define QUOTE_CAP 48

/* Copies up to QUOTE_CAP bytes of `s` as printable ASCII (others as '?',
 * a cut marked "..."). dst holds QUOTE_CAP + 4 bytes. */
static void quote(const char *s, size_t len, char *dst)
{
    size_t n = len > QUOTE_CAP ? QUOTE_CAP : len;
    for (size_t i = 0; i < n; i++)
        dst[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
    strcpy(dst + n, len > n ? "..." : "");
}

void codec__kafka_locate(const rd_kafka_message_t *m, codec_error *err)
{
    if (!err)
        return;
    const char *topic = m->rkt ? rd_kafka_topic_name(m->rkt) : "?";
    char name[QUOTE_CAP + 4], where[QUOTE_CAP + 64];
    quote(topic, strlen(topic), name);
    int w = snprintf(where, sizeof where, "%s [%d] @%lld: ", name, (int)m->partition,
                     (long long)m->offset);
    size_t keep = sizeof err->message - 1 - (size_t)w;
    size_t old = strnlen(err->message, sizeof err->message - 1);
    memmove(err->message + w, err->message, old < keep ? old : keep);
    err->message[w + (old < keep ? old : keep)] = '\0';
    memcpy(err->message, where, (size_t)w);
}

int codec_kafka_serialize(const codec *c, const char *spec_id, const void *value,
                          codec_buf *out, rd_kafka_headers_t *headers, codec_error *err)
{
    if (!c || !value || !out)
        return codec_error_set(err, CODEC_E_USAGE, 0, "kafka", CODEC_NO_OFFSET,
                               "codec_kafka_serialize needs a codec, a value and a buffer");
    int rc = headers ? CODEC__KAFKA_OPEN(err) : CODEC_OK;
    if (rc)
        return rc;
    size_t before = out->len;
    rc = codec_encode(c, value, out, err);
    if (rc || !headers)
        return rc;
    const char *id = spec_id ? spec_id : codec_spec(c);
    rd_kafka_resp_err_t e = rd_kafka_header_add(headers, CODEC_KAFKA_SPEC_HEADER, -1, id, -1);
    if (e) {
        out->len = before;
        return codec_error_set(err, CODEC_E_TRANSIENT, 0, "kafka", CODEC_NO_OFFSET,
                               "adding the %s header: %s", CODEC_KAFKA_SPEC_HEADER,
                               rd_kafka_err2str(e));
    }
    return 0;
}

int codec_kafka_message_spec(const rd_kafka_message_t *m, const char **id, size_t *len)
{
    rd_kafka_headers_t *h;
    const void *v;
    size_t n;
    if (m && CODEC__KAFKA_OPEN(NULL))
        return CODEC_E_UNSUPPORTED;
    if (!m || rd_kafka_message_headers(m, &h) ||
        rd_kafka_header_get_last(h, CODEC_KAFKA_SPEC_HEADER, &v, &n))
        return CODEC_E_NOT_FOUND;
    *id = v ? v : "";
    *len = n;
    return 0;
}

static const char *identity(const codec_kafka_decoder *d, size_t i)
{
    return d->ids && d->ids[i] ? d->ids[i] : codec_spec(d->codecs[i]);
}

/* The index of the codec for `m` into *which. */
static int pick(const codec_kafka_decoder *d, const rd_kafka_message_t *m, size_t *which,
                codec_error *err)
{
    *which = 0;
    if (d->check == CODEC_KAFKA_SPEC_IGNORE)
        return 0;
    const char *id;
    size_t len;
    if (codec_kafka_message_spec(m, &id, &len)) {
        if (d->check != CODEC_KAFKA_SPEC_REQUIRE)
            return 0;
        return codec_error_set(err, CODEC_E_UNSUPPORTED, 0, "kafka", CODEC_NO_OFFSET,
                               "no %s header, and this consumer requires one",
                               CODEC_KAFKA_SPEC_HEADER);
    }
    for (size_t i = 0; i < d->count; i++) {
        const char *want = identity(d, i);
        if (strlen(want) == len && memcmp(want, id, len) == 0) {
            *which = i;
            return 0;
        }
    }
    char seen[QUOTE_CAP + 4], first[QUOTE_CAP + 4];
    quote(id, len, seen);
    quote(identity(d, 0), strlen(identity(d, 0)), first);
    return codec_error_set(err, CODEC_E_UNSUPPORTED, 0, "kafka", CODEC_NO_OFFSET,
                           "written with %s '%s', not accepted here (accepted: '%s'%s)",
                           CODEC_KAFKA_SPEC_HEADER, seen, first,
                           d->count > 1 ? " and others" : "");
}

int codec_kafka_deserialize(const codec_kafka_decoder *d, const rd_kafka_message_t *m,
                            void *value_out, codec_arena *arena, size_t *which,
                            codec_error *err)
{
    if (!d || !d->codecs || !d->count || !m || !value_out || !arena ||
        (unsigned)d->check > CODEC_KAFKA_SPEC_IGNORE)
        return codec_error_set(err, CODEC_E_USAGE, 0, "kafka", CODEC_NO_OFFSET,
                               "codec_kafka_deserialize needs a decoder with codecs, a "
                               "message, value_out and an arena");
    int opened = CODEC__KAFKA_OPEN(err);
    if (opened)
        return opened;
    size_t k = 0;
    int rc = m->err ? codec_error_set(err, CODEC_E_TRANSIENT, 0, "kafka", CODEC_NO_OFFSET,
                                      "consumer error: %s", rd_kafka_message_errstr(m))
                    : pick(d, m, &k, err);
    if (!rc) {
        const uint8_t *in = m->payload ? m->payload : (const uint8_t *)"";
        rc = codec_decode(d->codecs[k], in, m->len, value_out, arena, err);
    }
    if (rc) {
        codec__kafka_locate(m, err);
        return rc;
    }
    if (which)
        *which = k;
    return 0;
}
