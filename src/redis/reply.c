/* reply.c — what a Redis reply means for one key: the status, the message
 * that names the key, and the decode of a value (whose bytes wire.c read
 * into the caller's arena). */
#include "redis_internal.h"

#include <stdio.h>
#include <string.h>

void codec__redis_subject_text(const redis_subject *s, char *dst, size_t cap)
{
    char key[CODEC_QUOTE_CAP(CODEC_REDIS_KEY_IN_MESSAGE)];
    char field[CODEC_QUOTE_CAP(CODEC_REDIS_KEY_IN_MESSAGE)];
    codec__quote_bytes(key, sizeof key, s->key, s->key_len, CODEC_REDIS_KEY_IN_MESSAGE);
    if (!s->field) {
        snprintf(dst, cap, "key '%s'", key);
        return;
    }
    codec__quote_bytes(field, sizeof field, s->field, s->field_len, CODEC_REDIS_KEY_IN_MESSAGE);
    snprintf(dst, cap, "key '%s' field '%s'", key, field);
}

int codec__redis_reply_unexpected(const redis_reply *reply, const char *what, codec_error *err)
{
    return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_CORRUPT, "redis", CODEC_NO_OFFSET,
                           "%s: unexpected reply of type %d", what, reply->type);
}

/* A server's error text is quoted as it came: codec_error_set() escapes
 * any control byte in it, as in every message. */
int codec__redis_command_error(const redis_reply *reply, const char *what, codec_error *err)
{
    return codec_error_set(err, CODEC_E_TRANSIENT, 0, "redis", CODEC_NO_OFFSET, "%s: %.*s",
                           what, (int)reply->len, reply->str);
}

int codec__redis_reply_error(const redis_reply *reply, const redis_subject *s, codec_error *err)
{
    char label[REDIS_SUBJECT_CAP];
    codec__redis_subject_text(s, label, sizeof label);
    bool wrong_type = reply->len >= 9 && memcmp(reply->str, "WRONGTYPE", 9) == 0;
    return codec_error_set(err, wrong_type ? CODEC_E_INVALID_PAYLOAD : CODEC_E_TRANSIENT,
                           wrong_type ? CODEC_D_BAD_MAGIC : 0, "redis", CODEC_NO_OFFSET,
                           "%s: %.*s", label, (int)reply->len, reply->str);
}

int codec__redis_reply_set(const redis_reply *reply, const redis_subject *s, codec_error *err)
{
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_reply_error(reply, s, err);
    if (reply->type != REDIS_REPLY_STATUS || reply->len != 2 || memcmp(reply->str, "OK", 2))
        return codec__redis_reply_unexpected(reply, "SET", err);
    return CODEC_OK;
}

int codec__redis_reply_del(const redis_reply *reply, const redis_subject *s, int *removed,
                           codec_error *err)
{
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_reply_error(reply, s, err);
    if (reply->type != REDIS_REPLY_INTEGER)
        return codec__redis_reply_unexpected(reply, "DEL", err);
    if (removed)
        *removed = reply->integer > 0;
    return CODEC_OK;
}

/* Puts "key 'NAME': " in front of a decoder's message, keeping its family,
 * detail, stage and offset. */
int codec__redis_name_subject(int rc, const redis_subject *s, codec_error *err)
{
    if (!err)
        return rc;
    char label[REDIS_SUBJECT_CAP];
    char message[sizeof err->message];
    codec__redis_subject_text(s, label, sizeof label);
    memcpy(message, err->message, sizeof message);
    int w = snprintf(err->message, sizeof err->message, "%s: ", label);
    size_t used = w > 0 && (size_t)w < sizeof err->message ? (size_t)w : 0;
    size_t room = sizeof err->message - 1 - used;   /* a long message loses its tail */
    size_t len = strnlen(message, room);
    memcpy(err->message + used, message, len);
    err->message[used + len] = '\0';
    return rc;
}

int codec__redis_reply_get(const redis_reply *reply, const redis_subject *s, const codec *c,
                           void *value_out, codec_arena *arena, codec_error *err)
{
    char label[REDIS_SUBJECT_CAP];
    if (reply->type == REDIS_REPLY_NIL) {
        codec__redis_subject_text(s, label, sizeof label);
        return codec_error_set(err, CODEC_E_NOT_FOUND, 0, "redis", CODEC_NO_OFFSET,
                               "%s not found", label);
    }
    if (reply->type == REDIS_REPLY_ERROR)
        return codec__redis_reply_error(reply, s, err);
    if (reply->type != REDIS_REPLY_STRING)
        return codec__redis_reply_unexpected(reply, "GET", err);
    int rc = codec_decode(c, (const uint8_t *)reply->str, reply->len, value_out, arena, err);
    return rc ? codec__redis_name_subject(rc, s, err) : CODEC_OK;
}
