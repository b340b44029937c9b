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
// SIMDe 0.7.4 builds i16x8.load8x8_s from a generic vector convert that gcc splits into five
// instructions (movq, psrlq, 2x pmovsxbw, punpcklqdq). Wasm engines emit one pmovsxbw from memory;
// use that natively too, so the native column of the benchmark is a fair yardstick.
#if defined(__SSE4_1__)
#include <smmintrin.h>
#undef wasm_i16x8_load8x8
static inline v128_t swiglu_i16x8_load8x8_sse41(const void* p) {
  return simde_v128_from_m128i(_mm_cvtepi8_epi16(_mm_loadl_epi64((const __m128i*)p)));
}
#define wasm_i16x8_load8x8(p) swiglu_i16x8_load8x8_sse41((p))
#endif
#endif
