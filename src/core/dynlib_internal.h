/* dynlib_internal.h — libraries opened on first use (dlopen), as systemd
 * does with its optional libraries.
 *
 * libcodec links no library but libc. It calls libzstd, liblz4, zlib,
 * libdeflate, libbrotlienc, libbrotlidec, libsnappy, libcrypto, libhiredis
 * and librdkafka, but loading them (relocations, initialisers, libstdc++
 * behind libsnappy, libssl and libsasl2 behind librdkafka) costs every
 * process that links codec resident memory and start-up instructions
 * (about 4.5 MiB for libcrypto, librdkafka, libhiredis and libsnappy, 0.5
 * for brotli, 0.4 for the four compression libraries), even one that only
 * runs base64. Each of them is opened the first time a stage or call needs
 * it, by the SONAME of the library the build found (CMake reads it from
 * the file: CODEC_SONAME_*), and its functions are reached through a table
 * of pointers.
 *
 * A dependency's private header (crypto/libcrypto_internal.h,
 * compress/libzstd_internal.h, liblz4_internal.h, libz_internal.h,
 * libdeflate_internal.h, libbrotli_internal.h, libsnappy_internal.h,
 * redis/libhiredis_internal.h, kafka/librdkafka_internal.h) does three
 * things, in this order:
 *
 *   1. includes the library's own headers;
 *   2. lists the functions codec calls, once, as an X-macro of names
 *      (CODEC__LIBCRYPTO_FUNCTIONS(X, T)), and declares the table from it
 *      (CODEC__DYNLIB_DECLARE): each member is `__typeof__(name) *fn_name`,
 *      so every pointer has the type of the real prototype and every call
 *      is checked against it by the compiler (the table and the symbol
 *      list are defined from the same list, CODEC__DYNLIB_DEFINE, in
 *      crypto/libcrypto.c and its siblings);
 *   3. when compiled into the library (CODEC_BUILDING) or by a program
 *      that asks for it (CODEC_DYNLIB_CALLS: the `codec` command's Kafka
 *      verb and its inspect of gzip, zlib and zstd payloads), maps each
 *      name to its table entry:
 *          #define EVP_CIPHER_CTX_new (*codec__libcrypto_fn.fn_EVP_CIPHER_CTX_new)
 *      so call sites stay as they were (`EVP_CIPHER_CTX_new()`). An
 *      object-like macro also serves a name used as a value (a callback,
 *      EVP_aes_256_gcm passed on). Programs that link the library
 *      themselves (tests using it as a peer) see no macro and call it
 *      directly.
 * A name listed in (2) but not mapped in (3) is called directly and shows
 * up as an undefined symbol when libcodec.so is linked (-Wl,--no-undefined);
 * one mapped but not listed does not compile.
 *
 * Each entry point that needs a library (the envelope and key ring
 * constructors, the zstd and snappy stage constructors, brotli's and lz4's
 * encode, decode and stream open, each gzip and deflate path that runs
 * into zlib or libdeflate, codec_zstd_train_dict, codec_redis_connect,
 * every codec_kafka_* call) calls codec__dynlib_open() first and fails
 * with its report instead of calling through an empty table. CRC-32 and
 * Adler-32 cannot fail: without their library they compute with their own
 * kernel (integrity/checksum_internal.h). Nothing is ever closed: a handle
 * lives as long as the process.
 */
#ifndef CODEC_DYNLIB_INTERNAL_H
#define CODEC_DYNLIB_INTERNAL_H

#include "codec/core.h"

#include <stdatomic.h>
#include <stddef.h>

/* One function of a table: its name and where its pointer goes. */
typedef struct codec__dynlib_symbol {
    const char *name;
    size_t offset;   /* offsetof(table type, fn_NAME) */
} codec__dynlib_symbol;

/* A library to open once: one per dependency, made by CODEC__DYNLIB_DEFINE
 * (or CODEC__DYNLIB_INIT); the state and the message are the loader's. */
typedef struct codec__dynlib {
    const char *soname;
    const codec__dynlib_symbol *symbols;
    size_t count;
    void *table;                /* filled when the library opens */
    atomic_int state;           /* 0 not tried, 1 open, -1 failed */
    char message[160];          /* why it failed, once state is -1 */
} codec__dynlib;

#define CODEC__DYNLIB_INIT(soname, symbols, table)                                       \
    {(soname), (symbols), sizeof(symbols) / sizeof((symbols)[0]), (table), 0, {0}}

/* For a dependency's X-macro list, LIST(X, T) giving X(T, name) per
 * function: a table member has the real function's type; a symbol entry
 * only stringises and pastes the name, so mapping macros defined by then
 * do not get in the way. */
#define CODEC__DYNLIB_MEMBER(type, name) __typeof__(name) *fn_##name;
#define CODEC__DYNLIB_SYMBOL(type, name) {#name, offsetof(type, fn_##name)},

/* In the dependency's header, before its mapping macros: the table type
 * codec__LIB_fns, the table codec__LIB_fn and the library codec__LIB. */
#define CODEC__DYNLIB_DECLARE(lib, LIST)                                                 \
    typedef struct codec__##lib##_fns {                                                  \
        LIST(CODEC__DYNLIB_MEMBER, codec__##lib##_fns)                                   \
    } codec__##lib##_fns;                                                                \
    extern codec__##lib##_fns codec__##lib##_fn;                                         \
    extern codec__dynlib codec__##lib

/* In one .c file: the table, its symbol list and the library, opened by
 * `soname` (a CODEC_SONAME_* from CMake). */
#define CODEC__DYNLIB_DEFINE(lib, LIST, soname)                                          \
    codec__##lib##_fns codec__##lib##_fn;                                                \
    static const codec__dynlib_symbol lib##_symbols[] = {                                \
        LIST(CODEC__DYNLIB_SYMBOL, codec__##lib##_fns)};                                 \
    codec__dynlib codec__##lib = CODEC__DYNLIB_INIT(soname, lib##_symbols, &codec__##lib##_fn)

/* Opens `lib` on the first call (thread-safe; a fork() waits for an open
 * in progress) and resolves every symbol into its table.
 * @return 0 once the library is open; otherwise CODEC_E_UNSUPPORTED, on
 *         this and every later call, with `stage` and the message
 *         "SONAME could not be loaded: <dlerror()>" in `err`. */
int codec__dynlib_open(codec__dynlib *lib, const char *stage, codec_error *err);

#endif /* CODEC_DYNLIB_INTERNAL_H */
