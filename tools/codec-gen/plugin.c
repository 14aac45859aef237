/* plugin.c — protoc-gen-codec: the protoc plugin.
 *
 *   protoc --plugin=protoc-gen-codec --codec_out=DIR [--codec_opt=fory_base=N] x.proto
 *
 * Reads a CodeGeneratorRequest on standard input (with codec's protobuf
 * backend and the bootstrapped descriptor.proto/plugin.proto types), runs
 * the shared generator and writes a CodeGeneratorResponse on standard
 * output. Errors in the schema go back to protoc in the response. */
#include "io.h"

#include <codec/protobuf.h>

#include <stdlib.h>
#include <string.h>

/* Proto3 `optional` is supported (CodeGeneratorResponse.Feature). */
#define FEATURE_PROTO3_OPTIONAL 1u

static int respond(codec__google_protobuf_compiler_CodeGeneratorResponse *resp)
{
    codec_error err;
    codec_buf out;
    codec_buf_init(&out, NULL);
    codec *c = codec_protobuf(codec__gen_response_type, NULL, &err);
    int rc = c ? codec_encode(c, resp, &out, &err) : -1;
    codec_free(c);
    if (!rc && fwrite(out.data, 1, out.len, stdout) != out.len)
        rc = -1;
    if (rc)
        fputs("protoc-gen-codec: cannot write the response\n", stderr);
    codec_buf_free(&out);
    return rc ? 1 : 0;
}

int main(void)
{
    size_t n = 0;
    uint8_t *in = codec__gen_read_all(stdin, &n);
    if (!in) {
        fputs("protoc-gen-codec: cannot read the request\n", stderr);
        return 1;
    }
    codec_arena arena;
    codec_arena_init(&arena, NULL, n * 4 + 4096);
    codec__google_protobuf_compiler_CodeGeneratorRequest req;
    if (codec__gen_decode(codec__gen_request_type, in, n, &req, &arena,
                          "the CodeGeneratorRequest")) {
        free(in);
        return 1;
    }
    codec__google_protobuf_compiler_CodeGeneratorResponse resp = {0};
    resp.supported_features.has = true;
    resp.supported_features.value = FEATURE_PROTO3_OPTIONAL;
    codec__gen_options o = {.fory_base = 100};
    codec__gen_result r = {0};
    if (codec__gen_parse_params(req.parameter.value.ptr, req.parameter.value.len, &o, r.error,
                                sizeof r.error) ||
        codec__gen(req.proto_file.items, req.proto_file.count, req.file_to_generate.items,
                   req.file_to_generate.count, &o, &r)) {
        resp.error.has = true;
        resp.error.value = (codec_string){r.error, strlen(r.error)};
    } else {
        resp.file.count = r.count;
        resp.file.items = codec_arena_alloc(&arena, r.count * sizeof *resp.file.items, 0);
        for (size_t i = 0; resp.file.items && i < r.count; i++) {
            memset(&resp.file.items[i], 0, sizeof resp.file.items[i]);
            resp.file.items[i].name.has = resp.file.items[i].content.has = true;
            resp.file.items[i].name.value = (codec_string){r.files[i].name, strlen(r.files[i].name)};
            resp.file.items[i].content.value =
                (codec_string){(const char *)r.files[i].text.data, r.files[i].text.len};
        }
    }
    int rc = respond(&resp);
    codec__gen_result_free(&r);
    codec_arena_free(&arena);
    free(in);
    return rc;
}
