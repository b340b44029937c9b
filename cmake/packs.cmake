# Weight packs (issue 6): checkpoint reading (safetensors, config.json, index), the pack format,
# converter and reader, the experiments on real layers; the CLI commands convert / stats /
# permute, the synthetic checkpoint tool, the default pack, their tests and the fuzz target.
# Included at the end of the top-level CMakeLists.txt, after kernels.cmake.

# nlohmann-json and xxHash are header-only Debian packages. em++ must not see /usr/include
# (glibc headers), so both builds reach them through a folder of links (TOOLCHAIN.md).
set(SYS_LINK_DIR ${CMAKE_BINARY_DIR}/sys-include)
file(MAKE_DIRECTORY ${SYS_LINK_DIR})
foreach(h nlohmann xxhash.h)
  if(NOT EXISTS /usr/include/${h})
    message(FATAL_ERROR "/usr/include/${h} not found: run tools/setup.sh (nlohmann-json3-dev, libxxhash-dev)")
  endif()
  if(NOT EXISTS ${SYS_LINK_DIR}/${h})
    file(CREATE_LINK /usr/include/${h} ${SYS_LINK_DIR}/${h} SYMBOLIC)
  endif()
endforeach()

target_sources(swiglu_core PRIVATE
  src/core/io/byte_source.cpp
  src/core/checkpoint/dtype.cpp
  src/core/checkpoint/safetensors.cpp
  src/core/checkpoint/model_config.cpp
  src/core/checkpoint/checkpoint.cpp
  src/core/checkpoint/synthetic_checkpoint.cpp
  src/core/pack/pack_format.cpp
  src/core/pack/pack_read.cpp
  src/core/pack/pack_build.cpp
  src/core/pack/pack_stats.cpp
  src/core/pack/mlp_experiments.cpp
  src/core/stream/stream_error.cpp
  src/core/stream/fetch_queue.cpp
  src/core/source/layer_source.cpp
  src/core/source/pack_source.cpp
  src/core/lesson/gate_activity.cpp
  src/core/lesson/token_experiments.cpp
  src/core/lesson/unit_weights.cpp
  src/core/lesson/live_session.cpp
  src/core/live_view.cpp
)
target_include_directories(swiglu_core PRIVATE ${SYS_LINK_DIR})
# The core calls nlohmann only in ways that cannot throw (json::parse(..., false), every type
# checked before get<>): the page's build has exception catching off, where a throw would abort.

target_sources(core_tests PRIVATE
  tests/packs/dtype_test.cpp
  tests/packs/safetensors_test.cpp
  tests/packs/checkpoint_test.cpp
  tests/packs/pack_test.cpp
  tests/packs/stream_test.cpp
  src/platform/native/fetch_native.cpp
)
target_include_directories(core_tests PRIVATE ${SYS_LINK_DIR})

if(NOT EMSCRIPTEN)
  # The byte seam over directories, for the CLI and the tools.
  add_library(swiglu_native_io STATIC src/platform/native/dir_files.cpp)
  target_link_libraries(swiglu_native_io PUBLIC swiglu_core)

  target_sources(swiglu PRIVATE tools/cli/cmd_pack.cpp tools/cli/cli_args.cpp)  # (tokenizer.cmake links the tokenizer)
  target_link_libraries(swiglu PRIVATE swiglu_native_io)
  target_include_directories(swiglu PRIVATE tools/cli)

  add_executable(make_checkpoint tools/make_checkpoint.cpp tools/cli/cli_args.cpp)
  target_link_libraries(make_checkpoint PRIVATE swiglu_native_io)
  target_include_directories(make_checkpoint PRIVATE tools)

  # [SECTION] the embedded default: a synthetic Qwen3.5-0.8B-shaped checkpoint (layers 0, 11, 23)
  # and the pack converted from it with the lesson's 6-token probe. Built, never committed.
  set(DEFAULT_CKPT ${CMAKE_BINARY_DIR}/default-checkpoint)
  set(DEFAULT_PACK ${CMAKE_BINARY_DIR}/packs/default)
  add_custom_command(OUTPUT ${DEFAULT_CKPT}/config.json
    COMMAND make_checkpoint --out ${DEFAULT_CKPT}
    DEPENDS make_checkpoint
    COMMENT "Writing the synthetic Qwen3.5-0.8B-shaped checkpoint" VERBATIM)
  add_custom_command(OUTPUT ${DEFAULT_PACK}/manifest.json
    COMMAND swiglu convert --checkpoint ${DEFAULT_CKPT} --out ${DEFAULT_PACK} --layers 0,11,23
            --tokens 1,2,3,4,5,6 --label "今天天气不错，我们去公园" --pieces "今天|天气|不错|，|我们|去公园"
            > ${CMAKE_BINARY_DIR}/default-pack-convert.txt
    DEPENDS swiglu ${DEFAULT_CKPT}/config.json
    COMMENT "Converting the default pack (layers 0, 11, 23; the lesson's 6-token probe)" VERBATIM)
  add_custom_target(default_pack ALL DEPENDS ${DEFAULT_PACK}/manifest.json)
  # The page serves it beside itself (site/packs/default/): the embedded default, no download.
  if(SWIGLU_WASM_DIR)
    add_custom_command(TARGET default_pack POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E copy_directory ${DEFAULT_PACK} ${SWIGLU_WASM_DIR}/site/packs/default
      COMMENT "Copying the default pack into the site" VERBATIM)
  endif()

  add_test(NAME cli_packs COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:swiglu> -DMAKE_CKPT=$<TARGET_FILE:make_checkpoint>
    -DPACK=${DEFAULT_PACK} -DWORK=${CMAKE_BINARY_DIR}/cli-packs-work -DSRC=${CMAKE_SOURCE_DIR} -P ${CMAKE_SOURCE_DIR}/tests/cli/cli_packs_test.cmake)
endif()

# [SECTION] fuzzing (clang only: tools/fuzz.sh configures build-fuzz with clang++-14 and
# SWIGLU_FUZZ=ON). The native build replays the corpus when SWIGLU_FUZZ_DIR points at build-fuzz.
set(FUZZ_TARGETS safetensors config index manifest)
option(SWIGLU_FUZZ "build the libFuzzer targets (clang)" OFF)
if(SWIGLU_FUZZ AND NOT EMSCRIPTEN)
  set(FUZZ_FLAGS -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  target_compile_options(swiglu_core PRIVATE ${FUZZ_FLAGS} -fsanitize=fuzzer-no-link)
  set(i 1)
  foreach(t ${FUZZ_TARGETS})
    add_executable(fuzz_${t} tests/fuzz/fuzz_parsers.cpp)
    target_compile_definitions(fuzz_${t} PRIVATE FUZZ_TARGET=${i})
    target_compile_options(fuzz_${t} PRIVATE ${FUZZ_FLAGS} -fsanitize=fuzzer)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(fuzz_${t} PRIVATE swiglu_core)
    target_include_directories(fuzz_${t} PRIVATE ${SYS_LINK_DIR})
    math(EXPR i "${i} + 1")
  endforeach()
endif()
set(SWIGLU_FUZZ_DIR "" CACHE PATH "a build-fuzz tree (tools/fuzz.sh); enables the corpus replay tests")
if(SWIGLU_FUZZ_DIR AND NOT EMSCRIPTEN AND NOT SWIGLU_FUZZ)
  foreach(t ${FUZZ_TARGETS})
    add_test(NAME fuzz_replay_${t} COMMAND ${SWIGLU_FUZZ_DIR}/fuzz_${t} -runs=0 ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${t})
  endforeach()
endif()
