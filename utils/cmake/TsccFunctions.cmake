# tscc_add_probe(<name>
#                SOURCES <script.t>...
#                [INCLUDE_DIRECTORIES <dir>...]
#                [DEFINES <NAME[=VALUE]>...]
#                [OPTIONS <extra tscc flags>...]
#                [TRACER <executable-name>]
#                [EXCLUDE_FROM_ALL])
#
# Compiles each trace script into a probe object at build time:
#   ${CMAKE_CURRENT_BINARY_DIR}/<name>/<script-stem>.o
# and creates the custom target <name> that builds them. Like add_library(),
# the target is part of the default build unless EXCLUDE_FROM_ALL is given
# (ALL is accepted and changes nothing). The object paths are
# in the target property TSCC_OBJECTS, so they can be installed with
#   install(FILES $<TARGET_PROPERTY:<name>,TSCC_OBJECTS> DESTINATION ...)
# or run with `tsrun <object> -- cmd`.
#
# Dependencies are exact: editing a script, or any header it #includes
# (tscc writes a depfile), rebuilds the object; so does a new tscc.
#
# TRACER <exe> also links the object(s) with the runtime into a
# self-contained tracer executable <exe> that needs neither tscc nor tsrun:
# `<exe> [tsrun options] -- cmd args`. The project must enable CXX (the
# runtime is C++).
function(tscc_add_probe name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "ALL;EXCLUDE_FROM_ALL"
    "TRACER" "SOURCES;INCLUDE_DIRECTORIES;DEFINES;OPTIONS")
  if(arg_ALL AND arg_EXCLUDE_FROM_ALL)
    message(FATAL_ERROR "tscc_add_probe(${name}): ALL and EXCLUDE_FROM_ALL contradict each other")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tscc_add_probe(${name}): unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "tscc_add_probe(${name}): SOURCES is required")
  endif()
  if(NOT TARGET Tscc::tscc)
    message(FATAL_ERROR "tscc_add_probe(${name}): the Tscc::tscc compiler target is missing")
  endif()

  set(flags)
  foreach(dir IN LISTS arg_INCLUDE_DIRECTORIES)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags "-I${dir}")
  endforeach()
  foreach(def IN LISTS arg_DEFINES)
    list(APPEND flags "-D${def}")
  endforeach()
  list(APPEND flags ${arg_OPTIONS})

  set(outdir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  set(objects)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src}" NAME_WE)
    set(obj "${outdir}/${stem}.o")
    # The depfile names paths relative to the build tree's top for Ninja.
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${outdir}"
      COMMAND Tscc::tscc ${flags} -MD -MF "${obj}.d" -MT "${obj}" "${src}" -o "${obj}"
      DEPENDS "${src}" Tscc::tscc
      DEPFILE "${obj}.d"
      COMMENT "Compiling trace script ${stem}.t"
      VERBATIM)
    list(APPEND objects "${obj}")
  endforeach()

  if(arg_EXCLUDE_FROM_ALL)
    add_custom_target(${name} DEPENDS ${objects})
  else()
    add_custom_target(${name} ALL DEPENDS ${objects})
  endif()
  set_target_properties(${name} PROPERTIES TSCC_OBJECTS "${objects}")

  if(arg_TRACER)
    if(NOT TARGET Tscc::tsrt OR NOT TARGET Tscc::tsrt_main)
      message(FATAL_ERROR "tscc_add_probe(${name}): TRACER needs Tscc::tsrt and Tscc::tsrt_main")
    endif()
    # The runtime is C++: the tracer is linked by the C++ compiler driver.
    get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CXX" IN_LIST languages)
      message(FATAL_ERROR "tscc_add_probe(${name}): TRACER needs the CXX language; "
        "add it to project() or call enable_language(CXX) first")
    endif()
    if(arg_EXCLUDE_FROM_ALL)
      add_executable(${arg_TRACER} EXCLUDE_FROM_ALL ${objects})
    else()
      add_executable(${arg_TRACER} ${objects})
    endif()
    set_source_files_properties(${objects} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    set_target_properties(${arg_TRACER} PROPERTIES LINKER_LANGUAGE CXX)
    target_link_libraries(${arg_TRACER} PRIVATE Tscc::tsrt_main Tscc::tsrt)
    add_dependencies(${arg_TRACER} ${name})
  endif()
endfunction()
