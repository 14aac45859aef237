/* proto3_roundtrip.c — the C side of the differential test against Google's
 * protobuf (proto3_differential.py): decodes each input with the code
 * codec-gen generated from test_messages_proto3.proto and encodes it again.
 *
 *   proto3_roundtrip IN OUT
 *
 * IN holds records [u32 little-endian length][bytes]. For each, OUT gets
 * either 0x00 [u32 length][codec's re-encoding], or 0x01 [u32 family]
 * [u32 detail][u64 offset][u32 length][message] when decoding fails.
 *
 * The code is generated with `specialize=1`: the type carries straight-line
 * encode and decode functions (codec/codegen.h) and the codec runs them.
 * Every record also goes through the descriptor path
 * (`protobuf:codegen=off`) and the two must agree exactly: the same
 * acceptance, the same error (family, detail, offset, message), the same
 * bytes from each path's encoder of each path's decoded value (four
 * encodings); exit status 3 (and the record) when they do not. */
#include "test_messages_proto3.codec.h"
#include "../two_paths.h"

#include <codec/codec.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef protobuf_test_messages_proto3_TestAllTypesProto3 msg;

static void put(FILE *f, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, f) != n) {
        perror("write");
        exit(2);
    }
}

static void put_u32(FILE *f, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(f, b, 4);
}

static codec_error err2;

/* Encodes m with c into b (cleared first). */
static int encode_with(codec *c, const msg *m, codec_buf *b)
{
    codec_buf_clear(b);
    return codec_encode(c, m, b, &err2);
}

static void mismatch(size_t record, const char *what)
{
    fprintf(stderr, "proto3_roundtrip: record %zu: specialized and descriptor paths differ: %s\n",
            record, what);
    exit(3);
}

/* The descriptor path on the same input: the same outcome as the specialized
 * one (rc, err, m, buf). */
static void compare_paths(codec *c, codec *plain, const uint8_t *data, size_t n, int rc,
                          const codec_error *err, const msg *m, codec_arena *arena,
                          size_t record)
{
    msg m2;
    codec_error e2;
    int rc2 = codec_decode(plain, data, n, &m2, arena, &e2);
    if (!rc != !rc2)
        mismatch(record, "one accepts, the other refuses");
    if (rc) {
        if (err->family != e2.family || err->detail != e2.detail || err->offset != e2.offset ||
            strcmp(err->message, e2.message) != 0)
            mismatch(record, "different errors");
        return;
    }
    codec_buf b[4];
    for (int i = 0; i < 4; i++)
        codec_buf_init(&b[i], NULL);
    int r0 = encode_with(c, m, &b[0]), r1 = encode_with(plain, &m2, &b[1]),
        r2 = encode_with(plain, m, &b[2]), r3 = encode_with(c, &m2, &b[3]);
    if (r0 != r1 || r0 != r2 || r0 != r3)
        mismatch(record, "encoding succeeds on one path only");
    if (!two_paths_same(&b[0], &b[1]) || !two_paths_same(&b[0], &b[2]) ||
        !two_paths_same(&b[0], &b[3]))
        mismatch(record, "different bytes");
    for (int i = 0; i < 4; i++)
        codec_buf_free(&b[i]);
}

static void put_u64(FILE *f, uint64_t v)
{
    put_u32(f, (uint32_t)v);
    put_u32(f, (uint32_t)(v >> 32));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: proto3_roundtrip IN OUT\n", stderr);
        return 2;
    }
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    if (!in || !out) {
        perror("open");
        return 2;
    }
    codec_error err;
    if (!protobuf_test_messages_proto3_TestAllTypesProto3_type.codegen) {
        fputs("proto3_roundtrip: the type has no specialized code (generate with specialize=1)\n",
              stderr);
        return 2;
    }
    codec *c = codec_parse("protobuf", &protobuf_test_messages_proto3_TestAllTypesProto3_type, &err);
    codec *plain = codec_parse("protobuf:codegen=off",
                               &protobuf_test_messages_proto3_TestAllTypesProto3_type, &err);
    if (!c || !plain) {
        char m[300];
        fprintf(stderr, "codec_parse: %s\n", codec_error_format(&err, m, sizeof m));
        return 2;
    }
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_buf buf;
    codec_buf_init(&buf, NULL);
    uint8_t len_bytes[4];
    size_t records = 0;
    while (fread(len_bytes, 1, 4, in) == 4) {
        uint32_t n = len_bytes[0] | len_bytes[1] << 8 | len_bytes[2] << 16 | (uint32_t)len_bytes[3] << 24;
        uint8_t *data = malloc(n ? n : 1);
        if (!data || fread(data, 1, n, in) != n) {
            fputs("short input\n", stderr);
            return 2;
        }
        msg m;
        codec_buf_clear(&buf);
        int rc = codec_decode(c, data, n, &m, &arena, &err);
        compare_paths(c, plain, data, n, rc, &err, &m, &arena, records);
        if (!rc)
            rc = codec_encode(c, &m, &buf, &err);
        if (!rc) {
            put(out, "\0", 1);
            put_u32(out, (uint32_t)buf.len);
            put(out, buf.data, buf.len);
        } else {
            put(out, "\1", 1);
            put_u32(out, (uint32_t)err.family);
            put_u32(out, (uint32_t)err.detail);
            put_u64(out, err.offset);
            put_u32(out, (uint32_t)strlen(err.message));
            put(out, err.message, strlen(err.message));
        }
        codec_arena_reset(&arena);
        free(data);
        records++;
    }
    codec_buf_free(&buf);
    codec_arena_free(&arena);
    codec_free(c);
    codec_free(plain);
    if (fclose(out)) {
        perror("close");
        return 2;
    }
    fclose(in);
    fprintf(stderr, "proto3_roundtrip: %zu records\n", records);
    return 0;
}
