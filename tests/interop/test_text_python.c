/* test_text_python.c — interop with a real peer: the base64 module of the
 * Debian Python (/usr/bin/python3). Random records go to Python with
 * codec's encodings of them; Python checks that its decoders read codec's
 * text back to the same bytes and returns its own encodings, which must be
 * identical to codec's and which codec must decode. base64:mime is checked
 * in both directions through decoding only: Python's encodebytes() writes
 * LF after every line (codec writes CRLF between lines), which codec's
 * decoder reads because it skips CR and LF. */
#include "check.h"
#include "codec/codec.h"

#include <stdbool.h>
#include <unistd.h>

static const char *const specs[] = {"base64", "base64:url", "base64:url-nopad", "base64:mime",
                                    "base32", "base32:hex", "hex:upper", "hex"};
#define SPECS (sizeof specs / sizeof specs[0])

static const char peer[] =
    "import base64, struct, sys\n"
    "def nopad_dec(t): return base64.urlsafe_b64decode(t + b'=' * (-len(t) % 4))\n"
    "peer = [\n"
    "  (base64.b64encode, lambda t: base64.b64decode(t, validate=True)),\n"
    "  (base64.urlsafe_b64encode, base64.urlsafe_b64decode),\n"
    "  (lambda d: base64.urlsafe_b64encode(d).rstrip(b'='), nopad_dec),\n"
    "  (base64.encodebytes, base64.decodebytes),\n"
    "  (base64.b32encode, base64.b32decode),\n"
    "  (base64.b32hexencode, base64.b32hexdecode),\n"
    "  (base64.b16encode, base64.b16decode),\n"
    "  (lambda d: base64.b16encode(d).lower(), lambda t: base64.b16decode(t, casefold=True)),\n"
    "]\n"
    "src = open(sys.argv[1], 'rb').read(); out = open(sys.argv[2], 'wb')\n"
    "pos = 0; bad = 0\n"
    "def take():\n"
    "    global pos\n"
    "    (n,) = struct.unpack_from('<I', src, pos); pos += 4 + n\n"
    "    return src[pos - n:pos]\n"
    "while pos < len(src):\n"
    "    data = take()\n"
    "    for enc, dec in peer:\n"
    "        if dec(take()) != data: bad += 1\n"
    "        e = enc(data); out.write(struct.pack('<I', len(e)) + e)\n"
    "print(bad)\n";

/* Lengths are little-endian ('<I' in the script) on every CPU. */
static void put(FILE *f, const void *p, uint32_t n)
{
    const uint8_t le[4] = {(uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24)};
    fwrite(le, 4, 1, f);
    fwrite(p, 1, n, f);
}

/* Reads one length-prefixed item at *pos; NULL at the end. */
static const uint8_t *get(const uint8_t *buf, size_t len, size_t *pos, uint32_t *n)
{
    if (*pos + 4 > len)
        return NULL;
    const uint8_t *le = buf + *pos;
    *n = (uint32_t)le[0] | (uint32_t)le[1] << 8 | (uint32_t)le[2] << 16 | (uint32_t)le[3] << 24;
    if (*n > len - *pos - 4)
        return NULL;
    *pos += 4 + *n;
    return buf + *pos - *n;
}

int main(void)
{
    char dir[] = "/tmp/codec-text-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char script[64], in_path[64], out_path[64], cmd[256];
    snprintf(script, sizeof script, "%s/peer.py", dir);
    snprintf(in_path, sizeof in_path, "%s/in.bin", dir);
    snprintf(out_path, sizeof out_path, "%s/out.bin", dir);
    FILE *f = fopen(script, "w");
    fputs(peer, f);
    fclose(f);

    codec *c[SPECS];
    codec_error err;
    for (size_t s = 0; s < SPECS; s++)
        c[s] = codec_parse(specs[s], NULL, &err);

    enum { RECORDS = 360 };
    static uint8_t *data[RECORDS];
    static size_t lens[RECORDS];
    static codec_buf text[RECORDS][SPECS];
    uint64_t rng = 42;
    f = fopen(in_path, "wb");
    for (size_t r = 0; r < RECORDS; r++) {
        lens[r] = r < 300 ? r : r < 350 ? (size_t)(check_rand(&rng) % 5000) : 70000 + r;
        data[r] = malloc(lens[r] + 1);
        for (size_t i = 0; i < lens[r]; i++)
            data[r][i] = (uint8_t)check_rand(&rng);
        put(f, data[r], (uint32_t)lens[r]);
        for (size_t s = 0; s < SPECS; s++) {
            codec_buf_init(&text[r][s], NULL);
            codec_bytes in = {data[r], lens[r]};
            CHECK_INT(codec_encode(c[s], &in, &text[r][s], &err), 0);
            put(f, text[r][s].data ? text[r][s].data : (const uint8_t *)"",
                (uint32_t)text[r][s].len);
        }
    }
    fclose(f);

    snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s %s", script, in_path, out_path);
    FILE *p = popen(cmd, "r");
    int peer_failures = -1;
    CHECK(p != NULL);
    if (p) {
        CHECK_INT(fscanf(p, "%d", &peer_failures), 1);
        CHECK_INT(pclose(p), 0);
    }
    CHECK_INT(peer_failures, 0); /* Python read every codec encoding back */

    size_t out_len = 0, pos = 0, differ = 0, undecodable = 0;
    uint8_t *out = check_read_file(out_path, &out_len);
    CHECK(out != NULL);
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    for (size_t r = 0; out && r < RECORDS; r++) {
        for (size_t s = 0; s < SPECS; s++) {
            uint32_t n = 0;
            const uint8_t *t = get(out, out_len, &pos, &n);
            if (!t) {
                differ++;
                continue;
            }
            if (strcmp(specs[s], "base64:mime") != 0 &&
                (n != text[r][s].len || (n && memcmp(t, text[r][s].data, n) != 0))) {
                fprintf(stderr, "%s: Python's encoding of record %zu differs\n", specs[s], r);
                differ++;
            }
            codec_bytes back;
            codec_arena_reset(&arena);
            if (codec_decode(c[s], t, n, &back, &arena, &err) != 0 || back.len != lens[r] ||
                (lens[r] && memcmp(back.data, data[r], lens[r]) != 0)) {
                fprintf(stderr, "%s: cannot decode Python's record %zu: %s\n", specs[s], r,
                        err.message);
                undecodable++;
            }
        }
    }
    CHECK_INT(differ, 0);
    CHECK_INT(undecodable, 0);
    CHECK_INT(pos, out_len);
    codec_arena_free(&arena);
    free(out);
    for (size_t r = 0; r < RECORDS; r++) {
        free(data[r]);
        for (size_t s = 0; s < SPECS; s++)
            codec_buf_free(&text[r][s]);
    }
    for (size_t s = 0; s < SPECS; s++)
        codec_free(c[s]);
    unlink(script);
    unlink(in_path);
    unlink(out_path);
    rmdir(dir);
    return check_done("test_text_python");
}
