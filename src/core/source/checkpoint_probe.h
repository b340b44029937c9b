// The probe sentence of a checkpoint the MLP views read by ranges, and its input to each layer's
// MLP (the lessons' recipe, exactly as the converter computes it: pack_probe_input on the
// embedding rows of the token ids and layer 0's post_attention_layernorm).
//
// Which sentence: the teacher's (the link's ids= and text=); else, for the synthetic checkpoint,
// the default pack's (ids 1..6); else the lesson's sentence, which the caller gives as data,
// through the checkpoint's own tokenizer.json (sentence_tokenizer.h). Why there is none is data
// too (STREAM_NEEDS_IDS with a reason, or the fault fetching tokenizer.json), worded by the page.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint/model_config.h"
#include "core/checkpoint_remote/sentence_tokenizer.h"
#include "core/source/layer_source.h"

enum probe_state { PROBE_WAITING, PROBE_READY, PROBE_FAILED };

// The probe a synthetic checkpoint gets by default: the default pack's (ids 1..6).
source_probe checkpoint_default_synthetic_probe();

struct checkpoint_probe {
  std::vector<source_probe> probes;
  std::map<int64_t, std::vector<float>> embed_rows;  // token id -> (hidden) f32
  std::vector<float> norm;                           // layer 0's post_attention_layernorm, (hidden)
  std::vector<std::vector<float>> inputs;            // [probe] (T, hidden), once computed

  // Picks the sentence for a model of config c. WAITING while its tokenizer works (call again
  // next frame); FAILED with *failure (file, URL, fault) when there is none or an id is outside
  // the vocabulary.
  probe_state choose(fetch_client* client, tokenizer_service* tokenizer, const model_location& where,
                     const std::vector<source_probe>& given, const std::string& lesson_sentence, const model_config& c,
                     source_failure* failure);
  // Runs of consecutive token ids over every probe (first id, count): one range each.
  std::vector<std::pair<int64_t, int>> id_runs() const;
  // The bytes its rows, norm and inputs take for this hidden size (checked against the page's
  // budget before any is fetched).
  uint64_t bytes(int64_t hidden) const;
  // The inputs of every probe whose rows and the norm are in.
  void compute_inputs(const model_config& c);
  // The embedding rows and norm came from a file that changed: fetched again.
  void drop_rows();

 private:
  std::unique_ptr<sentence_tokenizer> sentence_;
};
