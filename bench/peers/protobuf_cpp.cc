// protobuf_cpp.cc — peer: Google protobuf (C++), messages on an arena, with
// code generated at build time by protoc --cpp_out from tests/data/protobuf.
// Spec: "protobuf".
//
// Encode builds the message on the worker's arena from the bench struct,
// serializes it into a reused buffer and resets the arena. Decode resets the
// arena, parses into a message created on it and fills the bench struct;
// strings point into the message, which lives until the next reset. The
// arena's first block is a worker buffer that survives resets, so a steady
// state allocates nothing: the usual way to run protobuf C++ fast.
#include "media.pb.h"
#include "order.pb.h"
#include "person.pb.h"
#include "struct.pb.h"

#include <google/protobuf/arena.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

extern "C" {
#include "peer.h"
}

namespace {

using google::protobuf::Arena;
using google::protobuf::ArenaOptions;

// The arena's first block is the worker's own (initial_block): Reset()
// keeps it, so a steady state that fits in it allocates nothing.
constexpr size_t kInitialBlock = 1 << 20;

struct Worker {
    explicit Worker(peer_model m)
        : model(m), block(new char[kInitialBlock]), arena(Options(block.get()))
    {
    }
    static ArenaOptions Options(char *block)
    {
        ArenaOptions o;
        o.initial_block = block;
        o.initial_block_size = kInitialBlock;
        o.max_block_size = 1 << 20;
        return o;
    }
    peer_model model;
    std::unique_ptr<char[]> block;
    Arena arena;
    std::vector<uint8_t> out;
    peer_value value{};
    std::vector<bench_line_item> items;
    std::vector<bench_str> persons;
    std::vector<bench_image> images;
};

bench_str Str(const std::string &s)
{
    return bench_str{s.data(), s.size()};
}

void FillImage(Image *m, const bench_image &im)
{
    m->set_uri(im.uri.ptr, im.uri.len);
    if (im.title.has)
        m->set_title(im.title.value.ptr, im.title.value.len);
    m->set_width(im.width);
    m->set_height(im.height);
    m->set_size(static_cast<Size>(im.size));
}

void FillMedia(MediaContent *m, const bench_media_content &mc)
{
    const bench_media &v = mc.media;
    Media *md = m->mutable_media();
    md->set_uri(v.uri.ptr, v.uri.len);
    if (v.title.has)
        md->set_title(v.title.value.ptr, v.title.value.len);
    md->set_width(v.width);
    md->set_height(v.height);
    md->set_format(v.format.ptr, v.format.len);
    md->set_duration(v.duration);
    md->set_size(v.size);
    md->set_bitrate(v.bitrate);
    md->set_hasbitrate(v.has_bitrate);
    for (size_t i = 0; i < v.persons.count; i++)
        md->add_persons(v.persons.items[i].ptr, v.persons.items[i].len);
    md->set_player(static_cast<Player>(v.player));
    if (v.copyright.has)
        md->set_copyright(v.copyright.value.ptr, v.copyright.value.len);
    for (size_t i = 0; i < mc.images.count; i++)
        FillImage(m->add_images(), mc.images.items[i]);
}

void FillStruct(NumericStruct *m, const bench_struct &s)
{
    m->set_f1(s.f1), m->set_f2(s.f2), m->set_f3(s.f3), m->set_f4(s.f4);
    m->set_f5(s.f5), m->set_f6(s.f6), m->set_f7(s.f7), m->set_f8(s.f8);
    m->set_f9(s.f9), m->set_f10(s.f10), m->set_f11(s.f11), m->set_f12(s.f12);
    m->set_f13(s.f13), m->set_f14(s.f14), m->set_f15(s.f15), m->set_f16(s.f16);
}

google::protobuf::MessageLite *Build(Worker *w, const void *value)
{
    Arena *a = &w->arena;
    switch (w->model) {
    case PEER_PERSON: {
        auto *v = static_cast<const bench_person *>(value);
        auto *m = Arena::CreateMessage<Person>(a);
        m->set_name(v->name.ptr, v->name.len);
        m->set_age(v->age);
        m->set_active(v->active);
        m->set_email(v->email.ptr, v->email.len);
        return m;
    }
    case PEER_ORDER: {
        auto *v = static_cast<const bench_order *>(value);
        auto *m = Arena::CreateMessage<Order>(a);
        m->set_id(v->id.ptr, v->id.len);
        m->set_customer(v->customer.ptr, v->customer.len);
        m->set_paid(v->paid);
        m->mutable_items()->Reserve(static_cast<int>(v->items.count));
        for (size_t i = 0; i < v->items.count; i++) {
            const bench_line_item &it = v->items.items[i];
            LineItem *li = m->add_items();
            li->set_sku(it.sku.ptr, it.sku.len);
            li->set_description(it.description.ptr, it.description.len);
            li->set_quantity(it.quantity);
            li->set_unitprice(it.unit_price);
        }
        return m;
    }
    case PEER_STRUCT: {
        auto *m = Arena::CreateMessage<NumericStruct>(a);
        FillStruct(m, *static_cast<const bench_struct *>(value));
        return m;
    }
    default: {
        auto *m = Arena::CreateMessage<MediaContent>(a);
        FillMedia(m, *static_cast<const bench_media_content *>(value));
        return m;
    }
    }
}

bench_opt_str Opt(bool has, const std::string &s)
{
    bench_opt_str o{};
    o.has = has;
    if (has)
        o.value = Str(s);
    return o;
}

void ReadMedia(Worker *w, const MediaContent &m)
{
    const Media &md = m.media();
    bench_media_content &mc = w->value.media;
    bench_media &v = mc.media;
    v.uri = Str(md.uri());
    v.title = Opt(md.has_title(), md.title());
    v.width = md.width();
    v.height = md.height();
    v.format = Str(md.format());
    v.duration = md.duration();
    v.size = md.size();
    v.bitrate = md.bitrate();
    v.has_bitrate = md.hasbitrate();
    w->persons.resize(static_cast<size_t>(md.persons_size()));
    for (int i = 0; i < md.persons_size(); i++)
        w->persons[static_cast<size_t>(i)] = Str(md.persons(i));
    v.persons.items = w->persons.data();
    v.persons.count = w->persons.size();
    v.player = static_cast<bench_player>(md.player());
    // media.proto's copyright is a plain string: empty reads as absent
    v.copyright = Opt(!md.copyright().empty(), md.copyright());
    w->images.resize(static_cast<size_t>(m.images_size()));
    for (int i = 0; i < m.images_size(); i++) {
        const Image &im = m.images(i);
        bench_image &b = w->images[static_cast<size_t>(i)];
        b.uri = Str(im.uri());
        b.title = Opt(im.has_title(), im.title());
        b.width = im.width();
        b.height = im.height();
        b.size = static_cast<bench_image_size>(im.size());
    }
    mc.images.items = w->images.data();
    mc.images.count = w->images.size();
}

template <class M> M *Parse(Worker *w, const uint8_t *in, size_t n)
{
    M *m = Arena::CreateMessage<M>(&w->arena);
    return m->ParseFromArray(in, static_cast<int>(n)) ? m : nullptr;
}

int Decode(Worker *w, const uint8_t *in, size_t n)
{
    switch (w->model) {
    case PEER_PERSON: {
        const Person *m = Parse<Person>(w, in, n);
        if (!m)
            return -1;
        w->value.person = bench_person{Str(m->name()), m->age(), m->active(), Str(m->email())};
        return 0;
    }
    case PEER_ORDER: {
        const Order *m = Parse<Order>(w, in, n);
        if (!m)
            return -1;
        w->items.resize(static_cast<size_t>(m->items_size()));
        for (int i = 0; i < m->items_size(); i++) {
            const LineItem &li = m->items(i);
            w->items[static_cast<size_t>(i)] = bench_line_item{
                Str(li.sku()), Str(li.description()), li.quantity(), li.unitprice()};
        }
        bench_order &o = w->value.order;
        o.id = Str(m->id());
        o.customer = Str(m->customer());
        o.paid = m->paid();
        o.items.items = w->items.data();
        o.items.count = w->items.size();
        return 0;
    }
    case PEER_STRUCT: {
        const NumericStruct *m = Parse<NumericStruct>(w, in, n);
        if (!m)
            return -1;
        w->value.numeric = bench_struct{m->f1(),  m->f2(),  m->f3(),  m->f4(),
                                        m->f5(),  m->f6(),  m->f7(),  m->f8(),
                                        m->f9(),  m->f10(), m->f11(), m->f12(),
                                        m->f13(), m->f14(), m->f15(), m->f16()};
        return 0;
    }
    default: {
        const MediaContent *m = Parse<MediaContent>(w, in, n);
        if (!m)
            return -1;
        ReadMedia(w, *m);
        return 0;
    }
    }
}

const char *pbcpp_version()
{
    static char v[48];
    std::snprintf(v, sizeof v, "protobuf C++ %s",
                  google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION).c_str());
    return v;
}

void *pbcpp_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return peer_typed_open(spec, "protobuf", p, "protobuf C++", why, cap);
}

void *pbcpp_worker_new(void *shared)
{
    return new (std::nothrow) Worker(*static_cast<const peer_model *>(shared));
}

void pbcpp_worker_free(void *worker)
{
    delete static_cast<Worker *>(worker);
}

int pbcpp_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    auto *w = static_cast<Worker *>(worker);
    try {
        w->arena.Reset();
        google::protobuf::MessageLite *m = Build(w, p->value);
        size_t n = m->ByteSizeLong();
        if (w->out.size() < n + 1)
            w->out.resize(n + 1);
        bool ok = m->SerializeWithCachedSizesToArray(w->out.data()) == w->out.data() + n;
        w->arena.Reset();
        *out = w->out.data();
        *len = n;
        return ok ? 0 : -1;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

int pbcpp_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out, size_t *len)
{
    auto *w = static_cast<Worker *>(worker);
    *out = nullptr, *len = 0;
    try {
        w->arena.Reset();
        return Decode(w, in, n);
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

int pbcpp_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &static_cast<Worker *>(worker)->value);
}

}  // namespace

extern "C" const bench_driver bench_peer_protobuf_cpp = {
    "protobuf-cpp", pbcpp_version, pbcpp_open, std::free, pbcpp_worker_new,
    pbcpp_worker_free, pbcpp_encode, pbcpp_decode, pbcpp_matches, nullptr, nullptr};
