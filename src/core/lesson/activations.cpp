// Scalar activations in double precision (see activations.h).
#include "core/lesson/activations.h"

#include <cmath>

double act_sigmoid(double z) {
  // Never exponentiate a positive number: exp(-z) for z >= 0 and exp(z) for z < 0 are both in
  // (0, 1], so neither overflows and the result is exact to rounding at both ends.
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  double e = std::exp(z);
  return e / (1.0 + e);
}

double act_silu(double z) { return z * act_sigmoid(z); }

double act_relu(double z) { return z > 0 ? z : 0.0; }

double act_gelu(double z) { return 0.5 * z * std::erfc(-z / std::sqrt(2.0)); }

act_extremum act_silu_minimum() {
  // Newton on f(z) = 1 + z(1 - sigmoid(z)), whose root is where silu'(z) = 0.
  double z = -1.3;
  for (int i = 0; i < 50; ++i) {
    double s = act_sigmoid(z);
    double f = 1.0 + z * (1.0 - s);
    double df = (1.0 - s) - z * s * (1.0 - s);
    double step = f / df;
    z -= step;
    if (std::fabs(step) < 1e-16) break;
  }
  return {z, act_silu(z)};
}
