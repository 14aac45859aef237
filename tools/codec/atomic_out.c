/* atomic_out.c — output files that appear only when complete: written to a
 * temporary file beside the target, renamed over it on success, removed on
 * failure or on a signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE), so no command
 * ever leaves a partial output file. (see cli.h) */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file a signal must remove (one at a time per process). */
static char pending[4096];
static volatile sig_atomic_t pending_set;

static void on_signal(int sig)
{
    if (pending_set)
        unlink(pending);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_signals(void)
{
    static bool installed;
    if (installed)
        return;
    installed = true;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], on_signal);
}

int cli_atomic_open(cli_atomic *a, const char *target, int mode, codec_error *err)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
    int w = snprintf(a->temp, sizeof a->temp, "%.*s.%s.codec-XXXXXX", (int)dir, target,
                     target + dir);
    a->fd = -1;
    a->target = target;
    if (w < 0 || (size_t)w >= sizeof a->temp || (size_t)w >= sizeof pending)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                               "output name too long: '%s'", target);
    watch_signals();
    memcpy(pending, a->temp, (size_t)w + 1);
    pending_set = 1;
    a->fd = mkstemp(pending);
    if (a->fd < 0) {
        pending_set = 0;
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                               "cannot create a file beside '%s': %s", target, strerror(errno));
    }
    memcpy(a->temp, pending, (size_t)w + 1);
    if (fchmod(a->fd, (mode_t)mode) != 0) {
        int e = errno;
        cli_atomic_abort(a);
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                               "cannot set the mode of '%s': %s", a->temp, strerror(e));
    }
    return CODEC_OK;
}

int cli_atomic_commit(cli_atomic *a, bool replace, codec_error *err)
{
    int e = 0;
    if (fsync(a->fd) != 0 || close(a->fd) != 0)
        e = errno;
    a->fd = -1;
    if (!e && !replace && access(a->target, F_OK) == 0)
        e = EEXIST;
    if (!e && rename(a->temp, a->target) != 0)
        e = errno;
    if (e) {
        cli_atomic_abort(a);
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                               "cannot write '%s': %s", a->target, strerror(e));
    }
    pending_set = 0;
    return CODEC_OK;
}

void cli_atomic_abort(cli_atomic *a)
{
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
    unlink(a->temp);
    pending_set = 0;
}
