/* codec_gen.c — codec with code generated at build time by codec-gen from
 * tests/data/protobuf (person, order, media, struct .proto) with
 * `specialize=1,prefix=bgen_`: the "with codegen" cells. Two drivers, spec
 * "protobuf" each: `codec-gen` runs the types' specialized functions
 * (codec/codegen.h), `codec-gen-desc` the same generated types through the
 * descriptor path (codec_parse("protobuf:codegen=off")).
 *
 * It works like the protobuf-c and protobuf C++ peers: encode fills the
 * generated structs from the bench struct (strings borrowed; Order's items,
 * MediaContent's images and persons in worker buffers kept across calls)
 * and encodes into a reused codec_buf; decode decodes into a generated
 * struct kept by the worker (its strings, lists and messages in an arena
 * reset per call), then fills the bench struct, strings pointing into the
 * arena. Steady state allocates nothing. */
#include "peer.h"

#include "codec/codec.h"
#include "media.codec.h"
#include "order.codec.h"
#include "person.codec.h"
#include "struct.codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen_shared {
    peer_model model;
    codec *c;
} gen_shared;

typedef struct gen_worker {
    const gen_shared *s;
    codec_buf out;
    codec_arena arena;
    peer_bytes items;    /* encode: Order's LineItems / MediaContent's images */
    peer_bytes persons;  /* encode: Media.persons */
    bgen_Media media;    /* encode: MediaContent.media */
    union {
        bgen_Person person;
        bgen_Order order;
        bgen_NumericStruct numeric;
        bgen_MediaContent media;
    } in, dec;
    peer_value value;
    peer_bytes dec_items;   /* decode: the bench line items / images */
} gen_worker;

static const char *gen_version(void)
{
    return "codec " CODEC_VERSION_STRING " (codec-gen --specialize)";
}

static const char *gen_desc_version(void)
{
    return "codec " CODEC_VERSION_STRING " (codec-gen, descriptor path)";
}

static const codec_type *type_of(peer_model m)
{
    switch (m) {
    case PEER_PERSON: return &bgen_Person_type;
    case PEER_ORDER: return &bgen_Order_type;
    case PEER_STRUCT: return &bgen_NumericStruct_type;
    default: return &bgen_MediaContent_type;
    }
}

static void *open_with(const char *spec, const bench_payload *p, const char *codec_spec,
                       char *why, size_t cap)
{
    int m = peer_model_of(p, "codec-gen", why, cap);
    if (m < 0)
        return NULL;
    if (strcmp(spec, "protobuf") != 0) {
        snprintf(why, cap, "the codec-gen cells' spec is \"protobuf\"");
        return NULL;
    }
    gen_shared *s = calloc(1, sizeof *s);
    codec_error err;
    if (!s || !(s->c = codec_parse(codec_spec, type_of((peer_model)m), &err))) {
        char msg[256];
        snprintf(why, cap, "%s", s ? codec_error_format(&err, msg, sizeof msg) : "out of memory");
        free(s);
        return NULL;
    }
    s->model = (peer_model)m;
    return s;
}

static void *gen_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return open_with(spec, p, "protobuf", why, cap);
}

static void *gen_desc_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    return open_with(spec, p, "protobuf:codegen=off", why, cap);
}

static void gen_close(void *shared)
{
    gen_shared *s = shared;
    codec_free(s->c);
    free(s);
}

static void *gen_worker_new(void *shared)
{
    gen_worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->s = shared;
    codec_buf_init(&w->out, NULL);
    codec_arena_init(&w->arena, NULL, 0);
    return w;
}

static void gen_worker_free(void *worker)
{
    gen_worker *w = worker;
    codec_buf_free(&w->out);
    codec_arena_free(&w->arena);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->persons);
    peer_bytes_free(&w->dec_items);
    free(w);
}

static codec_string cs(bench_str s)
{
    return (codec_string){s.ptr, s.len};
}

static bench_str bs(codec_string s)
{
    return (bench_str){s.ptr, s.len};
}

static int fill_order(gen_worker *w, bgen_Order *m, const bench_order *o)
{
    size_t n = o->items.count;
    if (peer_reserve(&w->items, n * sizeof(bgen_LineItem) + 1) != 0)
        return -1;
    bgen_LineItem *li = (bgen_LineItem *)w->items.data;
    for (size_t i = 0; i < n; i++) {
        const bench_line_item *it = &o->items.items[i];
        li[i] = (bgen_LineItem){.sku = cs(it->sku), .description = cs(it->description),
                                .quantity = it->quantity, .unitPrice = it->unit_price};
    }
    *m = (bgen_Order){.id = cs(o->id), .customer = cs(o->customer), .paid = o->paid,
                      .items = {li, n}};
    return 0;
}

static int fill_media(gen_worker *w, bgen_MediaContent *m, const bench_media_content *mc)
{
    const bench_media *v = &mc->media;
    size_t ni = mc->images.count, np = v->persons.count;
    if (peer_reserve(&w->items, ni * sizeof(bgen_Image) + 1) != 0 ||
        peer_reserve(&w->persons, np * sizeof(codec_string) + 1) != 0)
        return -1;
    codec_string *persons = (codec_string *)w->persons.data;
    for (size_t i = 0; i < np; i++)
        persons[i] = cs(v->persons.items[i]);
    w->media = (bgen_Media){.uri = cs(v->uri), .title = {v->title.has, cs(v->title.value)},
                            .width = v->width, .height = v->height, .format = cs(v->format),
                            .duration = v->duration, .size = v->size, .bitrate = v->bitrate,
                            .hasBitrate = v->has_bitrate, .persons = {persons, np},
                            .player = (int32_t)v->player,
                            .copyright = v->copyright.has ? cs(v->copyright.value)
                                                          : (codec_string){NULL, 0}};
    bgen_Image *im = (bgen_Image *)w->items.data;
    for (size_t i = 0; i < ni; i++) {
        const bench_image *b = &mc->images.items[i];
        im[i] = (bgen_Image){.uri = cs(b->uri), .title = {b->title.has, cs(b->title.value)},
                             .width = b->width, .height = b->height, .size = (int32_t)b->size};
    }
    *m = (bgen_MediaContent){.media = &w->media, .images = {im, ni}};
    return 0;
}

static int gen_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    gen_worker *w = worker;
    const void *msg = &w->in;
    switch (w->s->model) {
    case PEER_PERSON: {
        const bench_person *v = p->value;
        w->in.person = (bgen_Person){.name = cs(v->name), .age = v->age, .active = v->active,
                                     .email = cs(v->email)};
        break;
    }
    case PEER_ORDER:
        if (fill_order(w, &w->in.order, p->value) != 0)
            return -1;
        break;
    case PEER_STRUCT: {
        const bench_struct *s = p->value;
        w->in.numeric = (bgen_NumericStruct){s->f1,  s->f2,  s->f3,  s->f4,  s->f5,  s->f6,
                                             s->f7,  s->f8,  s->f9,  s->f10, s->f11, s->f12,
                                             s->f13, s->f14, s->f15, s->f16, {NULL, 0}};
        break;
    }
    default:
        if (fill_media(w, &w->in.media, p->value) != 0)
            return -1;
        break;
    }
    codec_buf_clear(&w->out);
    if (codec_encode(w->s->c, msg, &w->out, NULL) != 0)
        return -1;
    *out = w->out.data;
    *len = w->out.len;
    return 0;
}

static bench_opt_str opt(bool has, codec_string s)
{
    bench_opt_str o = {0};
    o.has = has;
    if (has)
        o.value = bs(s);
    return o;
}

static int read_media(gen_worker *w, const bgen_MediaContent *m)
{
    static const bgen_Media empty;
    const bgen_Media *md = m->media ? m->media : &empty;
    if (peer_reserve(&w->dec_items, m->images.count * sizeof(bench_image) + 1) != 0)
        return -1;
    bench_media_content *mc = &w->value.media;
    bench_media *v = &mc->media;
    *v = (bench_media){.uri = bs(md->uri), .title = opt(md->title.has, md->title.value),
                       .width = md->width, .height = md->height, .format = bs(md->format),
                       .duration = md->duration, .size = md->size, .bitrate = md->bitrate,
                       .has_bitrate = md->hasBitrate,
                       /* codec_string and bench_str share their layout */
                       .persons = {(bench_str *)(void *)md->persons.items, md->persons.count},
                       .player = (bench_player)md->player,
                       /* media.proto's copyright is a plain string: empty reads as absent */
                       .copyright = opt(md->copyright.len != 0, md->copyright)};
    bench_image *im = (bench_image *)w->dec_items.data;
    for (size_t i = 0; i < m->images.count; i++) {
        const bgen_Image *g = &m->images.items[i];
        im[i] = (bench_image){.uri = bs(g->uri), .title = opt(g->title.has, g->title.value),
                              .width = g->width, .height = g->height,
                              .size = (bench_image_size)g->size};
    }
    mc->images.items = im;
    mc->images.count = m->images.count;
    return 0;
}

static int gen_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                      size_t *len)
{
    gen_worker *w = worker;
    *out = NULL, *len = 0;
    codec_arena_reset(&w->arena);
    if (codec_decode(w->s->c, in, n, &w->dec, &w->arena, NULL) != 0)
        return -1;
    switch (w->s->model) {
    case PEER_PERSON: {
        const bgen_Person *m = &w->dec.person;
        w->value.person = (bench_person){bs(m->name), m->age, m->active, bs(m->email)};
        return 0;
    }
    case PEER_ORDER: {
        const bgen_Order *m = &w->dec.order;
        bench_order *o = &w->value.order;
        /* bgen_LineItem is not bench_line_item (it keeps unknown fields):
         * the items are copied, as the other peers do. */
        if (peer_reserve(&w->dec_items, m->items.count * sizeof(bench_line_item) + 1) != 0)
            return -1;
        bench_line_item *li = (bench_line_item *)w->dec_items.data;
        for (size_t i = 0; i < m->items.count; i++) {
            const bgen_LineItem *g = &m->items.items[i];
            li[i] = (bench_line_item){bs(g->sku), bs(g->description), g->quantity, g->unitPrice};
        }
        *o = (bench_order){bs(m->id), bs(m->customer), m->paid, {li, m->items.count}};
        return 0;
    }
    case PEER_STRUCT: {
        const bgen_NumericStruct *m = &w->dec.numeric;
        w->value.numeric = (bench_struct){m->f1,  m->f2,  m->f3,  m->f4,  m->f5,  m->f6,
                                          m->f7,  m->f8,  m->f9,  m->f10, m->f11, m->f12,
                                          m->f13, m->f14, m->f15, m->f16};
        return 0;
    }
    default: return read_media(w, &w->dec.media);
    }
}

static int gen_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((gen_worker *)worker)->value);
}

const bench_driver bench_peer_codec_gen = {
    "codec-gen", gen_version, gen_open, gen_close, gen_worker_new, gen_worker_free,
    gen_encode, gen_decode, gen_matches, NULL, NULL};

const bench_driver bench_peer_codec_gen_desc = {
    "codec-gen-desc", gen_desc_version, gen_desc_open, gen_close, gen_worker_new,
    gen_worker_free, gen_encode, gen_decode, gen_matches, NULL, NULL};
