// fuzz_diff_protobuf_cpp.cc — differential: codec's protobuf decoder and
// Google's C++ protobuf (the generated Order of tests/data/protobuf/
// order.proto) read the same bytes as an Order. Both must accept or both
// reject; what both accept must be the same message: codec's re-encoding of
// its decoded struct equals Google's deterministic serialization of its
// parsed message, unknown fields dropped on both sides (codec's
// unknown=skip, DiscardUnknownFields()).
//
// Allowed differences (listed in docs/fuzzing.md too): codec refuses
//  - groups (wire types 3 and 4, proto2 only), also as unknown fields;
//  - a declared field number arriving with another wire type (a string as
//    fixed32, say), where Google's parser keeps the record as an unknown
//    field;
//  - a record key beyond 32 bits or naming a field number above 2^29-1
//    (the encoding guide's limit), which Google's parser cuts to 32 bits;
// and groups Google keeps as unknown fields too. Google's parser refuses a
// record key written in more than 5 bytes (zero-padded), which codec reads
// as the varint it is; where codec alone accepts, such a key must be there. Where codec refuses
// and Google accepts, the record at codec's error offset must be one of
// these.
#include "order.pb.h"

#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "../fuzz_target.h"
#include "canon.h"
}
#include "order_codec.h"

namespace {

bool read_varint(const uint8_t *data, size_t size, size_t *at, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; *at < size && shift < 64; shift += 7) {
        uint8_t b = data[(*at)++];
        *v |= uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

// Whether a record key of the message, or of an item inside it, takes more
// than 5 bytes.
bool has_long_key(const uint8_t *data, size_t size, int depth)
{
    size_t i = 0;
    uint64_t key, len;
    while (i < size) {
        size_t start = i;
        if (!read_varint(data, size, &i, &key))
            return false;
        if (i - start > 5)
            return true;
        unsigned wire = key & 7;
        if (wire == 0) {
            if (!read_varint(data, size, &i, &len))
                return false;
        } else if (wire == 1 || wire == 5) {
            i += wire == 1 ? 8 : 4;
        } else if (wire == 2) {
            if (!read_varint(data, size, &i, &len) || len > size - i)
                return false;
            if (depth == 0 && key >> 3 == 4 && has_long_key(data + i, len, 1))
                return true;
            i += len;
        } else {
            return false;
        }
    }
    return false;
}

// Whether data[at] lies inside the payload of one of Order's items (field
// 4, length-delimited) at the top level of the message.
bool inside_an_item(const uint8_t *data, size_t size, uint64_t at)
{
    size_t i = 0;
    uint64_t key, len;
    while (i < size && i <= at && read_varint(data, size, &i, &key)) {
        unsigned wire = key & 7;
        if (wire == 0) {
            if (!read_varint(data, size, &i, &len))
                return false;
        } else if (wire == 1 || wire == 5) {
            i += wire == 1 ? 8 : 4;
        } else if (wire == 2) {
            if (!read_varint(data, size, &i, &len) || len > size - i)
                return false;
            if (key >> 3 == 4 && at >= i && at < i + len)
                return true;
            i += len;
        } else {
            return false;
        }
    }
    return false;
}

// Whether the record whose key starts at data[at] is one codec may refuse:
// a group's, a key beyond the field-number range, or a field number of the
// message it sits in (Order, or LineItem inside an item) with another wire
// type than that field's (Order: 1, 2 strings, 3 bool, 4 items; LineItem:
// 1, 2 strings, 3 int32, 4 double).
bool codec_may_refuse_record(const uint8_t *data, size_t size, uint64_t at)
{
    uint64_t key;
    size_t i = at;
    if (!read_varint(data, size, &i, &key) || key > UINT32_MAX)
        return true;
    unsigned wire = key & 7;
    uint64_t field = key >> 3;
    if (wire == 3 || wire == 4 || field > (1u << 29) - 1)
        return true;
    switch (field) {
    case 1: case 2: return wire != 2;
    case 3: return wire != 0;
    case 4: return wire != (inside_an_item(data, size, at) ? 1u : 2u);
    default: return false;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    canon_input(data, size);
    google::protobuf::LogSilencer quiet;   // invalid UTF-8 is logged, not only refused

    codec_buf ours;
    codec_buf_init(&ours, nullptr);
    codec_error err;
    int rc = order_codec_round_trip(data, size, &ours, &err);
    if (rc < 0)
        canon_disagree("protobuf", "codec cannot encode what it decoded");
    if (rc && err.family != CODEC_E_INVALID_PAYLOAD)
        canon_disagree("protobuf", "codec failed with an error other than invalid payload");

    Order peer;
    bool peer_ok = peer.ParseFromArray(data, static_cast<int>(size));
    if (!rc && !peer_ok && !has_long_key(data, size, 0)) {
        canon_disagree("protobuf", "codec accepts what Google's protobuf rejects");
    } else if (rc && peer_ok && !codec_may_refuse_record(data, size, err.offset)) {
        fprintf(stderr, "codec: %s (offset %llu)\n", err.message, (unsigned long long)err.offset);
        canon_disagree("protobuf", "Google's protobuf accepts what codec rejects");
    } else if (!rc && peer_ok) {
        peer.DiscardUnknownFields();
        std::string theirs;
        {
            google::protobuf::io::StringOutputStream stream(&theirs);
            google::protobuf::io::CodedOutputStream out(&stream);
            out.SetSerializationDeterministic(true);
            peer.SerializeToCodedStream(&out);
        }
        canon a, b;
        canon_init(&a);
        canon_init(&b);
        canon_bytes(&a, ours.data, ours.len);
        canon_bytes(&b, theirs.data(), theirs.size());
        canon_expect_same(&a, &b, "protobuf");
        canon_free(&a);
        canon_free(&b);
    }
    codec_buf_free(&ours);
    return 0;
}
