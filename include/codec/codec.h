/* codec/codec.h — the umbrella header: include this one.
 *
 * codec turns typed C values into bytes and back through composable codecs:
 * a backend (JSON, Protocol Buffers, CBOR, MessagePack, Fory) followed by
 * transforms (compression, text encodings, checksums, framing, encryption).
 * Start with codec/compose.h (codec_parse, codec_encode, codec_decode). */
#ifndef CODEC_CODEC_H
#define CODEC_CODEC_H

#include "core.h"
#include "compose.h"
#include "stream.h"
#include "integrity.h"
#include "framing.h"
#include "envelope.h"
#include "compress.h"
#include "text.h"
#include "zstd_dict.h"
#include "types.h"
#include "fory.h"
#include "json.h"
#include "protobuf.h"
#include "cbor.h"
#include "msgpack.h"
#include "schema.h"
#include "codegen.h"

#endif
