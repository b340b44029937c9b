// The live views' words and rows, built once from the session's results for the panels and the
// text mirror alike: the source line (model, dims, real or synthetic), the probe, the loading and
// failure lines (the faults in words: fault_text.h), and each live view's mirror text with
// its takeaway. Nothing here computes on weights: core/experiments/ does, from the frame.
#pragma once

#include <string>
#include <vector>

#include "core/views/fault_text.h"
#include "core/views/gates_text.h"
#include "core/link/lab_state.h"
#include "core/experiments/live_session.h"
#include "core/lesson/quiz.h"

// A token's text for chips and the mirror: its piece when the source has one, else "#id".
std::string live_token_text(const source_model& m, int probe, int token);
// True when a token of the probe is part of a character split across tokens (its piece shows the
// bytes, "<e5 85>", bpe_decode_piece): the header then says what that means (STR_LIVE_SPLIT_BYTES).
bool live_probe_has_split_bytes(const source_model& m, int probe);
// The probe sentence as the header shows it: its label, or (a link with ids= and no text=) what
// is computed: its pieces joined, else the ids ("#5 #3 #7").
std::string live_probe_label(const source_model& m, int probe);
// "Pack: Qwen/Qwen3.5-0.8B (real weights), hidden 1024, intermediate 3584, layers 0, 11, 23 of 24"
// and what came from the network: as the session paces it for the page when `ls` is given
// (live_session.h: shown_fetched), else the source's own count.
std::string live_source_info(const layer_source* src, const live_session* ls = nullptr);
// Loading, cancelled and error lines, as the header shows them; the bytes loaded as the session
// paces them when `ls` is given (shown_loaded), else the source's own.
std::vector<std::string> live_status_lines(const layer_source* src, const live_session* ls = nullptr);
// The per-token and weights views' line while their layer is not whole: loading it, cancelled
// (Load it) or failed (Retry), as the header's status says; `loading` whether a progress bar belongs.
std::string live_needs_whole_text(const layer_source* src, int layer, bool* loading = nullptr);
// Whether something the view needs failed (a cancel is no failure): the header's Retry matters.
bool live_source_has_failure(const layer_source* src);
// A link value that did not fit, as a notice.
std::string live_fallback_text(const live_fallback& f);

// The histograms of the layers the gates view shows.
std::vector<gate_row> live_gate_rows(live_session* ls, const lab_state& s, const live_choice& c);
// Their words and SVG (live_gate_summary, gates_rows_text) are in gates_text.h, shared with the early text.

// The mirror of each live view (the view table names them); the header lines come first.
std::string live_header_text(live_session* ls, const live_choice& c, const lab_state& s);
std::string gates_view_text(const lab_state& s, live_session* ls, const live_choice& c);
std::string perm_view_text(const lab_state& s, live_session* ls, const live_choice& c);
std::string weights_view_text(const lab_state& s, live_session* ls, const live_choice& c);
// The whole model's views (view=rules, view=flow): their rows and text are core/views/model_view.h's.
std::string rules_view_text(const lab_state& s, live_session* ls, const live_choice& c);
std::string flow_view_text(const lab_state& s, live_session* ls, const live_choice& c);

// [SECTION] the per-token view's rows, panel and mirror alike
// True once the experiments ran on the layer and probe shown (else: "needs the whole layer").
bool perm_results_shown(live_session* ls, const live_choice& c);
// "max |MLP(x[perm]) - MLP(x)[perm]| = exactly 0"
std::string perm_result_text(live_session* ls);
// A row per position after adding delta to token k: "3 Paris", the largest change of its output
// ("0" when exactly unchanged), a bar scaled to the largest, token k marked.
std::vector<view_row> perm_change_rows(live_session* ls, const live_choice& c);
// "Only token 3 moved: ..." when it alone moved, else "".
std::string perm_only_k_text(live_session* ls, const live_choice& c);

// [SECTION] the weights view's rows, panel and mirror alike
// "W_gate (3584 x 1024)": the matrix and its shape (rows x columns).
std::string weights_matrix_text(const source_model& m, mlp_part part);
// "unit 7"
std::string weights_unit_text(const live_choice& c);
// "zoom ×2"
std::string weights_zoom_text(const lab_state& s);
// The unit's silu(gate) on each probe token, coloured by the histograms' threshold; no cells
// until the layer's gate values are computed here.
view_row weights_silu_row(const lab_state& s, live_session* ls, const live_choice& c);

// The quiz's live questions' answers (core/lesson/quiz.h), from the results the session already holds:
// the gate histograms' first shown layer that has its counts, the per-token experiments. Not
// ready until a live view made them. The quiz panel and its mirror both ask here.
quiz_live_answers quiz_live_from(const lab_state& s, live_session* ls);
// The quiz on its flow question asks the whole model itself, so the link alone answers it: true,
// with the flow view's question for the link's prompt, `tok` and `off` in *asked.
inline bool quiz_asks_whole_model(const lab_state& s, lab_state* asked) {
  if (s.view != LAB_VIEW_QUIZ || s.quiz != QUIZ_FLOW) return false;
  *asked = s;
  asked->view = LAB_VIEW_FLOW;
  return true;
}
// Under that question until its answer is in: the whole model's status lines (opening, loading,
// or why it failed), on screen and in the mirror; before the page runs (no session), "Opening".
std::vector<std::string> quiz_model_lines(const lab_state& s, const live_session* ls);

// [SECTION] typing a sentence: why the checkpoint's tokenizer gave no ids, in the current language
// ("the checkpoint has no tokenizer.json", "its tokenizer.json cannot be read: ...").
#include "core/checkpoint_remote/sentence_tokenizer.h"
std::string sentence_failure_text(const sentence_tokenizer& t);
// The typed sentence's line for the header and the mirror while it is being tokenized or failed.
std::string sentence_status_line(const live_session* ls);
