// The whole model's matrix products (core/kernels/wgemm.h): every registered variant at sizes
// around its tiles (rows around the 4-row tile, columns around the 8-wide block and the 32-wide
// group, tokens around the token tile) against its reference, each reference against a double
// computation written here, per-token determinism (a token alone equals the same token in a
// batch, bit for bit), and group-wise int8 quantization's round trip. Seed: --rng-seed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/checkpoint/dtype.h"
#include "core/kernels/wgemm.h"

static const double kTolWgemm = 1e-5;  // |y - y_ref| / sum_k |w x|: f32 accumulation vs double

struct test_wmat {
  int rows, cols;
  std::vector<uint16_t> bf16;
  std::vector<int8_t> q;
  std::vector<float> scales;
  std::vector<double> dense;  // the values the matrix stands for
  wmat_view view(wmat_format f) const {
    wmat_view v;
    v.rows = rows, v.cols = cols, v.format = f;
    v.bf16 = bf16.data(), v.q = q.data(), v.scales = scales.data();
    return v;
  }
};

static test_wmat make_matrix(std::mt19937& rng, int rows, int cols, wmat_format f) {
  std::normal_distribution<float> d(0.0f, 0.1f);
  test_wmat m{rows, cols, {}, {}, {}, {}};
  std::vector<float> v((size_t)rows * cols);
  for (float& x : v) x = d(rng);
  if (f == WMAT_BF16) {
    m.bf16.resize(v.size());
    dtype_from_f32(ST_DTYPE_BF16, v.data(), v.size(), m.bf16.data());
    for (uint16_t h : m.bf16) m.dense.push_back(dtype_bf16_to_f32(h));
  } else {
    m.q.resize(v.size());
    m.scales.resize(v.size() / WMAT_GROUP);
    q8g_quantize_rows(v.data(), rows, cols, m.q.data(), m.scales.data());
    for (size_t i = 0; i < v.size(); i++) m.dense.push_back((double)m.q[i] * m.scales[i / WMAT_GROUP]);
  }
  return m;
}

// Worst |y - exact| / sum_k |w x| over the outputs.
static double worst_error(const test_wmat& m, const std::vector<float>& x, int T, const std::vector<float>& y) {
  double worst = 0;
  for (int t = 0; t < T; t++)
    for (int n = 0; n < m.rows; n++) {
      double s = 0, mag = 1e-30;
      for (int k = 0; k < m.cols; k++) {
        const double p = m.dense[(size_t)n * m.cols + k] * x[(size_t)t * m.cols + k];
        s += p, mag += std::fabs(p);
      }
      worst = std::max(worst, std::fabs(y[(size_t)t * m.rows + n] - s) / mag);
    }
  return worst;
}

TEST_CASE("every whole-model GEMM variant at its tile edges, against its reference and a double computation", "[kernels][wgemm]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed << " (rerun with --rng-seed " << seed << ")");
  std::mt19937 rng(seed);
  for (int v = 0; v < wgemm_variant_count; v++) {
    const wgemm_variant& var = wgemm_variants[v];
    const int tt = var.token_tile, rt = var.row_tile;
    const std::vector<int> row_sizes = {1, rt - 1 > 0 ? rt - 1 : 1, rt, rt + 1, 4 * rt + 3, 29};
    const std::vector<int> col_sizes = var.format == WMAT_Q8G ? std::vector<int>{32, 64, 96, 224}
                                                               : std::vector<int>{1, 7, 8, 9, 16, 31, 60, 101};
    const std::vector<int> token_sizes = {1, tt, tt + 1, 2 * tt + 1, 7};
    for (int rows : row_sizes)
      for (int cols : col_sizes)
        for (int T : token_sizes) {
          INFO(var.name << " rows " << rows << " cols " << cols << " T " << T);
          const test_wmat m = make_matrix(rng, rows, cols, var.format);
          std::normal_distribution<float> d(0.0f, 1.0f);
          std::vector<float> x((size_t)T * cols), y((size_t)T * rows), alone((size_t)rows);
          for (float& e : x) e = d(rng);
          const wmat_view w = m.view(var.format);
          var.fn(&w, x.data(), T, y.data());
          CHECK(worst_error(m, x, T, y) < kTolWgemm);
          // Per-token determinism: each token alone equals itself in the batch, bit for bit.
          for (int t = 0; t < T; t++) {
            var.fn(&w, x.data() + (size_t)t * cols, 1, alone.data());
            CHECK(std::memcmp(alone.data(), y.data() + (size_t)t * rows, sizeof(float) * rows) == 0);
          }
        }
  }
}

TEST_CASE("group-wise int8 quantization: scale = max|v| / 127 per 32 columns, within half a step", "[kernels][wgemm]") {
  const unsigned seed = Catch::rngSeed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  const int rows = 5, cols = 96;
  std::vector<float> v((size_t)rows * cols);
  for (float& e : v) e = d(rng);
  for (int k = 0; k < WMAT_GROUP; k++) v[k] = 0;  // an all-zero group: scale 0, values 0
  std::vector<int8_t> q(v.size());
  std::vector<float> s(v.size() / WMAT_GROUP);
  q8g_quantize_rows(v.data(), rows, cols, q.data(), s.data());
  CHECK(s[0] == 0.0f);
  for (size_t g = 0; g < s.size(); g++) {
    float amax = 0;
    for (int k = 0; k < WMAT_GROUP; k++) amax = std::fmax(amax, std::fabs(v[g * WMAT_GROUP + k]));
    CHECK(s[g] == amax / 127.0f);
    for (int k = 0; k < WMAT_GROUP; k++) CHECK(std::fabs(q[g * WMAT_GROUP + k] * s[g] - v[g * WMAT_GROUP + k]) <= 0.5001 * s[g]);
  }
}
