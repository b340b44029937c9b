// The whole model as the page's model worker runs it (platform/web/model_worker.cpp), and as the
// tests and the CLI run it in-process: a model_loader for the location it is told to open, the
// model's own tokenizer.json (when it has one) for a prompt given as text and every token's
// piece, and the answers to the views' questions (model_protocol.h).
//
// Answers reuse what they can: a prompt's run without units off is kept, so switching units off
// reruns from the first switched-off layer only, and picking a unit, a token or a threshold
// reruns nothing; what a unit writes toward is computed once per unit.
// Links against the core's tokenizer (core/tokenizer/: PCRE2, utf8proc), so it is not in
// swiglu_core: the worker's module and the native targets that need it add model_host.cpp.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/model/model_loader.h"
#include "core/model/model_protocol.h"
#include "core/tokenizer/bpe_tokenizer.h"

#define MODEL_TOKENIZER_FILE "tokenizer.json"
#define MODEL_TOKENIZER_MAX_BYTES (64u << 20)  // Qwen3's is 11 MB, Qwen3.5's about 12 MB
// Above this many multiply-adds (the units' down columns against the whole unembedding) the page's
// worker sends the next tokens first and the units' lists after: Qwen3.5-0.8B's ten units cost
// 2.5e9 (about 0.45 s in the worker), the built-in model's 0.3e6 (answered whole at once).
#define MODEL_TOWARD_SPLIT_MACS (1ull << 26)

struct model_host final : fetch_sink {
  explicit model_host(fetch_client* client, model_loader_options options = {});
  ~model_host() override;

  // Opens the model at `location` (model_location.h's forms), closing any other. Same location: nothing.
  void open(const std::string& location, double now);
  void go();
  void cancel();
  void retry(double now);
  void pump(double now);
  model_status status() const;
  bool ready() const { return loader_ && loader_->phase() == MODEL_READY && !tokenizer_pending_; }
  bool converting() const { return loader_ && loader_->converting(); }  // bytes in, waiting for their slices
  // Runs what the question needs (the model must be ready; otherwise the reply's error says so).
  // What the units write toward, where it is not known yet and would cost more than
  // `split_above_macs` multiply-adds, is left out (toward_pending): the same question asked again
  // without the bound then computes just that (the page's worker: MODEL_TOWARD_SPLIT_MACS).
  model_reply answer(const model_question& q, uint64_t split_above_macs = UINT64_MAX);
  const model_weights* weights() const { return loader_ ? &loader_->weights() : nullptr; }

  // [SECTION] fetch_sink: tokenizer.json
  void on_fetch_progress(uint32_t, uint64_t, double) override {}
  void on_fetch_response(uint32_t id, const fetch_response& r, double now) override;
  void on_store_failed(const std::string&) override {}

 private:
  token_text token(int64_t id) const;
  std::vector<token_text> tokens(const std::vector<token_score>& v) const;
  const std::vector<token_text>& toward(const unit_ref& u);
  bool prompt_ids(const model_question& q, std::vector<int64_t>* ids, std::vector<std::string>* pieces, stream_error* e);
  void gate_counts(const model_question& q, const forward_trace& run, model_reply* r);

  fetch_client* client_;
  model_loader_options options_;
  std::string location_;
  model_location where_;
  std::unique_ptr<model_loader> loader_;
  stream_error open_error_;  // the location itself could not be read
  // The tokenizer.json request: pending until its answer (a 404 means the model has none).
  uint32_t tokenizer_request_ = 0;
  bool tokenizer_pending_ = false;
  std::unique_ptr<bpe_tokenizer> tokenizer_;
  stream_error tokenizer_error_;  // why there is none (STREAM_NEEDS_IDS and the reason), once its answer came
  // Kept between answers.
  forward_trace base_, off_run_;
  bool has_base_ = false;
  std::map<unit_ref, std::vector<token_text>> toward_;
  std::vector<int64_t> shortcut_ids_;
  std::vector<std::vector<float>> shortcut_silu_;  // [layer] (T, F) on the lessons' shortcut input
};
