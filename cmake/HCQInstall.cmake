# The installed package: headers (with the generated .inc and the .td files),
# the libraries as exported HCQ:: targets, the tools, and
# lib/cmake/hcq/HCQConfig.cmake, so that an MLIR-based project can
#   find_package(HCQ REQUIRED CONFIG)
#   target_link_libraries(mytool PRIVATE HCQ::Transforms HCQ::Runtime)
# The libraries are made BUILDTREE_ONLY / DISABLE_INSTALL where they are
# defined: LLVM's and MLIR's helpers would install them into their own
# export sets; here they go into HCQTargets.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HCQ_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hcq)
# Two export sets: the runtime's (LLVM-free: a program that only runs
# executables asks for COMPONENTS Runtime and needs no LLVM or MLIR) and the
# compiler's.
set(HCQ_RUNTIME_LIBRARIES HCQBase HCQTargetInfo HCQExecutable HCQRuntimeCore
  HCQRuntimeCPU HCQRuntimeAMDEmulated HCQRuntimeAMDKFD HCQRuntime)
set(HCQ_COMPILER_LIBRARIES HCQSupport HCQTarget HCQDialect HCQTransformUtils
  HCQAMDTarget HCQCPUTarget HCQTransforms)
# #hcq.host_target's model (gpu-module-to-binary's host objects): apart from
# the others since it links LLVM's host code generator, which a compiler
# that only asks for HCQ::Transforms does not need.
list(APPEND HCQ_COMPILER_LIBRARIES HCQHostTarget)
# convert-gpu-to-hcq and hcq-attach-host-target: the way in from upstream's
# gpu dialect, apart so that hcq-translate and compilers without a gpu path
# do not compile or link it.
list(APPEND HCQ_COMPILER_LIBRARIES HCQGPUToHCQ)
set(HCQ_LIBRARIES ${HCQ_RUNTIME_LIBRARIES} ${HCQ_COMPILER_LIBRARIES})

foreach(lib ${HCQ_LIBRARIES})
  # HCQ::Base, HCQ::Support, HCQ::TargetInfo, HCQ::Target, HCQ::Runtime,
  # HCQ::Dialect, HCQ::Transforms, HCQ::HostTarget, HCQ::GPUToHCQ.
  string(REGEX REPLACE "^HCQ" "" export_name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${export_name})
  target_include_directories(${lib} INTERFACE
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

install(TARGETS ${HCQ_RUNTIME_LIBRARIES} EXPORT HCQRuntimeTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS ${HCQ_COMPILER_LIBRARIES} EXPORT HCQTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS hcq-opt hcq-translate hcq-run hcq-exe-dump
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The C API: libhcq-runtime.so (HCQ::RuntimeC) and include/hcq-c.
set_target_properties(hcq-runtime PROPERTIES EXPORT_NAME RuntimeC)
install(TARGETS hcq-runtime EXPORT HCQRuntimeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hcq-c
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Public headers (with their .def tables) and ODS sources; the generated
# declarations and definitions the headers include.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/HCQ
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.td")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/HCQ
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "Builtins" EXCLUDE
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT HCQRuntimeTargets NAMESPACE HCQ::
  DESTINATION ${HCQ_INSTALL_CMAKE_DIR})
install(EXPORT HCQTargets NAMESPACE HCQ::
  DESTINATION ${HCQ_INSTALL_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/HCQConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/HCQConfig.cmake
  INSTALL_DESTINATION ${HCQ_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/HCQConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/HCQConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/HCQConfigVersion.cmake
  DESTINATION ${HCQ_INSTALL_CMAKE_DIR})
