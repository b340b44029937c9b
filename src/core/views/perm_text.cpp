// The per-token view's rows and mirror: the shuffle's result, each token's change (see live_view.h).
#include "core/views/live_view.h"

#include <algorithm>

#include "core/base/number_format.h"
#include "core/base/strings.h"

bool perm_results_shown(live_session* ls, const live_choice& c) {
  const token_experiments& k = ls->tokens;
  return k.valid && k.layer == c.layer && k.probe == c.probe && (int)k.change.size() >= c.tokens;
}

std::string perm_result_text(live_session* ls) {
  const double d = ls->tokens.shuffle.max_abs_diff;
  return strf(tr(STR_PERM_RESULT), d == 0 ? tr(STR_PERM_EXACT) : fmt6(d).c_str());
}

std::vector<view_row> perm_change_rows(live_session* ls, const live_choice& c) {
  const source_model& m = ls->source->model();
  const token_experiments& k = ls->tokens;
  double peak = 0;
  for (int t = 0; t < c.tokens; t++) peak = std::max(peak, k.change[t]);
  std::vector<view_row> rows;
  for (int t = 0; t < c.tokens; t++) {
    view_row r;
    r.label = std::to_string(t) + " " + live_token_text(m, c.probe, t);
    r.cells = {{"", k.change[t] == 0 ? std::string("0") : fmt6(k.change[t])}};  // exactly 0, not "0.000000"
    r.tone = t == c.token ? TONE_MARKED : TONE_PLAIN;
    r.bar = peak > 0 ? k.change[t] / peak : 0;
    rows.push_back(r);
  }
  return rows;
}

std::string perm_only_k_text(live_session* ls, const live_choice& c) {
  if (token_experiments_moved(ls->tokens) != std::vector<int>{c.token}) return "";
  return strf(tr(STR_PERM_ONLY_K), std::to_string(c.token).c_str());
}

std::string perm_view_text(const lab_state& s, live_session* ls, const live_choice& c) {
  std::string order;
  for (int i : c.perm) order += (order.empty() ? "" : ", ") + std::to_string(i);
  std::string out = strf(tr(STR_LIVE_LAYER_N), std::to_string(c.layer).c_str()) + "\n";
  out += "perm = [" + order + "]\n";
  const token_experiments& k = ls->tokens;
  if (!perm_results_shown(ls, c)) return out + live_needs_whole_text(ls->source.get(), c.layer) + "\n";
  out += perm_result_text(ls) + "\n";
  if (k.shuffle.max_abs_diff == 0) out += std::string(tr(STR_PERM_WHY)) + "\n";
  out += std::string(tr(STR_PERM_TOKEN)) + " = " + std::to_string(c.token) + tr(STR_MIRROR_SEP) + tr(STR_PERM_DELTA) + " = " +
         fmt_short(s.delta) + "\n" + tr(STR_PERM_CHANGE_ROW) + tr(STR_MIRROR_COLON) + "\n";
  for (const view_row& r : perm_change_rows(ls, c)) out += "  " + view_row_line(r) + "\n";
  std::string list;
  for (int t : token_experiments_moved(k)) list += (list.empty() ? "" : ", ") + std::to_string(t);
  out += strf(tr(STR_PERM_MOVED), list.empty() ? "-" : list.c_str()) + "\n";
  const std::string only_k = perm_only_k_text(ls, c);
  if (!only_k.empty()) out += only_k + "\n";
  return out;
}
