/* main.c — the `codec` command: the table of commands and the dispatcher.
 * Adding a command = one file tools/codec/cmd_NAME.c defining
 * `int cmd_NAME(int argc, char **argv)` + one row in CLI_COMMANDS (cli.h)
 * (tools/codec/README.md). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#define CLI_ROW(name, help) {#name, help, cmd_##name},

static const cli_command commands[] = {CLI_COMMANDS(CLI_ROW)};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static int print_help(FILE *to)
{
    fprintf(to, "usage: codec COMMAND [OPTIONS] [ARGS]\n"
                "       codec help COMMAND | codec --help | codec --version\n\n"
                "commands:\n");
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(to, "\nexit codes: 0 ok, 1 invalid payload, 2 usage or invalid value,\n"
                "            3 unsupported, 4 transient (I/O, memory, key provider),\n"
                "            5 not found (redis get)\n"
                "example: codec pack -p 'hex:upper' < data > data.hex\n");
    return CLI_EXIT_OK;
}

static int print_version(void)
{
    char cpu[160];
    unsigned features = codec_cpu_features();
    codec_cpu_feature_names(features, cpu, sizeof cpu);
#if defined(__x86_64__)
    const char *baseline = "baseline x86-64";
#else
    const char *baseline = "baseline";
#endif
    printf("codec %s\ncpu: %s\n", codec_version_string(), features ? cpu : baseline);
    return CLI_EXIT_OK;
}

/* `codec help CMD` is `codec CMD --help`, so each command owns its usage. */
static int help_for(const char *name)
{
    const cli_command *cmd = find_command(name);
    if (!cmd)
        return cli_usage_error(NULL, "unknown command '%s'", name);
    char *argv[] = {(char *)cmd->name, "--help", NULL};
    return cmd->run(2, argv);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *word = argv[1];
    if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0)
        return print_help(stdout);
    if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0)
        return print_version();
    if (strcmp(word, "help") == 0) {
        if (argc > 3)
            return cli_usage_error(NULL, "help takes one command name");
        return argc == 3 ? help_for(argv[2]) : print_help(stdout);
    }
    const cli_command *cmd = find_command(word);
    if (!cmd) {
        if (word[0] == '-')
            return cli_usage_error(NULL, "unknown option '%s' (options follow the command)",
                                   word);
        return cli_usage_error(NULL, "unknown command '%s'", word);
    }
    return cmd->run(argc - 1, argv + 1);
}
