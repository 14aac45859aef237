// proto3_cpp_differential.cc — codec-gen's code for Google's conformance
// schema (test_messages_proto3.proto) against Google's protobuf C++ (the
// TestAllTypesProto3 protoc --cpp_out generates at build time).
//
//   proto3_cpp_differential [COUNT [SEED]]
//
// COUNT (default 10000) random TestAllTypesProto3 messages, built through
// C++ reflection: every field of every message type reachable from it
// (scalars with NaN, -0.0, infinities, random float bits, extreme integers;
// repeated; maps of every key kind; the oneof; the well-known types),
// nested up to depth 3, a recursion chain through recursive_message and
// NestedMessage.corecursive in every tenth (up to 68 deep), open enum
// numbers no enum names, and unknown fields 501-510 of every wire type added
// through UnknownFieldSet (to the root and to nested messages). For each:
//  - C++ serializes it deterministically;
//  - codec decodes those bytes and encodes the value again, with the
//    generated straight-line code and with the descriptor path
//    (protobuf:codegen=off); both must give C++'s bytes exactly;
//  - C++ parses each of codec's encodings: MessageDifferencer::Equals the
//    original (NaN equal to NaN: the bytes already compare NaN's bits), and
//    C++'s deterministic serialization of it is C++'s bytes again.
// Every field of every reachable type must have been set at least once.
// Prints a one-line summary; on a mismatch, the first failing message in
// text format, and exit status 1.
#include "test_messages_proto3.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/field_comparator.h>
#include <google/protobuf/util/message_differencer.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "proto3_cpp_codec.h"

namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using google::protobuf::UnknownFieldSet;
using google::protobuf::util::DefaultFieldComparator;
using google::protobuf::util::MessageDifferencer;
using protobuf_test_messages::proto3::TestAllTypesProto3;

constexpr int kFillDepth = 3;        // nested fill; the chain goes deeper
constexpr int kChainSteps = 45;      // at most 68 levels, below both limits of 100

// splitmix64: the same sequence on every machine and standard library.
struct Rng {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    uint64_t below(uint64_t n) { return next() % n; }
    double unit() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
    bool chance(double p) { return unit() < p; }
    template <class T, size_t N> T pick(const T (&a)[N]) { return a[below(N)]; }
};

const int32_t kInt32[] = {0, 1, -1, INT32_MAX, INT32_MIN, 127, 128, -128, 300};
const int64_t kInt64[] = {0, 1, -1, INT64_MAX, INT64_MIN, 1LL << 31, -(1LL << 31) - 1, 1LL << 35};
const uint32_t kUint32[] = {0, 1, UINT32_MAX, 1U << 31, 127, 128, 16383, 16384};
const uint64_t kUint64[] = {0, 1, UINT64_MAX, 1ULL << 63, 1ULL << 32, (1ULL << 56) - 1};
const double kDouble[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                          -std::numeric_limits<double>::quiet_NaN(), HUGE_VAL, -HUGE_VAL, 1.5,
                          -2.25, 1e-300, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308};
const float kFloat[] = {0.0f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                        -std::numeric_limits<float>::quiet_NaN(), HUGE_VALF, -HUGE_VALF, 1.5f,
                        -2.25f, 1e-45f, 3.4028235e38f, 1.17549435e-38f};

int32_t rand_int32(Rng &r) { return r.chance(0.5) ? r.pick(kInt32) : int32_t(uint32_t(r.next())); }
int64_t rand_int64(Rng &r) { return r.chance(0.5) ? r.pick(kInt64) : int64_t(r.next()); }
uint32_t rand_uint32(Rng &r) { return r.chance(0.5) ? r.pick(kUint32) : uint32_t(r.next()); }
uint64_t rand_uint64(Rng &r) { return r.chance(0.5) ? r.pick(kUint64) : r.next(); }

double rand_double(Rng &r)
{
    double v;
    if (r.chance(0.4))
        return r.pick(kDouble);
    if (r.chance(0.5))
        return (r.unit() - 0.5) * 2e6;
    uint64_t bits = r.next();   // any bit pattern: NaN payloads, subnormals
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

float rand_float(Rng &r)
{
    float v;
    if (r.chance(0.4))
        return r.pick(kFloat);
    if (r.chance(0.5))
        return float((r.unit() - 0.5) * 2e6);
    uint32_t bits = uint32_t(r.next());
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

void put_utf8(std::string &s, uint32_t cp)
{
    if (cp < 0x80) {
        s += char(cp);
    } else if (cp < 0x800) {
        s += char(0xc0 | cp >> 6);
        s += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        s += char(0xe0 | cp >> 12);
        s += char(0x80 | (cp >> 6 & 0x3f));
        s += char(0x80 | (cp & 0x3f));
    } else {
        s += char(0xf0 | cp >> 18);
        s += char(0x80 | (cp >> 12 & 0x3f));
        s += char(0x80 | (cp >> 6 & 0x3f));
        s += char(0x80 | (cp & 0x3f));
    }
}

std::string rand_text(Rng &r)
{
    static const uint32_t alphabet[] = {'a',    'b',    'c',    'X',     'Y',    'Z',
                                        ' ',    '0',    '9',    '_',     '-',    0xe9,
                                        0xdf,   0x4e2d, 0x6587, 0x1f600, 0,      0x7f,
                                        0x80,   0x7ff,  0x800,  0xd7ff,  0xe000, 0xfffd,
                                        0xffff, 0x10000, 0x10ffff};
    std::string s;
    for (uint64_t n = r.below(13); n; n--)
        put_utf8(s, r.pick(alphabet));
    return s;
}

std::string rand_bytes(Rng &r)
{
    std::string s;
    for (uint64_t n = r.below(13); n; n--)
        s += char(r.next());
    return s;
}

std::string rand_string(Rng &r, const FieldDescriptor *f)
{
    return f->type() == FieldDescriptor::TYPE_BYTES ? rand_bytes(r) : rand_text(r);
}

// Open enums: a named number most of the time, else any int32.
int rand_enum(Rng &r, const EnumDescriptor *e)
{
    if (r.chance(0.7))
        return e->value(int(r.below(uint64_t(e->value_count()))))->number();
    return rand_int32(r);
}

struct Filler {
    Rng rng;
    std::set<const FieldDescriptor *> seen;   // every field ever set

    // Sets f (a scalar or enum), or adds an element to it when repeated.
    void put_scalar(Message *m, const FieldDescriptor *f)
    {
        const Reflection *rf = m->GetReflection();
        bool add = f->is_repeated();
#define PUT(kind, value)                  \
    do {                                  \
        auto v = (value);                 \
        if (add)                          \
            rf->Add##kind(m, f, v);       \
        else                              \
            rf->Set##kind(m, f, v);       \
    } while (0)
        switch (f->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32: PUT(Int32, rand_int32(rng)); break;
        case FieldDescriptor::CPPTYPE_INT64: PUT(Int64, rand_int64(rng)); break;
        case FieldDescriptor::CPPTYPE_UINT32: PUT(UInt32, rand_uint32(rng)); break;
        case FieldDescriptor::CPPTYPE_UINT64: PUT(UInt64, rand_uint64(rng)); break;
        case FieldDescriptor::CPPTYPE_DOUBLE: PUT(Double, rand_double(rng)); break;
        case FieldDescriptor::CPPTYPE_FLOAT: PUT(Float, rand_float(rng)); break;
        case FieldDescriptor::CPPTYPE_BOOL: PUT(Bool, rng.chance(0.5)); break;
        case FieldDescriptor::CPPTYPE_STRING: PUT(String, rand_string(rng, f)); break;
        case FieldDescriptor::CPPTYPE_ENUM: PUT(EnumValue, rand_enum(rng, f->enum_type())); break;
        case FieldDescriptor::CPPTYPE_MESSAGE: std::abort();
        }
#undef PUT
    }

    // Unknown records 501-510 of every wire type (groups aside: proto3
    // never writes them and codec refuses them).
    void add_unknown(Message *m)
    {
        UnknownFieldSet *u = m->GetReflection()->MutableUnknownFields(m);
        for (uint64_t n = 1 + rng.below(4); n; n--) {
            int number = 501 + int(rng.below(10));
            switch (rng.below(4)) {
            case 0: u->AddVarint(number, rand_uint64(rng)); break;
            case 1: u->AddFixed64(number, rng.next()); break;
            case 2: u->AddFixed32(number, uint32_t(rng.next())); break;
            default: u->AddLengthDelimited(number, rand_bytes(rng)); break;
            }
        }
    }

    // A map entry per call: a key not yet in the map (a repeated key would
    // be one entry in C++'s map), and a value.
    void add_map_entry(Message *m, const FieldDescriptor *f, int depth, std::set<std::string> &keys)
    {
        const FieldDescriptor *kf = f->message_type()->map_key();
        const FieldDescriptor *vf = f->message_type()->map_value();
        const Reflection *rf = m->GetReflection();
        Message *entry = rf->AddMessage(m, f);
        put_scalar(entry, kf);
        const Reflection *er = entry->GetReflection();
        std::string key;
        switch (kf->cpp_type()) {
        case FieldDescriptor::CPPTYPE_INT32: key = std::to_string(er->GetInt32(*entry, kf)); break;
        case FieldDescriptor::CPPTYPE_INT64: key = std::to_string(er->GetInt64(*entry, kf)); break;
        case FieldDescriptor::CPPTYPE_UINT32: key = std::to_string(er->GetUInt32(*entry, kf)); break;
        case FieldDescriptor::CPPTYPE_UINT64: key = std::to_string(er->GetUInt64(*entry, kf)); break;
        case FieldDescriptor::CPPTYPE_BOOL: key = er->GetBool(*entry, kf) ? "1" : "0"; break;
        case FieldDescriptor::CPPTYPE_STRING: key = er->GetString(*entry, kf); break;
        default: std::abort();   // map keys are integers, bools or strings
        }
        if (!keys.insert(key).second) {
            rf->RemoveLast(m, f);
            return;
        }
        seen.insert(kf);
        seen.insert(vf);
        put_value(entry, vf, depth);
    }

    // Sets f (adds to it when repeated): a random scalar, or a message
    // filled in turn below kFillDepth.
    void put_value(Message *m, const FieldDescriptor *f, int depth)
    {
        if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
            put_scalar(m, f);
            return;
        }
        const Reflection *rf = m->GetReflection();
        Message *sub = f->is_repeated() ? rf->AddMessage(m, f) : rf->MutableMessage(m, f);
        if (depth < kFillDepth)
            fill(sub, depth + 1);
    }

    // Sets a random subset of m's fields; every field has a fair chance.
    void fill(Message *m, int depth)
    {
        const Descriptor *d = m->GetDescriptor();
        const Reflection *rf = m->GetReflection();
        double p = depth == 0 ? 0.25 : 0.3 / (1 + depth);
        for (int i = 0; i < d->field_count(); i++) {
            const FieldDescriptor *f = d->field(i);
            if (!rng.chance(p))
                continue;
            if (f->real_containing_oneof() && rf->HasOneof(*m, f->real_containing_oneof()))
                continue;
            seen.insert(f);
            if (f->is_map()) {
                std::set<std::string> keys;
                for (uint64_t n = 1 + rng.below(3); n; n--)
                    add_map_entry(m, f, depth, keys);
            } else if (f->is_repeated()) {
                for (uint64_t n = 1 + rng.below(3); n; n--)
                    put_value(m, f, depth);
            } else {
                put_value(m, f, depth);
            }
        }
        if (rng.chance(depth == 0 ? 0.5 : 0.1))
            add_unknown(m);
    }
};

// Every field of every message type reachable from d (map entries' keys
// and values too).
void reachable_fields(const Descriptor *d, std::set<const Descriptor *> &types,
                      std::set<const FieldDescriptor *> &fields)
{
    if (!types.insert(d).second)
        return;
    for (int i = 0; i < d->field_count(); i++) {
        const FieldDescriptor *f = d->field(i);
        fields.insert(f);
        if (f->message_type())
            reachable_fields(f->message_type(), types, fields);
    }
}

// C++'s deterministic serialization (map entries in key order).
bool serialize(const Message &m, std::string *out)
{
    google::protobuf::io::StringOutputStream sos(out);
    google::protobuf::io::CodedOutputStream cos(&sos);
    cos.SetSerializationDeterministic(true);
    return m.SerializeToCodedStream(&cos);
}

std::string hex(const std::string &s, size_t from, size_t n)
{
    std::string out;
    char b[4];
    for (size_t i = from; i < s.size() && i < from + n; i++) {
        std::snprintf(b, sizeof b, "%02x", (unsigned char)s[i]);
        out += b;
    }
    return out;
}

[[noreturn]] void fail(int index, const TestAllTypesProto3 &m, const std::string &what)
{
    std::string text;
    google::protobuf::TextFormat::PrintToString(m, &text);
    std::fprintf(stderr, "proto3_cpp_differential: message %d: %s\n--- the message (text format):\n%s---\n",
                 index, what.c_str(), text.c_str());
    std::exit(1);
}

std::string first_difference(const std::string &want, const std::string &got)
{
    size_t i = 0;
    while (i < want.size() && i < got.size() && want[i] == got[i])
        i++;
    return "C++ wrote " + std::to_string(want.size()) + " bytes, codec " +
           std::to_string(got.size()) + "; first difference at offset " + std::to_string(i) +
           ": C++ " + hex(want, i, 16) + ", codec " + hex(got, i, 16);
}

}  // namespace

int main(int argc, char **argv)
{
    GOOGLE_PROTOBUF_VERIFY_VERSION;
    int count = argc > 1 ? std::atoi(argv[1]) : 10000;
    uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 20261202;
    Filler filler{Rng{seed}, {}};
    DefaultFieldComparator comparator;
    comparator.set_treat_nan_as_equal(true);
    const Descriptor *root = TestAllTypesProto3::descriptor();
    const FieldDescriptor *recursive = root->FindFieldByName("recursive_message");
    const FieldDescriptor *nested = root->FindFieldByName("optional_nested_message");
    const FieldDescriptor *corecursive = nested->message_type()->FindFieldByName("corecursive");
    const FieldDescriptor *int32_field = root->FindFieldByName("optional_int32");

    codec_buf out;
    codec_buf_init(&out, nullptr);
    size_t total_bytes = 0, unknown_messages = 0;
    for (int i = 0; i < count; i++) {
        TestAllTypesProto3 m;
        filler.fill(&m, 0);
        if (i % 10 == 0) {   // a recursion chain
            Message *cur = &m;
            int steps = 1 + int(filler.rng.below(kChainSteps));
            for (int s = 0; s < steps; s++) {
                const Reflection *rf = cur->GetReflection();
                if (s % 2)
                    cur = rf->MutableMessage(cur, recursive);
                else {
                    Message *n = rf->MutableMessage(cur, nested);
                    cur = n->GetReflection()->MutableMessage(n, corecursive);
                }
                cur->GetReflection()->SetInt32(cur, int32_field, s);
            }
        }
        unknown_messages += m.GetReflection()->GetUnknownFields(m).field_count() != 0;
        std::string want;
        if (!serialize(m, &want))
            fail(i, m, "C++ cannot serialize it");
        total_bytes += want.size();
        for (int specialized = 1; specialized >= 0; specialized--) {
            const char *path = specialized ? "generated code" : "descriptor path (codegen=off)";
            codec_error err;
            if (proto3_codec_round_trip(reinterpret_cast<const uint8_t *>(want.data()), want.size(),
                                        specialized, &out, &err)) {
                char msg[300];
                fail(i, m, std::string("codec's ") + path + " fails: " +
                               codec_error_format(&err, msg, sizeof msg));
            }
            std::string got(reinterpret_cast<const char *>(out.data), out.len);
            if (got != want)
                fail(i, m, std::string("codec's ") + path + " re-encodes other bytes: " +
                               first_difference(want, got));
            TestAllTypesProto3 back;
            if (!back.ParseFromString(got))
                fail(i, m, std::string("C++ cannot parse what codec's ") + path + " wrote");
            std::string diff;
            bool same;
            {
                MessageDifferencer differ;
                differ.set_field_comparator(&comparator);
                differ.ReportDifferencesToString(&diff);
                same = differ.Compare(m, back);
            }
            if (!same)
                fail(i, m, std::string("C++ reads another message from codec's ") + path +
                               " bytes:\n" + diff);
            std::string again;
            if (!serialize(back, &again) || again != want)
                fail(i, m, std::string("C++ re-serializes codec's ") + path +
                               " bytes differently: " + first_difference(want, again));
        }
    }
    codec_buf_free(&out);

    std::set<const Descriptor *> types;
    std::set<const FieldDescriptor *> fields;
    reachable_fields(root, types, fields);
    std::string never;
    for (const FieldDescriptor *f : fields)
        if (!filler.seen.count(f))
            never += " " + f->full_name();
    std::printf("proto3_cpp_differential: %d messages (%zu bytes, %zu with unknown fields at the "
                "root; %zu fields of %zu message types, map entries included), seed %llu: byte-identical both ways, "
                "%s\n",
                count, total_bytes, unknown_messages, fields.size(), types.size(),
                (unsigned long long)seed, never.empty() ? "every field set" : "NOT every field set");
    if (!never.empty() && count >= 1000) {
        std::fprintf(stderr, "proto3_cpp_differential: fields never set:%s\n", never.c_str());
        return 1;
    }
    return 0;
}
