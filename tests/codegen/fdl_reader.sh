#!/usr/bin/env bash
# codec-gen's Fory IDL reader beyond vectors.fdl: imports, nested types and
# scoped names, every field form, a union, and errors with file:line. The
# generated code is compiled, and a program built on it sends a message with
# a union through codec's Fory backend and back.
#   fdl_reader.sh CODEC_GEN INCLUDE_DIR LIBCODEC_A BUILD_INCLUDE_DIR
set -u
gen=$1 inc=$2 lib=$3 config_inc=$4   # config_inc: the build's codec/config.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*" >&2; failed=$((failed + 1)); }

mkdir -p "$work/common"
cat >"$work/common/base.fdl" <<'FDL'
package shop.common;
enum Currency [id=120] { EUR = 0; USD = 1; }
message Money [id=121] { int64 units = 1; Currency currency = 2; }
FDL
cat >"$work/order.fdl" <<'FDL'
// A file with every form the reader takes.
package shop;
option java_package = "com.example.shop";
import "common/base.fdl";

message Order [id=130] {
    reserved 7, 9 to 11;
    reserved "legacy";
    message Line [id=131] {
        string sku = 1;
        shop.common.Money price = 2;
        fixed int32 qty = 3;
    }
    enum State [id=132] { OPEN = 0; PAID = 1; }
    string id = 1;
    list<Line> lines = 2;
    map<string, Line> by_sku = 3;
    State state = 4;
    optional shop.common.Money discount = 5;
    tagged int64 version = 8;
    array<int16> weights = 12;
    list<optional string> notes = 13 [nullable = true];
    int8 flags = 14;
    uint16 port = 15;
    Animal pet = 18;
    optional Animal favorite = 19;
}

message Pet [id=150] { string owner = 1; Animal animal = 2; }
message Dog [id=140] { string name = 1; }
message Cat [id=141] { int32 lives = 1; }
union Animal [id=142] {
    Dog dog = 0;
    Cat cat = 1;
    string nickname = 2;
}

service Shop {
    rpc Get (Order) returns (Order);
}
FDL
# `ref` gives a pointer; dates, timestamps and float arrays are generated
# too. codec's Fory backend does not carry these yet, so they stay out of
# the files the Fory round trip below registers.
printf 'package tree;\nmessage Node { string v = 1; ref Node parent = 2; list<Node> kids = 3;\n  date due = 4; timestamp at = 5; decimal price = 6; array<float32> w = 7; }\n' \
    >"$work/tree.fdl"
"$gen" -o "$work/out" --fdl "$work/tree.fdl" --name tree.fdl || fail "tree.fdl"
for want in 'struct tree_Node \*parent;' 'codec_date due;' 'codec_timestamp at;' 'codec_string price;'; do
    grep -q -- "$want" "$work/out/tree.codec.h" || fail "tree.codec.h lacks: $want"
done
if ! "$gen" -o "$work/out" --fdl "$work/order.fdl" --name order.fdl 2>"$work/err"; then
    fail "codec-gen refused order.fdl: $(cat "$work/err")"
fi
"$gen" -o "$work/out" --fdl "$work/common/base.fdl" --name common/base.fdl || fail "base.fdl"
h=$work/out/order.codec.h
for want in '#include "common/base.codec.h"' 'shop_common_Money price;' 'int32_t qty;' \
            'CODEC_MAP_OF(codec_string, shop_Order_Line) by_sku;' \
            'CODEC_OPTIONAL_OF(shop_common_Money) discount;' \
            'int8_t flags;' 'uint16_t port;' \
            'reserved 9 to 11' 'reserved "legacy"' 'shop_Order_State_PAID = 1' \
            'typedef struct shop_Animal {' 'shop_Dog dog;' 'shop_Animal_cat = 2,' \
            'shop_Animal pet;' 'shop_Animal favorite;'; do
    grep -q -- "$want" "$h" || fail "order.codec.h lacks: $want"
done
c=$work/out/order.codec.c
for want in 'CODEC_ARRAY(shop_Order__weights_t, CODEC_INT16)' 'CODEC_FIELD_TAGGED' \
            'CODEC_FIELD_FIXED' '{&shop_Order_type, 130}' '{&shop_Order_Line_type, 131}' \
            '{&shop_Order_State_type, 132}' '"by_sku"'; do
    grep -qF -- "$want" "$c" || fail "order.codec.c lacks: $want"
done
for f in order.codec.c common/base.codec.c tree.codec.c; do
    cc -std=gnu11 -Wall -Wextra -Werror -c -I"$work/out" -I"$inc" -I"$config_inc" "$work/out/$f" -o "$work/x.o" ||
        fail "$f does not compile"
done
# The same with --specialize (Fory code per struct) compiles too.
for f in order common/base tree; do
    "$gen" --specialize -o "$work/spec" --fdl "$work/$f.fdl" --name "$f.fdl" || fail "--specialize $f.fdl"
done
# Money (an enum field) gets Fory functions; Order (a union of structs, a
# Line) and Line (a struct of another file) are left to the backend.
grep -q 'codec_fory_codegen shop_common_Money_fory_codegen_' "$work/spec/common/base.codec.c" ||
    fail "--specialize wrote no Fory code for shop.common.Money (an int64 and an enum)"
for t in shop_Order shop_Order_Line; do
    grep -q "codec_fory_codegen ${t}_fory_codegen_" "$work/spec/order.codec.c" &&
        fail "--specialize wrote Fory code for $t"
done
for f in order.codec.c common/base.codec.c tree.codec.c; do
    cc -std=gnu11 -Wall -Wextra -Werror -c -I"$work/spec" -I"$inc" -I"$config_inc" "$work/spec/$f" -o "$work/x.o" ||
        fail "$f (--specialize) does not compile"
done

# A union through Fory and back (ids from [id=N]; the union by case id).
cat >"$work/main.c" <<'C'
#include "order.codec.h"
#include <codec/codec.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    codec_error err;
    codec_fory_registry *r = codec_fory_registry_new(&err);
    if (common_base_fory_register(r, &err) || order_fory_register(r, &err))
        return printf("register: %s\n", err.message), 1;
    codec *c = codec_fory(r, &shop_Pet_type, NULL, &err);
    codec_fory_registry_free(r);
    if (!c)
        return printf("codec_fory: %s\n", err.message), 1;
    shop_Pet pets[] = {
        {.owner = CODEC_STR("ada"), .animal = {.which = shop_Animal_cat, .cat = {.lives = 9}}},
        {.owner = CODEC_STR("bo"), .animal = {.which = shop_Animal_dog, .dog = {CODEC_STR("rex")}}},
        {.owner = CODEC_STR("cy"), .animal = {.which = shop_Animal_nickname, .nickname = CODEC_STR("x")}},
        {.owner = CODEC_STR("di")},   /* empty union: null */
    };
    int bad = 0;
    for (int i = 0; i < 4; i++) {
        codec_buf out;
        codec_buf_init(&out, NULL);
        codec_arena arena;
        codec_arena_init(&arena, NULL, 0);
        shop_Pet back;
        if (codec_encode(c, &pets[i], &out, &err) ||
            codec_decode(c, out.data, out.len, &back, &arena, &err))
            return printf("pet %d: %s\n", i, err.message), 1;
        bad |= back.animal.which != pets[i].animal.which || back.owner.len != pets[i].owner.len;
        bad |= i == 0 && back.animal.cat.lives != 9;
        bad |= i == 1 && (back.animal.dog.name.len != 3 || memcmp(back.animal.dog.name.ptr, "rex", 3));
        codec_arena_free(&arena);
        codec_buf_free(&out);
    }
    codec_free(c);
    puts(bad ? "union round trip: FAILED" : "union round trip: ok");
    return bad;
}
C
# shellcheck disable=SC2086   # TEST_CFLAGS: flags the library was built with
if cc ${TEST_CFLAGS:-} -std=gnu11 -Wall -Wextra -Werror -I"$work/out" -I"$inc" -I"$config_inc" "$work/main.c" "$work/out/order.codec.c" \
      "$work/out/common/base.codec.c" "$lib" \
      $(pkg-config --libs libzstd liblz4 zlib libdeflate libbrotlienc libbrotlidec) \
      -lm -lpthread -o "$work/main" 2>"$work/err"; then   # snappy, libcrypto...: opened on first use
    "$work/main" || fail "union through Fory: $("$work/main" 2>&1 | tail -1)"
else
    fail "the union program does not build: $(head -c 600 "$work/err")"
fi

# Errors name the file and line.
bad() {   # NAME TEXT REGEX
    printf '%s\n' "$2" >"$work/bad.fdl"
    if "$gen" -o "$work/bad" --fdl "$work/bad.fdl" 2>"$work/err"; then
        fail "$1: accepted"
    elif ! grep -Eq -- "$3" "$work/err"; then
        fail "$1: error '$(cat "$work/err")' does not match /$3/"
    fi
}
bad unknown-type $'package p;\nmessage A {\n  Nope x = 1;\n}' "bad.fdl:[0-9]+: unknown type 'Nope'"
bad union-optional $'package p;\nunion U {\n  optional int32 a = 1;\n}' 'bad.fdl:3: union cases cannot be optional'
bad field-zero $'message A {\n  int32 x = 0;\n}' 'bad.fdl:2: field number 0 is outside'
bad unclosed $'message A {\n  int32 x = 1;\n' 'not closed|expected'
bad fixed-string $'message A { fixed string s = 1; }' "'fixed' applies to 32- and 64-bit integers"
bad array-string $'message A { array<string> s = 1; }' 'array<T> takes bool, integer'
bad any $'message A { any x = 1; }' "type 'any' is not supported"
bad missing-import $'import "nowhere.fdl";' 'cannot read .*nowhere.fdl'
[ "$failed" -eq 0 ] && echo "fdl_reader: all checks passed"
exit $((failed != 0))
