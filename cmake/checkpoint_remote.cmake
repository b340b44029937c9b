# Checkpoints read by byte ranges (issue 13): the model= location, chunked conversion to q8 and
# the checkpoint_source (a layer_source beside pack_source), with their tests.
# Included after packs.cmake (nlohmann-json, xxHash, the checkpoint reader).
target_sources(swiglu_core PRIVATE
  src/core/checkpoint_remote/model_location.cpp
  src/core/checkpoint_remote/tensor_chunks.cpp
  # the reader, one job a file: opening (config, index, headers), checking answers, fetching tensors
  src/core/checkpoint_remote/checkpoint_opener.cpp
  src/core/checkpoint_remote/range_check.cpp
  src/core/checkpoint_remote/tensor_fetch.cpp
  # the MLP views' source over it: the probe's sentence and input, the q8 conversion and residency
  src/core/source/checkpoint_probe.cpp
  src/core/source/checkpoint_source.cpp
  src/core/source/layer_residency.cpp
  src/core/source/source_choice.cpp
  src/core/model_offer.cpp
  # the verified cache's byte budget (least recently used out), shared by the page and its twin
  src/core/stream/cache_lru.cpp
  src/core/checkpoint_remote/sentence_tokenizer.cpp
  src/core/checkpoint/synthetic_tokenizer.cpp
)

# The live header's offer of the real model and the weight cache's Clear button.
target_sources(swiglu_ui PRIVATE src/ui/live_header_extras.cpp)
if(TARGET ui_tests)
  target_sources(ui_tests PRIVATE tests/ui/ui_offer_test.cpp)
endif()

target_sources(core_tests PRIVATE
  tests/checkpoint_remote/model_location_test.cpp
  tests/checkpoint_remote/tensor_chunks_test.cpp
  tests/checkpoint_remote/url_model_test.cpp
  tests/checkpoint_remote/checkpoint_source_test.cpp
  tests/checkpoint_remote/hostile_host_test.cpp
  tests/checkpoint_remote/cache_lru_test.cpp
)

if(NOT EMSCRIPTEN)
  # What the page's own work costs per answer, and the bytes it fetches (docs/checkpoint.md).
  add_executable(checkpoint_bench tools/checkpoint_bench.cpp src/platform/native/fetch_native.cpp)
  target_link_libraries(checkpoint_bench PRIVATE swiglu_core)

  # The Hub-like test host (tools/hub_server.mjs): 302 to a second origin, Range, ETag, CORS, faults.
  add_test(NAME hub_server COMMAND node --test ${CMAKE_SOURCE_DIR}/tests/checkpoint_remote/hub_server_test.mjs
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endif()
