/* cmd_input.c — input and error printing shared by the commands. */
#include "cmd_input.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cmd_read_input(const char *path, codec_buf *out, codec_error *err)
{
    bool use_stdin = !path || strcmp(path, "-") == 0;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "input", CODEC_NO_OFFSET,
                               "cannot open %s: %s", path, strerror(errno));
    int rc = CODEC_OK;
    for (;;) {
        if (codec_buf_reserve(out, 1 << 16)) {
            rc = codec_error_set(err, CODEC_E_NOMEM, 0, "input", CODEC_NO_OFFSET,
                                 "out of memory");
            break;
        }
        size_t got = fread(out->data + out->len, 1, out->cap - out->len, f);
        out->len += got;
        if (got == 0) {
            if (ferror(f))
                rc = codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "input",
                                     CODEC_NO_OFFSET, "cannot read %s",
                                     use_stdin ? "standard input" : path);
            break;
        }
    }
    if (!use_stdin)
        fclose(f);
    return rc;
}

void cmd_print_error(const char *cmd, const codec_error *err)
{
    char line[320];
    fprintf(stderr, "codec %s: %s\n", cmd, codec_error_format(err, line, sizeof line));
}
