/* test_envelope_python.c — the envelope against an independent peer:
 * tests/interop/envelope_peer.py, the layout written from WIRE-FORMATS.md
 * with Python's `cryptography` (Debian python3-cryptography, run with
 * /usr/bin/python3). Python decrypts what codec wrote (both strategies,
 * with and without AAD) and codec decrypts what Python wrote (with every
 * key of a two-key ring). */
#include "check.h"
#include "codec/codec.h"

#include <dirent.h>
#include <sys/stat.h>

#define PYTHON "/usr/bin/python3"
#define PEER CODEC_TEST_DATA "/../interop/envelope_peer.py"
#define RING_TEXT                                                                    \
    "# two keys: new messages use the first\n"                                       \
    "orders-2026 8f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0\n" \
    "orders-2025 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n"

static char root[64], ring_path[128];

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_INT(fwrite(data, 1, n, f), n);
    fclose(f);
}

static int run_peer(const char *mode, const char *dir, const char *aad)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s %s %s %s %s", PYTHON, PEER, mode, ring_path, dir,
             aad ? aad : "");
    return system(cmd);
}

static codec *make_codec(codec_envelope_strategy strategy, const char *aad)
{
    codec_error err;
    codec_envelope_options o = {0};
    o.provider = codec_keyring_provider(codec_keyring_load(ring_path, &err));
    o.strategy = strategy;
    o.max_messages = strategy == CODEC_ENVELOPE_BOUNDED ? 3 : 0;
    if (aad) {
        o.aad = (const uint8_t *)aad;
        o.aad_len = strlen(aad);
    }
    return codec_envelope(&o, &err);
}

/* codec writes, Python reads. */
static void codec_to_python(const char *dir, const char *aad)
{
    mkdir(dir, 0700);
    static uint8_t data[70000];
    uint64_t x = 99;
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)check_rand(&x);
    static const size_t sizes[] = {0, 1, 15, 16, 17, 104, 4096, 70000};
    codec *cs[] = {make_codec(CODEC_ENVELOPE_DIRECT, aad),
                   make_codec(CODEC_ENVELOPE_BOUNDED, aad)};
    codec_buf out;
    codec_buf_init(&out, NULL);
    for (int c = 0; c < 2; c++) {
        CHECK(cs[c] != NULL);
        for (size_t i = 0; cs[c] && i < sizeof sizes / sizeof sizes[0]; i++) {
            codec_bytes in = {data, sizes[i]};
            codec_error err;
            codec_buf_clear(&out);
            CHECK_INT(codec_encode(cs[c], &in, &out, &err), 0);
            char path[256];
            snprintf(path, sizeof path, "%s/c%d-%zu.msg", dir, c, i);
            write_file(path, out.data, out.len);
            snprintf(path, sizeof path, "%s/c%d-%zu.plain", dir, c, i);
            write_file(path, data, sizes[i]);
        }
        codec_free(cs[c]);
    }
    codec_buf_free(&out);
    CHECK_INT(run_peer("decrypt", dir, aad), 0);
}

/* Python writes, codec reads. */
static void python_to_codec(const char *dir, const char *aad)
{
    mkdir(dir, 0700);
    CHECK_INT(run_peer("encrypt", dir, aad), 0);
    codec *c = make_codec(CODEC_ENVELOPE_DIRECT, aad);
    codec *wrong_aad = make_codec(CODEC_ENVELOPE_DIRECT, aad ? NULL : "other");
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".msg") != 0)
            continue;
        char path[512];
        size_t msg_len = 0, plain_len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        uint8_t *msg = check_read_file(path, &msg_len);
        snprintf(path, sizeof path, "%s/%.*s.plain", dir, (int)(len - 4), e->d_name);
        uint8_t *plain = check_read_file(path, &plain_len);
        codec_bytes back;
        codec_error err;
        codec_arena_reset(&arena);
        CHECK_INT(codec_decode(c, msg, msg_len, &back, &arena, &err), 0);
        CHECK_MEM(back.data, back.len, plain, plain_len);
        CHECK_INT(codec_decode(wrong_aad, msg, msg_len, &back, &arena, &err),
                  CODEC_E_INVALID_PAYLOAD);
        free(msg);
        free(plain);
        count++;
    }
    if (d)
        closedir(d);
    CHECK_INT(count, 7);
    codec_arena_free(&arena);
    codec_free(c);
    codec_free(wrong_aad);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/codec-envpy-XXXXXX");
    if (!mkdtemp(root))
        return 1;
    snprintf(ring_path, sizeof ring_path, "%s/ring", root);
    write_file(ring_path, RING_TEXT, strlen(RING_TEXT));
    chmod(ring_path, 0600);
    char dir[160];
    snprintf(dir, sizeof dir, "%s/c-plain", root);
    codec_to_python(dir, NULL);
    snprintf(dir, sizeof dir, "%s/c-aad", root);
    codec_to_python(dir, "tenant-7");
    snprintf(dir, sizeof dir, "%s/py-plain", root);
    python_to_codec(dir, NULL);
    snprintf(dir, sizeof dir, "%s/py-aad", root);
    python_to_codec(dir, "tenant-7");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        return 1;
    return check_done("envelope_python");
}
