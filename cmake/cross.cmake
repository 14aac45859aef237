# Cross-build for CODEC_CROSS_CPU (set by cmake/toolchain-<cpu>.cmake) with
# Debian's cross compiler and the target's multiarch libraries
# (scripts/setup-cross.sh installs both); ctest runs the programs under
# qemu-user. Used by `make test-aarch64` and `make test-s390x`.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${CODEC_CROSS_CPU})
set(CMAKE_C_COMPILER ${CODEC_CROSS_CPU}-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-${CODEC_CROSS_CPU})
# pkg-config answers for the target's libraries, not the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${CODEC_CROSS_CPU}-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
