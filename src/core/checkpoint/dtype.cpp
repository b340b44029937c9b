// Element-type conversions for checkpoint tensors (see dtype.h).
#include "core/checkpoint/dtype.h"

#include <algorithm>
#include <cmath>
#include <cstring>

static const struct {
  const char* name;
  st_dtype type;
  size_t bytes;
} kDtypes[] = {
    {"BF16", ST_DTYPE_BF16, 2}, {"F16", ST_DTYPE_F16, 2}, {"F32", ST_DTYPE_F32, 4},
    // Sized but not converted: a checkpoint may hold them (quantized visual towers, int ids).
    {"F64", ST_DTYPE_OTHER, 8}, {"I64", ST_DTYPE_OTHER, 8}, {"U64", ST_DTYPE_OTHER, 8},
    {"I32", ST_DTYPE_OTHER, 4}, {"U32", ST_DTYPE_OTHER, 4}, {"I16", ST_DTYPE_OTHER, 2},
    {"U16", ST_DTYPE_OTHER, 2}, {"I8", ST_DTYPE_OTHER, 1},  {"U8", ST_DTYPE_OTHER, 1},
    {"BOOL", ST_DTYPE_OTHER, 1}, {"F8_E4M3", ST_DTYPE_OTHER, 1}, {"F8_E5M2", ST_DTYPE_OTHER, 1},
};

st_dtype st_dtype_from_name(const std::string& name, size_t* elem_bytes) {
  for (const auto& d : kDtypes)
    if (name == d.name) {
      *elem_bytes = d.bytes;
      return d.type;
    }
  *elem_bytes = 0;
  return ST_DTYPE_UNKNOWN;
}

const char* st_dtype_name(st_dtype t) {
  switch (t) {
    case ST_DTYPE_BF16: return "BF16";
    case ST_DTYPE_F16: return "F16";
    case ST_DTYPE_F32: return "F32";
    case ST_DTYPE_OTHER: return "other";
    default: return "unknown";
  }
}

size_t st_dtype_bytes(st_dtype t) {
  return t == ST_DTYPE_F32 ? 4 : (t == ST_DTYPE_BF16 || t == ST_DTYPE_F16) ? 2 : 0;
}

static float bits_to_f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
static uint32_t f32_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float dtype_bf16_to_f32(uint16_t h) { return bits_to_f32((uint32_t)h << 16); }

float dtype_f16_to_f32(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24
    float v = std::ldexp((float)mant, -24);
    return sign ? -v : v;
  }
  if (exp == 31) return bits_to_f32(sign | 0x7f800000u | (mant << 13));  // inf / nan
  return bits_to_f32(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t dtype_f32_to_bf16(float f) {
  uint32_t u = f32_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1);  // round to nearest even
  return (uint16_t)(u >> 16);
}

uint16_t dtype_f32_to_f16(float f) {
  const uint32_t u = f32_to_bits(f);
  const uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
  const float a = std::fabs(f);
  if (std::isnan(f)) return (uint16_t)(sign | 0x7e00);
  if (a >= 65520.0f) return (uint16_t)(sign | 0x7c00);  // rounds past the largest half: inf
  if (a < 6.103515625e-05f) {                            // subnormal half: multiples of 2^-24
    const float q = std::nearbyint(a * 16777216.0f);     // default rounding mode: nearest even
    return (uint16_t)(sign | (uint16_t)q);
  }
  uint32_t bits = f32_to_bits(a);
  uint32_t exp = (bits >> 23) - 112, mant = bits & 0x7fffff;
  uint32_t h = (exp << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) h++;  // carries into the exponent correctly
  return (uint16_t)(sign | h);
}

void dtype_to_f32(st_dtype t, const void* src, size_t n, float* dst) {
  const unsigned char* p = (const unsigned char*)src;
  if (t == ST_DTYPE_F32) {
    std::memcpy(dst, p, n * 4);
  } else {
    for (size_t i = 0; i < n; i++) {
      const uint16_t h = (uint16_t)(p[2 * i] | (p[2 * i + 1] << 8));
      dst[i] = t == ST_DTYPE_BF16 ? dtype_bf16_to_f32(h) : dtype_f16_to_f32(h);
    }
  }
}

void dtype_from_f32(st_dtype t, const float* src, size_t n, void* dst) {
  unsigned char* p = (unsigned char*)dst;
  if (t == ST_DTYPE_F32) {
    std::memcpy(p, src, n * 4);
  } else {
    for (size_t i = 0; i < n; i++) {
      const uint16_t h = t == ST_DTYPE_BF16 ? dtype_f32_to_bf16(src[i]) : dtype_f32_to_f16(src[i]);
      p[2 * i] = (unsigned char)(h & 0xff);
      p[2 * i + 1] = (unsigned char)(h >> 8);
    }
  }
}

bool dtype_bf16_all_finite(const void* src, size_t n) {
  // All eight exponent bits set: infinite or NaN. A block at a time without a branch a value, so
  // the loop vectorizes (16-bit lanes; the values are little-endian, as the hosts we build for).
  const unsigned char* p = static_cast<const unsigned char*>(src);
  const size_t block = 4096;
  for (size_t at = 0; at < n; at += block) {
    const size_t end = std::min(n, at + block);
    unsigned bad = 0;
    for (size_t i = at; i < end; i++) {
      uint16_t v;
      std::memcpy(&v, p + 2 * i, 2);
      bad |= unsigned((v & 0x7F80) == 0x7F80);
    }
    if (bad) return false;
  }
  return true;
}
