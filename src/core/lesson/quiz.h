// The lesson's questions with checked answers (view=quiz). Three kinds, each with a pure checker:
//   choice     lesson 001's quiz (what ⊙ is, how big one MLP's write is, why the MLP is large) and
//              the yes/no thinking questions of lessons 000/003 (non-linear without silu? is a
//              whole layer per token?);
//   number     typed, checked with a tolerance: MLP bytes per generated token in bf16 and int8,
//              derived from the budget's counts (model_budget.h), and the live questions whose
//              answer is computed from the loaded weights (share of open units, the shuffle's
//              largest difference): the caller passes the computed value;
//   positions  a set of token positions (which outputs change when token k changes), also
//              computed from the weights by the caller.
// `quiz=NAME` in a link opens a question; answers never go into a link, only into this browser's
// storage (quiz_progress_encode).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/link/lab_state.h"
#include "core/base/strings.h"

enum quiz_id {
  QUIZ_ODOT,         // lesson 001, question 1
  QUIZ_WRITE_SIZE,   // lesson 001, question 2
  QUIZ_LARGEST,      // lesson 001, question 3
  QUIZ_BF16_LAYER,   // lessons 000/003, thinking question 1: one layer, bf16, MB
  QUIZ_BF16_ALL,     // ... all 24 layers, MB
  QUIZ_INT8_LAYER,   // ... one layer, int8 (with its per-row scales), MB
  QUIZ_BILINEAR,     // thinking question 2
  QUIZ_WHOLE_LAYER,  // thinking question 3
  QUIZ_OPEN_SHARE,   // live: percent of a layer's units open at the threshold shown
  QUIZ_SHUFFLE,      // live: the largest difference after a shuffle
  QUIZ_CHANGE,       // live: which positions change when token k changes
  QUIZ_FLOW,         // live, the whole model: the layer whose MLP adds the most (view=flow)
  QUIZ_COUNT
};

enum quiz_kind { QUIZ_KIND_CHOICE, QUIZ_KIND_NUMBER, QUIZ_KIND_POSITIONS };

#define QUIZ_OPTIONS_MAX 3

struct quiz_question {
  quiz_id id;
  quiz_kind kind;
  str_id prompt;        // may be a format: see quiz_prompt
  int option_count;     // choice: how many of `options` are used
  str_id options[QUIZ_OPTIONS_MAX];
  int right_option;     // choice: index into options
  double tolerance;     // number: accepted |typed - expected|
  bool live;            // the answer comes from the loaded weights (the caller computes it)
  lab_view source;      // live: the view that computes it (and loads the pack)
  str_id explanation;   // shown after an answer, right or wrong; may be a format
};

// In link order: quiz=NAME (public: never renamed). Index = quiz_id.
extern const char* const QUIZ_NAMES[QUIZ_COUNT];
extern const quiz_question QUIZ[QUIZ_COUNT];

// Tolerances, named: a student who rounds the lesson's way (22 MB, 528 MB, 11 MB) is right.
#define QUIZ_MB_TOLERANCE_LAYER 0.5     // MB, one layer
#define QUIZ_MB_TOLERANCE_ALL 12.0      // MB, 24 layers (22.02 x 24 = 528.48; "528" or "530" are right)
#define QUIZ_PERCENT_TOLERANCE 1.0      // percentage points: the "within 1 point"
#define QUIZ_EXACT_TOLERANCE 1e-9       // the shuffle's difference is exactly 0

enum quiz_verdict {
  QUIZ_UNANSWERED,
  QUIZ_RIGHT,
  QUIZ_WRONG,
  QUIZ_UNREADABLE,   // typed text is not a number (or a list of positions): say how to write it
  QUIZ_NOT_READY,    // live: the computed answer is not available yet
};

// [SECTION] the checkers: pure functions
quiz_verdict quiz_check_choice(const quiz_question& q, int chosen);
// A plain decimal ("22", "22.02", "-1e-3"); spaces, a trailing unit ("MB", "%") and thousands
// commas ("528,000,000" is not MB and so is wrong, but readable) are tolerated.
bool quiz_parse_number(const std::string& typed, double* out);
quiz_verdict quiz_check_number(const std::string& typed, double expected, double tolerance);
// Whole numbers >= 0 separated by commas and/or spaces ("2", "2, 3", "2 3"); order and
// repeats do not matter: the set is compared.
bool quiz_parse_positions(const std::string& typed, std::vector<int64_t>* out);
quiz_verdict quiz_check_positions(const std::string& typed, const std::vector<int64_t>& expected);

// What the live questions are checked against, computed by the caller from the loaded weights
// (the gate histograms' share, the per-token view's results). `ready` false: not computed yet.
struct quiz_live_answers {
  int64_t open_layer = -1;           // the layer the share was computed for (-1: not known yet)
  bool open_ready = false;
  double open_percent = 0;           // QUIZ_OPEN_SHARE: percent of silu(gate) > thr, 0..100
  bool shuffle_ready = false;
  double shuffle_max_diff = 0;       // QUIZ_SHUFFLE
  bool change_ready = false;
  std::vector<int64_t> changed;      // QUIZ_CHANGE: positions whose output moved
  bool flow_ready = false;           // QUIZ_FLOW, from the whole model's last answer:
  std::string flow_prompt, flow_token;  // its prompt and the token the ratios were read at,
  std::string flow_off;                 // the units it had switched off ("" for none),
  int64_t flow_largest = -1, flow_smallest = -1;  // the layers of the largest and smallest non-empty ratio
  double flow_largest_ratio = 0, flow_smallest_ratio = 0;
};

// The expected number of a table question (MB, from model_budget.h's counts for Qwen3.5-0.8B),
// or of a live one (from `live`); false when a live value is not ready or q is not a number.
bool quiz_expected_number(quiz_id q, const quiz_live_answers& live, double* out);

// One answer as the page holds it: the option picked, or the text typed.
struct quiz_answer {
  int chosen = -1;
  std::string typed;
};
quiz_verdict quiz_check(quiz_id q, const quiz_answer& answer, const quiz_live_answers& live);

// The question's prompt and its explanation, filled in for the state shown (layer, threshold,
// token k) and, for the explanation, the expected value; in the current language.
std::string quiz_prompt(quiz_id q, const lab_state& state, const quiz_live_answers& live);
std::string quiz_explanation(quiz_id q, const lab_state& state, const quiz_live_answers& live);

// [SECTION] progress: this browser's own record (localStorage), never the link
struct quiz_progress {
  quiz_verdict verdict[QUIZ_COUNT];  // the last checked answer of each question
};
quiz_progress quiz_progress_empty();
// "odot=r,bf16=w": names with r (right) or w (wrong); unanswered questions are left out.
std::string quiz_progress_encode(const quiz_progress& p);
// Unknown names and values are skipped (storage written by another version).
quiz_progress quiz_progress_decode(const std::string& text);
int quiz_progress_right(const quiz_progress& p);
// "8 of 11 answered right in this browser" (in the current language): the panel and the mirror.
std::string quiz_progress_text(const quiz_progress& p);
