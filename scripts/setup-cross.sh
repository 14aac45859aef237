#!/usr/bin/env bash
# Prepares this Debian machine to cross-build codec for ARCH (arm64 or s390x)
# and run the result under qemu-user. Does nothing when all is there
# already. Used by `make test-aarch64` and `make test-s390x`.
#
# arm64: Debian's cross compiler and the :arm64 -dev packages through
#   multiarch (dpkg --add-architecture arm64).
# s390x: Debian's security archive carries no s390x, so :s390x runtime
#   libraries cannot be installed beside the amd64 ones (multiarch needs the
#   same version of both). The cross compiler brings its own C library
#   (libc6-dev-s390x-cross); the three libraries the minimal configuration
#   links (zstd, lz4, zlib) are unpacked from their :s390x packages into the
#   sysroot $CODEC_CROSS_ROOT/s390x (default /opt/codec-cross), not installed.
# Usage: scripts/setup-cross.sh ARCH
set -euo pipefail
arch=${1:?usage: setup-cross.sh arm64|s390x}
here=$(dirname "$0")
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
case $arch in
  arm64)
    libs=(libzstd-dev liblz4-dev zlib1g-dev libdeflate-dev libsnappy-dev libbrotli-dev
          libssl-dev libhiredis-dev)
    dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
    "$here/install-deps.sh" --only gcc-aarch64-linux-gnu libc6-dev:arm64 qemu-user file cmake \
        pkg-config "${libs[@]/%/:arm64}"
    ;;
  s390x)
    "$here/install-deps.sh" --only gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user file cmake \
        pkg-config
    root=${CODEC_CROSS_ROOT:-/opt/codec-cross}/s390x
    [ -f "$root/.complete" ] && exit 0
    dpkg --print-foreign-architectures | grep -qx s390x || $sudo dpkg --add-architecture s390x
    $sudo apt-get update -qq
    debs=$(mktemp -d)
    (cd "$debs" && apt-get download -qq libzstd-dev:s390x libzstd1:s390x liblz4-dev:s390x \
        liblz4-1:s390x zlib1g-dev:s390x zlib1g:s390x)
    $sudo mkdir -p "$root"
    for deb in "$debs"/*.deb; do $sudo dpkg-deb -x "$deb" "$root"; done
    # Absolute links (usr/lib/.../libz.so -> /lib/.../libz.so.1) would
    # point out of the sysroot, and the linker would take libz.a instead.
    find "$root" -type l -lname '/*' | while read -r link; do
      $sudo ln -sfn "$root$(readlink "$link")" "$link"
    done
    rm -rf "$debs"
    $sudo touch "$root/.complete"
    ;;
  *) echo "setup-cross: unknown architecture $arch" >&2; exit 2 ;;
esac
