// The lessons' experiments on a real layer (lessons 000/003), computed by the kernels on int8
// weights: how many gates are open, and what "per token" means. The CLI and the page call these
// and print the rows they return, so both show the same numbers.
#pragma once

#include <string>
#include <vector>

#include "core/kernels/kernels.h"
#include "core/pack/pack_format.h"

// silu(W_gate x) for T tokens: (T, inter). Needs only the gate matrix (so the histograms can be
// drawn before up and down arrive). Same kernels as swiglu_layer_forward's f32 path.
void mlp_gate_silu(const q8_matrix_view* gate, const float* x /*[T, hidden]*/, int T, float* silu_gate /*[T, inter]*/);

// Shuffle the tokens: max |MLP(x[perm]) - MLP(x)[perm]| over every output (0 when the MLP is
// per token, as it is). perm[i] = which original token stands at position i.
struct mlp_perm_result {
  double max_abs_diff = 0;
  double max_abs_output = 0;  // for scale
};
mlp_perm_result mlp_permutation_test(const swiglu_q8_layer* L, const float* x, int T, const std::vector<int>& perm);

// Change one token: add delta to every input component of token k; the max |change| of the
// output at each position (only position k moves).
std::vector<double> mlp_token_change(const swiglu_q8_layer* L, const float* x, int T, int k, float delta);

// A permutation given as text ("5,3,1,0,2,4") for T tokens, checked: each of 0..T-1 once.
bool mlp_parse_perm(const std::string& text, int T, std::vector<int>* perm, std::string* error);
// The lessons' permutation [5, 3, 1, 0, 2, 4] when T = 6; otherwise the reversal.
std::vector<int> mlp_default_perm(int T);
