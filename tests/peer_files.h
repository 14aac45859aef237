/* peer_files.h — what the tests against external peers (protoc, Python)
 * share (include after check.h): a temporary directory, files in it, and
 * commands run with the shell. */
#ifndef CODEC_TEST_PEER_FILES_H
#define CODEC_TEST_PEER_FILES_H

#include "check.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

/* The directory: peer_dir_make("codec_pb") creates /tmp/codec_pb_XXXXXX. */
static char peer_dir[64];

static inline bool peer_dir_make(const char *prefix)
{
    snprintf(peer_dir, sizeof peer_dir, "/tmp/%s_XXXXXX", prefix);
    return mkdtemp(peer_dir) != NULL;
}

static inline void write_file(const char *name, const void *data, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", peer_dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* The bytes of file `name` (free them), or NULL after a failed CHECK. */
static inline unsigned char *read_back(const char *name, size_t *n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", peer_dir, name);
    unsigned char *p = check_read_file(path, n);
    CHECK(p != NULL);
    return p;
}

/* Runs a shell command; its status (printed when not 0). */
__attribute__((format(printf, 1, 2))) static inline int run(const char *fmt, ...)
{
    char cmd[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    int rc = system(cmd);
    if (rc)
        fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return rc;
}

#endif
