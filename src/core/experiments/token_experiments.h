// What "per token" means (lessons 000/003), on a real layer: shuffle the probe's tokens and
// compare MLP(x[perm]) with MLP(x)[perm] (exactly 0), and add delta to one token's input to see
// that only its own output moves. Both run the whole layer (gate, up, down), so they are
// computed from the frame only when the layer is whole in the source and their inputs changed.
#pragma once

#include <vector>

#include "core/pack/mlp_experiments.h"
#include "core/source/layer_source.h"

struct token_experiments {
  bool valid = false;
  int layer = -1, probe = -1, token = -1;
  std::vector<int> perm;
  double delta = 0;
  mlp_perm_result shuffle;     // max |MLP(x[perm]) - MLP(x)[perm]|
  std::vector<double> change;  // max |change of the output| at each position
};

// True when `k` holds the results for these inputs (computed now or before).
bool token_experiments_update(token_experiments* k, layer_source* src, int layer, int probe, const std::vector<int>& perm,
                              int token, double delta);
// The positions whose output moved (the lesson: only `token`).
std::vector<int> token_experiments_moved(const token_experiments& k);
