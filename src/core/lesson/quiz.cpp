// The lesson's questions and their checkers (see quiz.h).
#include "core/lesson/quiz.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/lesson/model_budget.h"
#include "core/base/number_format.h"
#include "core/base/number_parse.h"

const char* const QUIZ_NAMES[QUIZ_COUNT] = {"odot", "write", "largest", "bf16", "bf16all", "int8",
                                            "bilinear", "layer", "open", "shuffle", "change", "flow"};

#define NO_OPTIONS 0, {STR_COUNT, STR_COUNT, STR_COUNT}, -1
const quiz_question QUIZ[QUIZ_COUNT] = {
    {QUIZ_ODOT, QUIZ_KIND_CHOICE, STR_QUIZ_ODOT_Q, 3, {STR_QUIZ_ODOT_A0, STR_QUIZ_ODOT_A1, STR_QUIZ_ODOT_A2}, 1, 0,
     false, LAB_VIEW_HAND, STR_QUIZ_ODOT_WHY},
    {QUIZ_WRITE_SIZE, QUIZ_KIND_CHOICE, STR_QUIZ_WRITE_Q, 3, {STR_QUIZ_WRITE_A0, STR_QUIZ_WRITE_A1, STR_QUIZ_WRITE_A2}, 0,
     0, false, LAB_VIEW_HAND, STR_QUIZ_WRITE_WHY},
    {QUIZ_LARGEST, QUIZ_KIND_CHOICE, STR_QUIZ_LARGEST_Q, 3,
     {STR_QUIZ_LARGEST_A0, STR_QUIZ_LARGEST_A1, STR_QUIZ_LARGEST_A2}, 1, 0, false, LAB_VIEW_BUDGET, STR_QUIZ_LARGEST_WHY},
    {QUIZ_BF16_LAYER, QUIZ_KIND_NUMBER, STR_QUIZ_BF16_Q, NO_OPTIONS, QUIZ_MB_TOLERANCE_LAYER, false, LAB_VIEW_BUDGET,
     STR_QUIZ_BF16_WHY},
    {QUIZ_BF16_ALL, QUIZ_KIND_NUMBER, STR_QUIZ_BF16ALL_Q, NO_OPTIONS, QUIZ_MB_TOLERANCE_ALL, false, LAB_VIEW_BUDGET,
     STR_QUIZ_BF16ALL_WHY},
    {QUIZ_INT8_LAYER, QUIZ_KIND_NUMBER, STR_QUIZ_INT8_Q, NO_OPTIONS, QUIZ_MB_TOLERANCE_LAYER, false, LAB_VIEW_BUDGET,
     STR_QUIZ_INT8_WHY},
    {QUIZ_BILINEAR, QUIZ_KIND_CHOICE, STR_QUIZ_BILINEAR_Q, 2, {STR_QUIZ_YES, STR_QUIZ_NO, STR_COUNT}, 0, 0, false,
     LAB_VIEW_HAND, STR_QUIZ_BILINEAR_WHY},
    {QUIZ_WHOLE_LAYER, QUIZ_KIND_CHOICE, STR_QUIZ_LAYER_Q, 2, {STR_QUIZ_LAYER_A0, STR_QUIZ_LAYER_A1, STR_COUNT}, 1, 0,
     false, LAB_VIEW_PERM, STR_QUIZ_LAYER_WHY},
    {QUIZ_OPEN_SHARE, QUIZ_KIND_NUMBER, STR_QUIZ_OPEN_Q, NO_OPTIONS, QUIZ_PERCENT_TOLERANCE, true, LAB_VIEW_GATES,
     STR_QUIZ_OPEN_WHY},
    {QUIZ_SHUFFLE, QUIZ_KIND_NUMBER, STR_QUIZ_SHUFFLE_Q, NO_OPTIONS, QUIZ_EXACT_TOLERANCE, true, LAB_VIEW_PERM,
     STR_QUIZ_SHUFFLE_WHY},
    {QUIZ_CHANGE, QUIZ_KIND_POSITIONS, STR_QUIZ_CHANGE_Q, NO_OPTIONS, 0, true, LAB_VIEW_PERM, STR_QUIZ_CHANGE_WHY},
    {QUIZ_FLOW, QUIZ_KIND_NUMBER, STR_QUIZ_FLOW_Q, NO_OPTIONS, QUIZ_EXACT_TOLERANCE, true, LAB_VIEW_FLOW, STR_QUIZ_FLOW_WHY},
};
#undef NO_OPTIONS

// [SECTION] checkers

quiz_verdict quiz_check_choice(const quiz_question& q, int chosen) {
  if (q.kind != QUIZ_KIND_CHOICE || chosen < 0 || chosen >= q.option_count) return QUIZ_UNANSWERED;
  return chosen == q.right_option ? QUIZ_RIGHT : QUIZ_WRONG;
}

static std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

static bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

bool quiz_parse_number(const std::string& typed, double* out) {
  std::string t = trim(typed);
  for (const char* unit : {"MB", "mb", "Mb", "%", "\xEF\xBC\x85" /* ％ */}) {
    if (ends_with(t, unit)) {
      t = trim(t.substr(0, t.size() - std::string(unit).size()));
      break;
    }
  }
  // Thousands commas, only where they group digits by three ("528,482,304"); "1,5" is unreadable.
  if (t.find(',') != std::string::npos) {
    std::string plain;
    size_t dot = t.find('.'), last = std::string::npos;
    for (size_t i = 0; i < t.size(); ++i) {
      if (t[i] != ',') {
        plain += t[i];
        continue;
      }
      if (dot != std::string::npos && i > dot) return false;
      if (last != std::string::npos && i - last != 4) return false;
      if (i == 0 || !std::isdigit((unsigned char)t[i - 1])) return false;
      last = i;
    }
    const size_t end = dot == std::string::npos ? t.size() : dot;
    if (end - last != 4) return false;
    t = plain;
  }
  return parse_number(t, out);
}

quiz_verdict quiz_check_number(const std::string& typed, double expected, double tolerance) {
  if (trim(typed).empty()) return QUIZ_UNANSWERED;
  double v;
  if (!quiz_parse_number(typed, &v)) return QUIZ_UNREADABLE;
  return std::fabs(v - expected) <= tolerance ? QUIZ_RIGHT : QUIZ_WRONG;
}

bool quiz_parse_positions(const std::string& typed, std::vector<int64_t>* out) {
  std::string t;
  for (char c : trim(typed)) t += c == ' ' ? ',' : c;  // "2 3" and "2, 3" read like "2,3"
  std::string joined;
  for (size_t i = 0; i < t.size(); ++i)
    if (!(t[i] == ',' && (joined.empty() || joined.back() == ','))) joined += t[i];
  if (!joined.empty() && joined.back() == ',') joined.pop_back();
  if (joined.empty()) return false;
  return parse_index_list(joined, out);
}

quiz_verdict quiz_check_positions(const std::string& typed, const std::vector<int64_t>& expected) {
  if (trim(typed).empty()) return QUIZ_UNANSWERED;
  std::vector<int64_t> got;
  if (!quiz_parse_positions(typed, &got)) return QUIZ_UNREADABLE;
  std::vector<int64_t> want = expected;
  std::sort(got.begin(), got.end());
  got.erase(std::unique(got.begin(), got.end()), got.end());
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  return got == want ? QUIZ_RIGHT : QUIZ_WRONG;
}

bool quiz_expected_number(quiz_id q, const quiz_live_answers& live, double* out) {
  const budget_shape c = budget_shape_qwen35_08b();
  const decode_traffic t = decode_traffic_count(c.hidden, c.intermediate, c.layers);
  switch (q) {
    case QUIZ_BF16_LAYER: *out = model_megabytes(t.bf16_layer); return true;
    case QUIZ_BF16_ALL: *out = model_megabytes(t.bf16_all); return true;
    case QUIZ_INT8_LAYER: *out = model_megabytes(t.int8_layer); return true;
    case QUIZ_OPEN_SHARE: *out = live.open_percent; return live.open_ready;
    case QUIZ_SHUFFLE: *out = live.shuffle_max_diff; return live.shuffle_ready;
    case QUIZ_FLOW: *out = (double)live.flow_largest; return live.flow_ready;
    default: return false;
  }
}

quiz_verdict quiz_check(quiz_id id, const quiz_answer& a, const quiz_live_answers& live) {
  if (id < 0 || id >= QUIZ_COUNT) return QUIZ_UNANSWERED;
  const quiz_question& q = QUIZ[id];
  switch (q.kind) {
    case QUIZ_KIND_CHOICE: return quiz_check_choice(q, a.chosen);
    case QUIZ_KIND_NUMBER: {
      double expected;
      if (trim(a.typed).empty()) return QUIZ_UNANSWERED;
      if (!quiz_expected_number(id, live, &expected)) return QUIZ_NOT_READY;
      return quiz_check_number(a.typed, expected, q.tolerance);
    }
    case QUIZ_KIND_POSITIONS:
      if (trim(a.typed).empty()) return QUIZ_UNANSWERED;
      if (!live.change_ready) return QUIZ_NOT_READY;
      return quiz_check_positions(a.typed, live.changed);
  }
  return QUIZ_UNANSWERED;
}

// [SECTION] prompts and explanations, filled in

static std::string positions_text(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  std::string s;
  for (int64_t p : v) s += (s.empty() ? "" : ", ") + std::to_string(p);
  return s;
}

std::string quiz_prompt(quiz_id q, const lab_state& s, const quiz_live_answers& live) {
  if (q < 0 || q >= QUIZ_COUNT) return "";
  const budget_shape c = budget_shape_qwen35_08b();
  switch (q) {
    case QUIZ_BF16_ALL: return strf(tr(QUIZ[q].prompt), std::to_string(c.layers).c_str());
    case QUIZ_OPEN_SHARE: {
      const int64_t layer = live.open_layer >= 0 ? live.open_layer : s.layer >= 0 ? s.layer
                            : !s.pack_layers.empty() ? s.pack_layers[0] : 0;
      return strf(tr(QUIZ[q].prompt), std::to_string(layer).c_str(), fmt_short(s.threshold).c_str());
    }
    case QUIZ_CHANGE: return strf(tr(QUIZ[q].prompt), std::to_string(lab_changed_token(s)).c_str());
    case QUIZ_FLOW:
      if (!live.flow_ready) return tr(STR_QUIZ_FLOW_Q_FIRST);
      if (!live.flow_off.empty())
        return strf(tr(STR_QUIZ_FLOW_Q_OFF), live.flow_prompt.c_str(), live.flow_token.c_str(), live.flow_off.c_str());
      return strf(tr(QUIZ[q].prompt), live.flow_prompt.c_str(), live.flow_token.c_str());
    default: return tr(QUIZ[q].prompt);
  }
}

std::string quiz_explanation(quiz_id q, const lab_state& s, const quiz_live_answers& live) {
  if (q < 0 || q >= QUIZ_COUNT) return "";
  const budget_shape c = budget_shape_qwen35_08b();
  const model_budget b = model_budget_count(c);
  const decode_traffic t = decode_traffic_count(c.hidden, c.intermediate, c.layers);
  const char* why = tr(QUIZ[q].explanation);
  switch (q) {
    case QUIZ_LARGEST:
      return strf(why, fmt_count(b.mlp_per_layer).c_str(), fmt_count(b.mlp).c_str(), std::to_string(c.layers).c_str(),
                  fmt_percent1(b.mlp_share).c_str(), fmt_count(b.total).c_str());
    case QUIZ_BF16_LAYER:
      return strf(why, fmt_count(b.mlp_per_layer).c_str(), fmt_count(t.bf16_layer).c_str(), fmt_mb(t.bf16_layer).c_str());
    case QUIZ_BF16_ALL:
      return strf(why, std::to_string(c.layers).c_str(), fmt_count(t.bf16_layer).c_str(), fmt_count(t.bf16_all).c_str(),
                  fmt_mb(t.bf16_all).c_str());
    case QUIZ_INT8_LAYER:
      return strf(why, fmt_count(b.mlp_per_layer).c_str(), fmt_count(2 * c.intermediate + c.hidden).c_str(),
                  fmt_count(t.int8_layer).c_str(), fmt_mb(t.int8_layer).c_str());
    case QUIZ_OPEN_SHARE: return strf(why, live.open_ready ? fmt_percent1(live.open_percent / 100).c_str() : "…");
    case QUIZ_SHUFFLE: return strf(why, live.shuffle_ready ? fmt_short(live.shuffle_max_diff).c_str() : "…");
    case QUIZ_CHANGE:
      return strf(why, live.change_ready ? positions_text(live.changed).c_str() : "…", std::to_string(lab_changed_token(s)).c_str());
    case QUIZ_FLOW:
      if (!live.flow_ready) return strf(why, "…", "…", "…", "…");
      return strf(why, std::to_string(live.flow_largest).c_str(), fmt_percent1(live.flow_largest_ratio).c_str(),
                  std::to_string(live.flow_smallest).c_str(), fmt_percent1(live.flow_smallest_ratio).c_str());
    default: return tr(QUIZ[q].explanation);
  }
}

// [SECTION] progress

quiz_progress quiz_progress_empty() {
  quiz_progress p;
  for (quiz_verdict& v : p.verdict) v = QUIZ_UNANSWERED;
  return p;
}

std::string quiz_progress_encode(const quiz_progress& p) {
  std::string out;
  for (int i = 0; i < QUIZ_COUNT; ++i) {
    if (p.verdict[i] != QUIZ_RIGHT && p.verdict[i] != QUIZ_WRONG) continue;
    out += (out.empty() ? "" : ",") + std::string(QUIZ_NAMES[i]) + "=" + (p.verdict[i] == QUIZ_RIGHT ? "r" : "w");
  }
  return out;
}

quiz_progress quiz_progress_decode(const std::string& text) {
  quiz_progress p = quiz_progress_empty();
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq != std::string::npos) {
      const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
      for (int i = 0; i < QUIZ_COUNT; ++i)
        if (name == QUIZ_NAMES[i] && (value == "r" || value == "w")) p.verdict[i] = value == "r" ? QUIZ_RIGHT : QUIZ_WRONG;
    }
    start = end + 1;
  }
  return p;
}

int quiz_progress_right(const quiz_progress& p) {
  int n = 0;
  for (quiz_verdict v : p.verdict) n += v == QUIZ_RIGHT;
  return n;
}

std::string quiz_progress_text(const quiz_progress& p) {
  return strf(tr(STR_QUIZ_PROGRESS), std::to_string(quiz_progress_right(p)).c_str(), std::to_string(int(QUIZ_COUNT)).c_str());
}
