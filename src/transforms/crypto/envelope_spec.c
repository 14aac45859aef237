/* envelope_spec.c — the `envelope` stage from a spec:
 *
 *   envelope:keyring=FILE[,aad=TEXT][,strategy=bounded,max-messages=N,max-age=DURATION]
 *
 * Reads the arguments, loads the key ring and builds the stage through the
 * same path as codec_envelope(). */
#include "compose/stage_internal.h"
#include "crypto_internal.h"

#include <string.h>

/* "500ms", "30s", "10m", "1h", "1d"; a bare number is seconds. */
static bool parse_duration_ms(const char *text, uint64_t *ms)
{
    static const struct {
        const char *suffix;
        uint64_t ms;
    } units[] = {{"ms", 1}, {"s", 1000}, {"", 1000}, {"m", 60000}, {"h", 3600000},
                 {"d", 86400000}};
    const uint64_t max_ms = 365 * (uint64_t)86400000;
    uint64_t v = 0;
    const char *p = text;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > max_ms)
            return false;
    }
    if (p == text)
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(p, units[i].suffix) == 0) {
            *ms = v * units[i].ms;
            return *ms >= 1 && *ms <= max_ms;
        }
    return false;
}

static int read_strategy_args(codec_args *a, codec_envelope_options *o, codec_error *err)
{
    static const char *const strategies[] = {"direct", "bounded", NULL};
    size_t strategy;
    long max_messages;
    const char *max_age;
    int rc = codec__args_choice(a, "strategy", false, strategies, 0, &strategy, err);
    if (!rc)
        rc = codec__args_int(a, "max-messages", false, 0, 1, CODEC_ENVELOPE_LIMIT_MAX_MESSAGES,
                             &max_messages, err);
    if (!rc)
        rc = codec__args_string(a, "max-age", false, &max_age, err);
    if (rc)
        return rc;
    if (max_age && !parse_duration_ms(max_age, &o->max_age_ms))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "bad max-age '%s': expected a duration such as 500ms, 30s, "
                               "10m, 1h or 1d (1ms to 365d)",
                               max_age);
    if (strategy == 0 && (max_messages || max_age))
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "max-messages and max-age need strategy=bounded");
    o->strategy = strategy ? CODEC_ENVELOPE_BOUNDED : CODEC_ENVELOPE_DIRECT;
    o->max_messages = (uint32_t)max_messages;
    return CODEC_OK;
}

int codec__stage_ctor_envelope(codec_stage *s, codec_args *a, const codec_type *t, codec_error *err)
{
    (void)t;
    codec_envelope_options o;
    memset(&o, 0, sizeof o);
    const char *ring_path, *aad;
    int rc = codec__args_string(a, "keyring", false, &ring_path, err);
    if (!rc)
        rc = codec__args_string(a, "aad", false, &aad, err);
    if (!rc)
        rc = read_strategy_args(a, &o, err);
    /* What a stream holds: one AEAD message is released only once its tag
     * verifies, so the whole message waits in memory. */
    size_t max;
    if (!rc)
        rc = codec__args_max_output(a, &max, err);
    if (rc)
        return rc;
    if (!ring_path)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "envelope needs keyring=FILE (make one with 'codec keygen')");
    codec_error ring_err = {0};
    codec_keyring *ring = codec_keyring_load(ring_path, &ring_err);
    if (!ring) {
        if (err)
            *err = ring_err;
        return ring_err.family;
    }
    o.provider = codec_keyring_provider(ring);
    if (aad) {
        o.aad = (const uint8_t *)aad;
        o.aad_len = strlen(aad);
    }
    rc = codec__crypto_envelope_fill(s, &o, err);
    s->max_output = max;
    return rc;
}
