/* cmd_validate.c — `codec validate -f FORMAT [FILE]`: is the input one valid
 * document of FORMAT? Exit 0 when it is, 1 (with the error and its byte
 * offset on stderr) when it is not, 2 for a usage error.
 *
 * The input is decoded as a schemaless value, so FORMAT may be any backend
 * spec with its limits, e.g. `-f json:max-depth=1000,duplicates=allow`. */
#include "cmd_input.h"

#include <stdio.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: codec validate -f FORMAT [FILE]\n"
                    "  FORMAT  a backend spec, e.g. json or json:max-depth=1000\n"
                    "  FILE    the document (default: standard input)\n"
                    "exit: 0 valid, 1 invalid (error and byte offset on stderr), 2 usage\n");
    return CODEC_E_USAGE;
}

int cmd_validate(int argc, char **argv)
{
    const char *format = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "-f") == 0 || strcmp(argv[i], "--format") == 0) && i + 1 < argc)
            format = argv[++i];
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return usage(), 0;
        else if (argv[i][0] == '-' && argv[i][1])
            return usage();
        else if (!path)
            path = argv[i];
        else
            return usage();
    }
    if (!format)
        return usage();
    codec_error err = {0};
    codec *c = codec_parse(format, codec_value_type(), &err);
    if (!c) {
        cmd_print_error("validate", &err);
        return CODEC_E_USAGE;
    }
    codec_buf in;
    codec_buf_init(&in, NULL);
    int rc = cmd_read_input(path, &in, &err);
    if (!rc) {
        codec_arena arena;
        codec_arena_init(&arena, NULL, in.len + 4096);
        codec_value v;
        rc = codec_decode(c, in.data, in.len, &v, &arena, &err);
        codec_arena_free(&arena);
    }
    if (rc)
        cmd_print_error("validate", &err);
    codec_buf_free(&in);
    codec_free(c);
    if (rc == CODEC_E_INVALID_PAYLOAD || rc == CODEC_E_UNSUPPORTED)
        return 1;
    return rc;
}
