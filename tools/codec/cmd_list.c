/* cmd_list.c — `codec list`: every registered stage, grouped by kind. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: codec list\n"
    "\n"
    "Lists every stage this build knows, grouped by kind (backend,\n"
    "compression, text, integrity, framing, crypto): its name, a one-line\n"
    "summary and its arguments, as written in a spec ('name:arg,key=value').\n"
    "A stage this build was made without is marked '(not in this build: built\n"
    "without LIB)'; building it fails with exit code 3 (unsupported).\n";

static const struct {
    codec_stage_kind kind;
    const char *title;
} kinds[] = {
    {CODEC_KIND_BACKEND, "backends"},   {CODEC_KIND_COMPRESSION, "compression"},
    {CODEC_KIND_TEXT, "text"},          {CODEC_KIND_INTEGRITY, "integrity"},
    {CODEC_KIND_FRAMING, "framing"},    {CODEC_KIND_CRYPTO, "crypto"},
};

#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

static bool known_kind(codec_stage_kind kind)
{
    for (size_t k = 0; k < KIND_COUNT; k++)
        if (kinds[k].kind == kind)
            return true;
    return false;
}

static void print_stage(const codec_stage_info *info)
{
    const char *missing = codec_stage_missing(info->name);
    if (missing)
        printf("  %-16s (not in this build: built without %s)\n", info->name, missing);
    printf("  %-16s %s\n", missing ? "" : info->name, info->summary);
    if (info->args && *info->args)
        printf("  %-16s args: %s\n", "", info->args);
}

/* Prints the stages whose kind is `kind` (or, for `other`, any kind this
 * listing has no title for) under `title`; nothing when there are none. */
static void print_group(const char *title, codec_stage_kind kind, bool other, bool *first)
{
    bool any = false;
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const codec_stage_info *info = codec_registry_info(i);
        if (other ? known_kind(info->kind) : info->kind != kind)
            continue;
        if (!any)
            printf("%s%s:\n", *first ? "" : "\n", title);
        any = true;
        *first = false;
        print_stage(info);
    }
}

int cmd_list(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage, stdout);
        return CLI_EXIT_OK;
    }
    if (argc > 1)
        return cli_usage_error("list", "unexpected argument '%s'", argv[1]);
    bool first = true;
    for (size_t k = 0; k < KIND_COUNT; k++)
        print_group(kinds[k].title, kinds[k].kind, false, &first);
    print_group("other", 0, true, &first);
    codec_error err;
    if (cli_write_output(NULL, 0, &err))   /* flushes: a full disk must not pass silently */
        return cli_fail(&err);
    return CLI_EXIT_OK;
}
