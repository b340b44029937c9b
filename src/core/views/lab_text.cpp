// Text mirror (see lab_text.h).
#include "core/views/lab_text.h"

#include "core/lesson/activations.h"
#include "core/lesson/glossary.h"
#include "core/lesson/model_budget.h"
#include "core/lesson/quiz.h"
#include "core/lesson/hand_calc.h"
#include "core/lesson/hand_explain.h"
#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/lesson/param_budget.h"
#include "core/base/strings.h"
#include "core/views/view_table.h"

// "Values:" in English, "数值：" in Chinese: the mirror's punctuation follows its language.
static std::string list_head(str_id name) { return strf(tr(STR_MIRROR_LIST), tr(name)) + "\n"; }
static std::string view_head(str_id view) { return std::string(tr(view)) + tr(STR_SENTENCE_END) + "\n"; }

std::string lab_silu_minimum_text() {
  const act_extremum m = act_silu_minimum();
  return std::string(tr(STR_SILU_MIN)) + ": SiLU(" + fmt6(m.z) + ") = " + fmt6(m.value) + tr(STR_SENTENCE_END) + " " +
         tr(STR_SILU_MIN_NOTE);
}

std::vector<view_row> lab_silu_rows(const lab_state& s) {
  const double z = s.probe_z, silu = act_silu(z), relu = act_relu(z);
  std::vector<view_row> rows = {{"z", "", {{"", fmt6(z)}}},
                                {"SiLU(z)", "", {{"", fmt6(silu)}}, TONE_SILU},
                                {"ReLU(z)", "", {{"", fmt6(relu)}}, TONE_RELU},
                                {tr(STR_SILU_DIFF), "", {{"", fmt6(silu - relu)}}}};
  if (s.show_sigmoid) rows.push_back({"sigmoid(z)", "", {{"", fmt6(act_sigmoid(z))}}, TONE_SIGMOID});
  if (s.show_gelu) rows.push_back({"GELU(z)", "", {{"", fmt6(act_gelu(z))}}, TONE_GELU});
  return rows;
}

std::string lab_silu_probe_text(const lab_state& s) {
  const std::string z = fmt_short(s.probe_z);
  return s.probe_z < 0 ? strf(tr(STR_SILU_NEG), z.c_str(), fmt6(act_silu(s.probe_z)).c_str()) : strf(tr(STR_SILU_POS), z.c_str());
}

std::string lab_step_of_text(int step) { return strf(tr(STR_HAND_STEP_OF), step, HAND_STEP_COUNT - 1); }

const char* lab_step_title(int step) {
  static const str_id titles[HAND_STEP_COUNT] = {STR_HAND_STEP_0, STR_HAND_STEP_1, STR_HAND_STEP_2,
                                                 STR_HAND_STEP_3, STR_HAND_STEP_4, STR_HAND_STEP_5};
  return tr(titles[step < 0 ? 0 : step >= HAND_STEP_COUNT ? HAND_STEP_COUNT - 1 : step]);
}

std::vector<view_row> lab_and_rows() {
  std::vector<view_row> rows;
  for (int bits = 0; bits < 4; ++bits) {
    const double x1 = bits >> 1, x2 = bits & 1, out = hand_and(x1, x2);
    rows.push_back({"", "", {{"", fmt_short(x1)}, {"", fmt_short(x2)}, {"", fmt6(x1)}, {"", fmt6(act_silu(x2))},
                             {"", fmt6(out), out > 0.5 ? TONE_MARKED : TONE_PLAIN}}});
  }
  return rows;
}

// A matrix row by row, as its editable cells show it: "[1, 0; 0, 1; 1, 1; -1, 0]".
static std::string matrix_text(const double* m, int rows, int cols) {
  std::string out = "[";
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out += (c ? ", " : r ? "; " : "") + fmt_short(m[r * cols + c]);
  return out + "]";
}

std::vector<std::string> lab_fixed_gate_lines(const lab_state& s) {
  const double ones[HAND_MID] = {1, 1, 1, 1};
  double x2[HAND_IN] = {2 * s.x[0], 2 * s.x[1]};
  hand_trace fixed = hand_forward_fixed_gate(s.x, s.w, ones), fixed2 = hand_forward_fixed_gate(x2, s.w, ones);
  hand_trace real = hand_forward(s.x, s.w), real2 = hand_forward(x2, s.w);
  return {"g = [1, 1, 1, 1]:  y(x) = " + fmt_vec6(fixed.y, HAND_OUT) + "   y(2x) = " + fmt_vec6(fixed2.y, HAND_OUT),
          "g = silu(a):  y(x) = " + fmt_vec6(real.y, HAND_OUT) + "   y(2x) = " + fmt_vec6(real2.y, HAND_OUT)};
}

std::string hand_view_text(const lab_state& s, live_session*, const live_choice&) {
  hand_trace t = hand_forward(s.x, s.w);
  std::string out =
      strf(tr(STR_MIRROR_HEAD), tr(STR_VIEW_HAND), lab_step_of_text(s.step).c_str(), lab_step_title(s.step)) + "\n";
  for (const std::string& line : hand_step_lines(s.step, s.x, s.w, t)) out += line + "\n";
  out += list_head(STR_MIRROR_VALUES);
  out += "x = [" + fmt_short(s.x[0]) + ", " + fmt_short(s.x[1]) + "]\n";
  out += "W_up = " + matrix_text(s.w.up, HAND_MID, HAND_IN) + "\n";
  out += "W_gate = " + matrix_text(s.w.gate, HAND_MID, HAND_IN) + "\n";
  out += "W_down = " + matrix_text(s.w.down, HAND_OUT, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_UP) out += "u = " + fmt_vec6(t.u, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_GATE) out += "a = " + fmt_vec6(t.a, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_SILU) out += "sigmoid(a) = " + fmt_vec6(t.sigmoid, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_SILU) out += "g = " + fmt_vec6(t.g, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_MUL) out += "z = " + fmt_vec6(t.z, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_DOWN) out += "y = " + fmt_vec6(t.y, HAND_OUT) + "\n";
  // The follow-ups sit in folded sections on the page; a screen reader gets their numbers too.
  out += list_head(STR_HAND_AND_TITLE);
  for (const view_row& r : lab_and_rows())
    out += strf(tr(STR_MIRROR_AND_ROW), r.cells[0].value.c_str(), r.cells[1].value.c_str(), r.cells[2].value.c_str(),
                r.cells[3].value.c_str(), r.cells[4].value.c_str()) + "\n";
  out += list_head(STR_HAND_FIXED_TITLE);
  for (const std::string& line : lab_fixed_gate_lines(s)) out += line + "\n";
  return out;
}

std::string silu_view_text(const lab_state& s, live_session*, const live_choice&) {
  std::string out = view_head(STR_VIEW_SILU);
  for (const view_row& r : lab_silu_rows(s)) out += r.label + " = " + r.cells[0].value + "\n";  // an equation reads best
  out += lab_silu_probe_text(s) + "\n";
  out += lab_silu_minimum_text() + "\n";
  return out;
}

std::string lab_budget_ratio_text(const budget_counts& c) {
  return strf(tr(STR_BUDGET_RATIO), fmt_ratio(c.swiglu_h2).c_str(), fmt_percent_sig(c.swiglu_vs_classic).c_str());
}

std::string lab_budget_all_layers_text(int64_t layers) {
  if (layers == 1) return tr(STR_BUDGET_ONE_LAYER);
  return strf(tr(STR_BUDGET_ALL_LAYERS), int(layers));
}

std::vector<lab_budget_row> lab_budget_rows(const lab_state& s) {
  const budget_counts c = budget_count(s.hidden, s.intermediate, s.layers);
  struct row { str_id name; int64_t f, per_layer; const char* note; };
  const row rows[] = {{STR_BUDGET_CLASSIC, 4 * s.hidden, c.classic_per_layer, " (8 h²)"},
                      {STR_BUDGET_BALANCED, c.balanced_f, c.balanced_per_layer, ""},
                      {STR_BUDGET_ACTUAL, s.intermediate, c.swiglu_per_layer, ""}};
  std::vector<lab_budget_row> out;
  for (const row& r : rows)
    out.push_back({tr(r.name), std::to_string(r.f), r.note, fmt_count(r.per_layer), fmt_count_short(r.per_layer),
                   fmt_count(r.per_layer * s.layers)});
  return out;
}

std::string budget_view_text(const lab_state& s, live_session*, const live_choice&) {
  budget_counts c = budget_count(s.hidden, s.intermediate, s.layers);
  std::string out = view_head(STR_VIEW_BUDGET);
  const std::string sep = tr(STR_MIRROR_SEP);
  out += "h = " + std::to_string(s.hidden) + sep + "f = " + std::to_string(s.intermediate) + sep +
         tr(STR_BUDGET_LAYERS) + " = " + std::to_string(s.layers) + "\n";
  // Each row of the page's table (lab_budget_rows): per layer with its short form, for all layers.
  const std::string all = lab_budget_all_layers_text(s.layers);
  for (const lab_budget_row& r : lab_budget_rows(s))
    out += strf(tr(STR_MIRROR_BUDGET_ROW), r.name.c_str(), r.f.c_str(), r.per_layer.c_str(), r.per_layer_short.c_str(),
                r.note.c_str(), all.c_str(), r.all_layers.c_str()) + "\n";
  out += lab_budget_ratio_text(c) + "\n";
  out += lab_model_text(s);
  return out;
}

// [SECTION] the lesson's views

static std::string mb(int64_t bytes) { return fmt_mb(bytes) + " MB"; }

std::string lab_model_share_text() {
  const model_budget b = model_budget_count(budget_shape_qwen35_08b());
  return strf(tr(STR_MODEL_SHARE), fmt_count(b.mlp).c_str(), fmt_count(b.total).c_str(), fmt_percent1(b.mlp_share).c_str());
}

std::string lab_model_percent(int64_t count) {
  return fmt_percent1(double(count) / double(model_budget_count(budget_shape_qwen35_08b()).total));
}

std::vector<lab_model_row> lab_model_rows() {
  const model_budget b = model_budget_count(budget_shape_qwen35_08b());
  return {{STR_MODEL_EMBEDDING, b.embedding}, {STR_MODEL_MLP, b.mlp}, {STR_MODEL_ATTENTION, b.attention},
          {STR_MODEL_NORMS, b.norms}, {STR_MODEL_TOTAL, b.total}};
}

std::vector<std::vector<std::string>> lab_decode_rows(const lab_state& s) {
  const decode_traffic t = decode_traffic_count(s.hidden, s.intermediate, s.layers);
  return {{tr(STR_DECODE_ONE_LAYER), mb(t.bf16_layer), mb(t.int8_layer)},
          {lab_budget_all_layers_text(s.layers), mb(t.bf16_all), mb(t.int8_all)}};
}

std::string lab_model_text(const lab_state& s) {
  const std::string colon = tr(STR_MIRROR_COLON), sep = tr(STR_MIRROR_SEP);
  std::string out = list_head(STR_MODEL_TITLE);
  for (const lab_model_row& r : lab_model_rows())
    out += std::string(tr(r.name)) + colon + fmt_count(r.count) + " (" + fmt_count_short(r.count) + ")" + sep +
           lab_model_percent(r.count) + "\n";
  out += lab_model_share_text() + "\n";
  out += list_head(STR_DECODE_TITLE);
  for (const std::vector<std::string>& row : lab_decode_rows(s))
    out += row[0] + colon + tr(STR_DECODE_BF16) + " " + row[1] + sep + tr(STR_DECODE_INT8) + " " + row[2] + "\n";
  return out;
}

std::string lab_path_text(const lab_state& s) {
  const int n = int(s.path.size()), at = lab_path_index(s);
  if (n == 0) return "";
  if (at >= 0) return strf(tr(STR_PATH_STEP), std::to_string(at + 1).c_str(), std::to_string(n).c_str());
  if (s.path_at >= 0 && s.path_at < n)
    return strf(tr(STR_PATH_RETURN), std::to_string(s.path_at + 1).c_str(), std::to_string(n).c_str());
  return tr(STR_PATH_OFF_PATH);
}

std::string lab_quiz_progress_text(const quiz_progress& p) {
  std::string out = strf(tr(STR_QUIZ_PROGRESS), std::to_string(quiz_progress_right(p)).c_str(),
                         std::to_string(int(QUIZ_COUNT)).c_str()) + "\n";
  for (quiz_verdict v : {QUIZ_RIGHT, QUIZ_WRONG}) {
    std::string list;
    for (int q = 0; q < QUIZ_COUNT; ++q)
      if (p.verdict[q] == v) list += (list.empty() ? "" : ", ") + std::to_string(q + 1);
    if (!list.empty()) out += std::string(tr(v == QUIZ_RIGHT ? STR_QUIZ_STATUS_RIGHT : STR_QUIZ_STATUS_WRONG)) + tr(STR_MIRROR_COLON) + list + "\n";
  }
  return out;
}

std::string lab_quiz_number_text(int q) { return strf(tr(STR_QUIZ_NUMBER), (std::to_string(q + 1) + " / " + std::to_string(int(QUIZ_COUNT))).c_str()); }

std::string quiz_view_text(const lab_state& s, live_session* ls, const live_choice&) {
  const quiz_id q = quiz_id(s.quiz < 0 || s.quiz >= QUIZ_COUNT ? 0 : s.quiz);
  std::string out = view_head(STR_VIEW_QUIZ);
  // The answers the panel shows (a live question names the layer its share was counted on).
  const quiz_live_answers live = ls ? quiz_live_from(s, ls) : quiz_live_answers();
  out += lab_quiz_number_text(q) + tr(STR_MIRROR_COLON) + quiz_prompt(q, s, live) + "\n";
  for (const std::string& line : quiz_model_lines(s, ls)) out += line + "\n";
  for (int i = 0; i < QUIZ[q].option_count; ++i)
    out += std::string(1, char('A' + i)) + ". " + tr(QUIZ[q].options[i]) + "\n";
  return out;
}

std::string glossary_view_text(const lab_state&, live_session*, const live_choice&) {
  std::string out = view_head(STR_VIEW_GLOSSARY);
  for (const glossary_term& t : GLOSSARY) out += std::string(tr(t.term)) + tr(STR_MIRROR_COLON) + tr(t.definition) + "\n";
  return out;
}

std::string lab_text(const lab_state& s, live_session* ls, const live_choice* c) {
  const strings_lang_scope words(s.lang);
  const lab_view_info& v = lab_view_get(s.view);
  std::string out;
  if (!v.live()) {
    out = v.text(s, ls, live_choice());  // the quiz reads the session's results
  } else if (lab_view_on_whole_model(s)) {
    // The whole model's views: their title, then the model's status and rows (none before the page runs).
    out = strf(tr(STR_MIRROR_TITLE), tr(v.label)) + "\n";
    if (ls) out += v.text(s, ls, live_choice());
  } else {
    // A live view: its title, where the weights come from and how far they are, then its own rows.
    out = strf(tr(STR_MIRROR_TITLE), tr(v.label)) + "\n";
    if (ls && ls->source) {
      const live_choice none;
      const live_choice& choice = c ? *c : none;
      out += live_header_text(ls, choice, s);
      if (choice.ready) out += v.text(s, ls, choice);
    }
  }
  // On a lesson path: where the student is on it (the bar above the view).
  if (!s.path.empty()) out = std::string(tr(STR_PATH_LESSON)) + tr(STR_MIRROR_COLON) + lab_path_text(s) + "\n" + out;
  return out;
}

// A link can carry anything; a notice quotes at most this many bytes of it, cut between
// UTF-8 characters, so one bad key cannot push the page down with a wall of text.
static const size_t NOTICE_QUOTE_BYTES = 60;

static std::string clip_quote(const std::string& s) {
  if (s.size() <= NOTICE_QUOTE_BYTES) return s;
  size_t end = NOTICE_QUOTE_BYTES;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;  // continuation byte
  return s.substr(0, end) + "…";
}

std::string lab_pack_unused_text(const std::string& pack) { return strf(tr(STR_NOTICE_PACK_UNUSED), clip_quote(pack).c_str()); }

std::string lab_link_value_text(const std::string& key, const std::string& value) {
  if (key == "off" && value.empty()) return tr(STR_VALUE_NO_UNIT_OFF);
  if (value != "-1") return value;
  if (key == "htok") return tr(STR_VALUE_ALL_TOKENS);
  if (key == "layer") return tr(STR_VALUE_FIRST_LAYER);
  if (key == "at") return tr(STR_VALUE_FIRST_PLACE);
  return value;
}

std::string lab_notice_text(const url_notice& n) {
  std::string key = clip_quote(n.key), value = clip_quote(n.value), used = clip_quote(lab_link_value_text(n.key, n.used));
  switch (n.problem) {
    case URL_MALFORMED: return strf(tr(STR_NOTICE_MALFORMED), key.c_str(), value.c_str());
    case URL_CLAMPED: return strf(tr(STR_NOTICE_CLAMPED), key.c_str(), value.c_str(), used.c_str());
    case URL_BEYOND: return strf(tr(STR_NOTICE_BEYOND), key.c_str(), value.c_str());
    case URL_NEWER_VERSION: return strf(tr(STR_NOTICE_NEWER), value.c_str());
    case URL_CREDENTIALS: return strf(tr(STR_NOTICE_CREDENTIALS), key.c_str(), value.c_str());
    case URL_REPEATED: return strf(tr(STR_NOTICE_REPEATED), key.c_str(), value.c_str(), used.c_str());
  }
  return "";
}
