/* cmd_keygen.c — `codec keygen [--id NAME]`: prints one key-ring line,
 * `<key-id> <64 hex digits>`, with a new AES-256 KEK from OpenSSL's private
 * random generator (codec_keyring_generate_line()). Append it to a ring file
 * that only its owner can read:
 *
 *   umask 077; codec keygen --id orders-2026 >> keys.ring
 */
#include "cli.h"

#include "codec/codec.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: codec keygen [--id NAME]\n"
    "Prints a new key-ring line '<key-id> <64 hex digits>' (an AES-256 KEK from a\n"
    "secure random source). NAME is 1..255 visible ASCII characters; the default\n"
    "is kek-YYYYMMDD-XXXXXXXX. The first line of a ring is the current key.\n"
    "example: (umask 077; codec keygen --id orders-2026 >> keys.ring)\n";

static int keygen_usage_error(const char *fmt, const char *word)
{
    fprintf(stderr, "codec: usage: keygen: ");
    fprintf(stderr, fmt, word);
    fprintf(stderr, "\n(run 'codec help keygen')\n");
    return CODEC_E_USAGE;
}

/* Returns the --id value or NULL, or sets *bad to the exit code. */
static const char *parse_args(int argc, char **argv, int *bad)
{
    const char *id = NULL;
    *bad = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            *bad = -1;
        } else if (strcmp(a, "--id") == 0 && i + 1 < argc && !id) {
            id = argv[++i];
        } else if (strncmp(a, "--id=", 5) == 0 && !id) {
            id = a + 5;
        } else {
            *bad = keygen_usage_error(strncmp(a, "--id", 4) == 0 ? "'%s' needs one NAME"
                                                                 : "unexpected argument '%s'",
                                      a);
        }
        if (*bad)
            return NULL;
    }
    return id;
}

int cmd_keygen(int argc, char **argv)
{
    int bad;
    const char *id = parse_args(argc, argv, &bad);
    if (bad)
        return bad < 0 ? 0 : bad;
    char line[CODEC_ENVELOPE_MAX_KEY_ID + 80];
    codec_error err;
    int rc = codec_keyring_generate_line(id, line, sizeof line, &err);
    if (rc) {
        char msg[256];
        fprintf(stderr, "codec: %s\n", codec_error_format(&err, msg, sizeof msg));
        /* usage, or unsupported in a build without OpenSSL; else transient */
        return rc == CODEC_E_USAGE || rc == CODEC_E_UNSUPPORTED ? rc : CODEC_E_TRANSIENT;
    }
    fputs(line, stdout);
    explicit_bzero(line, sizeof line);   /* a store the compiler keeps */
    return fflush(stdout) == 0 ? 0 : CODEC_E_TRANSIENT;
}
