// What the page asks the whole model and what it answers (issue 23), as plain data and as the
// JSON that crosses from the page to its model worker and back. The views (rule book, flow, the
// gates view's in=stream) ask a model_question; the worker's model_host answers a model_reply and
// reports its model_status as it loads. Both sides read and write JSON with the core's code, so
// the native tests run the very messages the page sends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/forward.h"
#include "core/pack/mlp_experiments.h"
#include "core/stream/stream_error.h"

enum { MODEL_TOP_TOKENS = 10, MODEL_TOP_UNITS = 10, MODEL_TOWARD_TOKENS = 8, MODEL_RISING_TOKENS = 5 };

struct model_question {
  uint32_t id = 0;
  std::vector<int64_t> ids;       // the prompt as token ids (wins when set), or
  std::string text;               // as text, split by the model's own tokenizer.json
  std::vector<unit_ref> off;      // switched off: every probability is given before and after
  int position = -1;              // the token whose units and flow are read (-1: the last)
  unit_ref unit{-1, -1};          // a picked unit: its activation per token, what it writes toward
  std::vector<int> gate_layers;   // in=stream: these layers' gate counts (empty: none)
  double threshold = 0.1;
  int gate_token = -1;            // the histograms' one token, or -1 for all
  bool operator==(const model_question& o) const;  // everything but the id
};

struct token_text {
  int64_t id = 0;
  std::string piece;  // the token's own text ("" when the model has no tokenizer.json)
};

struct model_next_token {
  token_text token;
  double p = 0;       // P(next) of the run as asked (with the units off, when there are)
  double p_before = 0;  // with no unit off
};

struct model_unit_row {
  unit_ref unit;
  float value = 0;                 // silu(gate) * up at the position
  std::vector<token_text> toward;  // its down column's top tokens (unit_writes_toward)
};

struct model_layer_flow {
  float mlp_l2 = 0, out_l2 = 0;    // at the position, in the run as asked
};

struct model_reply {
  uint32_t id = 0;
  stream_error error;                        // why there is no answer (the prompt's ids, the tokenizer)
  std::vector<token_text> prompt;            // what was computed
  int position = 0;                          // resolved
  std::vector<model_next_token> top;         // the most likely next tokens of the run as asked
  std::vector<model_next_token> before_top;  // with units off: the top of the run without
  std::vector<model_next_token> rising;      // with units off: those whose P rose most
  std::vector<model_unit_row> units;         // the most active units at the position (no unit off)
  model_unit_row picked;                     // the picked unit (unit.layer -1: none)
  std::vector<float> picked_per_token;       // its activation at every token: silu(gate) * up,
  std::vector<float> picked_gate, picked_up;  // and its two factors (its condition)
  std::vector<model_layer_flow> flow;        // per layer, the run as asked
  std::vector<int> gate_layers;
  std::vector<mlp_gate_counts> gates_stream;    // per gate layer: silu(gate) on what the layer sees
  std::vector<mlp_gate_counts> gates_shortcut;  // the lessons' recipe on the same model
  // The host's own time for the runs this answer computed (0: kept from an earlier answer), for
  // tools/bench/model_page.mjs: the prompt's forward pass, and the rerun with the units off.
  double forward_ms = 0, switch_off_ms = 0;
};

enum model_status_phase { MODEL_STATUS_IDLE, MODEL_STATUS_OPENING, MODEL_STATUS_ASKING, MODEL_STATUS_LOADING,
                          MODEL_STATUS_READY, MODEL_STATUS_FAILED };

struct model_status_file {
  std::string file;
  uint64_t loaded = 0, total = 0;
  bool failed = false;
};

struct model_status {
  std::string location;                // as opened
  uint32_t generation = 0;             // the page's open it answers (a status of an earlier open is not this model's)
  model_status_phase phase = MODEL_STATUS_IDLE;
  std::string name;                    // "_name_or_path", or the location
  bool synthetic = false;
  int layers = 0, linear_layers = 0, hidden = 0, intermediate = 0, vocab = 0;
  bool tokenizer = false;              // the model has a tokenizer.json the worker read
  uint64_t download_bytes = 0, cached_bytes = 0, memory_bytes = 0;
  uint64_t bytes_network = 0;
  std::vector<model_status_file> files;
  bool paused = false;                 // cancelled: Retry fetches what is missing
  std::string failed_file;             // the failure (phase FAILED), or a chunk's
  stream_error error;
  std::string storage_notice;          // the cache refused to keep something: "quota" or "unavailable"
};

// [SECTION] JSON (cJSON both ways; the parsers take hostile input: missing or odd fields read as
// absent, sizes are bounded)
std::string model_question_json(const model_question& q);
bool model_question_parse(const std::string& json, model_question* out);
std::string model_reply_json(const model_reply& r);
bool model_reply_parse(const std::string& json, model_reply* out);
std::string model_status_json(const model_status& s);
bool model_status_parse(const std::string& json, model_status* out);
