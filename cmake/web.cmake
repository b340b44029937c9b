# The page: swiglu_lab.js + .wasm, the page shell and the fonts, in ${CMAKE_BINARY_DIR}/site.
# Included from CMakeLists.txt under Emscripten only.

set(SITE_DIR ${CMAKE_BINARY_DIR}/site)
set(FONT_DIR ${CMAKE_BINARY_DIR}/fonts)
file(MAKE_DIRECTORY ${SITE_DIR} ${FONT_DIR})

# [SECTION] fonts: Debian's DejaVu Sans and WenQuanYi Micro Hei, cut down to what the page prints
# (Latin, Greek, the math signs; the Chinese characters that strings.inc uses).
set(FONT_SUBSET /usr/bin/python3 -m fontTools.subset --no-hinting --layout-features=* --notdef-outline)
set(LATIN_TTF ${FONT_DIR}/ui-latin.ttf)
set(CJK_TTF ${FONT_DIR}/ui-cjk.ttf)
file(STRINGS ${CMAKE_SOURCE_DIR}/assets/fonts/latin-unicodes.txt LATIN_UNICODES LIMIT_COUNT 1)
add_custom_command(OUTPUT ${LATIN_TTF}
  COMMAND ${FONT_SUBSET} /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
          --unicodes=${LATIN_UNICODES} --output-file=${LATIN_TTF}
  DEPENDS ${CMAKE_SOURCE_DIR}/assets/fonts/latin-unicodes.txt
  COMMENT "Cutting the Latin UI font" VERBATIM)
add_custom_command(OUTPUT ${CJK_TTF}
  COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/tools/font_chars.py ${CMAKE_SOURCE_DIR}/src/core/strings.inc ${FONT_DIR}/cjk-chars.txt
  COMMAND ${FONT_SUBSET} /usr/share/fonts/truetype/wqy/wqy-microhei.ttc --font-number=0
          --text-file=${FONT_DIR}/cjk-chars.txt --output-file=${CJK_TTF}
  DEPENDS ${CMAKE_SOURCE_DIR}/src/core/strings.inc ${CMAKE_SOURCE_DIR}/tools/font_chars.py
  COMMENT "Cutting the Chinese UI font to the characters in strings.inc" VERBATIM)

set(FONT_SOURCES)
foreach(font latin cjk)
  set(ttf ${FONT_DIR}/ui-${font}.ttf)
  set(cpp ${FONT_DIR}/font_${font}.cpp)
  add_custom_command(OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${ttf} -DOUTPUT=${cpp} -DSYMBOL=font_${font}_ttf
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake
    DEPENDS ${ttf} ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake VERBATIM)
  list(APPEND FONT_SOURCES ${cpp})
endforeach()

# [SECTION] shaders (shaders/*.vert, *.frag), embedded like the fonts
set(SHADER_SOURCES)
foreach(shader heatmap.vert heatmap.frag)
  string(REPLACE "." "_" symbol "shader_${shader}")
  set(cpp ${CMAKE_BINARY_DIR}/shaders/${symbol}.cpp)
  add_custom_command(OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${CMAKE_SOURCE_DIR}/shaders/${shader} -DOUTPUT=${cpp} -DSYMBOL=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake
    DEPENDS ${CMAKE_SOURCE_DIR}/shaders/${shader} ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake VERBATIM)
  list(APPEND SHADER_SOURCES ${cpp})
endforeach()

# [SECTION] the app
add_executable(swiglu_lab
  src/platform/web/main_web.cpp
  src/platform/web/platform_web.cpp
  src/platform/web/imgui_impl_html5.cpp
  src/platform/web/fetch_web.cpp
  src/platform/web/renderer_gl.cpp
  ${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp
  ${FONT_SOURCES}
  ${SHADER_SOURCES}
)
target_include_directories(swiglu_lab PRIVATE ${IMGUI_DIR}/backends)
set_source_files_properties(${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp PROPERTIES COMPILE_OPTIONS -w)  # third party
target_link_libraries(swiglu_lab PRIVATE swiglu_ui)
set_target_properties(swiglu_lab PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SITE_DIR})
target_link_options(swiglu_lab PRIVATE
  -sUSE_WEBGL2=1 -sFULL_ES3=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web -sEXPORTED_RUNTIME_METHODS=ccall -sFETCH=1
  -sEXPORTED_FUNCTIONS=_main,_lab_on_hash_change,_lab_on_paste,_lab_on_text,_lab_item_rect,_lab_items_json,_lab_focused_name,_lab_on_cache_answer,_lab_on_cache_stored,_lab_bench_max_answer_ms,_lab_bench_max_app_frame_ms,_malloc,_free
  -sINITIAL_MEMORY=33554432)

# The full fonts, fetched only when a pack's text needs characters the embedded ones lack.
file(MAKE_DIRECTORY ${SITE_DIR}/fonts)
foreach(font /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/wqy/wqy-microhei.ttc)
  add_custom_command(TARGET swiglu_lab POST_BUILD COMMAND ${CMAKE_COMMAND} -E copy_if_different ${font} ${SITE_DIR}/fonts/)
endforeach()

# The page shell and its static files go beside the js and wasm.
foreach(f index.html)
  add_custom_command(TARGET swiglu_lab POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/web/${f} ${SITE_DIR}/${f})
endforeach()
