/* gcm.c — AES-256-GCM (96-bit nonce, 128-bit tag) over OpenSSL's EVP
 * interface. One context is reused for many messages: re-initialising it
 * (new key and nonce, or only a new nonce) costs a fraction of making a
 * context from scratch (docs/formats/envelope.md, "Costs behind the
 * design"). */
#include "crypto_internal.h"

#include <limits.h>

/* EVP takes int lengths; longer inputs go through in chunks. */
#define GCM_CHUNK ((size_t)1 << 30)

EVP_CIPHER_CTX *codec__crypto_gcm_new(void)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        return NULL;
    /* The cipher is fetched once here; later inits pass NULL and keep it. */
    codec__openssl_enter();
    int ok = EVP_CipherInit_ex2(ctx, EVP_aes_256_gcm(), NULL, NULL, 1, NULL);
    codec__openssl_leave();
    if (ok != 1) {
        EVP_CIPHER_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

static bool gcm_aad(EVP_CIPHER_CTX *ctx, const uint8_t *p, size_t n)
{
    int outl;
    for (size_t done = 0; done < n;) {
        size_t step = n - done < GCM_CHUNK ? n - done : GCM_CHUNK;
        if (EVP_CipherUpdate(ctx, NULL, &outl, p + done, (int)step) != 1)
            return false;
        done += step;
    }
    return true;
}

/* GCM is a stream mode: output length always equals input length. */
static bool gcm_body(EVP_CIPHER_CTX *ctx, const uint8_t *src, size_t n, uint8_t *dst)
{
    int outl;
    for (size_t done = 0; done < n;) {
        size_t step = n - done < GCM_CHUNK ? n - done : GCM_CHUNK;
        if (EVP_CipherUpdate(ctx, dst + done, &outl, src + done, (int)step) != 1 ||
            (size_t)outl != step)
            return false;
        done += step;
    }
    return true;
}

static bool gcm_start(EVP_CIPHER_CTX *ctx, const uint8_t *key, const uint8_t *nonce,
                      const crypto_aad *aad, int enc)
{
    return EVP_CipherInit_ex2(ctx, NULL, key, nonce, enc, NULL) == 1 &&
           gcm_aad(ctx, aad->a, aad->a_len) && gcm_aad(ctx, aad->b, aad->b_len);
}

bool codec__crypto_gcm_seal(EVP_CIPHER_CTX *ctx, const uint8_t *key, const uint8_t *nonce,
                            const crypto_aad *aad, const uint8_t *src, size_t n, uint8_t *dst,
                            uint8_t *tag)
{
    int outl;
    return gcm_start(ctx, key, nonce, aad, 1) && gcm_body(ctx, src, n, dst) &&
           EVP_EncryptFinal_ex(ctx, dst + n, &outl) == 1 &&
           EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, CRYPTO_TAG_SIZE, tag) == 1;
}

bool codec__crypto_gcm_open(EVP_CIPHER_CTX *ctx, const uint8_t *key, const uint8_t *nonce,
                            const crypto_aad *aad, const uint8_t *src, size_t n, const uint8_t *tag,
                            uint8_t *dst)
{
    int outl;
    bool ok = gcm_start(ctx, key, nonce, aad, 0) && gcm_body(ctx, src, n, dst) &&
              EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, CRYPTO_TAG_SIZE,
                                  (void *)tag) == 1 &&
              EVP_DecryptFinal_ex(ctx, dst + n, &outl) == 1;
    if (!ok && n)
        OPENSSL_cleanse(dst, n); /* never hand out unauthenticated plaintext */
    return ok;
}
