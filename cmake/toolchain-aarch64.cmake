# Toolchain file for aarch64: see cross.cmake.
set(CODEC_CROSS_CPU aarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross.cmake)
