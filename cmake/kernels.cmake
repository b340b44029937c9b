# Kernels (docs/kernels.md): the compile flags of the q8 format and the SwiGLU/SiLU kernels (scalar
# references and wasm SIMD128 twins; their sources are in the core's list, CMakeLists.txt, their
# tests in core_tests) and the benchmark (tools/bench/run.sh). Every build.

# No contraction of a*b+c into FMA anywhere in the kernels: wasm SIMD128 has no FMA, so native
# (SIMDe) and wasm results stay comparable, and references stay plain double arithmetic.
# References are built without auto-vectorization, so "scalar" in the benchmark means scalar.
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(SWIGLU_NO_VECTORIZE -fno-vectorize -fno-slp-vectorize)
else()
  set(SWIGLU_NO_VECTORIZE -fno-tree-vectorize)
endif()
set_source_files_properties(src/core/kernels/kernels_ref.cpp src/core/kernels/wgemm_ref.cpp PROPERTIES
  COMPILE_OPTIONS "-ffp-contract=off;${SWIGLU_NO_VECTORIZE}")

if(NOT EMSCRIPTEN)
  # SIMDe maps the wasm SIMD128 intrinsics onto x86. A fixed level (x86-64-v3: AVX2, FMA) rather
  # than -march=native: reproducible across our machines, and AVX-512 would give the native twin
  # instructions wasm engines do not emit, which would flatter the native side of the comparison.
  set_source_files_properties(src/core/kernels/kernels_wasmsimd.cpp src/core/kernels/kernels_wasmrelaxed.cpp
    src/core/kernels/wgemm_wasmsimd.cpp tools/bench/bench_core.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma;-ffp-contract=off")
  set_source_files_properties(src/core/kernels/kernels_registry.cpp src/core/kernels/swiglu_layer.cpp
    src/core/quant/q8_format.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
endif()

# The relaxed-SIMD kernels' source joins the core (natively it holds their x86 twin; in a plain
# SIMD128 module it compiles to nothing).
target_sources(swiglu_core PRIVATE src/core/kernels/kernels_wasmrelaxed.cpp)

# [SECTION] benchmark (not part of `all`, not a test: tools/bench/run.sh builds and runs it)
# It is built from the kernels' own sources (the same files the core lists), not the whole core:
# a cold benchmark build compiles a handful of files.
set(SWIGLU_KERNEL_SOURCES src/core/quant/q8_format.cpp src/core/kernels/kernels_ref.cpp
  src/core/kernels/kernels_wasmsimd.cpp src/core/kernels/kernels_wasmrelaxed.cpp src/core/kernels/kernels_registry.cpp
  src/core/kernels/swiglu_layer.cpp)
# A wasm target built with the relaxed-SIMD kernels: compiled with SWIGLU_RELAXED_SIMD, then
# rewritten after the link (cmake/kernels_relaxed.mjs; it fails the build if it cannot).
# (The stand-in import needs a definition for emcc's link check; the rewrite removes the import, so
# this one never runs.)
file(WRITE ${CMAKE_BINARY_DIR}/kernels_relaxed_stub.js "mergeInto(LibraryManager.library, { dot_i8x16_i7x16_add: \
function() { throw new Error('the relaxed dot product stand-in ran: cmake/kernels_relaxed.mjs did not rewrite this module'); } });\n")
function(swiglu_relaxed_simd target)
  target_compile_definitions(${target} PRIVATE SWIGLU_RELAXED_SIMD=1)
  target_link_options(${target} PRIVATE --js-library ${CMAKE_BINARY_DIR}/kernels_relaxed_stub.js)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND node ${CMAKE_SOURCE_DIR}/cmake/kernels_relaxed.mjs $<TARGET_FILE_DIR:${target}>/${target}.wasm
    VERBATIM)
endfunction()

if(SWIGLU_FUZZ)
  return()
elseif(EMSCRIPTEN)
  # Two builds of the bench module: plain SIMD128, and with the relaxed-SIMD kernels (its calls to
  # the relaxed dot product's stand-in import rewritten into the instruction after the link,
  # cmake/kernels_relaxed.mjs). run.mjs loads the second where the engine validates relaxed SIMD.
  foreach(t kernel_bench kernel_bench_relaxed)
    add_executable(${t} tools/bench/bench_core.cpp ${SWIGLU_KERNEL_SOURCES})
    target_include_directories(${t} PRIVATE src)
    target_link_options(${t} PRIVATE -sENVIRONMENT=node -sMODULARIZE=1 -sEXPORT_NAME=createKernelBench
      -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=268435456 -sMAXIMUM_MEMORY=2147483648
      "-sEXPORTED_FUNCTIONS=['_bench_init','_bench_variant_count','_bench_variant_name','_bench_layer_ms','_bench_elementwise_ms','_bench_bandwidth_gbs','_bench_rel_error','_bench_weight_bytes_per_layer','_bench_variant_is_ref','_bench_matrix_int8','_bench_matrix_scales','_bench_input','_bench_reference_output','_bench_default_variant','_bench_layer_best_ms']"
      "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap','UTF8ToString','HEAP8','HEAPF32','HEAPF64']")
    set_target_properties(${t} PROPERTIES EXCLUDE_FROM_ALL TRUE)
  endforeach()
  swiglu_relaxed_simd(kernel_bench_relaxed)
  # The same relaxed module for a browser page (tools/bench/browser.mjs runs it in Chromium).
  add_executable(kernel_bench_web tools/bench/bench_core.cpp ${SWIGLU_KERNEL_SOURCES})
  target_include_directories(kernel_bench_web PRIVATE src)
  target_link_options(kernel_bench_web PRIVATE -sENVIRONMENT=web -sMODULARIZE=1 -sEXPORT_NAME=createKernelBench
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=268435456 -sMAXIMUM_MEMORY=2147483648
    "-sEXPORTED_FUNCTIONS=['_bench_init','_bench_variant_count','_bench_variant_name','_bench_layer_ms','_bench_layer_best_ms','_bench_bandwidth_gbs','_bench_rel_error','_bench_weight_bytes_per_layer','_bench_variant_is_ref','_bench_matrix_int8','_bench_matrix_scales','_bench_input','_bench_reference_output','_bench_default_variant','_bench_layer_best_ms']"
    "-sEXPORTED_RUNTIME_METHODS=['UTF8ToString','HEAP8','HEAPF32','HEAPF64']")
  set_target_properties(kernel_bench_web PROPERTIES EXCLUDE_FROM_ALL TRUE)
  swiglu_relaxed_simd(kernel_bench_web)
  # The kernel tests on the relaxed-SIMD module (core_tests_wasm runs them on the plain one):
  # every registry variant at its tile edges against the references, under Node 20 with its
  # relaxed-SIMD flag (Chromium has it on) and its optimizing tier only: Node 20's baseline tier
  # (Liftoff, V8 11.3, where relaxed SIMD was still experimental) got the first calls' dot products
  # wrong; Chromium 156's default tiering gives the right bits from the first call (checked).
  add_executable(kernel_tests_relaxed tests/kernels/test_kernels.cpp ${SWIGLU_KERNEL_SOURCES})
  target_link_libraries(kernel_tests_relaxed PRIVATE swiglu_catch_main)
  target_include_directories(kernel_tests_relaxed PRIVATE src)
  target_link_options(kernel_tests_relaxed PRIVATE -O1 -fexceptions -sENVIRONMENT=node -sEXIT_RUNTIME=1
    -sALLOW_MEMORY_GROWTH=1 -sNODERAWFS=0)
  swiglu_relaxed_simd(kernel_tests_relaxed)
  add_test(NAME kernel_tests_relaxed_wasm COMMAND node --experimental-wasm-relaxed-simd --no-liftoff --no-experimental-fetch
    $<TARGET_FILE:kernel_tests_relaxed> "[kernels]")
else()
  add_executable(kernel_bench tools/bench/bench_core.cpp tools/bench/bench_native.cpp ${SWIGLU_KERNEL_SOURCES})
  target_include_directories(kernel_bench PRIVATE src)
  set_target_properties(kernel_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
  # The native build's ctest runs the Emscripten build's tests too (cmake/tests.cmake).
  if(SWIGLU_WASM_DIR)
    add_test(NAME kernel_tests_relaxed_wasm COMMAND node --experimental-wasm-relaxed-simd --no-liftoff --no-experimental-fetch
      ${SWIGLU_WASM_DIR}/kernel_tests_relaxed.js "[kernels]")
  endif()
endif()
