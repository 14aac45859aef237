/* peers.c — the table of peer adapters in this build. A peer is compiled
 * only when CMake found its library, which defines BENCH_HAVE_<NAME>.
 * Adding a peer: one file in this folder and one row below. */
#include "../drivers.h"

#include <string.h>

extern const bench_driver bench_peer_zlib, bench_peer_libdeflate, bench_peer_zstd,
    bench_peer_lz4, bench_peer_snappy, bench_peer_brotli, bench_peer_cjson,
    bench_peer_json_c, bench_peer_jansson, bench_peer_yajl,
    bench_peer_protobuf_c, bench_peer_protobuf_cpp, bench_peer_codec_gen, bench_peer_codec_gen_desc,
    bench_peer_simdjson, bench_peer_msgpack_c, bench_peer_libcbor,
    bench_peer_jdk, bench_peer_kernel, bench_driver_codec_gen_fory;

static const bench_driver *const peers[] = {
#ifdef BENCH_HAVE_ZLIB
    &bench_peer_zlib,
#endif
#ifdef BENCH_HAVE_LIBDEFLATE
    &bench_peer_libdeflate,
#endif
#ifdef BENCH_HAVE_ZSTD
    &bench_peer_zstd,
#endif
#ifdef BENCH_HAVE_LZ4
    &bench_peer_lz4,
#endif
#ifdef BENCH_HAVE_SNAPPY
    &bench_peer_snappy,
#endif
#ifdef BENCH_HAVE_BROTLI
    &bench_peer_brotli,
#endif
#ifdef BENCH_HAVE_CJSON
    &bench_peer_cjson,
#endif
#ifdef BENCH_HAVE_JSON_C
    &bench_peer_json_c,
#endif
#ifdef BENCH_HAVE_JANSSON
    &bench_peer_jansson,
#endif
#ifdef BENCH_HAVE_YAJL
    &bench_peer_yajl,
#endif
#ifdef BENCH_HAVE_PROTOBUF_C
    &bench_peer_protobuf_c,
#endif
#ifdef BENCH_HAVE_PROTOBUF_CPP
    &bench_peer_protobuf_cpp,
#endif
#ifdef BENCH_HAVE_CODEC_GEN
    &bench_peer_codec_gen,
    &bench_peer_codec_gen_desc,
#endif
#ifdef BENCH_HAVE_CODEC_GEN_FORY
    &bench_driver_codec_gen_fory,
#endif
#ifdef BENCH_HAVE_SIMDJSON
    &bench_peer_simdjson,
#endif
#ifdef BENCH_HAVE_MSGPACK_C
    &bench_peer_msgpack_c,
#endif
#ifdef BENCH_HAVE_LIBCBOR
    &bench_peer_libcbor,
#endif
    &bench_peer_jdk, /* always listed: it reports "not built" without a JDK */
    &bench_peer_kernel, /* codec's own CRC-32C kernel: always there */
};

size_t bench_peer_count(void)
{
    return sizeof peers / sizeof peers[0];
}

const bench_driver *bench_peer_at(size_t i)
{
    return i < bench_peer_count() ? peers[i] : NULL;
}

const bench_driver *bench_driver_find(const char *name)
{
    if (strcmp(name, bench_driver_codec.name) == 0)
        return &bench_driver_codec;
    for (size_t i = 0; i < bench_peer_count(); i++)
        if (strcmp(peers[i]->name, name) == 0)
            return peers[i];
    return NULL;
}
