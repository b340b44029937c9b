// One intermediate unit's rule (lessons 000/003, "the rule book"): its gate row and up row (the
// conditions it reads from the input, length hidden) and its down column (what it writes back
// into the residual stream, length hidden), dequantized from the int8 weights: w = q * scale.
#pragma once

#include <vector>

#include "core/source/layer_source.h"

struct unit_weights {
  bool valid = false;
  int layer = -1, unit = -1;
  uint64_t generation = 0;
  std::vector<float> gate_row, up_row, down_col;  // each (hidden)
  float max_abs[MLP_PART_COUNT] = {0, 0, 0};      // largest |w| of each whole matrix (the heatmap's colour scale)
};

// True when `u` holds this unit of this layer (needs the layer whole in the source).
bool unit_weights_update(unit_weights* u, layer_source* src, int layer, int unit);
// The largest |w| of a q8 matrix: 127 times its largest row scale.
float unit_weights_matrix_max_abs(const q8_matrix_view* m);
