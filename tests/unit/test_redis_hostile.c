/* test_redis_hostile.c — the Redis adapter against a fake, hostile server
 * (issue 21, finding 1): replies that announce huge arrays or bulk strings,
 * a value streamed for ever, a byte trickled every 50 ms, a line that never
 * ends. The client runs in a child process, so its peak memory is the
 * child's own (getrusage through wait4, ru_maxrss); the test process is the
 * server. Each hostile case must fail with a clear error, its peak RSS must
 * stay within a few MiB of a child that read a one-byte reply, and the
 * call must end by its own deadline, not the server's. */
#define _GNU_SOURCE
#include "check.h"
#include "codec/codec.h"

#ifndef CODEC_HAVE_REDIS
int main(void)
{
    printf("test_redis_hostile: built without hiredis: nothing to test\n");
    return 0;
}
#else
#include "codec/redis.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A hostile case may cost the client at most this much more than the
 * harmless reply (the reader's 16 KiB buffer, a reply node, page noise). */
#define SLACK_KB (8 * 1024)

typedef struct hostile_case {
    const char *name;
    const char *reply;          /* sent at once after the command arrives */
    size_t reply_len;
    size_t stream;              /* then this many filler bytes, as fast as possible */
    int trickle_ms;             /* or one filler byte every trickle_ms, until the client leaves */
    size_t max_value;
    uint32_t timeout_ms;
    bool mget;                  /* MGET of 3 keys instead of GET */
} hostile_case;

/* What the client child reports through its pipe. */
typedef struct outcome {
    int rc;
    int detail;
    double ms;                  /* the call's duration */
    char message[192];
} outcome;

typedef struct measured {
    outcome out;
    long max_rss_kb;            /* the child's peak */
    size_t sent;                /* bytes the server got out before the client left */
} measured;

static double elapsed_ms(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static int listen_loopback(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1) ||
        getsockname(fd, (struct sockaddr *)&a, &len)) {
        perror("fake server");
        exit(1);
    }
    *port = ntohs(a.sin_port);
    return fd;
}

/* The client: connect, one GET (or MGET), report, exit. */
static void client(const hostile_case *hc, int port, int report)
{
    alarm(60);   /* a hang is a failure, never a stuck test */
    char url[64];
    snprintf(url, sizeof url, "redis://127.0.0.1:%d", port);
    codec_redis_options o = {0};
    o.url = url;
    o.max_value = hc->max_value;
    o.command_timeout_ms = hc->timeout_ms;
    outcome out = {0};
    codec_error err = {0};
    codec *c = codec_parse("crc32c", NULL, &err);
    codec_redis *r = NULL;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    out.rc = codec_redis_connect(&o, &r, &err);
    if (!out.rc && hc->mget) {
        codec_bytes v[3];
        codec_redis_item items[3] = {{0}};
        for (int i = 0; i < 3; i++)
            items[i] = (codec_redis_item){.key = "k", .key_len = 1, .codec = c,
                                          .value_out = &v[i]};
        clock_gettime(CLOCK_MONOTONIC, &t0);
        out.rc = codec_redis_mget(r, items, 3, &arena, &err);
    } else if (!out.rc) {
        codec_bytes v;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        out.rc = codec_redis_get(r, "k", 1, c, &v, &arena, &err);
    }
    out.ms = elapsed_ms(&t0);
    out.detail = err.detail;
    memcpy(out.message, err.message, sizeof out.message);
    if (write(report, &out, sizeof out) != (ssize_t)sizeof out)
        _exit(3);
    codec_redis_free(r);
    codec_arena_free(&arena);
    codec_free(c);
    _exit(0);
}

/* Waits for the first bytes of a command (a full RESP array is not needed:
 * the hostile reply does not depend on it). */
static bool await_command(int fd)
{
    struct pollfd p = {fd, POLLIN, 0};
    char buf[4096];
    return poll(&p, 1, 10000) == 1 && recv(fd, buf, sizeof buf, 0) > 0;
}

/* The server side of one case: returns the bytes it got out. */
static size_t serve(const hostile_case *hc, int lfd)
{
    struct pollfd p = {lfd, POLLIN, 0};
    if (poll(&p, 1, 10000) != 1)
        return 0;
    int fd = accept(lfd, NULL, NULL);
    size_t sent = 0;
    if (fd < 0 || !await_command(fd))
        goto done;
    if (send(fd, hc->reply, hc->reply_len, MSG_NOSIGNAL) != (ssize_t)hc->reply_len)
        goto done;
    sent = hc->reply_len;
    static char filler[65536];
    memset(filler, 'x', sizeof filler);
    for (size_t left = hc->stream; left;) {
        size_t n = left < sizeof filler ? left : sizeof filler;
        ssize_t w = send(fd, filler, n, MSG_NOSIGNAL);
        if (w <= 0)
            break;   /* the client hung up: as it should */
        sent += (size_t)w;
        left -= (size_t)w;
    }
    for (int i = 0; hc->trickle_ms && i < 100000 / hc->trickle_ms; i++) {
        if (send(fd, "x", 1, MSG_NOSIGNAL) != 1)
            break;
        sent++;
        struct timespec ts = {0, (long)hc->trickle_ms * 1000000L};
        nanosleep(&ts, NULL);
    }
done:
    if (fd >= 0)
        close(fd);
    return sent;
}

static measured run_case(const hostile_case *hc)
{
    measured m = {0};
    int port, pipefd[2];
    int lfd = listen_loopback(&port);
    if (pipe(pipefd)) {
        perror("pipe");
        exit(1);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(lfd);
        close(pipefd[0]);
        client(hc, port, pipefd[1]);
    }
    close(pipefd[1]);
    m.sent = serve(hc, lfd);
    close(lfd);
    if (read(pipefd[0], &m.out, sizeof m.out) != (ssize_t)sizeof m.out)
        m.out.rc = -1000;   /* the child died without a report */
    close(pipefd[0]);
    int status;
    struct rusage ru;
    CHECK(wait4(pid, &status, 0, &ru) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    m.max_rss_kb = ru.ru_maxrss;
    printf("%-34s rc %d after %6.0f ms, peak RSS %6ld KiB, server sent %zu bytes: %s\n",
           hc->name, m.out.rc, m.out.ms, m.max_rss_kb, m.sent, m.out.message);
    return m;
}

static bool has(const measured *m, const char *needle)
{
    if (strstr(m->out.message, needle))
        return true;
    fprintf(stderr, "message '%s' lacks '%s'\n", m->out.message, needle);
    return false;
}

#define CASE(name, text) name, text, sizeof text - 1

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    /* The reference: a harmless one-byte-value reply (a crc32c mismatch). */
    hostile_case base = {CASE("baseline: $1 x", "$1\r\nx\r\n"), 0, 0, 1024, 2000, false};
    measured b = run_case(&base);
    CHECK_INT(b.out.rc, CODEC_E_INVALID_PAYLOAD);
    long limit_kb = b.max_rss_kb + SLACK_KB;

    /* An array count the GET can never need: refused from its header. */
    const char *arrays[] = {"*200000000\r\n", "*1000000000\r\n", "*2147483647\r\n"};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        hostile_case hc = {arrays[i], arrays[i], strlen(arrays[i]), 0, 0, 1024, 2000, false};
        measured m = run_case(&hc);
        CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
        CHECK_INT(m.out.detail, CODEC_D_CORRUPT);
        CHECK(has(&m, "protocol error") && has(&m, "at most"));
        CHECK(m.max_rss_kb <= limit_kb);
    }
    /* The same for MGET: 3 keys asked, a billion elements announced. */
    hostile_case mget = {CASE("MGET answered *1000000000", "*1000000000\r\n"), 0, 0, 1024, 2000,
                         true};
    measured m = run_case(&mget);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
    CHECK(has(&m, "an array of 1000000000 elements where at most 3 can come"));
    CHECK(m.max_rss_kb <= limit_kb);

    /* A 2 GB bulk, 600 MB of it streamed: refused from its length. */
    hostile_case bulk = {CASE("$2000000000 + 600 MB streamed", "$2000000000\r\n"),
                         (size_t)600 << 20, 0, 1024, 2000, false};
    m = run_case(&bulk);
    CHECK_INT(m.out.rc, CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(m.out.detail, CODEC_D_LIMIT);
    CHECK(has(&m, "key 'k': value of 2000000000 bytes is over the limit of 1024"));
    CHECK(m.max_rss_kb <= limit_kb);
    CHECK(m.sent < ((size_t)600 << 20));   /* the client hung up, it did not drain */

    /* A bulk just over max_value in an MGET: the whole call fails, bounded. */
    hostile_case over = {CASE("MGET with a 1025-byte value", "*3\r\n$1025\r\n"), 1027, 0, 1024,
                         2000, true};
    m = run_case(&over);
    CHECK_INT(m.out.rc, CODEC_E_INVALID_PAYLOAD);
    CHECK_INT(m.out.detail, CODEC_D_LIMIT);

    /* A line that never ends: refused at 16 KiB. */
    hostile_case line = {CASE("an endless error line", "-ERR "), (size_t)64 << 20, 0, 1024,
                         2000, false};
    m = run_case(&line);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
    CHECK(has(&m, "a reply line longer than 16 KiB"));
    CHECK(m.max_rss_kb <= limit_kb);

    /* Arrays inside arrays: nesting is bounded, whatever the counts. */
    hostile_case deep = {CASE("arrays nested 9 deep", "*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n"
                                                      "*1\r\n*1\r\n:1\r\n"),
                         0, 0, 1024, 2000, false};
    m = run_case(&deep);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
    CHECK(has(&m, "nested too deep"));

    /* One byte every 50 ms of a 1000-byte value: each read succeeds, so only
     * a deadline on the whole call ends it (300 ms; the trickle would take
     * 50 s). */
    hostile_case trickle = {CASE("a value trickled 1 byte / 50 ms", "$1000\r\n"), 0, 50, 1024,
                            300, false};
    m = run_case(&trickle);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
    CHECK(has(&m, "timed out after 300 ms"));
    CHECK(m.out.ms < 10000);   /* generous: the trickle alone lasts 50 s */

    /* Garbage where a type byte belongs. */
    hostile_case junk = {CASE("a reply starting with '!'", "!oops\r\n"), 0, 0, 1024, 2000, false};
    m = run_case(&junk);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
    CHECK(has(&m, "byte 0x21"));

    /* An error reply carrying terminal escapes (finding 7): quoted escaped. */
    hostile_case esc = {CASE("an error reply with escapes",
                             "-ERR \x1b]0;pwned\x07\x1b[2J\xc2\x9b" "31m\r\n"),
                        0, 0, 1024, 2000, false};
    m = run_case(&esc);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);
    CHECK(has(&m, "key 'k': ERR \\x1b]0;pwned\\x07\\x1b[2J\\xc2\\x9b31m"));
    for (const char *p = m.out.message; *p; p++)
        CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);

    /* A large value within max_value costs one copy (the arena), not the
     * three of hiredis's reader (its buffer, the reply, the arena copy). */
    static char head[32];
    size_t big = (size_t)48 << 20;
    int hl = snprintf(head, sizeof head, "$%zu\r\n", big);
    hostile_case large = {"a 48 MiB value, max_value 64 MiB", head, (size_t)hl, big, 0,
                          (size_t)64 << 20, 10000, false};
    m = run_case(&large);
    CHECK_INT(m.out.rc, CODEC_E_TRANSIENT);   /* the server never sends its CRLF */
    CHECK(m.max_rss_kb <= limit_kb + (long)(big >> 10));
    return check_done("test_redis_hostile");
}
#endif
