// Scalar activations against independent formulas, including the edges: +-0, huge |z|, the minimum.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/lesson/activations.h"

static const double ACT_REL_TOL = 1e-15;  // double vs long double reference, relative

static long double silu_long(long double z) { return z / (1.0L + std::exp(-z)); }

TEST_CASE("silu matches z / (1 + e^-z) over [-20, 20]") {
  for (int i = 0; i <= 4000; ++i) {
    double z = -20.0 + i * 0.01;
    long double ref = silu_long(z);
    INFO("z = " << z);
    CHECK(std::fabs(act_silu(z) - (double)ref) <= ACT_REL_TOL * std::fabs((double)ref) + 1e-300);
  }
}

TEST_CASE("silu keeps zero's sign and has the right limits") {
  CHECK(act_silu(0.0) == 0.0);
  CHECK_FALSE(std::signbit(act_silu(0.0)));
  CHECK(std::signbit(act_silu(-0.0)));
  CHECK(act_silu(1000.0) == 1000.0);
  CHECK(act_silu(-1000.0) == 0.0);
  CHECK(act_silu(std::numeric_limits<double>::max()) == std::numeric_limits<double>::max());
  CHECK(act_silu(-std::numeric_limits<double>::max()) == 0.0);
  CHECK(act_sigmoid(-745.0) >= 0.0);
  CHECK(act_sigmoid(800.0) == 1.0);
}

TEST_CASE("the lesson's SiLU values") {
  CHECK(act_sigmoid(2.0) == Approx(0.880797).margin(5e-7));
  CHECK(act_silu(2.0) == Approx(1.761594).margin(5e-7));
  CHECK(act_silu(-1.0) == Approx(-0.268941).margin(5e-7));
  CHECK(act_silu(1.0) == Approx(0.731059).margin(5e-7));
}

TEST_CASE("silu's minimum is about -0.278 at z about -1.278, and equals z + 1") {
  act_extremum m = act_silu_minimum();
  CHECK(m.z == Approx(-1.278465).margin(5e-7));
  CHECK(m.value == Approx(-0.278465).margin(5e-7));
  CHECK(m.value == Approx(m.z + 1.0).margin(1e-12));
  // A true minimum: nothing nearby is lower.
  for (double dz : {-1e-3, -1e-5, 1e-5, 1e-3}) CHECK(act_silu(m.z + dz) > m.value);
}

TEST_CASE("relu and gelu") {
  CHECK(act_relu(-1.0) == 0.0);
  CHECK(act_relu(2.5) == 2.5);
  // GELU(1) = Phi(1) = 0.841344746..., GELU(-1) = -0.158655253...
  CHECK(act_gelu(1.0) == Approx(0.8413447460685429).margin(1e-12));
  CHECK(act_gelu(-1.0) == Approx(-0.15865525393145707).margin(1e-12));
  CHECK(act_gelu(0.0) == 0.0);
}
