/* test_redis_reply.c — what each kind of Redis reply means for one key
 * (src/redis/reply.c), with replies built here rather than by a server, so
 * the replies a well-behaved server never sends are covered too: error
 * replies (WRONGTYPE is the key's fault, others are transient), replies of
 * an unexpected type, a decoder's error named after its key, and how keys
 * are printed. (Bounds on what a server sends are wire.c's, tested against
 * a hostile server in test_redis.) */
#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis_reply: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "redis/redis_internal.h"

static redis_reply reply_of(int type, const char *str)
{
    redis_reply r = {.type = type};
    if (str)
        r.str = (char *)str, r.len = strlen(str);
    return r;
}

static const redis_subject subject = {"user:1", 6, NULL, 0};

static void test_set_and_del(void)
{
    codec_error err;
    redis_reply ok = reply_of(REDIS_REPLY_STATUS, "OK"), queued = reply_of(REDIS_REPLY_STATUS, "QUEUED"),
               wrong = reply_of(REDIS_REPLY_ERROR, "WRONGTYPE Operation against a key"),
               oom = reply_of(REDIS_REPLY_ERROR, "OOM command not allowed"),
               one = reply_of(REDIS_REPLY_INTEGER, NULL), text = reply_of(REDIS_REPLY_STRING, "1");
    one.integer = 1;
    CHECK_INT(codec__redis_reply_set(&ok, &subject, &err), CODEC_OK);
    CHECK_INT(codec__redis_reply_set(&queued, &subject, &err), CODEC_E_TRANSIENT);
    CHECK_INT(err.detail, CODEC_D_CORRUPT);
    CHECK(strstr(err.message, "SET: unexpected reply") != NULL);
    CHECK_INT(codec__redis_reply_set(&one, &subject, &err), CODEC_E_TRANSIENT);
    CHECK_INT(codec__redis_reply_set(&wrong, &subject, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.detail, CODEC_D_BAD_MAGIC);
    CHECK_STR(err.message, "key 'user:1': WRONGTYPE Operation against a key");
    CHECK_INT(codec__redis_reply_set(&oom, &subject, &err), CODEC_E_TRANSIENT);
    CHECK_INT(err.detail, 0);
    int removed = -1;
    CHECK_INT(codec__redis_reply_del(&one, &subject, &removed, &err), CODEC_OK);
    CHECK_INT(removed, 1);
    one.integer = 0;
    CHECK_INT(codec__redis_reply_del(&one, &subject, &removed, &err), CODEC_OK);
    CHECK_INT(removed, 0);
    CHECK_INT(codec__redis_reply_del(&one, &subject, NULL, &err), CODEC_OK);
    CHECK_INT(codec__redis_reply_del(&wrong, &subject, &removed, &err), CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(codec__redis_reply_del(&text, &subject, &removed, &err), CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "DEL: unexpected reply") != NULL);
}

static void test_get(void)
{
    codec_error err;
    codec *c = codec_parse("json", CODEC_INT32, &err);
    CHECK(c != NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    int32_t v = 0;
    redis_reply value = reply_of(REDIS_REPLY_STRING, "1234"),
               bad = reply_of(REDIS_REPLY_STRING, "12x"), nil = reply_of(REDIS_REPLY_NIL, NULL),
               wrong = reply_of(REDIS_REPLY_ERROR, "WRONGTYPE Operation against a key"),
               status = reply_of(REDIS_REPLY_STATUS, "OK");
    CHECK_INT(codec__redis_reply_get(&value, &subject, c, &v, &arena, &err), CODEC_OK);
    CHECK_INT(v, 1234);
    CHECK_INT(codec__redis_reply_get(&nil, &subject, c, &v, &arena, &err), CODEC_E_NOT_FOUND);
    CHECK_STR(err.message, "key 'user:1' not found");
    CHECK_INT(codec__redis_reply_get(&wrong, &subject, c, &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(codec__redis_reply_get(&status, &subject, c, &v, &arena, &err),
              CODEC_E_TRANSIENT);
    CHECK(strstr(err.message, "GET: unexpected reply") != NULL);
    /* A decoder's error keeps its family, detail and offset, named after the key. */
    CHECK_INT(codec__redis_reply_get(&bad, &subject, c, &v, &arena, &err),
              CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(err.offset, 2);
    CHECK(strncmp(err.message, "key 'user:1': ", 14) == 0 && strlen(err.message) > 14);
    codec_arena_free(&arena);
    codec_free(c);
}

static void test_subject_text(void)
{
    char out[REDIS_SUBJECT_CAP];
    redis_subject hostile = {"a'b\\c\n\xff", 7, "f", 1};
    codec__redis_subject_text(&hostile, out, sizeof out);
    CHECK_STR(out, "key 'a\\x27b\\x5cc\\x0a\\xff' field 'f'");
    char longkey[100];
    memset(longkey, 'k', sizeof longkey);
    redis_subject cut = {longkey, sizeof longkey, NULL, 0};
    codec__redis_subject_text(&cut, out, sizeof out);
    CHECK_INT(strlen(out), 5 + CODEC_REDIS_KEY_IN_MESSAGE + 3 + 1);
    CHECK(strcmp(out + strlen(out) - 4, "...'") == 0);
    char tiny[8];
    codec__redis_subject_text(&cut, tiny, sizeof tiny);
    CHECK(strlen(tiny) < sizeof tiny);
}

int main(void)
{
    test_set_and_del();
    test_get();
    test_subject_text();
    return check_done("test_redis_reply");
}
#endif
