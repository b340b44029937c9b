# The page's model worker: site/swiglu_model.js + .wasm, the whole model's host
# (core/model/model_host.h: the reader, the forward pass, the model's own tokenizer) run in a Web
# Worker by site/model_worker.js. Fetched when a view needs the whole model, never in the first
# load (tools/page_weight.mjs counts only index.html's files). Emscripten only; after
# tokenizer_wasm.cmake (PCRE2 and utf8proc for wasm).
if(NOT EMSCRIPTEN)
  return()
endif()

add_executable(swiglu_model src/platform/web/model_worker.cpp src/platform/web/fetch_web.cpp
  src/core/model/model_host.cpp ${SWIGLU_TOKENIZER_SOURCES})
target_include_directories(swiglu_model PRIVATE src ${SYS_LINK_DIR})
target_link_libraries(swiglu_model PRIVATE swiglu_core pcre2_wasm utf8proc_wasm)
# Speed, not size: the forward pass is all it does (the kernels are -O3 in every build).
target_compile_options(swiglu_model PRIVATE -O3 -fno-rtti)
set_target_properties(swiglu_model PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SITE_DIR})
# 2 GiB at most: Qwen3.5-0.8B's weights in BF16 take 1.4 GiB (MODEL_MEMORY_BUDGET in
# core/model/model_loader.h keeps the weights within 1.75 GiB of it). The heap grows by what is
# asked plus at most 16 MiB (Emscripten's default headroom, up to 96 MiB a step, is memory a
# phone never gets back: wasm memory does not shrink).
target_link_options(swiglu_model PRIVATE
  -O3 -sMODULARIZE=1 -sEXPORT_NAME=createModelModule -sENVIRONMENT=worker -sFILESYSTEM=0
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=67108864 -sMAXIMUM_MEMORY=2147483648 -sMALLOC=emmalloc
  -sMEMORY_GROWTH_GEOMETRIC_CAP=16777216
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
  -sEXPORTED_FUNCTIONS=_model_worker_open,_model_worker_go,_model_worker_cancel,_model_worker_retry,_model_worker_clear,_model_worker_cache_bytes,_model_worker_pump,_model_worker_status,_model_worker_ask,_malloc,_free)
add_custom_command(TARGET swiglu_model POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/web/model_worker.js ${SITE_DIR}/model_worker.js
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs ${SITE_DIR} model_worker.js swiglu_model.js swiglu_model.wasm
  COMMENT "Compressing the model worker (brotli, gzip)" VERBATIM)
add_dependencies(swiglu_lab swiglu_model)  # the page's site/ always holds its model worker
