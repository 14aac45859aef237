/* pipeline.c — build a bytes pipeline from a spec, encode, decode, compare.
 * Build: cc pipeline.c $(pkg-config --cflags --libs codec) */
#include <codec/codec.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "zstd:3 | crc32c | base64";
    const char *text = "hello, codec";

    codec_error err;
    codec *c = codec_parse(spec, NULL, &err);
    if (!c) {
        char line[256];
        fprintf(stderr, "codec: %s\n", codec_error_format(&err, line, sizeof line));
        return 2;
    }

    codec_buf out;                      /* reuse across calls: no allocation */
    codec_buf_init(&out, NULL);
    codec_bytes in = {(const uint8_t *)text, strlen(text)};
    if (codec_encode(c, &in, &out, &err) != CODEC_OK)
        return 1;
    printf("%s -> %zu bytes\n", codec_spec(c), out.len);

    codec_arena arena;                  /* decoded bytes live here */
    codec_arena_init(&arena, NULL, 0);
    codec_bytes back;
    int rc = codec_decode(c, out.data, out.len, &back, &arena, &err);
    int same = rc == CODEC_OK && back.len == in.len && memcmp(back.data, in.data, in.len) == 0;
    printf("round trip: %s\n", same ? "ok" : "FAILED");

    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    return same ? 0 : 1;
}
