# Links the build's programs against LLVM's static component libraries
# instead of libLLVM.so.
#
# Debian's LLVM and MLIR packages link every MLIR library to libLLVM.so
# (LLVM_LINK_LLVM_DYLIB): a program that loads it spends ~15 ms resolving its
# relocations and running its static constructors, and keeps ~50 MB of it
# resident, before reading any input. An `hcq-opt` run on a small schedule
# is dominated by that (bench/HISTORY.md). The same packages ship every
# component as a static archive too (libLLVMSupport.a, ...); linked from
# those, a program carries only the objects it uses.
#
# MLIR's imported targets and hcq's own libraries name the target `LLVM` in
# their link interfaces. hcq_link_llvm_statically() rewrites that item, in
# every target of the build and every target imported into it, to
# `$<BUILD_INTERFACE:HCQLLVMStatic>$<INSTALL_INTERFACE:LLVM>`: the build
# links the archives, and the installed package still names `LLVM`, so an
# embedding project links hcq's libraries to whatever LLVM its own MLIR
# links (one copy of LLVM per process; two would register every cl::opt
# twice). Call it once, after every target is defined; it sets
# HCQ_LINKS_LLVM_STATICALLY when it did.

option(HCQ_STATIC_LLVM
  "Link hcq's programs against LLVM's static component libraries rather than libLLVM.so (faster start, less memory)"
  ON)

# Sets `out` to every target defined in `dir` and the folders below it.
function(hcq_collect_build_targets dir out)
  get_property(found DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(subdir ${subdirs})
    hcq_collect_build_targets(${subdir} below)
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

function(hcq_link_llvm_statically)
  if(NOT HCQ_STATIC_LLVM)
    return()
  endif()
  # The component archives that exist; some packages list libraries (BOLT,
  # Polly) that they do not ship.
  set(archives)
  foreach(lib ${LLVM_AVAILABLE_LIBS})
    if(NOT lib MATCHES "^LLVM" OR NOT TARGET ${lib})
      continue()
    endif()
    get_target_property(type ${lib} TYPE)
    if(NOT type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    get_target_property(configs ${lib} IMPORTED_CONFIGURATIONS)
    list(GET configs 0 config)
    get_target_property(location ${lib} IMPORTED_LOCATION_${config})
    if(location AND EXISTS "${location}")
      list(APPEND archives ${lib})
    endif()
  endforeach()
  # ... and only those whose dependencies exist too: other archives
  # (LLVMExtensions names Polly) and system libraries (LLVMExegesis names
  # libpfm). Dropping one may orphan another, so repeat until none is.
  set(dropped TRUE)
  while(dropped)
    set(dropped FALSE)
    foreach(lib ${archives})
      get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
      if(NOT deps)
        continue()
      endif()
      foreach(dep ${deps})
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
        set(missing_dep FALSE)
        if(TARGET ${dep})
          get_target_property(type ${dep} TYPE)
          if(type STREQUAL "STATIC_LIBRARY" AND NOT dep IN_LIST archives)
            set(missing_dep TRUE)
          endif()
        elseif(IS_ABSOLUTE "${dep}")
          if(NOT EXISTS "${dep}")
            set(missing_dep TRUE)
          endif()
        elseif(NOT dep MATCHES "::|^-")
          find_library(HCQ_SYSTEM_LIBRARY_${dep} ${dep})
          if(NOT HCQ_SYSTEM_LIBRARY_${dep})
            set(missing_dep TRUE)
          endif()
        endif()
        if(missing_dep)
          list(REMOVE_ITEM archives ${lib})
          set(dropped TRUE)
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  if(NOT "LLVMSupport" IN_LIST archives)
    message(STATUS "HCQ_STATIC_LLVM: no static LLVMSupport in ${LLVM_LIBRARY_DIR}; linking libLLVM.so")
    return()
  endif()
  list(LENGTH archives count)
  message(STATUS "HCQ_STATIC_LLVM: linking ${count} LLVM component archives instead of libLLVM.so")

  # The components name some system libraries as targets that LLVM's
  # package only defines when their development files are installed (Debian's
  # llvm-22-dev does not pull in libzstd-dev, libcurl-dev or libedit-dev).
  # The objects hcq's programs take from the archives call none of them; an
  # empty stand-in completes CMake's link interface, and a program that did
  # call one would fail to link, naming the symbol.
  set(missing)
  foreach(lib ${archives})
    get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
    foreach(dep ${deps})
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep "${dep}")
      if(dep MATCHES "::" AND NOT TARGET ${dep})
        list(APPEND missing ${dep})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES missing)
  foreach(dep ${missing})
    add_library(${dep} INTERFACE IMPORTED)
  endforeach()
  if(missing)
    message(STATUS "HCQ_STATIC_LLVM: not found, left out: ${missing}")
  endif()

  set(HCQ_LINKS_LLVM_STATICALLY TRUE PARENT_SCOPE)
  add_library(HCQLLVMStatic INTERFACE)
  # An archive only contributes the objects a program uses; --as-needed drops
  # the system libraries the components name but the program never calls
  # (libz3 for LLVMSupport's SMT solver).
  target_link_libraries(HCQLLVMStatic INTERFACE ${archives})
  target_link_options(HCQLLVMStatic INTERFACE "LINKER:--as-needed")

  hcq_collect_build_targets(${PROJECT_SOURCE_DIR} targets)
  get_property(imported DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY IMPORTED_TARGETS)
  set(replacement "$<BUILD_INTERFACE:HCQLLVMStatic>$<INSTALL_INTERFACE:LLVM>")
  foreach(target ${targets} ${imported})
    get_target_property(is_imported ${target} IMPORTED)
    set(properties INTERFACE_LINK_LIBRARIES)
    if(NOT is_imported)
      list(APPEND properties LINK_LIBRARIES)
    endif()
    foreach(property ${properties})
      get_target_property(libs ${target} ${property})
      if(NOT libs)
        continue()
      endif()
      # `LLVM` as an item of its own or inside $<LINK_ONLY:...>.
      list(TRANSFORM libs REPLACE "^LLVM$" "${replacement}")
      list(TRANSFORM libs REPLACE "^\\$<LINK_ONLY:LLVM>$"
                                  "$<LINK_ONLY:${replacement}>")
      set_target_properties(${target} PROPERTIES ${property} "${libs}")
    endforeach()
  endforeach()
endfunction()
