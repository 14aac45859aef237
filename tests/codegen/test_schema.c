/* test_schema.c — codec_schema: types built at run time from a descriptor
 * set (protoc --include_imports -o, made here from Google's conformance
 * schema) must be the generated code's types: every struct, field, offset,
 * size, tag, flag and kind equal to what codec-gen generated and the C
 * compiler laid out; and messages made by Python's protobuf (the fuzz
 * corpus) must decode and re-encode to the same bytes through them.
 * Bad descriptor sets fail with their error family.
 *   test_schema PROTO_DIR CORPUS_DIR */
#include "check.h"
#include "codec/codec.h"
#include "test_messages_proto3.codec.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = malloc(1 << 22);
    *n = fread(buf, 1, 1 << 22, f);
    fclose(f);
    return buf;
}

/* Same kinds, sizes, fields (name, tag, flags, offset, size) and element
 * types, all the way down; `seen` stops the walk on recursive types. */
static void same_type(const codec_type *dyn, const codec_type *gen, const codec_type **seen,
                      size_t *nseen)
{
    CHECK(dyn && gen);
    if (!dyn || !gen)
        return;
    for (size_t i = 0; i < *nseen; i++)
        if (seen[i] == gen)
            return;
    if (*nseen < 512)
        seen[(*nseen)++] = gen;
    CHECK_INT(dyn->kind, gen->kind);
    CHECK_INT(dyn->size, gen->size);
    CHECK_INT(dyn->align, gen->align);
    CHECK_INT(dyn->count, gen->count);
    CHECK_INT(dyn->flags, gen->flags);
    CHECK_INT(dyn->value_offset, gen->value_offset);
    if (dyn->kind != gen->kind || dyn->count != gen->count)
        return;
    if (gen->kind == CODEC_T_ENUM) {
        for (size_t i = 0; i < gen->count; i++) {
            CHECK(strcmp(dyn->values[i].name, gen->values[i].name) == 0);
            CHECK_INT(dyn->values[i].number, gen->values[i].number);
        }
        return;
    }
    if (gen->kind == CODEC_T_STRUCT || gen->kind == CODEC_T_UNION) {
        for (size_t i = 0; i < gen->count; i++) {
            const codec_field *a = &dyn->fields[i], *b = &gen->fields[i];
            if (strcmp(a->name, b->name) != 0)
                fprintf(stderr, "%s: field %zu is %s, generated %s\n", gen->name, i, a->name,
                        b->name);
            CHECK(strcmp(a->name, b->name) == 0);
            CHECK_INT(a->tag, b->tag);
            CHECK_INT(a->flags, b->flags);
            CHECK_INT(a->offset, b->offset);
            CHECK_INT(a->size, b->size);
            same_type(a->type, b->type, seen, nseen);
        }
        return;
    }
    if (gen->key)
        same_type(dyn->key, gen->key, seen, nseen);
    if (gen->elem)
        same_type(dyn->elem, gen->elem, seen, nseen);
}

static void corpus_round_trips(const codec_type *t, const char *dir)
{
    codec_error err;
    codec *c = codec_protobuf(t, NULL, &err);
    CHECK(c != NULL);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!c || !d)
        return;
    size_t files = 0;
    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    codec_buf out;
    codec_buf_init(&out, NULL);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = 0;
        uint8_t *in = slurp(path, &n);
        void *v = codec_arena_alloc(&arena, t->size, t->align);
        codec_buf_clear(&out);
        CHECK_INT(codec_decode(c, in, n, v, &arena, &err), 0);
        CHECK_INT(codec_encode(c, v, &out, &err), 0);
        CHECK_MEM(out.data, out.len, in, n);   /* Python's deterministic bytes */
        free(in);
        codec_arena_reset(&arena);
        files++;
    }
    closedir(d);
    CHECK(files >= 20);
    printf("schema: %zu Python-made messages round-trip through the run-time type\n", files);
    codec_buf_free(&out);
    codec_arena_free(&arena);
    codec_free(c);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: test_schema PROTO_DIR CORPUS_DIR\n", stderr);
        return 2;
    }
    char cmd[2048], desc[] = "/tmp/codec-schema-XXXXXX";
    int fd = mkstemp(desc);
    CHECK(fd >= 0);
    snprintf(cmd, sizeof cmd,
             "protoc --include_imports -o %s -I%s -I/usr/include %s/test_messages_proto3.proto",
             desc, argv[1], argv[1]);
    CHECK_INT(system(cmd), 0);
    size_t n = 0;
    uint8_t *data = slurp(desc, &n);
    CHECK(data != NULL && n > 1000);
    codec_error err;
    codec_schema *s = codec_schema_from_descriptor_set(data, n, &err);
    CHECK(s != NULL);
    if (s) {
        static const struct {
            const char *name;
            const codec_type *gen;
        } pairs[] = {
            {"protobuf_test_messages.proto3.TestAllTypesProto3",
             &protobuf_test_messages_proto3_TestAllTypesProto3_type},
            {"protobuf_test_messages.proto3.ForeignEnum", &protobuf_test_messages_proto3_ForeignEnum_type},
            {"google.protobuf.Value", &google_protobuf_Value_type},
            {"google.protobuf.Struct", &google_protobuf_Struct_type},
        };
        const codec_type *seen[512];
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            size_t nseen = 0;
            same_type(codec_schema_type(s, pairs[i].name), pairs[i].gen, seen, &nseen);
        }
        CHECK(codec_schema_type(s, "no.such.Type") == NULL);
        CHECK(codec_schema_type(s, "protobuf_test_messages.proto3.TestAllTypesProto3.MapInt32Int32Entry") == NULL);
        corpus_round_trips(codec_schema_type(s, "protobuf_test_messages.proto3.TestAllTypesProto3"),
                           argv[2]);
        codec_schema_free(s);
    }
    /* Not a descriptor set: invalid payload with an offset. */
    static const uint8_t junk[] = {0x0a, 0x05, 0x0a, 0x09, 'x'};
    CHECK(codec_schema_from_descriptor_set(junk, sizeof junk, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_INVALID_PAYLOAD);
    CHECK(err.offset != CODEC_NO_OFFSET);
    /* A set without the imports (no --include_imports): a type is missing. */
    snprintf(cmd, sizeof cmd, "protoc -o %s -I%s -I/usr/include %s/test_messages_proto3.proto",
             desc, argv[1], argv[1]);
    CHECK_INT(system(cmd), 0);
    free(data);
    data = slurp(desc, &n);
    CHECK(codec_schema_from_descriptor_set(data, n, &err) == NULL);
    CHECK_INT(err.family, CODEC_E_UNSUPPORTED);
    CHECK(strstr(err.message, "google.protobuf") != NULL);
    free(data);
    remove(desc);
    return check_done("schema");
}
