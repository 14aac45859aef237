/* jrandom.c — java.util.Random (a 48-bit linear congruential generator). */
#include "jrandom.h"

#include <math.h>

#define JR_MULT 0x5DEECE66DULL
#define JR_MASK ((1ULL << 48) - 1)

void jrandom_seed(jrandom *r, int64_t seed)
{
    r->state = ((uint64_t)seed ^ JR_MULT) & JR_MASK;
}

int32_t jrandom_next(jrandom *r, int bits)
{
    r->state = (r->state * JR_MULT + 0xBULL) & JR_MASK;
    /* Java casts the shifted long to int: keep the low 32 bits. */
    return (int32_t)(uint32_t)(r->state >> (48 - bits));
}

int32_t jrandom_next_int(jrandom *r, int32_t bound)
{
    if ((bound & -bound) == bound)
        return (int32_t)(((int64_t)bound * (int64_t)jrandom_next(r, 31)) >> 31);
    for (;;) {
        int32_t bits = jrandom_next(r, 31);
        int32_t val = bits % bound;
        /* Java rejects draws where bits - val + (bound - 1) overflows int. */
        if ((int64_t)bits - val + (bound - 1) <= INT32_MAX)
            return val;
    }
}

bool jrandom_next_bool(jrandom *r)
{
    return jrandom_next(r, 1) != 0;
}

double jrandom_next_double(jrandom *r)
{
    int64_t hi = jrandom_next(r, 26);
    int64_t lo = jrandom_next(r, 27);
    return (double)((hi << 27) + lo) * 0x1.0p-53;
}

int64_t jrandom_math_round(double x)
{
    return (int64_t)floor(x + 0.5);
}
