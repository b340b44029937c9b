// hash64 (core/base/hash.h) is XXH3-64 whichever of xxHash's paths the build takes: natively its
// SSE2 or AVX2 loop, in the page its SSE2 loop compiled to wasm SIMD128 (CMakeLists.txt). Every
// cached record and every pack blob is checked with it, so it must give the scalar loop's value,
// bit for bit: a test file with its own copy of xxHash, forced to the scalar path, says what that is.
// Random data and lengths from the run's seed, every length up to 1,025 and a few of megabytes.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "core/base/hash.h"

#define XXH_INLINE_ALL
#define XXH_VECTOR 0  // XXH_SCALAR
#include <xxhash.h>

TEST_CASE("hash64: the same XXH3 as xxHash's scalar loop, at every length around its stripes and blocks (seed: --rng-seed)", "[hash]") {
  std::mt19937 rng(Catch::rngSeed());
  std::vector<unsigned char> data((4 << 20) + 64);
  for (unsigned char& b : data) b = (unsigned char)rng();
  for (size_t n = 0; n <= 1025; n++) {
    const size_t at = rng() % 64;  // any alignment
    INFO(n << " bytes at +" << at);
    REQUIRE(hash64(data.data() + at, n) == XXH3_64bits(data.data() + at, n));
  }
  for (size_t n : {size_t(1) << 20, (size_t(1) << 20) + 7, size_t(4) << 20, size_t(1638400 + 8)}) {
    INFO(n << " bytes");
    REQUIRE(hash64(data.data() + 1, n) == XXH3_64bits(data.data() + 1, n));
  }
}
