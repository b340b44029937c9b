// The one registry per op: every variant of every SwiGLU kernel, with its tile. Tests
// (tests/kernels/), the benchmark (tools/bench/) and the dispatch (swiglu_layer.cpp) walk these
// tables; adding a variant here puts it under test and on the benchmark table.
#include "kernels.h"

const q8_gemm_f32_variant q8_gemm_f32_variants[] = {
    {"q8_gemm_f32_ref", q8_gemm_f32_ref, 1, 1, 1, true},
    {"q8_gemm_f32__scalar_4x1", q8_gemm_f32__scalar_4x1, 4, 1, 1, false},
    {"q8_gemm_f32__wasmsimd_4x8_t1", q8_gemm_f32__wasmsimd_4x8_t1, 4, 8, 1, false},
    {"q8_gemm_f32__wasmsimd_4x8_t2", q8_gemm_f32__wasmsimd_4x8_t2, 4, 8, 2, false},
};
const int q8_gemm_f32_variant_count = sizeof(q8_gemm_f32_variants) / sizeof(q8_gemm_f32_variants[0]);

const q8_gemm_q16_variant q8_gemm_q16_variants[] = {
    {"q8_gemm_q16_ref", q8_gemm_q16_ref, 1, 1, 1, true},
#if SWIGLU_HAVE_RELAXED_SIMD
    {"q8_gemm_q16__wasmrelaxed_dot2_4x8_t2", q8_gemm_q16__wasmrelaxed_dot2_4x8_t2, 4, 8, 2, false},
    {"q8_gemm_q16__wasmrelaxed_dot2_4x8_t1", q8_gemm_q16__wasmrelaxed_dot2_4x8_t1, 4, 8, 1, false},
#endif
    {"q8_gemm_q16__wasmsimd_dot_4x8_t1", q8_gemm_q16__wasmsimd_dot_4x8_t1, 4, 8, 1, false},
    {"q8_gemm_q16__wasmsimd_dot_4x8_t2", q8_gemm_q16__wasmsimd_dot_4x8_t2, 4, 8, 2, false},
    {"q8_gemm_q16__wasmsimd_dot_2x8_t4", q8_gemm_q16__wasmsimd_dot_2x8_t4, 2, 8, 4, false},
    {"q8_gemm_q16__wasmsimd_dot_w16_4x8_t2", q8_gemm_q16__wasmsimd_dot_w16_4x8_t2, 4, 8, 2, false},
    {"q8_gemm_q16__wasmsimd_dot_w16i_4x8_t2", q8_gemm_q16__wasmsimd_dot_w16i_4x8_t2, 4, 8, 2, false},
};
const int q8_gemm_q16_variant_count = sizeof(q8_gemm_q16_variants) / sizeof(q8_gemm_q16_variants[0]);

const f32_qs16_variant f32_qs16_variants[] = {
    {"f32_qs16_ref", f32_qs16_ref, 1, true},
    {"f32_qs16__wasmsimd_u8", f32_qs16__wasmsimd_u8, 8, false},
};
const int f32_qs16_variant_count = sizeof(f32_qs16_variants) / sizeof(f32_qs16_variants[0]);

const f32_vsilu_variant f32_vsilu_variants[] = {
    {"f32_vsilu_ref", f32_vsilu_ref, 1, true},
    {"f32_vsilu__wasmsimd_rr2_p5_div_u8", f32_vsilu__wasmsimd_rr2_p5_div_u8, 8, false},
};
const int f32_vsilu_variant_count = sizeof(f32_vsilu_variants) / sizeof(f32_vsilu_variants[0]);

const f32_vswiglu_variant f32_vswiglu_variants[] = {
    {"f32_vswiglu_ref", f32_vswiglu_ref, 1, true},
    {"f32_vswiglu__wasmsimd_rr2_p5_div_u8", f32_vswiglu__wasmsimd_rr2_p5_div_u8, 8, false},
};
const int f32_vswiglu_variant_count = sizeof(f32_vswiglu_variants) / sizeof(f32_vswiglu_variants[0]);

// Layer variants. The first SIMD128 entry of each activation path is its default; for q16, the
// first relaxed-SIMD entry (where the module has it) competes with it, timed once
// (swiglu_layer_variant_default).
const swiglu_layer_variant swiglu_layer_variants[] = {
#if SWIGLU_HAVE_RELAXED_SIMD
    {"swiglu_q16__wasmrelaxed_dot2_4x8_t2", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmrelaxed_dot2_4x8_t2, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_q16__wasmrelaxed_dot2_4x8_t1", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmrelaxed_dot2_4x8_t1, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
#endif
    {"swiglu_q16__wasmsimd_w16i_4x8_t2", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmsimd_dot_w16i_4x8_t2, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_q16__wasmsimd_w16_4x8_t2", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmsimd_dot_w16_4x8_t2, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_q16__wasmsimd_2x8_t4", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmsimd_dot_2x8_t4, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_q16__wasmsimd_4x8_t2", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmsimd_dot_4x8_t2, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_q16__wasmsimd_4x8_t1", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16__wasmsimd_dot_4x8_t1, f32_qs16__wasmsimd_u8,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_f32__wasmsimd_4x8_t2", SWIGLU_ACT_F32, q8_gemm_f32__wasmsimd_4x8_t2, nullptr, nullptr,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_f32__wasmsimd_4x8_t1", SWIGLU_ACT_F32, q8_gemm_f32__wasmsimd_4x8_t1, nullptr, nullptr,
     f32_vswiglu__wasmsimd_rr2_p5_div_u8, false},
    {"swiglu_f32__scalar_4x1", SWIGLU_ACT_F32, q8_gemm_f32__scalar_4x1, nullptr, nullptr, f32_vswiglu_ref, false},
    {"swiglu_f32_ref", SWIGLU_ACT_F32, q8_gemm_f32_ref, nullptr, nullptr, f32_vswiglu_ref, true},
    {"swiglu_q16_ref", SWIGLU_ACT_Q16, nullptr, q8_gemm_q16_ref, f32_qs16_ref, f32_vswiglu_ref, true},
};
const int swiglu_layer_variant_count = sizeof(swiglu_layer_variants) / sizeof(swiglu_layer_variants[0]);

f32_vsilu_fn f32_vsilu_default() {
  for (int i = 0; i < f32_vsilu_variant_count; i++)
    if (!f32_vsilu_variants[i].is_ref) return f32_vsilu_variants[i].fn;
  return f32_vsilu_ref;
}

f32_vswiglu_fn f32_vswiglu_default() {
  for (int i = 0; i < f32_vswiglu_variant_count; i++)
    if (!f32_vswiglu_variants[i].is_ref) return f32_vswiglu_variants[i].fn;
  return f32_vswiglu_ref;
}
