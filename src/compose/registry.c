/* registry.c — the one table that maps stage names to constructors.
 * Adding a stage: one file that defines codec__stage_ctor_<name>, its name
 * in CODEC_STAGES (stage_internal.h) and one row below. */
#include "stage_internal.h"

#include <string.h>

static const codec_registry_row rows[] = {
    /* backends */
    {{"json", CODEC_KIND_BACKEND,
      "compact|pretty (default compact), unknown=skip|reject, require=none|all, "
      "duplicates=reject|allow, max-depth=N (128), max-size=SIZE (64m), "
      "max-string=SIZE (16m), max-elements=N (16m)",
      "JSON (RFC 8259), strict; typed or schemaless"}, codec__stage_ctor_json},
    {{"cbor", CODEC_KIND_BACKEND,
      "plain|deterministic (default plain), keys=names|tags, unknown=skip|reject, "
      "require=none|all, duplicates=reject|allow, max-depth=N (128), max-size=SIZE (64m), "
      "max-string=SIZE (16m), max-elements=N (16m)",
      "CBOR (RFC 8949); typed or schemaless"}, codec__stage_ctor_cbor},
    {{"msgpack", CODEC_KIND_BACKEND,
      "structs=map|array, unknown=skip|reject, require=none|all, duplicates=reject|allow, "
      "max-depth=N (128), max-size=SIZE (64m), max-string=SIZE (16m), max-elements=N (16m)",
      "MessagePack (bin, ext, timestamps); typed or schemaless"}, codec__stage_ctor_msgpack},
    {{"protobuf", CODEC_KIND_BACKEND,
      "unknown=keep|skip|reject (default keep; may be positional), max-depth=N (100), "
      "max-size=SIZE (64m), max-elements=N (16m)",
      "Protocol Buffers (proto3 wire format); typed structs only"}, codec__stage_ctor_protobuf},
    {{"fory", CODEC_KIND_BACKEND,
      "consistent|compatible (default consistent), ref=off|on, hash=off|on, "
      "max-depth=N (64), max-elements=N (16m)",
      "Apache Fory xlang binary; structs get ids 100.. in declaration order"},
     codec__stage_ctor_fory},
    /* compression (docs/formats/compression.md) */
    {{"gzip", CODEC_KIND_COMPRESSION, "LEVEL (1..9, default 6), max=SIZE (default 64m), gate=SIZE",
      "gzip member (RFC 1952); decode takes concatenated members"}, codec__stage_ctor_gzip},
    {{"deflate", CODEC_KIND_COMPRESSION,
      "LEVEL (1..9, default 6), max=SIZE (default 64m), gate=SIZE",
      "zlib stream (RFC 1950), the JDK Deflater's format"}, codec__stage_ctor_deflate},
    {{"zstd", CODEC_KIND_COMPRESSION,
      "LEVEL (1..22 or -7..-1, default 3), dict=FILE, checksum=off|on (default off), "
      "workers=N (default 0), max=SIZE (default 64m), gate=SIZE",
      "zstd frame with content size"}, codec__stage_ctor_zstd},
    {{"lz4", CODEC_KIND_COMPRESSION,
      "checksum=on|off (default on), max=SIZE (default 64m), gate=SIZE",
      "LZ4 frame, 64 KiB independent blocks, content checksum (unless checksum=off)"},
     codec__stage_ctor_lz4},
    {{"lz4hc", CODEC_KIND_COMPRESSION,
      "LEVEL (3..12, default 9), checksum=on|off (default on), max=SIZE (default 64m), "
      "gate=SIZE",
      "LZ4 frame compressed with LZ4 HC"}, codec__stage_ctor_lz4hc},
    {{"snappy", CODEC_KIND_COMPRESSION,
      "raw|framed (default raw), max=SIZE (default 64m), gate=SIZE",
      "raw snappy (varint length + elements), or the framing format (framed: streams)"},
     codec__stage_ctor_snappy},
    {{"brotli", CODEC_KIND_COMPRESSION,
      "QUALITY (0..11, default 11), max=SIZE (default 64m), gate=SIZE",
      "raw brotli stream (RFC 7932)"}, codec__stage_ctor_brotli},
    {{"redisson-lz4", CODEC_KIND_COMPRESSION, "max=SIZE (default 64m), gate=SIZE",
      "Redisson LZ4CodecV2: int32 BE length + raw LZ4 block"}, codec__stage_ctor_redisson_lz4},
    {{"redisson-zstd", CODEC_KIND_COMPRESSION,
      "LEVEL (1..22 or -7..-1, default 3), dict=FILE, max=SIZE (default 64m), gate=SIZE",
      "Redisson ZStdCodec: int32 BE length + zstd frame"}, codec__stage_ctor_redisson_zstd},
    {{"redisson-snappy", CODEC_KIND_COMPRESSION, "max=SIZE (default 64m), gate=SIZE",
      "Redisson SnappyCodecV2: raw snappy (same as snappy)"}, codec__stage_ctor_snappy},
    /* text encodings */
    {{"base64", CODEC_KIND_TEXT,
      "std|url|url-nopad|mime (default std), wrap=N (LF every N chars; default 0: none), "
      "lines=strict|skip (default skip when wrapped), kernel=auto|scalar|avx2|avx512",
      "RFC 4648 base64; mime = 76-character lines joined by CRLF"}, codec__stage_ctor_base64},
    {{"base32", CODEC_KIND_TEXT,
      "std|hex|crockford|z|geohash (default std), wrap=N, lines=strict|skip, "
      "kernel=auto|scalar|avx2|avx512",
      "RFC 4648 base32 and its unpadded relatives; strict decoding"}, codec__stage_ctor_base32},
    {{"hex", CODEC_KIND_TEXT,
      "lower|upper (default lower), wrap=N, lines=strict|skip, kernel=auto|scalar|avx2|avx512",
      "base16; decode accepts both cases"}, codec__stage_ctor_hex},
    /* integrity trailers */
    {{"crc32c", CODEC_KIND_INTEGRITY, "kernel=auto|scalar|sse42|avx512 (default auto)",
      "CRC-32C (Castagnoli) trailer, 4 bytes big-endian"}, codec__stage_ctor_crc32c},
    {{"crc32", CODEC_KIND_INTEGRITY, "(none)", "zlib CRC-32 trailer, 4 bytes big-endian"},
     codec__stage_ctor_crc32},
    {{"adler32", CODEC_KIND_INTEGRITY, "(none)", "zlib Adler-32 trailer, 4 bytes big-endian"},
     codec__stage_ctor_adler32},
    /* framing */
    {{"versioned", CODEC_KIND_FRAMING,
      "VERSION (1..255, default 1), accept=LIST (e.g. 1-3,7; default VERSION)",
      "header C0 DC VERSION; decode accepts the listed versions"}, codec__stage_ctor_versioned},
    /* encryption */
    {{"envelope", CODEC_KIND_CRYPTO,
      "keyring=FILE (required), aad=TEXT, strategy=direct|bounded (default direct), "
      "max-messages=N (1..16777216, default 1048576), max-age=DURATION (500ms, 30s, 10m, 1h, "
      "1d; default 1h), max=SIZE (what a stream holds: default 64m)",
      "AES-256-GCM with a wrapped data key per message or per bounded batch"},
     codec__stage_ctor_envelope},
};

#define ROW_COUNT (sizeof rows / sizeof rows[0])

size_t codec_registry_count(void)
{
    return ROW_COUNT;
}

const codec_stage_info *codec_registry_info(size_t i)
{
    return i < ROW_COUNT ? &rows[i].info : NULL;
}

const codec_registry_row *codec__registry_find(const char *name)
{
    for (size_t i = 0; i < ROW_COUNT; i++)
        if (strcmp(rows[i].info.name, name) == 0)
            return &rows[i];
    return NULL;
}
