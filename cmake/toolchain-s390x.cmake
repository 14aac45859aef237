# Toolchain file for s390x (big-endian): see cross.cmake. The libraries come
# from the sysroot scripts/setup-cross.sh s390x unpacks (no multiarch).
set(CODEC_CROSS_CPU s390x)
include(${CMAKE_CURRENT_LIST_DIR}/cross.cmake)
if(DEFINED ENV{CODEC_CROSS_ROOT})
  set(CODEC_CROSS_SYSROOT $ENV{CODEC_CROSS_ROOT}/s390x)
else()
  set(CODEC_CROSS_SYSROOT /opt/codec-cross/s390x)
endif()
set(libdir ${CODEC_CROSS_SYSROOT}/usr/lib/s390x-linux-gnu)
# Debian's s390x libzstd.pc says libdir=/usr/lib, so pkg-config's -L misses
# the multiarch directory: find_library looks here as well.
set(CMAKE_LIBRARY_PATH ${libdir})
set(ENV{PKG_CONFIG_LIBDIR} ${libdir}/pkgconfig:${CODEC_CROSS_SYSROOT}/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${CODEC_CROSS_SYSROOT})
set(CMAKE_C_FLAGS_INIT "-isystem ${CODEC_CROSS_SYSROOT}/usr/include/s390x-linux-gnu -isystem ${CODEC_CROSS_SYSROOT}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L${libdir} -Wl,-rpath-link,${libdir}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-L${libdir} -Wl,-rpath-link,${libdir}")
# The C library is the cross compiler's; the others are in the sysroot.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x -L /usr/s390x-linux-gnu
  -E LD_LIBRARY_PATH=${libdir}:${CODEC_CROSS_SYSROOT}/lib/s390x-linux-gnu)
