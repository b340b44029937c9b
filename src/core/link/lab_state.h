// The whole view state of the page: everything a shared link must reproduce.
// The URL fragment (url_state.h) is its serialised form; the panels read and write it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/language.h"
#include "core/lesson/hand_calc.h"
#include "core/link/mlp_part.h"

// The views, in the order of the page's buttons: one row each in views.inc.
enum lab_view {
#define VIEW(id, name, label, needs, text) id,
#include "core/link/views.inc"
#undef VIEW
  LAB_VIEW_COUNT
};
// The name each view has in links (view=NAME, path=; public: never renamed).
extern const char* const LAB_VIEW_NAMES[LAB_VIEW_COUNT];

// Ranges a link may set; values outside are clamped (and the page says so).
#define LAB_VALUE_LIMIT 100.0  // |x| and |weight| for the hand calculation
#define LAB_PROBE_MIN (-6.0)   // SiLU plot range, lesson 001: z in [-6, 6]
#define LAB_PROBE_MAX 6.0
#define LAB_HIDDEN_MIN 1
#define LAB_HIDDEN_MAX 65536
#define LAB_INTERMEDIATE_MIN 1
#define LAB_INTERMEDIATE_MAX 262144
#define LAB_LAYERS_MIN 1
#define LAB_LAYERS_MAX 1024
#define LAB_THRESHOLD_DEFAULT 0.1  // lessons 000/003: "clearly open" above +0.1, "negative" below -0.1
#define LAB_DELTA_LIMIT 100.0
#define LAB_TOKENS_MAX 4096
#define LAB_UNIT_MAX (1 << 20)
#define LAB_ZOOM_MAX 256.0
#define LAB_PATH_MAX 32  // views in a lesson path (path=)
enum lab_ui { LAB_UI_NORMAL, LAB_UI_PRESENT, LAB_UI_COUNT };
// What the gates view's histograms are computed on (in=): the lessons' recipe, layer 0's normalised
// embedding fed to every layer; or the residual stream each layer really reads in the whole model.
enum lab_gates_input { LAB_GATES_EMBED, LAB_GATES_STREAM, LAB_GATES_INPUT_COUNT };  // ui=present: a projector's larger type
#define LAB_TEXT_MAX 512      // bytes of a teacher's sentence in a link
#define LAB_TOKEN_ID_MAX ((1 << 24) - 1)
// The whole model's answers a teacher's link carries (ans=, core/views/class_answers.h): base64url
// characters. 8,192 keeps a class set of rule-book answers and leaves the link short enough for
// chat apps and, below about 2,900 bytes in all, for the link's QR code.
#define LAB_ANSWERS_MAX_CHARS 8192

struct lab_state {
  lab_view view;
  lab_lang lang;
  // Hand calculation (lesson 002)
  double x[HAND_IN];
  hand_weights w;
  int step;  // hand_step: 0 nothing computed .. 5 y computed
  // SiLU vs ReLU (lesson 001)
  double probe_z;
  bool show_sigmoid, show_gelu;
  // Parameter budget (lessons 001/003)
  int64_t hidden, intermediate, layers;
  // Real weights (lessons 000/003): which pack, which of its layers, and each live view's settings
  std::string pack;                  // "" = the embedded default; else a relative path or http(s) URL
  // A checkpoint read by byte ranges (docs/checkpoint.md): wins over pack when both are given.
  std::string model;                 // "" = none; hf:OWNER/NAME[@REV], an http(s) URL or a relative path
  std::vector<int64_t> ids;          // a teacher's sentence as the model's token ids; empty = the lesson's
  std::vector<int64_t> off;          // the whole model's units switched off: layer, unit, layer, unit, ...
  std::string text;                  // that sentence, for display (never parsed)
  std::string pieces;                // its tokens' texts, joined (sentence_pieces_join); "" = unknown
  std::vector<int64_t> pack_layers;  // the layers the histograms show; empty = every layer of the pack
  int64_t layer;                     // the per-token and weights views' layer; -1 = the pack's first
  int64_t probe;                     // which probe sentence
  double threshold;                  // |silu(gate)| line of the gate histograms
  int64_t hist_token;                // -1 all tokens, else one token's histogram
  int gates_input;                   // lab_gates_input
  std::vector<int64_t> perm;         // the shuffle; empty = the lesson's [5, 3, 1, 0, 2, 4]
  int64_t token;                     // "change one token": which one
  double delta;                      // ... by how much
  int64_t unit;                      // the weights view's intermediate unit
  int matrix;                        // mlp_part shown as a heatmap
  double heat_zoom, heat_cx, heat_cy; // the heatmap's zoom and centre (fractions of columns, rows)
  // The lesson around the views. Answers are never part of the state: only which
  // question is open. A path is the teacher's order of views; lock keeps a student on it.
  int quiz;                          // quiz_id shown first on the quiz view
  std::vector<int64_t> path;         // lab_view values; empty = no lesson path
  int path_at;                       // the place on the path the student is at, or left it from (at=); -1: the view's first
  int lock;                          // 1: no view buttons, no pack change (an "explore freely" button unlocks)
  int ui;                            // lab_ui
  // The whole model's answers computed on the teacher's page (ans=), as the link carries them:
  // base64url, decoded by core/views/class_answers.h when a view needs them. "" = none.
  std::string answers;
};

// The lesson's example: x = [1, 2], lesson 002's weights, every step shown, probe at z = -1,
// Qwen3.5-0.8B's 1024 / 3584 / 24.
lab_state lab_state_default();
// The token a view picks by `tok`: the link's, or the view's own when it leaves it (-1): the
// per-token view changes the lesson's token 2 ("change token 2", lesson 000).
#define LAB_CHANGED_TOKEN 2
int64_t lab_changed_token(const lab_state& s);

bool lab_state_equal(const lab_state& a, const lab_state& b);

// A lesson path (path=): where the current view stands in it, -1 when the path is empty or does
// not hold the view. A path may name a view twice (hand,silu,hand,quiz): the place is path_at
// (at= in the link) when it holds the view, else the view's first place.
int lab_path_index(const lab_state& s);
// Moves to the previous (-1) or next (+1) place of the path. From a view off the path (a quiz's
// "open that view" button), both return to the place the student left (path_at), or Next goes
// to the path's start when there is none. Returns false when there is nowhere to go.
bool lab_path_step(lab_state* s, int direction);
// After any change of view: path_at follows the view while it is on the path, and keeps the
// place it left while it is off (so Previous / Next can return there); a place the path does not
// have (a link's at= past its end, or no path) becomes -1.
void lab_path_follow(lab_state* s);

// The lessons' own reading order, as a path: lecture 002's hand calculation first, then lesson
// 001's SiLU, parameter budget and exercise on what each layer's MLP adds, chapter 4's real weights
// (000/003: the gate fractions, the per-token experiments, the weights), lesson 003's rule book of
// one unit, and last the questions of 001 and 000/003. (The whole model's views open on the
// built-in model's precomputed numbers, so a phone on the path does not wait for it.)
// hand,silu,budget,flow,gates,perm,weights,rules,quiz
extern const lab_view LAB_LESSON_ORDER[];
extern const int LAB_LESSON_ORDER_COUNT;
// "Start the lesson": the state follows that path from its first view, the hand calculation at
// its start (step 0, nothing computed yet); the other settings stay.
void lab_lesson_start(lab_state* s);
