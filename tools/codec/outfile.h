/* outfile.h — how `codec` writes a file it was asked to create (`-o PATH`):
 * into a new temporary file in PATH's directory, renamed over PATH only
 * when everything was written. Readers never see half a file, a failed run
 * leaves PATH as it was, and the only file ever removed is the temporary
 * one this run created.
 *
 *   cli_outfile f;
 *   if (cli_outfile_open(&f, path, &err)) return cli_fail(&err);
 *   while (...) if (cli_outfile_write(&f, p, n, &err)) { cli_outfile_abort(&f); ... }
 *   if (cli_outfile_commit(&f, &err)) return cli_fail(&err);   (aborts itself)
 *
 * What PATH may be:
 *   - absent: created with mode 0666 minus the umask, as fopen would;
 *   - a regular file: replaced, only if the caller may write it (a
 *     read-only file is refused, whoever owns the directory); the new file
 *     keeps its mode (and owner and group, when the caller may set them);
 *   - a symbolic link: the file it leads to is written;
 *   - a FIFO, a terminal, /dev/null (anything not regular): written in place,
 *     never replaced or removed;
 *   - a directory: refused.
 * Errors are CODEC_E_TRANSIENT, detail CODEC_D_IO, stage "output", and name
 * PATH and the reason. Not thread-safe (reads the umask). */
#ifndef CODEC_CLI_OUTFILE_H
#define CODEC_CLI_OUTFILE_H

#include "codec/codec.h"

#include <sys/types.h>

typedef struct cli_outfile {
    int fd;
    char *path;    /* where the bytes go (a link resolved) */
    char *tmp;     /* the temporary file; NULL when writing in place */
    mode_t mode;   /* of the finished file */
    uid_t uid;     /* owner and group to keep; (uid_t)-1 for a new file */
    gid_t gid;
} cli_outfile;

/** cli_outfile_open() — prepares to write `path` (see above).
 * @return 0, or CODEC_E_TRANSIENT (nothing was created); `f` then needs no
 *         cleanup. */
int cli_outfile_open(cli_outfile *f, const char *path, codec_error *err);

/** cli_outfile_write() — appends n bytes. @return 0 or CODEC_E_TRANSIENT;
 * on failure the caller still calls cli_outfile_abort(). */
int cli_outfile_write(cli_outfile *f, const void *data, size_t n, codec_error *err);

/** cli_outfile_commit() — flushes to disk and moves the file into place.
 * @return 0, or CODEC_E_TRANSIENT after aborting (PATH is unchanged). */
int cli_outfile_commit(cli_outfile *f, codec_error *err);

/** cli_outfile_abort() — removes the temporary file (never PATH) and frees
 * what `f` holds. */
void cli_outfile_abort(cli_outfile *f);

/** cli_write_file() — open, write n bytes, commit: the whole file at once.
 * @return 0 or CODEC_E_TRANSIENT (PATH is then unchanged). */
int cli_write_file(const char *path, const void *data, size_t n, codec_error *err);

#endif /* CODEC_CLI_OUTFILE_H */
