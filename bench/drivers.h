/* drivers.h — every driver this build has: codec, and the peers found at
 * configure time (bench/peers/peers.c holds their table). */
#ifndef BENCH_DRIVERS_H
#define BENCH_DRIVERS_H

#include "harness.h"

extern const bench_driver bench_driver_codec;
/* codec's JSON reader/writer and validator (codec_json_api.c); also named
 * "codec", so the json suite adds their cells by pointer. */
extern const bench_driver bench_driver_codec_stream, bench_driver_codec_validate;
#define BENCH_CODEC_STREAM_SPEC "codec_json_reader/writer"
#define BENCH_CODEC_VALIDATE_SPEC "codec_json_validate"

/* codec decoding with codec_decode_view() (codec_driver.c); also named
 * "codec", so its group's peers are compared with it. */
extern const bench_driver bench_driver_codec_view;

/* The peers compiled into this build, in table order. */
size_t bench_peer_count(void);
const bench_driver *bench_peer_at(size_t i);

/* codec or a peer by name; NULL when this build lacks it. */
const bench_driver *bench_driver_find(const char *name);

#endif
