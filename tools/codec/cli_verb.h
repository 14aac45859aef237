/* cli_verb.h — the command-line shape `codec redis` and `codec kafka`
 * share: `codec NAME VERB [OPTIONS] [ARGS]` with exactly two verbs,
 * `--help` (or -h) before the verb or among the options, getopt_long over
 * the options with a callback per option, and whole numbers in a range.
 * Header-only: each command's file includes it. */
#ifndef CODEC_CLI_VERB_H
#define CODEC_CLI_VERB_H

#include "cli.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole decimal number in [min, max] (digits only, no sign). */
static inline bool cli_parse_whole(const char *text, long long min, long long max,
                                   long long *out)
{
    if (*text < '0' || *text > '9')
        return false;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* argv[1] is one of the two verbs: *which = 0 or 1. Returns -1 after
 * --help (usage printed), a usage exit code, or CLI_EXIT_OK. */
static inline int cli_verb_select(const char *name, const char *usage, const char *verb0,
                                  const char *verb1, int argc, char **argv, int *which)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return -1;
    }
    if (argc < 2 || (strcmp(argv[1], verb0) != 0 && strcmp(argv[1], verb1) != 0))
        return cli_usage_error(name, "expected '%s' or '%s'%s%s", verb0, verb1,
                               argc < 2 ? "" : ", not ", argc < 2 ? "" : argv[1]);
    *which = strcmp(argv[1], verb0) == 0 ? 0 : 1;
    return CLI_EXIT_OK;
}

/* One option: its getopt code, its value (or NULL), the command's own
 * argument struct, and argv for cli_option_error(). Returns an exit code. */
typedef int (*cli_verb_option_fn)(int opt, const char *value, void *args, char **argv);

/* Runs getopt_long over argv (argv[0] is the verb) and hands each option
 * to `fn`; `shorts` starts with ':' and holds 'h'. Returns -1 after -h or
 * --help (usage printed), the first non-zero exit code of `fn`, or
 * CLI_EXIT_OK with optind at the first operand. */
static inline int cli_verb_options(const char *usage, int argc, char **argv, const char *shorts,
                                   const struct option *longs, cli_verb_option_fn fn, void *args)
{
    optind = 1;
    opterr = 0;
    int opt;
    while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage, stdout);
            return -1;
        }
        int rc = fn(opt, optarg, args, argv);
        if (rc)
            return rc;
    }
    return CLI_EXIT_OK;
}

#endif
