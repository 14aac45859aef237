/* spec.c — the pipeline spec parser: "json | zstd:19,max=256m | base64:url". */
#include "stage_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define SPEC_MAX_LEN 4096

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

static const char *trim_end(const char *begin, const char *end)
{
    while (end > begin && isspace((unsigned char)end[-1]))
        end--;
    return end;
}

/* Upper case is read too, so a name in the wrong case gets its own error. */
static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
}

static int spec_error(codec_error *err, int detail, size_t offset, const char *stage,
                      const char *msg, const char *what)
{
    return codec_error_set(err, CODEC_E_USAGE, detail, stage ? stage : "spec", offset, "%s%s%s",
                           msg, what ? what : "", what ? "'" : "");
}

/* Copies [b, e) into dst (cap bytes) or fails when it does not fit. */
static bool copy_field(char *dst, size_t cap, const char *b, const char *e)
{
    size_t n = (size_t)(e - b);
    if (n >= cap)
        return false;
    memcpy(dst, b, n);
    dst[n] = '\0';
    return true;
}

/* Parses the comma-separated arguments of one stage, [p, end). */
static int parse_args(codec_args *a, const char *spec, const char *p, const char *end,
                      codec_error *err)
{
    while (p <= end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *item_end = comma ? comma : end;
        const char *b = skip_space(p, item_end);
        const char *e = trim_end(b, item_end);
        size_t off = (size_t)(b - spec);
        if (b == e)
            return spec_error(err, CODEC_D_SPEC, off, a->stage, "empty argument", NULL);
        const char *eq = memchr(b, '=', (size_t)(e - b));
        if (!eq && a->count > 0 && a->items[a->count - 1].key[0]) {
            /* A bare item after `key=value` continues that value as a list:
             * `versioned:2,accept=1-3,7`. */
            codec_arg *prev = &a->items[a->count - 1];
            size_t have = strlen(prev->value);
            if (!copy_field(prev->value + have + 1, sizeof prev->value - have - 1, b, e))
                return spec_error(err, CODEC_D_SPEC, off, a->stage, "argument too long", NULL);
            prev->value[have] = ',';
            if (!comma)
                break;
            p = comma + 1;
            continue;
        }
        if (a->count == CODEC_MAX_ARGS)
            return spec_error(err, CODEC_D_SPEC, off, a->stage, "too many arguments", NULL);
        codec_arg *it = &a->items[a->count];
        if (eq) {
            const char *ke = trim_end(b, eq);
            if (!copy_field(it->key, sizeof it->key, b, ke) || ke == b)
                return spec_error(err, CODEC_D_SPEC, off, a->stage, "bad argument key", NULL);
            b = skip_space(eq + 1, e);
        } else {
            if (a->count > 0)
                return spec_error(err, CODEC_D_SPEC, off, a->stage,
                                  "only the first argument may omit 'key='", NULL);
            it->key[0] = '\0';
        }
        if (!copy_field(it->value, sizeof it->value, b, e))
            return spec_error(err, CODEC_D_SPEC, off, a->stage, "argument too long", NULL);
        for (size_t i = 0; i < a->count; i++)
            if (strcmp(a->items[i].key, it->key) == 0)
                return codec_error_set(err, CODEC_E_USAGE, CODEC_D_SPEC, a->stage, off,
                                       "argument '%s' given twice", it->key);
        it->used = false;
        a->count++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return CODEC_OK;
}

/* Edit distance of a and b (insertions, deletions, substitutions), capped
 * at 9; names are at most 23 characters. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[32];
    if (la > 30 || lb > 30)
        return 9;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb] < 9 ? row[lb] : 9;
}

/* An unknown stage name: the same name in the wrong case is named as such,
 * otherwise the closest registered name (at most 2 edits) is suggested. */
static int unknown_stage(const char *name, size_t off, codec_error *err)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t i = 0; i < codec_registry_count(); i++) {
        const char *known = codec_registry_info(i)->name;
        if (strcasecmp(known, name) == 0)
            return codec_error_set(err, CODEC_E_USAGE, CODEC_D_UNKNOWN_STAGE, "spec", off,
                                   "unknown stage '%s': stage names are lower case ('%s')",
                                   name, known);
        size_t d = edit_distance(name, known);
        if (d < best_d) {
            best_d = d;
            best = known;
        }
    }
    if (best)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_UNKNOWN_STAGE, "spec", off,
                               "unknown stage '%s'; did you mean '%s'? (run 'codec list' for "
                               "the stages)", name, best);
    return codec_error_set(err, CODEC_E_USAGE, CODEC_D_UNKNOWN_STAGE, "spec", off,
                           "unknown stage '%s' (run 'codec list' for the stages)", name);
}

/* Whether the spec gave the stage's `max=` itself (streams honour only an
 * explicit cap; see codec/stream.h). */
static bool gives_max(const codec_args *a)
{
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i].key, "max") == 0)
            return true;
    return false;
}

/* Parses one stage text [b, e) and constructs it into *s. */
static int build_stage(codec_stage *s, const char *spec, const char *b, const char *e,
                       const codec_type *type, codec_error *err)
{
    const char *name_end = b;
    while (name_end < e && is_name_char(*name_end))
        name_end++;
    size_t off = (size_t)(b - spec);
    char name[sizeof s->name];
    if (name_end == b)
        return spec_error(err, CODEC_D_SPEC, off, NULL, "expected a stage name", NULL);
    if (!copy_field(name, sizeof name, b, name_end))
        return spec_error(err, CODEC_D_UNKNOWN_STAGE, off, NULL, "stage name too long", NULL);
    const char *rest = skip_space(name_end, e);
    if (rest < e && *rest != ':')
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_SPEC, "spec", (size_t)(rest - spec),
                               "unexpected '%c' after stage name '%s'", *rest, name);
    const codec_registry_row *row = codec__registry_find(name);
    if (!row)
        return unknown_stage(name, off, err);
    if (row->info.kind == CODEC_KIND_BACKEND && !type)
        return codec_error_set(err, CODEC_E_USAGE, CODEC_D_BAD_ARGUMENT, name, off,
                               "backend '%s' needs a type descriptor", name);

    codec_args args = {.stage = row->info.name, .offset = off, .count = 0};
    if (rest < e) {
        int rc = parse_args(&args, spec, rest + 1, e, err);
        if (rc)
            return rc;
    }
    memset(s, 0, sizeof *s);
    s->kind = row->info.kind;
    snprintf(s->name, sizeof s->name, "%s", row->info.name);
    if ((size_t)(e - b) >= sizeof s->spec)
        return spec_error(err, CODEC_D_SPEC, off, name, "stage text too long", NULL);
    copy_field(s->spec, sizeof s->spec, b, e);
    int rc = codec__stage_apply_gate(s, &args, err);
    if (rc)
        return rc;
    rc = row->ctor(s, &args, row->info.kind == CODEC_KIND_BACKEND ? type : NULL, err);
    if (rc)
        return rc;
    s->max_given = gives_max(&args);
    rc = codec__args_finish(&args, row->info.args, err);
    if (rc && s->ops && s->ops->destroy)
        s->ops->destroy(s);
    return rc;
}

size_t codec__spec_stage_bound(const char *spec)
{
    size_t n = 1;
    for (; *spec; spec++)
        n += *spec == '|';
    return n;
}

int codec__spec_parse(const char *spec, const codec_type *type, codec_stage *stages, size_t cap,
                      size_t *count_out, codec_error *err)
{
    size_t len = strlen(spec);
    if (len > SPEC_MAX_LEN)
        return spec_error(err, CODEC_D_SPEC, 0, NULL, "spec too long", NULL);
    size_t count = 0;
    const char *p = spec, *end = spec + len;
    int rc = CODEC_OK;
    for (;;) {
        const char *bar = memchr(p, '|', (size_t)(end - p));
        const char *se = bar ? bar : end;
        const char *b = skip_space(p, se);
        const char *e = trim_end(b, se);
        if (b == e) {
            rc = spec_error(err, CODEC_D_SPEC, (size_t)(b - spec), NULL,
                            count || bar ? "empty stage" : "empty spec", NULL);
            break;
        }
        if (count == cap) {
            rc = spec_error(err, CODEC_D_SPEC, (size_t)(b - spec), NULL, "too many stages", NULL);
            break;
        }
        rc = build_stage(&stages[count], spec, b, e, type, err);
        if (rc)
            break;
        if (stages[count].kind == CODEC_KIND_BACKEND && count > 0) {
            rc = codec_error_set(err, CODEC_E_USAGE, CODEC_D_SPEC, stages[count].name,
                                 (size_t)(b - spec), "a backend must be the first stage");
            codec__stage_destroy(&stages[count]);
            break;
        }
        count++;
        if (!bar)
            break;
        p = bar + 1;
    }
    if (rc) {
        for (size_t i = 0; i < count; i++)
            codec__stage_destroy(&stages[i]);
        return rc;
    }
    *count_out = count;
    return CODEC_OK;
}
