#!/usr/bin/env bash
# The `codec` command loads libzstd, liblz4, libz, libdeflate,
# libbrotlienc, libbrotlidec, libcrypto, librdkafka, libhiredis and
# libsnappy (and libbrotlicommon, libm, libstdc++, libssl, libsasl2 behind
# them) only when a run needs them (src/core/dynlib_internal.h): none is
# NEEDED by the binary or by libcodec.so, `codec pack -p base64` loads none
# (the dynamic loader's own account, LD_DEBUG=files), gzip at level 6 no
# zlib (libdeflate for the CRC-32 only), zstd and lz4 their own library
# only, and a brotli, snappy or envelope run loads its own library and still
# works. libm is not NEEDED either: nothing in codec calls it.
. "$(dirname "$0")/cli_lib.bash"

COMPRESS="libzstd liblz4 libz libdeflate"
LAZY="$COMPRESS libbrotlienc libbrotlidec libbrotlicommon libcrypto libssl librdkafka libsasl2
      libhiredis libsnappy libstdc++"
# A sanitizer's runtime (make asan, make tsan) brings libm and libstdc++ itself.
if ! readelf -d "$CODEC" | grep -q 'NEEDED.*san\.so'; then
    LAZY="$LAZY libm"
fi

# NEEDED — the NEEDED entries of the binary and of libcodec.so beside it
# name none of them.
for elf in "$CODEC" "$(dirname "$CODEC")/libcodec.so"; do
    [ -e "$elf" ] || continue
    needed=$(readelf -d "$elf" | grep NEEDED)
    [ -n "$needed" ] || fail "NEEDED" "readelf -d found no NEEDED entry in $elf"
    for lib in $LAZY; do
        CASES=$((CASES + 1))
        if grep -qF "[$lib.so" <<<"$needed"; then fail "NEEDED" "$elf needs $lib"; fi
    done
done

# loaded NAME INPUT ARGS... — runs codec under LD_DEBUG=files; LOADED is
# the list of the files the loader opened.
head -c 200000 "$ROOT/README.md" >"$WORK/prose"
loaded() {
    local name=$1 input=$2
    shift 2
    rm -f "$WORK"/ld.*
    LD_DEBUG=files LD_DEBUG_OUTPUT="$WORK/ld" run "$name" "$input" "$@"
    # Why each file was loaded; a sanitizer's runtime (make asan, make tsan)
    # needs libstdc++ itself.
    LOADED=$(cat "$WORK"/ld.* 2>/dev/null | grep -E '(needed|dynamically loaded) by' |
        grep -v 'needed by [^ ]*/lib[a-z]*san\.so' | grep -o 'file=[^ ]*' | sort -u | tr '\n' ' ')
}

# expect_not_loaded NAME [LIB...] — none of them but LIB... was opened in
# the last run.
expect_not_loaded() {
    local name=$1
    shift
    for lib in $LAZY; do
        [[ " $* " != *" $lib "* ]] || continue
        CASES=$((CASES + 1))
        [[ $LOADED != *file=$lib.so* ]] || fail "$name" "$lib was loaded"
    done
}

# expect_loaded NAME LIB — LIB was opened in the last run.
expect_loaded() {
    CASES=$((CASES + 1))
    [[ $LOADED == *file=$2.so* ]] || fail "$1" "$2 was not loaded: $LOADED"
}

loaded "pack base64" "$WORK/prose" pack -p base64:wrap=76
expect_rc "pack base64" 0
cp "$OUT" "$WORK/packed.b64"
# The loader's account is there: libc is always loaded.
[[ $LOADED == *file=libc.so* ]] || fail "pack base64" "LD_DEBUG=files gave no account: $LOADED"
expect_not_loaded "pack base64"

loaded "unpack base64" "$WORK/packed.b64" unpack -p base64
expect_rc "unpack base64" 0
expect_stdout_file "unpack base64" "$WORK/prose"
expect_not_loaded "unpack base64"

# Level 6 is our encoder, decoding our inflate: no zlib; the CRC-32 is
# libdeflate's (zlib's in a build without libdeflate).
CRC_LIB=libdeflate
built_with libdeflate || CRC_LIB=libz
loaded "pack gzip" "$WORK/prose" pack -p gzip:6
expect_rc "pack gzip" 0
cp "$OUT" "$WORK/packed.gz"
gzip -dc <"$WORK/packed.gz" | cmp -s - "$WORK/prose" || fail "pack gzip" "gzip -dc differs"
expect_not_loaded "pack gzip" $CRC_LIB

loaded "unpack gzip" "$WORK/packed.gz" unpack -p gzip
expect_rc "unpack gzip" 0
expect_stdout_file "unpack gzip" "$WORK/prose"
expect_not_loaded "unpack gzip" $CRC_LIB

loaded "pack zstd" "$WORK/prose" pack -p zstd:3
expect_rc "pack zstd" 0
cp "$OUT" "$WORK/packed.zst"
expect_loaded "pack zstd" libzstd
expect_not_loaded "pack zstd" libzstd

loaded "pack lz4" "$WORK/prose" pack -p lz4
expect_rc "pack lz4" 0
cp "$OUT" "$WORK/packed.lz4"
expect_loaded "pack lz4" liblz4
expect_not_loaded "pack lz4" liblz4
loaded "unpack lz4" "$WORK/packed.lz4" unpack -p lz4
expect_rc "unpack lz4" 0
expect_stdout_file "unpack lz4" "$WORK/prose"
expect_not_loaded "unpack lz4" liblz4

# `codec inspect` walks a zstd payload with libzstd, a gzip one with zlib.
loaded "inspect zstd" "$WORK/packed.zst" inspect
expect_rc "inspect zstd" 0
expect_loaded "inspect zstd" libzstd
expect_not_loaded "inspect zstd" libzstd
loaded "inspect gzip" "$WORK/packed.gz" inspect
expect_rc "inspect gzip" 0
expect_loaded "inspect gzip" libz
expect_not_loaded "inspect gzip" libz

if built_with brotli; then
    # Each direction opens its own library.
    loaded "pack brotli" "$WORK/prose" pack -p brotli:5
    expect_rc "pack brotli" 0
    cp "$OUT" "$WORK/packed.br"
    [[ $LOADED == *file=libbrotlienc.so* ]] || fail "pack brotli" "libbrotlienc was not loaded: $LOADED"
    [[ $LOADED != *file=libbrotlidec.so* ]] || fail "pack brotli" "libbrotlidec was loaded"
    loaded "unpack brotli" "$WORK/packed.br" unpack -p brotli
    expect_rc "unpack brotli" 0
    expect_stdout_file "unpack brotli" "$WORK/prose"
    [[ $LOADED == *file=libbrotlidec.so* ]] || fail "unpack brotli" "libbrotlidec was not loaded: $LOADED"
    [[ $LOADED != *file=libbrotlienc.so* ]] || fail "unpack brotli" "libbrotlienc was loaded"
fi

if built_with snappy; then
    loaded "pack snappy" "$WORK/prose" pack -p snappy:framed
    expect_rc "pack snappy" 0
    cp "$OUT" "$WORK/packed.sz"
    [[ $LOADED == *file=libsnappy.so* ]] || fail "pack snappy" "libsnappy was not loaded: $LOADED"
    [[ $LOADED != *file=libcrypto.so* ]] || fail "pack snappy" "libcrypto was loaded"
    run "unpack snappy" "$WORK/packed.sz" unpack -p snappy:framed
    expect_rc "unpack snappy" 0
    expect_stdout_file "unpack snappy" "$WORK/prose"
fi

if built_with openssl; then
    run "keygen" /dev/null keygen
    expect_rc "keygen" 0
    cp "$OUT" "$WORK/k.ring"
    chmod 600 "$WORK/k.ring"
    loaded "pack envelope" "$WORK/prose" pack -p "zstd | envelope:keyring=$WORK/k.ring"
    expect_rc "pack envelope" 0
    cp "$OUT" "$WORK/sealed"
    [[ $LOADED == *file=libcrypto.so* ]] || fail "pack envelope" "libcrypto was not loaded"
    [[ $LOADED != *file=librdkafka.so* ]] || fail "pack envelope" "librdkafka was loaded"
    run "unpack envelope" "$WORK/sealed" unpack -p "zstd | envelope:keyring=$WORK/k.ring"
    expect_rc "unpack envelope" 0
    expect_stdout_file "unpack envelope" "$WORK/prose"
fi

finish
