# The Debian package: `cpack -G DEB` in a build directory packs what
# `cmake --install` installs (WeftPackage.cmake, tools/) into
# weft-llvm-<N>_<version>-<release>_<arch>.deb, N being the LLVM major
# version this tree is built for, under /usr unless
# CPACK_PACKAGING_INSTALL_PREFIX says otherwise (cpack -D
# CPACK_PACKAGING_INSTALL_PREFIX=/opt/weft): every installed file finds the
# others relative to itself, so any prefix works.
#
# The packages for two LLVM versions install the same paths
# (bin/weft-clang, include/weft, lib/cmake/Weft, lib/pkgconfig/weft.pc), so
# each provides, conflicts with and replaces the virtual package `weft`:
# one Weft at a time, as find_package(Weft) and pkg-config can only find
# one (docs/install.md). Weft for several versions side by side is one
# `cmake --install` prefix each.
set(CPACK_PACKAGE_NAME weft-llvm-${WEFT_LLVM_VERSION})
set(CPACK_PACKAGE_VENDOR Weft)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Cilk-style spawn and sync for C and C++ with Clang ${WEFT_LLVM_VERSION}")
# The long description, in lines of Debian's width (CPack indents them).
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "A Clang plugin and a work-stealing runtime that run programs written\n"
  "with OpenCilk's cilk_spawn, cilk_sync, cilk_for and reducers in\n"
  "parallel on every core, for clang-${WEFT_LLVM_VERSION}. It holds the "
  "weft-clang and\n"
  "weft-clang++ drivers, the plugin, the runtime (libweft.a), the\n"
  "headers <cilk/cilk.h> and <weft/weft.h>, a CMake package\n"
  "(find_package(Weft)) and a pkg-config file (weft.pc).")
if(NOT DEFINED CPACK_PACKAGING_INSTALL_PREFIX)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
endif()
set(CPACK_GENERATOR DEB)

set(WEFT_DEBIAN_MAINTAINER "Weft maintainers <maintainers@weft.invalid>"
  CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${WEFT_DEBIAN_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# What a program built with Weft needs: the clang-N the drivers run (which
# brings libc6-dev and binutils) and the libraries the plugin is linked
# against; Boost.Context's library, which the drivers and the CMake package
# link by path; and a libstdc++ at least as new as the one the runtime was
# compiled against. Race mode needs nothing more: it compiles with
# -fsanitize=thread -fno-sanitize-link-runtime, which neither reads an
# ignore list nor links a runtime from libclang-rt-N-dev.
set(weft_libstdcxx "libstdc++-dev")
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  string(REGEX MATCH "^[0-9]+" weft_gcc_major "${CMAKE_CXX_COMPILER_VERSION}")
  set(weft_libstdcxx "libstdc++-${weft_gcc_major}-dev | libstdc++-dev")
endif()
string(JOIN ", " CPACK_DEBIAN_PACKAGE_DEPENDS
  clang-${WEFT_LLVM_VERSION}
  libclang-cpp${WEFT_LLVM_VERSION}
  libllvm${WEFT_LLVM_VERSION}
  libboost-context-dev
  ${weft_libstdcxx})
# The race detector's reports name file and line through llvm-symbolizer,
# which llvm-N holds; without it they name addresses.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "llvm-${WEFT_LLVM_VERSION}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake, pkgconf | pkg-config, python3, gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_PROVIDES "weft (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_PACKAGE_CONFLICTS weft)
set(CPACK_DEBIAN_PACKAGE_REPLACES weft)

include(CPack)
