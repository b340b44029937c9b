// The per-token experiments (see token_experiments.h).
#include "core/experiments/token_experiments.h"

bool token_experiments_update(token_experiments* k, layer_source* src, int layer, int probe, const std::vector<int>& perm,
                              int token, double delta) {
  if (k->valid && k->layer == layer && k->probe == probe && k->token == token && k->perm == perm && k->delta == delta)
    return true;
  if (src->phase() != SOURCE_READY) return false;
  const q8_matrix_view* gate = src->matrix(layer, MLP_GATE);
  const q8_matrix_view* up = src->matrix(layer, MLP_UP);
  const q8_matrix_view* down = src->matrix(layer, MLP_DOWN);
  const std::vector<float>* x = src->probe_input(probe);
  if (!gate || !up || !down || !x) return false;
  const source_model& m = src->model();
  const int T = (int)m.probes[probe].tokens.size();
  const swiglu_q8_layer L = {(int)m.hidden, (int)m.intermediate, *gate, *up, *down};
  k->shuffle = mlp_permutation_test(&L, x->data(), T, perm);
  k->change = mlp_token_change(&L, x->data(), T, token, (float)delta);
  k->layer = layer;
  k->probe = probe;
  k->token = token;
  k->perm = perm;
  k->delta = delta;
  k->valid = true;
  return true;
}

std::vector<int> token_experiments_moved(const token_experiments& k) {
  std::vector<int> moved;
  for (size_t t = 0; t < k.change.size(); t++)
    if (k.change[t] != 0) moved.push_back((int)t);
  return moved;
}
