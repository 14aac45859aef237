/* test_redis_struct.c — a struct across a Redis hash
 * (codec_redis_hset_struct/hget_struct) against a real redis-server started
 * on 127.0.0.1 (tests/redis_server.h): the bytes each hash field holds (JSON
 * text and MessagePack bytes written out from their specifications, read
 * with plain hiredis), round trips, a missing field, a missing hash, a
 * corrupt field, specs that do not suit a field, and a TTL. */
#ifdef CODEC_HAVE_REDIS
#include "redis_server.h" /* first: it needs _GNU_SOURCE */
#endif

#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis_struct: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "codec/redis.h"
#include "codec/types.h"

typedef struct person {
    codec_string name;
    int32_t age;
    bool active;
    CODEC_LIST_OF(codec_string) tags;
    CODEC_OPTIONAL_OF(double) score;
} person;

CODEC_LIST(tags_type, CODEC_STRING);
CODEC_OPTIONAL(score_type, double, CODEC_DOUBLE);
CODEC_STRUCT(person_type, person,
             CODEC_FIELD(person, name, 1, CODEC_STRING),
             CODEC_FIELD(person, age, 2, CODEC_INT32),
             CODEC_FIELD(person, active, 3, CODEC_BOOL),
             CODEC_FIELD(person, tags, 4, &tags_type),
             CODEC_FIELD(person, score, 5, &score_type));

static codec_string TAGS[] = {{"math", 4}, {"engines", 7}};

static person ada(void)
{
    person p = {CODEC_STR("Ada"), 36, true, {TAGS, 2}, {true, 1.5}};
    return p;
}

static void check_person(const person *got, const person *want)
{
    CHECK_MEM(got->name.ptr, got->name.len, want->name.ptr, want->name.len);
    CHECK_INT(got->age, want->age);
    CHECK_INT(got->active, want->active);
    CHECK_INT(got->tags.count, want->tags.count);
    for (size_t i = 0; i < got->tags.count && i < want->tags.count; i++)
        CHECK_MEM(got->tags.items[i].ptr, got->tags.items[i].len, want->tags.items[i].ptr,
                  want->tags.items[i].len);
    CHECK_INT(got->score.has, want->score.has);
    CHECK(got->score.value == want->score.value);
}

/* HGET key field with plain hiredis, compared with the expected bytes. */
static void check_field(redisContext *raw, const char *key, const char *field,
                        const void *want, size_t want_len)
{
    redisReply *r = redisCommand(raw, "HGET %s %s", key, field);
    CHECK(r && r->type == REDIS_REPLY_STRING);
    if (r && r->type == REDIS_REPLY_STRING)
        CHECK_MEM(r->str, (size_t)r->len, want, want_len);
    freeReplyObject(r);
}

static void test_json_fields(codec_redis *r, redisContext *raw, codec_arena *arena)
{
    person in = ada(), out;
    codec_error err = {0};
    CHECK_INT(codec_redis_hset_struct(r, "p:json", 6, &person_type, &in, "json", 0, &err), 0);
    check_field(raw, "p:json", "name", "\"Ada\"", 5);
    check_field(raw, "p:json", "age", "36", 2);
    check_field(raw, "p:json", "active", "true", 4);
    check_field(raw, "p:json", "tags", "[\"math\",\"engines\"]", 18);
    check_field(raw, "p:json", "score", "1.5", 3);
    memset(&out, 0x5a, sizeof out);
    CHECK_INT(codec_redis_hget_struct(r, "p:json", 6, &person_type, &out, "json", arena, &err),
              0);
    check_person(&out, &in);
}

/* MessagePack (msgpack spec): "Ada" is fixstr a3 41 64 61, 36 a positive
 * fixint 0x24, true 0xc3; each field also goes through zstd, so the hash
 * holds zstd frames whose content must be exactly those bytes. */
static void test_msgpack_zstd(codec_redis *r, redisContext *raw, codec_arena *arena)
{
    person in = ada(), out;
    codec_error err = {0};
    CHECK_INT(codec_redis_hset_struct(r, "p:mp", 4, &person_type, &in, "msgpack", 0, &err), 0);
    check_field(raw, "p:mp", "name", "\xa3" "Ada", 4);
    check_field(raw, "p:mp", "age", "\x24", 1);
    check_field(raw, "p:mp", "active", "\xc3", 1);
    CHECK_INT(codec_redis_hset_struct(r, "p:mpz", 5, &person_type, &in, "msgpack | zstd", 0,
                                      &err),
              0);
    redisReply *rep = redisCommand(raw, "HGET p:mpz name");
    CHECK(rep && rep->type == REDIS_REPLY_STRING && rep->len > 4 &&
          memcmp(rep->str, "\x28\xb5\x2f\xfd", 4) == 0); /* the zstd frame magic */
    freeReplyObject(rep);
    CHECK_INT(codec_redis_hget_struct(r, "p:mpz", 5, &person_type, &out, "msgpack | zstd",
                                      arena, &err),
              0);
    check_person(&out, &in);
}

static void test_missing(codec_redis *r, redisContext *raw, codec_arena *arena)
{
    person in = ada(), out;
    codec_error err = {0};
    CHECK_INT(codec_redis_hset_struct(r, "p:miss", 6, &person_type, &in, "json", 0, &err), 0);
    freeReplyObject(redisCommand(raw, "HDEL p:miss age score"));
    memset(&out, 0x5a, sizeof out);
    CHECK_INT(codec_redis_hget_struct(r, "p:miss", 6, &person_type, &out, "json", arena, &err),
              0);
    person want = in;
    want.age = 0;
    want.score.has = false;
    want.score.value = 0;
    check_person(&out, &want);
    CHECK_INT(codec_redis_hget_struct(r, "p:none", 6, &person_type, &out, "json", arena, &err),
              CODEC_E_NOT_FOUND);
}

static void test_corrupt(codec_redis *r, redisContext *raw, codec_arena *arena)
{
    person in = ada(), out;
    codec_error err = {0};
    CHECK_INT(codec_redis_hset_struct(r, "p:bad", 5, &person_type, &in, "json", 0, &err), 0);
    freeReplyObject(redisCommand(raw, "HSET p:bad age x36"));
    CHECK_INT(codec_redis_hget_struct(r, "p:bad", 5, &person_type, &out, "json", arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK(strstr(err.message, "key 'p:bad' field 'age'") != NULL);
    CHECK_STR(err.stage, "json");
    /* a string key is not a hash: WRONGTYPE, and a set writes nothing */
    freeReplyObject(redisCommand(raw, "SET p:str plain"));
    CHECK_INT(codec_redis_hget_struct(r, "p:str", 5, &person_type, &out, "json", arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(codec_redis_hset_struct(r, "p:str", 5, &person_type, &in, "json", 0, &err),
              CODEC_E_INVALID_PAYLOAD);
}

static void test_usage(codec_redis *r, codec_arena *arena)
{
    person in = ada(), out;
    codec_error err = {0};
    /* protobuf encodes messages only: the first field refuses, by name */
    CHECK_INT(codec_redis_hset_struct(r, "p:pb", 4, &person_type, &in, "protobuf", 0, &err),
              CODEC_E_USAGE);
    CHECK(strstr(err.message, "field 'name'") != NULL);
    CHECK_INT(codec_redis_hset_struct(r, "p:x", 3, &person_type, &in, "nosuch", 0, &err),
              CODEC_E_USAGE);
    CHECK_INT(codec_redis_hset_struct(r, "p:x", 3, CODEC_INT32, &in, "json", 0, &err),
              CODEC_E_USAGE);
    CHECK_INT(codec_redis_hget_struct(r, "p:x", 3, &person_type, &out, NULL, arena, &err),
              CODEC_E_USAGE);
    CHECK_INT(codec_redis_hset_struct(NULL, "p:x", 3, &person_type, &in, "json", 0, &err),
              CODEC_E_USAGE);
}

static void test_ttl(codec_redis *r, redisContext *raw)
{
    person in = ada();
    codec_error err = {0};
    CHECK_INT(codec_redis_hset_struct(r, "p:ttl", 5, &person_type, &in, "cbor", 60000, &err),
              0);
    redisReply *rep = redisCommand(raw, "PTTL p:ttl");
    CHECK(rep && rep->type == REDIS_REPLY_INTEGER && rep->integer > 50000 &&
          rep->integer <= 60000);
    freeReplyObject(rep);
    rep = redisCommand(raw, "HLEN p:ttl");
    CHECK(rep && rep->type == REDIS_REPLY_INTEGER && rep->integer == 5);
    freeReplyObject(rep);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* what redis.h asks of a program */
    redis_server server;
    if (!redis_server_start(&server, false)) { /* make test installs redis-server */
        CHECK(!"redis-server started");
        redis_server_stop(&server);
        return check_done("test_redis_struct");
    }
    codec_redis_options o = {0};
    o.port = server.port;
    codec_redis *r = NULL;
    codec_error err = {0};
    CHECK_INT(codec_redis_connect(&o, &r, &err), 0);
    redisContext *raw = redisConnect("127.0.0.1", server.port);
    CHECK(raw && !raw->err);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    if (r && raw && !raw->err) {
        test_json_fields(r, raw, &arena);
        test_msgpack_zstd(r, raw, &arena);
        test_missing(r, raw, &arena);
        test_corrupt(r, raw, &arena);
        test_usage(r, &arena);
        test_ttl(r, raw);
    }
    codec_arena_free(&arena);
    redisFree(raw);
    codec_redis_free(r);
    redis_server_stop(&server);
    return check_done("test_redis_struct");
}
#endif
