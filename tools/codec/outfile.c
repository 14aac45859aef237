/* outfile.c — files the CLI creates: a temporary file beside the target,
 * renamed into place when complete, removed on failure or on a fatal
 * signal (see outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const cli_outfile closed = {-1, NULL, NULL, 0, (uid_t)-1, (gid_t)-1};

static int out_error(codec_error *err, const char *path, const char *what, int errnum)
{
    return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                           "cannot write '%s': %s%s%s", path, what, errnum ? ": " : "",
                           errnum ? strerror(errnum) : "");
}

/* The temporary file a fatal signal must remove (one at a time). */
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

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* `<dir>/.<name>.codec-XXXXXX`, made with mkstemp (O_EXCL, mode 0600) and
 * watched for fatal signals from before it exists. */
static int make_temp(cli_outfile *f, codec_error *err)
{
    char *dir_copy = strdup(f->path), *name_copy = strdup(f->path);
    size_t cap = strlen(f->path) + 24;
    f->tmp = malloc(cap);
    if (!dir_copy || !name_copy || !f->tmp) {
        free(dir_copy), free(name_copy), free(f->tmp);
        f->tmp = NULL;
        return out_error(err, f->path, "out of memory", 0);
    }
    int w = snprintf(f->tmp, cap, "%s/.%s.codec-XXXXXX", dirname(dir_copy),
                     basename(name_copy));
    free(dir_copy), free(name_copy);
    if (w < 0 || (size_t)w >= sizeof pending) {
        free(f->tmp);
        f->tmp = NULL;
        return out_error(err, f->path, "the name is too long", 0);
    }
    watch_signals();
    pending_set = 0;
    memcpy(pending, f->tmp, (size_t)w + 1);
    pending_set = 1;
    f->fd = mkstemp(pending);
    if (f->fd < 0) {
        int e = errno;
        pending_set = 0;
        free(f->tmp);
        f->tmp = NULL;
        return out_error(err, f->path, "cannot create a temporary file beside it", e);
    }
    memcpy(f->tmp, pending, (size_t)w + 1);
    return CODEC_OK;
}

/* Where the bytes go: `path`, or the file a symbolic link leads to. */
static int resolve(const char *path, struct stat *st, bool *exists, char **out,
                   codec_error *err)
{
    *exists = lstat(path, st) == 0;
    if (!*exists && errno != ENOENT)
        return out_error(err, path, "cannot look at it", errno);
    if (*exists && S_ISLNK(st->st_mode)) {
        *out = realpath(path, NULL);
        if (!*out)
            return out_error(err, path, "cannot follow the symbolic link", errno);
        *exists = stat(*out, st) == 0;
        return CODEC_OK;
    }
    *out = strdup(path);
    return *out ? CODEC_OK : out_error(err, path, "out of memory", 0);
}

int cli_outfile_open(cli_outfile *f, const char *path, int mode, codec_error *err)
{
    *f = closed;
    struct stat st;
    bool exists;
    int rc = resolve(path, &st, &exists, &f->path, err);
    if (rc)
        return rc;
    if (exists && S_ISDIR(st.st_mode))
        rc = out_error(err, path, "it is a directory", 0);
    else if (exists && !S_ISREG(st.st_mode)) {
        /* a FIFO or device: write to it as it is */
        f->fd = open(f->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (f->fd < 0)
            rc = out_error(err, path, "cannot open it", errno);
    } else if (exists && faccessat(AT_FDCWD, f->path, W_OK, AT_EACCESS) != 0) {
        rc = out_error(err, path, "it exists and you may not write it", errno);
    } else {
        bool keep = exists && mode == CLI_OUTFILE_MODE_KEEP;
        f->mode = keep                              ? st.st_mode & 07777
                  : mode == CLI_OUTFILE_MODE_KEEP ? new_file_mode()
                                                  : (mode_t)mode & 07777;
        f->uid = keep ? st.st_uid : (uid_t)-1;
        f->gid = keep ? st.st_gid : (gid_t)-1;
        rc = make_temp(f, err);
    }
    if (rc) {
        free(f->path);
        f->path = NULL;
    }
    return rc;
}

int cli_outfile_write(cli_outfile *f, const void *data, size_t n, codec_error *err)
{
    const uint8_t *p = data;
    while (n) {
        ssize_t w = write(f->fd, p, n < (size_t)SSIZE_MAX ? n : (size_t)SSIZE_MAX);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return out_error(err, f->path, "write failed", errno);
        p += w;
        n -= (size_t)w;
    }
    return CODEC_OK;
}

void cli_outfile_abort(cli_outfile *f)
{
    if (f->fd >= 0)
        close(f->fd);
    if (f->tmp) {
        unlink(f->tmp); /* ours: made by mkstemp in this run */
        pending_set = 0;
    }
    free(f->tmp);
    free(f->path);
    *f = closed;
}

int cli_outfile_commit(cli_outfile *f, bool replace, codec_error *err)
{
    int rc = CODEC_OK;
    if (f->tmp) {
        /* Keep the replaced file's owner where allowed; its mode always. */
        if (f->uid != (uid_t)-1 && fchown(f->fd, f->uid, f->gid) != 0 && geteuid() == 0)
            rc = out_error(err, f->path, "cannot keep its owner", errno);
        if (!rc && fchmod(f->fd, f->mode) != 0)
            rc = out_error(err, f->path, "cannot set its mode", errno);
        if (!rc && fsync(f->fd) != 0)
            rc = out_error(err, f->path, "cannot flush it to disk", errno);
    }
    int fd = f->fd;
    f->fd = -1;
    if (close(fd) != 0 && !rc)
        rc = out_error(err, f->path, "write failed", errno);
    if (!rc && f->tmp && !replace && access(f->path, F_OK) == 0)
        rc = out_error(err, f->path, "it appeared meanwhile (use -f to overwrite)", 0);
    if (!rc && f->tmp && rename(f->tmp, f->path) != 0)
        rc = out_error(err, f->path, "cannot move the new file into place", errno);
    if (rc) {
        cli_outfile_abort(f);
        return rc;
    }
    if (f->tmp)
        pending_set = 0;
    free(f->tmp);
    free(f->path);
    *f = closed;
    return CODEC_OK;
}

int cli_write_file(const char *path, const void *data, size_t n, codec_error *err)
{
    cli_outfile f;
    int rc = cli_outfile_open(&f, path, CLI_OUTFILE_MODE_KEEP, err);
    if (rc)
        return rc;
    if ((rc = cli_outfile_write(&f, data, n, err))) {
        cli_outfile_abort(&f);
        return rc;
    }
    return cli_outfile_commit(&f, true, err);
}
