// How open the gates are (lessons 000/003): silu(W_gate x) of the probes' tokens on the layers a
// view shows, and the counts the gate histograms print (share of silu(gate) > +thr and < -thr).
// Computed from the frame by the kernels once a layer's int8 gate and the probes' inputs are in;
// until then the source's precomputed values stand in (marked "precomputed"), or its summary
// counts at the lessons' threshold. Live values stay after the source lets the weights go.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pack/mlp_experiments.h"
#include "core/source/layer_source.h"

// One layer's histogram as a view shows it.
struct gate_row {
  int layer = 0;
  bool available = false;  // something to show yet
  bool live = false;       // from the int8 gate here, not precomputed
  mlp_gate_counts counts;
};

struct gate_activity {
  struct layer_values {
    int layer = -1;
    std::vector<std::vector<float>> silu;  // [probe] (T, inter)
  };
  std::vector<layer_values> live;  // computed layers
  // Rows already counted, valid while the source's generation and `live` stay the same.
  struct cached_row { double thr; int probe, token; gate_row row; };
  std::vector<cached_row> rows;
  uint64_t rows_generation = 0;
  size_t rows_live = 0;
};

// From the frame: computes every listed layer whose gate and inputs have arrived. Returns the
// listed layers still without live values (what the source must bring).
std::vector<int> gate_activity_update(gate_activity* g, layer_source* src, const std::vector<int>& layers);
// The histogram of `layer`: token -1 counts every token of every probe, else that token of `probe`.
gate_row gate_activity_row(gate_activity* g, const layer_source* src, int layer, double thr, int probe, int token);
// silu(gate) of one probe on one layer, (T, inter): live, else precomputed, else null.
const std::vector<float>* gate_activity_values(const gate_activity* g, const layer_source* src, int layer, int probe,
                                               bool* live);
