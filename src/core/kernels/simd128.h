// The one place that chooses where wasm SIMD128 intrinsics come from.
// Under Emscripten with -msimd128: the real <wasm_simd128.h>. Natively: SIMDe's portable
// implementation of the same intrinsics (libsimde-dev), so native tests run the exact kernel
// source that ships to the browser, and the benchmark can put wasm and native side by side.
#pragma once

#include "kernels.h"  // SWIGLU_HAVE_RELAXED_SIMD

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

// [SECTION] relaxed SIMD: i32x4.relaxed_dot_i8x16_i7x16_add_s(a, b, c)
// c + the sums of 4 adjacent products a[i] * b[i] (a: int8, b: 0..127 where the result is defined:
// our callers pass only such b). Engines lower it to one AVX-VNNI vpdpbusd, or pmaddubsw + pmaddwd
// + paddd, or an ARM sdot.
#if SWIGLU_HAVE_RELAXED_SIMD
#if defined(__wasm_simd128__)
// clang 14 (Emscripten 3.1.6) predates the relaxed dot product: the kernels call this import, and
// the build rewrites every call into the instruction and drops the import (cmake/kernels.cmake,
// cmake/kernels_relaxed.mjs). A module that still imports it fails to instantiate: never silent.
__attribute__((import_module("swiglu_relaxed"), import_name("dot_i8x16_i7x16_add"), const)) v128_t
swiglu_relaxed_dot_import(v128_t a, v128_t b, v128_t c);
#define swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(a, b, c) swiglu_relaxed_dot_import((a), (b), (c))
#elif defined(__SSSE3__)
// The x86 twin: what V8 emits without AVX-VNNI (pmaddubsw takes b unsigned: exact for b in 0..127,
// no i16 saturation since |2 * 127 * 127| < 32767).
#include <tmmintrin.h>
static inline v128_t swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(v128_t a, v128_t b, v128_t c) {
  const __m128i p = _mm_maddubs_epi16(simde_v128_to_m128i(b), simde_v128_to_m128i(a));
  return simde_v128_from_m128i(_mm_add_epi32(simde_v128_to_m128i(c), _mm_madd_epi16(p, _mm_set1_epi16(1))));
}
#else
// Portable definition (SIMD128 only): widen, pairwise dot, then add neighbouring pairs.
static inline v128_t swiglu_i32x4_relaxed_dot_i8x16_i7x16_add(v128_t a, v128_t b, v128_t c) {
  const v128_t lo = wasm_i32x4_dot_i16x8(wasm_i16x8_extend_low_i8x16(a), wasm_i16x8_extend_low_i8x16(b));
  const v128_t hi = wasm_i32x4_dot_i16x8(wasm_i16x8_extend_high_i8x16(a), wasm_i16x8_extend_high_i8x16(b));
  return wasm_i32x4_add(c, wasm_i32x4_add(wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6), wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7)));
}
#endif
#endif
