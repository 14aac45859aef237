/* models_types.c — type descriptors for payloads/models.h.
 *
 * Tags are the field numbers of the tests/data/protobuf .proto files where a .proto
 * exists (Person, Order, MediaContent, NumericStruct), so codec's protobuf
 * bytes are those of protoc; elsewhere 1..N in declaration order. JSON names
 * are those bench_payload_render() writes. The bench spells codec_string as
 * bench_str and the containers with its own macros; the layouts are the
 * same (models.h), and codec_type_check() verifies every member's size. */
#include "models_types.h"

#include "codec/codec.h"

#include <string.h>

#define F(S, m, tag, t) CODEC_FIELD(S, m, tag, t)
#define FN(S, m, name, tag, t) CODEC_FIELD_EX(S, m, name, tag, t, 0)

/* ---- Person, Order (person.proto, order.proto) ------------------------- */

CODEC_STRUCT(person_t, bench_person,
             F(bench_person, name, 1, CODEC_STRING),
             F(bench_person, age, 2, CODEC_INT32),
             F(bench_person, active, 3, CODEC_BOOL),
             F(bench_person, email, 4, CODEC_STRING));

CODEC_STRUCT(line_item_t, bench_line_item,
             F(bench_line_item, sku, 1, CODEC_STRING),
             F(bench_line_item, description, 2, CODEC_STRING),
             F(bench_line_item, quantity, 3, CODEC_INT32),
             FN(bench_line_item, unit_price, "unitPrice", 4, CODEC_DOUBLE));
CODEC_LIST(line_items_t, &line_item_t);
CODEC_STRUCT(order_t, bench_order,
             F(bench_order, id, 1, CODEC_STRING),
             F(bench_order, customer, 2, CODEC_STRING),
             F(bench_order, paid, 3, CODEC_BOOL),
             F(bench_order, items, 4, &line_items_t));

/* ---- MediaItem, MediaContent (media.proto), Struct (struct.proto) ------ */

CODEC_ENUM(player_t, {"JAVA", BENCH_PLAYER_JAVA}, {"FLASH", BENCH_PLAYER_FLASH});
CODEC_ENUM(image_size_t, {"SMALL", BENCH_SIZE_SMALL}, {"LARGE", BENCH_SIZE_LARGE});
CODEC_OPTIONAL(opt_string_t, bench_str, CODEC_STRING);
CODEC_LIST(strings_t, CODEC_STRING);

/* MediaContent's Media; MediaItem's lacks hasBitrate (tag 9 unused, so the
 * other numbers stay those of media.proto). */
#define MEDIA_FIELDS_BEFORE_HAS_BITRATE                                   \
    F(bench_media, uri, 1, CODEC_STRING),                                 \
    F(bench_media, title, 2, &opt_string_t),                              \
    F(bench_media, width, 3, CODEC_INT32),                                \
    F(bench_media, height, 4, CODEC_INT32),                               \
    F(bench_media, format, 5, CODEC_STRING),                              \
    F(bench_media, duration, 6, CODEC_INT64),                             \
    F(bench_media, size, 7, CODEC_INT64),                                 \
    F(bench_media, bitrate, 8, CODEC_INT32)
#define MEDIA_FIELDS_AFTER_HAS_BITRATE                                    \
    F(bench_media, persons, 10, &strings_t),                              \
    F(bench_media, player, 11, &player_t),                                \
    F(bench_media, copyright, 12, &opt_string_t)

CODEC_STRUCT(media_t, bench_media, MEDIA_FIELDS_BEFORE_HAS_BITRATE,
             FN(bench_media, has_bitrate, "hasBitrate", 9, CODEC_BOOL),
             MEDIA_FIELDS_AFTER_HAS_BITRATE);
CODEC_STRUCT(media_item_media_t, bench_media, MEDIA_FIELDS_BEFORE_HAS_BITRATE,
             MEDIA_FIELDS_AFTER_HAS_BITRATE);

CODEC_STRUCT(image_t, bench_image,
             F(bench_image, uri, 1, CODEC_STRING),
             F(bench_image, title, 2, &opt_string_t),
             F(bench_image, width, 3, CODEC_INT32),
             F(bench_image, height, 4, CODEC_INT32),
             F(bench_image, size, 5, &image_size_t));
CODEC_LIST(images_t, &image_t);

CODEC_STRUCT(media_content_t, bench_media_content,
             F(bench_media_content, media, 1, &media_t),
             F(bench_media_content, images, 2, &images_t));
CODEC_STRUCT(media_item_t, bench_media_content,
             F(bench_media_content, media, 1, &media_item_media_t),
             F(bench_media_content, images, 2, &images_t));

CODEC_STRUCT(struct_t, bench_struct,
             F(bench_struct, f1, 1, CODEC_INT32), F(bench_struct, f2, 2, CODEC_INT32),
             F(bench_struct, f3, 3, CODEC_INT64), F(bench_struct, f4, 4, CODEC_INT64),
             F(bench_struct, f5, 5, CODEC_FLOAT), F(bench_struct, f6, 6, CODEC_FLOAT),
             F(bench_struct, f7, 7, CODEC_DOUBLE), F(bench_struct, f8, 8, CODEC_DOUBLE),
             F(bench_struct, f9, 9, CODEC_INT32), F(bench_struct, f10, 10, CODEC_INT32),
             F(bench_struct, f11, 11, CODEC_INT64), F(bench_struct, f12, 12, CODEC_INT64),
             F(bench_struct, f13, 13, CODEC_FLOAT), F(bench_struct, f14, 14, CODEC_FLOAT),
             F(bench_struct, f15, 15, CODEC_DOUBLE), F(bench_struct, f16, 16, CODEC_DOUBLE));

/* ---- Key-value shapes -------------------------------------------------- */

CODEC_STRUCT(kv_bean_t, bench_kv_bean,
             F(bench_kv_bean, id, 1, CODEC_STRING),
             F(bench_kv_bean, name, 2, CODEC_STRING),
             F(bench_kv_bean, count, 3, CODEC_INT32),
             F(bench_kv_bean, created, 4, CODEC_INT64),
             F(bench_kv_bean, enabled, 5, CODEC_BOOL),
             F(bench_kv_bean, score, 6, CODEC_DOUBLE));
CODEC_LIST(int64s_t, CODEC_INT64);
CODEC_MAP(string_map_t, CODEC_STRING, CODEC_STRING);
CODEC_STRUCT(kv_nested_t, bench_kv_nested,
             F(bench_kv_nested, id, 1, CODEC_STRING),
             F(bench_kv_nested, owner, 2, &kv_bean_t),
             F(bench_kv_nested, tags, 3, &strings_t),
             F(bench_kv_nested, history, 4, &int64s_t),
             F(bench_kv_nested, attrs, 5, &string_map_t));
/* kv-strings and kv-bean-map are a bare list and a bare map on the wire
 * (their JSON is `[...]` and `{...}`): their one-member structs have the
 * layout of codec_list / codec_map, so the container type binds them. */
CODEC_MAP(kv_bean_map_t, CODEC_STRING, &kv_bean_t);
_Static_assert(sizeof(bench_kv_strings) == sizeof(codec_list), "kv-strings is a list");
_Static_assert(sizeof(bench_kv_bean_map) == sizeof(codec_map), "kv-bean-map is a map");

/* ---- Users, Clients (java-json-benchmark) ------------------------------ */

CODEC_STRUCT(friend_t, bench_friend,
             F(bench_friend, id, 1, CODEC_STRING),
             F(bench_friend, name, 2, CODEC_STRING));
CODEC_LIST(friends_t, &friend_t);
CODEC_STRUCT(user_t, bench_user,
             F(bench_user, _id, 1, CODEC_STRING),
             F(bench_user, index, 2, CODEC_INT32),
             F(bench_user, guid, 3, CODEC_STRING),
             FN(bench_user, is_active, "isActive", 4, CODEC_BOOL),
             F(bench_user, balance, 5, CODEC_STRING),
             F(bench_user, picture, 6, CODEC_STRING),
             F(bench_user, age, 7, CODEC_INT32),
             FN(bench_user, eye_color, "eyeColor", 8, CODEC_STRING),
             F(bench_user, name, 9, CODEC_STRING),
             F(bench_user, gender, 10, CODEC_STRING),
             F(bench_user, company, 11, CODEC_STRING),
             F(bench_user, email, 12, CODEC_STRING),
             F(bench_user, phone, 13, CODEC_STRING),
             F(bench_user, address, 14, CODEC_STRING),
             F(bench_user, about, 15, CODEC_STRING),
             F(bench_user, registered, 16, CODEC_STRING),
             F(bench_user, latitude, 17, CODEC_DOUBLE),
             F(bench_user, longitude, 18, CODEC_DOUBLE),
             F(bench_user, tags, 19, &strings_t),
             F(bench_user, friends, 20, &friends_t),
             F(bench_user, greeting, 21, CODEC_STRING),
             FN(bench_user, favorite_fruit, "favoriteFruit", 22, CODEC_STRING));
CODEC_LIST(user_list_t, &user_t);
CODEC_STRUCT(users_t, bench_users, F(bench_users, users, 1, &user_list_t));

CODEC_ENUM(eye_color_t, {"BROWN", BENCH_EYE_BROWN}, {"BLUE", BENCH_EYE_BLUE},
           {"GREEN", BENCH_EYE_GREEN});
CODEC_STRUCT(partner_t, bench_partner,
             F(bench_partner, id, 1, CODEC_INT64),
             F(bench_partner, name, 2, CODEC_STRING),
             F(bench_partner, since, 3, CODEC_TIMESTAMP));
CODEC_LIST(partners_t, &partner_t);
CODEC_STRUCT(client_t, bench_client,
             F(bench_client, _id, 1, CODEC_INT64),
             F(bench_client, index, 2, CODEC_INT32),
             F(bench_client, guid, 3, CODEC_UUID),
             FN(bench_client, is_active, "isActive", 4, CODEC_BOOL),
             F(bench_client, balance, 5, CODEC_DECIMAL),
             F(bench_client, picture, 6, CODEC_STRING),
             F(bench_client, age, 7, CODEC_INT32),
             FN(bench_client, eye_color, "eyeColor", 8, &eye_color_t),
             F(bench_client, name, 9, CODEC_STRING),
             F(bench_client, gender, 10, CODEC_STRING),
             F(bench_client, company, 11, CODEC_STRING),
             F(bench_client, emails, 12, &strings_t),
             F(bench_client, phones, 13, &int64s_t),
             F(bench_client, address, 14, CODEC_STRING),
             F(bench_client, about, 15, CODEC_STRING),
             F(bench_client, registered, 16, CODEC_DATE),
             F(bench_client, latitude, 17, CODEC_DOUBLE),
             F(bench_client, longitude, 18, CODEC_DOUBLE),
             F(bench_client, tags, 19, &strings_t),
             F(bench_client, partners, 20, &partners_t));
CODEC_LIST(client_list_t, &client_t);
CODEC_STRUCT(clients_t, bench_clients, F(bench_clients, clients, 1, &client_list_t));

/* ---- twitter.json (the json suite's twitter databind) ------------------ */

CODEC_OPTIONAL(opt_int64_t, int64_t, CODEC_INT64);
CODEC_OPTIONAL(opt_int32_t, int32_t, CODEC_INT32);
CODEC_LIST(indices_t, CODEC_INT32);

CODEC_STRUCT(tw_hashtag_t, bench_tw_hashtag,
             F(bench_tw_hashtag, text, 1, CODEC_STRING),
             F(bench_tw_hashtag, indices, 2, &indices_t));
CODEC_LIST(tw_hashtags_t, &tw_hashtag_t);
CODEC_STRUCT(tw_url_t, bench_tw_url,
             F(bench_tw_url, url, 1, CODEC_STRING),
             F(bench_tw_url, expanded_url, 2, CODEC_STRING),
             F(bench_tw_url, display_url, 3, CODEC_STRING),
             F(bench_tw_url, indices, 4, &indices_t));
CODEC_LIST(tw_urls_t, &tw_url_t);
CODEC_STRUCT(tw_mention_t, bench_tw_mention,
             F(bench_tw_mention, screen_name, 1, CODEC_STRING),
             F(bench_tw_mention, name, 2, CODEC_STRING),
             F(bench_tw_mention, id, 3, CODEC_INT64),
             F(bench_tw_mention, id_str, 4, CODEC_STRING),
             F(bench_tw_mention, indices, 5, &indices_t));
CODEC_LIST(tw_mentions_t, &tw_mention_t);
CODEC_STRUCT(tw_entities_t, bench_tw_entities,
             F(bench_tw_entities, hashtags, 1, &tw_hashtags_t),
             F(bench_tw_entities, urls, 2, &tw_urls_t),
             F(bench_tw_entities, user_mentions, 3, &tw_mentions_t));

CODEC_STRUCT(tw_user_t, bench_tw_user,
             F(bench_tw_user, id, 1, CODEC_INT64),
             F(bench_tw_user, id_str, 2, CODEC_STRING),
             F(bench_tw_user, name, 3, CODEC_STRING),
             F(bench_tw_user, screen_name, 4, CODEC_STRING),
             F(bench_tw_user, location, 5, CODEC_STRING),
             F(bench_tw_user, description, 6, CODEC_STRING),
             F(bench_tw_user, url, 7, &opt_string_t),
             FN(bench_tw_user, protected_, "protected", 8, CODEC_BOOL),
             F(bench_tw_user, followers_count, 9, CODEC_INT32),
             F(bench_tw_user, friends_count, 10, CODEC_INT32),
             F(bench_tw_user, listed_count, 11, CODEC_INT32),
             F(bench_tw_user, created_at, 12, CODEC_STRING),
             F(bench_tw_user, favourites_count, 13, CODEC_INT32),
             F(bench_tw_user, utc_offset, 14, &opt_int32_t),
             F(bench_tw_user, time_zone, 15, &opt_string_t),
             F(bench_tw_user, geo_enabled, 16, CODEC_BOOL),
             F(bench_tw_user, verified, 17, CODEC_BOOL),
             F(bench_tw_user, statuses_count, 18, CODEC_INT32),
             F(bench_tw_user, lang, 19, CODEC_STRING),
             F(bench_tw_user, profile_image_url, 20, CODEC_STRING),
             F(bench_tw_user, profile_image_url_https, 21, CODEC_STRING),
             F(bench_tw_user, default_profile, 22, CODEC_BOOL),
             F(bench_tw_user, following, 23, CODEC_BOOL));

CODEC_STRUCT(tw_metadata_t, bench_tw_metadata,
             F(bench_tw_metadata, result_type, 1, CODEC_STRING),
             F(bench_tw_metadata, iso_language_code, 2, CODEC_STRING));

CODEC_STRUCT(tw_status_t, bench_tw_status,
             F(bench_tw_status, metadata, 1, &tw_metadata_t),
             F(bench_tw_status, created_at, 2, CODEC_STRING),
             F(bench_tw_status, id, 3, CODEC_INT64),
             F(bench_tw_status, id_str, 4, CODEC_STRING),
             F(bench_tw_status, text, 5, CODEC_STRING),
             F(bench_tw_status, source, 6, CODEC_STRING),
             F(bench_tw_status, truncated, 7, CODEC_BOOL),
             F(bench_tw_status, in_reply_to_status_id, 8, &opt_int64_t),
             F(bench_tw_status, in_reply_to_status_id_str, 9, &opt_string_t),
             F(bench_tw_status, in_reply_to_user_id, 10, &opt_int64_t),
             F(bench_tw_status, in_reply_to_user_id_str, 11, &opt_string_t),
             F(bench_tw_status, in_reply_to_screen_name, 12, &opt_string_t),
             F(bench_tw_status, user, 13, &tw_user_t),
             F(bench_tw_status, retweet_count, 14, CODEC_INT32),
             F(bench_tw_status, favorite_count, 15, CODEC_INT32),
             F(bench_tw_status, entities, 16, &tw_entities_t),
             F(bench_tw_status, favorited, 17, CODEC_BOOL),
             F(bench_tw_status, retweeted, 18, CODEC_BOOL),
             F(bench_tw_status, lang, 19, CODEC_STRING));
CODEC_LIST(tw_statuses_t, &tw_status_t);

CODEC_STRUCT(tw_search_metadata_t, bench_tw_search_metadata,
             F(bench_tw_search_metadata, completed_in, 1, CODEC_DOUBLE),
             F(bench_tw_search_metadata, max_id, 2, CODEC_INT64),
             F(bench_tw_search_metadata, max_id_str, 3, CODEC_STRING),
             F(bench_tw_search_metadata, next_results, 4, CODEC_STRING),
             F(bench_tw_search_metadata, query, 5, CODEC_STRING),
             F(bench_tw_search_metadata, refresh_url, 6, CODEC_STRING),
             F(bench_tw_search_metadata, count, 7, CODEC_INT32),
             F(bench_tw_search_metadata, since_id, 8, CODEC_INT64),
             F(bench_tw_search_metadata, since_id_str, 9, CODEC_STRING));
CODEC_STRUCT(twitter_t, bench_twitter,
             F(bench_twitter, statuses, 1, &tw_statuses_t),
             F(bench_twitter, search_metadata, 2, &tw_search_metadata_t));

const codec_type *bench_twitter_type(void)
{
    return &twitter_t;
}

typedef struct model_row {
    const char *model;
    const codec_type *type;
} model_row;

static const model_row MODELS[] = {
    {"bench_person", &person_t},
    {"bench_order", &order_t},
    {"bench_media_content", &media_content_t},
    {"bench_struct", &struct_t},
    {"int64", &codec_type_int64},
    {"string", &codec_type_string},
    {"bench_kv_bean", &kv_bean_t},
    {"bench_kv_nested", &kv_nested_t},
    {"bench_kv_strings", &strings_t},
    {"bench_kv_bean_map", &kv_bean_map_t},
    {"bench_users", &users_t},
    {"bench_clients", &clients_t},
    {"bench_twitter", &twitter_t},
    {"codec_value", &codec_type_value},
};

const codec_type *bench_model_type(const bench_payload *p)
{
    if (!p->model)
        return NULL;
    if (strcmp(p->name, "media-item") == 0)
        return &media_item_t;
    for (size_t i = 0; i < sizeof MODELS / sizeof MODELS[0]; i++)
        if (strcmp(MODELS[i].model, p->model) == 0)
            return MODELS[i].type;
    return NULL;
}
