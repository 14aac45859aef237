/* json_payloads.h — the Person and Order payloads of PAYLOADS.md, and the
 * java.util.Random they are drawn with (shared by the JSON tests). */
#ifndef CODEC_TEST_JSON_PAYLOADS_H
#define CODEC_TEST_JSON_PAYLOADS_H

#include <math.h>
#include <stdio.h>

#include "codec/codec.h"

typedef struct java_random {
    uint64_t state;
} java_random;

static inline void jr_seed(java_random *r, uint64_t s)
{
    r->state = (s ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1);
}

static inline int32_t jr_next(java_random *r, int bits)
{
    r->state = (r->state * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
    return (int32_t)(r->state >> (48 - bits));
}

static inline int32_t jr_int(java_random *r, int32_t bound)
{
    if ((bound & -bound) == bound)
        return (int32_t)(((int64_t)bound * jr_next(r, 31)) >> 31);
    int32_t bits, val;
    do {
        bits = jr_next(r, 31);
        val = bits % bound;
    } while ((int32_t)((uint32_t)bits - (uint32_t)val + (uint32_t)(bound - 1)) < 0);
    return val;
}

static inline double jr_double(java_random *r)
{
    return (double)(((int64_t)jr_next(r, 26) << 27) + jr_next(r, 27)) * 0x1.0p-53;
}

typedef struct person {
    codec_string name;
    int32_t age;
    bool active;
    codec_string email;
} person;

CODEC_STRUCT(person_type, person,
             CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD(person, age, 2, CODEC_INT32),
             CODEC_FIELD(person, active, 3, CODEC_BOOL),
             CODEC_FIELD(person, email, 4, CODEC_STRING));

typedef struct line_item {
    codec_string sku;
    codec_string description;
    int32_t quantity;
    double unit_price;
} line_item;

CODEC_STRUCT(line_item_type, line_item,
             CODEC_FIELD(line_item, sku, 1, CODEC_STRING),
             CODEC_FIELD(line_item, description, 2, CODEC_STRING),
             CODEC_FIELD(line_item, quantity, 3, CODEC_INT32),
             CODEC_FIELD_EX(line_item, unit_price, "unitPrice", 4, CODEC_DOUBLE, 0));

typedef struct order {
    codec_string id;
    codec_string customer;
    bool paid;
    CODEC_LIST_OF(line_item) items;
} order;

CODEC_LIST(line_items_type, &line_item_type);
CODEC_STRUCT(order_type, order,
             CODEC_FIELD(order, id, 1, CODEC_STRING),
             CODEC_FIELD(order, customer, 2, CODEC_STRING),
             CODEC_FIELD(order, paid, 3, CODEC_BOOL),
             CODEC_FIELD(order, items, 4, &line_items_type));

static inline person payload_person(void)
{
    return (person){CODEC_STR("Ada Lovelace"), 36, true, CODEC_STR("ada@example.com")};
}

/* Text storage for the 100 items lives in `text` (at least 100 * 48 bytes). */
static inline order payload_order(line_item items[100], char *text)
{
    java_random r;
    jr_seed(&r, 99);
    for (int i = 0; i < 100; i++) {
        char *sku = text;
        int n = sprintf(sku, "SKU-%d", 10000 + jr_int(&r, 90000));
        items[i].sku = (codec_string){sku, (size_t)n};
        text += n + 1;
        char letter = (char)('A' + jr_int(&r, 26));
        int size = jr_int(&r, 50);
        n = sprintf(text, "Widget model %c size %d", letter, size);
        items[i].description = (codec_string){text, (size_t)n};
        text += n + 1;
        items[i].quantity = 1 + jr_int(&r, 20);
        items[i].unit_price = floor(jr_double(&r) * 10000 + 0.5) / 100.0;
    }
    order o = {CODEC_STR("ord-2026-000123"), CODEC_STR("Ada Lovelace"), true, {items, 100}};
    return o;
}

#endif
