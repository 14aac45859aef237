/* protobuf_c.c — peer: protobuf-c, with code generated at build time by
 * protoc-c from tests/data/protobuf (person, order, struct .proto). Spec:
 * "protobuf". MediaContent is not mapped: protoc-c 1.4 refuses proto3
 * `optional`, which media.proto uses for the titles.
 *
 * Encode fills the generated structs from the bench struct (strings are
 * borrowed: bench strings are NUL-terminated; Order's item structs and their
 * pointer array are worker buffers kept across calls) and packs into a
 * reused buffer. Decode is <msg>__unpack with the default allocator, then
 * the bench struct is filled, its strings pointing into the unpacked
 * message, which the worker frees at its next decode. */
#include "peer.h"

#include "order.pb-c.h"
#include "person.pb-c.h"
#include "struct.pb-c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pbc_worker {
    peer_model model;
    peer_bytes out;
    peer_bytes items, item_ptrs;    /* encode: Order's LineItems */
    ProtobufCMessage *msg;          /* the last unpacked message */
    peer_value value;
    peer_bytes dec_items;           /* decode: the bench line items */
} pbc_worker;

static const char *pbc_version(void)
{
    static char v[32];
    snprintf(v, sizeof v, "protobuf-c %s", protobuf_c_version());
    return v;
}

static void *pbc_open(const char *spec, const bench_payload *p, char *why, size_t cap)
{
    if (strcmp(p->name, "media-item") == 0 || strcmp(p->name, "media-content") == 0) {
        snprintf(why, cap, "protoc-c 1.4 has no proto3 optional, which media.proto uses");
        return NULL;
    }
    return peer_typed_open(spec, "protobuf", p, "protobuf-c", why, cap);
}

static void *pbc_worker_new(void *shared)
{
    pbc_worker *w = calloc(1, sizeof *w);
    if (w)
        w->model = *(const peer_model *)shared;
    return w;
}

static void pbc_worker_free(void *worker)
{
    pbc_worker *w = worker;
    if (w->msg)
        protobuf_c_message_free_unpacked(w->msg, NULL);
    peer_bytes_free(&w->out);
    peer_bytes_free(&w->items);
    peer_bytes_free(&w->item_ptrs);
    peer_bytes_free(&w->dec_items);
    free(w);
}

static void fill_struct(NumericStruct *m, const bench_struct *s)
{
    *m = (NumericStruct)NUMERIC_STRUCT__INIT;
    m->f1 = s->f1, m->f2 = s->f2, m->f3 = s->f3, m->f4 = s->f4;
    m->f5 = s->f5, m->f6 = s->f6, m->f7 = s->f7, m->f8 = s->f8;
    m->f9 = s->f9, m->f10 = s->f10, m->f11 = s->f11, m->f12 = s->f12;
    m->f13 = s->f13, m->f14 = s->f14, m->f15 = s->f15, m->f16 = s->f16;
}

static int fill_order(pbc_worker *w, Order *m, const bench_order *o)
{
    size_t n = o->items.count;
    if (peer_reserve(&w->items, n * sizeof(LineItem) + 1) != 0 ||
        peer_reserve(&w->item_ptrs, n * sizeof(LineItem *) + 1) != 0)
        return -1;
    LineItem *li = (LineItem *)w->items.data;
    LineItem **ptrs = (LineItem **)w->item_ptrs.data;
    for (size_t i = 0; i < n; i++) {
        const bench_line_item *it = &o->items.items[i];
        li[i] = (LineItem)LINE_ITEM__INIT;
        li[i].sku = (char *)it->sku.ptr;
        li[i].description = (char *)it->description.ptr;
        li[i].quantity = it->quantity;
        li[i].unitprice = it->unit_price;
        ptrs[i] = &li[i];
    }
    *m = (Order)ORDER__INIT;
    m->id = (char *)o->id.ptr;
    m->customer = (char *)o->customer.ptr;
    m->paid = o->paid;
    m->n_items = n;
    m->items = ptrs;
    return 0;
}

static int pbc_encode(void *worker, const bench_payload *p, const uint8_t **out, size_t *len)
{
    pbc_worker *w = worker;
    union {
        Person person;
        Order order;
        NumericStruct numeric;
    } m;
    if (w->model == PEER_PERSON) {
        const bench_person *v = p->value;
        m.person = (Person)PERSON__INIT;
        m.person.name = (char *)v->name.ptr;
        m.person.age = v->age;
        m.person.active = v->active;
        m.person.email = (char *)v->email.ptr;
    } else if (w->model == PEER_ORDER) {
        if (fill_order(w, &m.order, p->value) != 0)
            return -1;
    } else {
        fill_struct(&m.numeric, p->value);
    }
    const ProtobufCMessage *msg = (const ProtobufCMessage *)&m;
    size_t n = protobuf_c_message_get_packed_size(msg);
    if (peer_reserve(&w->out, n + 1) != 0)
        return -1;
    *len = protobuf_c_message_pack(msg, w->out.data);
    *out = w->out.data;
    return *len == n ? 0 : -1;
}

static bench_str str_of(const char *s)
{
    return (bench_str){s, strlen(s)};
}

static int pbc_decode(void *worker, const uint8_t *in, size_t n, const uint8_t **out,
                      size_t *len)
{
    pbc_worker *w = worker;
    *out = NULL, *len = 0;
    if (w->msg)
        protobuf_c_message_free_unpacked(w->msg, NULL);
    w->msg = NULL;
    if (w->model == PEER_PERSON) {
        Person *m = person__unpack(NULL, n, in);
        if (!(w->msg = &m->base))
            return -1;
        w->value.person = (bench_person){str_of(m->name), m->age, m->active, str_of(m->email)};
    } else if (w->model == PEER_ORDER) {
        Order *m = order__unpack(NULL, n, in);
        if (!(w->msg = (ProtobufCMessage *)m) ||
            peer_reserve(&w->dec_items, m->n_items * sizeof(bench_line_item) + 1) != 0)
            return -1;
        bench_order *o = &w->value.order;
        *o = (bench_order){str_of(m->id), str_of(m->customer), m->paid,
                           {(bench_line_item *)w->dec_items.data, m->n_items}};
        for (size_t i = 0; i < m->n_items; i++) {
            const LineItem *li = m->items[i];
            o->items.items[i] = (bench_line_item){str_of(li->sku), str_of(li->description),
                                                  li->quantity, li->unitprice};
        }
    } else {
        NumericStruct *m = numeric_struct__unpack(NULL, n, in);
        if (!(w->msg = (ProtobufCMessage *)m))
            return -1;
        w->value.numeric = (bench_struct){m->f1,  m->f2,  m->f3,  m->f4,  m->f5,  m->f6,
                                          m->f7,  m->f8,  m->f9,  m->f10, m->f11, m->f12,
                                          m->f13, m->f14, m->f15, m->f16};
    }
    return 0;
}

static int pbc_matches(void *worker, const bench_payload *p)
{
    return peer_value_matches(p, &((pbc_worker *)worker)->value);
}

const bench_driver bench_peer_protobuf_c = {
    "protobuf-c", pbc_version, pbc_open, free, pbc_worker_new, pbc_worker_free,
    pbc_encode, pbc_decode, pbc_matches, NULL, NULL};
