/* cents_xmap.h — a custom adapter (xmap) for the tests: a C
 * `struct bc_cents { int64_t v; }` travels as the text "12.34". */
#ifndef CODEC_TEST_CENTS_XMAP_H
#define CODEC_TEST_CENTS_XMAP_H

#include "codec/codec.h"

#include <stdio.h>
#include <string.h>

/* Anything that is not digits, a dot and two digits is refused. */
typedef struct bc_cents {
    int64_t v;
} bc_cents;

static int bc_cents_to_wire(void *ctx, const void *c_value, void *wire, char *scratch)
{
    (void)ctx;
    int64_t v = ((const bc_cents *)c_value)->v;
    int n = snprintf(scratch, CODEC_XMAP_SCRATCH, "%lld.%02lld", (long long)(v / 100),
                     (long long)(v % 100));
    *(codec_string *)wire = (codec_string){scratch, (size_t)n};
    return 0;
}

static int bc_cents_from_wire(void *ctx, const void *wire, void *c_value, codec_arena *arena)
{
    (void)ctx, (void)arena;
    const codec_string *s = wire;
    long long units;
    unsigned cents;
    char tmp[32], end;
    if (s->len >= sizeof tmp)
        return -1;
    memcpy(tmp, s->ptr, s->len);
    tmp[s->len] = 0;
    if (sscanf(tmp, "%lld.%2u%c", &units, &cents, &end) != 2)
        return -1;
    ((bc_cents *)c_value)->v = units * 100 + cents;
    return 0;
}

static const codec_xmap bc_cents_xmap = {CODEC_STRING, bc_cents_to_wire, bc_cents_from_wire, NULL};
CODEC_XMAP(bc_cents_type, bc_cents, &bc_cents_xmap);

#endif
