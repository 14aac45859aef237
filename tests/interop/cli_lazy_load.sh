#!/usr/bin/env bash
# The `codec` command loads libbrotlienc, libbrotlidec, libcrypto,
# librdkafka, libhiredis and libsnappy (and libbrotlicommon, libm,
# libstdc++, libssl, libsasl2 behind them) only when a run needs them
# (src/core/dynlib_internal.h): none is NEEDED by the binary, `codec pack
# -p gzip` loads none (the dynamic loader's own account, LD_DEBUG=files),
# and a brotli, snappy or envelope run loads its own library and still
# works. libm is not NEEDED either: nothing in codec calls it.
. "$(dirname "$0")/cli_lib.bash"

LAZY="libbrotlienc libbrotlidec libbrotlicommon libcrypto libssl librdkafka libsasl2 libhiredis
      libsnappy libstdc++"
# A sanitizer's runtime (make asan, make tsan) brings libm and libstdc++ itself.
if ! readelf -d "$CODEC" | grep -q 'NEEDED.*san\.so'; then
    LAZY="$LAZY libm"
fi

# NAME — the NEEDED entries of the binary name none of them.
needed=$(readelf -d "$CODEC" | grep NEEDED)
[ -n "$needed" ] || fail "NEEDED" "readelf -d found no NEEDED entry in $CODEC"
for lib in $LAZY; do
    CASES=$((CASES + 1))
    if grep -qF "[$lib.so" <<<"$needed"; then fail "NEEDED" "$CODEC needs $lib"; fi
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

# expect_not_loaded NAME — none of them was opened in the last run.
expect_not_loaded() {
    for lib in $LAZY; do
        CASES=$((CASES + 1))
        [[ $LOADED != *file=$lib.so* ]] || fail "$1" "$lib was loaded"
    done
}

loaded "pack gzip" "$WORK/prose" pack -p gzip:6
expect_rc "pack gzip" 0
cp "$OUT" "$WORK/packed.gz"
gzip -dc <"$WORK/packed.gz" | cmp -s - "$WORK/prose" || fail "pack gzip" "gzip -dc differs"
# The loader's account is there: libc is always loaded.
[[ $LOADED == *file=libc.so* ]] || fail "pack gzip" "LD_DEBUG=files gave no account: $LOADED"
expect_not_loaded "pack gzip"

loaded "unpack gzip" "$WORK/packed.gz" unpack -p gzip
expect_rc "unpack gzip" 0
expect_stdout_file "unpack gzip" "$WORK/prose"
expect_not_loaded "unpack gzip"

loaded "pack base64" "$WORK/prose" pack -p 'zstd:3 | lz4 | base64:wrap=76'
expect_rc "pack base64" 0
expect_not_loaded "pack base64"

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
