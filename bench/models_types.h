/* models_types.h — codec type descriptors for the benchmark's C models
 * (payloads/models.h), so the typed cells run through codec's backends. */
#ifndef BENCH_MODELS_TYPES_H
#define BENCH_MODELS_TYPES_H

#include "codec/types.h"
#include "payloads/payloads.h"

/* The descriptor that binds p->value, or NULL for a raw-bytes payload.
 * MediaItem and MediaContent share a C struct but not a wire shape (MediaItem
 * has no hasBitrate), so the payload, not only its model name, decides. */
const codec_type *bench_model_type(const bench_payload *p);

/* twitter.json's model (payloads/models.h bench_twitter), which payloads.c
 * decodes the document into. */
const codec_type *bench_twitter_type(void);

#endif
