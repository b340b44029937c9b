// silu(gate) counts (see gate_counts.h).
#include "core/base/gate_counts.h"

#include <cmath>

int gate_hist_bin(float v) {
  const double step = (GATE_HIST_HI - GATE_HIST_LO) / GATE_HIST_BINS;
  double b = std::floor((v - GATE_HIST_LO) / step + 1e-9);  // 1e-9: keep +-0.1 on their own edge
  if (!(b >= 0)) return 0;  // also NaN
  return b >= GATE_HIST_BINS ? GATE_HIST_BINS - 1 : (int)b;
}

void mlp_gate_count(const float* silu_gate, size_t n, double thr, mlp_gate_counts* acc) {
  // In f32, as the lessons' PyTorch (g > 0.1) compares a float32 tensor: 0.1f itself is not open.
  const float t = (float)thr;
  for (size_t i = 0; i < n; i++) {
    const float v = silu_gate[i];
    acc->open += v > t;
    acc->negative += v < -t;
    acc->histogram[gate_hist_bin(v)]++;
  }
  acc->total += (int64_t)n;
}
