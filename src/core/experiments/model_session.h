// The whole-model views' way through the data: the state names a model (model= or the
// built-in synthetic one) and a prompt; the session opens that model in the platform's
// model_service (the page's worker, or in-process), asks the question the state means once the
// model is ready, and keeps the newest answer for the panels and the mirror. Once a frame, never
// waiting: the service answers later.
#pragma once

#include <cstdint>
#include <string>

#include "core/experiments/live_fallback.h"
#include "core/link/lab_state.h"
#include "core/views/class_answers.h"
#include "core/base/progress_pace.h"
#include "core/model/model_service.h"

// The built-in whole model, beside the page (make_checkpoint --whole planted, cmake/native.cmake).
#define MODEL_DEFAULT_LOCATION "models/synthetic/"
// The prompt of lesson 003 when a link names none (the model's own tokenizer.json splits it).
#define MODEL_LESSON_PROMPT "中国的首都是"

// Plain data, a member of the page's live_session: everything of one opened model lives here and
// goes with it when another model opens (`generation` counts the opens).
// The answers a link carries (ans=): what a student's page shows without the model, and, once the
// reader asks for the model ("Check them yourself"), each compared with what the model computes.
struct carried_link {
  std::string text;               // the ans= they were read from
  class_answers answers;          // none: the link carries none, or they were refused
  answers_refusal refusal;        // why ans= was refused: said once in the notice
  bool shown = false;             // this frame's answer is a carried one (the model is not open)
  bool full = false;              // the teacher's last "add" did not fit (CLASS_ANSWERS_MAX, or the link's length)
  // The check against the model, once the reader asked for it: the carried answers asked in turn
  // once the model is ready, the model's replies kept beside them (the views compare the two as printed).
  bool check = false;
  uint32_t check_pending = 0;            // the next one's question's id
  std::vector<model_reply> check_replies;
};

struct model_session {
  model_service* service = nullptr;
  carried_link carried;
  bool use_model = false;    // the model itself is asked: the page opened it, or the reader asked to check
  std::string location;      // what the service was opened with
  uint32_t generation = 0;   // the service's open that `status` and `reply` belong to
  uint64_t status_seen = 0;  // the service's status change last read (model_status_changes)
  model_status status;       // the newest, as of this frame (its progress at most every LAB_PROGRESS_EVERY_S)
  progress_pace status_pace; // when `status` was last taken
  model_question asked;      // the question of `pending` or of `reply`
  uint32_t pending = 0;      // asked, not answered yet
  int not_ready_replies = 0; // answers "not ready" to this open (the status said ready too early): asked again, a few times
  bool have_reply = false;   // `reply` answers `asked`
  model_reply reply;
  // The built-in model's answers to the lessons' first questions, computed when the site was built
  // (precomputed_answers.h): while the model has no answer to the state's question, `reply` is
  // one of them, marked (precomputed_shown), and the model is asked all the same.
  class_answers precomputed;
  bool precomputed_shown = false;
  // The model's own words (its name, the prompt, the tokens it names) the fonts were asked for:
  // once per model and per reply (the page's fonts hold only the string table's characters).
  std::string fonts_name;
  uint32_t fonts_reply = 0;
  bool fonts_reply_pending = false;  // asked for a first answer whose units' lists were still to come
};

// The model a state names: its model= when set, else the built-in one.
std::string model_session_location(const lab_state& s);
// The session is on the built-in synthetic model (no model=, or model= naming it).
bool model_session_builtin(const model_session& ms);
// The question a state means, on a model of `layers` layers: the link's ids (or its text, or the
// lesson's prompt) and its off=; the flow and the rule book's units read the token `tok` picks
// (the last by default), the rule book its picked unit (layer=, unit=); the gates view on the
// stream (in=stream) the counts of its layers.
model_question model_session_question(const lab_state& s, int layers);
// The layers the gates view shows on the stream: the link's pl= (those the model has, at most
// LIVE_MAX_HIST_LAYERS), else every layer when they fit, else the first, middle and last.
std::vector<int> model_session_gate_layers(const lab_state& s, int layers);
// Opens the model the state names (again when that changes), reads the status, asks the state's
// question once the model is ready and collects its answer. A change of the status that is only
// the download's progress shows at most every LAB_PROGRESS_EVERY_S.
void model_session_frame(model_session* ms, const lab_state& s, model_service* service, double now);
// A student's page: the link's answers (ans=, for its model=) shown in place of the model, until the
// reader asks for the model; false when the link carries none (or they were refused). What
// model_session_frame does first; the early text (src/early/) does only this.
bool model_session_show_carried(model_session* ms, const lab_state& s);
// The early text of a whole-model view on the built-in model: the session as the page's first frame
// has it (nothing of the model in yet) with the precomputed answer to the state's question shown;
// false when `precomputed` has none.
bool model_session_show_precomputed(model_session* ms, const lab_state& s);
// There is a session to show: the model is open, or the link's answers are shown without it.
bool model_session_active(const model_session& ms);
// The reader asks for the model itself: the carried answers are then checked against it.
void model_session_use_model(model_session* ms);
// The current answer (of the model, not carried) added to the link's answers (ans=), replacing
// one to the same question; false when the link holds CLASS_ANSWERS_MAX already (or its text
// would be too long), and *s unchanged.
bool model_session_add_to_link(const model_session& ms, lab_state* s);
// The text the fonts still need for this session's model and reply ("" when they have it), marked as asked.
std::string model_session_fonts_text(model_session* ms);
// The link's values this model does not have, once its size is known: token ids outside its
// vocabulary (ids: the lesson's sentence instead), switched-off units outside it or named twice
// (off), a picked layer or unit outside it (layer, unit: none picked), a token outside the prompt
// (tok: the last). Each names its key, the value and what is shown (live_fallback_text words it).
bool model_unit_inside(const model_status& st, int64_t layer, int64_t unit);
std::vector<live_fallback> model_session_fallbacks(const model_session& ms, const lab_state& s);
// The state as shown after those fallbacks.
void model_session_apply_fallbacks(lab_state* s, const std::vector<live_fallback>& fallbacks, const model_session& ms);
// A part of the weights failed (a chunk answered 500, a stall, NaN): the rest still loads, then
// the load waits for Retry, which fetches only what is missing.
bool model_status_chunk_failed(const model_status& st);
// The load stopped: cancelled, or a part failed and nothing else is coming (Retry moves it on).
bool model_status_stopped(const model_status& st);
// The model the state names (model=, not the built-in one) could not be opened or loaded: the
// bare address then reopens the view on the built-in model, never this one.
bool model_session_failed(const model_session& ms, const lab_state& s);
// The reply answers the state's question as it is now (a newer one may be on its way).
bool model_session_current(const model_session& ms, const lab_state& s);
