/* fuzz_diff_cbor_libcbor.c — differential: codec's CBOR decoder (schemaless
 * codec_value, duplicates=allow) and libcbor's cbor_load read the same
 * bytes. Both must accept or both reject, and what both accept must be the
 * same tree (canon.h), after the mapping codec documents for codec_value
 * (docs/formats/cbor.md): tags dropped but for bignums (2/3), which become
 * integers; every float width a double; indefinite strings joined.
 *
 * Allowed differences (listed in docs/fuzzing.md too): codec refuses,
 * where libcbor accepts,
 *  - what codec_value cannot hold: undefined and simple values, map keys
 *    that are not text, negative integers below -2^63, bignums beyond 64
 *    bits (or a tag 2/3 over anything but a byte string);
 *  - text strings that are not UTF-8 (libcbor does not check them);
 *  - nesting deeper than codec's max-depth=128 (libcbor's stack: 2048).
 * and libcbor refuses, where codec accepts, tags 6..20 in their one-byte
 * head (0xc6..0xd4), which libcbor 0.8 calls unassigned; RFC 8949 makes
 * every tag number well-formed.
 * libcbor's cbor_load reads one item; bytes after it count as a refusal,
 * as codec refuses them. libcbor allocates a definite array, map or string
 * for its declared length before reading it, so an input declaring more
 * items or bytes than it has is not given to libcbor (it could take
 * gigabytes); codec must refuse it. */
#include "fuzz_target.h"
#include "canon.h"

#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 128
/* libcbor's stack (CBOR_MAX_STACK_SIZE): it refuses deeper input before it
 * allocates anything inside, so the pre-scan need not look further. */
#define PEER_STACK 2048

/* What in the peer's tree codec may refuse. */
typedef struct peer_notes {
    bool not_representable, bad_utf8;
    size_t depth;
} peer_notes;

static void write_chunks(canon *c, const cbor_item_t *item, bool text, peer_notes *notes)
{
    bool indefinite = text ? cbor_string_is_indefinite(item) : cbor_bytestring_is_indefinite(item);
    size_t total = 0;
    uint8_t *joined = NULL;
    if (!indefinite) {
        total = text ? cbor_string_length(item) : cbor_bytestring_length(item);
        joined = malloc(total + 1);
        memcpy(joined, text ? cbor_string_handle(item) : cbor_bytestring_handle(item), total);
    } else {
        size_t n = text ? cbor_string_chunk_count(item) : cbor_bytestring_chunk_count(item);
        cbor_item_t **chunks = text ? cbor_string_chunks_handle(item)
                                    : cbor_bytestring_chunks_handle(item);
        for (size_t i = 0; i < n; i++) {
            size_t len = text ? cbor_string_length(chunks[i]) : cbor_bytestring_length(chunks[i]);
            joined = realloc(joined, total + len + 1);
            memcpy(joined + total,
                   text ? cbor_string_handle(chunks[i]) : cbor_bytestring_handle(chunks[i]), len);
            if (text && !canon_utf8_valid(joined + total, len))
                notes->bad_utf8 = true;   /* RFC 8949: each chunk is valid on its own */
            total += len;
        }
        if (!joined)
            joined = malloc(1);
    }
    if (text) {
        if (!canon_utf8_valid(joined, total))
            notes->bad_utf8 = true;
        canon_string(c, joined, total);
    } else {
        canon_bytes(c, joined, total);
    }
    free(joined);
}

/* The bytes of a definite or indefinite byte string, as one run (the
 * caller frees it). */
static uint8_t *joined_bytes(const cbor_item_t *item, size_t *len)
{
    if (!cbor_bytestring_is_indefinite(item)) {
        *len = cbor_bytestring_length(item);
        uint8_t *p = malloc(*len + 1);
        memcpy(p, cbor_bytestring_handle(item), *len);
        return p;
    }
    size_t n = cbor_bytestring_chunk_count(item);
    cbor_item_t **chunks = cbor_bytestring_chunks_handle(item);
    uint8_t *p = malloc(1);
    *len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t part = cbor_bytestring_length(chunks[i]);
        p = realloc(p, *len + part + 1);
        memcpy(p + *len, cbor_bytestring_handle(chunks[i]), part);
        *len += part;
    }
    return p;
}

static void write_bignum(canon *c, const cbor_item_t *tag, peer_notes *notes)
{
    const cbor_item_t *content = cbor_tag_item(tag);
    uint64_t n = 0;
    bool fits = cbor_isa_bytestring(content);
    if (fits) {
        size_t len;
        uint8_t *p = joined_bytes(content, &len);
        for (size_t i = 0; i < len; i++) {
            if (n >> 56)
                fits = false;
            n = n << 8 | p[i];
        }
        free(p);
    }
    bool negative = cbor_tag_value(tag) == 3;
    if (!fits || (negative && n > (uint64_t)INT64_MAX)) {
        notes->not_representable = true;
        canon_null(c);
    } else if (negative) {
        canon_int(c, -1 - (int64_t)n);
    } else {
        canon_uint(c, n);
    }
    cbor_decref((cbor_item_t **)&content);
}

static void write_item(canon *c, const cbor_item_t *item, size_t depth, peer_notes *notes)
{
    if (depth > notes->depth)
        notes->depth = depth;
    switch (cbor_typeof(item)) {
    case CBOR_TYPE_UINT: canon_uint(c, cbor_get_int(item)); return;
    case CBOR_TYPE_NEGINT: {
        uint64_t n = cbor_get_int(item);
        if (n > (uint64_t)INT64_MAX)
            notes->not_representable = true;
        canon_int(c, -1 - (int64_t)(n & (uint64_t)INT64_MAX));
        return;
    }
    case CBOR_TYPE_BYTESTRING: write_chunks(c, item, false, notes); return;
    case CBOR_TYPE_STRING: write_chunks(c, item, true, notes); return;
    case CBOR_TYPE_ARRAY: {
        size_t n = cbor_array_size(item);
        cbor_item_t **items = cbor_array_handle(item);
        canon_open(c, '[', n);
        for (size_t i = 0; i < n; i++)
            write_item(c, items[i], depth + 1, notes);
        canon_close(c);
        return;
    }
    case CBOR_TYPE_MAP: {
        size_t n = cbor_map_size(item);
        struct cbor_pair *pairs = cbor_map_handle(item);
        canon_open(c, '{', n);
        for (size_t i = 0; i < n; i++) {
            if (!cbor_isa_string(pairs[i].key))
                notes->not_representable = true;
            write_item(c, pairs[i].key, depth + 1, notes);
            write_item(c, pairs[i].value, depth + 1, notes);
        }
        canon_close(c);
        return;
    }
    case CBOR_TYPE_TAG: {
        uint64_t tag = cbor_tag_value(item);
        if (tag == 2 || tag == 3) {
            write_bignum(c, item, notes);
        } else {
            cbor_item_t *content = cbor_tag_item(item);
            write_item(c, content, depth + 1, notes);
            cbor_decref(&content);
        }
        return;
    }
    case CBOR_TYPE_FLOAT_CTRL:
        if (cbor_float_ctrl_is_ctrl(item)) {
            uint8_t v = cbor_ctrl_value(item);
            if (v == CBOR_CTRL_FALSE || v == CBOR_CTRL_TRUE)
                canon_bool(c, v == CBOR_CTRL_TRUE);
            else if (v == CBOR_CTRL_NULL)
                canon_null(c);
            else
                notes->not_representable = true;
        } else {
            canon_double(c, cbor_float_get_float(item));
        }
        return;
    }
    abort();
}

/* The argument of the head at p[*at] (RFC 8949 3), advancing *at; false at
 * the end of the input or on a reserved additional-information value. */
static bool read_head(const uint8_t *p, size_t n, size_t *at, uint8_t *major, uint8_t *info,
                      uint64_t *arg)
{
    if (*at >= n)
        return false;
    *major = p[*at] >> 5;
    *info = p[*at] & 31;
    (*at)++;
    size_t extra = *info < 24 ? 0 : *info <= 27 ? (size_t)1 << (*info - 24) : 0;
    if (*info >= 28 && *info != 31)
        return false;
    if (n - *at < extra)
        return false;
    *arg = *info < 24 ? *info : 0;
    for (size_t i = 0; i < extra; i++)
        *arg = *arg << 8 | p[(*at)++];
    return true;
}

/* Walks the items of the input (not past max_depth) and says whether any
 * definite head declares more items or bytes than the input holds. */
static bool declares_more_than_input(const uint8_t *p, size_t n, size_t *at, int depth)
{
    uint8_t major, info;
    uint64_t arg;
    if (depth > PEER_STACK || !read_head(p, n, at, &major, &info, &arg))
        return false;
    bool definite = info != 31;
    switch (major) {
    case 2: case 3:
        if (!definite) {
            while (*at < n && p[*at] != 0xff) {
                size_t before = *at;
                if (declares_more_than_input(p, n, at, depth + 1))
                    return true;
                if (*at == before)   /* an item it could not read: stop here */
                    return false;
            }
            (*at)++;
            return false;
        }
        if (arg > n - *at)
            return true;
        *at += arg;
        return false;
    case 4: case 5: {
        uint64_t items = definite ? arg * (major == 5 ? 2 : 1) : UINT64_MAX;
        if (definite && (arg > n || items > n))
            return true;
        for (uint64_t i = 0; i < items && *at < n; i++) {
            if (!definite && p[*at] == 0xff) {
                (*at)++;
                return false;
            }
            size_t before = *at;
            if (declares_more_than_input(p, n, at, depth + 1))
                return true;
            if (*at == before)
                return false;
        }
        return false;
    }
    case 6: return declares_more_than_input(p, n, at, depth + 1);
    default: return false;
    }
}

/* libcbor 0.8 refuses the one-byte heads of tags 6..20 as unassigned. */
static bool peer_refuses_tag(const uint8_t *data, const struct cbor_load_result *loaded,
                             size_t size)
{
    return loaded->error.code == CBOR_ERR_MALFORMATED && loaded->error.position < size &&
           data[loaded->error.position] >= 0xc6 && data[loaded->error.position] <= 0xd4;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *cbor;
    canon_input(data, size);
    if (!cbor && !(cbor = codec_parse("cbor:duplicates=allow", codec_value_type(), NULL)))
        abort();
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_value value;
    codec_error err;
    int rc = codec_decode(cbor, data, size, &value, &arena, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        canon_disagree("cbor", "codec failed with an error other than invalid payload");

    size_t at = 0;
    if (declares_more_than_input(data, size, &at, 0)) {
        if (!rc)
            canon_disagree("cbor", "codec accepts a head that declares more than the input has");
        codec_arena_free(&arena);
        return 0;
    }
    struct cbor_load_result loaded;
    cbor_item_t *item = cbor_load(data, size, &loaded);
    bool peer_ok = item && loaded.error.code == CBOR_ERR_NONE && loaded.read == size;

    canon ours, theirs;
    canon_init(&ours);
    canon_init(&theirs);
    peer_notes notes = {0};
    if (peer_ok)
        write_item(&theirs, item, 1, &notes);
    /* The depth counted here includes the innermost item; codec's does not. */
    bool codec_must_refuse = notes.not_representable || notes.bad_utf8;
    bool codec_may_refuse = codec_must_refuse || notes.depth >= MAX_DEPTH;
    if (!rc && !peer_ok && !peer_refuses_tag(data, &loaded, size)) {
        fprintf(stderr, "libcbor: error %d at %zu, read %zu of %zu\n", (int)loaded.error.code,
                loaded.error.position, loaded.read, size);
        canon_disagree("cbor", "codec accepts what libcbor rejects");
    } else if (rc && peer_ok && !codec_may_refuse) {
        fprintf(stderr, "codec: %s (offset %llu)\n", err.message, (unsigned long long)err.offset);
        canon_disagree("cbor", "libcbor accepts what codec rejects");
    } else if (!rc && peer_ok) {
        if (codec_must_refuse)
            canon_disagree("cbor", "codec accepts a value it documents as having no codec_value form");
        canon_value(&ours, &value);
        canon_expect_same(&ours, &theirs, "cbor");
    }
    canon_free(&ours);
    canon_free(&theirs);
    if (item)
        cbor_decref(&item);
    codec_arena_free(&arena);
    return 0;
}
