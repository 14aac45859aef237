/* cmd_convert.c — `codec convert -f FROM -t TO [--pretty] [FILE]`: decodes
 * the input as a schemaless value with the FROM backend spec and writes it
 * with the TO spec (json, json:pretty, cbor, msgpack, any of them followed
 * by transforms). A value TO cannot hold (a byte string into JSON) is an
 * invalid value whose message names where it is. */
#include "cli.h"
#include "schema_convert.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: codec convert -f FROM -t TO [--pretty] [--lines] [--max-input SIZE] [FILE]\n"
    "       codec convert -f protobuf -t TO --schema DESC --type MSG [FILE]\n"
    "       codec convert -f FROM -t protobuf --schema DESC --type MSG [FILE]\n"
    "\n"
    "Reads one document of format FROM from FILE (or standard input) and\n"
    "writes the same document in format TO to standard output (text formats\n"
    "end with a newline). Nothing is written when the input is invalid or\n"
    "holds what TO cannot (bytes have no JSON form).\n"
    "\n"
    "  -f, --from SPEC       the input backend and its options, e.g. json\n"
    "  -t, --to SPEC         the output backend, e.g. json, json:pretty, cbor, msgpack\n"
    "      --pretty          the same as adding `pretty` to TO\n"
    "  -l, --lines           one document per line in, one per line out (JSON\n"
    "                        lines; -f ndjson is -f json --lines)\n"
    "      --schema DESC     a descriptor set (protoc --include_imports -o DESC x.proto):\n"
    "                        protobuf is read or written as message MSG (--type pkg.Msg)\n"
    CLI_HELP_INPUT_OPTIONS
    "\n"
    "example: codec convert -f json -t json --pretty < doc.json\n";

/* TO with `pretty` as its first (positional) argument. */
static int pretty_spec(const char *to, char *dst, size_t cap)
{
    const char *colon = strchr(to, ':');
    int n = colon ? snprintf(dst, cap, "%.*s:pretty,%s", (int)(colon - to), to, colon + 1)
                  : snprintf(dst, cap, "%s:pretty", to);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The registry's facts about the backend a spec starts with: whether its
 * output is text (then a newline ends it) and which value kinds it lacks. */
static const codec_stage_info *backend_of(const char *spec)
{
    char name[32];
    size_t n = strspn(spec, " \t");
    size_t len = strcspn(spec + n, ":| \t");
    if (len >= sizeof name)
        return NULL;
    memcpy(name, spec + n, len);
    name[len] = '\0';
    const codec_stage_info *info = codec_registry_lookup(name);
    return info && info->kind == CODEC_KIND_BACKEND ? info : NULL;
}

static const char *kind_name(codec_value_kind k)
{
    static const char *const names[] = {"null", "boolean", "integer", "integer", "number",
                                        "string", "byte string", "array", "object"};
    return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "value";
}

/* The path length after snprintf wrote `written` at len (len if it is full). */
static size_t path_add(size_t cap, size_t len, int written)
{
    return written > 0 && (size_t)written < cap - len ? len + (size_t)written : len;
}

/* The first value of a kind in `lacks`, its path ($.a[3]) in `path`; or NULL. */
static const codec_value *find_lacking(const codec_value *v, unsigned lacks, char *path,
                                       size_t cap, size_t len)
{
    if (lacks >> v->kind & 1)
        return v;
    const codec_value *found = NULL;
    if (v->kind == CODEC_V_ARRAY) {
        for (size_t i = 0; i < v->as.array.count && !found; i++) {
            size_t at = path_add(cap, len, snprintf(path + len, cap - len, "[%zu]", i));
            found = find_lacking(&v->as.array.items[i], lacks, path, cap, at);
        }
    } else if (v->kind == CODEC_V_OBJECT) {
        for (size_t i = 0; i < v->as.object.count && !found; i++) {
            const codec_member *m = &v->as.object.members[i];
            int k = (int)(m->key.len > 40 ? 40 : m->key.len);
            size_t at = path_add(cap, len,
                                 snprintf(path + len, cap - len, ".%.*s", k,
                                          m->key.ptr ? m->key.ptr : ""));
            found = find_lacking(&m->value, lacks, path, cap, at);
        }
    }
    if (!found)
        path[len] = '\0';
    return found;
}

static int check_representable(const codec_value *v, const codec_stage_info *t,
                               codec_error *err)
{
    char path[160] = "$";
    const codec_value *at = t && t->lacks ? find_lacking(v, t->lacks, path, sizeof path, 1) : NULL;
    if (!at)
        return CODEC_OK;
    return codec_error_set(err, CODEC_E_INVALID_VALUE, 0, "convert", CODEC_NO_OFFSET,
                           "the %s at %s has no %s form", kind_name(at->kind), path, t->name);
}

/* Converts in->data[start .. start + n) and appends it to out. A decode
 * error's offset is moved to the whole input's, with its line and column. */
static int convert_one(const codec *from, const codec *to, const char *to_spec,
                       const cli_input *in, size_t start, size_t n, codec_buf *out,
                       codec_error *err)
{
    codec_arena arena;
    codec_arena_init(&arena, NULL, n + 4096);
    codec_value v;
    const codec_stage_info *t = backend_of(to_spec);
    int rc = codec_decode(from, in->data + start, n, &v, &arena, err);
    if (rc) {
        if (err->offset != CODEC_NO_OFFSET)
            err->offset += start;
        cli_error_add_position(err, in->data, in->len);
    }
    if (rc == CODEC_OK)
        rc = check_representable(&v, t, err);
    if (rc == CODEC_OK)
        rc = codec_encode(to, &v, out, err);
    if (rc == CODEC_OK && t && (t->flags & CODEC_STAGE_TEXT) && !strchr(to_spec, '|'))
        rc = codec_buf_append(out, "\n", 1);
    if (rc == CODEC_E_NOMEM)
        codec_error_set(err, rc, 0, "output", CODEC_NO_OFFSET, "out of memory");
    codec_arena_free(&arena);
    return rc;
}

/* The whole input, or each line of it; output is written only when all of
 * it converted. */
static int convert(const codec *from, const codec *to, const char *to_spec, const cli_input *in,
                   bool lines, codec_error *err)
{
    codec_buf out;
    codec_buf_init(&out, NULL);
    int rc = CODEC_OK;
    size_t pos = 0, start, len;
    if (!lines)
        rc = convert_one(from, to, to_spec, in, 0, in->len, &out, err);
    while (lines && rc == CODEC_OK && cli_next_line(in, &pos, &start, &len))
        rc = convert_one(from, to, to_spec, in, start, len, &out, err);
    if (rc == CODEC_OK)
        rc = cli_write_output(out.data, out.len, err);
    codec_buf_free(&out);
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    static const struct option longs[] = {{"from", required_argument, NULL, 'f'},
                                          {"to", required_argument, NULL, 't'},
                                          {"pretty", no_argument, NULL, 'P'},
                                          {"lines", no_argument, NULL, 'l'},
                                          {"max-input", required_argument, NULL, 'm'},
                                          {"schema", required_argument, NULL, 'S'},
                                          {"type", required_argument, NULL, 'T'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *from_spec = NULL, *to_spec = NULL, *path, *schema = NULL, *type = NULL;
    bool pretty = false, lines = false;
    cli_options o;
    cli_options_start(&o, argv, usage, ":f:t:lh", longs);
    int opt;
    while ((opt = cli_next_option(&o, argc, argv)) >= 0) {
        switch (opt) {
        case 'f': from_spec = optarg; break;
        case 't': to_spec = optarg; break;
        case 'P': pretty = true; break;
        case 'l': lines = true; break;
        case 'S': schema = optarg; break;
        case 'T': type = optarg; break;
        }
    }
    if (opt == CLI_OPTIONS_EXIT)
        return o.exit;
    if (!from_spec || !to_spec)
        return cli_usage_error(o.cmd, "missing %s (e.g. -f json -t json)",
                               from_spec ? "-t TO" : "-f FROM");
    if (cli_input_path(&o, argc, argv, &path))
        return CLI_EXIT_USAGE;
    if (!schema != !type)
        return cli_usage_error(o.cmd, "--schema and --type go together");
    char spec[512];
    if (pretty && pretty_spec(to_spec, spec, sizeof spec))
        return cli_usage_error(o.cmd, "output spec too long");
    codec_error err;
    if (schema) {
        cli_input in;
        int rc = cli_read_input(path, o.max_input, &in, &err);
        if (rc == CODEC_OK) {
            rc = cli_convert_with_schema(from_spec, pretty ? spec : to_spec, schema, type, &in,
                                         &err);
            cli_input_free(&in);
        }
        return rc == CODEC_OK ? CLI_EXIT_OK : cli_fail(&err);
    }
    char json[512];
    from_spec = cli_lines_format(from_spec, &lines, json, sizeof json);
    codec *from = codec_parse(from_spec, codec_value_type(), &err);
    codec *to = from ? codec_parse(pretty ? spec : to_spec, codec_value_type(), &err) : NULL;
    int rc = from && to ? CODEC_OK : err.family;
    cli_input in;
    if (rc == CODEC_OK &&
        (rc = cli_read_input(path, o.max_input, &in, &err)) == CODEC_OK) {
        rc = convert(from, to, pretty ? spec : to_spec, &in, lines, &err);
        cli_input_free(&in);
    }
    codec_free(from);
    codec_free(to);
    return rc == CODEC_OK ? CLI_EXIT_OK : cli_fail(&err);
}
