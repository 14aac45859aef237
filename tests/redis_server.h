/* redis_server.h — tests run their own redis-server: 127.0.0.1 only, a
 * free port, a mkdtemp directory, no daemonising. Include it first: it
 * needs _GNU_SOURCE. The server dies with the test
 * process (PR_SET_PDEATHSIG) even when the test crashes, and
 * redis_server_stop() removes its directory.
 *
 *   redis_server s;
 *   if (!redis_server_start(&s, false)) -> skip (no /usr/bin/redis-server)
 *   ... connect to 127.0.0.1:s.port ...
 *   redis_server_stop(&s);
 */
#ifndef CODEC_TEST_REDIS_SERVER_H
#define CODEC_TEST_REDIS_SERVER_H

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ftw.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REDIS_SERVER_PATH "/usr/bin/redis-server"

typedef struct redis_server {
    pid_t pid;            /* 0 when not running */
    int port;
    bool durable;         /* appendonly yes, appendfsync always */
    char dir[64];
    const char *const *extra;   /* more arguments (NULL-terminated), or NULL */
} redis_server;

/* A port the kernel just handed out on 127.0.0.1 (free now, very likely
 * still free when redis-server binds it a moment later). */
static inline int redis_server_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

static inline void redis_server_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* True when PING answers PONG on the server's port. */
static inline bool redis_server_ping(const redis_server *s)
{
    struct timeval tv = {0, 200000};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", s->port, tv);
    bool ok = false;
    if (c && !c->err) {
        redisSetTimeout(c, tv);
        redisReply *r = redisCommand(c, "PING");
        ok = r && r->type == REDIS_REPLY_STATUS && strcmp(r->str, "PONG") == 0;
        freeReplyObject(r);
    }
    redisFree(c);
    return ok;
}

/* Starts (or, with s->dir and s->port already set, restarts) the server
 * process; waits up to 10 s for PING. */
static inline bool redis_server_spawn(redis_server *s)
{
    char port[16];
    snprintf(port, sizeof port, "%d", s->port);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        const char *argv[40] = {REDIS_SERVER_PATH, "--bind", "127.0.0.1", "--port", port,
                                "--dir", s->dir, "--daemonize", "no", "--save", "",
                                "--protected-mode", "yes", "--logfile", "server.log",
                                "--appendonly", s->durable ? "yes" : "no", "--appendfsync",
                                s->durable ? "always" : "everysec"};
        size_t n = 19;
        for (size_t i = 0; s->extra && s->extra[i] && n < 39; i++)
            argv[n++] = s->extra[i];
        execv(REDIS_SERVER_PATH, (char *const *)argv);
        _exit(127);
    }
    s->pid = pid;
    for (int i = 0; i < 1000; i++) {
        if (redis_server_ping(s))
            return true;
        if (waitpid(pid, NULL, WNOHANG) == pid) {
            s->pid = 0;
            return false;
        }
        redis_server_sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    s->pid = 0;
    return false;
}

/* Starts a fresh server in a new temporary directory on a free port.
 * Returns false (and prints why) when there is no redis-server or it does
 * not come up; the caller then skips. */
static inline bool redis_server_start(redis_server *s, bool durable)
{
    memset(s, 0, sizeof *s);
    s->durable = durable;
    if (access(REDIS_SERVER_PATH, X_OK) != 0) {
        printf("note: %s not found: skipping the tests that need a server\n",
               REDIS_SERVER_PATH);
        return false;
    }
    snprintf(s->dir, sizeof s->dir, "/tmp/codec-redis-XXXXXX");
    if (!mkdtemp(s->dir)) {
        perror("mkdtemp");
        return false;
    }
    for (int attempt = 0; attempt < 5; attempt++) {
        s->port = redis_server_free_port();
        if (s->port > 0 && redis_server_spawn(s))
            return true;
    }
    printf("note: redis-server did not start (see %s/server.log)\n", s->dir);
    return false;
}

/* SIGKILL: no shutdown, no final save. Keeps the directory for a restart. */
static inline void redis_server_kill(redis_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
        s->pid = 0;
    }
}

static inline int redis_server_rm(const char *path, const struct stat *st, int flag,
                                  struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Stops the server (if running) and deletes its directory. */
static inline void redis_server_stop(redis_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGCONT);   /* a stopped server cannot act on SIGTERM */
        kill(s->pid, SIGTERM);
        for (int i = 0; i < 500 && s->pid > 0; i++) {
            if (waitpid(s->pid, NULL, WNOHANG) == s->pid)
                s->pid = 0;
            else
                redis_server_sleep_ms(10);
        }
        redis_server_kill(s);
    }
    if (s->dir[0])
        nftw(s->dir, redis_server_rm, 8, FTW_DEPTH | FTW_PHYS);
    s->dir[0] = '\0';
}

#endif
