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
  set_source_files_properties(src/core/kernels/kernels_wasmsimd.cpp src/core/kernels/wgemm_wasmsimd.cpp tools/bench/bench_core.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma;-ffp-contract=off")
  set_source_files_properties(src/core/kernels/kernels_registry.cpp src/core/kernels/swiglu_layer.cpp
    src/core/quant/q8_format.cpp PROPERTIES COMPILE_OPTIONS "-ffp-contract=off")
endif()

# [SECTION] benchmark (not part of `all`, not a test: tools/bench/run.sh builds and runs it)
# It is built from the kernels' own sources (the same files the core lists), not the whole core:
# a cold benchmark build compiles a handful of files.
set(SWIGLU_KERNEL_SOURCES src/core/quant/q8_format.cpp src/core/kernels/kernels_ref.cpp
  src/core/kernels/kernels_wasmsimd.cpp src/core/kernels/kernels_registry.cpp src/core/kernels/swiglu_layer.cpp)
if(SWIGLU_FUZZ)
  return()
elseif(EMSCRIPTEN)
  add_executable(kernel_bench tools/bench/bench_core.cpp ${SWIGLU_KERNEL_SOURCES})
  target_include_directories(kernel_bench PRIVATE src)
  target_link_options(kernel_bench PRIVATE -sENVIRONMENT=node -sMODULARIZE=1 -sEXPORT_NAME=createKernelBench
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=268435456 -sMAXIMUM_MEMORY=2147483648
    "-sEXPORTED_FUNCTIONS=['_bench_init','_bench_variant_count','_bench_variant_name','_bench_layer_ms','_bench_elementwise_ms','_bench_bandwidth_gbs','_bench_rel_error','_bench_weight_bytes_per_layer','_bench_variant_is_ref','_bench_matrix_int8','_bench_matrix_scales','_bench_input','_bench_reference_output']"
    "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap','UTF8ToString','HEAP8','HEAPF32','HEAPF64']")
  set_target_properties(kernel_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
else()
  add_executable(kernel_bench tools/bench/bench_core.cpp tools/bench/bench_native.cpp ${SWIGLU_KERNEL_SOURCES})
  target_include_directories(kernel_bench PRIVATE src)
  set_target_properties(kernel_bench PROPERTIES EXCLUDE_FROM_ALL TRUE)
endif()
