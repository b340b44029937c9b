// The one place that chooses where wasm SIMD128 intrinsics come from.
// Under Emscripten with -msimd128: the real <wasm_simd128.h>. Natively: SIMDe's portable
// implementation of the same intrinsics (libsimde-dev), so native tests run the exact kernel
// source that ships to the browser, and the benchmark can put wasm and native side by side.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#ifndef SIMDE_ENABLE_NATIVE_ALIASES
#define SIMDE_ENABLE_NATIVE_ALIASES
#endif
#include <simde/wasm/simd128.h>
#endif
