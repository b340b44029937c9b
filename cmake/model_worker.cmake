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
set(MODEL_WORKER_LINK_OPTIONS
  -O3 -sMODULARIZE=1 -sEXPORT_NAME=createModelModule -sENVIRONMENT=worker -sFILESYSTEM=0
  -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=67108864 -sMAXIMUM_MEMORY=2147483648 -sMALLOC=emmalloc
  -sMEMORY_GROWTH_GEOMETRIC_CAP=16777216
  -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
  -sEXPORTED_FUNCTIONS=_model_worker_open,_model_worker_go,_model_worker_cancel,_model_worker_retry,_model_worker_clear,_model_worker_cache_bytes,_model_worker_pump,_model_worker_status,_model_worker_ask,_malloc,_free)
target_link_options(swiglu_model PRIVATE ${MODEL_WORKER_LINK_OPTIONS})
add_custom_command(TARGET swiglu_model POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/web/model_worker.js ${SITE_DIR}/model_worker.js
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs ${SITE_DIR} model_worker.js swiglu_model.js swiglu_model.wasm
  COMMENT "Compressing the model worker (brotli, gzip)" VERBATIM)
add_dependencies(swiglu_lab swiglu_model)  # the page's site/ always holds its model worker

# [SECTION] the threaded twin: site/swiglu_model_mt.js + .wasm + .worker.js, the same host built
# with pthreads, so the forward pass's products run on every core (core/base/parallel_rows.h).
# model_worker.js loads it where the page is cross-origin isolated (shared memory needs COOP and
# COEP), the single-threaded module elsewhere. Shared memory needs every object built with atomics,
# so the libraries it links are twins of the page's, compiled again with -pthread.
function(pthread_twin lib)
  get_target_property(sources ${lib} SOURCES)
  add_library(${lib}_mt STATIC ${sources})
  foreach(prop INCLUDE_DIRECTORIES INTERFACE_INCLUDE_DIRECTORIES COMPILE_DEFINITIONS INTERFACE_COMPILE_DEFINITIONS COMPILE_OPTIONS)
    get_target_property(value ${lib} ${prop})
    if(value)
      set_property(TARGET ${lib}_mt PROPERTY ${prop} ${value})
    endif()
  endforeach()
  target_compile_options(${lib}_mt PRIVATE -pthread)
endfunction()
foreach(lib cjson swiglu_core pcre2_wasm utf8proc_wasm)
  pthread_twin(${lib})
endforeach()
target_link_libraries(swiglu_core_mt PUBLIC cjson_mt)

add_executable(swiglu_model_mt src/platform/web/model_worker.cpp src/platform/web/fetch_web.cpp
  src/core/model/model_host.cpp ${SWIGLU_TOKENIZER_SOURCES})
target_include_directories(swiglu_model_mt PRIVATE src ${SYS_LINK_DIR})
target_link_libraries(swiglu_model_mt PRIVATE swiglu_core_mt pcre2_wasm_mt utf8proc_wasm_mt)
target_compile_options(swiglu_model_mt PRIVATE -O3 -fno-rtti -pthread)
set_target_properties(swiglu_model_mt PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${SITE_DIR})
# The pool's workers are started with the module (a thread started later would wait for this
# worker's event loop, which a forward pass holds): model_worker.js says how many (labThreads: the
# cores, at most 8, less this one). Shared memory grows as the single-threaded module's does.
target_link_options(swiglu_model_mt PRIVATE ${MODEL_WORKER_LINK_OPTIONS}
  -pthread -sPTHREAD_POOL_SIZE=Module.labThreads -Wno-pthreads-mem-growth)
add_custom_command(TARGET swiglu_model_mt POST_BUILD
  COMMAND node ${CMAKE_SOURCE_DIR}/tools/compress_site.mjs ${SITE_DIR} swiglu_model_mt.js swiglu_model_mt.wasm swiglu_model_mt.worker.js
  COMMENT "Compressing the threaded model worker (brotli, gzip)" VERBATIM)
add_dependencies(swiglu_lab swiglu_model_mt)
