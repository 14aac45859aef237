/* fuzz_redis_url.c — the redis:// URL parser on arbitrary text: it accepts
 * with every part in range (and the same URL rebuilt from the parts parses
 * to the same parts) or refuses with a usage error; never reads past the
 * text, never crashes. */
#include "fuzz_target.h"
#include "codec/codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CODEC_HAVE_REDIS
#include "codec/redis.h"

#define CAP 256

/* Rebuilds the URL from parsed parts, %-escaping user and password. */
static void rebuild(char *dst, size_t cap, const char *host, const char *user, const char *pass,
                    int port, int db)
{
    size_t o = (size_t)snprintf(dst, cap, "redis://");
    for (int part = 0; part < 2 && (user[0] || pass[0]); part++) {
        for (const unsigned char *p = (const unsigned char *)(part ? pass : user); *p; p++)
            o += (size_t)snprintf(dst + o, cap - o, "%%%02X", *p);
        o += (size_t)snprintf(dst + o, cap - o, part ? "@" : ":");
    }
    snprintf(dst + o, cap - o, strchr(host, ':') ? "[%s]:%d/%d" : "%s:%d/%d", host, port, db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *url = malloc(size + 1);
    if (!url)
        return 0;
    memcpy(url, data, size);
    url[size] = '\0';
    char host[CAP], user[CAP], pass[CAP];
    int port, db;
    codec_error err;
    int rc = codec_redis_parse_url(url, host, user, pass, CAP, &port, &db, &err);
    if (rc == 0) {
        if (!host[0] || port < 1 || port > 65535 || db < 0)
            abort();
        static char again[8 * CAP];   /* 3 bytes per escaped byte */
        char h2[CAP], u2[CAP], p2[CAP];
        int port2, db2;
        rebuild(again, sizeof again, host, user, pass, port, db);
        if (codec_redis_parse_url(again, h2, u2, p2, CAP, &port2, &db2, &err) != 0 ||
            strcmp(h2, host) || strcmp(u2, user) || strcmp(p2, pass) || port2 != port ||
            db2 != db)
            abort();
    } else if (rc != CODEC_E_USAGE || err.offset > size) {
        abort();
    }
    free(url);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)data, (void)size;
    return 0;
}
#endif
