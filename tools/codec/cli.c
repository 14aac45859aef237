/* cli.c — helpers shared by the `codec` commands (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_exit_code(int status)
{
    switch (status) {
    case CODEC_OK: return CLI_EXIT_OK;
    case CODEC_E_INVALID_PAYLOAD: return CLI_EXIT_PAYLOAD;
    case CODEC_E_USAGE:
    case CODEC_E_INVALID_VALUE: return CLI_EXIT_USAGE;
    case CODEC_E_UNSUPPORTED: return CLI_EXIT_UNSUPPORTED;
    default: return CLI_EXIT_TRANSIENT;   /* transient, out of memory */
    }
}

int cli_fail(const codec_error *err)
{
    char line[256];
    fprintf(stderr, "codec: %s\n", codec_error_format(err, line, sizeof line));
    return cli_exit_code(err->family);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (cmd)
        fprintf(stderr, "codec: usage: %s: %s\nTry 'codec help %s'.\n", cmd, msg, cmd);
    else
        fprintf(stderr, "codec: usage: %s\nTry 'codec --help'.\n", msg);
    return CLI_EXIT_USAGE;
}

int cli_option_error(const char *cmd, int opt, char **argv)
{
    /* getopt_long leaves the word it just finished at argv[optind - 1]; an
     * unknown letter inside a cluster ("-xz") only shows through optopt. */
    const char *word = optind > 0 ? argv[optind - 1] : "";
    bool long_word = strncmp(word, "--", 2) == 0;
    if (opt == ':')
        return long_word ? cli_usage_error(cmd, "option '%s' needs a value", word)
                         : cli_usage_error(cmd, "option '-%c' needs a value", optopt);
    if (optopt == 0)
        return cli_usage_error(cmd, "unknown option '%s'", word);
    if (long_word && strchr(word, '='))
        return cli_usage_error(cmd, "option '%s' takes no value", word);
    return cli_usage_error(cmd, "unknown option '-%c'", optopt);
}

void cli_options_start(cli_options *o, char **argv, const char *usage, const char *letters,
                       const struct option *longs)
{
    *o = (cli_options){argv[0], usage, letters, longs, CLI_DEFAULT_MAX_INPUT, CLI_EXIT_OK};
    optind = 1;
    opterr = 0;
}

int cli_next_option(cli_options *o, int argc, char **argv)
{
    int opt;
    while ((opt = getopt_long(argc, argv, o->letters, o->longs, NULL)) == 'm')
        if ((o->exit = cli_set_max_input(o->cmd, optarg, &o->max_input)))
            return CLI_OPTIONS_EXIT;
    if (opt == 'h') {
        fputs(o->usage, stdout);
        o->exit = CLI_EXIT_OK;
        return CLI_OPTIONS_EXIT;
    }
    if (opt == '?' || opt == ':') {
        o->exit = cli_option_error(o->cmd, opt, argv);
        return CLI_OPTIONS_EXIT;
    }
    return opt;
}

int cli_input_path(const cli_options *o, int argc, char **argv, const char **path)
{
    if (argc - optind > 1)
        return cli_usage_error(o->cmd, "one input file at most, got '%s' and '%s'", argv[optind],
                               argv[optind + 1]);
    *path = optind < argc ? argv[optind] : NULL;
    return CLI_EXIT_OK;
}

bool cli_parse_size(const char *text, size_t *out)
{
    static const struct { char suffix; unsigned shift; } units[] = {
        {'\0', 0}, {'k', 10}, {'K', 10}, {'m', 20}, {'M', 20}, {'g', 30}, {'G', 30}};
    if (*text < '0' || *text > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno)
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (*end != units[i].suffix || (units[i].suffix && end[1]))
            continue;
        if (v > (unsigned long long)(SIZE_MAX >> units[i].shift))
            return false;
        *out = (size_t)(v << units[i].shift);
        return true;
    }
    return false;
}

int cli_set_max_input(const char *cmd, const char *text, size_t *max_input)
{
    if (!cli_parse_size(text, max_input))
        return cli_usage_error(cmd, "bad --max-input '%s': expected a size such as "
                                    "65536, 64k, 256m or 1g", text);
    return CLI_EXIT_OK;
}

void cli_input_free(cli_input *in)
{
    free(in->data);
    in->data = NULL;
    in->len = 0;
}

static int io_error(codec_error *err, const char *stage, const char *what, const char *path)
{
    return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, stage, CODEC_NO_OFFSET,
                           "%s '%s': %s", what, path, strerror(errno));
}

static int over_limit(codec_error *err, size_t max)
{
    return codec_error_set(err, CODEC_E_INVALID_PAYLOAD, CODEC_D_LIMIT, "input", max,
                           "input is larger than --max-input (%zu bytes)", max);
}

/* Grows in->data so that at least one more byte fits, never past max + 1
 * bytes: reading one byte beyond the cap is how an oversized stream shows. */
static int grow(cli_input *in, size_t *cap, size_t max, codec_error *err)
{
    size_t limit = max == SIZE_MAX ? max : max + 1;
    size_t next = *cap < 65536 ? 65536 : *cap * 2;
    if (next < *cap || next > limit)
        next = limit;
    if (next <= *cap)
        return over_limit(err, max);
    uint8_t *p = realloc(in->data, next);
    if (!p)
        return codec_error_set(err, CODEC_E_NOMEM, 0, "input", CODEC_NO_OFFSET,
                               "out of memory reading %zu bytes", next);
    in->data = p;
    *cap = next;
    return CODEC_OK;
}

static int read_fd(int fd, const char *name, size_t max, size_t hint, cli_input *in,
                   codec_error *err)
{
    size_t cap = 0;
    if (hint) {
        cap = hint < max ? hint + 1 : max;  /* +1 sees the end of file without a regrow */
        if (!(in->data = malloc(cap)))
            return codec_error_set(err, CODEC_E_NOMEM, 0, "input", CODEC_NO_OFFSET,
                                   "out of memory reading %zu bytes", cap);
    }
    for (;;) {
        if (in->len == cap) {
            int rc = in->len > max ? over_limit(err, max) : grow(in, &cap, max, err);
            if (rc)
                return rc;
        }
        ssize_t got = read(fd, in->data + in->len, cap - in->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return io_error(err, "input", "cannot read", name);
        if (got == 0)
            break;
        in->len += (size_t)got;
    }
    if (in->len > max)
        return over_limit(err, max);
    if (!in->data && !(in->data = malloc(1)))
        return codec_error_set(err, CODEC_E_NOMEM, 0, "input", CODEC_NO_OFFSET,
                               "out of memory");
    return CODEC_OK;
}

int cli_read_input(const char *path, size_t max, cli_input *in, codec_error *err)
{
    in->data = NULL;
    in->len = 0;
    bool use_stdin = !path || strcmp(path, "-") == 0;
    const char *name = use_stdin ? "standard input" : path;
    int fd = use_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0)
        return io_error(err, "input", "cannot open", name);
    struct stat st;
    size_t hint = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        if ((uint64_t)st.st_size > (uint64_t)max) {
            if (!use_stdin)
                close(fd);
            return over_limit(err, max);
        }
        hint = (size_t)st.st_size;
    }
    int rc = read_fd(fd, name, max, hint, in, err);
    if (!use_stdin)
        close(fd);
    if (rc)
        cli_input_free(in);
    return rc;
}

int cli_write_output(const void *data, size_t n, codec_error *err)
{
    if ((n && fwrite(data, 1, n, stdout) != n) || fflush(stdout) != 0)
        return codec_error_set(err, CODEC_E_TRANSIENT, CODEC_D_IO, "output", CODEC_NO_OFFSET,
                               "cannot write standard output: %s", strerror(errno));
    return CODEC_OK;
}

void cli_error_add_position(codec_error *err, const uint8_t *text, size_t n)
{
    if (strcmp(err->stage, "json") != 0 || err->offset == CODEC_NO_OFFSET || err->offset > n)
        return;
    size_t line = 1, column = 1;
    for (size_t i = 0; i < (size_t)err->offset; i++) {
        if (text[i] == '\n') {
            line++;
            column = 1;
        } else if ((text[i] & 0xC0) != 0x80) {
            column++; /* characters, not the bytes of a UTF-8 sequence */
        }
    }
    size_t len = strlen(err->message);
    snprintf(err->message + len, sizeof err->message - len, " at line %zu, column %zu", line,
             column);
}

bool cli_next_line(const cli_input *in, size_t *pos, size_t *start, size_t *len)
{
    while (*pos < in->len) {
        const uint8_t *p = in->data + *pos;
        const uint8_t *nl = memchr(p, '\n', in->len - *pos);
        size_t n = nl ? (size_t)(nl - p) : in->len - *pos;
        *start = *pos;
        *pos += n + (nl ? 1 : 0);
        if (n && p[n - 1] == '\r')
            n--;
        if (n) {
            *len = n;
            return true;
        }
    }
    return false;
}

const char *cli_lines_format(const char *format, bool *lines, char *buf, size_t cap)
{
    if (strncmp(format, "ndjson", 6) != 0 || (format[6] && format[6] != ':'))
        return format;
    *lines = true;
    snprintf(buf, cap, "json%s", format + 6);
    return buf;
}
