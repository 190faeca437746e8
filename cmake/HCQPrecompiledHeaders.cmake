# MLIR's core headers, parsed once per build instead of once per file: they
# are most of the front end's time in hcq's compiler files (4.3 of the 5.4
# CPU-seconds of lib/Transforms/Seal.cpp's front end are its includes), and
# the compiler's files are most of a first build.
#
# One precompiled header, made by obj.HCQDialect and reused by every other
# add_mlir_library of hcq: they share every compile flag (the PCH must match
# them: -fPIC, sanitizers, definitions), which CMake's REUSE_FROM relies on.
# Only upstream headers go in: hcq's own change too often to be worth it.
# ccache caches files compiled with it only when told to be sloppy about
# the PCH's defines and time stamps (ccache(1), "Precompiled headers").
option(HCQ_PRECOMPILE_HEADERS "Precompile MLIR's core headers for hcq's compiler libraries" ON)

if(HCQ_PRECOMPILE_HEADERS AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
    CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()

set(HCQ_PCH_OWNER obj.HCQDialect)

# Gives `lib`'s object library the precompiled MLIR headers.
function(hcq_precompile_mlir_headers lib)
  if(NOT HCQ_PRECOMPILE_HEADERS)
    return()
  endif()
  if("obj.${lib}" STREQUAL HCQ_PCH_OWNER)
    target_precompile_headers(obj.${lib} PRIVATE
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
      <mlir/Pass/PassManager.h>)
  else()
    # The owner may be defined later: hcq_reuse_precompiled_headers, at the
    # end of the top CMakeLists.txt, links them.
    set_property(GLOBAL APPEND PROPERTY HCQ_PCH_USERS obj.${lib})
  endif()
endfunction()

function(hcq_reuse_precompiled_headers)
  get_property(users GLOBAL PROPERTY HCQ_PCH_USERS)
  foreach(user ${users})
    target_precompile_headers(${user} REUSE_FROM ${HCQ_PCH_OWNER})
  endforeach()
endfunction()
