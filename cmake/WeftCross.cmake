# A cross build (a toolchain file from cmake/toolchains/ sets
# CMAKE_CROSSCOMPILING): the runtime, the drivers and the tests are built
# for the target, and the plugin, a host program that loads into the host's
# clang-N, comes from WEFT_HOST_BUILD, a host build of the same sources and
# LLVM version. That plugin must carry the target's spawn fast path
# (runtime/CMakeLists.txt, WEFT_FAST_PATH_ARCHS): without it every spawn
# of the target's programs would call the runtime out of line, correct but
# slower, and nothing would say so.
set(WEFT_HOST_BUILD "" CACHE PATH
    "A host build of Weft (the same sources and LLVM version) whose plugin this cross build uses")
if(NOT WEFT_HOST_BUILD)
  message(FATAL_ERROR "A cross build takes its plugin from a host build: "
    "configure with -DWEFT_HOST_BUILD=<host build directory> "
    "(scripts/build.sh aarch64 builds both)")
endif()
get_filename_component(WEFT_HOST_BUILD "${WEFT_HOST_BUILD}" ABSOLUTE)
if(NOT EXISTS ${WEFT_HOST_BUILD}/CMakeCache.txt)
  message(FATAL_ERROR "WEFT_HOST_BUILD=${WEFT_HOST_BUILD} is no configured Weft build")
endif()
load_cache(${WEFT_HOST_BUILD} READ_WITH_PREFIX HOST_
  WEFT_LLVM_VERSION WEFT_FAST_PATH_ARCHS CMAKE_HOME_DIRECTORY)
if(NOT HOST_WEFT_LLVM_VERSION STREQUAL WEFT_LLVM_VERSION)
  message(FATAL_ERROR "The host build ${WEFT_HOST_BUILD} is for LLVM "
    "${HOST_WEFT_LLVM_VERSION}, this cross build for ${WEFT_LLVM_VERSION}")
endif()
if(NOT HOST_CMAKE_HOME_DIRECTORY STREQUAL PROJECT_SOURCE_DIR)
  message(FATAL_ERROR "The host build ${WEFT_HOST_BUILD} is of the sources in "
    "${HOST_CMAKE_HOME_DIRECTORY}, not of these (${PROJECT_SOURCE_DIR}): the "
    "plugin's frame layout and entry points must be the runtime's")
endif()
if(NOT CMAKE_SYSTEM_PROCESSOR IN_LIST HOST_WEFT_FAST_PATH_ARCHS)
  message(FATAL_ERROR "The host build ${WEFT_HOST_BUILD} carries no "
    "${CMAKE_SYSTEM_PROCESSOR} fast path (it has: ${HOST_WEFT_FAST_PATH_ARCHS}): "
    "its configure found no ${CMAKE_CXX_COMPILER_TARGET} C++ library; "
    "run scripts/setup.sh, then reconfigure it")
endif()

# The host build's plugins, by their files: building them is the host
# tree's job, and the commands here that use them depend on the files.
foreach(plugin WeftPlugin WeftPass)
  add_library(${plugin} MODULE IMPORTED GLOBAL)
  set_target_properties(${plugin} PROPERTIES
    IMPORTED_LOCATION ${WEFT_HOST_BUILD}/lib/lib${plugin}.so)
endforeach()

set(WEFT_TARGET_FLAGS --target=${CMAKE_CXX_COMPILER_TARGET})
