# What `cmake --install` puts under the prefix: the drivers (tools/), the
# plugin, the runtime, the public headers, and two ways for other projects to
# use them: a CMake package (find_package(Weft), see WeftConfig.cmake.in) and
# a pkg-config file (weft.pc.in). The build tree carries the same CMake
# package in build/lib/cmake/Weft, so a consumer can also point
# CMAKE_PREFIX_PATH at a build directory.
include(CMakePackageConfigHelpers)

set(WEFT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Weft)
set(WEFT_BUILD_CMAKE_DIR ${CMAKE_BINARY_DIR}/${WEFT_CMAKE_DIR})

set_target_properties(weft_rt PROPERTIES EXPORT_NAME runtime)
set_target_properties(WeftPlugin PROPERTIES EXPORT_NAME plugin)
install(TARGETS weft_rt EXPORT WeftTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS WeftPlugin EXPORT WeftTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The race detector's archive (libweft_race.a, runtime/CMakeLists.txt), when
# this tree builds it: Weft::race_runtime, which Weft::race links before the
# runtime (WeftConfig.cmake.in).
if(TARGET weft_race)
  set_target_properties(weft_race PROPERTIES EXPORT_NAME race_runtime)
  install(TARGETS weft_race EXPORT WeftTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# weft/weft.h and cilk/cilk.h, and weft/frame_abi.h with runtime_abi.def, the ABI between the
# code the plugin emits and the runtime.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")

# The CMake package, installed and in the build tree. The config file only
# refers to the files next to it, so one template serves both.
install(EXPORT WeftTargets NAMESPACE Weft:: DESTINATION ${WEFT_CMAKE_DIR})
export(EXPORT WeftTargets NAMESPACE Weft::
  FILE ${WEFT_BUILD_CMAKE_DIR}/WeftTargets.cmake)
configure_package_config_file(cmake/WeftConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/WeftConfig.cmake
  INSTALL_DESTINATION ${WEFT_CMAKE_DIR})
configure_package_config_file(cmake/WeftConfig.cmake.in
  ${WEFT_BUILD_CMAKE_DIR}/WeftConfig.cmake
  INSTALL_DESTINATION ${WEFT_BUILD_CMAKE_DIR}
  INSTALL_PREFIX ${CMAKE_BINARY_DIR})
# 0.x: a minor version may change the frame ABI.
write_basic_package_version_file(${WEFT_BUILD_CMAKE_DIR}/WeftConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/WeftConfig.cmake
              ${WEFT_BUILD_CMAKE_DIR}/WeftConfigVersion.cmake
  DESTINATION ${WEFT_CMAKE_DIR})

# weft.pc finds the prefix from its own directory (${pcfiledir}), so the
# installed tree can be moved. Boost.Context is named by -l, with -L when it
# is not in a directory the linker searches anyway.
file(RELATIVE_PATH WEFT_PC_TO_PREFIX
  ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" WEFT_PC_TO_PREFIX "${WEFT_PC_TO_PREFIX}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(WEFT_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(WEFT_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
get_filename_component(boost_context_dir ${BOOST_CONTEXT_LIBRARY} DIRECTORY)
if(boost_context_dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
  set(WEFT_PC_BOOST_CONTEXT "-lboost_context")
else()
  set(WEFT_PC_BOOST_CONTEXT "-L${boost_context_dir} -lboost_context")
endif()
# With the race detector: what `--weft-race` adds, as two variables
# (pkg-config --variable=race_cflags weft, --variable=race_libs weft).
set(WEFT_PC_RACE "")
if(TARGET weft_race)
  string(CONCAT WEFT_PC_RACE
    "race_cflags=-fplugin-arg-weft-race -fsanitize=thread "
    "-fno-sanitize-link-runtime -fno-omit-frame-pointer\n"
    "race_libs=\${libdir}/$<TARGET_FILE_NAME:weft_race>")
endif()
configure_file(cmake/weft.pc.in ${CMAKE_BINARY_DIR}/package/weft.pc.gen @ONLY)
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/package/weft.pc
  INPUT ${CMAKE_BINARY_DIR}/package/weft.pc.gen)
install(FILES ${CMAKE_BINARY_DIR}/package/weft.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
