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
