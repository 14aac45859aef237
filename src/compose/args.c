/* args.c — typed getters for a stage's spec arguments (`zstd:3,max=1m`). */
#include "stage_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Finds the argument named `key`, or the positional one when allowed. */
static codec_arg *arg_find(codec_args *a, const char *key, bool positional)
{
    for (size_t i = 0; i < a->count; i++) {
        codec_arg *it = &a->items[i];
        if (strcmp(it->key, key) == 0 || (positional && it->key[0] == '\0')) {
            it->used = true;
            return it;
        }
    }
    return NULL;
}

static const char *arg_label(const codec_arg *it, const char *key)
{
    return it->key[0] ? it->key : key;
}

int codec__args_int(codec_args *a, const char *key, bool positional, long def, long min, long max,
                    long *out, codec_error *err)
{
    *out = def;
    codec_arg *it = arg_find(a, key, positional);
    if (!it)
        return CODEC_OK;
    char *end;
    errno = 0;
    long v = strtol(it->value, &end, 10);
    if (errno || end == it->value || *end || v < min || v > max)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "bad %s '%s': expected an integer from %ld to %ld",
                               arg_label(it, key), it->value, min, max);
    *out = v;
    return CODEC_OK;
}

/* Parses "123", "64k", "256m", "1g" (powers of 1024). */
static bool parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: return false;
    }
    if (*end || v > (SIZE_MAX >> shift))
        return false;
    *out = (size_t)(v << shift);
    return true;
}

int codec__args_size(codec_args *a, const char *key, bool positional, size_t def, size_t min,
                     size_t max, size_t *out, codec_error *err)
{
    *out = def;
    codec_arg *it = arg_find(a, key, positional);
    if (!it)
        return CODEC_OK;
    size_t v;
    if (!parse_size(it->value, &v) || v < min || v > max)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "bad %s '%s': expected a size from %zu to %zu bytes "
                               "(suffixes k, m, g)",
                               arg_label(it, key), it->value, min, max);
    *out = v;
    return CODEC_OK;
}

int codec__args_choice(codec_args *a, const char *key, bool positional, const char *const *choices,
                       size_t def, size_t *out, codec_error *err)
{
    *out = def;
    codec_arg *it = arg_find(a, key, positional);
    if (!it)
        return CODEC_OK;
    char list[160] = "";
    size_t used = 0;
    for (size_t i = 0; choices[i]; i++) {
        if (strcmp(choices[i], it->value) == 0) {
            *out = i;
            return CODEC_OK;
        }
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", choices[i]);
        if (w > 0 && (size_t)w < sizeof list - used)
            used += (size_t)w;
    }
    return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                           "bad %s '%s': expected one of %s", arg_label(it, key), it->value,
                           list);
}

int codec__args_string(codec_args *a, const char *key, bool positional, const char **out,
                       codec_error *err)
{
    (void)err;
    codec_arg *it = arg_find(a, key, positional);
    *out = it ? it->value : NULL;
    return CODEC_OK;
}

int codec__args_finish(const codec_args *a, const char *allowed, codec_error *err)
{
    for (size_t i = 0; i < a->count; i++) {
        const codec_arg *it = &a->items[i];
        if (it->used)
            continue;
        if (it->key[0] == '\0')
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage,
                                   a->offset, "unexpected argument '%s'; allowed: %s",
                                   it->value, allowed && *allowed ? allowed : "none");
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, a->stage, a->offset,
                               "unknown key '%s'; allowed: %s", it->key,
                               allowed && *allowed ? allowed : "none");
    }
    return CODEC_OK;
}

int codec__args_max_output(codec_args *a, size_t *out, codec_error *err)
{
    return codec__args_size(a, "max", false, CODEC_DEFAULT_MAX_OUTPUT, 1, SIZE_MAX, out, err);
}
