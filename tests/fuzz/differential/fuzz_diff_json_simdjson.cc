// fuzz_diff_json_simdjson.cc — differential: codec's JSON decoder (schemaless
// codec_value) and simdjson's DOM parser, which validates the whole
// document as codec does, read the same bytes. Both must accept or both
// reject, and what both accept must be the same tree (canon.h): the same
// kinds, numbers to the bit, strings byte for byte, members in order.
//
// Allowed differences (listed in docs/fuzzing.md too):
//  - an integer literal beyond 64 bits (above 2^64-1, or below -2^63):
//    simdjson refuses the document (NUMBER_ERROR); codec reads it as the
//    nearest double, as RFC 8259 section 6 allows;
//  - nesting within a level of the limit (both are given 64): the two count
//    depth differently by one, so acceptance there is not compared;
//  - duplicate keys: both keep every member (codec with duplicates=allow;
//    its default is to refuse them).
#include <simdjson.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

extern "C" {
#include "../fuzz_target.h"
#include "canon.h"
}

namespace {

constexpr size_t kDepth = 64;

size_t depth_of(const uint8_t *p, size_t n)
{
    // Brackets outside strings: an upper bound on the nesting (what matters
    // is only whether the document is near the limit).
    size_t depth = 0, most = 0;
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        if (in_string) {
            if (p[i] == '\\')
                i++;
            else if (p[i] == '"')
                in_string = false;
        } else if (p[i] == '"') {
            in_string = true;
        } else if (p[i] == '[' || p[i] == '{') {
            most = ++depth > most ? depth : most;
        } else if ((p[i] == ']' || p[i] == '}') && depth) {
            depth--;
        }
    }
    return most;
}

// An integer literal (no fraction, no exponent) outside int64 and uint64.
bool has_integer_beyond_64_bits(const uint8_t *p, size_t n)
{
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        if (in_string) {
            if (p[i] == '\\')
                i++;
            else if (p[i] == '"')
                in_string = false;
            continue;
        }
        if (p[i] == '"') {
            in_string = true;
            continue;
        }
        bool negative = p[i] == '-';
        size_t start = i + (negative ? 1 : 0), end = start;
        if (end >= n || p[end] < '0' || p[end] > '9')
            continue;
        while (end < n && p[end] >= '0' && p[end] <= '9')
            end++;
        bool integer = end >= n || (p[end] != '.' && p[end] != 'e' && p[end] != 'E');
        const char *limit = negative ? "9223372036854775808" : "18446744073709551615";
        size_t digits = end - start, limit_digits = strlen(limit);
        if (integer && (digits > limit_digits ||
                        (digits == limit_digits &&
                         memcmp(p + start, limit, digits) > 0)))
            return true;
        i = end;
    }
    return false;
}

void write(canon *c, simdjson::dom::element e)
{
    using T = simdjson::dom::element_type;
    switch (e.type()) {
    case T::NULL_VALUE: canon_null(c); return;
    case T::BOOL: canon_bool(c, bool(e)); return;
    case T::INT64: canon_int(c, int64_t(e)); return;
    case T::UINT64: canon_uint(c, uint64_t(e)); return;
    case T::DOUBLE: canon_double(c, double(e)); return;
    case T::STRING: {
        std::string_view s(e);
        canon_string(c, s.data(), s.size());
        return;
    }
    case T::ARRAY: {
        simdjson::dom::array a(e);
        canon_open(c, '[', a.size());
        for (auto item : a)
            write(c, item);
        canon_close(c);
        return;
    }
    case T::OBJECT: {
        simdjson::dom::object o(e);
        canon_open(c, '{', o.size());
        for (auto field : o) {
            canon_string(c, field.key.data(), field.key.size());
            write(c, field.value);
        }
        canon_close(c);
        return;
    }
    }
    abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static codec *json = codec_parse("json:duplicates=allow,max-depth=64", codec_value_type(),
                                     nullptr);
    static simdjson::dom::parser parser;
    if (!json)
        abort();
    canon_input(data, size);
    codec_arena arena;
    codec_arena_init(&arena, nullptr, 0);
    codec_value value;
    codec_error err;
    int rc = codec_decode(json, data, size, &value, &arena, &err);
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        canon_disagree("json", "codec failed with an error other than invalid payload");

    simdjson::padded_string padded(reinterpret_cast<const char *>(data), size);
    if (parser.allocate(size + 1, kDepth))
        abort();
    simdjson::dom::element doc;
    simdjson::error_code peer = parser.parse(padded).get(doc);

    size_t depth = depth_of(data, size);
    bool near_limit = depth + 1 >= kDepth;
    if (!rc && peer) {
        if (!near_limit &&
            !(peer == simdjson::NUMBER_ERROR && has_integer_beyond_64_bits(data, size))) {
            fprintf(stderr, "simdjson: %s\n", simdjson::error_message(peer));
            canon_disagree("json", "codec accepts what simdjson rejects");
        }
    } else if (rc && !peer) {
        if (!near_limit) {
            fprintf(stderr, "codec: %s (offset %llu)\n", err.message,
                    (unsigned long long)err.offset);
            canon_disagree("json", "simdjson accepts what codec rejects");
        }
    } else if (!rc && !peer) {
        canon ours, theirs;
        canon_init(&ours);
        canon_init(&theirs);
        canon_value(&ours, &value);
        write(&theirs, doc);
        canon_expect_same(&ours, &theirs, "json");
        canon_free(&ours);
        canon_free(&theirs);
    }
    codec_arena_free(&arena);
    return 0;
}
