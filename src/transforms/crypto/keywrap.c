/* keywrap.c — AES key wrap (RFC 3394, default IV A6A6A6A6A6A6A6A6) of a
 * 32-byte data key under an AES-256 KEK.
 *
 * The wrap algorithm is OpenSSL's (CRYPTO_128_wrap / CRYPTO_128_unwrap from
 * <openssl/modes.h>); the AES block function is an EVP AES-256-ECB context,
 * which uses AES-NI. OpenSSL 3.0's own "AES-256-WRAP" cipher runs on a
 * table-based software AES, several times slower (docs/formats/envelope.md,
 * "Costs behind the design"), and a wrap is the largest cost of a
 * direct-strategy message. The results are
 * identical (tests/unit/test_crypto_primitives.c checks both against each
 * other and against the RFC 3394 vector). */
#include "crypto_internal.h"

EVP_CIPHER_CTX *codec__crypto_kw_new(const uint8_t kek[CRYPTO_KEY_SIZE], bool wrap)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (!ctx)
        return NULL;
    codec__openssl_enter(); /* the cipher fetch */
    int ok = EVP_CipherInit_ex2(ctx, EVP_aes_256_ecb(), kek, NULL, wrap ? 1 : 0, NULL);
    codec__openssl_leave();
    if (ok != 1 || EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) {
        EVP_CIPHER_CTX_free(ctx);
        return NULL;
    }
    return ctx;
}

/* block128_f over the ECB context. With padding off and one whole block,
 * EVP_Cipher cannot fail on a context that codec__crypto_kw_new() made. */
static void kw_block(const unsigned char in[16], unsigned char out[16], const void *ctx)
{
    EVP_Cipher((EVP_CIPHER_CTX *)ctx, out, in, 16);
}

bool codec__crypto_kw_wrap(EVP_CIPHER_CTX *kek, const uint8_t key[CRYPTO_KEY_SIZE],
                           uint8_t out[CRYPTO_WRAPPED_KEY_SIZE])
{
    return CRYPTO_128_wrap(kek, NULL, out, key, CRYPTO_KEY_SIZE, kw_block) ==
           CRYPTO_WRAPPED_KEY_SIZE;
}

bool codec__crypto_kw_unwrap(EVP_CIPHER_CTX *kek, const uint8_t in[CRYPTO_WRAPPED_KEY_SIZE],
                             uint8_t key[CRYPTO_KEY_SIZE])
{
    /* CRYPTO_128_unwrap compares the IV in constant time and wipes its
     * output when the check fails. */
    if (CRYPTO_128_unwrap(kek, NULL, key, in, CRYPTO_WRAPPED_KEY_SIZE, kw_block) ==
        CRYPTO_KEY_SIZE)
        return true;
    OPENSSL_cleanse(key, CRYPTO_KEY_SIZE);
    return false;
}
