# Weft for 64-bit Arm Linux, cross-built on a Debian x86-64 machine with the
# same Debian Clang as the host build (scripts/build.sh aarch64):
#
#   cmake -S . -B build-aarch64 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake \
#     -DWEFT_LLVM_VERSION=19 -DWEFT_HOST_BUILD=$PWD/build
#
# The plugin is a host program: the cross tree takes it from WEFT_HOST_BUILD,
# a host build of the same sources and LLVM version, and builds the runtime,
# the drivers (which add --target=aarch64-linux-gnu), the runtime's tests
# and the lit programs for Arm. Debian's cross packages provide the C and
# C++ libraries (crossbuild-essential-arm64, under /usr/aarch64-linux-gnu),
# and multiarch packages the rest (libboost-context-dev:arm64 and
# libgtest-dev:arm64, under /usr/lib/aarch64-linux-gnu); scripts/setup.sh
# installs them. qemu-user runs the tests: CTest and lit put
# CMAKE_CROSSCOMPILING_EMULATOR before each Arm program.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

if(NOT WEFT_LLVM_VERSION)
  set(WEFT_LLVM_VERSION 19)
endif()
set(CMAKE_C_COMPILER /usr/lib/llvm-${WEFT_LLVM_VERSION}/bin/clang)
set(CMAKE_CXX_COMPILER /usr/lib/llvm-${WEFT_LLVM_VERSION}/bin/clang++)
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)

# The Arm programs' own dynamic loader and libraries are the multiarch ones
# (libc6:arm64, which the :arm64 packages above bring), found under / as on
# an Arm machine. qemu's -L names that root: under the cross packages' root
# instead, /usr/aarch64-linux-gnu, the loader would come from one glibc
# build and libraries it finds only under / from another, and the first
# pthread_create never returns.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)

# Libraries and headers: the target's first, then the machine's own
# directories, where the multiarch packages put Arm libraries beside the
# host's (find_library looks in lib/aarch64-linux-gnu only, by
# CMAKE_LIBRARY_ARCHITECTURE) and where Boost's headers, the same for every
# architecture, live. Programs (clang, lit, FileCheck, qemu) are the host's.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
