// The whole model's forward pass over a prompt (lessons 001 and 003): the embedding, every
// decoder layer (input norm, mixer, residual, post-attention norm, SwiGLU MLP, residual), the
// final norm and the unembedding, in f32 over the weights of model_weights.h. One code for the
// page's worker, the CLI, the tests and the benchmark.
//
// Per layer l and position t it records what the lessons look at:
//   layer_in[l]   the residual stream entering the layer (so a rerun can start there)
//   mlp_in[l]     post_attention_layernorm of the stream: what the MLP really reads
//   silu_gate[l]  silu(W_gate mlp_in), act[l] = silu_gate * (W_up mlp_in): each unit's activation
//   mlp_l2[l][t]  |MLP output|, out_l2[l][t] |the stream after the layer| (lesson 001's bars)
// and at the last position the final hidden state and the logits over the whole vocabulary.
//
// Switching units off (lesson 003, figure 4): a unit's activation is 0 at every position, as if
// its down column were zero. The rerun starts from the first layer a switched-off unit is in,
// with the stream recorded there; the layers before it cannot change.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/model_weights.h"

struct unit_ref {
  int layer = 0, unit = 0;
  bool operator==(const unit_ref& o) const { return layer == o.layer && unit == o.unit; }
  bool operator<(const unit_ref& o) const { return layer != o.layer ? layer < o.layer : unit < o.unit; }
};
// A unit inside the model: one of its layers, one of that layer's MLP units.
inline bool model_has_unit(const model_spec& s, const unit_ref& u) {
  return u.layer >= 0 && u.layer < (int)s.base.layers && u.unit >= 0 && u.unit < s.base.intermediate;
}
// The units inside the model, sorted, each once: what a run switches off of the ones asked for.
std::vector<unit_ref> model_units_inside(const model_spec& s, const std::vector<unit_ref>& units);

struct forward_trace {
  int T = 0;
  std::vector<int64_t> ids;
  std::vector<unit_ref> off;                  // sorted, no repeats
  std::vector<std::vector<float>> layer_in;   // [L] (T, H)
  std::vector<std::vector<float>> mlp_in;     // [L] (T, H)
  std::vector<std::vector<float>> silu_gate;  // [L] (T, F)
  std::vector<std::vector<float>> act;        // [L] (T, F), switched-off units 0
  std::vector<std::vector<float>> mlp_l2;     // [L][T]
  std::vector<std::vector<float>> out_l2;     // [L][T]
  std::vector<float> final_hidden;            // (H): the last position after the final norm
  std::vector<float> logits;                  // (V): the last position's next-token logits
  int first_layer_run = 0;                    // layers before it were copied from a base run
  // Huge finite weights can overflow f32 on the way (BF16 holds up to 3.4e38): the first layer
  // whose residual stream after it holds NaN or infinity (-1: none), and whether the logits do.
  int nonfinite_layer = -1;
  bool nonfinite_logits = false;
  bool finite() const { return nonfinite_layer < 0 && !nonfinite_logits; }
};

// [SECTION] memory: what a pass takes beside the weights, counted from the spec before it runs
// (the weights' own budget, MODEL_MEMORY_BUDGET, is shared with it: model_loader.h)
struct forward_bytes {
  uint64_t trace = 0;    // one run's records (forward_trace): per layer (T, H) twice, (T, F) twice
  uint64_t scratch = 0;  // the pass's working buffers at their peak (the widest mixer's)
};
forward_bytes model_forward_bytes(const model_spec& s, int T);
// Units whose writes are scored in one answer, at most (the rule book lists 10, and a picked one).
enum { MODEL_ANSWER_UNITS = 16 };
// Everything an answer on a prompt of T tokens holds at once beside the weights, as model_host
// answers: the prompt's run and the switch-off rerun kept beside it, the pass's scratch, the gates
// view's shortcut input per layer, and the readings over the whole vocabulary (probabilities
// before and after, the top lists, what up to MODEL_ANSWER_UNITS units write toward) and the short
// lists the reply carries, summed.
uint64_t model_answer_bytes(const model_spec& s, int T);

// A prompt of 1..MODEL_MAX_TOKENS ids inside the vocabulary (false otherwise: check first).
bool model_ids_ok(const model_weights& w, const std::vector<int64_t>& ids);

// Runs the prompt with `off` switched off (units outside the model are ignored).
void model_forward(const model_weights& w, const std::vector<int64_t>& ids, const std::vector<unit_ref>& off,
                   forward_trace* out);
// The same prompt as `base` (a run with no unit off) with `off` switched off: copies what cannot
// change and runs from the first switched-off layer on.
void model_forward_switch_off(const model_weights& w, const forward_trace& base, const std::vector<unit_ref>& off,
                              forward_trace* out);

// [SECTION] what the views read from a run
struct token_prob {
  int64_t id = 0;
  double p = 0;  // softmax over the whole vocabulary
};
// The k most likely next tokens, most likely first (ties: the lower id first).
std::vector<token_prob> forward_top_tokens(const forward_trace& t, int k);
// P(next = id) for every id: the softmax over the whole vocabulary.
std::vector<double> forward_probabilities(const forward_trace& t);
// P(next = id) for one id (0 outside the vocabulary).
double forward_token_prob(const forward_trace& t, int64_t id);

struct unit_activation {
  unit_ref unit;
  float value = 0;  // silu(gate) * up
};
// The k units with the largest activation at `position`, over every layer (ties: lower layer, unit).
std::vector<unit_activation> forward_top_units(const forward_trace& t, int position, int k);

// What a unit writes back, as tokens: its down column d (H) through the final norm's multiplier
// g and the unembedding U (V, H): score(v) = U[v] . (g * d). The k highest scores, highest first.
// (The final norm's 1/RMS is left out: it scales every score alike and changes no ranking.)
struct token_score {
  int64_t id = 0;
  double score = 0;
};
std::vector<token_score> unit_writes_toward(const model_weights& w, int layer, int unit, int k);
// The same for several units in one pass over the unembedding (the rule book's ten: the table is
// read once, not ten times). A unit outside the model gets an empty list.
std::vector<std::vector<token_score>> units_write_toward(const model_weights& w, const std::vector<unit_ref>& units, int k);
