# codec_generate(TARGET PROTOS x.proto... [IMPORT_DIRS dir...] [OUT_DIR dir]
#                [OPTIONS fory_base=N specialize=1] [FDL])
#
# Generates x.codec.h / x.codec.c for each schema at build time and adds the
# .c files and the output directory (as an include directory) to TARGET.
# OUT_DIR defaults to ${CMAKE_CURRENT_BINARY_DIR}/TARGET_generated.
# .proto files go through protoc and protoc-gen-codec; with FDL (or files
# ending in .fdl) the schemas are Fory IDL files read by codec-gen itself.
# Each file's imports must be generated too: list them in PROTOS (the
# well-known types are found in /usr/include through IMPORT_DIRS).
# docs/guides/codegen.md shows a complete example.
function(codec_generate target)
  cmake_parse_arguments(CG "FDL" "OUT_DIR" "PROTOS;IMPORT_DIRS;OPTIONS" ${ARGN})
  if(NOT CG_OUT_DIR)
    set(CG_OUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/${target}_generated)
  endif()
  if(TARGET protoc-gen-codec AND CMAKE_CROSSCOMPILING_EMULATOR)
    # A cross build's generators run under the emulator (qemu-user); protoc
    # takes its plugin as one program, so a script runs it there.
    set(plugin ${CMAKE_BINARY_DIR}/protoc-gen-codec-emulated)
    get_property(written GLOBAL PROPERTY CODEC_EMULATED_PLUGIN)
    if(NOT written)
      list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " emulator)
      file(GENERATE OUTPUT ${plugin}
        CONTENT "#!/bin/sh\nexec ${emulator} $<TARGET_FILE:protoc-gen-codec> \"$@\"\n"
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                         WORLD_READ WORLD_EXECUTE)
      set_property(GLOBAL PROPERTY CODEC_EMULATED_PLUGIN TRUE)
    endif()
    set(plugin_deps protoc-gen-codec)
    set(gen ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:codec_gen>)
    set(gen_deps codec_gen)
  elseif(TARGET protoc-gen-codec)
    set(plugin $<TARGET_FILE:protoc-gen-codec>)
    set(gen $<TARGET_FILE:codec_gen>)
    set(plugin_deps ${plugin})
    set(gen_deps ${gen})
  else()
    find_program(CODEC_PROTOC_GEN_CODEC protoc-gen-codec REQUIRED)
    find_program(CODEC_GEN codec-gen REQUIRED)
    set(plugin ${CODEC_PROTOC_GEN_CODEC})
    set(gen ${CODEC_GEN})
    set(plugin_deps ${plugin})
    set(gen_deps ${gen})
  endif()
  find_program(CODEC_PROTOC protoc)
  set(import_args)
  foreach(dir IN LISTS CG_IMPORT_DIRS)
    list(APPEND import_args -I${dir})
  endforeach()
  list(APPEND import_args -I${CMAKE_CURRENT_SOURCE_DIR})
  string(REPLACE ";" "," opts "${CG_OPTIONS}")
  # Fory IDL files take the one option that applies to them as a flag.
  set(fdl_args)
  if("specialize=1" IN_LIST CG_OPTIONS)
    list(APPEND fdl_args --specialize)
  endif()
  set(sources)
  foreach(proto IN LISTS CG_PROTOS)
    get_filename_component(abs ${proto} ABSOLUTE)
    # The name protoc knows the file by: relative to the first import dir
    # that holds it (IMPORT_DIRS, then the current source dir).
    set(rel "")
    foreach(dir ${CG_IMPORT_DIRS} ${CMAKE_CURRENT_SOURCE_DIR})
      file(RELATIVE_PATH r ${dir} ${abs})
      if(NOT rel AND NOT r MATCHES "^\\.\\.")
        set(rel ${r})
      endif()
    endforeach()
    string(REGEX REPLACE "\\.(proto|fdl)$" "" stem ${rel})
    set(out_c ${CG_OUT_DIR}/${stem}.codec.c)
    set(out_h ${CG_OUT_DIR}/${stem}.codec.h)
    if(CG_FDL OR abs MATCHES "\\.fdl$")
      add_custom_command(OUTPUT ${out_c} ${out_h}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CG_OUT_DIR}
        COMMAND ${gen} -o ${CG_OUT_DIR} ${fdl_args} --fdl ${abs} --name ${rel}
        DEPENDS ${abs} ${gen_deps} VERBATIM)
    else()
      add_custom_command(OUTPUT ${out_c} ${out_h}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CG_OUT_DIR}
        COMMAND ${CODEC_PROTOC} --plugin=protoc-gen-codec=${plugin} --codec_out=${CG_OUT_DIR}
                "--codec_opt=${opts}" ${import_args} ${abs}
        DEPENDS ${abs} ${plugin_deps} VERBATIM)
    endif()
    list(APPEND sources ${out_c})
  endforeach()
  target_sources(${target} PRIVATE ${sources})
  target_include_directories(${target} PUBLIC ${CG_OUT_DIR})
endfunction()
