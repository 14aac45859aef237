/* io.c — see io.h. */
#include "io.h"

#include <codec/protobuf.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

uint8_t *codec__gen_read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        uint8_t *more = realloc(buf, cap *= 2);
        if (!more)
            free(buf);
        buf = more;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    *len = n;
    return buf;
}

int codec__gen_decode(const codec_type *t, const uint8_t *in, size_t n, void *value,
                      codec_arena *arena, const char *what)
{
    codec_error err;
    codec_protobuf_options o = {.max_size = (size_t)1 << 30};
    codec *c = codec_protobuf(t, &o, &err);
    int rc = c ? codec_decode(c, in, n, value, arena, &err) : -1;
    codec_free(c);
    if (rc) {
        char msg[300];
        fprintf(stderr, "codec-gen: cannot read %s: %s\n", what,
                codec_error_format(&err, msg, sizeof msg));
        return -1;
    }
    return 0;
}

/* mkdir -p of the directories in `path` (up to its last slash). */
static int make_dirs(char *path)
{
    for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = '\0';
        int rc = mkdir(path, 0777);
        *p = '/';
        if (rc && errno != EEXIST)
            return -1;
    }
    return 0;
}

int codec__gen_write_files(const codec__gen_result *r, const char *dir)
{
    for (size_t i = 0; i < r->count; i++) {
        size_t need = strlen(dir) + strlen(r->files[i].name) + 2;
        char *path = malloc(need);
        if (!path)
            return -1;
        snprintf(path, need, "%s/%s", dir, r->files[i].name);
        FILE *f = make_dirs(path) ? NULL : fopen(path, "wb");
        int ok = f && fwrite(r->files[i].text.data, 1, r->files[i].text.len, f) ==
                          r->files[i].text.len;
        if (f && fclose(f))
            ok = 0;
        if (!ok)
            fprintf(stderr, "codec-gen: cannot write %s: %s\n", path, strerror(errno));
        free(path);
        if (!ok)
            return -1;
    }
    return 0;
}
