/* outfile.h — how `codec` writes a file it was asked to create (`-o PATH`,
 * `FILE.zst` beside an input, `dict train -o PATH`): into a new temporary
 * file `.NAME.codec-XXXXXX` in PATH's directory, renamed over PATH only
 * when everything was written. Readers never see half a file, a failed run
 * leaves PATH as it was, a fatal signal (SIGINT, SIGTERM, SIGHUP, SIGPIPE)
 * removes the temporary file before the process dies, and the only file
 * ever removed is the temporary one this run created.
 *
 *   cli_outfile f;
 *   if (cli_outfile_open(&f, path, CLI_OUTFILE_MODE_KEEP, &err)) return cli_fail(&err);
 *   while (...) if (cli_outfile_write(&f, p, n, &err)) { cli_outfile_abort(&f); ... }
 *   if (cli_outfile_commit(&f, true, &err)) return cli_fail(&err);   (aborts itself)
 *
 * What PATH may be:
 *   - absent: created with the mode given, or 0666 minus the umask (as
 *     fopen would) with CLI_OUTFILE_MODE_KEEP;
 *   - a regular file: replaced, only if the caller may write it (a
 *     read-only file is refused, whoever owns the directory); with
 *     CLI_OUTFILE_MODE_KEEP the new file keeps its mode (and owner and
 *     group, when the caller may set them), else it gets the mode given;
 *   - a symbolic link: the file it leads to is written;
 *   - a FIFO, a terminal, /dev/null (anything not regular): written in place,
 *     never replaced or removed;
 *   - a directory: refused.
 * Errors are CODEC_E_TRANSIENT, detail CODEC_D_IO, stage "output", and name
 * PATH and the reason. Not thread-safe (reads the umask; one temporary file
 * at a time per process is watched for signals). */
#ifndef CODEC_CLI_OUTFILE_H
#define CODEC_CLI_OUTFILE_H

#include "codec/codec.h"

#include <stdbool.h>
#include <sys/types.h>

/* cli_outfile_open()'s `mode` for "keep the replaced file's, else 0666
 * minus the umask". */
#define CLI_OUTFILE_MODE_KEEP (-1)

typedef struct cli_outfile {
    int fd;
    char *path;    /* where the bytes go (a link resolved) */
    char *tmp;     /* the temporary file; NULL when writing in place */
    mode_t mode;   /* of the finished file */
    uid_t uid;     /* owner and group to keep; (uid_t)-1 for a new file */
    gid_t gid;
} cli_outfile;

/** cli_outfile_open() — prepares to write `path` (see above); `mode` is the
 * permission bits of the finished file, or CLI_OUTFILE_MODE_KEEP.
 * @return 0, or CODEC_E_TRANSIENT (nothing was created); `f` then needs no
 *         cleanup. */
int cli_outfile_open(cli_outfile *f, const char *path, int mode, codec_error *err);

/** cli_outfile_write() — appends n bytes. @return 0 or CODEC_E_TRANSIENT;
 * on failure the caller still calls cli_outfile_abort(). */
int cli_outfile_write(cli_outfile *f, const void *data, size_t n, codec_error *err);

/** cli_outfile_commit() — flushes to disk and moves the file into place;
 * with `replace` false a PATH that appeared meanwhile is left alone and is
 * an error (the `-f` rule of gzip).
 * @return 0, or CODEC_E_TRANSIENT after aborting (PATH is unchanged). */
int cli_outfile_commit(cli_outfile *f, bool replace, codec_error *err);

/** cli_outfile_abort() — removes the temporary file (never PATH) and frees
 * what `f` holds. */
void cli_outfile_abort(cli_outfile *f);

/** cli_write_file() — open, write n bytes, commit: the whole file at once.
 * @return 0 or CODEC_E_TRANSIENT (PATH is then unchanged). */
int cli_write_file(const char *path, const void *data, size_t n, codec_error *err);

#endif /* CODEC_CLI_OUTFILE_H */
