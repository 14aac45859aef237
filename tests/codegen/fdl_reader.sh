#!/usr/bin/env bash
# codec-gen's Fory IDL reader beyond vectors.fdl: imports, nested types and
# scoped names, every field form, and errors with file:line.
#   fdl_reader.sh CODEC_GEN INCLUDE_DIR
set -u
gen=$1 inc=$2
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
    ref Order parent = 6;
    tagged int64 version = 8;
    array<float32> weights = 12;
    list<optional string> notes = 13 [nullable = true];
    int8 flags = 14;
    uint16 port = 15;
    date due = 16;
    timestamp created = 17;
}

service Shop {
    rpc Get (Order) returns (Order);
}
FDL
if ! "$gen" -o "$work/out" --fdl "$work/order.fdl" --name order.fdl 2>"$work/err"; then
    fail "codec-gen refused order.fdl: $(cat "$work/err")"
fi
"$gen" -o "$work/out" --fdl "$work/common/base.fdl" --name common/base.fdl || fail "base.fdl"
h=$work/out/order.codec.h
for want in '#include "common/base.codec.h"' 'shop_common_Money price;' 'int32_t qty;' \
            'CODEC_MAP_OF(codec_string, shop_Order_Line) by_sku;' \
            'CODEC_OPTIONAL_OF(shop_common_Money) discount;' 'struct shop_Order \*parent;' \
            'int8_t flags;' 'uint16_t port;' 'codec_date due;' 'codec_timestamp created;' \
            'reserved 9 to 11' 'reserved "legacy"' 'shop_Order_State_PAID = 1'; do
    grep -q -- "$want" "$h" || fail "order.codec.h lacks: $want"
done
c=$work/out/order.codec.c
for want in 'CODEC_ARRAY(shop_Order__weights_t, CODEC_FLOAT)' 'CODEC_FIELD_TAGGED' \
            'CODEC_FIELD_FIXED' '{&shop_Order_type, 130}' '{&shop_Order_Line_type, 131}' \
            '{&shop_Order_State_type, 132}' '"by_sku"'; do
    grep -qF -- "$want" "$c" || fail "order.codec.c lacks: $want"
done
for f in order.codec.c common/base.codec.c; do
    cc -std=gnu11 -Wall -Wextra -Werror -c -I"$work/out" -I"$inc" "$work/out/$f" -o "$work/x.o" ||
        fail "$f does not compile"
done

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
bad union $'package p;\nunion U { int32 a = 1; }' 'bad.fdl:2: union types are not supported'
bad field-zero $'message A {\n  int32 x = 0;\n}' 'bad.fdl:2: field number 0 is outside'
bad unclosed $'message A {\n  int32 x = 1;\n' 'not closed|expected'
bad fixed-string $'message A { fixed string s = 1; }' "'fixed' applies to 32- and 64-bit integers"
bad array-string $'message A { array<string> s = 1; }' 'array<T> takes bool, integer'
bad any $'message A { any x = 1; }' "type 'any' is not supported"
bad missing-import $'import "nowhere.fdl";' 'cannot read .*nowhere.fdl'
[ "$failed" -eq 0 ] && echo "fdl_reader: all checks passed"
exit $((failed != 0))
