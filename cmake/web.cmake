# The page: swiglu_lab.js + .wasm, the page shell and the fonts, in ${CMAKE_BINARY_DIR}/site.
# Included from CMakeLists.txt under Emscripten only.

set(SITE_DIR ${CMAKE_BINARY_DIR}/site)
set(FONT_DIR ${CMAKE_BINARY_DIR}/fonts)
file(MAKE_DIRECTORY ${SITE_DIR} ${FONT_DIR})

# [SECTION] fonts: Debian's DejaVu Sans and WenQuanYi Micro Hei, cut down to what the page prints
# (Latin, Greek, the math signs; the Chinese characters that strings.inc uses). ImGui reads only
# the outlines, metrics and character map (stb_truetype; no kerning, ligatures or shaping), so the
# layout tables, the glyphs reachable only through them (ligatures, alternates), the math table
# and the names are left out: the Latin font goes from 19.3 to 14.5 KB brotli, drawn the same.
set(FONT_SUBSET /usr/bin/python3 -m fontTools.subset --no-hinting --layout-features= --notdef-outline
    --drop-tables+=GSUB,GPOS,GDEF,MATH,gasp --name-IDs=)
set(LATIN_TTF ${FONT_DIR}/ui-latin.ttf)
set(CJK_TTF ${FONT_DIR}/ui-cjk.ttf)
file(STRINGS ${CMAKE_SOURCE_DIR}/assets/fonts/latin-unicodes.txt LATIN_UNICODES LIMIT_COUNT 1)
add_custom_command(OUTPUT ${LATIN_TTF}
  COMMAND ${FONT_SUBSET} /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
          --unicodes=${LATIN_UNICODES} --output-file=${LATIN_TTF}
  DEPENDS ${CMAKE_SOURCE_DIR}/assets/fonts/latin-unicodes.txt
  COMMENT "Cutting the Latin UI font" VERBATIM)
# The built-in model's token pieces (its city names) are in it too: its rule book, in either
# language, then needs no slice of the full fonts (19 of them, 295 KB as gzip, for 26 characters).
set(CJK_SOURCES ${CMAKE_SOURCE_DIR}/src/core/base/strings.inc ${CMAKE_SOURCE_DIR}/src/core/checkpoint/synthetic_model.cpp)
add_custom_command(OUTPUT ${CJK_TTF}
  COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/tools/font_chars.py ${FONT_DIR}/cjk-chars.txt ${CJK_SOURCES}
  COMMAND ${FONT_SUBSET} /usr/share/fonts/truetype/wqy/wqy-microhei.ttc --font-number=0
          --text-file=${FONT_DIR}/cjk-chars.txt --output-file=${CJK_TTF}
  DEPENDS ${CJK_SOURCES} ${CMAKE_SOURCE_DIR}/tools/font_chars.py
  COMMENT "Cutting the Chinese UI font to the characters of strings.inc and the built-in model" VERBATIM)

# The English page needs only a few Chinese characters (the language button, the default pack's
# sentence): those are embedded; the string table's full set is a file beside the page, fetched
# when the page is Chinese (main_web.cpp; index.html preloads it for a lang=zh link).
set(CJK_MIN_TTF ${FONT_DIR}/ui-cjk-min.ttf)
add_custom_command(OUTPUT ${CJK_MIN_TTF}
  COMMAND ${FONT_SUBSET} /usr/share/fonts/truetype/wqy/wqy-microhei.ttc --font-number=0
          --text-file=${CMAKE_SOURCE_DIR}/assets/fonts/cjk-first-load.txt --output-file=${CJK_MIN_TTF}
  DEPENDS ${CMAKE_SOURCE_DIR}/assets/fonts/cjk-first-load.txt
  COMMENT "Cutting the Chinese characters of the first load" VERBATIM)

set(FONT_SOURCES)
foreach(font latin cjk-min)
  set(ttf ${FONT_DIR}/ui-${font}.ttf)
  string(REPLACE "-" "_" symbol "font_${font}_ttf")
  set(cpp ${FONT_DIR}/${symbol}.cpp)
  add_custom_command(OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${ttf} -DOUTPUT=${cpp} -DSYMBOL=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake
    DEPENDS ${ttf} ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake VERBATIM)
  list(APPEND FONT_SOURCES ${cpp})
endforeach()

# [SECTION] shaders (shaders/*.vert, *.frag), embedded like the fonts
set(SHADER_SOURCES)
foreach(shader heatmap.vert heatmap.frag imgui.vert imgui.frag)
  string(REPLACE "." "_" symbol "shader_${shader}")
  set(cpp ${CMAKE_BINARY_DIR}/shaders/${symbol}.cpp)
  add_custom_command(OUTPUT ${cpp}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${CMAKE_SOURCE_DIR}/shaders/${shader} -DOUTPUT=${cpp} -DSYMBOL=${symbol}
            -P ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake
    DEPENDS ${CMAKE_SOURCE_DIR}/shaders/${shader} ${CMAKE_SOURCE_DIR}/cmake/embed_binary.cmake VERBATIM)
  list(APPEND SHADER_SOURCES ${cpp})
endforeach()

# [SECTION] the full fonts in slices of 128 code points (tools/font_slices.mjs), fetched beside the
# page only where its text needs them; the table of which slices exist goes into the app.
set(FONT_SLICES_TABLE ${FONT_DIR}/font_slices_table.cpp)
set(font_files)
foreach(font ${SWIGLU_PAGE_FONTS})
  string(REGEX REPLACE "#[0-9]+$" "" file ${font})
  list(APPEND font_files ${file})
endforeach()
# The first font's first slice stands for the folder: deleting it cuts the fonts again.
add_custom_command(OUTPUT ${FONT_SLICES_TABLE} ${SITE_DIR}/fonts/slices/0-000.ttf
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/font_slices.mjs --out ${SITE_DIR}/fonts/slices --table ${FONT_SLICES_TABLE}
          ${SWIGLU_PAGE_FONTS}
  DEPENDS ${CMAKE_SOURCE_DIR}/tools/font_slices.mjs ${font_files}
  COMMENT "Cutting the full fonts into slices of 128 code points" VERBATIM)

# [SECTION] the app
add_executable(swiglu_lab
  src/platform/web/main_web.cpp
  src/platform/web/platform_web.cpp
  src/platform/web/imgui_impl_html5.cpp
  src/platform/web/fetch_web.cpp
  src/platform/web/model_web.cpp
  src/platform/web/tokenize_web.cpp
  src/platform/web/renderer_gl.cpp
  src/platform/web/imgui_render_gl.cpp
  src/platform/web/gl_program.cpp
  ${FONT_SOURCES}
  ${FONT_SLICES_TABLE}
  ${SHADER_SOURCES}
)
target_include_directories(swiglu_lab PRIVATE ${SYS_LINK_DIR})
target_link_libraries(swiglu_lab PRIVATE swiglu_ui)
set_target_properties(swiglu_lab PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SITE_DIR})
# For the first load (the [SECTION] size below has the compile side): binaryen shrinks the linked
# module (-Oz; the kernels were already compiled at -O3 and keep their speed: tools/bench/run.sh),
# a smaller malloc, no emulated file system (the page reads nothing through stdio), no ES3
# client-side array emulation (every draw reads bound buffers), and no Emscripten Fetch library:
# requests go through fetch() in EM_JS (fetch_web.cpp: streamed bodies cut at their limit, past
# the HTTP cache where identity is checked) and the verified cache is the page's own IndexedDB.
target_link_options(swiglu_lab PRIVATE
  -Oz -sMALLOC=emmalloc -sFILESYSTEM=0
  -sUSE_WEBGL2=1 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2
  -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web
  -sEXPORTED_FUNCTIONS=_main,_lab_on_hash_change,_lab_on_model_event,_lab_on_paste,_lab_on_text,_lab_on_key_press,_lab_item_rect,_lab_items_json,_lab_focused_name,_lab_frames_drawn,_lab_idle,_lab_on_fetch_answer,_lab_on_fetch_progress,_lab_on_cache_answer,_lab_on_cache_answer_in_place,_lab_cache_into,_lab_cache_into_bytes,_lab_on_cache_stored,_lab_cache_index_add,_lab_cache_index_done,_lab_cache_bytes,_lab_bench_max_answer_ms,_lab_bench_total_answer_ms,_lab_bench_max_app_frame_ms,_lab_bench_convert_ms,_malloc,_free
  -sINITIAL_MEMORY=33554432)
# A leaner glue: index.html hands Module only these five, no
# runtime method is exported (nothing calls ccall), the renderer needs no WebGL extension (R8I and
# R32F textures read with NEAREST are core WebGL2), nothing reads errno, longjmps or evals, and
# every WebGL2 browser has TextDecoder.
target_link_options(swiglu_lab PRIVATE
  "-sINCOMING_MODULE_JS_API=[canvas,print,printErr,instantiateWasm,onAbort]"
  -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0 -sGL_TRACK_ERRORS=0 -sGL_POOL_TEMP_BUFFERS=0
  -sGL_WORKAROUND_SAFARI_GETCONTEXT_BUG=0 -sHTML5_SUPPORT_DEFERRING_USER_SENSITIVE_REQUESTS=0
  -sSUPPORT_ERRNO=0 -sSUPPORT_LONGJMP=0 -sDYNAMIC_EXECUTION=0 -sTEXTDECODER=2)
# emcc runs binaryen's size passes once; running them until nothing changes takes 3 KB more (brotli)
# off the linked module. Same passes, same features (SIMD for the kernels), before the compression.
find_program(WASM_OPT wasm-opt REQUIRED)
add_custom_command(TARGET swiglu_lab POST_BUILD
  COMMAND ${WASM_OPT} -Oz --converge --low-memory-unused --zero-filled-memory --enable-simd --enable-mutable-globals
          ${SITE_DIR}/swiglu_lab.wasm -o ${SITE_DIR}/swiglu_lab.wasm
  COMMENT "Shrinking swiglu_lab.wasm until binaryen's size passes converge" VERBATIM)

# The string table's Chinese characters, fetched when the page is Chinese (the full fonts' slices
# are written above).
file(MAKE_DIRECTORY ${SITE_DIR}/fonts)
# (Its own rule: a change to the built-in model's pieces re-cuts it without relinking the app.)
# With its brotli and gzip twins, as the first load's files: 122 KB as it is, about 60 as brotli.
add_custom_command(OUTPUT ${SITE_DIR}/fonts/ui-cjk.ttf
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${CJK_TTF} ${SITE_DIR}/fonts/
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs ${SITE_DIR}/fonts ui-cjk.ttf
  DEPENDS ${CJK_TTF} ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs VERBATIM)
add_custom_target(ui_cjk_font DEPENDS ${SITE_DIR}/fonts/ui-cjk.ttf)
add_dependencies(swiglu_lab ui_cjk_font)

# The page shell goes beside the js and wasm, with its own words from the string table
# (tools/page_shell.mjs); then every file of the first load is compressed once (FILE.br, FILE.gz)
# for servers that send precompressed files.
add_custom_command(TARGET swiglu_lab POST_BUILD
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/page_shell.mjs ${CMAKE_SOURCE_DIR}/web/index.html
          ${CMAKE_SOURCE_DIR}/src/core/base/strings.inc ${SITE_DIR}/index.html)
add_custom_command(TARGET swiglu_lab POST_BUILD
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs ${SITE_DIR} index.html swiglu_lab.js swiglu_lab.wasm
          swiglu_text_en.wasm swiglu_text_zh.wasm swiglu_text_gates_en.wasm swiglu_text_gates_zh.wasm
          swiglu_text_class_en.wasm swiglu_text_class_zh.wasm
  COMMENT "Compressing the first load (brotli, gzip)" VERBATIM)

# [SECTION] size: the first load is mostly ImGui and the UI, where speed does not matter; they
# are built for size (-Oz, no RTTI), and so are the core's text, URL and file-format parsers.
# The kernels, the gate statistics and the streamer's hashing keep the Release -O3.
target_compile_options(imgui PRIVATE -Oz -fno-rtti)
target_compile_options(swiglu_ui PRIVATE -Oz -fno-rtti)
target_compile_options(swiglu_lab PRIVATE -Oz -fno-rtti)
# Every other core source is built for size: the list below keeps -O3 (the kernels, the code that
# touches every weight byte, and the rest that was never moved to -Oz; a new core file is -Oz).
set(SWIGLU_CORE_SPEED_SOURCES
  src/core/kernels/kernels_ref.cpp src/core/kernels/kernels_wasmsimd.cpp src/core/kernels/kernels_registry.cpp
  src/core/kernels/swiglu_layer.cpp src/core/quant/q8_format.cpp src/core/checkpoint/dtype.cpp
  src/core/pack/pack_stats.cpp src/core/pack/mlp_experiments.cpp src/core/base/gate_counts.cpp src/core/stream/cache_lru.cpp src/core/io/byte_source.cpp
  src/core/lesson/activations.cpp src/core/views/lab_text_open.cpp src/core/views/gates_text.cpp src/core/views/gates_figure.cpp
  src/core/base/read_error.cpp src/core/views/model_offer.cpp src/core/pack/pack_summary.cpp
  # the whole model (the model worker): every weight byte, every token
  src/core/kernels/wgemm_ref.cpp src/core/kernels/wgemm_wasmsimd.cpp src/core/model/forward.cpp src/core/base/parallel_rows.cpp
  src/core/model/model_weights.cpp src/core/model/model_loader.cpp
  # (native tools only: not in the page)
  src/core/checkpoint/safetensors_write.cpp src/core/pack/pack_write.cpp src/core/checkpoint/synthetic_tokenizer.cpp
  src/core/checkpoint/synthetic_common.cpp src/core/checkpoint/synthetic_model.cpp)
set(SWIGLU_CORE_SIZE_SOURCES ${SWIGLU_CORE_SOURCES})
list(REMOVE_ITEM SWIGLU_CORE_SIZE_SOURCES ${SWIGLU_CORE_SPEED_SOURCES})
set_property(SOURCE ${SWIGLU_CORE_SIZE_SOURCES} DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY COMPILE_OPTIONS -Oz)

# ImGui's own font (ProggyClean, 12 KB) is linked only because ImFontAtlas::Build() falls back to
# it when no font was added; the page always adds its own, so the fallback is cut from a copy of
# imgui_draw.cpp and the font goes with it.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${IMGUI_DIR}/imgui_draw.cpp)
file(READ ${IMGUI_DIR}/imgui_draw.cpp IMGUI_DRAW_SRC)
string(REPLACE "if (ConfigData.Size == 0)\n        AddFontDefault();" "IM_ASSERT(ConfigData.Size > 0 && \"the page adds its fonts first\");"
       IMGUI_DRAW_LAB "${IMGUI_DRAW_SRC}")
if(IMGUI_DRAW_LAB STREQUAL IMGUI_DRAW_SRC)
  message(FATAL_ERROR "imgui_draw.cpp: the default-font fallback was not found (not ImGui 1.86?)")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/imgui_draw_lab.cpp.new "${IMGUI_DRAW_LAB}")
file(COPY_FILE ${CMAKE_BINARY_DIR}/imgui_draw_lab.cpp.new ${CMAKE_BINARY_DIR}/imgui_draw_lab.cpp ONLY_IF_DIFFERENT)
get_target_property(IMGUI_SOURCES imgui SOURCES)
list(TRANSFORM IMGUI_SOURCES REPLACE ".*/imgui_draw\\.cpp$" ${CMAKE_BINARY_DIR}/imgui_draw_lab.cpp)
set_property(TARGET imgui PROPERTY SOURCES ${IMGUI_SOURCES})

# [SECTION] the early text: swiglu_text_en.wasm and swiglu_text_zh.wasm, tiny second
# modules built from the core's URL, mirror, string and number code only (no ImGui, GL, fonts,
# kernels, json or streamer), one language each, so the page shows the view's text for the link
# opened while the main wasm is still on its way. index.html fetches the link's one beside the main
# wasm and instantiates it without Emscripten's glue (STANDALONE_WASM: two imports, stubbed there).
# swiglu_text_gates_LANG.wasm, for a gates link on the default pack, also reads the pack's manifest
# with the core's reader (cJSON and the manifest's checks, so only that link pays for them) and prints
# the view's rows and histograms from its counts.
# The core sources they link (strings.cpp once per language; the rest compiled once for all four,
# with link-time optimization, so each module keeps only what its entry points reach).
set(EARLY_CORE_SOURCES
  src/core/views/lab_text_open.cpp src/core/views/lab_text.cpp src/core/link/lab_state.cpp src/core/link/url_state.cpp src/core/base/number_parse.cpp
  src/core/views/view_table.cpp src/core/views/view_rows.cpp src/core/base/number_format.cpp src/core/lesson/activations.cpp
  src/core/lesson/hand_calc.cpp src/core/lesson/hand_explain.cpp src/core/lesson/param_budget.cpp src/core/lesson/model_budget.cpp
  src/core/link/mlp_part.cpp src/core/lesson/glossary.cpp src/core/lesson/quiz.cpp src/core/lesson/faq.cpp
  src/core/checkpoint_remote/model_location.cpp
  # the gates view's rows and SVG from the default pack's manifest (what only the gates modules reach)
  src/core/views/gates_text.cpp src/core/views/gates_figure.cpp src/core/pack/pack_summary.cpp src/core/pack/pack_format.cpp
  src/core/base/gate_counts.cpp src/core/base/hash.cpp
  src/core/quant/q8_format.cpp src/core/base/read_error.cpp src/core/base/json_read.cpp)
# swiglu_text_class_LANG.wasm, for the rule book, the flow or the gates view on the stream with the
# whole model's answers, also decodes them and prints the views' rows: a class link's (ans=,
# model_session_show_carried), so a student's phone reads the teacher's numbers before the app
# arrives, or the built-in model's precomputed ones (models/synthetic/answers.txt, fetched beside it).
set(EARLY_CLASS_SOURCES
  src/core/views/lab_text_open_carried.cpp src/core/views/class_answers.cpp src/core/views/class_answers_codes.cpp
  src/core/views/model_view.cpp
  src/core/views/model_status_text.cpp src/core/views/model_rows.cpp
  src/core/views/fault_text.cpp src/core/views/model_offer.cpp src/core/experiments/model_session.cpp
  src/core/model/model_protocol.cpp
  src/core/experiments/precomputed_answers.cpp)
foreach(f ${EARLY_CORE_SOURCES} ${EARLY_CLASS_SOURCES})
  if(NOT f IN_LIST SWIGLU_CORE_SOURCES)
    message(FATAL_ERROR "cmake/web.cmake: the early text links ${f}, which is not in the core's list (CMakeLists.txt)")
  endif()
endforeach()
set(EARLY_FLAGS -Oz -fno-rtti -flto)
add_library(swiglu_early_core OBJECT src/early/live_view_absent.cpp ${EARLY_CORE_SOURCES} ${CJSON_DIR}/cJSON.c)
target_include_directories(swiglu_early_core PUBLIC src ${SYS_LINK_DIR} ${CJSON_DIR})
target_compile_definitions(swiglu_early_core PRIVATE ${CJSON_DEFINITIONS})
target_compile_options(swiglu_early_core PUBLIC ${EARLY_FLAGS})
set_source_files_properties(${CJSON_DIR}/cJSON.c PROPERTIES COMPILE_OPTIONS -w)  # third party
add_library(swiglu_early_class OBJECT ${EARLY_CLASS_SOURCES})
target_link_libraries(swiglu_early_class PUBLIC swiglu_early_core)

foreach(lang en zh)
  string(TOUPPER ${lang} LANG_UPPER)
  add_library(swiglu_early_strings_${lang} OBJECT src/core/base/strings.cpp)
  target_link_libraries(swiglu_early_strings_${lang} PUBLIC swiglu_early_core)
  target_compile_definitions(swiglu_early_strings_${lang} PUBLIC SWIGLU_STRINGS_ONE_LANG=LAB_LANG_${LANG_UPPER})
  foreach(kind text text_gates text_class)
    set(early swiglu_${kind}_${lang})
    add_executable(${early} src/early/early_text.cpp)
    target_link_libraries(${early} PRIVATE swiglu_early_strings_${lang} swiglu_early_core)
    if(kind STREQUAL "text_gates")
      target_compile_definitions(${early} PRIVATE SWIGLU_EARLY_MANIFEST=1)
    endif()
    set(class_exports "")
    if(kind STREQUAL "text_class")
      set(class_exports ",_early_text_with_answers")
      target_compile_definitions(${early} PRIVATE SWIGLU_EARLY_CLASS=1)
      target_sources(${early} PRIVATE src/early/model_view_carried.cpp)
      target_link_libraries(${early} PRIVATE swiglu_early_class)
    else()
      target_sources(${early} PRIVATE src/early/model_view_absent.cpp)
    endif()
    set_target_properties(${early} PROPERTIES SUFFIX ".wasm" RUNTIME_OUTPUT_DIRECTORY ${SITE_DIR})
    target_link_options(${early} PRIVATE
      ${EARLY_FLAGS} -sSTANDALONE_WASM --no-entry -sMALLOC=emmalloc -sFILESYSTEM=0 -sENVIRONMENT=web
      -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=1048576 -sTOTAL_STACK=65536
      -sEXPORTED_FUNCTIONS=_early_text_for_link,_early_text_with_manifest,_early_svg,_early_set_quiz_record,_malloc,_free${class_exports})
    add_dependencies(swiglu_lab ${early})
  endforeach()
endforeach()
