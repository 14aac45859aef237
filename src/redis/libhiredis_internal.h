/* libhiredis_internal.h — the hiredis functions of the Redis adapter,
 * reached through a table filled on first use (core/dynlib_internal.h says
 * how and why). Include this instead of <hiredis/hiredis.h> and
 * <hiredis/sds.h>. hiredis's structures (redisContext) are used as
 * declared: only its functions come from the table. */
#ifndef CODEC_LIBHIREDIS_INTERNAL_H
#define CODEC_LIBHIREDIS_INTERNAL_H

#include "core/dynlib_internal.h"

#include <hiredis/hiredis.h>
#include <hiredis/sds.h>

#define CODEC__LIBHIREDIS_FUNCTIONS(X, T)                                                \
    X(T, redisAppendCommand)                                                             \
    X(T, redisAppendCommandArgv)                                                         \
    X(T, redisConnectWithTimeout)                                                        \
    X(T, redisFree)                                                                      \
    X(T, redisvAppendCommand)                                                            \
    X(T, sdsAllocSize)                                                                   \
    X(T, sdsclear)                                                                       \
    X(T, sdsempty)                                                                       \
    X(T, sdsfree)

/* The table (codec__libhiredis_fn) and the library that fills it
 * (codec__libhiredis, CODEC_SONAME_LIBHIREDIS). */
CODEC__DYNLIB_DECLARE(libhiredis, CODEC__LIBHIREDIS_FUNCTIONS);

#if defined(CODEC_BUILDING) || defined(CODEC_DYNLIB_CALLS)
#define redisAppendCommand (*codec__libhiredis_fn.fn_redisAppendCommand)
#define redisAppendCommandArgv (*codec__libhiredis_fn.fn_redisAppendCommandArgv)
#define redisConnectWithTimeout (*codec__libhiredis_fn.fn_redisConnectWithTimeout)
#define redisFree (*codec__libhiredis_fn.fn_redisFree)
#define redisvAppendCommand (*codec__libhiredis_fn.fn_redisvAppendCommand)
#define sdsAllocSize (*codec__libhiredis_fn.fn_sdsAllocSize)
#define sdsclear (*codec__libhiredis_fn.fn_sdsclear)
#define sdsempty (*codec__libhiredis_fn.fn_sdsempty)
#define sdsfree (*codec__libhiredis_fn.fn_sdsfree)
#endif

#endif /* CODEC_LIBHIREDIS_INTERNAL_H */
