/* addressbook.c — from a .proto to a running program: the types come from
 * addressbook.proto, compiled at build time by protoc-gen-codec (see
 * docs/guides/codegen.md). Encodes an address book with the generated
 * descriptor, decodes it back, and checks what came back.
 * Build: CMake's codec_generate(example_addressbook PROTOS addressbook.proto
 * /usr/include/google/protobuf/timestamp.proto ...). */
#include "addressbook.codec.h"

#include <codec/codec.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    tutorial_Person_PhoneNumber phones[] = {
        {.number = CODEC_STR("555-4321"), .type = tutorial_Person_PhoneType_PHONE_TYPE_HOME},
        {.number = CODEC_STR("555-1234"), .type = 42},   /* open enum: kept as is */
    };
    google_protobuf_Timestamp when = {.seconds = 1764633600};
    codec_string keys[] = {CODEC_STR("chess"), CODEC_STR("go")};
    int64_t values[] = {1850, -3};
    tutorial_Person ada = {
        .name = CODEC_STR("Ada Lovelace"),
        .id = 1815,
        .email = CODEC_STR("ada@example.com"),
        .phones = {phones, 2},
        .last_updated = &when,                                /* message fields: pointers */
        .contact = {.which = tutorial_Person_contact_slack, .slack = CODEC_STR("@ada")},
        .nickname = {.has = true, .value = CODEC_STR("Countess")},
        .scores = {keys, values, 2},
    };
    tutorial_AddressBook book = {.people = {&ada, 1}};

    codec_error err;
    codec *c = codec_parse("protobuf", &tutorial_AddressBook_type, &err);
    if (!c) {
        char line[256];
        fprintf(stderr, "codec: %s\n", codec_error_format(&err, line, sizeof line));
        return 2;
    }
    codec_buf out;
    codec_buf_init(&out, NULL);
    if (codec_encode(c, &book, &out, &err) != CODEC_OK)
        return 1;
    printf("AddressBook: %zu bytes (decode them with: protoc --decode=tutorial.AddressBook "
           "addressbook.proto)\n", out.len);

    codec_arena arena;
    codec_arena_init(&arena, NULL, 0);
    tutorial_AddressBook back;
    int rc = codec_decode(c, out.data, out.len, &back, &arena, &err);
    const tutorial_Person *p = rc == CODEC_OK && back.people.count == 1 ? &back.people.items[0] : NULL;
    int ok = p && p->id == 1815 && p->phones.count == 2 && p->phones.items[1].type == 42 &&
             p->last_updated && p->last_updated->seconds == when.seconds &&
             p->contact.which == tutorial_Person_contact_slack && p->contact.slack.len == 4 &&
             p->nickname.has && p->scores.count == 2 && p->scores.values[1] == -3 &&
             memcmp(p->name.ptr, "Ada Lovelace", 12) == 0;
    printf("round trip: %s\n", ok ? "ok" : "FAILED");
    codec_arena_free(&arena);
    codec_buf_free(&out);
    codec_free(c);
    return ok ? 0 : 1;
}
