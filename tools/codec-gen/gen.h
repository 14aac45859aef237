/* gen.h — the one generator behind protoc-gen-codec and codec-gen.
 *
 * Input: protobuf file descriptors (google.protobuf.FileDescriptorProto,
 * decoded by codec's own protobuf backend from a CodeGeneratorRequest or a
 * FileDescriptorSet, or built by the Fory IDL reader). Output: one
 * `x.codec.h` and `x.codec.c` per file asked for: C structs, enums, codec
 * descriptors, proto field names and a Fory type-id registry.
 * docs/guides/codegen.md gives the mapping. */
#ifndef CODEC_GEN_H
#define CODEC_GEN_H

#include "google/protobuf/compiler/plugin.codec.h"

#include <codec/core.h>

/* The descriptors of google.protobuf.FileDescriptorSet and of
 * google.protobuf.compiler.CodeGeneratorRequest / CodeGeneratorResponse
 * (proto.c; the headers above give their C types). */
extern const codec_type *const codec__gen_file_set_type;
extern const codec_type *const codec__gen_request_type;
extern const codec_type *const codec__gen_response_type;

/* One output file. */
typedef struct codec__gen_file {
    char *name;        /* "dir/x.codec.h" */
    codec_buf text;
} codec__gen_file;

typedef struct codec__gen_result {
    codec__gen_file *files;
    size_t count;
    char error[512];   /* set when codec__gen fails */
} codec__gen_result;

/* Fory ids of one type, from the Fory IDL's [id=N] (0: none). The protobuf
 * path assigns ids itself (fory_base). */
typedef struct codec__gen_fory_id {
    const char *full_name;   /* "pkg.Msg" */
    uint32_t id;
} codec__gen_fory_id;

typedef struct codec__gen_options {
    uint32_t fory_base;                  /* first id given to a file's types (default 100) */
    const codec__gen_fory_id *fory_ids;  /* explicit ids (Fory IDL) */
    size_t fory_id_count;
    bool fory_names;                     /* Fory IDL: field names as written, not JSON names */
    /* Fory IDL: message fields are held by value (`optional`: in a
     * CODEC_OPTIONAL_OF, `ref`: by pointer), structs have no unknown-fields
     * member (Fory has no such thing), and structs are defined after the
     * ones they hold. */
    bool fdl;
    char prefix[64];   /* put before every C name generated (`prefix=codec__`) */
    /* `static=1`: every descriptor is static (marked unused) and declared
     * in the .c (the header has the C types only), with no field names and
     * no Fory registry, for code #included into one file of a library,
     * whose globals must all be its own (libcodec's copy of
     * descriptor.proto, which codec-gen's proto.c #includes too). */
    bool internal;
    /* `specialize=1` / `--specialize`: straight-line encode and decode
     * functions per message (specialize.c): protobuf for .proto files,
     * Fory xlang for Fory IDL structs (specialize_fory.c). */
    bool specialize;
} codec__gen_options;

/* printf into generated text (out of memory ends the run). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void codec__gen_out(codec_buf *b, const char *f, ...);

/* FieldDescriptorProto.Type. */
enum {
    T_DOUBLE = 1, T_FLOAT, T_INT64, T_UINT64, T_INT32, T_FIXED64, T_FIXED32, T_BOOL, T_STRING,
    T_GROUP, T_MESSAGE, T_BYTES, T_UINT32, T_ENUM, T_SFIXED32, T_SFIXED64, T_SINT32, T_SINT64
};

/* What specialize.c needs of one field of a message. */
typedef enum codec__gen_shape {
    CODEC__GEN_PLAIN,      /* a scalar, string or bytes with implicit presence */
    CODEC__GEN_OPTIONAL,   /* the same in a CODEC_OPTIONAL_OF (explicit presence) */
    CODEC__GEN_CALL        /* list, map, message, oneof: the descriptor path's code */
} codec__gen_shape;

typedef struct codec__gen_spec_field {
    const char *member;    /* C member */
    uint32_t number;       /* field number (CALL with members > 1: unused) */
    int type;              /* FieldDescriptorProto.Type (PLAIN, OPTIONAL) */
    codec__gen_shape shape;
    uint8_t wire;          /* CALL: the wire type of its records (2 for lists and messages) */
    bool repeated;         /* a list or map: its records may follow each other */
    size_t index;          /* its position in the backend's table */
    size_t members;        /* table entries it takes (a oneof: its members; else 1) */
    /* number is 0 for a oneof (its members are found by the backend). */
} codec__gen_spec_field;

/* The specialized functions of message `cname` (fields in table order,
 * then its `codec_unknown` member) and its `static const codec_codegen
 * cname_codegen_`. */
void codec__gen_specialize(codec_buf *c, const char *cname, const codec__gen_spec_field *f,
                           size_t n);

/* One case of a union value (tid 33), in `which` order. */
typedef struct codec__gen_fory_case {
    char *member;            /* C member of the union */
    uint32_t tag;            /* Fory case id */
    uint8_t tid;             /* its value's type id: a primitive, 21 string or 41 bytes */
} codec__gen_fory_case;

/* What specialize_fory.c needs of one value: a field's, a list's item, a
 * map's key or value. */
typedef struct codec__gen_fory_val {
    uint8_t tid;             /* a primitive's Fory type id (8, 15: tagged), 21 string,
                              * 25 enum, 27 struct, 33 union, 41 bytes; an array's item: its
                              * fixed-width id; 0: none the generated code handles */
    const char *cname;       /* enum, struct: its C type */
    const int32_t *numbers;  /* enum: its values' numbers, in declaration order */
    codec__gen_fory_case *cases;   /* union: its cases */
    size_t count;            /* enum: values; union: cases */
} codec__gen_fory_val;

/* What specialize_fory.c needs of one field. */
typedef struct codec__gen_fory_field {
    const char *member;      /* C member */
    const char *wire_name;   /* the name Fory sorts by (snake_case) */
    size_t index;            /* its position in the struct's descriptor fields */
    uint8_t tid;             /* Fory type id (22 list, 24 map, 43..47 array<>, else
                              * val.tid); 0: none the generated code handles */
    bool nullable;           /* held in a CODEC_OPTIONAL_OF */
    codec__gen_fory_val val; /* the value; a list's item; a map's value */
    codec__gen_fory_val key; /* a map's key */
} codec__gen_fory_field;

/* Fory xlang decode and encode functions of struct `cname`, fields f[0..n)
 * in descriptor order, and its `static codec_fory_codegen
 * cname_fory_codegen_` (codec/codegen.h). Struct values (tid 27) name
 * structs of the same file that have them (declared first with
 * codec__gen_specialize_fory_decl). False (nothing written) when a field
 * has tid 0. */
bool codec__gen_specialize_fory(codec_buf *c, const char *cname, const codec__gen_fory_field *f,
                                size_t n);

/* The declarations of struct `cname`'s functions, for the structs that
 * hold it. */
void codec__gen_specialize_fory_decl(codec_buf *c, const char *cname);

/* Generates code for files[i] whose name is in `wanted` (all when nwanted is
 * 0); the other files resolve imports. Returns 0, or -1 with r->error set. */
int codec__gen(const codec__google_protobuf_FileDescriptorProto *files, size_t nfiles,
               const codec_string *wanted, size_t nwanted, const codec__gen_options *o,
               codec__gen_result *r);

/* Parses a plugin parameter string ("fory_base=200,prefix=my_") into o;
 * -1 when bad. */
int codec__gen_parse_params(const char *params, size_t len, codec__gen_options *o, char *err,
                            size_t errcap);

void codec__gen_result_free(codec__gen_result *r);

#endif
