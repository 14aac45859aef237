/* stages_internal.h — the list of every stage, in registry order: one
 * X-macro row per stage. The same list declares the constructors (and the
 * optional inspect operations) here, where every stage file sees them, so
 * the compiler checks each definition against it, and builds the registry
 * rows in registry.c. Adding a stage: its file, and one row here.
 *
 * X(NAME, CTOR, INSPECT, KIND, FLAGS, LACKS, ARGS, SUMMARY)
 *   NAME     spec name ("zstd")
 *   CTOR     constructor suffix: codec__stage_ctor_<CTOR>
 *   INSPECT  INSPECT(id) for codec__inspect_<id>, or NO_INSPECT
 *   KIND     CODEC_KIND_*; FLAGS CODEC_STAGE_* (TEXT; INSPECT is added
 *            from the INSPECT column); LACKS the codec_value kinds a backend
 *            has no form for (LACKS_NONE or a LACK(kind) | ... expression)
 *   ARGS, SUMMARY  the texts of `codec list` (codec_stage_info) */
#ifndef CODEC_STAGES_INTERNAL_H
#define CODEC_STAGES_INTERNAL_H

#define LACK(kind) (1u << (kind))
#define LACKS_NONE 0u

#define CODEC_STAGES(X)                                                                       \
    /* backends */                                                                            \
    X("json", json, NO_INSPECT, CODEC_KIND_BACKEND, CODEC_STAGE_TEXT, LACK(CODEC_V_BYTES),    \
      "compact|pretty (default compact), unknown=skip|reject, require=none|all, "             \
      "duplicates=reject|allow, max-depth=N (128), max-size=SIZE (64m), "                     \
      "max-string=SIZE (16m), max-elements=N (16m)",                                          \
      "JSON (RFC 8259), strict; typed or schemaless")                                         \
    X("cbor", cbor, NO_INSPECT, CODEC_KIND_BACKEND, 0, LACKS_NONE,                            \
      "plain|deterministic (default plain), keys=names|tags, unknown=skip|reject, "           \
      "require=none|all, duplicates=reject|allow, max-depth=N (128), max-size=SIZE "          \
      "(64m), max-string=SIZE (16m), max-elements=N (16m)",                                   \
      "CBOR (RFC 8949); typed or schemaless")                                                 \
    X("msgpack", msgpack, NO_INSPECT, CODEC_KIND_BACKEND, 0, LACKS_NONE,                      \
      "structs=map|array, unknown=skip|reject, require=none|all, "                            \
      "duplicates=reject|allow, max-depth=N (128), max-size=SIZE (64m), "                     \
      "max-string=SIZE (16m), max-elements=N (16m)",                                          \
      "MessagePack (bin, ext, timestamps); typed or schemaless")                              \
    /* protobuf has no schemaless form at all: its encoder refuses a                          \
     * codec_value whole, so no kind is listed here. */                                       \
    X("protobuf", protobuf, NO_INSPECT, CODEC_KIND_BACKEND, 0, LACKS_NONE,                    \
      "unknown=keep|skip|reject (default keep; may be positional), max-depth=N "              \
      "(100), max-size=SIZE (64m), max-elements=N (16m)",                                     \
      "Protocol Buffers (proto3 wire format); typed structs only")                            \
    X("fory", fory, NO_INSPECT, CODEC_KIND_BACKEND, 0, LACKS_NONE,                            \
      "consistent|compatible (default consistent), ref=off|on, hash=off|on, "                 \
      "max-depth=N (64), max-elements=N (16m)",                                               \
      "Apache Fory xlang binary; structs get ids 100.. in declaration order")                 \
    /* compression (docs/formats/compression.md) */                                           \
    X("gzip", gzip, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                        \
      "LEVEL (1..9, default 6), max=SIZE (default 64m), gate=SIZE",                           \
      "gzip member (RFC 1952); decode takes concatenated members")                            \
    X("deflate", deflate, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                  \
      "LEVEL (1..9, default 6), max=SIZE (default 64m), gate=SIZE",                           \
      "zlib stream (RFC 1950), the JDK Deflater's format")                                    \
    X("zstd", zstd, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                        \
      "LEVEL (1..22 or -7..-1, default 3), dict=FILE, checksum=off|on (default off), "        \
      "workers=N (default 0), max=SIZE (default 64m), gate=SIZE",                             \
      "zstd frame with content size")                                                         \
    X("lz4", lz4, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                          \
      "checksum=on|off (default on), max=SIZE (default 64m), gate=SIZE",                      \
      "LZ4 frame, 64 KiB independent blocks, content checksum (unless checksum=off)")         \
    X("lz4hc", lz4hc, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                      \
      "LEVEL (3..12, default 9), checksum=on|off (default on), max=SIZE (default "            \
      "64m), gate=SIZE",                                                                      \
      "LZ4 frame compressed with LZ4 HC")                                                     \
    X("snappy", snappy, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                    \
      "raw|framed (default raw), max=SIZE (default 64m), gate=SIZE",                          \
      "raw snappy (varint length + elements), or the framing format (framed: streams)")       \
    X("brotli", brotli, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,                    \
      "QUALITY (0..11, default 11), max=SIZE (default 64m), gate=SIZE",                       \
      "raw brotli stream (RFC 7932)")                                                         \
    X("redisson-lz4", redisson_lz4, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,        \
      "max=SIZE (default 64m), gate=SIZE",                                                    \
      "Redisson LZ4CodecV2: int32 BE length + raw LZ4 block")                                 \
    X("redisson-zstd", redisson_zstd, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,      \
      "LEVEL (1..22 or -7..-1, default 3), dict=FILE, max=SIZE (default 64m), "               \
      "gate=SIZE",                                                                            \
      "Redisson ZStdCodec: int32 BE length + zstd frame")                                     \
    X("redisson-snappy", snappy, NO_INSPECT, CODEC_KIND_COMPRESSION, 0, LACKS_NONE,           \
      "max=SIZE (default 64m), gate=SIZE",                                                    \
      "Redisson SnappyCodecV2: raw snappy (same as snappy)")                                  \
    /* text encodings */                                                                      \
    X("base64", base64, NO_INSPECT, CODEC_KIND_TEXT, CODEC_STAGE_TEXT, LACKS_NONE,            \
      "std|url|url-nopad|mime (default std), wrap=N (LF every N chars; default 0: "           \
      "none), lines=strict|skip (default skip when wrapped), "                                \
      "kernel=auto|scalar|avx2|avx512",                                                       \
      "RFC 4648 base64; mime = 76-character lines joined by CRLF")                            \
    X("base32", base32, NO_INSPECT, CODEC_KIND_TEXT, CODEC_STAGE_TEXT, LACKS_NONE,            \
      "std|hex|crockford|z|geohash (default std), wrap=N, lines=strict|skip, "                \
      "kernel=auto|scalar|avx2|avx512",                                                       \
      "RFC 4648 base32 and its unpadded relatives; strict decoding")                          \
    X("hex", hex, NO_INSPECT, CODEC_KIND_TEXT, CODEC_STAGE_TEXT, LACKS_NONE,                  \
      "lower|upper (default lower), wrap=N, lines=strict|skip, "                              \
      "kernel=auto|scalar|avx2|avx512",                                                       \
      "base16; decode accepts both cases")                                                    \
    /* integrity trailers */                                                                  \
    X("crc32c", crc32c, NO_INSPECT, CODEC_KIND_INTEGRITY, 0, LACKS_NONE,                      \
      "kernel=auto|scalar|sse42|avx512 (default auto)",                                       \
      "CRC-32C (Castagnoli) trailer, 4 bytes big-endian")                                     \
    X("crc32", crc32, NO_INSPECT, CODEC_KIND_INTEGRITY, 0, LACKS_NONE,                        \
      "(none)",                                                                               \
      "zlib CRC-32 trailer, 4 bytes big-endian")                                              \
    X("adler32", adler32, NO_INSPECT, CODEC_KIND_INTEGRITY, 0, LACKS_NONE,                    \
      "(none)",                                                                               \
      "zlib Adler-32 trailer, 4 bytes big-endian")                                            \
    /* framing */                                                                             \
    X("versioned", versioned, INSPECT(versioned), CODEC_KIND_FRAMING, 0, LACKS_NONE,          \
      "VERSION (1..255, default 1), accept=LIST (e.g. 1-3,7; default VERSION)",               \
      "header C0 DC VERSION; decode accepts the listed versions")                             \
    /* encryption */                                                                          \
    X("envelope", envelope, INSPECT(envelope), CODEC_KIND_CRYPTO, 0, LACKS_NONE,              \
      "keyring=FILE (required), aad=TEXT, strategy=direct|bounded (default direct), "         \
      "max-messages=N (1..16777216, default 1048576), max-age=DURATION (500ms, 30s, "         \
      "10m, 1h, 1d; default 1h), max=SIZE (what a stream holds: default 64m)",                \
      "AES-256-GCM with a wrapped data key per message or per bounded batch")

/* The declarations, checked against every definition. */
#define CODEC_STAGE_DECLARE(name, ctor, inspect, ...)                                         \
    int codec__stage_ctor_##ctor(codec_stage *s, codec_args *a, const codec_type *t,          \
                                codec_error *err);                                            \
    inspect
#define INSPECT(id) int codec__inspect_##id(const uint8_t *p, size_t n, codec_inspect_fn field, \
                                            void *ctx, size_t *header_len, codec_error *err);
#define NO_INSPECT
CODEC_STAGES(CODEC_STAGE_DECLARE)
#undef INSPECT
#undef NO_INSPECT

#endif /* CODEC_STAGES_INTERNAL_H */
