/* cli.h — what every `codec` command shares: the command table entry, exit
 * codes, error lines, option errors and whole-input reading.
 *
 * A command is one file, tools/codec/cmd_NAME.c, defining
 * `int cmd_NAME(int argc, char **argv)` (argv[0] is the command name), plus
 * one row in CLI_COMMANDS below. It returns an exit code (CLI_EXIT_*)
 * and handles `--help` itself: `codec help NAME` runs it as `NAME --help`.
 * See tools/codec/README.md. */
#ifndef CODEC_CLI_H
#define CODEC_CLI_H

#include "codec/codec.h"

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit codes (docs/guides/cli.md). They equal the first four status
 * families so that scripts can share one table with the library. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_PAYLOAD = 1,      /* invalid payload: corrupt, truncated, over a limit */
    CLI_EXIT_USAGE = 2,        /* command line, spec or value is wrong */
    CLI_EXIT_UNSUPPORTED = 3,  /* newer version, algorithm or format */
    CLI_EXIT_TRANSIENT = 4     /* resource failed now: I/O, memory, key provider */
};

/* One row per command: X(NAME, one-line help). The row both declares
 * cmd_NAME (below) and puts it in main.c's table, so nothing else needs
 * editing. */
#define CLI_COMMANDS(X)                                                        \
    X(pack, "encode bytes through a pipeline: codec pack -p SPEC [FILE...]")   \
    X(unpack, "decode bytes through a pipeline: codec unpack -p SPEC [FILE...]")\
    X(inspect, "name the outer layer of a payload and print its sizes")        \
    X(list, "list every registered stage with its arguments")                  \
    X(keygen, "print a new key-ring line: codec keygen [--id NAME]")          \
    X(dict, "train a zstd dictionary from sample values")                     \
    X(validate, "check one document: codec validate -f json [FILE]")          \
    X(convert, "convert a document: codec convert -f json -t json [FILE]")    \
    CLI_REDIS_COMMANDS(X)                                                      \
    CLI_KAFKA_COMMANDS(X)

/* The redis command exists only when the library was built with hiredis. */
#ifdef CODEC_HAVE_REDIS
#define CLI_REDIS_COMMANDS(X) \
    X(redis, "set or get one key of a Redis server through a pipeline")
#else
#define CLI_REDIS_COMMANDS(X)
#endif

/* The kafka command exists only when the library was built with librdkafka. */
#ifdef CODEC_HAVE_KAFKA
#define CLI_KAFKA_COMMANDS(X) \
    X(kafka, "produce or consume a Kafka topic through a pipeline")
#else
#define CLI_KAFKA_COMMANDS(X)
#endif

#define CLI_DECLARE(name, help) int cmd_##name(int argc, char **argv);
CLI_COMMANDS(CLI_DECLARE)

/* Default cap on the bytes a command reads (--max-input). */
#define CLI_DEFAULT_MAX_INPUT ((size_t)1 << 30)

/* The usage lines of the options every input-reading command takes. */
#define CLI_HELP_INPUT_OPTIONS                                                 \
    "      --max-input SIZE  refuse inputs over SIZE bytes (default 1g; k, m, g)\n" \
    "  -h, --help            show this text\n"

/* One entry of the command table (main.c builds it from CLI_COMMANDS). */
typedef struct cli_command {
    const char *name;
    const char *help;                  /* one line for `codec --help` */
    int (*run)(int argc, char **argv);
} cli_command;

/** cli_exit_code() — the exit code for a codec status: 0, 1 invalid payload,
 * 2 usage / invalid value, 3 unsupported, 4 transient / out of memory. */
int cli_exit_code(int status);

/** cli_fail() — prints `codec: <stage>: <message> (offset N)` on stderr
 * (one line, codec_error_format) and returns the exit code of err->family. */
int cli_fail(const codec_error *err);

/** cli_error_add_position() — for an error of a text format (json) at a
 * byte offset into text[0..n): appends " at line L, column C" (1-based,
 * columns in characters) to its message. Other errors are left alone. */
void cli_error_add_position(codec_error *err, const uint8_t *text, size_t n);

/** cli_usage_error() — for a wrong command line: prints
 * `codec: usage: [CMD: ]<message>` and a hint line naming `codec help CMD`
 * (or `codec --help` when cmd is NULL) on stderr. @return CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** cli_option_error() — call when getopt_long() returned '?' or ':' (the
 * option string must start with ':'): reports the unknown option or the
 * missing value through cli_usage_error(). @return CLI_EXIT_USAGE. */
int cli_option_error(const char *cmd, int opt, char **argv);

/** A command's options as getopt_long reads them, with what every
 * input-reading command shares handled by cli_next_option(): -h/--help,
 * --max-input SIZE (its long option must have the value 'm'), wrong
 * options, and the one optional FILE after them (cli_input_path()). */
typedef struct cli_options {
    const char *cmd;               /* for messages: argv[0] */
    const char *usage;             /* printed by --help */
    const char *letters;           /* getopt_long's short options, starting with ':' */
    const struct option *longs;
    size_t max_input;              /* CLI_DEFAULT_MAX_INPUT until --max-input */
    int exit;                      /* the exit code after CLI_OPTIONS_EXIT */
} cli_options;

/* cli_next_option()'s answer when the command must return o->exit. */
#define CLI_OPTIONS_EXIT (-2)

/** cli_options_start() — fills `o` and restarts getopt_long (optind = 1,
 * its own messages off). */
void cli_options_start(cli_options *o, char **argv, const char *usage, const char *letters,
                       const struct option *longs);

/** cli_next_option() — the next of the command's own options (its value
 * in optarg), -1 after the last option, or CLI_OPTIONS_EXIT when the
 * command must stop and return o->exit: CLI_EXIT_OK after printing the
 * usage for --help, CLI_EXIT_USAGE after reporting a wrong option or
 * --max-input value. */
int cli_next_option(cli_options *o, int argc, char **argv);

/** cli_input_path() — the optional FILE after the options into *path
 * (NULL when there is none: standard input). @return CLI_EXIT_OK, or
 * CLI_EXIT_USAGE, reported, when more than one word is left. */
int cli_input_path(const cli_options *o, int argc, char **argv, const char **path);

/** cli_parse_size() — "4096", "64k", "256m", "1g" (powers of 1024) into
 * *out. @return false when the text is not such a size or overflows. */
bool cli_parse_size(const char *text, size_t *out);

/** cli_set_max_input() — handles a `--max-input SIZE` value: stores it, or
 * reports a usage error. @return CLI_EXIT_OK or CLI_EXIT_USAGE. */
int cli_set_max_input(const char *cmd, const char *text, size_t *max_input);

/** Bytes read by cli_read_input(); free with cli_input_free(). */
typedef struct cli_input {
    uint8_t *data;   /* never NULL after a successful read (empty input too) */
    size_t len;
} cli_input;

/** cli_read_input() — reads all of `path` (NULL or "-" = standard input),
 * in binary, into `in`.
 * @return 0; CODEC_E_INVALID_PAYLOAD (detail LIMIT) when there are more
 *         than `max` bytes, without reading much past the cap;
 *         CODEC_E_TRANSIENT (detail IO) when the file cannot be opened or
 *         read; CODEC_E_NOMEM. `err` names stage "input". */
int cli_read_input(const char *path, size_t max, cli_input *in, codec_error *err);

void cli_input_free(cli_input *in);

/** cli_next_line() — JSON lines (NDJSON): the next non-empty line of `in`
 * from *pos, as in->data[*start .. *start + *len) without its CR LF or LF;
 * *pos moves past it. @return false after the last line. */
bool cli_next_line(const cli_input *in, size_t *pos, size_t *start, size_t *len);

/** cli_lines_format() — `ndjson[:ARGS]` is `json[:ARGS]` one value per
 * line: sets *lines and returns the json spec (in buf); other formats are
 * returned as they are. */
const char *cli_lines_format(const char *format, bool *lines, char *buf, size_t cap);

/** cli_run_pipeline() — the body of `pack` (decode false) and `unpack`
 * (decode true): options -p SPEC, --max-input SIZE, --help (prints `usage`),
 * one optional FILE; runs the bytes pipeline and writes standard output
 * only after it succeeded. @return the exit code. */
int cli_run_pipeline(int argc, char **argv, const char *usage, bool decode);

/** cli_write_output() — writes n bytes to standard output and flushes.
 * @return 0 or CODEC_E_TRANSIENT (stage "output") on a write error. */
int cli_write_output(const void *data, size_t n, codec_error *err);

#endif /* CODEC_CLI_H */
