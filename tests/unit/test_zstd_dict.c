/* test_zstd_dict.c — codec_zstd_train_dict(): the dictionary is one that
 * libzstd and the zstd command-line tool accept, and it pays off on small
 * values; too few or unusable samples are a clear usage error. */
#include "check.h"
#include "codec/codec.h"
#include "codec/zstd_dict.h"

#include <unistd.h>
#include <zdict.h>
#include <zstd.h>

#define SAMPLES 2000

static char texts[SAMPLES][200];
static codec_bytes samples[SAMPLES];

static void make_samples(void)
{
    static const char *status[] = {"NEW", "PAID", "SHIPPED", "CANCELLED"};
    uint64_t s = 42;
    for (int i = 0; i < SAMPLES; i++) {
        int n = snprintf(texts[i], sizeof texts[i],
                         "{\"id\":%d,\"customer\":\"cust-%05u\",\"status\":\"%s\","
                         "\"total\":{\"amount\":\"%u.%02u\",\"currency\":\"EUR\"},"
                         "\"items\":%u}",
                         i, (unsigned)(check_rand(&s) % 100000), status[check_rand(&s) % 4],
                         (unsigned)(check_rand(&s) % 1000), (unsigned)(check_rand(&s) % 100),
                         (unsigned)(check_rand(&s) % 9 + 1));
        samples[i] = (codec_bytes){(const uint8_t *)texts[i], (size_t)n};
    }
}

/* Compressed size of one sample at level 3, with or without the dictionary. */
static size_t compressed(const codec_buf *dict, const codec_bytes *v)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    uint8_t dst[512];
    size_t n = dict ? ZSTD_compress_usingDict(c, dst, sizeof dst, v->data, v->len, dict->data,
                                              dict->len, 3)
                    : ZSTD_compressCCtx(c, dst, sizeof dst, v->data, v->len, 3);
    ZSTD_freeCCtx(c);
    CHECK(!ZSTD_isError(n));
    return n;
}

static void test_train(void)
{
    codec_buf dict;
    codec_buf_init(&dict, NULL);
    codec_error err = {0};
    int rc = codec_zstd_train_dict(samples, SAMPLES, 4096, &dict, &err);
    if (rc)
        fprintf(stderr, "train: %s\n", err.message);
    CHECK_INT(rc, 0);
    CHECK(dict.len > 0 && dict.len <= 4096);
    CHECK(dict.len >= 8 && dict.data[0] == 0x37 && dict.data[1] == 0xA4 &&
          dict.data[2] == 0x30 && dict.data[3] == 0xEC);   /* ZSTD_MAGIC_DICTIONARY, LE */
    CHECK(ZDICT_getDictID(dict.data, dict.len) != 0);

    size_t plain = 0, with = 0;
    for (int i = 0; i < 100; i++) {
        plain += compressed(NULL, &samples[i]);
        with += compressed(&dict, &samples[i]);
    }
    printf("100 samples at level 3: %zu bytes plain, %zu with a %zu-byte dictionary\n", plain,
           with, dict.len);
    CHECK(with * 2 < plain);

    /* The zstd command-line tool takes the dictionary: compress with -D,
     * decompress with -D, same bytes. */
    char dir[] = "/tmp/codec-dict-XXXXXX";
    if (mkdtemp(dir) && access("/usr/bin/zstd", X_OK) == 0) {
        char path[128], cmd[512];
        snprintf(path, sizeof path, "%s/d", dir);
        FILE *f = fopen(path, "wb");
        fwrite(dict.data, 1, dict.len, f);
        fclose(f);
        snprintf(path, sizeof path, "%s/v", dir);
        f = fopen(path, "wb");
        fwrite(samples[7].data, 1, samples[7].len, f);
        fclose(f);
        snprintf(cmd, sizeof cmd,
                 "cd %s && zstd -q -D d v -o v.zst && zstd -q -d -D d v.zst -o w && cmp -s v w"
                 " && ! zstd -q -d v.zst -o x 2>/dev/null",
                 dir);
        CHECK_INT(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        CHECK_INT(system(cmd), 0);
    } else {
        printf("note: no /usr/bin/zstd: the command-line check did not run\n");
    }

    /* On failure the buffer keeps its length. */
    size_t len = dict.len;
    CHECK_INT(codec_zstd_train_dict(samples, 3, 0, &dict, &err), CODEC_E_USAGE);
    CHECK_INT(dict.len, len);
    codec_buf_free(&dict);
}

static void test_errors(void)
{
    codec_buf dict;
    codec_buf_init(&dict, NULL);
    codec_error err = {0};
    CHECK_INT(codec_zstd_train_dict(samples, 7, 0, &dict, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "7 samples are too few") != NULL);
    CHECK_STR(err.stage, "dict");
    CHECK_INT(codec_zstd_train_dict(samples, 100, 100, &dict, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "out of range") != NULL);
    CHECK_INT(codec_zstd_train_dict(NULL, 10, 0, &dict, &err), CODEC_E_USAGE);

    /* Enough samples by count but too few bytes (libzstd 1.5.4 would crash
     * on under 12): refused before zstd sees them. */
    codec_bytes tiny[10];
    for (int i = 0; i < 10; i++)
        tiny[i] = (codec_bytes){(const uint8_t *)"a", 1};
    CHECK_INT(codec_zstd_train_dict(tiny, 10, 0, &dict, &err), CODEC_E_USAGE);
    CHECK(strstr(err.message, "10 bytes of samples are too little") != NULL);
    CHECK_INT(dict.len, 0);
    codec_buf_free(&dict);
}

int main(void)
{
    make_samples();
    test_train();
    test_errors();
    return check_done("test_zstd_dict");
}
