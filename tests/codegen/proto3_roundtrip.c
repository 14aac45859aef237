/* proto3_roundtrip.c — the C side of the differential test against Google's
 * protobuf (proto3_differential.py): decodes each input with the code
 * codec-gen generated from test_messages_proto3.proto and encodes it again.
 *
 *   proto3_roundtrip IN OUT
 *
 * IN holds records [u32 little-endian length][bytes]. For each, OUT gets
 * either 0x00 [u32 length][codec's re-encoding], or 0x01 [u32 family]
 * [u32 detail][u64 offset][u32 length][message] when decoding fails. */
#include "test_messages_proto3.codec.h"

#include <codec/codec.h>

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
    codec *c = codec_parse("protobuf", &protobuf_test_messages_proto3_TestAllTypesProto3_type, &err);
    if (!c) {
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
    if (fclose(out)) {
        perror("close");
        return 2;
    }
    fclose(in);
    fprintf(stderr, "proto3_roundtrip: %zu records\n", records);
    return 0;
}
