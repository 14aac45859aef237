// simdjson.cc — peer: the fastest C++ JSON pair, simdjson On-Demand to
// decode and the RapidJSON Writer to encode (simdjson 3.0 has no writer).
// Spec: "json".
//
// Encode writes the bench struct with a RapidJSON Writer kept in the worker
// into a StringBuffer that is cleared, not freed, per call. Decode copies
// the input into a padded buffer kept across calls (On-Demand reads up to
// SIMDJSON_PADDING bytes past the end; the harness's input has no padding),
// iterates it with a reused parser, and fills the bench struct; strings are
// views into the parser's string buffer, valid until its next document.
// On-Demand runs the kernel chosen at compile time, so this file is built
// for Haswell (AVX2) on x86-64 (bench/CMakeLists.txt); the machine line
// names the kernel.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <vector>

extern "C" {
#include "peer.h"
}

namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::object;
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

struct Worker {
    explicit Worker(peer_model m) : model(m), writer(buffer) {}
    peer_model model;
    rapidjson::StringBuffer buffer;
    Writer writer;
    simdjson::ondemand::parser parser;
    std::vector<uint8_t> padded;
    peer_value value{};
    std::vector<bench_line_item> items;
    std::vector<bench_str> persons;
    std::vector<bench_image> images;
};

// ---- C struct -> JSON ------------------------------------------------------

void Str(Writer &w, const char *key, bench_str s)
{
    w.Key(key);
    w.String(s.ptr, static_cast<rapidjson::SizeType>(s.len));
}

void Opt(Writer &w, const char *key, const bench_opt_str &s)
{
    if (s.has)
        Str(w, key, s.value);
}

void Int(Writer &w, const char *key, int64_t v)
{
    w.Key(key);
    w.Int64(v);
}

void Dbl(Writer &w, const char *key, double v)
{
    w.Key(key);
    w.Double(v);
}

void Bool(Writer &w, const char *key, bool v)
{
    w.Key(key);
    w.Bool(v);
}

void WritePerson(Writer &w, const bench_person &p)
{
    w.StartObject();
    Str(w, "name", p.name);
    Int(w, "age", p.age);
    Bool(w, "active", p.active);
    Str(w, "email", p.email);
    w.EndObject();
}

void WriteOrder(Writer &w, const bench_order &o)
{
    w.StartObject();
    Str(w, "id", o.id);
    Str(w, "customer", o.customer);
    Bool(w, "paid", o.paid);
    w.Key("items");
    w.StartArray();
    for (size_t i = 0; i < o.items.count; i++) {
        const bench_line_item &it = o.items.items[i];
        w.StartObject();
        Str(w, "sku", it.sku);
        Str(w, "description", it.description);
        Int(w, "quantity", it.quantity);
        Dbl(w, "unitPrice", it.unit_price);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

void WriteMedia(Writer &w, const bench_media_content &mc, bool has_bitrate)
{
    static const char *const PLAYER[] = {"JAVA", "FLASH"};
    static const char *const SIZE[] = {"SMALL", "LARGE"};
    const bench_media &m = mc.media;
    w.StartObject();
    w.Key("media");
    w.StartObject();
    Str(w, "uri", m.uri);
    Opt(w, "title", m.title);
    Int(w, "width", m.width);
    Int(w, "height", m.height);
    Str(w, "format", m.format);
    Int(w, "duration", m.duration);
    Int(w, "size", m.size);
    Int(w, "bitrate", m.bitrate);
    if (has_bitrate)
        Bool(w, "hasBitrate", m.has_bitrate);
    w.Key("persons");
    w.StartArray();
    for (size_t i = 0; i < m.persons.count; i++)
        w.String(m.persons.items[i].ptr, static_cast<rapidjson::SizeType>(m.persons.items[i].len));
    w.EndArray();
    w.Key("player");
    w.String(PLAYER[m.player]);
    Opt(w, "copyright", m.copyright);
    w.EndObject();
    w.Key("images");
    w.StartArray();
    for (size_t i = 0; i < mc.images.count; i++) {
        const bench_image &im = mc.images.items[i];
        w.StartObject();
        Str(w, "uri", im.uri);
        Opt(w, "title", im.title);
        Int(w, "width", im.width);
        Int(w, "height", im.height);
        w.Key("size");
        w.String(SIZE[im.size]);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

void WriteStruct(Writer &w, const bench_struct &s)
{
    w.StartObject();
    Int(w, "f1", s.f1), Int(w, "f2", s.f2), Int(w, "f3", s.f3), Int(w, "f4", s.f4);
    Dbl(w, "f5", s.f5), Dbl(w, "f6", s.f6), Dbl(w, "f7", s.f7), Dbl(w, "f8", s.f8);
    Int(w, "f9", s.f9), Int(w, "f10", s.f10), Int(w, "f11", s.f11), Int(w, "f12", s.f12);
    Dbl(w, "f13", s.f13), Dbl(w, "f14", s.f14), Dbl(w, "f15", s.f15), Dbl(w, "f16", s.f16);
    w.EndObject();
}

// ---- JSON -> C struct ------------------------------------------------------
// Each getter returns true on failure (simdjson's error convention), so a
// chain of them is joined with ||.

bool Get(object &o, const char *k, bench_str &s)
{
    std::string_view v;
    if (o[k].get_string().get(v))
        return true;
    s = bench_str{v.data(), v.size()};
    return false;
}

bool Get(object &o, const char *k, bench_opt_str &s)
{
    std::string_view v;
    auto e = o[k].get_string().get(v);
    s.has = e == simdjson::SUCCESS;
    if (s.has)
        s.value = bench_str{v.data(), v.size()};
    return e != simdjson::SUCCESS && e != simdjson::NO_SUCH_FIELD;
}

bool Get(object &o, const char *k, int32_t &i)
{
    int64_t v;
    if (o[k].get_int64().get(v) || v < INT32_MIN || v > INT32_MAX)
        return true;
    i = static_cast<int32_t>(v);
    return false;
}

bool Get(object &o, const char *k, int64_t &i)
{
    return o[k].get_int64().get(i) != simdjson::SUCCESS;
}

bool Get(object &o, const char *k, double &d)
{
    return o[k].get_double().get(d) != simdjson::SUCCESS;
}

bool Get(object &o, const char *k, float &f)
{
    double d;
    if (o[k].get_double().get(d))
        return true;
    f = static_cast<float>(d);
    return false;
}

bool Get(object &o, const char *k, bool &b)
{
    return o[k].get_bool().get(b) != simdjson::SUCCESS;
}

bool GetEnum(object &o, const char *k, const char *a, const char *b, int &e)
{
    std::string_view v;
    if (o[k].get_string().get(v))
        return true;
    e = v == a ? 0 : v == b ? 1 : -1;
    return e < 0;
}

bool ReadPerson(object &o, bench_person &p)
{
    return Get(o, "name", p.name) || Get(o, "age", p.age) || Get(o, "active", p.active) ||
           Get(o, "email", p.email);
}

bool ReadOrder(Worker *w, object &o, bench_order &ord)
{
    array items;
    if (Get(o, "id", ord.id) || Get(o, "customer", ord.customer) || Get(o, "paid", ord.paid) ||
        o["items"].get_array().get(items))
        return true;
    w->items.clear();
    for (auto e : items) {
        object io;
        bench_line_item it;
        if (e.get_object().get(io) || Get(io, "sku", it.sku) ||
            Get(io, "description", it.description) || Get(io, "quantity", it.quantity) ||
            Get(io, "unitPrice", it.unit_price))
            return true;
        w->items.push_back(it);
    }
    ord.items.items = w->items.data();
    ord.items.count = w->items.size();
    return false;
}

bool ReadMedia(Worker *w, object &o, bench_media_content &mc)
{
    bench_media &m = mc.media;
    object md;
    array persons, images;
    int player;
    m.has_bitrate = false;
    if (o["media"].get_object().get(md) || Get(md, "uri", m.uri) || Get(md, "title", m.title) ||
        Get(md, "width", m.width) || Get(md, "height", m.height) ||
        Get(md, "format", m.format) || Get(md, "duration", m.duration) ||
        Get(md, "size", m.size) || Get(md, "bitrate", m.bitrate) ||
        (w->model == PEER_MEDIA_CONTENT && Get(md, "hasBitrate", m.has_bitrate)) ||
        md["persons"].get_array().get(persons))
        return true;
    w->persons.clear();
    for (auto e : persons) {
        std::string_view v;
        if (e.get_string().get(v))
            return true;
        w->persons.push_back(bench_str{v.data(), v.size()});
    }
    m.persons.items = w->persons.data();
    m.persons.count = w->persons.size();
    if (GetEnum(md, "player", "JAVA", "FLASH", player) || Get(md, "copyright", m.copyright) ||
        o["images"].get_array().get(images))
        return true;
    m.player = static_cast<bench_player>(player);
    w->images.clear();
    for (auto e : images) {
        object io;
        bench_image im;
        int size;
        if (e.get_object().get(io) || Get(io, "uri", im.uri) || Get(io, "title", im.title) ||
            Get(io, "width", im.width) || Get(io, "height", im.height) ||
            GetEnum(io, "size", "SMALL", "LARGE", size))
            return true;
        im.size = static_cast<bench_image_size>(size);
        w->images.push_back(im);
    }
    mc.images.items = w->images.data();
    mc.images.count = w->images.size();
    return false;
}

bool ReadStruct(object &o, bench_struct &s)
{
    return Get(o, "f1", s.f1) || Get(o, "f2", s.f2) || Get(o, "f3", s.f3) ||
           Get(o, "f4", s.f4) || Get(o, "f5", s.f5) || Get(o, "f6", s.f6) ||
           Get(o, "f7", s.f7) || Get(o, "f8", s.f8) || Get(o, "f9", s.f9) ||
           Get(o, "f10", s.f10) || Get(o, "f11", s.f11) || Get(o, "f12", s.f12) ||
           Get(o, "f13", s.f13) || Get(o, "f14", s.f14) || Get(o, "f15", s.f15) ||
           Get(o, "f16", s.f16);
}

const char *sj_version()
{
    static char v[64];
    std::snprintf(v, sizeof v, "simdjson %d.%d.%d (%s) + RapidJSON %s",
                  simdjson::SIMDJSON_VERSION_MAJOR, simdjson::SIMDJSON_VERSION_MINOR,
                  simdjson::SIMDJSON_VERSION_REVISION,
                  // this file's kernel, not the shared library's
                  SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION),
                  RAPIDJSON_VERSION_STRING);
    return v;
}

void *sj_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_typed_open(spec, "json", p, "simdjson", why, cap);
}

void *sj_worker_new(void *shared)
{
    return new (std::nothrow) Worker(*static_cast<const peer_model *>(shared));
}

void sj_worker_free(void *worker)
{
    delete static_cast<Worker *>(worker);
}

int sj_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    auto *w = static_cast<Worker *>(worker);
    try {
        w->buffer.Clear();
        w->writer.Reset(w->buffer);
        switch (w->model) {
        case PEER_PERSON: WritePerson(w->writer, *static_cast<const bench_person *>(p->value)); break;
        case PEER_ORDER: WriteOrder(w->writer, *static_cast<const bench_order *>(p->value)); break;
        case PEER_STRUCT: WriteStruct(w->writer, *static_cast<const bench_struct *>(p->value)); break;
        default:
            WriteMedia(w->writer, *static_cast<const bench_media_content *>(p->value),
                       w->model == PEER_MEDIA_CONTENT);
        }
        if (!w->writer.IsComplete())
            return -1;
        *out = reinterpret_cast<const uint8_t *>(w->buffer.GetString());
        *len = w->buffer.GetSize();
        return 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

int sj_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out, size_t *len)
{
    auto *w = static_cast<Worker *>(worker);
    *out = nullptr, *len = 0;
    try {
        if (w->padded.size() < n + simdjson::SIMDJSON_PADDING)
            w->padded.resize(n + simdjson::SIMDJSON_PADDING);
        std::memcpy(w->padded.data(), in, n);
        simdjson::ondemand::document doc;
        object o;
        if (w->parser.iterate(w->padded.data(), n, w->padded.size()).get(doc) ||
            doc.get_object().get(o))
            return -1;
        bool failed;
        switch (w->model) {
        case PEER_PERSON: failed = ReadPerson(o, w->value.person); break;
        case PEER_ORDER: failed = ReadOrder(w, o, w->value.order); break;
        case PEER_STRUCT: failed = ReadStruct(o, w->value.numeric); break;
        default: failed = ReadMedia(w, o, w->value.media);
        }
        return failed ? -1 : 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

int sj_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &static_cast<Worker *>(worker)->value);
}

}  // namespace

extern "C" const bench_driver bench_peer_simdjson = {
    "simdjson", sj_version, sj_open, std::free, sj_worker_new, sj_worker_free,
    sj_encode, sj_decode, sj_matches, nullptr, nullptr};
