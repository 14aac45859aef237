/* drivers.h — every driver this build has: codec, and the peers found at
 * configure time (bench/peers/peers.c holds their table). */
#ifndef BENCH_DRIVERS_H
#define BENCH_DRIVERS_H

#include "harness.h"

extern const bench_driver bench_driver_codec;

/* The peers compiled into this build, in table order. */
size_t bench_peer_count(void);
const bench_driver *bench_peer_at(size_t i);

/* codec or a peer by name; NULL when this build lacks it. */
const bench_driver *bench_driver_find(const char *name);

#endif
