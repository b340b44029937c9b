# Weight packs (issue 6): the tests of checkpoint reading and the pack format, converter and
# reader; the CLI commands convert / stats / permute, the synthetic checkpoint tool, the default
# pack, and the fuzz targets.
# Included at the end of the top-level CMakeLists.txt, after kernels.cmake.

# The core's sources (checkpoint/, pack/, stream/, io/) and the header-only links (SYS_LINK_DIR)
# are listed in the top-level CMakeLists.txt.

target_sources(core_tests PRIVATE
  tests/packs/dtype_test.cpp
  tests/packs/safetensors_test.cpp
  tests/packs/checkpoint_test.cpp
  tests/packs/pack_test.cpp
  tests/packs/pack_precomputed_test.cpp
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

  # The default whole model (issue 23): a toy-width Qwen3.5-layout checkpoint with the lessons'
  # rules planted (synthetic_model.h), for the rule book and the flow offline; served beside the
  # page as site/models/synthetic/, read by the model worker as any checkpoint is.
  set(DEFAULT_MODEL ${CMAKE_BINARY_DIR}/models/synthetic)
  add_custom_command(OUTPUT ${DEFAULT_MODEL}/config.json
    COMMAND make_checkpoint --out ${DEFAULT_MODEL} --whole planted
    DEPENDS make_checkpoint
    COMMENT "Writing the default whole model (synthetic, the lessons' rules planted)" VERBATIM)
  add_custom_target(default_model ALL DEPENDS ${DEFAULT_MODEL}/config.json)
  if(SWIGLU_WASM_DIR)
    add_custom_command(TARGET default_model POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E copy_directory ${DEFAULT_MODEL} ${SWIGLU_WASM_DIR}/site/models/synthetic
      COMMENT "Copying the default whole model into the site" VERBATIM)
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
  # The whole pack from bytes: manifest, blobs, loaders and the kernels behind them.
  add_executable(fuzz_pack tests/fuzz/fuzz_pack.cpp)
  target_compile_options(fuzz_pack PRIVATE ${FUZZ_FLAGS} -fsanitize=fuzzer)
  target_link_options(fuzz_pack PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_pack PRIVATE swiglu_core)
  # The streaming state machine driven by events from the frame and the network.
  add_executable(fuzz_stream tests/fuzz/fuzz_stream.cpp src/platform/native/fetch_native.cpp)
  target_compile_options(fuzz_stream PRIVATE ${FUZZ_FLAGS} -fsanitize=fuzzer)
  target_link_options(fuzz_stream PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_stream PRIVATE swiglu_core)
  target_include_directories(fuzz_stream PRIVATE tests)
  # A checkpoint read by byte ranges, driven by a host the fuzzer plays (issue 21 §1).
  add_executable(fuzz_checkpoint tests/fuzz/fuzz_checkpoint.cpp)
  target_compile_options(fuzz_checkpoint PRIVATE ${FUZZ_FLAGS} -fsanitize=fuzzer)
  target_link_options(fuzz_checkpoint PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_checkpoint PRIVATE swiglu_core)
  target_include_directories(fuzz_checkpoint PRIVATE tests)
endif()
set(SWIGLU_FUZZ_DIR "" CACHE PATH "a build-fuzz tree (tools/fuzz.sh); enables the corpus replay tests")
if(SWIGLU_FUZZ_DIR AND NOT EMSCRIPTEN AND NOT SWIGLU_FUZZ)
  foreach(t ${FUZZ_TARGETS} pack stream checkpoint)
    add_test(NAME fuzz_replay_${t} COMMAND ${SWIGLU_FUZZ_DIR}/fuzz_${t} -runs=0 ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${t})
  endforeach()
endif()
