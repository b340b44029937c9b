// The live views' one way through the data: the state names a source of weights, the view says
// what it needs, the source brings verified bytes, the lesson's modules compute from them, and
// the panels and the mirror read the results. live_session_frame runs that walk once a frame.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint_remote/sentence_tokenizer.h"
#include "core/link/lab_state.h"
#include "core/base/progress_pace.h"
#include "core/experiments/gate_activity.h"
#include "core/experiments/model_session.h"
#include "core/experiments/precomputed_answers.h"
#include "core/experiments/token_experiments.h"
#include "core/experiments/unit_weights.h"
#include "core/source/layer_source.h"
#include "core/stream/fetch_seam.h"

#define LIVE_DEFAULT_PACK "packs/default/"  // the embedded default, beside the page
enum { LIVE_MAX_HIST_LAYERS = 6 };          // side by side; more would be unreadable on a phone

// Which of the lesson's results a view shows (a column of the view table, flags). The source is
// asked for exactly what those need.
enum live_needs {
  LIVE_NEEDS_NOTHING = 0,
  LIVE_GATE_HISTOGRAMS = 1,    // gate_activity on the layers shown (pl=): their gate matrices
  LIVE_TOKEN_EXPERIMENTS = 2,  // token_experiments on the chosen layer (layer=): the layer whole
  LIVE_UNIT_RULE = 4,          // unit_weights and the unit's silu(gate) on the chosen layer: the layer whole
  LIVE_WHOLE_MODEL = 8,        // the whole model's forward pass (model_session.h), not the MLP source
};


// The state's choices made concrete for this source (a link may name layers it does not have).
struct live_choice {
  bool ready = false;         // the source is open
  std::vector<int> layers;    // model layer numbers the histograms show
  int layer = -1;             // the per-token / weights views' layer (model number)
  int probe = 0, tokens = 0;  // probe index and its token count
  std::vector<int> perm;      // a valid permutation of the probe's tokens
  int token = 0;              // the changed token
  int hist_token = -1;        // the histograms' one token, or -1
  int unit = 0;               // the weights view's unit
  std::vector<live_fallback> fallbacks;
};

struct live_session {
  std::string location;  // what `source` was opened with
  std::unique_ptr<layer_source> source;
  gate_activity gates;
  token_experiments tokens;
  unit_weights unit;
  bool fonts_asked = false;  // the source's own text was handed to the platform's fonts
  int needs = 0;             // what the current view needs (LIVE_*), as the last frame said
  std::string cache_note;    // the weight cache's Clear button's confirmation, until the next source
  progress_pace cache_shown; // the bytes the Clear button names while the caches fill
  // The source's bytes loaded and fetched as the header and the mirror show them while they move
  // (each new figure is a redraw: progress_pace.h).
  progress_pace shown_loaded, shown_fetched;
  tokenizer_service* tokenizer = nullptr;  // the platform's, for a model= link without ids=
  // The sentence typed in the header (ui/sentence_box.cpp), for the checkpoint `typing_model` names.
  std::unique_ptr<sentence_tokenizer> typing;
  std::string typing_model;
  // The whole model's views' session (view=rules, view=flow, gates in=stream:
  // core/experiments/model_session.h); its service is null until a whole-model view opened one.
  model_session model;
  precomputed_fetch precomputed;  // the built-in model's answers computed with the site, for `model`
  std::string sentence_note;  // what the typed sentence changed ("token 0 is now the one changed"), until the next one
};

// Which source a state names, as a key that changes exactly when another must open
// (source_choice_for: model= over pack=, "packs/default/" when the link names neither).
std::string live_location(const lab_state& s);
live_choice live_resolve(const lab_state& s, const layer_source* src);
// Opens the source the state names (again when the link names another), resolves the choice,
// tells the source what the view needs, pumps it, and brings the results up to date.
live_choice live_session_frame(live_session* ls, const lab_state& s, int needs, fetch_client* client, double now,
                               double stall_seconds = 20.0);
// Closes the source (its requests are cancelled) and forgets every result.
void live_session_close(live_session* ls);
// Rewrites the state's values that did not fit (c.fallbacks) to what is shown, so the link says
// what the page shows.
void live_apply_fallbacks(lab_state* s, const live_choice& c);
// "Use the built-in weights": no model=, no pack= (and no ids= of that model's vocabulary); every
// other setting stays. The way back from a model or pack that fails to open.
void live_use_builtin(lab_state* s);
// True when the source the state names has failed to open (the bare address must not reopen it).
bool live_source_failed(const live_session& ls, const lab_state& s);

// The user picked another sentence (typed, or another probe of the pack) of `tokens` tokens: the
// values that depend on its length follow it quietly (the lesson's shuffle, every token's
// histogram, the changed token at most its last). True when the changed token had to move.
bool live_fit_sentence(lab_state* s, int tokens);
