/* main.c — codec-gen: the same generator as protoc-gen-codec, from a
 * descriptor set or a Fory IDL file.
 *
 *   protoc --include_imports -o x.desc x.proto
 *   codec-gen [--fory-base N] [--all] [--specialize] -o DIR x.desc [FILE.proto...]
 *   codec-gen [--all] -o DIR --fdl x.fdl [--name dir/x.fdl]
 *
 * Without FILE names it generates the last file of the set (protoc writes
 * the files named on its command line last, after their imports; the Fory
 * IDL reader puts the file named last, after its imports); --all generates
 * every file in the set. */
#include "fdl.h"
#include "io.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: codec-gen [--fory-base N] [--all] [--specialize] -o DIR SCHEMA.desc [FILE.proto...]\n"
    "       codec-gen [--all] [--specialize] -o DIR --fdl FILE.fdl [--name PATH]\n"
    "\n"
    "Writes FILE.codec.h and FILE.codec.c under DIR for the files of a descriptor\n"
    "set (protoc --include_imports -o SCHEMA.desc x.proto): the FILEs named, every\n"
    "file with --all, else the last file of the set. With --fdl, reads a Fory IDL\n"
    "file (and its imports); PATH is the name generated code knows it by (where\n"
    "its x.codec.h goes under DIR; default: FILE.fdl as given). --specialize adds\n"
    "straight-line encode and decode functions per message (the type's `codegen`):\n"
    "protobuf for .proto messages, Fory xlang for Fory IDL structs (scalars,\n"
    "strings, enums, held structs, lists and maps; docs/guides/codegen.md).\n";

int main(int argc, char **argv)
{
    const char *dir = NULL, *input = NULL, *fdl = NULL, *fdl_name = NULL;
    bool all = false;
    codec__gen_options o = {.fory_base = 100};
    codec_string *wanted = calloc((size_t)argc, sizeof *wanted);
    size_t nwanted = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--fdl") == 0 && i + 1 < argc)
            fdl = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            fdl_name = argv[++i];
        else if (strcmp(argv[i], "--all") == 0)
            all = true;
        else if (strcmp(argv[i], "--specialize") == 0)
            o.specialize = true;
        else if (strcmp(argv[i], "--fory-base") == 0 && i + 1 < argc)
            o.fory_base = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (argv[i][0] == '-' || !wanted) {
            fputs(usage, stderr);
            return 2;
        } else if (!input)
            input = argv[i];
        else
            wanted[nwanted++] = (codec_string){argv[i], strlen(argv[i])};
    }
    if (!dir || (!input == !fdl)) {
        fputs(usage, stderr);
        return 2;
    }
    codec_arena arena;
    codec_arena_init(&arena, NULL, 1 << 16);
    codec__google_protobuf_FileDescriptorSet set = {0};
    codec__fdl_result fr = {0};
    uint8_t *in = NULL;
    int rc = 0;
    if (fdl) {
        char err[600];
        if (codec__fdl_read(fdl, fdl_name ? fdl_name : fdl, &arena, &fr, err, sizeof err)) {
            fprintf(stderr, "codec-gen: %s\n", err);
            rc = -1;
        }
        set.file.items = fr.files;
        set.file.count = fr.count;
        o.fdl = o.fory_names = true;
        o.fory_ids = fr.ids;
        o.fory_id_count = fr.nids;
    } else {
        FILE *f = fopen(input, "rb");
        size_t n = 0;
        in = f ? codec__gen_read_all(f, &n) : NULL;
        if (f)
            fclose(f);
        if (!in) {
            fprintf(stderr, "codec-gen: cannot read %s\n", input);
            rc = -1;
        } else {
            rc = codec__gen_decode(codec__gen_file_set_type, in, n, &set, &arena, input);
        }
    }
    if (!rc && !set.file.count) {
        fprintf(stderr, "codec-gen: %s holds no files\n", fdl ? fdl : input);
        rc = -1;
    }
    if (!rc && !all && !nwanted)
        wanted[nwanted++] = set.file.items[set.file.count - 1].name.value;
    codec__gen_result r = {0};
    if (!rc && codec__gen(set.file.items, set.file.count, wanted, all ? 0 : nwanted, &o, &r)) {
        fprintf(stderr, "codec-gen: %s\n", r.error);
        rc = -1;
    }
    if (!rc)
        rc = codec__gen_write_files(&r, dir);
    codec__gen_result_free(&r);
    codec__fdl_result_free(&fr);
    codec_arena_free(&arena);
    free(in);
    free(wanted);
    return rc ? 1 : 0;
}
