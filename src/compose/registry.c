/* registry.c — the table that maps stage names to constructors, built
 * from the one list in stages_internal.h. */
#include "stage_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The INSPECT column gives both the function and the flag. */
#define INSPECT(id) codec__inspect_##id
#define NO_INSPECT NULL
#define INSPECT_FLAG_INSPECT(id) CODEC_STAGE_INSPECT
#define INSPECT_FLAG_NO_INSPECT 0u
#define CODEC_STAGE_ROW(name, ctor, inspect, kind, flags, lacks, args, summary)               \
    {{name, kind, args, summary, (flags) | INSPECT_FLAG_##inspect, lacks},                    \
     codec__stage_ctor_##ctor, inspect},

static const codec_registry_row rows[] = {CODEC_STAGES(CODEC_STAGE_ROW)};

#define ROW_COUNT (sizeof rows / sizeof rows[0])

size_t codec_registry_count(void)
{
    return ROW_COUNT;
}

const codec_stage_info *codec_registry_info(size_t i)
{
    return i < ROW_COUNT ? &rows[i].info : NULL;
}

const codec_registry_row *codec__registry_find(const char *name)
{
    for (size_t i = 0; i < ROW_COUNT; i++)
        if (strcmp(rows[i].info.name, name) == 0)
            return &rows[i];
    return NULL;
}

const codec_stage_info *codec_registry_lookup(const char *name)
{
    const codec_registry_row *row = codec__registry_find(name);
    return row ? &row->info : NULL;
}

int codec_inspect(const char *name, const uint8_t *p, size_t n, codec_inspect_fn field,
                  void *ctx, size_t *header_len, codec_error *err)
{
    const codec_registry_row *row = name ? codec__registry_find(name) : NULL;
    if (!row)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_UNKNOWN_STAGE, "inspect",
                               CODEC_NO_OFFSET, "unknown stage '%s'", name ? name : "(null)");
    if (!row->inspect)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, "inspect",
                               CODEC_NO_OFFSET, "stage '%s' has no inspect operation", name);
    return row->inspect(p, n, field, ctx, header_len, err);
}

void codec__inspect_printf(codec_inspect_fn field, void *ctx, const char *key,
                           const char *fmt, ...)
{
    if (!field)
        return;
    char value[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    field(ctx, key, value, n < 0 ? 0 : (size_t)n < sizeof value ? (size_t)n : sizeof value - 1,
          false);
}
