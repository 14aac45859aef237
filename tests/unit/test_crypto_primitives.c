/* test_crypto_primitives.c — the AES-256-GCM and AES key-wrap code the
 * envelope uses, against the Wycheproof AES-GCM vectors (256-bit keys,
 * 96-bit nonces, 128-bit tags), the RFC 3394 §4.6 vector and OpenSSL's own
 * AES-256-WRAP cipher. */
#include "check.h"
#include "transforms/crypto/crypto_internal.h"

#include <openssl/rand.h>

static size_t from_hex(const char *hex, uint8_t *dst, size_t cap)
{
    if (strcmp(hex, "-") == 0)
        return 0;
    size_t n = strlen(hex) / 2;
    if (n > cap)
        return (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        dst[i] = (uint8_t)v;
    }
    return n;
}

typedef struct gcm_vector {
    int id;
    int valid;
    uint8_t key[32], iv[12], aad[2048], msg[2048], ct[2048], tag[16];
    size_t aad_len, msg_len, ct_len;
} gcm_vector;

static int read_vector(FILE *f, gcm_vector *v)
{
    static char line[8192];
    static char result[16], key[80], iv[40], aad[4100], msg[4100], ct[4100], tag[40];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%d %15s %79s %39s %4099s %4099s %4099s %39s", &v->id, result, key, iv,
                   aad, msg, ct, tag) != 8)
            return -1;
        v->valid = strcmp(result, "valid") == 0;
        if (from_hex(key, v->key, 32) != 32 || from_hex(iv, v->iv, 12) != 12 ||
            from_hex(tag, v->tag, 16) != 16)
            return -1;
        v->aad_len = from_hex(aad, v->aad, sizeof v->aad);
        v->msg_len = from_hex(msg, v->msg, sizeof v->msg);
        v->ct_len = from_hex(ct, v->ct, sizeof v->ct);
        if (v->aad_len == (size_t)-1 || v->msg_len == (size_t)-1 || v->ct_len != v->msg_len)
            return -1;
        return 1;
    }
    return 0;
}

/* Splits the AAD in two at `cut`, as the envelope does (header, fixed AAD). */
static void check_vector(EVP_CIPHER_CTX *ctx, const gcm_vector *v, size_t cut)
{
    crypto_aad aad = {v->aad, cut, v->aad + cut, v->aad_len - cut};
    uint8_t out[2048], tag[16];
    bool opened = codec__crypto_gcm_open(ctx, v->key, v->iv, &aad, v->ct, v->ct_len, v->tag, out);
    if (opened != (bool)v->valid)
        fprintf(stderr, "wycheproof tcId %d: open gave %d\n", v->id, opened);
    CHECK(opened == (bool)v->valid);
    if (!v->valid)
        return;
    CHECK_MEM(out, v->msg_len, v->msg, v->msg_len);
    CHECK(codec__crypto_gcm_seal(ctx, v->key, v->iv, &aad, v->msg, v->msg_len, out, tag));
    CHECK_MEM(out, v->msg_len, v->ct, v->ct_len);
    CHECK_MEM(tag, 16, v->tag, 16);
    /* the same key again, kept in the context (the bounded strategy's path) */
    CHECK(codec__crypto_gcm_seal(ctx, NULL, v->iv, &aad, v->msg, v->msg_len, out, tag));
    CHECK_MEM(tag, 16, v->tag, 16);
}

static void test_wycheproof_gcm(void)
{
    FILE *f = fopen(CODEC_TEST_DATA "/crypto/aes_gcm_256_96_128.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    EVP_CIPHER_CTX *ctx = codec__crypto_gcm_new();
    static gcm_vector v;
    int rc, count = 0, valid = 0;
    while ((rc = read_vector(f, &v)) == 1) {
        check_vector(ctx, &v, v.aad_len);
        check_vector(ctx, &v, v.aad_len / 2);
        count++;
        valid += v.valid;
    }
    CHECK_INT(rc, 0);
    CHECK_INT(count, 66);
    CHECK_INT(valid, 39);
    EVP_CIPHER_CTX_free(ctx);
    fclose(f);
}

static void test_rfc3394_vector(void)
{
    uint8_t kek[32], key[32], wrapped[40], back[32];
    from_hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F", kek, 32);
    from_hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F", key, 32);
    static const char expect_hex[] = "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326"
                                     "CBC7F0E71A99F43BFB988B9B7A02DD21";
    uint8_t expect[40];
    from_hex(expect_hex, expect, 40);
    EVP_CIPHER_CTX *w = codec__crypto_kw_new(kek, true), *u = codec__crypto_kw_new(kek, false);
    CHECK(codec__crypto_kw_wrap(w, key, wrapped));
    CHECK_MEM(wrapped, 40, expect, 40);
    CHECK(codec__crypto_kw_unwrap(u, wrapped, back));
    CHECK_MEM(back, 32, key, 32);
    for (int bit = 0; bit < 320; bit++) { /* every single-bit flip fails the check */
        wrapped[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        CHECK(!codec__crypto_kw_unwrap(u, wrapped, back));
        wrapped[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    EVP_CIPHER_CTX_free(w);
    EVP_CIPHER_CTX_free(u);
}

/* Our wrap (OpenSSL's RFC 3394 code over an AES-NI ECB block) must equal
 * OpenSSL's AES-256-WRAP cipher for any key. */
static void test_kw_matches_evp_wrap(void)
{
    EVP_CIPHER_CTX *ref = EVP_CIPHER_CTX_new();
    for (int i = 0; i < 50; i++) {
        uint8_t kek[32], key[32], ours[40], theirs[48];
        RAND_bytes(kek, 32);
        RAND_bytes(key, 32);
        EVP_CIPHER_CTX *w = codec__crypto_kw_new(kek, true);
        CHECK(codec__crypto_kw_wrap(w, key, ours));
        int len = 0;
        CHECK(EVP_EncryptInit_ex2(ref, EVP_aes_256_wrap(), kek, NULL, NULL) == 1);
        CHECK(EVP_EncryptUpdate(ref, theirs, &len, key, 32) == 1);
        CHECK_INT(len, 40);
        CHECK_MEM(ours, 40, theirs, 40);
        EVP_CIPHER_CTX_free(w);
    }
    EVP_CIPHER_CTX_free(ref);
}

int main(void)
{
    /* The primitives are called directly, without an envelope or key ring
     * to open libcrypto for them. */
    CHECK_INT(codec__dynlib_open(&codec__libcrypto, "test", NULL), 0);
    test_wycheproof_gcm();
    test_rfc3394_vector();
    test_kw_matches_evp_wrap();
    return check_done("crypto_primitives");
}
