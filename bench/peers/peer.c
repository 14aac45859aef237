/* peer.c — helpers shared by the peer adapters. */
#include "peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int peer_reserve(peer_bytes *b, size_t want)
{
    if (want <= b->cap)
        return 0;
    uint8_t *d = realloc(b->data, want);
    if (!d)
        return -1;
    b->data = d;
    b->cap = want;
    return 0;
}

void peer_bytes_free(peer_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

int peer_level(const char *spec, int dflt, int lo, int hi, int *level, char *why, size_t cap)
{
    const char *colon = strchr(spec, ':');
    const char *num = colon ? colon + 1 : spec;
    if (*num == 0) {
        *level = dflt;
        return 0;
    }
    char *end;
    long v = strtol(num, &end, 10);
    if (*end != 0 || v < lo || v > hi) {
        snprintf(why, cap, "level '%s' is not in %d..%d", num, lo, hi);
        return -1;
    }
    *level = (int)v;
    return 0;
}

int peer_value_matches(const bench_payload *p, const void *value)
{
    codec_buf b;
    codec_buf_init(&b, NULL);
    int rc = bench_payload_render(p, value, &b) != 0 ? -1
             : b.len == p->len && memcmp(b.data, p->bytes, p->len) == 0 ? 1
                                                                       : 0;
    codec_buf_free(&b);
    return rc;
}

int peer_model_of(const bench_payload *p, const char *library, char *why, size_t cap)
{
    static const char *const NAMES[] = {"person", "order", "media-item", "media-content",
                                        "struct"};
    for (int i = 0; i < 5; i++)
        if (strcmp(p->name, NAMES[i]) == 0)
            return i;
    snprintf(why, cap, "the %s adapter maps person, order, media-item, media-content and "
                       "struct only", library);
    return -1;
}

void *peer_typed_open(const char *spec, const char *want, const bench_payload *p,
                      const char *library, char *why, size_t cap)
{
    int m = peer_model_of(p, library, why, cap);
    if (m < 0)
        return NULL;
    if (strcmp(spec, want) != 0) {
        snprintf(why, cap, "the %s peer's spec is \"%s\"", library, want);
        return NULL;
    }
    peer_model *s = malloc(sizeof *s);
    if (s)
        *s = (peer_model)m;
    return s;
}
