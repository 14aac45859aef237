/* jrandom.h — java.util.Random, bit for bit, so the payloads that Java
 * benchmarks generate come out byte for byte the same here. */
#ifndef BENCH_JRANDOM_H
#define BENCH_JRANDOM_H

#include <stdbool.h>
#include <stdint.h>

typedef struct jrandom {
    uint64_t state; /* 48 bits */
} jrandom;

void jrandom_seed(jrandom *r, int64_t seed);
int32_t jrandom_next(jrandom *r, int bits);
/* bound > 0 */
int32_t jrandom_next_int(jrandom *r, int32_t bound);
bool jrandom_next_bool(jrandom *r);
double jrandom_next_double(jrandom *r);
/* Java's Math.round(double): floor(x + 0.5). */
int64_t jrandom_math_round(double x);

#endif
