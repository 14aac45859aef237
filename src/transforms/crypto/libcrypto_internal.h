/* libcrypto_internal.h — the OpenSSL libcrypto functions the envelope and
 * the key ring call, reached through a table filled on first use
 * (core/dynlib_internal.h says how and why). Include this, not OpenSSL's
 * headers: it includes them first, so their declarations are never seen
 * through the macros below. */
#ifndef CODEC_LIBCRYPTO_INTERNAL_H
#define CODEC_LIBCRYPTO_INTERNAL_H

#include "core/dynlib_internal.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/modes.h>
#include <openssl/rand.h>
#include <string.h>

#define CODEC__LIBCRYPTO_FUNCTIONS(X, T)                                                 \
    X(T, CRYPTO_128_unwrap)                                                              \
    X(T, CRYPTO_128_wrap)                                                                \
    X(T, EVP_CIPHER_CTX_ctrl)                                                            \
    X(T, EVP_CIPHER_CTX_free)                                                            \
    X(T, EVP_CIPHER_CTX_new)                                                             \
    X(T, EVP_CIPHER_CTX_set_padding)                                                     \
    X(T, EVP_Cipher)                                                                     \
    X(T, EVP_CipherInit_ex2)                                                             \
    X(T, EVP_CipherUpdate)                                                               \
    X(T, EVP_DecryptFinal_ex)                                                            \
    X(T, EVP_EncryptFinal_ex)                                                            \
    X(T, EVP_aes_256_ecb)                                                                \
    X(T, EVP_aes_256_gcm)                                                                \
    X(T, RAND_priv_bytes)

/* The table (codec__libcrypto_fn) and the library that fills it
 * (codec__libcrypto, CODEC_SONAME_LIBCRYPTO). */
CODEC__DYNLIB_DECLARE(libcrypto, CODEC__LIBCRYPTO_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define CRYPTO_128_unwrap (*codec__libcrypto_fn.fn_CRYPTO_128_unwrap)
#define CRYPTO_128_wrap (*codec__libcrypto_fn.fn_CRYPTO_128_wrap)
#define EVP_CIPHER_CTX_ctrl (*codec__libcrypto_fn.fn_EVP_CIPHER_CTX_ctrl)
#define EVP_CIPHER_CTX_free (*codec__libcrypto_fn.fn_EVP_CIPHER_CTX_free)
#define EVP_CIPHER_CTX_new (*codec__libcrypto_fn.fn_EVP_CIPHER_CTX_new)
#define EVP_CIPHER_CTX_set_padding (*codec__libcrypto_fn.fn_EVP_CIPHER_CTX_set_padding)
#define EVP_Cipher (*codec__libcrypto_fn.fn_EVP_Cipher)
#define EVP_CipherInit_ex2 (*codec__libcrypto_fn.fn_EVP_CipherInit_ex2)
#define EVP_CipherUpdate (*codec__libcrypto_fn.fn_EVP_CipherUpdate)
#define EVP_DecryptFinal_ex (*codec__libcrypto_fn.fn_EVP_DecryptFinal_ex)
#define EVP_EncryptFinal_ex (*codec__libcrypto_fn.fn_EVP_EncryptFinal_ex)
#define EVP_aes_256_ecb (*codec__libcrypto_fn.fn_EVP_aes_256_ecb)
#define EVP_aes_256_gcm (*codec__libcrypto_fn.fn_EVP_aes_256_gcm)
#define RAND_priv_bytes (*codec__libcrypto_fn.fn_RAND_priv_bytes)
/* Wiping needs no libcrypto: glibc's explicit_bzero is not optimised away
 * either, and works in free paths of objects made before (or without)
 * libcrypto being opened. */
#define OPENSSL_cleanse(p, n) explicit_bzero((p), (n))
#endif

#endif /* CODEC_LIBCRYPTO_INTERNAL_H */
