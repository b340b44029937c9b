// Element-type conversions against independent double arithmetic: every bf16 and f16 bit
// pattern decodes to the value its fields define, and f32 -> 16-bit rounds to nearest even.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "core/checkpoint/dtype.h"

static double f16_value(uint16_t h) {  // straight from the IEEE fields
  const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
  return s ? -v : v;
}

TEST_CASE("dtype: every f16 pattern decodes to its IEEE value and encodes back", "[packs][dtype]") {
  for (uint32_t h = 0; h < 65536; h++) {
    const double want = f16_value((uint16_t)h);
    const float got = dtype_f16_to_f32((uint16_t)h);
    if (std::isnan(want)) {
      REQUIRE(std::isnan(got));
      continue;
    }
    REQUIRE((double)got == want);
    REQUIRE(dtype_f32_to_f16(got) == (uint16_t)h);  // exact values round trip bit for bit
  }
}

TEST_CASE("dtype: bf16 decodes as the top half of f32 and rounds to nearest even", "[packs][dtype]") {
  REQUIRE(dtype_bf16_to_f32(0x3f80) == 1.0f);
  REQUIRE(dtype_bf16_to_f32(0xc000) == -2.0f);
  // 1 + 2^-8 is exactly between two bf16 values (1 and 1 + 2^-7): ties go to even (1).
  REQUIRE(dtype_f32_to_bf16(1.0f + std::ldexp(1.0f, -8)) == 0x3f80);
  REQUIRE(dtype_f32_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 0x3f82);  // tie, odd below: up
  REQUIRE(dtype_f32_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)) == 0x3f81);
  REQUIRE(std::isnan(dtype_bf16_to_f32(dtype_f32_to_bf16(NAN))));
  for (uint32_t h = 0; h < 65536; h += 7) {
    const float f = dtype_bf16_to_f32((uint16_t)h);
    if (!std::isnan(f)) REQUIRE(dtype_f32_to_bf16(f) == (uint16_t)h);
  }
}

// A bf16 is finite unless its 8 exponent bits are all set (the f32 it is the top half of says so).
TEST_CASE("dtype: bf16 finiteness from the bits, every pattern, at every place and alignment of a buffer", "[packs][dtype]") {
  const size_t n = 4100;  // the check goes 4,096 values a block: across its edge too
  std::vector<unsigned char> buf(2 * n + 1);
  const auto put = [&](size_t offset, size_t i, uint16_t h) {
    buf[offset + 2 * i] = (unsigned char)(h & 0xff), buf[offset + 2 * i + 1] = (unsigned char)(h >> 8);
  };
  size_t finite = 0;
  for (size_t offset : {0, 1}) {  // an even and an odd address
    for (size_t i = 0; i < n; i++) put(offset, i, 0x3f80);  // 1.0
    for (uint32_t h = 0; h < 65536; h++) {
      const bool want = std::isfinite(dtype_bf16_to_f32((uint16_t)h));
      finite += want;
      const size_t at = std::vector<size_t>{0, 17, 4095, 4096, n - 1}[h % 5];
      put(offset, at, (uint16_t)h);
      INFO("bf16 0x" << std::hex << h << " at " << std::dec << at << ", offset " << offset);
      REQUIRE(dtype_bf16_all_finite(buf.data() + offset, n) == want);
      REQUIRE(dtype_bf16_all_finite(buf.data() + offset, at));  // the values before it
      put(offset, at, 0x3f80);
    }
  }
  CHECK(finite == 2 * (65536 - 256));  // the exponent all ones: ±inf and the NaNs, 2 signs x 128 mantissas
}

TEST_CASE("dtype: f32 -> f16 rounds to the nearest half, ties to even, overflow to infinity", "[packs][dtype]") {
  REQUIRE(dtype_f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie between 1 and 1+2^-10: even
  REQUIRE(dtype_f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // tie, odd below: up
  REQUIRE(dtype_f32_to_f16(65504.0f) == 0x7bff);
  REQUIRE(dtype_f32_to_f16(65519.0f) == 0x7bff);
  REQUIRE(dtype_f32_to_f16(65520.0f) == 0x7c00);
  REQUIRE(dtype_f32_to_f16(-1e9f) == 0xfc00);
  REQUIRE(dtype_f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);            // half the smallest subnormal: even (0)
  REQUIRE(dtype_f32_to_f16(std::ldexp(3.0f, -25)) == 0x0002);            // 1.5 ulp: to even (2)
  REQUIRE(dtype_f32_to_f16(-std::ldexp(1.0f, -14)) == 0x8400);           // smallest normal
  // Against the decoded neighbours: the encoder picks the nearer one.
  for (float f = -70000.0f; f < 70000.0f; f += 13.37f) {
    const uint16_t h = dtype_f32_to_f16(f);
    const double got = f16_value(h);
    if (std::isinf(got)) continue;
    REQUIRE(std::fabs(got - f) <= std::fabs(f16_value((uint16_t)(h + 1)) - f));
    REQUIRE(std::fabs(got - f) <= std::fabs(f16_value((uint16_t)(h - 1)) - f));
  }
}

TEST_CASE("dtype: names and sizes", "[packs][dtype]") {
  size_t n = 0;
  REQUIRE(st_dtype_from_name("BF16", &n) == ST_DTYPE_BF16);
  REQUIRE(n == 2);
  REQUIRE(st_dtype_from_name("F32", &n) == ST_DTYPE_F32);
  REQUIRE(n == 4);
  REQUIRE(st_dtype_from_name("I8", &n) == ST_DTYPE_OTHER);
  REQUIRE(n == 1);
  REQUIRE(st_dtype_from_name("bf16", &n) == ST_DTYPE_UNKNOWN);
}
