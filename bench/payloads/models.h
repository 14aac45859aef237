/* models.h — the benchmark's C value types (PAYLOADS.md sections 2–5).
 *
 * These are plain C structs so that every backend (JSON, protobuf, CBOR,
 * MessagePack, Fory) can bind the same values through type descriptors and
 * be measured on the same work. Conventions, chosen to be describable with
 * offsetof-based descriptors:
 *   - strings are NUL-terminated `const char *`; NULL means "absent"
 *     (only where the model has an optional field, noted below);
 *   - lists are a pointer plus a `size_t` count named <field>_count;
 *   - maps are parallel arrays of keys and values plus a count;
 *   - enums are C enums whose order matches the model's declaration.
 * Every value is built once by payloads.c into an arena and is read only. */
#ifndef BENCH_MODELS_H
#define BENCH_MODELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Backend payloads (PAYLOADS.md §2) ---------------------------------- */

typedef struct bench_person {
    const char *name;
    int32_t age;
    bool active;
    const char *email;
} bench_person;

typedef struct bench_line_item {
    const char *sku;
    const char *description;
    int32_t quantity;
    double unit_price;    /* JSON key "unitPrice" */
} bench_line_item;

typedef struct bench_order {
    const char *id;
    const char *customer;
    bool paid;
    bench_line_item *items;
    size_t items_count;
} bench_order;

/* ---- Classic serializer objects (PAYLOADS.md §4) ------------------------ */

typedef enum bench_player { BENCH_PLAYER_JAVA = 0, BENCH_PLAYER_FLASH = 1 } bench_player;
typedef enum bench_image_size { BENCH_SIZE_SMALL = 0, BENCH_SIZE_LARGE = 1 } bench_image_size;

typedef struct bench_media {
    const char *uri;
    const char *title;       /* optional: NULL = absent */
    int32_t width;
    int32_t height;
    const char *format;
    int64_t duration;
    int64_t size;
    int32_t bitrate;
    bool has_bitrate;        /* JSON key "hasBitrate"; MediaContent only */
    const char **persons;
    size_t persons_count;
    bench_player player;
    const char *copyright;   /* optional: NULL = absent */
} bench_media;

typedef struct bench_image {
    const char *uri;
    const char *title;       /* optional: NULL = absent */
    int32_t width;
    int32_t height;
    bench_image_size size;
} bench_image;

/* MediaItem (jackson) and MediaContent (fory) share this shape; MediaItem's
 * JSON has no "hasBitrate" (see payloads.c). */
typedef struct bench_media_content {
    bench_media media;
    bench_image *images;
    size_t images_count;
} bench_media_content;

typedef struct bench_struct {
    int32_t f1, f2;
    int64_t f3, f4;
    float f5, f6;
    double f7, f8;
    int32_t f9, f10;
    int64_t f11, f12;
    float f13, f14;
    double f15, f16;
} bench_struct;

/* ---- Key-value store shapes (PAYLOADS.md §3) ---------------------------- */

typedef struct bench_kv_bean {       /* the flat six-field bean */
    const char *id;
    const char *name;
    int32_t count;
    int64_t created;
    bool enabled;
    double score;
} bench_kv_bean;

typedef struct bench_kv_nested {     /* a bean graph */
    const char *id;
    bench_kv_bean owner;             /* a bean holding another bean */
    const char **tags;               /* list 1 */
    size_t tags_count;
    int64_t *history;                /* list 2 */
    size_t history_count;
    const char **attr_keys;          /* a map string -> string */
    const char **attr_values;
    size_t attrs_count;
} bench_kv_nested;

typedef struct bench_kv_strings {    /* a list of 1,000 strings */
    const char **items;
    size_t items_count;
} bench_kv_strings;

typedef struct bench_kv_bean_map {   /* a map of 100 beans, string keys */
    const char **keys;
    bench_kv_bean *values;
    size_t count;
} bench_kv_bean_map;

/* ---- java-json-benchmark models (PAYLOADS.md §5) ------------------------ */

typedef struct bench_friend {
    const char *id;          /* a number 0..9999 as a string */
    const char *name;
} bench_friend;

typedef struct bench_user {
    const char *_id;
    int32_t index;
    const char *guid;
    bool is_active;          /* "isActive" */
    const char *balance;
    const char *picture;
    int32_t age;
    const char *eye_color, *name, *gender, *company, *email, *phone, *address,
        *about, *registered;
    double latitude, longitude;
    const char **tags;
    size_t tags_count;
    bench_friend *friends;
    size_t friends_count;
    const char *greeting;
    const char *favorite_fruit;  /* "favoriteFruit" */
} bench_user;

typedef struct bench_users {
    bench_user *users;
    size_t users_count;
} bench_users;

typedef enum bench_eye_color {
    BENCH_EYE_BROWN = 0, BENCH_EYE_BLUE = 1, BENCH_EYE_GREEN = 2
} bench_eye_color;

typedef struct bench_uuid { uint8_t bytes[16]; } bench_uuid;
typedef struct bench_date { int32_t year; uint8_t month, day; } bench_date;
/* An instant with its UTC offset (always 0 here). */
typedef struct bench_timestamp { int64_t epoch_seconds; int32_t offset_minutes; } bench_timestamp;
/* unscaled * 10^-scale */
typedef struct bench_decimal { int64_t unscaled; int32_t scale; } bench_decimal;

typedef struct bench_partner {
    int64_t id;
    const char *name;
    bench_timestamp since;
} bench_partner;

typedef struct bench_client {
    int64_t _id;
    int32_t index;
    bench_uuid guid;
    bool is_active;
    bench_decimal balance;
    const char *picture;
    int32_t age;
    bench_eye_color eye_color;
    const char *name, *gender, *company;
    const char **emails;
    size_t emails_count;
    int64_t *phones;
    size_t phones_count;
    const char *address, *about;
    bench_date registered;
    double latitude, longitude;
    const char **tags;
    size_t tags_count;
    bench_partner *partners;
    size_t partners_count;
} bench_client;

typedef struct bench_clients {
    bench_client *clients;
    size_t clients_count;
} bench_clients;

#endif
