// simdjson.cc — peer: the fastest C++ JSON pair, simdjson On-Demand to
// decode and the RapidJSON Writer to encode (simdjson 3.0 has no writer).
// Specs (peer.h): "json" (every mapped model, Users, Clients and twitter too),
// "dom" (simdjson's DOM parser, and its to_string serializer for encode),
// "validate" (the DOM parse alone: simdjson's complete check; it has no
// lighter validating entry point), "stream" (RapidJSON's SAX Reader in situ
// into a token tape, and its Writer from the tape: json_tape.h).
//
// twitter.json bound to bench_twitter has two cells, On-Demand ("json") and
// DOM ("dom"), both through the one mapping below (templates over the
// API's object type). On-Demand checks only the values it reads ("don't
// validate what you don't use", simdjson's doc/ondemand_design.md): the
// two thirds of the document the model lacks are skipped over the
// structural index, their grammar unchecked. codec's decoder checks all of
// it (RFC 8259), so the DOM cell — whose parse validates the whole document
// before the mapping reads the tree — is simdjson doing codec's work.
//
// Encode writes the bench struct with a RapidJSON Writer kept in the worker
// into a StringBuffer that is cleared, not freed, per call. Decode copies
// the input into a padded buffer kept across calls (On-Demand reads up to
// SIMDJSON_PADDING bytes past the end; the harness's input has no padding),
// iterates it with a reused parser, and fills the bench struct; strings are
// views into the parser's string buffer, valid until its next document.
// On-Demand runs the kernel chosen at compile time, so this file is built
// for Haswell (AVX2) on x86-64 (bench/CMakeLists.txt); the DOM parser runs
// the shared library's, chosen at run time (icelake on AVX-512 CPUs).
// The machine line names both.
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <string_view>
#include <type_traits>
#include <vector>

extern "C" {
#include "json_tape.h"
#include "peer.h"
}

namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::object;
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

struct Worker {
    explicit Worker(peer_json_cell c) : model(c.model), mode(c.mode), writer(buffer)
    {
        codec_arena_init(&lists, nullptr, 0);
        codec_arena_init(&ref_arena, nullptr, 0);
    }
    ~Worker()
    {
        bench_tape_free(&tape);
        bench_tape_free(&ref);
        codec_arena_free(&lists);
        codec_arena_free(&ref_arena);
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;
    peer_model model;
    peer_mode mode;
    rapidjson::StringBuffer buffer;
    Writer writer;
    simdjson::ondemand::parser parser;
    std::vector<uint8_t> padded;
    peer_value value{};
    std::vector<bench_line_item> items;
    std::vector<bench_str> persons;
    std::vector<bench_image> images;
    // Users and Clients: each record's lists are gathered in these, then
    // copied to `lists` (reset per decode) at their final size.
    codec_arena lists;
    std::vector<bench_user> users;
    std::vector<bench_client> clients;
    std::vector<bench_str> strs;
    std::vector<bench_friend> friends;
    std::vector<int64_t> longs;
    std::vector<bench_partner> partners;
    std::vector<bench_tw_status> statuses;
    std::vector<bench_tw_hashtag> hashtags;
    std::vector<bench_tw_url> urls;
    std::vector<bench_tw_mention> mentions;
    std::vector<int32_t> ints;
    bool prepared = false;    // see Prepare()
    // dom: the payload parsed once (what encode serializes), and the last
    // decoded document
    simdjson::dom::parser ref_parser, dom_parser;
    simdjson::dom::element ref_root, dom_root;
    std::string text;
    // stream: the payload's tokens (encode's input) and the decoded ones
    codec_arena ref_arena;
    bench_tape ref{}, tape{};
};

// A copy of v in the worker's list arena; false when out of memory.
template <class T, class L>
bool Keep(Worker *w, const std::vector<T> &v, L &list)
{
    list.count = v.size();
    list.items =
        static_cast<T *>(codec_arena_alloc(&w->lists, v.size() * sizeof(T) + 1, alignof(T)));
    if (!list.items)
        return false;
    if (!v.empty())
        std::memcpy(list.items, v.data(), v.size() * sizeof(T));
    return true;
}

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

void Strs(Writer &w, const char *key, const bench_str *s, size_t n)
{
    w.Key(key);
    w.StartArray();
    for (size_t i = 0; i < n; i++)
        w.String(s[i].ptr, static_cast<rapidjson::SizeType>(s[i].len));
    w.EndArray();
}

void WriteUsers(Writer &w, const bench_users &us)
{
    w.StartObject();
    w.Key("users");
    w.StartArray();
    for (size_t i = 0; i < us.users.count; i++) {
        const bench_user &u = us.users.items[i];
        w.StartObject();
        Str(w, "_id", u._id);
        Int(w, "index", u.index);
        Str(w, "guid", u.guid);
        Bool(w, "isActive", u.is_active);
        Str(w, "balance", u.balance);
        Str(w, "picture", u.picture);
        Int(w, "age", u.age);
        Str(w, "eyeColor", u.eye_color), Str(w, "name", u.name), Str(w, "gender", u.gender);
        Str(w, "company", u.company), Str(w, "email", u.email), Str(w, "phone", u.phone);
        Str(w, "address", u.address), Str(w, "about", u.about);
        Str(w, "registered", u.registered);
        Dbl(w, "latitude", u.latitude);
        Dbl(w, "longitude", u.longitude);
        Strs(w, "tags", u.tags.items, u.tags.count);
        w.Key("friends");
        w.StartArray();
        for (size_t k = 0; k < u.friends.count; k++) {
            w.StartObject();
            Str(w, "id", u.friends.items[k].id);
            Str(w, "name", u.friends.items[k].name);
            w.EndObject();
        }
        w.EndArray();
        Str(w, "greeting", u.greeting);
        Str(w, "favoriteFruit", u.favorite_fruit);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

void Text(Writer &w, const char *key, const char *s, size_t n)
{
    w.Key(key);
    w.String(s, static_cast<rapidjson::SizeType>(n));
}

void WriteClients(Writer &w, const bench_clients &cs)
{
    char t[PEER_UUID_LEN + 1];
    w.StartObject();
    w.Key("clients");
    w.StartArray();
    for (size_t i = 0; i < cs.clients.count; i++) {
        const bench_client &c = cs.clients.items[i];
        w.StartObject();
        Int(w, "_id", c._id);
        Int(w, "index", c.index);
        Text(w, "guid", t, peer_uuid_text(&c.guid, t));
        Bool(w, "isActive", c.is_active);
        w.Key("balance");
        w.RawValue(c.balance.ptr, c.balance.len, rapidjson::kNumberType);
        Str(w, "picture", c.picture);
        Int(w, "age", c.age);
        w.Key("eyeColor");
        w.String(peer_eye_colors[c.eye_color]);
        Str(w, "name", c.name), Str(w, "gender", c.gender), Str(w, "company", c.company);
        Strs(w, "emails", c.emails.items, c.emails.count);
        w.Key("phones");
        w.StartArray();
        for (size_t k = 0; k < c.phones.count; k++)
            w.Int64(c.phones.items[k]);
        w.EndArray();
        Str(w, "address", c.address), Str(w, "about", c.about);
        Text(w, "registered", t, peer_date_text(c.registered, t));
        Dbl(w, "latitude", c.latitude);
        Dbl(w, "longitude", c.longitude);
        Strs(w, "tags", c.tags.items, c.tags.count);
        w.Key("partners");
        w.StartArray();
        for (size_t k = 0; k < c.partners.count; k++) {
            const bench_partner &p = c.partners.items[k];
            w.StartObject();
            Int(w, "id", p.id);
            Str(w, "name", p.name);
            Text(w, "since", t, peer_timestamp_text(&p.since, t));
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

// ---- JSON -> C struct ------------------------------------------------------
// One mapping for both of simdjson's APIs: O is an ondemand::object or a
// dom::object, V a value of either, or the simdjson_result of a lookup (its
// error passes through the getter). Each returns true on failure
// (simdjson's error convention), so a chain of them is joined with ||.

// The array and value types of the API whose object type is O.
template <class O>
struct Api;
template <>
struct Api<object> {
    using array = simdjson::ondemand::array;
    using value = simdjson::ondemand::value;
};
template <>
struct Api<simdjson::dom::object> {
    using array = simdjson::dom::array;
    using value = simdjson::dom::element;
};

template <class V>
bool Read(V &&v, bench_str &s)
{
    std::string_view sv;
    if (v.get_string().get(sv))
        return true;
    s = bench_str{sv.data(), sv.size()};
    return false;
}

template <class V>
bool Read(V &&v, int64_t &i)
{
    return v.get_int64().get(i) != simdjson::SUCCESS;
}

template <class V>
bool Read(V &&v, double &d)
{
    return v.get_double().get(d) != simdjson::SUCCESS;
}

// A narrower field through the reader of its wide type; an integer out of
// the field's range is an error.
template <class Wide, class V, class T>
bool ReadNarrow(V &&v, T &out)
{
    Wide x;
    if (Read(v, x) || (std::is_integral<T>::value && (x < std::numeric_limits<T>::min() ||
                                                      x > std::numeric_limits<T>::max())))
        return true;
    out = static_cast<T>(x);
    return false;
}

template <class V>
bool Read(V &&v, int32_t &i)
{
    return ReadNarrow<int64_t>(v, i);
}

template <class V>
bool Read(V &&v, float &f)
{
    return ReadNarrow<double>(v, f);
}

template <class V>
bool Read(V &&v, bool &b)
{
    return v.get_bool().get(b) != simdjson::SUCCESS;
}

// The member k of o.
template <class O, class T>
bool Get(O &o, const char *k, T &x)
{
    return Read(o[k], x);
}

// A member that may be absent (not null).
bool Get(object &o, const char *k, bench_opt_str &s)
{
    std::string_view v;
    auto e = o[k].get_string().get(v);
    s.has = e == simdjson::SUCCESS;
    if (s.has)
        s.value = bench_str{v.data(), v.size()};
    return e != simdjson::SUCCESS && e != simdjson::NO_SUCH_FIELD;
}

bool GetEnum(object &o, const char *k, const char *const *names, int count, int &e)
{
    std::string_view v;
    if (o[k].get_string().get(v))
        return true;
    e = peer_enum_index(names, count, v.data(), v.size());
    return e < 0;
}

const char *const PLAYERS[] = {"JAVA", "FLASH"};
const char *const SIZES[] = {"SMALL", "LARGE"};

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
        bench_str v;
        if (Read(e, v))
            return true;
        w->persons.push_back(v);
    }
    m.persons.items = w->persons.data();
    m.persons.count = w->persons.size();
    if (GetEnum(md, "player", PLAYERS, 2, player) || Get(md, "copyright", m.copyright) ||
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
            GetEnum(io, "size", SIZES, 2, size))
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

// A list of strings into w->strs, then the arena.
template <class L>
bool GetStrs(Worker *w, object &o, const char *k, L &list)
{
    array a;
    if (o[k].get_array().get(a))
        return true;
    w->strs.clear();
    for (auto e : a) {
        bench_str v;
        if (Read(e, v))
            return true;
        w->strs.push_back(v);
    }
    return !Keep(w, w->strs, list);
}

// A text form (date, UUID, timestamp) through its peer.c parser.
template <class T>
bool GetText(object &o, const char *k, bool (*parse)(const char *, size_t, T *), T &out)
{
    std::string_view v;
    return o[k].get_string().get(v) || !parse(v.data(), v.size(), &out);
}

bool ReadUser(Worker *w, object &o, bench_user &u)
{
    array friends;
    if (Get(o, "_id", u._id) || Get(o, "index", u.index) || Get(o, "guid", u.guid) ||
        Get(o, "isActive", u.is_active) || Get(o, "balance", u.balance) ||
        Get(o, "picture", u.picture) || Get(o, "age", u.age) ||
        Get(o, "eyeColor", u.eye_color) || Get(o, "name", u.name) ||
        Get(o, "gender", u.gender) || Get(o, "company", u.company) ||
        Get(o, "email", u.email) || Get(o, "phone", u.phone) ||
        Get(o, "address", u.address) || Get(o, "about", u.about) ||
        Get(o, "registered", u.registered) || Get(o, "latitude", u.latitude) ||
        Get(o, "longitude", u.longitude) || GetStrs(w, o, "tags", u.tags) ||
        o["friends"].get_array().get(friends))
        return true;
    w->friends.clear();
    for (auto e : friends) {
        object fo;
        bench_friend f;
        if (e.get_object().get(fo) || Get(fo, "id", f.id) || Get(fo, "name", f.name))
            return true;
        w->friends.push_back(f);
    }
    return !Keep(w, w->friends, u.friends) || Get(o, "greeting", u.greeting) ||
           Get(o, "favoriteFruit", u.favorite_fruit);
}

bool ReadUsers(Worker *w, object &o, bench_users &us)
{
    array a;
    if (o["users"].get_array().get(a))
        return true;
    w->users.clear();
    for (auto e : a) {
        object uo;
        w->users.emplace_back();
        if (e.get_object().get(uo) || ReadUser(w, uo, w->users.back()))
            return true;
    }
    return !Keep(w, w->users, us.users);
}

// ---- twitter.json: the members of bench_twitter, in document order (so
// each On-Demand lookup finds its key ahead; the DOM's scans the object);
// every other member is skipped. O is either API's object (the "json" and
// "dom" cells).

bool IsNull(simdjson::ondemand::value &v, bool &null)
{
    return v.is_null().get(null) != simdjson::SUCCESS;
}

bool IsNull(const simdjson::dom::element &v, bool &null)
{
    null = v.is_null();
    return false;
}

// An optional member: absent or null leaves it unset.
template <class O, class Opt>
bool GetOpt(O &o, const char *k, Opt &opt)
{
    typename Api<O>::value v;
    bool null = false;
    auto e = o[k].get(v);
    opt.has = false;
    if (e == simdjson::NO_SUCH_FIELD)
        return false;
    if (e || IsNull(v, null))
        return true;
    opt.has = !null;
    return opt.has && Read(v, opt.value);
}

template <class O>
bool GetIndices(Worker *w, O &o, bench_indices &list)
{
    typename Api<O>::array a;
    if (o["indices"].get_array().get(a))
        return true;
    w->ints.clear();
    for (auto e : a) {
        int32_t i;
        if (Read(e, i))
            return true;
        w->ints.push_back(i);
    }
    return !Keep(w, w->ints, list);
}

// Each element of the array o[k] read by `one` into v, then v into list.
template <class O, class T, class L, class F>
bool GetObjects(Worker *w, O &o, const char *k, std::vector<T> &v, L &list, F one)
{
    typename Api<O>::array a;
    if (o[k].get_array().get(a))
        return true;
    v.clear();
    for (auto e : a) {
        O eo;
        v.emplace_back();
        if (e.get_object().get(eo) || one(eo, v.back()))
            return true;
    }
    return !Keep(w, v, list);
}

template <class O>
bool ReadEntities(Worker *w, O &o, bench_tw_entities &en)
{
    return GetObjects(w, o, "hashtags", w->hashtags, en.hashtags,
                      [w](O &h, bench_tw_hashtag &t) {
                          return Get(h, "text", t.text) || GetIndices(w, h, t.indices);
                      }) ||
           GetObjects(w, o, "urls", w->urls, en.urls,
                      [w](O &u, bench_tw_url &t) {
                          return Get(u, "url", t.url) || Get(u, "expanded_url", t.expanded_url) ||
                                 Get(u, "display_url", t.display_url) ||
                                 GetIndices(w, u, t.indices);
                      }) ||
           GetObjects(w, o, "user_mentions", w->mentions, en.user_mentions,
                      [w](O &m, bench_tw_mention &t) {
                          return Get(m, "screen_name", t.screen_name) || Get(m, "name", t.name) ||
                                 Get(m, "id", t.id) || Get(m, "id_str", t.id_str) ||
                                 GetIndices(w, m, t.indices);
                      });
}

template <class O>
bool ReadTwUser(O &o, bench_tw_user &u)
{
    return Get(o, "id", u.id) || Get(o, "id_str", u.id_str) || Get(o, "name", u.name) ||
           Get(o, "screen_name", u.screen_name) || Get(o, "location", u.location) ||
           Get(o, "description", u.description) || GetOpt(o, "url", u.url) ||
           Get(o, "protected", u.protected_) || Get(o, "followers_count", u.followers_count) ||
           Get(o, "friends_count", u.friends_count) || Get(o, "listed_count", u.listed_count) ||
           Get(o, "created_at", u.created_at) ||
           Get(o, "favourites_count", u.favourites_count) ||
           GetOpt(o, "utc_offset", u.utc_offset) || GetOpt(o, "time_zone", u.time_zone) ||
           Get(o, "geo_enabled", u.geo_enabled) || Get(o, "verified", u.verified) ||
           Get(o, "statuses_count", u.statuses_count) || Get(o, "lang", u.lang) ||
           Get(o, "profile_image_url", u.profile_image_url) ||
           Get(o, "profile_image_url_https", u.profile_image_url_https) ||
           Get(o, "default_profile", u.default_profile) || Get(o, "following", u.following);
}

template <class O>
bool ReadStatus(Worker *w, O &o, bench_tw_status &s)
{
    O md, user, en;
    return o["metadata"].get_object().get(md) ||
           Get(md, "result_type", s.metadata.result_type) ||
           Get(md, "iso_language_code", s.metadata.iso_language_code) ||
           Get(o, "created_at", s.created_at) || Get(o, "id", s.id) ||
           Get(o, "id_str", s.id_str) || Get(o, "text", s.text) || Get(o, "source", s.source) ||
           Get(o, "truncated", s.truncated) ||
           GetOpt(o, "in_reply_to_status_id", s.in_reply_to_status_id) ||
           GetOpt(o, "in_reply_to_status_id_str", s.in_reply_to_status_id_str) ||
           GetOpt(o, "in_reply_to_user_id", s.in_reply_to_user_id) ||
           GetOpt(o, "in_reply_to_user_id_str", s.in_reply_to_user_id_str) ||
           GetOpt(o, "in_reply_to_screen_name", s.in_reply_to_screen_name) ||
           o["user"].get_object().get(user) || ReadTwUser(user, s.user) ||
           Get(o, "retweet_count", s.retweet_count) ||
           Get(o, "favorite_count", s.favorite_count) ||
           o["entities"].get_object().get(en) || ReadEntities(w, en, s.entities) ||
           Get(o, "favorited", s.favorited) || Get(o, "retweeted", s.retweeted) ||
           Get(o, "lang", s.lang);
}

template <class O>
bool ReadTwitter(Worker *w, O &o, bench_twitter &t)
{
    O sm;
    bench_tw_search_metadata &m = t.search_metadata;
    return GetObjects(w, o, "statuses", w->statuses, t.statuses,
                      [w](O &so, bench_tw_status &s) { return ReadStatus(w, so, s); }) ||
           o["search_metadata"].get_object().get(sm) ||
           Get(sm, "completed_in", m.completed_in) || Get(sm, "max_id", m.max_id) ||
           Get(sm, "max_id_str", m.max_id_str) || Get(sm, "next_results", m.next_results) ||
           Get(sm, "query", m.query) || Get(sm, "refresh_url", m.refresh_url) ||
           Get(sm, "count", m.count) || Get(sm, "since_id", m.since_id) ||
           Get(sm, "since_id_str", m.since_id_str);
}

// A decimal kept as its exact text (a view of the padded input).
bool GetDecimal(object &o, const char *k, bench_str &s)
{
    simdjson::ondemand::value v;
    double d;
    if (o[k].get(v))
        return true;
    std::string_view raw = v.raw_json_token();
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' ||
                            raw.back() == '\t'))
        raw.remove_suffix(1);
    s = bench_str{raw.data(), raw.size()};
    return v.get_double().get(d) != simdjson::SUCCESS;
}

bool ReadClient(Worker *w, object &o, bench_client &c)
{
    array phones, partners;
    int eye;
    if (Get(o, "_id", c._id) || Get(o, "index", c.index) ||
        GetText(o, "guid", peer_uuid_parse, c.guid) || Get(o, "isActive", c.is_active) ||
        GetDecimal(o, "balance", c.balance) || Get(o, "picture", c.picture) ||
        Get(o, "age", c.age) || GetEnum(o, "eyeColor", peer_eye_colors, 3, eye) ||
        Get(o, "name", c.name) || Get(o, "gender", c.gender) ||
        Get(o, "company", c.company) || GetStrs(w, o, "emails", c.emails) ||
        o["phones"].get_array().get(phones))
        return true;
    c.eye_color = static_cast<bench_eye_color>(eye);
    w->longs.clear();
    for (auto e : phones) {
        int64_t v;
        if (e.get_int64().get(v))
            return true;
        w->longs.push_back(v);
    }
    if (!Keep(w, w->longs, c.phones) || Get(o, "address", c.address) ||
        Get(o, "about", c.about) || GetText(o, "registered", peer_date_parse, c.registered) ||
        Get(o, "latitude", c.latitude) || Get(o, "longitude", c.longitude) ||
        GetStrs(w, o, "tags", c.tags) || o["partners"].get_array().get(partners))
        return true;
    w->partners.clear();
    for (auto e : partners) {
        object po;
        bench_partner p;
        if (e.get_object().get(po) || Get(po, "id", p.id) || Get(po, "name", p.name) ||
            GetText(po, "since", peer_timestamp_parse, p.since))
            return true;
        w->partners.push_back(p);
    }
    return !Keep(w, w->partners, c.partners);
}

bool ReadClients(Worker *w, object &o, bench_clients &cs)
{
    array a;
    if (o["clients"].get_array().get(a))
        return true;
    w->clients.clear();
    for (auto e : a) {
        object co;
        w->clients.emplace_back();
        if (e.get_object().get(co) || ReadClient(w, co, w->clients.back()))
            return true;
    }
    return !Keep(w, w->clients, cs.clients);
}

const char *sj_version()
{
    static char v[128];
    std::snprintf(v, sizeof v,
                  "simdjson %d.%d.%d (run-time kernel %s, On-Demand accessors %s) + RapidJSON %s",
                  simdjson::SIMDJSON_VERSION_MAJOR, simdjson::SIMDJSON_VERSION_MINOR,
                  simdjson::SIMDJSON_VERSION_REVISION,
                  // The structural index of both APIs and the DOM parse run
                  // the shared library's kernel, chosen at run time; only
                  // On-Demand's accessors, inlined here, run this file's.
                  simdjson::get_active_implementation()->name().c_str(),
                  SIMDJSON_STRINGIFY(SIMDJSON_BUILTIN_IMPLEMENTATION), RAPIDJSON_VERSION_STRING);
    return v;
}

// ---- stream: RapidJSON SAX <-> token tape ----------------------------------

// RapidJSON's Handler concept, appending every event to a tape. Strings are
// views of the (in situ) input; numbers arrive converted, as from codec's
// reader. Each returns false to stop the parse once the tape is out of memory.
struct TapeHandler {
    bench_tape *t;
    bool Push(bench_tape_kind k)
    {
        bench_tape_item it{};
        it.kind = k;
        bench_tape_push(t, it);
        return !t->failed;
    }
    bool Text(bench_tape_kind k, const char *s, rapidjson::SizeType n)
    {
        bench_tape_item it{};
        it.kind = k, it.len = n, it.v.s = s;
        bench_tape_push(t, it);
        return !t->failed;
    }
    bool Null() { return Push(TAPE_NULL); }
    bool Bool(bool b) { return Push(b ? TAPE_TRUE : TAPE_FALSE); }
    bool Int(int i) { return Int64(i); }
    bool Uint(unsigned u) { return Int64(u); }
    bool Int64(int64_t i)
    {
        bench_tape_item it{};
        it.kind = TAPE_INT, it.v.i = i;
        bench_tape_push(t, it);
        return !t->failed;
    }
    bool Uint64(uint64_t u)
    {
        return u <= INT64_MAX ? Int64(static_cast<int64_t>(u)) : Double(static_cast<double>(u));
    }
    bool Double(double d)
    {
        bench_tape_item it{};
        it.kind = TAPE_DOUBLE, it.v.d = d;
        bench_tape_push(t, it);
        return !t->failed;
    }
    bool RawNumber(const char *, rapidjson::SizeType, bool) { return false; }  // not asked for
    bool String(const char *s, rapidjson::SizeType n, bool) { return Text(TAPE_STRING, s, n); }
    bool Key(const char *s, rapidjson::SizeType n, bool) { return Text(TAPE_KEY, s, n); }
    bool StartObject() { return Push(TAPE_OBJECT_START); }
    bool EndObject(rapidjson::SizeType) { return Push(TAPE_OBJECT_END); }
    bool StartArray() { return Push(TAPE_ARRAY_START); }
    bool EndArray(rapidjson::SizeType) { return Push(TAPE_ARRAY_END); }
};

// Full-precision doubles and UTF-8 validation: the checks codec's reader makes.
constexpr unsigned SAX_FLAGS = rapidjson::kParseInsituFlag | rapidjson::kParseFullPrecisionFlag |
                               rapidjson::kParseValidateEncodingFlag;

void WriteTape(Writer &w, const bench_tape &t)
{
    for (size_t i = 0; i < t.n; i++) {
        const bench_tape_item &it = t.items[i];
        switch (it.kind) {
        case TAPE_OBJECT_START: w.StartObject(); break;
        case TAPE_OBJECT_END: w.EndObject(); break;
        case TAPE_ARRAY_START: w.StartArray(); break;
        case TAPE_ARRAY_END: w.EndArray(); break;
        case TAPE_KEY: w.Key(it.v.s, static_cast<rapidjson::SizeType>(it.len)); break;
        case TAPE_STRING: w.String(it.v.s, static_cast<rapidjson::SizeType>(it.len)); break;
        case TAPE_INT: w.Int64(it.v.i); break;
        case TAPE_DOUBLE: w.Double(it.v.d); break;
        case TAPE_TRUE: w.Bool(true); break;
        case TAPE_FALSE: w.Bool(false); break;
        case TAPE_NULL: w.Null(); break;
        }
    }
}

// ---- the driver -------------------------------------------------------------

void *sj_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_json_open(spec, p, "simdjson",
                          PEER_CAN_USERS | PEER_CAN_CLIENTS | PEER_CAN_TWITTER | PEER_CAN_DOM |
                              PEER_CAN_TWITTER_DOM | PEER_CAN_VALIDATE | PEER_CAN_STREAM,
                          nullptr, why, cap);
}

void *sj_worker_new(void *shared)
{
    return new (std::nothrow) Worker(*static_cast<const peer_json_cell *>(shared));
}

void sj_worker_free(void *worker)
{
    delete static_cast<Worker *>(worker);
}

// The payload's own form for encode, made on the first call (the harness's
// checking call, untimed): its DOM or its token tape.
bool Prepare(Worker *w, const bench_payload *p)
{
    if (w->prepared)
        return true;
    if (w->mode == PEER_DOM)
        w->prepared = !w->ref_parser.parse(p->bytes, p->len).get(w->ref_root);
    else if (w->mode == PEER_STREAM)
        w->prepared = bench_tape_load(&w->ref, p, &w->ref_arena) == 0;
    else
        w->prepared = true;
    return w->prepared;
}

void WriteValue(Worker *w, const bench_payload *p)
{
    switch (w->model) {
    case PEER_PERSON: WritePerson(w->writer, *static_cast<const bench_person *>(p->value)); break;
    case PEER_ORDER: WriteOrder(w->writer, *static_cast<const bench_order *>(p->value)); break;
    case PEER_STRUCT: WriteStruct(w->writer, *static_cast<const bench_struct *>(p->value)); break;
    case PEER_USERS: WriteUsers(w->writer, *static_cast<const bench_users *>(p->value)); break;
    case PEER_CLIENTS:
        WriteClients(w->writer, *static_cast<const bench_clients *>(p->value));
        break;
    default:
        WriteMedia(w->writer, *static_cast<const bench_media_content *>(p->value),
                   w->model == PEER_MEDIA_CONTENT);
    }
}

int sj_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    auto *w = static_cast<Worker *>(worker);
    try {
        if (w->mode == PEER_VALIDATE || w->model == PEER_TWITTER || !Prepare(w, p))
            return -1;   // decode-only cells
        if (w->mode == PEER_DOM) {
            w->text = simdjson::to_string(w->ref_root);
            *out = reinterpret_cast<const uint8_t *>(w->text.data());
            *len = w->text.size();
            return 0;
        }
        w->buffer.Clear();
        w->writer.Reset(w->buffer);
        if (w->mode == PEER_STREAM)
            WriteTape(w->writer, w->ref);
        else
            WriteValue(w, p);
        if (!w->writer.IsComplete())
            return -1;
        *out = reinterpret_cast<const uint8_t *>(w->buffer.GetString());
        *len = w->buffer.GetSize();
        return 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

bool ReadValue(Worker *w, object &o)
{
    codec_arena_reset(&w->lists);
    switch (w->model) {
    case PEER_PERSON: return ReadPerson(o, w->value.person);
    case PEER_ORDER: return ReadOrder(w, o, w->value.order);
    case PEER_STRUCT: return ReadStruct(o, w->value.numeric);
    case PEER_USERS: return ReadUsers(w, o, w->value.users);
    case PEER_CLIENTS: return ReadClients(w, o, w->value.clients);
    case PEER_TWITTER: return ReadTwitter(w, o, w->value.twitter);
    default: return ReadMedia(w, o, w->value.media);
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
        if (w->mode == PEER_STREAM) {
            w->padded[n] = 0;   // the in-situ stream ends at a NUL
            rapidjson::Reader reader;
            rapidjson::InsituStringStream ss(reinterpret_cast<char *>(w->padded.data()));
            TapeHandler h{&w->tape};
            bench_tape_clear(&w->tape);
            return reader.Parse<SAX_FLAGS>(ss, h).IsError() ? -1 : 0;
        }
        if (w->mode != PEER_DATABIND) {
            if (w->dom_parser.parse(w->padded.data(), n, false).get(w->dom_root))
                return -1;
            if (w->model == PEER_TWITTER) {   // "dom" on twitter: the tree, then the mapping
                simdjson::dom::object o;
                codec_arena_reset(&w->lists);
                return w->dom_root.get_object().get(o) || ReadTwitter(w, o, w->value.twitter)
                           ? -1
                           : 0;
            }
            if (w->mode == PEER_VALIDATE)
                *out = in, *len = n;
            return 0;
        }
        simdjson::ondemand::document doc;
        object o;
        if (w->parser.iterate(w->padded.data(), n, w->padded.size()).get(doc) ||
            doc.get_object().get(o))
            return -1;
        return ReadValue(w, o) ? -1 : 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

int sj_matches(void *worker, const bench_payload *p)
{
    auto *w = static_cast<Worker *>(worker);
    try {
        if (w->mode == PEER_DATABIND || w->model == PEER_TWITTER)   // structs, either API
            return peer_value_matches(p, &w->value);
        switch (w->mode) {
        case PEER_DOM: return simdjson::to_string(w->dom_root) == simdjson::to_string(w->ref_root);
        case PEER_STREAM: return bench_tape_equal(&w->tape, &w->ref);
        default: return 1;   // a validator hands back the bytes it checked
        }
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

}  // namespace

extern "C" const bench_driver bench_peer_simdjson = {
    "simdjson", sj_version, sj_open, std::free, sj_worker_new, sj_worker_free,
    sj_encode, sj_decode, sj_matches, nullptr, nullptr};
