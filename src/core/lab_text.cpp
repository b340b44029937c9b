// Text mirror (see lab_text.h).
#include "core/lab_text.h"

#include <cstdio>

#include "core/activations.h"
#include "core/hand_explain.h"
#include "core/live_view.h"
#include "core/number_format.h"
#include "core/param_budget.h"
#include "core/strings.h"
#include "core/view_table.h"

static std::string format(const char* fmt, const std::string& a, const std::string& b = "") {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, a.c_str(), b.c_str());
  return buf;
}

static str_id hand_step_title(int step) {
  static const str_id titles[HAND_STEP_COUNT] = {STR_HAND_STEP_0, STR_HAND_STEP_1, STR_HAND_STEP_2,
                                                 STR_HAND_STEP_3, STR_HAND_STEP_4, STR_HAND_STEP_5};
  return titles[step];
}

static std::string hand_text(const lab_state& s) {
  hand_trace t = hand_forward(s.x, s.w);
  char head[128];
  std::snprintf(head, sizeof head, tr(STR_HAND_STEP_OF), s.step, HAND_STEP_COUNT - 1);
  std::string out = std::string(tr(STR_VIEW_HAND)) + ". " + head + ": " + tr(hand_step_title(s.step)) + "\n";
  for (const std::string& line : hand_step_lines(s.step, s.x, s.w, t)) out += line + "\n";
  out += std::string(tr(STR_MIRROR_VALUES)) + ":\n";
  out += "x = [" + fmt_short(s.x[0]) + ", " + fmt_short(s.x[1]) + "]\n";
  if (s.step >= HAND_STEP_UP) out += "u = " + fmt_vec6(t.u, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_GATE) out += "a = " + fmt_vec6(t.a, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_SILU) out += "sigmoid(a) = " + fmt_vec6(t.sigmoid, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_SILU) out += "g = " + fmt_vec6(t.g, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_MUL) out += "z = " + fmt_vec6(t.z, HAND_MID) + "\n";
  if (s.step >= HAND_STEP_DOWN) out += "y = " + fmt_vec6(t.y, HAND_OUT) + "\n";
  return out;
}

static std::string silu_text(const lab_state& s) {
  double z = s.probe_z, silu = act_silu(z), relu = act_relu(z);
  act_extremum m = act_silu_minimum();
  std::string out = std::string(tr(STR_VIEW_SILU)) + ".\n";
  out += "z = " + fmt6(z) + "\n";
  out += "SiLU(z) = " + fmt6(silu) + "\n";
  out += "ReLU(z) = " + fmt6(relu) + "\n";
  out += std::string(tr(STR_SILU_DIFF)) + " = " + fmt6(silu - relu) + "\n";
  if (s.show_sigmoid) out += "sigmoid(z) = " + fmt6(act_sigmoid(z)) + "\n";
  if (s.show_gelu) out += "GELU(z) = " + fmt6(act_gelu(z)) + "\n";
  out += std::string(tr(STR_SILU_MIN)) + ": SiLU(" + fmt6(m.z) + ") = " + fmt6(m.value) + "\n";
  return out;
}

// Two decimals as the lessons print them (10.50 h²), but a tiny f still shows digits (0.000732 h²).
static std::string two_decimals_or_significant(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 0.995 ? "%.2f" : "%.3g", v);
  return buf;
}

std::string lab_budget_ratio_text(const budget_counts& c) {
  return format(tr(STR_BUDGET_RATIO), two_decimals_or_significant(c.swiglu_h2),
                two_decimals_or_significant(100.0 * c.swiglu_vs_classic) + "%");
}

static std::string budget_text(const lab_state& s) {
  budget_counts c = budget_count(s.hidden, s.intermediate, s.layers);
  char all[64];
  std::snprintf(all, sizeof all, tr(STR_BUDGET_ALL_LAYERS), int(s.layers));
  std::string out = std::string(tr(STR_VIEW_BUDGET)) + ".\n";
  out += "h = " + std::to_string(s.hidden) + ", f = " + std::to_string(s.intermediate) + ", " +
         tr(STR_BUDGET_LAYERS) + " = " + std::to_string(s.layers) + "\n";
  out += std::string(tr(STR_BUDGET_CLASSIC)) + " (f = " + std::to_string(4 * s.hidden) + "): " +
         fmt_count(c.classic_per_layer) + " " + tr(STR_BUDGET_PER_LAYER) + " (8 h²)\n";
  out += std::string(tr(STR_BUDGET_BALANCED)) + " (f = " + std::to_string(c.balanced_f) + "): " +
         fmt_count(c.balanced_per_layer) + " " + tr(STR_BUDGET_PER_LAYER) + "\n";
  out += std::string(tr(STR_BUDGET_ACTUAL)) + " (f = " + std::to_string(s.intermediate) + "): " +
         fmt_count(c.swiglu_per_layer) + " (" + fmt_millions(c.swiglu_per_layer) + ") " +
         tr(STR_BUDGET_PER_LAYER) + ", " + lab_budget_ratio_text(c) + "\n";
  out += std::string(all) + ": " + fmt_count(c.swiglu_all_layers) + "\n";
  return out;
}

std::string lab_text(const lab_state& s, const pack_stream* stream, const live_perm_cache* perm) {
  lab_lang saved = strings_lang();
  strings_set_lang(s.lang);
  std::string out = lab_view_get(s.view).live ? live_text(s, stream, perm)
                    : s.view == LAB_VIEW_SILU   ? silu_text(s)
                    : s.view == LAB_VIEW_BUDGET ? budget_text(s)
                                                : hand_text(s);
  strings_set_lang(saved);
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

std::string lab_notice_text(const url_notice& n) {
  std::string key = clip_quote(n.key), value = clip_quote(n.value);
  switch (n.problem) {
    case URL_MALFORMED: return format(tr(STR_NOTICE_MALFORMED), key, value);
    case URL_CLAMPED: return format(tr(STR_NOTICE_CLAMPED), key, value);
    case URL_NEWER_VERSION: return format(tr(STR_NOTICE_NEWER), value);
  }
  return "";
}
