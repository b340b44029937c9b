# libFuzzer targets (tests/fuzz/): the fuzz build (tools/fuzz.sh: clang++-14, -DSWIGLU_FUZZ=ON,
# ASan and UBSan on everything it compiles) makes fuzz_NAME for each line below, and the native
# build replays each committed corpus tests/fuzz/corpus/NAME/ in ctest (cmake/tests.cmake) when
# SWIGLU_FUZZ_DIR points at a fuzz build. A new target is one line here and its corpus folder.
set(SWIGLU_FUZZ_TARGETS "")
function(fuzz_target name source)  # [definitions...]
  set(SWIGLU_FUZZ_TARGETS ${SWIGLU_FUZZ_TARGETS} ${name} PARENT_SCOPE)
  if(NOT SWIGLU_FUZZ)
    return()
  endif()
  add_executable(fuzz_${name} ${source})
  target_compile_definitions(fuzz_${name} PRIVATE ${ARGN})
  target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_${name} PRIVATE swiglu_fetch_twin)
  target_include_directories(fuzz_${name} PRIVATE tests ${SYS_LINK_DIR})
endfunction()

# The parsers that read hostile bytes, one target each from one source (FUZZ_TARGET picks it).
fuzz_target(safetensors tests/fuzz/fuzz_parsers.cpp FUZZ_TARGET=1)
fuzz_target(config tests/fuzz/fuzz_parsers.cpp FUZZ_TARGET=2)
fuzz_target(index tests/fuzz/fuzz_parsers.cpp FUZZ_TARGET=3)
fuzz_target(manifest tests/fuzz/fuzz_parsers.cpp FUZZ_TARGET=4)
# The whole pack from bytes: manifest, blobs, loaders and the kernels behind them.
fuzz_target(pack tests/fuzz/fuzz_pack.cpp)
# The streaming state machine driven by events from the frame and the network.
fuzz_target(stream tests/fuzz/fuzz_stream.cpp)
# A checkpoint read by byte ranges, driven by a host the fuzzer plays.
fuzz_target(checkpoint tests/fuzz/fuzz_checkpoint.cpp)
# The whole model: config.json -> architecture -> tensor plan -> the memory budget, and the pass
# on what fits (its records and readings within what was counted for them).
fuzz_target(model tests/fuzz/fuzz_model.cpp)
# The whole model's answers a link carries (ans=): the decoder on hostile bytes, the views' rows
# from what it lets through, and the encoder's own form.
fuzz_target(answers tests/fuzz/fuzz_answers.cpp)
# The page's and the model worker's messages (model_messages.inc): read, written, read again.
fuzz_target(protocol tests/fuzz/fuzz_protocol.cpp)

if(SWIGLU_FUZZ)
  # tools/fuzz.sh builds them all and reads their names here.
  add_custom_target(fuzz_all)
  foreach(t ${SWIGLU_FUZZ_TARGETS})
    add_dependencies(fuzz_all fuzz_${t})
  endforeach()
  string(REPLACE ";" "\n" names "${SWIGLU_FUZZ_TARGETS}")
  file(WRITE ${CMAKE_BINARY_DIR}/fuzz_targets.txt "${names}\n")
endif()
