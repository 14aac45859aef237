/* url.c — redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], parsed strictly:
 * anything the grammar does not name is an error, never a guess. */
#include "redis_internal.h"
#include "core/ascii_internal.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static int url_error(const char *url, const char *at, codec_error *err, const char *what)
{
    return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "redis",
                           (uint64_t)(at - url), "bad URL: %s", what);
}

/* Copies src[0..n) to dst, undoing %XX escapes. */
static int decode_part(const char *url, const char *src, size_t n, char *dst, size_t cap,
                       const char *name, codec_error *err)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)src[i];
        if (c == '%') {
            int hi = i + 1 < n ? codec_hex_digit_value(src[i + 1]) : -1;
            int lo = i + 2 < n ? codec_hex_digit_value(src[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return url_error(url, src + i, err, "a '%' must be followed by two hex digits");
            c = hi * 16 + lo;
            i += 2;
        } else if (c <= ' ' || c >= 0x7f) {
            return url_error(url, src + i, err, "spaces and control bytes must be %-escaped");
        }
        if (o + 1 >= cap) {
            char what[64];
            snprintf(what, sizeof what, "the %s is longer than %zu bytes", name, cap - 1);
            return url_error(url, src, err, what);
        }
        dst[o++] = (char)c;
    }
    dst[o] = '\0';
    return CODEC_OK;
}

/* A decimal number in [min, max] spanning exactly s[0..n). */
static bool parse_number(const char *s, size_t n, long min, long max, long *out)
{
    long v = 0;
    if (n == 0 || n > 10)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    if (v < min || v > max)
        return false;
    *out = v;
    return true;
}

static bool host_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '.' || c == '_';
}

/* HOST[:PORT] in s[0..n). */
static int parse_host_port(const char *url, const char *s, size_t n, char *host, size_t cap,
                           int *port, codec_error *err)
{
    const char *h = s, *end = s + n, *h_end;
    if (n && *s == '[') {
        h = s + 1;
        h_end = memchr(h, ']', n - 1);
        if (!h_end)
            return url_error(url, s, err, "'[' opens an IPv6 address that ']' never closes");
        for (const char *p = h; p < h_end; p++)
            if (codec_hex_digit_value(*p) < 0 && *p != ':' && *p != '.')
                return url_error(url, p, err, "an IPv6 address holds hex digits, ':' and '.'");
    } else {
        h_end = s;
        while (h_end < end && *h_end != ':')
            h_end++;
        for (const char *p = h; p < h_end; p++)
            if (!host_char(*p))
                return url_error(url, p, err,
                                 "a host name holds letters, digits, '-', '.' and '_'");
    }
    if (h_end == h)
        return url_error(url, h, err, "no host");
    if ((size_t)(h_end - h) >= cap)
        return url_error(url, h, err, "host name too long");
    memcpy(host, h, (size_t)(h_end - h));
    host[h_end - h] = '\0';
    const char *rest = h_end + (*s == '[');
    *port = CODEC_REDIS_DEFAULT_PORT;
    if (rest == end)
        return CODEC_OK;
    long v;
    if (*rest != ':' || !parse_number(rest + 1, (size_t)(end - rest - 1), 1, 65535, &v))
        return url_error(url, rest, err, "expected ':PORT' with PORT in 1..65535");
    *port = (int)v;
    return CODEC_OK;
}

/* [[USER]:PASSWORD@] at the start of s[0..end): decoded into user and
 * password; returns where the hosts begin, or NULL after an error. */
static const char *parse_credentials(const char *url, const char *s, const char *end,
                                     char *user, char *password, size_t cap, codec_error *err)
{
    const char *at = NULL;
    for (const char *p = s; p < end; p++)
        if (*p == '@')
            at = p;
    user[0] = password[0] = '\0';
    if (!at)
        return s;
    const char *colon = memchr(s, ':', (size_t)(at - s));
    if (!colon) {
        url_error(url, s, err, "credentials are [USER]:PASSWORD before '@'");
        return NULL;
    }
    if (decode_part(url, s, (size_t)(colon - s), user, cap, "user name", err) ||
        decode_part(url, colon + 1, (size_t)(at - colon - 1), password, cap, "password", err))
        return NULL;
    return at + 1;
}

int codec_redis_parse_url(const char *url, char *host, char *username, char *password,
                          size_t cap, int *port, int *db, codec_error *err)
{
    static const char scheme[] = "redis://";
    if (!url || !host || !username || !password || !port || !db || cap < 2)
        return codec_error_set(err, CODEC_E_USAGE, 0, "redis", CODEC_NO_OFFSET,
                               "codec_redis_parse_url needs a URL and its outputs");
    if (strncmp(url, "rediss://", 9) == 0)
        return url_error(url, url, err, "rediss:// (TLS) is not supported by this build");
    if (strncmp(url, scheme, sizeof scheme - 1) != 0)
        return url_error(url, url, err, "expected redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]");
    const char *auth = url + sizeof scheme - 1;
    const char *bad = strpbrk(auth, "?#");
    if (bad)
        return url_error(url, bad, err, "no query string or fragment is allowed");
    const char *path = strchr(auth, '/');
    const char *auth_end = path ? path : auth + strlen(auth);
    const char *hp = parse_credentials(url, auth, auth_end, username, password, cap, err);
    if (!hp)
        return CODEC_E_USAGE;
    int rc = parse_host_port(url, hp, (size_t)(auth_end - hp), host, cap, port, err);
    if (rc)
        return rc;
    *db = 0;
    if (path && path[1]) {
        long v;
        if (!parse_number(path + 1, strlen(path + 1), 0, INT_MAX, &v))
            return url_error(url, path, err, "expected '/DB' with DB a number 0..2147483647");
        *db = (int)v;
    }
    return CODEC_OK;
}

int codec__redis_parse_cluster_url(const char *url, codec_redis *r, redis_cluster *c,
                                   codec_error *err)
{
    static const char scheme[] = "redis-cluster://";
    const char *s = url + sizeof scheme - 1;
    const char *bad = strpbrk(s, "?#/");
    if (bad)
        return url_error(url, bad, err,
                         "a cluster URL has no /DB, query or fragment (a cluster has db 0 only)");
    const char *end = s + strlen(s);
    const char *hosts = parse_credentials(url, s, end, r->username, r->password,
                                          sizeof r->username, err);
    if (!hosts)
        return CODEC_E_USAGE;
    c->n_nodes = 0;
    for (const char *h = hosts; h <= end;) {
        const char *comma = memchr(h, ',', (size_t)(end - h));
        const char *h_end = comma ? comma : end;
        if (c->n_nodes == REDIS_CLUSTER_MAX_NODES)
            return url_error(url, h, err, "too many seed nodes");
        redis_node *n = &c->nodes[c->n_nodes];
        int rc = parse_host_port(url, h, (size_t)(h_end - h), n->host, sizeof n->host, &n->port,
                                 err);
        if (rc)
            return rc;
        c->n_nodes++;
        h = h_end + 1;
    }
    return CODEC_OK;
}
