/* json_payloads.h — the Person and Order payloads of PAYLOADS.md (with
 * nextDouble() on top of the java.util.Random of compress_payload.h) and a
 * recursive tree type, shared by the type and JSON tests. */
#ifndef CODEC_TEST_JSON_PAYLOADS_H
#define CODEC_TEST_JSON_PAYLOADS_H

#include <math.h>
#include <stdio.h>

#include "codec/codec.h"
#include "compress_payload.h"   /* java_random */

/* java.util.Random.nextDouble(). */
static inline double jr_double(java_random *r)
{
    return (double)(((int64_t)java_random_next(r, 26) << 27) + java_random_next(r, 27)) *
           0x1.0p-53;
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

/* A recursive type: a tree through a list of itself. */
typedef struct node {
    int32_t value;
    CODEC_LIST_OF(struct node) children;
} node;
static const codec_type node_type;
CODEC_LIST(node_list_type, &node_type);
CODEC_STRUCT(node_type, node,
             CODEC_FIELD(node, value, 1, CODEC_INT32),
             CODEC_FIELD(node, children, 2, &node_list_type));

static inline person payload_person(void)
{
    return (person){CODEC_STR("Ada Lovelace"), 36, true, CODEC_STR("ada@example.com")};
}

/* Text storage for the 100 items lives in `text` (at least 100 * 48 bytes). */
static inline order payload_order(line_item items[100], char *text)
{
    java_random r;
    java_random_seed(&r, 99);
    for (int i = 0; i < 100; i++) {
        char *sku = text;
        int n = sprintf(sku, "SKU-%d", 10000 + java_random_int(&r, 90000));
        items[i].sku = (codec_string){sku, (size_t)n};
        text += n + 1;
        char letter = (char)('A' + java_random_int(&r, 26));
        int size = java_random_int(&r, 50);
        n = sprintf(text, "Widget model %c size %d", letter, size);
        items[i].description = (codec_string){text, (size_t)n};
        text += n + 1;
        items[i].quantity = 1 + java_random_int(&r, 20);
        items[i].unit_price = floor(jr_double(&r) * 10000 + 0.5) / 100.0;
    }
    order o = {CODEC_STR("ord-2026-000123"), CODEC_STR("Ada Lovelace"), true, {items, 100}};
    return o;
}

#endif
