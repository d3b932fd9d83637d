# Includes follow the layers of ../shared/DESIGN.md, so that dependencies point one
# way: policies -> problems -> core. Run at every build (target check_layers):
#   cmake -DROOT=<repository> -P scripts/check_layers.cmake
# - src/: a folder includes itself and the folders of lower layers only, and
#   nothing from problems/, policies/ or tests/;
# - problems/: itself, src/util/ and src/problem/ (no networks, no files of the core);
# - policies/: itself, problems/ and the core below training and benchmarks;
# - python/: itself and the core (not the CLI).
set(src_layers util parallel problem decode io attention nn agent "train|bench" cli)

function(layer_of folder out)
  set(rank 0)
  foreach(layer IN LISTS src_layers)
    if(folder MATCHES "^(${layer})$")
      set(${out} ${rank} PARENT_SCOPE)
      return()
    endif()
    math(EXPR rank "${rank} + 1")
  endforeach()
  set(${out} -1 PARENT_SCOPE)
endfunction()

set(violations "")
file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/src/*.h ${ROOT}/src/*.cpp ${ROOT}/problems/*.h
     ${ROOT}/problems/*.cpp ${ROOT}/policies/*.h ${ROOT}/policies/*.cpp ${ROOT}/python/*.h
     ${ROOT}/python/*.cpp)
foreach(file IN LISTS files)
  file(STRINGS ${ROOT}/${file} includes REGEX "^#include \"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
    set(allowed FALSE)
    if(file MATCHES "^src/([a-z_]+)/")
      set(folder ${CMAKE_MATCH_1})
      layer_of(${folder} mine)
      if(included MATCHES "^src/([a-z_]+)/")
        layer_of(${CMAKE_MATCH_1} theirs)
        if(CMAKE_MATCH_1 STREQUAL folder OR (theirs GREATER_EQUAL 0 AND theirs LESS mine))
          set(allowed TRUE)
        endif()
      endif()
    elseif(file MATCHES "^problems/")
      if(included MATCHES "^(problems|src/util|src/problem)/")
        set(allowed TRUE)
      endif()
    elseif(file MATCHES "^policies/")
      if(included MATCHES "^(policies|problems)/" OR
         (included MATCHES "^src/" AND NOT included MATCHES "^src/(train|bench|cli)/"))
        set(allowed TRUE)
      endif()
    elseif(file MATCHES "^python/")
      # A front end like the CLI: the core's layers, problems and policies only by registry.
      if(included MATCHES "^(python|src)/" AND NOT included MATCHES "^src/cli/")
        set(allowed TRUE)
      endif()
    endif()
    if(NOT allowed)
      list(APPEND violations "${file} includes ${included}")
    endif()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes against the layers:\n  ${text}")
endif()
