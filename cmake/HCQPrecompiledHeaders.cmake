# The headers most of hcq's files include, parsed once per build instead of
# once per file: they are most of the front end's time, and the front end
# more than half of a first build (-ftime-trace). Two precompiled headers,
# one per set of compile flags (a PCH must match its users' flags: -fPIC,
# -fno-exceptions, sanitizers, definitions, which CMake's REUSE_FROM relies
# on):
#
#   hcq_precompile_mlir_headers     the compiler's: MLIR's core headers and
#                                   hcq's dialect (HCQ/Dialect/HCQ.h alone
#                                   was about 1 CPU-second of each compiler
#                                   file), made by obj.HCQDialect
#   hcq_precompile_runtime_headers  the runtime's: the C++ library's headers
#                                   (about half a CPU-second of each runtime
#                                   file), made by HCQBase
#
# CMake marks a PCH a system header, so its headers' warnings show only where
# they are compiled without one (the unit tests include HCQ/Dialect/HCQ.h).
# ccache caches files compiled with them only when told to be sloppy about
# the PCH's defines and time stamps (ccache(1), "Precompiled headers").
option(HCQ_PRECOMPILE_HEADERS "Precompile the headers most of hcq's files include (MLIR's, the dialect's, the C++ library's)" ON)

if(HCQ_PRECOMPILE_HEADERS AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
    CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()

# Without this, clang records each header's modification time in the PCH,
# and ccache reuses neither the PCH nor the files compiled with it once a
# header is newer (ccache(1) asks for it): the dialect's generated headers
# are new in every build folder. Ninja's dependency files, not the times,
# decide what to rebuild.
set(HCQ_PCH_OPTIONS)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(HCQ_PCH_OPTIONS "SHELL:-Xclang -fno-pch-timestamp")
endif()

set(HCQ_PCH_OWNER obj.HCQDialect)
set(HCQ_RUNTIME_PCH_OWNER HCQBase)

# Gives `target` the precompiled MLIR headers: an add_mlir_library's name
# (its object library compiles its files), or a program compiled with the
# same flags (hcq-opt, hcq-translate).
function(hcq_precompile_mlir_headers target)
  if(NOT HCQ_PRECOMPILE_HEADERS)
    return()
  endif()
  if(TARGET obj.${target})
    set(target obj.${target})
  endif()
  target_compile_options(${target} PRIVATE ${HCQ_PCH_OPTIONS})
  if(target STREQUAL HCQ_PCH_OWNER)
    # Upstream headers, and hcq's dialect: every file that uses the PCH
    # includes HCQ/Dialect/HCQ.h, and through it the ops' generated
    # declarations (7,500 lines), so a change to it rebuilds them all with or
    # without the PCH. hcq's other headers change too often to be worth it.
    target_precompile_headers(${target} PRIVATE
      <mlir/Bytecode/BytecodeOpInterface.h>
      <mlir/IR/Builders.h>
      <mlir/IR/BuiltinOps.h>
      <mlir/IR/BuiltinTypes.h>
      <mlir/IR/Dialect.h>
      <mlir/IR/DialectImplementation.h>
      <mlir/IR/OpDefinition.h>
      <mlir/IR/OpImplementation.h>
      <mlir/IR/PatternMatch.h>
      <mlir/IR/SymbolTable.h>
      <mlir/Interfaces/CallInterfaces.h>
      <mlir/Interfaces/FunctionInterfaces.h>
      <mlir/Interfaces/SideEffectInterfaces.h>
      <mlir/Pass/Pass.h>
      <mlir/Pass/PassManager.h>
      <HCQ/Dialect/HCQ.h>)
  else()
    # The owner may be defined later: hcq_reuse_precompiled_headers, at the
    # end of the top CMakeLists.txt, links them.
    set_property(GLOBAL APPEND PROPERTY HCQ_PCH_USERS ${target})
  endif()
endfunction()

# Gives the runtime's `target` (an hcq_runtime_only library or program) the
# precompiled C++ library headers. Only the standard library's: they never
# change, and hcq's own are cheap once these are parsed.
function(hcq_precompile_runtime_headers target)
  if(NOT HCQ_PRECOMPILE_HEADERS)
    return()
  endif()
  target_compile_options(${target} PRIVATE ${HCQ_PCH_OPTIONS})
  if(target STREQUAL HCQ_RUNTIME_PCH_OWNER)
    target_precompile_headers(${target} PRIVATE
      <algorithm>
      <atomic>
      <cassert>
      <chrono>
      <cstdint>
      <cstring>
      <functional>
      <map>
      <memory>
      <mutex>
      <optional>
      <shared_mutex>
      <string>
      <string_view>
      <thread>
      <tuple>
      <unordered_map>
      <utility>
      <vector>)
  else()
    set_property(GLOBAL APPEND PROPERTY HCQ_RUNTIME_PCH_USERS ${target})
  endif()
endfunction()

function(hcq_reuse_precompiled_headers)
  get_property(users GLOBAL PROPERTY HCQ_PCH_USERS)
  foreach(user ${users})
    target_precompile_headers(${user} REUSE_FROM ${HCQ_PCH_OWNER})
  endforeach()
  get_property(users GLOBAL PROPERTY HCQ_RUNTIME_PCH_USERS)
  foreach(user ${users})
    target_precompile_headers(${user} REUSE_FROM ${HCQ_RUNTIME_PCH_OWNER})
  endforeach()
endfunction()
