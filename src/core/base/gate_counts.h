// silu(gate) counted as the lessons count it: the share of a layer's values above +thr ("open")
// and below -thr, and their histogram. One definition for the pack's precomputed counts, the MLP
// views' live counts and the whole model's.
#pragma once

#include <cstddef>
#include <cstdint>

enum { GATE_HIST_BINS = 64 };
#define GATE_HIST_LO (-0.3)  // silu(gate) histogram bins: [-0.3, 2.9) in steps of 0.05, so that
#define GATE_HIST_HI 2.9     // +-0.1 fall on bin edges; values outside go to the end bins

// The histogram bin of a silu(gate) value.
int gate_hist_bin(float v);

// Counts over silu(gate) values: shares above +thr and below -thr, and the histogram.
struct mlp_gate_counts {
  int64_t total = 0, open = 0, negative = 0;
  int64_t histogram[GATE_HIST_BINS] = {0};
  double open_share() const { return total ? (double)open / (double)total : 0; }
  double negative_share() const { return total ? (double)negative / (double)total : 0; }
};
void mlp_gate_count(const float* silu_gate, size_t n, double thr, mlp_gate_counts* acc);
