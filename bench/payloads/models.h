/* models.h — the benchmark's C value types (PAYLOADS.md sections 2–5).
 *
 * Plain C structs, so that every backend (JSON, protobuf, CBOR, MessagePack,
 * Fory) can bind the same values through type descriptors and be measured
 * on the same work. The members use the C layouts that codec's type layer
 * prescribes for each kind (codec/types.h):
 *   string    bench_str = { const char *ptr; size_t len; }   (= codec_string;
 *             the bench also NUL-terminates, for printing)
 *   list      BENCH_LIST_OF(T) = { T *items; size_t count; }  (= CODEC_LIST_OF)
 *   map       BENCH_MAP_OF(K, V) = { K *keys; V *values; size_t count; }
 *   optional  BENCH_OPTIONAL_OF(T) = { bool has; T value; }
 *   enum      a C enum (int32-sized), numbered in declaration order
 *   uuid      16 bytes; date: int32 days since 1970-01-01;
 *   timestamp { int64 seconds; int32 nanos; int32 offset_minutes; }
 *   decimal   its exact text, as a string
 * The bench spells them with its own names because it builds without the
 * type layer; they are layout-identical, so descriptors bind these structs
 * as they are. Values are built once by payloads.c and are read only. */
#ifndef BENCH_MODELS_H
#define BENCH_MODELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bench_str {
    const char *ptr;
    size_t len;
} bench_str;

#define BENCH_LIST_OF(T) struct { T *items; size_t count; }
#define BENCH_MAP_OF(K, V) struct { K *keys; V *values; size_t count; }
#define BENCH_OPTIONAL_OF(T) struct { bool has; T value; }

typedef struct bench_uuid { uint8_t bytes[16]; } bench_uuid;
typedef struct bench_date { int32_t days; } bench_date;
typedef struct bench_timestamp {
    int64_t seconds;
    int32_t nanos;
    int32_t offset_minutes;
} bench_timestamp;

/* ---- Backend payloads (PAYLOADS.md §2) ---------------------------------- */

typedef struct bench_person {
    bench_str name;
    int32_t age;
    bool active;
    bench_str email;
} bench_person;

typedef struct bench_line_item {
    bench_str sku;
    bench_str description;
    int32_t quantity;
    double unit_price;    /* JSON key "unitPrice" */
} bench_line_item;

typedef struct bench_order {
    bench_str id;
    bench_str customer;
    bool paid;
    BENCH_LIST_OF(bench_line_item) items;
} bench_order;

/* ---- Classic serializer objects (PAYLOADS.md §4) ------------------------ */

typedef enum bench_player { BENCH_PLAYER_JAVA = 0, BENCH_PLAYER_FLASH = 1 } bench_player;
typedef enum bench_image_size { BENCH_SIZE_SMALL = 0, BENCH_SIZE_LARGE = 1 } bench_image_size;

typedef BENCH_OPTIONAL_OF(bench_str) bench_opt_str;

typedef struct bench_media {
    bench_str uri;
    bench_opt_str title;
    int32_t width;
    int32_t height;
    bench_str format;
    int64_t duration;
    int64_t size;
    int32_t bitrate;
    bool has_bitrate;        /* JSON key "hasBitrate"; MediaContent only */
    BENCH_LIST_OF(bench_str) persons;
    bench_player player;
    bench_opt_str copyright;
} bench_media;

typedef struct bench_image {
    bench_str uri;
    bench_opt_str title;
    int32_t width;
    int32_t height;
    bench_image_size size;
} bench_image;

/* MediaItem (jackson) and MediaContent (fory) share this shape; MediaItem's
 * JSON has no "hasBitrate" (see payloads.c). */
typedef struct bench_media_content {
    bench_media media;
    BENCH_LIST_OF(bench_image) images;
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
    bench_str id;
    bench_str name;
    int32_t count;
    int64_t created;
    bool enabled;
    double score;
} bench_kv_bean;

typedef struct bench_kv_nested {     /* a bean graph */
    bench_str id;
    bench_kv_bean owner;                       /* a bean holding another bean */
    BENCH_LIST_OF(bench_str) tags;             /* list 1 */
    BENCH_LIST_OF(int64_t) history;            /* list 2 */
    BENCH_MAP_OF(bench_str, bench_str) attrs;  /* a map */
} bench_kv_nested;

typedef struct bench_kv_strings {    /* a list of strings */
    BENCH_LIST_OF(bench_str) items;
} bench_kv_strings;

typedef struct bench_kv_bean_map {   /* a map of beans, string keys */
    BENCH_MAP_OF(bench_str, bench_kv_bean) beans;
} bench_kv_bean_map;

/* ---- java-json-benchmark models (PAYLOADS.md §5) ------------------------ */

typedef struct bench_friend {
    bench_str id;            /* a number 0..9999 as a string */
    bench_str name;
} bench_friend;

typedef struct bench_user {
    bench_str _id;
    int32_t index;
    bench_str guid;
    bool is_active;          /* "isActive" */
    bench_str balance;
    bench_str picture;
    int32_t age;
    bench_str eye_color, name, gender, company, email, phone, address, about, registered;
    double latitude, longitude;
    BENCH_LIST_OF(bench_str) tags;
    BENCH_LIST_OF(bench_friend) friends;
    bench_str greeting;
    bench_str favorite_fruit;  /* "favoriteFruit" */
} bench_user;

typedef struct bench_users {
    BENCH_LIST_OF(bench_user) users;
} bench_users;

typedef enum bench_eye_color {
    BENCH_EYE_BROWN = 0, BENCH_EYE_BLUE = 1, BENCH_EYE_GREEN = 2
} bench_eye_color;

typedef struct bench_partner {
    int64_t id;
    bench_str name;
    bench_timestamp since;
} bench_partner;

typedef struct bench_client {
    int64_t _id;
    int32_t index;
    bench_uuid guid;
    bool is_active;
    bench_str balance;       /* a decimal: exact text such as "123456.78" */
    bench_str picture;
    int32_t age;
    bench_eye_color eye_color;
    bench_str name, gender, company;
    BENCH_LIST_OF(bench_str) emails;
    BENCH_LIST_OF(int64_t) phones;
    bench_str address, about;
    bench_date registered;
    double latitude, longitude;
    BENCH_LIST_OF(bench_str) tags;
    BENCH_LIST_OF(bench_partner) partners;
} bench_client;

typedef struct bench_clients {
    BENCH_LIST_OF(bench_client) clients;
} bench_clients;

/* ---- twitter.json bound to structs (the json suite's twitter databind) ---
 * The members a client of the search API would read; the rest of each
 * status (retweeted_status, the user's profile colours, entities.media...)
 * is in the document but not in the model, so a decoder skips it. Members
 * that are null in some statuses are optionals. */

typedef BENCH_OPTIONAL_OF(int64_t) bench_opt_i64;
typedef BENCH_OPTIONAL_OF(int32_t) bench_opt_i32;
typedef BENCH_LIST_OF(int32_t) bench_indices;   /* [start, end] */

typedef struct bench_tw_hashtag {
    bench_str text;
    bench_indices indices;
} bench_tw_hashtag;

typedef struct bench_tw_url {
    bench_str url, expanded_url, display_url;
    bench_indices indices;
} bench_tw_url;

typedef struct bench_tw_mention {
    bench_str screen_name, name;
    int64_t id;
    bench_str id_str;
    bench_indices indices;
} bench_tw_mention;

typedef struct bench_tw_entities {
    BENCH_LIST_OF(bench_tw_hashtag) hashtags;
    BENCH_LIST_OF(bench_tw_url) urls;
    BENCH_LIST_OF(bench_tw_mention) user_mentions;
} bench_tw_entities;

typedef struct bench_tw_user {
    int64_t id;
    bench_str id_str, name, screen_name, location, description;
    bench_opt_str url;
    bool protected_;         /* "protected" */
    int32_t followers_count, friends_count, listed_count;
    bench_str created_at;
    int32_t favourites_count;
    bench_opt_i32 utc_offset;
    bench_opt_str time_zone;
    bool geo_enabled, verified;
    int32_t statuses_count;
    bench_str lang, profile_image_url, profile_image_url_https;
    bool default_profile, following;
} bench_tw_user;

typedef struct bench_tw_metadata {
    bench_str result_type, iso_language_code;
} bench_tw_metadata;

typedef struct bench_tw_status {
    bench_tw_metadata metadata;
    bench_str created_at;
    int64_t id;
    bench_str id_str, text, source;
    bool truncated;
    bench_opt_i64 in_reply_to_status_id;
    bench_opt_str in_reply_to_status_id_str;
    bench_opt_i64 in_reply_to_user_id;
    bench_opt_str in_reply_to_user_id_str, in_reply_to_screen_name;
    bench_tw_user user;
    int32_t retweet_count, favorite_count;
    bench_tw_entities entities;
    bool favorited, retweeted;
    bench_str lang;
} bench_tw_status;

typedef struct bench_tw_search_metadata {
    double completed_in;
    int64_t max_id;
    bench_str max_id_str, next_results, query, refresh_url;
    int32_t count;
    int64_t since_id;
    bench_str since_id_str;
} bench_tw_search_metadata;

typedef struct bench_twitter {
    BENCH_LIST_OF(bench_tw_status) statuses;
    bench_tw_search_metadata search_metadata;
} bench_twitter;

#endif
