// The element types a checkpoint may store, and their conversion to and from f32.
// Conversions are exact where the format allows (bf16/f16 -> f32) and round to nearest even
// the other way, with NaN kept NaN and overflow going to infinity, as torch does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

enum st_dtype { ST_DTYPE_UNKNOWN = 0, ST_DTYPE_BF16, ST_DTYPE_F16, ST_DTYPE_F32, ST_DTYPE_OTHER };

// "BF16" -> ST_DTYPE_BF16; a safetensors dtype we can size but not convert (I8, F64, ...) is
// ST_DTYPE_OTHER with its element size in *elem_bytes; an unknown name is ST_DTYPE_UNKNOWN.
st_dtype st_dtype_from_name(const std::string& name, size_t* elem_bytes);
const char* st_dtype_name(st_dtype t);
size_t st_dtype_bytes(st_dtype t);  // 0 for UNKNOWN / OTHER

float dtype_bf16_to_f32(uint16_t h);
float dtype_f16_to_f32(uint16_t h);
uint16_t dtype_f32_to_bf16(float f);
uint16_t dtype_f32_to_f16(float f);

// n elements of `src` (little-endian, any alignment) in dtype t -> f32. t must be BF16/F16/F32.
void dtype_to_f32(st_dtype t, const void* src, size_t n, float* dst);
// n f32 -> dtype t (BF16/F16/F32), little-endian bytes at dst.
void dtype_from_f32(st_dtype t, const float* src, size_t n, void* dst);
// True when none of the n bf16 values at `src` (little-endian, any alignment) is infinite or NaN:
// their bits alone (all eight exponent bits set), without an f32 copy. The whole model keeps a
// bf16 checkpoint's matrices as they are, so this is their only pass (1.4 GB for Qwen3.5-0.8B).
bool dtype_bf16_all_finite(const void* src, size_t n);
