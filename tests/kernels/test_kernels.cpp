// Kernel tests: every variant in the registries (src/core/kernels/kernels_registry.cpp) at sizes
// its own tile fields give (tile - 1, tile, tile + 1, multiples) and at primes; each reference
// against a double computation written here, each fast variant against its reference (never a
// reference against itself); per-token determinism of the layer; layer accuracy against a double
// reference on the dequantized weights. The seed is the run's (tests/catch_main.cpp: fresh,
// printed at the start and on failure; SWIGLU_TEST_SEED=N or --rng-seed N reproduces).
// Runs natively (SIMDe) and as wasm under Node: ctest -R core_tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/kernels/kernels.h"

// [SECTION] tolerances
static const double kTolGemmF32 = 1e-5;     // |y - y_ref| / sum_k |w x|: f32 accumulation vs double
static const double kTolSiluAbs = 1e-6;     // issue target, on [-30, 30] against double
static const double kTolSwigluRel = 4e-7;   // |h - h_ref| <= tol * (|h_ref| + 1e-30): silu error times u
static const double kTolLayerF32 = 1e-5;    // issue target: max abs err / max abs output
static const double kTolLayerQ16 = 2e-3;    // q16 path: activation rounding, ~1e-4 typical
static const double kTolQs16Steps = 0.51;   // |xq * xs - x| in steps of xs: half a step, plus f32 rounding at qmax

// [SECTION] helpers
static unsigned test_seed() { return Catch::rngSeed(); }  // the run's, printed by tests/catch_main.cpp

// Sizes at a tile's edges: 1, tile - 1, tile, tile + 1, multiples and one past them, then primes
// that fall between tiles (the "tile-1, tile, tile+1, multiples, primes").
static std::vector<int> tile_sizes(int tile, std::initializer_list<int> primes) {
  std::set<int> s = {1, tile - 1, tile, tile + 1, 2 * tile, 2 * tile + 1, 3 * tile - 1, 4 * tile};
  s.insert(primes.begin(), primes.end());
  s.erase(0);
  return std::vector<int>(s.begin(), s.end());
}

// Every size each variant of an op tiles by, so one matrix serves them all.
template <class V>
static std::vector<int> registry_sizes(const V* vars, int count, int V::*field, std::initializer_list<int> primes) {
  std::set<int> s;
  for (int i = 0; i < count; i++)
    for (int n : tile_sizes(vars[i].*field, primes)) s.insert(n);
  return std::vector<int>(s.begin(), s.end());
}

static double silu_d(double z) { return z / (1.0 + std::exp(-z)); }

static std::vector<float> random_vec(std::mt19937& rng, size_t n, float scale) {
  std::normal_distribution<float> d(0.0f, scale);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

struct test_layer {
  q8_matrix_owned gate, up, down;
  swiglu_q8_layer L;
  std::vector<float> wg, wu, wd;  // dequantized
  test_layer(std::mt19937& rng, int hidden, int inter) {
    auto g = random_vec(rng, (size_t)inter * hidden, 0.05f);
    auto u = random_vec(rng, (size_t)inter * hidden, 0.05f);
    auto d = random_vec(rng, (size_t)hidden * inter, 0.03f);
    REQUIRE(q8_matrix_owned_init(&gate, g.data(), inter, hidden) == Q8_OK);
    REQUIRE(q8_matrix_owned_init(&up, u.data(), inter, hidden) == Q8_OK);
    REQUIRE(q8_matrix_owned_init(&down, d.data(), hidden, inter) == Q8_OK);
    L = {hidden, inter, gate.view, up.view, down.view};
    wg.resize(g.size());
    wu.resize(u.size());
    wd.resize(d.size());
    q8_matrix_dequantize_ref(&gate.view, wg.data());
    q8_matrix_dequantize_ref(&up.view, wu.data());
    q8_matrix_dequantize_ref(&down.view, wd.data());
  }
  ~test_layer() {
    q8_matrix_owned_free(&gate);
    q8_matrix_owned_free(&up);
    q8_matrix_owned_free(&down);
  }
};

static std::vector<float> layer_run(const swiglu_layer_variant* v, const swiglu_q8_layer* L, const float* x, int T,
                                    std::vector<float>* silu_gate = nullptr) {
  std::vector<float> y((size_t)T * L->hidden);
  std::vector<float> scratch(swiglu_layer_scratch_bytes(L, T) / sizeof(float) + 4);
  if (silu_gate) silu_gate->assign((size_t)T * L->inter, 0.0f);
  swiglu_layer_forward_variant(v, L, x, T, y.data(), silu_gate ? silu_gate->data() : nullptr, scratch.data());
  return y;
}

// The format's own tiles (Q8_PANEL_ROWS x Q8_PANEL_COLS) drive the round-trip sizes; the gemm
// tests take each registry's panel_rows, block_cols and token_tile (tile_sizes above).
static const std::vector<int> kRows = tile_sizes(Q8_PANEL_ROWS, {13, 31});
static const std::vector<int> kCols = tile_sizes(Q8_PANEL_COLS, {29, 67, 257, 1031});  // 1031: past a w16 chunk

// [SECTION] quantization format
TEST_CASE("q8 quantize/dequantize round trip", "[kernels][quant]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int N : kRows)
    for (int K : kCols) {
      INFO("N " << N << " K " << K);
      auto w = random_vec(rng, (size_t)N * K, 1.0f);
      if (N > 2) std::fill(w.begin() + K, w.begin() + 2 * K, 0.0f);  // an all-zero row
      q8_matrix_owned m;
      REQUIRE(q8_matrix_owned_init(&m, w.data(), N, K) == Q8_OK);
      REQUIRE(m.view.rows_padded % Q8_PANEL_ROWS == 0);
      REQUIRE(m.view.cols_padded % Q8_PANEL_COLS == 0);
      REQUIRE(((uintptr_t)m.view.weights % Q8_ALIGN) == 0);
      std::vector<float> back((size_t)N * K);
      q8_matrix_dequantize_ref(&m.view, back.data());
      for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++) {
          const int q = q8_matrix_at(&m.view, n, k);
          REQUIRE(q >= -127);
          REQUIRE(q <= 127);
          // Nearest grid point: error at most half a step (plus f32 rounding of the product).
          REQUIRE(std::fabs(back[(size_t)n * K + k] - w[(size_t)n * K + k]) <= 0.5f * m.view.scales[n] * 1.0001f + 1e-30f);
        }
      // Padding rows and columns hold zeros.
      for (int n = 0; n < m.view.rows_padded; n++)
        for (int k = 0; k < m.view.cols_padded; k++)
          if (n >= N || k >= K) REQUIRE(q8_matrix_at(&m.view, n, k) == 0);
      for (int n = N; n < m.view.rows_padded; n++) REQUIRE(m.view.scales[n] == 0.0f);
      q8_matrix_owned_free(&m);
    }
}

TEST_CASE("q8 parser rejects bad blobs with a clear status", "[kernels][quant]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const int N = 13, K = 29;
  auto w = random_vec(rng, (size_t)N * K, 1.0f);
  q8_matrix_owned m;
  REQUIRE(q8_matrix_owned_init(&m, w.data(), N, K) == Q8_OK);
  const std::vector<uint8_t> good((uint8_t*)m.blob, (uint8_t*)m.blob + m.bytes);
  q8_matrix_owned_free(&m);

  std::vector<uint32_t> buf_words(good.size() / 4 + 2);  // 4-byte aligned scratch for edited copies
  uint8_t* buf = (uint8_t*)buf_words.data();
  q8_matrix_view v;
  auto parse_edit = [&](size_t n, void (*edit)(uint8_t*)) {
    std::memcpy(buf, good.data(), good.size());
    if (edit) edit(buf);
    return q8_matrix_parse(buf, n, &v);
  };
  CHECK(parse_edit(good.size(), nullptr) == Q8_OK);
  CHECK(q8_matrix_parse(nullptr, 0, &v) == Q8_ERR_TRUNCATED);
  CHECK(parse_edit(0, nullptr) == Q8_ERR_TRUNCATED);
  CHECK(parse_edit(63, nullptr) == Q8_ERR_TRUNCATED);
  CHECK(parse_edit(64, nullptr) == Q8_ERR_TRUNCATED);
  CHECK(parse_edit(good.size() - 1, nullptr) == Q8_ERR_TRUNCATED);
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[0] = 'G'; }) == Q8_ERR_MAGIC);
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[4] = 2; }) == Q8_ERR_VERSION);
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[8] = 0; }) == Q8_ERR_LAYOUT);         // rows 13 -> 0
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[24] = 8; }) == Q8_ERR_LAYOUT);        // panel_rows
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[16] = 20; }) == Q8_ERR_LAYOUT);       // rows_padded
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[60] = 1; }) == Q8_ERR_LAYOUT);        // reserved
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[32] = 65; }) == Q8_ERR_OFFSETS);      // scales misaligned
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[40] = 64; }) == Q8_ERR_OFFSETS);      // weights over scales
  CHECK(parse_edit(good.size(), [](uint8_t* b) { b[49] = 0x7f; }) == Q8_ERR_TRUNCATED);  // total_bytes huge
  CHECK(parse_edit(good.size(), [](uint8_t* b) {
          const float nan = std::nanf("");
          std::memcpy(b + 64 + 4, &nan, 4);
        }) == Q8_ERR_SCALES);
  std::memcpy(buf + 1, good.data(), good.size());
  CHECK(q8_matrix_parse(buf + 1, good.size(), &v) == Q8_ERR_ALIGN);
  REQUIRE(std::string(q8_status_str(Q8_ERR_MAGIC)).find("magic") != std::string::npos);

  // Random header damage: never crashes; whatever parses stays inside the buffer.
  for (int it = 0; it < 2000; it++) {
    std::memcpy(buf, good.data(), good.size());
    const int flips = 1 + (int)(rng() % 4);
    for (int f = 0; f < flips; f++) buf[rng() % 64] = (uint8_t)rng();
    const size_t n = good.size() - (rng() % 2 ? 0 : rng() % good.size());
    if (q8_matrix_parse(buf, n, &v) == Q8_OK) {
      REQUIRE((const uint8_t*)v.weights + (size_t)v.rows_padded * v.cols_padded <= buf + n);
      REQUIRE((const uint8_t*)(v.scales + v.rows_padded) <= buf + n);
    }
  }
}

// [SECTION] gemm
TEST_CASE("q8_gemm_f32 variants match the double reference", "[kernels][gemm]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const q8_gemm_f32_variant* vars = q8_gemm_f32_variants;
  const int count = q8_gemm_f32_variant_count;
  const std::vector<int> rows = registry_sizes(vars, count, &q8_gemm_f32_variant::panel_rows, {13, 31});
  const std::vector<int> cols = registry_sizes(vars, count, &q8_gemm_f32_variant::block_cols, {29, 67, 257, 1031});
  const std::vector<int> tokens = registry_sizes(vars, count, &q8_gemm_f32_variant::token_tile, {7, 13, 17, 67});
  for (int N : rows)
    for (int K : cols) {
      auto w = random_vec(rng, (size_t)N * K, 1.0f);
      q8_matrix_owned m;
      REQUIRE(q8_matrix_owned_init(&m, w.data(), N, K) == Q8_OK);
      for (int T : tokens) {
        auto x = random_vec(rng, (size_t)T * K, 1.0f);
        // The product in double, here, from the blob's int8 values and scales: every variant,
        // the reference included, is held to it.
        std::vector<double> yd((size_t)T * N), mag((size_t)T * N);
        for (int t = 0; t < T; t++)
          for (int n = 0; n < N; n++) {
            double acc = 0.0, a = 0.0;
            for (int k = 0; k < K; k++) {
              const double p = (double)q8_matrix_at(&m.view, n, k) * m.view.scales[n] * x[(size_t)t * K + k];
              acc += p;
              a += std::fabs(p);
            }
            yd[(size_t)t * N + n] = acc;
            mag[(size_t)t * N + n] = a;
          }
        for (int vi = 0; vi < count; vi++) {
          const q8_gemm_f32_variant& var = vars[vi];
          INFO(var.name << " N " << N << " K " << K << " T " << T);
          std::vector<float> y((size_t)T * N, NAN);
          var.fn(&m.view, x.data(), T, y.data());
          for (size_t i = 0; i < y.size(); i++) {
            // The reference accumulates in double: only its final rounding to f32 differs.
            const double tol = var.is_ref ? 1e-12 * mag[i] + std::fabs(yd[i]) * FLT_EPSILON : kTolGemmF32 * mag[i] + 1e-30;
            REQUIRE(std::fabs((double)y[i] - yd[i]) <= tol);
          }
        }
      }
      q8_matrix_owned_free(&m);
    }
}

TEST_CASE("f32_qs16 and q8_gemm_q16 variants match their references bit for bit", "[kernels][gemm]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const q8_gemm_q16_variant* vars = q8_gemm_q16_variants;
  const int count = q8_gemm_q16_variant_count;
  const std::vector<int> rows = registry_sizes(vars, count, &q8_gemm_q16_variant::panel_rows, {13, 31});
  std::vector<int> cols = registry_sizes(vars, count, &q8_gemm_q16_variant::block_cols, {29, 67, 257, 1031});
  for (int K : registry_sizes(f32_qs16_variants, f32_qs16_variant_count, &f32_qs16_variant::tile, {})) cols.push_back(K);
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  const std::vector<int> tokens = registry_sizes(vars, count, &q8_gemm_q16_variant::token_tile, {7, 13, 17, 67});
  for (int N : rows)
    for (int K : cols) {
      auto w = random_vec(rng, (size_t)N * K, 1.0f);
      q8_matrix_owned m;
      REQUIRE(q8_matrix_owned_init(&m, w.data(), N, K) == Q8_OK);
      const int Kp = m.view.cols_padded;
      for (int T : tokens) {
        auto x = random_vec(rng, (size_t)T * K, 3.0f);
        if (T > 2) std::fill(x.begin() + K, x.begin() + 2 * K, 0.0f);  // an all-zero token
        std::vector<int16_t> xq_ref((size_t)T * Kp, 77);
        std::vector<float> xs_ref(T);
        f32_qs16_ref(x.data(), T, K, Kp, xq_ref.data(), xs_ref.data());
        // The reference quantizer's contract, checked here: per token, the largest |x| lands on
        // +-qmax, every value within half a step, the padding and an all-zero token zero.
        const int qmax = f32_qs16_qmax(Kp);
        for (int t = 0; t < T; t++) {
          INFO("f32_qs16_ref K " << K << " token " << t);
          int peak = 0;
          for (int k = 0; k < Kp; k++) {
            const int q = xq_ref[(size_t)t * Kp + k];
            peak = std::max(peak, std::abs(q));
            if (k >= K) REQUIRE(q == 0);
            else REQUIRE(std::fabs((double)q * xs_ref[t] - x[(size_t)t * K + k]) <= kTolQs16Steps * xs_ref[t]);
          }
          REQUIRE(peak == (xs_ref[t] > 0.0f ? qmax : 0));
        }
        for (int vi = 0; vi < f32_qs16_variant_count; vi++) {
          if (f32_qs16_variants[vi].is_ref) continue;
          INFO(f32_qs16_variants[vi].name << " K " << K << " T " << T);
          std::vector<int16_t> xq((size_t)T * Kp, 77);
          std::vector<float> xs(T);
          f32_qs16_variants[vi].fn(x.data(), T, K, Kp, xq.data(), xs.data());
          REQUIRE(xq == xq_ref);
          REQUIRE(std::memcmp(xs.data(), xs_ref.data(), sizeof(float) * T) == 0);
        }
        std::vector<float> yref((size_t)T * N);
        std::vector<int16_t> work(q8_gemm_q16_work_elems(T, Kp), 55);  // garbage in the scratch on purpose
        q8_gemm_q16_ref(&m.view, xq_ref.data(), xs_ref.data(), T, yref.data(), work.data());
        // The reference's contract, checked here: the exact integer sum, then (acc * scale) * xs.
        for (int t = 0; t < T; t++)
          for (int n = 0; n < N; n++) {
            int64_t acc = 0;
            for (int k = 0; k < Kp; k++) acc += (int64_t)q8_matrix_at(&m.view, n, k) * xq_ref[(size_t)t * Kp + k];
            REQUIRE(acc == (int32_t)acc);
            const float want = ((float)acc * m.view.scales[n]) * xs_ref[t];
            INFO("q8_gemm_q16_ref N " << N << " K " << K << " t " << t << " n " << n);
            REQUIRE(std::memcmp(&yref[(size_t)t * N + n], &want, sizeof want) == 0);
          }
        for (int vi = 0; vi < count; vi++) {
          if (vars[vi].is_ref) continue;
          INFO(vars[vi].name << " N " << N << " K " << K << " T " << T);
          std::vector<float> y((size_t)T * N, NAN);
          vars[vi].fn(&m.view, xq_ref.data(), xs_ref.data(), T, y.data(), work.data());
          REQUIRE(std::memcmp(y.data(), yref.data(), sizeof(float) * y.size()) == 0);
        }
      }
      q8_matrix_owned_free(&m);
    }
}

TEST_CASE("q16 range cannot overflow int32 at full scale", "[kernels][gemm]") {
  for (int Kp : {8, 1024, 3584, 18944}) {
    INFO("Kp " << Kp);
    REQUIRE(128.0 * f32_qs16_qmax(Kp) * Kp <= 2147483647.0);
    REQUIRE(f32_qs16_qmax(Kp) <= kQs16DigitMax);  // the relaxed kernels' two 7-bit digits
  }
  // Worst cases, for every q16 variant: every weight at +-127 and every activation at +-qmax, with
  // the signs agreeing (the largest sum), alternating per column (sums of opposite extremes), and
  // the most negative activations (digit 1, 0 in the relaxed kernels).
  const int N = 8, K = 3584;
  std::vector<float> w((size_t)N * K);
  for (int n = 0; n < N; n++)
    for (int k = 0; k < K; k++) w[(size_t)n * K + k] = n % 2 ? ((k % 2) ? 1.0f : -1.0f) : (n < 4 ? 1.0f : -1.0f);
  q8_matrix_owned m;
  REQUIRE(q8_matrix_owned_init(&m, w.data(), N, K) == Q8_OK);
  for (float sign : {1.0f, -1.0f}) {
    std::vector<float> x(K, sign);
    std::vector<int16_t> xq(K);
    float xs;
    f32_qs16__wasmsimd_u8(x.data(), 1, K, K, xq.data(), &xs);
    std::vector<int16_t> work(q8_gemm_q16_work_elems(1, K));
    std::vector<float> yref(N);
    q8_gemm_q16_ref(&m.view, xq.data(), &xs, 1, yref.data(), work.data());
    for (int n = 0; n < N; n++) {
      const double want = n % 2 ? 0.0 : (n < 4 ? 1.0 : -1.0) * sign * K;
      REQUIRE(yref[n] == Approx(want).epsilon(1e-5).margin(1e-3));
    }
    for (int vi = 0; vi < q8_gemm_q16_variant_count; vi++) {
      INFO(q8_gemm_q16_variants[vi].name << " sign " << sign);
      std::vector<float> y(N, NAN);
      q8_gemm_q16_variants[vi].fn(&m.view, xq.data(), &xs, 1, y.data(), work.data());
      REQUIRE(std::memcmp(y.data(), yref.data(), sizeof(float) * N) == 0);
    }
  }
  q8_matrix_owned_free(&m);
}

// [SECTION] SiLU and gated product
TEST_CASE("f32_vsilu variants: <= 1e-6 abs on [-30, 30], limits, no NaN", "[kernels][silu]") {
  const int n = 600001;  // step 1e-4
  std::vector<float> z(n), y(n), yref(n);
  for (int i = 0; i < n; i++) z[i] = -30.0f + 60.0f * (float)i / (float)(n - 1);
  for (int vi = 0; vi < f32_vsilu_variant_count; vi++) {
    const f32_vsilu_variant& var = f32_vsilu_variants[vi];
    INFO(var.name);
    var.fn(n, z.data(), y.data());
    double worst = 0.0;
    float worst_z = 0.0f;
    for (int i = 0; i < n; i++) {
      const double zd = z[i];
      const double err = std::fabs((double)y[i] - zd / (1.0 + std::exp(-zd)));
      if (err > worst) worst = err, worst_z = z[i];
    }
    INFO("worst abs err " << worst << " at z " << worst_z);
    REQUIRE(worst <= kTolSiluAbs);

    const float special[] = {0.0f, -0.0f, FLT_MIN, -FLT_MIN, 1e-40f, -1e-40f, 87.0f, 88.0f, 89.0f, -87.0f, -88.0f,
                             -89.0f, 100.0f, -100.0f, 1e10f, -1e10f, 1e30f, -1e30f, FLT_MAX, -FLT_MAX,
                             INFINITY, -INFINITY};
    const size_t ns = sizeof(special) / sizeof(special[0]);
    std::vector<float> ys(ns);
    var.fn(ns, special, ys.data());
    for (size_t i = 0; i < ns; i++) {
      INFO("z " << special[i] << " silu " << ys[i]);
      REQUIRE(!std::isnan(ys[i]));
      if (special[i] >= 30.0f) REQUIRE(ys[i] == special[i]);  // silu(z) = z once e^-z is below f32 resolution
      if (special[i] <= -100.0f) REQUIRE(std::fabs(ys[i]) <= 1e-30f);
      if (std::fabs(special[i]) < 1e-30f) REQUIRE(std::fabs(ys[i]) <= std::fabs(special[i]));
    }
  }
}

// The part of a kernel name after "__" (its implementation), to pair a vsilu with its vswiglu twin.
static std::string kernel_impl(const char* name) {
  const char* at = std::strstr(name, "__");
  return at ? at + 2 : "";
}

TEST_CASE("f32_vsilu and f32_vswiglu tails: every length up to 3 tiles past each variant's tile", "[kernels][silu]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  std::set<size_t> lengths = {0, 31, 67, 257};
  for (int vi = 0; vi < f32_vswiglu_variant_count; vi++)
    for (int n = 0; n <= 3 * f32_vswiglu_variants[vi].tile + 1; n++) lengths.insert((size_t)n);
  for (int vi = 0; vi < f32_vsilu_variant_count; vi++)
    for (int n = 0; n <= 3 * f32_vsilu_variants[vi].tile + 1; n++) lengths.insert((size_t)n);
  for (size_t n : lengths) {
    auto g = random_vec(rng, n + 1, 4.0f), u = random_vec(rng, n + 1, 1.0f);
    // Every variant, the references included, against silu and g-silu times u in double, here.
    for (int vi = 0; vi < f32_vswiglu_variant_count; vi++) {
      const f32_vswiglu_variant& var = f32_vswiglu_variants[vi];
      INFO(var.name << " n " << n);
      std::vector<float> h(n + 1, 5.0f), s(n + 1, 5.0f);
      var.fn(n, g.data(), u.data(), h.data(), s.data());
      REQUIRE(h[n] == 5.0f);  // nothing written past n
      REQUIRE(s[n] == 5.0f);
      for (size_t i = 0; i < n; i++) {
        const double sd = silu_d(g[i]), hd = sd * u[i];
        REQUIRE(std::fabs(s[i] - sd) <= kTolSiluAbs);
        REQUIRE(std::fabs(h[i] - hd) <= kTolSwigluRel * std::fabs(hd) + kTolSiluAbs * std::fabs(u[i]));
      }
      // Its vsilu twin gives the same silu bits.
      for (int si = 0; si < f32_vsilu_variant_count; si++) {
        if (f32_vsilu_variants[si].is_ref != var.is_ref || kernel_impl(f32_vsilu_variants[si].name) != kernel_impl(var.name))
          continue;
        std::vector<float> y(n + 1, 5.0f);
        f32_vsilu_variants[si].fn(n, g.data(), y.data());
        REQUIRE(y[n] == 5.0f);
        for (size_t i = 0; i < n; i++) REQUIRE(y[i] == s[i]);
      }
      // In place (h aliases g), no silu output: the same bits.
      std::vector<float> gi = g;
      var.fn(n, gi.data(), u.data(), gi.data(), nullptr);
      for (size_t i = 0; i < n; i++) REQUIRE(gi[i] == h[i]);
    }
  }
}

// [SECTION] layer
TEST_CASE("swiglu layer: per-token determinism, bit for bit", "[kernels][layer]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const int hidden = 67, inter = 133, T = 7;
  test_layer tl(rng, hidden, inter);
  auto x = random_vec(rng, (size_t)T * hidden, 1.0f);
  std::vector<int> perm(T);
  for (int i = 0; i < T; i++) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<float> xp((size_t)T * hidden);
  for (int i = 0; i < T; i++) std::copy_n(&x[(size_t)perm[i] * hidden], hidden, &xp[(size_t)i * hidden]);
  std::vector<float> xc = x;  // token 3 changed
  for (int k = 0; k < hidden; k++) xc[3 * hidden + k] *= -2.5f;

  for (int vi = 0; vi < swiglu_layer_variant_count; vi++) {
    const swiglu_layer_variant* v = &swiglu_layer_variants[vi];
    INFO(v->name);
    std::vector<float> sg, sgp;
    const auto y = layer_run(v, &tl.L, x.data(), T, &sg);
    const auto yp = layer_run(v, &tl.L, xp.data(), T, &sgp);
    const auto yc = layer_run(v, &tl.L, xc.data(), T);
    for (int i = 0; i < T; i++) {
      INFO("token " << i);
      REQUIRE(std::memcmp(&yp[(size_t)i * hidden], &y[(size_t)perm[i] * hidden], sizeof(float) * hidden) == 0);
      REQUIRE(std::memcmp(&sgp[(size_t)i * inter], &sg[(size_t)perm[i] * inter], sizeof(float) * inter) == 0);
      if (i != 3) REQUIRE(std::memcmp(&yc[(size_t)i * hidden], &y[(size_t)i * hidden], sizeof(float) * hidden) == 0);
      // Alone in a batch of one: the same bits.
      const auto y1 = layer_run(v, &tl.L, &x[(size_t)i * hidden], 1);
      REQUIRE(std::memcmp(y1.data(), &y[(size_t)i * hidden], sizeof(float) * hidden) == 0);
    }
  }
}

static void check_layer_accuracy(std::mt19937& rng, int hidden, int inter, int T, bool all_variants) {
  test_layer tl(rng, hidden, inter);
  auto x = random_vec(rng, (size_t)T * hidden, 1.0f);
  std::vector<double> yref((size_t)T * hidden);
  swiglu_layer_ref_f64(tl.wg.data(), tl.wu.data(), tl.wd.data(), hidden, inter, x.data(), T, yref.data());
  double ymax = 0.0;
  for (double v : yref) ymax = std::max(ymax, std::fabs(v));
  REQUIRE(ymax > 0.0);
  for (int vi = 0; vi < swiglu_layer_variant_count; vi++) {
    const swiglu_layer_variant* v = &swiglu_layer_variants[vi];
    if (!all_variants && (v->is_ref || std::strstr(v->name, "scalar"))) continue;
    const auto y = layer_run(v, &tl.L, x.data(), T);
    double err = 0.0;
    for (size_t i = 0; i < y.size(); i++) err = std::max(err, std::fabs((double)y[i] - yref[i]));
    INFO(v->name << " hidden " << hidden << " inter " << inter << " T " << T << " rel err " << err / ymax);
    REQUIRE(err / ymax <= (v->act == SWIGLU_ACT_F32 ? kTolLayerF32 : kTolLayerQ16));
  }
}

TEST_CASE("swiglu layer accuracy vs double reference on dequantized weights", "[kernels][layer]") {
  const unsigned seed = test_seed();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  check_layer_accuracy(rng, 24, 40, 3, true);
  check_layer_accuracy(rng, 67, 131, 5, true);
  check_layer_accuracy(rng, 256, 896, 6, true);
  check_layer_accuracy(rng, 1024, 3584, 1, false);  // Qwen3.5-0.8B dims, one token
}

TEST_CASE("swiglu layer default dispatch", "[kernels][layer]") {
  REQUIRE(swiglu_layer_variant_default(SWIGLU_ACT_F32) != nullptr);
  REQUIRE(swiglu_layer_variant_default(SWIGLU_ACT_Q16) != nullptr);
  for (int T : {1, 2, 64}) {  // the q16 path's run-time choice: a q16 layer variant, never a reference
    const swiglu_layer_variant* v = swiglu_layer_variant_for(SWIGLU_ACT_Q16, T);
    REQUIRE(v != nullptr);
    REQUIRE(v->act == SWIGLU_ACT_Q16);
    REQUIRE(!v->is_ref);
  }
  REQUIRE(swiglu_layer_variant_find("no such variant") == nullptr);
  for (int vi = 0; vi < swiglu_layer_variant_count; vi++)
    REQUIRE(swiglu_layer_variant_find(swiglu_layer_variants[vi].name) == &swiglu_layer_variants[vi]);
}
