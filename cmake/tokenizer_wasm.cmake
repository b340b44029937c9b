# The tokenizer as the page's second wasm module: the core's
# tokenizer sources (SWIGLU_TOKENIZER_SOURCES) with PCRE2 (8-bit, Unicode, no JIT) and utf8proc
# built from Debian's source packages (tools/setup.sh puts them in third_party/). Output:
# site/tokenizer_wasm.js + .wasm, loaded on demand by the worker site/tokenizer_loader.js (never in the
# first load: tools/page_weight.mjs counts only index.html's files). Included by CMakeLists.txt in
# the Emscripten build only, after cmake/web.cmake.

set(PCRE2_DIR ${CMAKE_SOURCE_DIR}/third_party/pcre2 CACHE PATH "PCRE2 sources (tools/setup.sh fetches them)")
set(UTF8PROC_DIR ${CMAKE_SOURCE_DIR}/third_party/utf8proc CACHE PATH "utf8proc sources (tools/setup.sh fetches them)")
foreach(f ${PCRE2_DIR}/src/pcre2_compile.c ${UTF8PROC_DIR}/utf8proc.c)
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "${f} not found: run tools/setup.sh (PCRE2 and utf8proc sources for the tokenizer module)")
  endif()
endforeach()

# PCRE2's generic config, header and character tables, as its own CMake build would copy them.
set(PCRE2_GEN ${CMAKE_BINARY_DIR}/pcre2-gen)
file(MAKE_DIRECTORY ${PCRE2_GEN})
configure_file(${PCRE2_DIR}/src/config.h.generic ${PCRE2_GEN}/config.h COPYONLY)
configure_file(${PCRE2_DIR}/src/pcre2.h.generic ${PCRE2_GEN}/pcre2.h COPYONLY)
configure_file(${PCRE2_DIR}/src/pcre2_chartables.c.dist ${PCRE2_GEN}/pcre2_chartables.c COPYONLY)
set(PCRE2_SOURCES ${PCRE2_GEN}/pcre2_chartables.c)
foreach(f auto_possess compile config context convert dfa_match error extuni find_bracket jit_compile
          maketables match match_data newline ord2utf pattern_info script_run serialize string_utils
          study substitute substring tables ucd valid_utf xclass)
  list(APPEND PCRE2_SOURCES ${PCRE2_DIR}/src/pcre2_${f}.c)
endforeach()
add_library(pcre2_wasm STATIC ${PCRE2_SOURCES})
target_include_directories(pcre2_wasm PUBLIC ${PCRE2_GEN} PRIVATE ${PCRE2_DIR}/src)
target_compile_definitions(pcre2_wasm PUBLIC PCRE2_STATIC PCRE2_CODE_UNIT_WIDTH=8
  PRIVATE HAVE_CONFIG_H SUPPORT_UNICODE HAVE_MEMMOVE HAVE_STDINT_H HAVE_INTTYPES_H)
target_compile_options(pcre2_wasm PRIVATE -w -O2)  # third party

add_library(utf8proc_wasm STATIC ${UTF8PROC_DIR}/utf8proc.c)  # includes utf8proc_data.c
target_include_directories(utf8proc_wasm PUBLIC ${UTF8PROC_DIR})
target_compile_definitions(utf8proc_wasm PUBLIC UTF8PROC_STATIC)
target_compile_options(utf8proc_wasm PRIVATE -w -O2)

# web and node: the page loads it, and tests/tokenizer/wasm_compare.mjs runs the same file under
# Node against the native build. No exceptions (the core's tokenizer never throws).
add_executable(tokenizer_wasm src/platform/web/tokenizer_module.cpp ${SWIGLU_TOKENIZER_SOURCES})
target_include_directories(tokenizer_wasm PRIVATE src ${SYS_LINK_DIR})
target_link_libraries(tokenizer_wasm PRIVATE pcre2_wasm utf8proc_wasm)
target_compile_options(tokenizer_wasm PRIVATE -O2 -fno-rtti)
set_target_properties(tokenizer_wasm PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SITE_DIR})
target_link_options(tokenizer_wasm PRIVATE
  -O2 -sMODULARIZE=1 -sEXPORT_NAME=createTokenizerModule -sENVIRONMENT=web,worker,node -sFILESYSTEM=0
  -sALLOW_MEMORY_GROWTH=1 -sMALLOC=emmalloc -sEXPORTED_RUNTIME_METHODS=UTF8ToString
  -sEXPORTED_FUNCTIONS=_tok_module_file,_tok_module_load,_tok_module_error,_tok_module_encode,_malloc,_free)
add_custom_command(TARGET tokenizer_wasm POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/web/tokenizer_loader.js ${SITE_DIR}/tokenizer_loader.js
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs ${SITE_DIR} tokenizer_loader.js tokenizer_wasm.js tokenizer_wasm.wasm
  COMMENT "Compressing the tokenizer module (brotli, gzip)" VERBATIM)
add_dependencies(swiglu_lab tokenizer_wasm)  # the page's site/ always holds its second module
