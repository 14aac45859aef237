/* cmd_redis.c — `codec redis set|get KEY -p SPEC [--url URL]`: one key of a
 * real Redis through a bytes pipeline, for looking at (or planting) real
 * data, e.g. a value a JVM service wrote through zstd. Built only with
 * hiredis (CODEC_HAVE_REDIS). */
#ifdef CODEC_HAVE_REDIS
#include "cli.h"
#include "cli_verb.h"

#include "codec/redis.h"

#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `codec redis get` exits 5 when the key does not exist: neither a bad
 * payload (1) nor a failed connection (4). */
#define CLI_EXIT_NOT_FOUND 5

/* Redis's own limit on a string value. */
#define REDIS_MAX_STRING ((size_t)512 << 20)

static const char usage[] =
    "usage: codec redis set KEY -p SPEC [--url URL] [--ttl MS] [--timeout MS] [FILE]\n"
    "       codec redis get KEY -p SPEC [--url URL] [--timeout MS] [--max-value SIZE]\n"
    "       (either also takes --user NAME and --password-file FILE)\n"
    "\n"
    "set encodes the bytes of FILE (or standard input) through SPEC and stores\n"
    "them under KEY; get reads KEY, decodes it through SPEC and writes the bytes\n"
    "to standard output (nothing at all when decoding fails).\n"
    "\n"
    "  -p, --pipeline SPEC   a bytes pipeline, e.g. 'zstd:3 | envelope:keyring=k.ring'\n"
    "      --url URL         redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]\n"
    "                        (default redis://127.0.0.1:6379); a password here\n"
    "                        shows in the process list: prefer the next two\n"
    "      --password-file FILE  the password is FILE's first line\n"
    "      --user NAME       ACL user name for AUTH (Redis 6+)\n"
    "      --ttl MS          set: expire after MS milliseconds (default: never)\n"
    "      --timeout MS      connect and command timeout (default 2000)\n"
    "      --max-value SIZE  get: refuse values over SIZE (default 64m; k, m, g)\n"
    "  -h, --help            show this text\n"
    "\n"
    "\n"
    "Without a password in the URL or --password-file, the password comes from\n"
    "$CODEC_REDIS_PASSWORD, else $REDISCLI_AUTH (as redis-cli reads it).\n"
    "\n"
    "exit codes: 0 ok, 1 invalid payload, 2 usage, 3 unsupported,\n"
    "            4 transient (connection, server, timeout), 5 key not found\n"
    "example: codec redis get 'order:42' -p 'zstd' --url redis://127.0.0.1:6379/0\n";

/* Room for a host, user name or password (codec_redis_parse_url's cap). */
#define REDIS_PART_CAP 512

typedef struct redis_args {
    bool set;
    const char *key;
    const char *spec;
    const char *file;
    const char *url;
    const char *user;
    const char *password_file;
    codec_redis_options o;
    int64_t ttl_ms;
    char host[REDIS_PART_CAP];
    char username[REDIS_PART_CAP];
    char password[REDIS_PART_CAP];
} redis_args;

static int parse_option(int opt, const char *value, void *args, char **argv)
{
    redis_args *a = args;
    long long v;
    switch (opt) {
    case 'p':
        a->spec = value;
        return CLI_EXIT_OK;
    case 'u':
        a->url = value;
        return CLI_EXIT_OK;
    case 'U':
        a->user = value;
        return CLI_EXIT_OK;
    case 'P':
        a->password_file = value;
        return CLI_EXIT_OK;
    case 't':
        if (!a->set)
            return cli_usage_error("redis", "--ttl is for 'set'");
        if (!cli_parse_whole(value, 1, INT64_MAX, &v))
            return cli_usage_error("redis", "bad --ttl '%s': milliseconds, at least 1", value);
        a->ttl_ms = v;
        return CLI_EXIT_OK;
    case 'T':
        if (!cli_parse_whole(value, 1, UINT32_MAX, &v))
            return cli_usage_error("redis", "bad --timeout '%s': milliseconds, at least 1",
                                   value);
        a->o.connect_timeout_ms = a->o.command_timeout_ms = (uint32_t)v;
        return CLI_EXIT_OK;
    case 'm':
        if (a->set)
            return cli_usage_error("redis", "--max-value is for 'get'");
        if (!cli_parse_size(value, &a->o.max_value) || a->o.max_value == 0)
            return cli_usage_error("redis", "bad --max-value '%s': a size such as 64k or 1g",
                                   value);
        return CLI_EXIT_OK;
    default:
        return cli_option_error("redis", opt, argv);
    }
}

/* Returns -1 after --help, else an exit code (0 = go on). */
static int parse_args(int argc, char **argv, redis_args *a)
{
    static const struct option longs[] = {
        {"pipeline", required_argument, NULL, 'p'}, {"url", required_argument, NULL, 'u'},
        {"ttl", required_argument, NULL, 't'},      {"timeout", required_argument, NULL, 'T'},
        {"max-value", required_argument, NULL, 'm'}, {"help", no_argument, NULL, 'h'},
        {"user", required_argument, NULL, 'U'},
        {"password-file", required_argument, NULL, 'P'},
        {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    a->url = "redis://127.0.0.1:6379";
    int verb = 0, rc = cli_verb_select("redis", usage, "set", "get", argc, argv, &verb);
    if (rc)
        return rc;
    a->set = verb == 0;
    argc--, argv++;
    if ((rc = cli_verb_options(usage, argc, argv, ":p:h", longs, parse_option, a)))
        return rc;
    int rest = argc - optind, most = a->set ? 2 : 1;
    if (rest < 1 || rest > most)
        return cli_usage_error("redis", "%s takes KEY%s", argv[0], a->set ? " [FILE]" : "");
    a->key = argv[optind];
    a->file = rest == 2 ? argv[optind + 1] : NULL;
    if (!a->spec)
        return cli_usage_error("redis", "-p SPEC is required");
    return CLI_EXIT_OK;
}

/* A usage error in the credentials options, reported through `err`. */
__attribute__((format(printf, 2, 3))) static int credentials_error(codec_error *err,
                                                                   const char *fmt, ...)
{
    char text[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "redis", CODEC_NO_OFFSET,
                           "%s", text);
}

/* The first line of `path`, without its line ending, into a->password. */
static int read_password_file(redis_args *a, codec_error *err)
{
    cli_input in;
    int rc = cli_read_input(a->password_file, REDIS_PART_CAP * 2, &in, err);
    if (rc)
        return rc;
    size_t n = 0;
    while (n < in.len && in.data[n] != '\n' && in.data[n] != '\r')
        n++;
    if (n >= sizeof a->password || memchr(in.data, '\0', n))
        rc = credentials_error(err, "the password in %s is over %zu bytes or holds a NUL",
                               a->password_file, sizeof a->password - 1);
    else
        memcpy(a->password, in.data, n);
    a->password[n < sizeof a->password ? n : 0] = '\0';
    explicit_bzero(in.data, in.len);
    cli_input_free(&in);
    return rc;
}

/* Host, port, db and user from the URL; the password from the URL, else
 * --password-file, else the environment. Fills a->o. */
static int resolve_credentials(redis_args *a, codec_error *err)
{
    int rc = codec_redis_parse_url(a->url, a->host, a->username, a->password,
                                   sizeof a->host, &a->o.port, &a->o.db, err);
    if (rc)
        return rc;
    if (a->user && a->username[0])
        return credentials_error(err, "a user name both in --url and --user");
    if (a->user && strlen(a->user) >= sizeof a->username)
        return credentials_error(err, "--user is over %zu bytes", sizeof a->username - 1);
    if (a->user)
        strcpy(a->username, a->user);
    if (a->password_file && a->password[0])
        return credentials_error(err, "a password both in --url and --password-file");
    if (a->password_file && (rc = read_password_file(a, err)))
        return rc;
    const char *env = getenv("CODEC_REDIS_PASSWORD");
    if (!env || !*env)
        env = getenv("REDISCLI_AUTH");
    if (!a->password[0] && !a->password_file && env) {
        if (strlen(env) >= sizeof a->password)
            return credentials_error(err, "the password in the environment is over %zu bytes",
                                     sizeof a->password - 1);
        strcpy(a->password, env);
    }
    a->o.host = a->host;
    a->o.username = a->username[0] ? a->username : NULL;
    a->o.password = a->password[0] ? a->password : NULL;
    return CODEC_OK;
}

static int run(const redis_args *a, codec *c, codec_redis *r, codec_error *err)
{
    size_t key_len = strlen(a->key);
    if (a->set) {
        cli_input in;
        int rc = cli_read_input(a->file, REDIS_MAX_STRING, &in, err);
        if (rc)
            return rc;
        codec_bytes v = {in.data, in.len};
        rc = codec_redis_set(r, a->key, key_len, c, &v, a->ttl_ms, err);
        cli_input_free(&in);
        return rc;
    }
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_bytes v;
    int rc = codec_redis_get(r, a->key, key_len, c, &v, &arena, err);
    if (!rc)
        rc = cli_write_output(v.data, v.len, err);
    codec_arena_free(&arena);
    return rc;
}

int cmd_redis(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN); /* a dead server must be an error, not a kill */
    redis_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    codec_error err;
    codec *c = codec_parse(a.spec, NULL, &err);
    if (!c)
        return cli_fail(&err);
    codec_redis *r = NULL;
    rc = resolve_credentials(&a, &err);
    if (!rc)
        rc = codec_redis_connect(&a.o, &r, &err);
    explicit_bzero(a.password, sizeof a.password);
    if (!rc)
        rc = run(&a, c, r, &err);
    codec_redis_free(r);
    codec_free(c);
    if (rc == CODEC_E_NOT_FOUND) {
        char line[256];
        fprintf(stderr, "codec: %s\n", codec_error_format(&err, line, sizeof line));
        return CLI_EXIT_NOT_FOUND;
    }
    return rc ? cli_fail(&err) : CLI_EXIT_OK;
}
#endif /* CODEC_HAVE_REDIS */
