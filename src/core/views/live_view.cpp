// The live views' words and rows (see live_view.h).
#include "core/views/live_view.h"

#include <algorithm>

#include "core/views/lab_text.h"
#include "core/views/model_offer.h"
#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/read_error.h"
#include "core/base/strings.h"
#include "core/views/view_table.h"

std::string live_token_text(const source_model& m, int probe, int token) {
  const source_probe& p = m.probes[probe];
  if (token < (int)p.pieces.size() && !p.pieces[token].empty()) return p.pieces[token];
  return "#" + std::to_string(p.tokens[token]);
}

static bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool live_probe_has_split_bytes(const source_model& m, int probe) {
  for (const std::string& piece : m.probes[probe].pieces)
    for (size_t i = piece.find('<'); i != std::string::npos; i = piece.find('<', i + 1)) {
      size_t k = i + 1;  // "<e5>", "<e5 85>": pairs of hex digits, one space between
      while (k + 1 < piece.size() && hex_digit(piece[k]) && hex_digit(piece[k + 1])) k += piece[k + 2] == ' ' ? 3 : 2;
      if (k > i + 1 && k < piece.size() && piece[k] == '>' && piece[k - 1] != ' ') return true;
    }
  return false;
}

std::string live_probe_label(const source_model& m, int probe) {
  const source_probe& p = m.probes[probe];
  if (!p.label.empty()) return p.label;
  std::string out;
  const bool pieces = p.pieces.size() == p.tokens.size();
  for (size_t t = 0; t < p.tokens.size(); t++) out += pieces ? p.pieces[t] : (t ? " #" : "#") + std::to_string(p.tokens[t]);
  return out;
}

std::string live_source_info(const layer_source* src, const live_session* ls) {
  const source_model& m = src->model();
  std::string layers;
  for (int l : m.layers) layers += (layers.empty() ? "" : ", ") + std::to_string(l);
  const std::string id = m.revision.empty() ? m.model_id : m.model_id + "@" + m.revision;
  return strf(tr(m.checkpoint ? STR_LIVE_CHECKPOINT : STR_LIVE_PACK), id.c_str()) +
         strf(tr(STR_READ_ASIDE), tr(m.synthetic ? STR_LIVE_SYNTHETIC : STR_LIVE_REAL)) +  // （） in Chinese
         tr(STR_MIRROR_SEP) +
         strf(tr(STR_LIVE_DIMS), std::to_string(m.hidden).c_str(), std::to_string(m.intermediate).c_str(), layers.c_str(),
              std::to_string(m.num_layers).c_str()) +
         tr(STR_MIRROR_SEP) + strf(tr(STR_LIVE_FETCHED), fmt_mib(ls ? ls->shown_fetched.shown : src->bytes_from_network()).c_str());
}

std::vector<std::string> live_status_lines(const layer_source* src, const live_session* ls) {
  std::vector<std::string> lines;
  if (src->phase() == SOURCE_OPENING)
    lines.push_back(tr(src->kind() == SOURCE_CHECKPOINT ? STR_LIVE_LOADING_CHECKPOINT : STR_LIVE_LOADING_MANIFEST));
  if (src->phase() == SOURCE_FAILED) lines.push_back(strf(tr(STR_LIVE_SOURCE_FAILED), src->location().c_str()));
  if (src->phase() == SOURCE_READY) {
    const source_progress p = src->progress(-1);
    if (p.paused && p.loaded < p.total)
      lines.push_back(strf(tr(STR_LIVE_CANCELLED_NEEDED), fmt_mib(p.total - p.loaded).c_str()));
    else if (p.loading > 0 || p.converting > 0 || (p.loaded < p.total && p.failed == 0))
      lines.push_back(strf(tr(STR_LIVE_PROGRESS_MIB), fmt_mib(ls ? ls->shown_loaded.shown : p.loaded).c_str(), fmt_mib(p.total).c_str()));
  }
  for (const source_failure& f : src->failures())
    if (f.error.fault != STREAM_CANCELLED) lines.push_back(strf(tr(STR_LIVE_FAILED), live_failure_text(f).c_str()));
  for (const source_failure& f : src->notices()) lines.push_back(live_failure_text(f));
  const std::string store = src->storage_notice();
  if (!store.empty()) lines.push_back(tr(store.find("quota") != std::string::npos ? STR_LIVE_STORAGE_FULL : STR_LIVE_STORAGE_NONE));
  return lines;
}

bool live_source_has_failure(const layer_source* src) {
  if (!src) return false;
  for (const source_failure& f : src->failures())
    if (f.error.fault != STREAM_CANCELLED) return true;
  return false;
}

std::string live_needs_whole_text(const layer_source* src, int layer, bool* loading) {
  const source_progress p = src->progress(layer);
  const bool failed = p.failed > 0 || live_source_has_failure(src);
  const bool paused = p.paused && p.loaded < p.total;
  if (loading) *loading = !paused && !failed && p.total > 0;
  return tr(paused ? STR_LIVE_NEEDS_WHOLE_PAUSED : failed ? STR_LIVE_NEEDS_WHOLE_FAILED : STR_LIVE_NEEDS_WHOLE);
}

std::string live_fallback_text(const live_fallback& f) {
  if (std::string(f.key) == "ids") return strf(tr(STR_LIVE_IDS_REFUSED), f.value.c_str(), f.shown.c_str());
  return strf(tr(STR_LIVE_FALLBACK), f.key, f.value.c_str(), lab_link_value_text(f.key, f.shown).c_str());
}

std::vector<gate_row> live_gate_rows(live_session* ls, const lab_state& s, const live_choice& c) {
  std::vector<gate_row> rows;
  for (int layer : c.layers) rows.push_back(gate_activity_row(&ls->gates, ls->source.get(), layer, s.threshold, c.probe, c.hist_token));
  return rows;
}

// [SECTION] mirror
std::string live_header_text(live_session* ls, const live_choice& c, const lab_state& s) {
  std::string out;
  const layer_source* src = ls->source.get();
  if (!src) return out;
  if (c.ready) {
    const source_model& m = src->model();
    std::string tokens;
    for (int t = 0; t < c.tokens; t++) tokens += (t ? " | " : "") + live_token_text(m, c.probe, t);
    out += live_source_info(src, ls) + "\n";
    out += std::string(tr(STR_LIVE_PROBE)) + tr(STR_MIRROR_COLON) + "\"" + live_probe_label(m, c.probe) + "\" (" +
           std::to_string(c.tokens) + ")" + tr(STR_MIRROR_COLON) + tokens + "\n";
    if (live_probe_has_split_bytes(m, c.probe)) out += std::string(tr(STR_LIVE_SPLIT_BYTES)) + "\n";
  }
  for (const std::string& line : live_status_lines(src, ls)) out += line + "\n";
  if (c.ready && model_offer_shown(*ls, s)) out += model_offer_detail(model_offer_bytes(*ls, c)) + "\n";
  if (ls->cache_shown.shown > 0) out += cache_clear_button(ls->cache_shown.shown) + "\n";
  if (!ls->cache_note.empty()) out += ls->cache_note + "\n";
  const std::string typed = sentence_status_line(ls);
  if (!typed.empty()) out += typed + "\n";
  return out;
}

std::string gates_view_text(const lab_state& s, live_session* ls, const live_choice& c) {
  if (s.gates_input == LAB_GATES_STREAM) return gates_stream_view_text(s, ls);  // the whole model's
  const source_model& m = ls->source->model();
  std::string token;
  if (c.hist_token >= 0)
    token = std::string(tr(STR_GATES_TOKEN)) + tr(STR_MIRROR_COLON) + std::to_string(c.hist_token) + " " +
            live_token_text(m, c.probe, c.hist_token) + "\n";
  return gates_rows_text(s, live_gate_rows(ls, s, c), m.synthetic, token);
}

// [SECTION] typing a sentence (sentence_tokenizer.h)
std::string sentence_failure_text(const sentence_tokenizer& t) {
  return t.failure() == SENTENCE_OK ? "" : fault_needs_ids_why(sentence_failure_error(t));
}

std::string sentence_status_line(const live_session* ls) {
  const sentence_tokenizer* t = ls->typing.get();
  if (!t) return "";
  if (t->state() == SENTENCE_FETCHING || t->state() == SENTENCE_TOKENIZING) return strf(tr(STR_TOK_WORKING), SENTENCE_TOKENIZER_FILE);
  if (t->state() == SENTENCE_FAILED) return sentence_failure_text(*t);
  return ls->sentence_note;
}
