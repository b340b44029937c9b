// The live views' choices, rows and mirror text (see live_view.h).
#include "core/live_view.h"

#include <algorithm>
#include <cstdio>

#include "core/number_format.h"
#include "core/strings.h"
#include "core/view_table.h"

std::string live_pack_location(const lab_state& s) { return s.pack.empty() ? LIVE_DEFAULT_PACK : s.pack; }

live_choice live_resolve(const lab_state& s, const pack_stream* st) {
  live_choice c;
  if (!st || st->phase != PACK_STREAM_READY) return c;
  const pack_manifest& m = st->manifest;
  c.ready = true;
  for (int64_t l : s.pack_layers)
    if (m.find_layer((int)l) >= 0 && std::find(c.layers.begin(), c.layers.end(), (int)l) == c.layers.end() &&
        c.layers.size() < LIVE_MAX_HIST_LAYERS)
      c.layers.push_back((int)l);
  if (c.layers.empty()) {
    // Every pack layer when they fit side by side, else the first, middle and last (as the lessons pick 0, 11, 23).
    const size_t n = m.layers.size();
    if (n <= LIVE_MAX_HIST_LAYERS) {
      for (const pack_layer& l : m.layers) c.layers.push_back(l.layer);
    } else {
      c.layers = {m.layers[0].layer, m.layers[n / 2].layer, m.layers[n - 1].layer};
    }
  }
  c.layer = s.layer >= 0 && m.find_layer((int)s.layer) >= 0 ? (int)s.layer : c.layers[0];
  c.probe = s.probe >= 0 && s.probe < (int64_t)m.probes.size() ? (int)s.probe : 0;
  c.tokens = (int)m.probes[c.probe].tokens.size();
  c.perm = mlp_default_perm(c.tokens);
  if (!s.perm.empty()) {
    std::vector<int> p(s.perm.begin(), s.perm.end());
    std::vector<int> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    bool ok = (int)p.size() == c.tokens;
    for (int i = 0; ok && i < c.tokens; i++) ok = sorted[i] == i;
    if (ok) c.perm = p;
    c.perm_from_link = ok;
  }
  c.token = (int)std::min<int64_t>(std::max<int64_t>(s.token, 0), c.tokens - 1);
  c.unit = (int)std::min<int64_t>(s.unit, m.intermediate - 1);
  return c;
}

std::vector<live_gate_row> live_gate_rows(const lab_state& s, const pack_stream* st, const live_choice& c) {
  std::vector<live_gate_row> rows;
  for (int layer : c.layers) {
    live_gate_row r;
    r.layer = layer;
    r.layer_index = pack_stream_layer_index(st, layer);
    const int token = s.hist_token >= 0 && s.hist_token < c.tokens ? (int)s.hist_token : -1;
    r.available = pack_stream_gate_counts(st, r.layer_index, s.threshold, c.probe, token, &r.counts, &r.live);
    rows.push_back(r);
  }
  return rows;
}

bool live_perm_update(live_perm_cache* k, pack_stream* st, const lab_state& s, const live_choice& c) {
  if (!c.ready) return false;
  const bool same = k->valid && k->layer == c.layer && k->probe == c.probe && k->token == c.token && k->perm == c.perm &&
                    k->delta == s.delta;
  if (same) return true;
  const int li = pack_stream_layer_index(st, c.layer);
  const pack_layer_data* d = pack_stream_whole_layer(st, li);
  const std::vector<float>& x = st->inputs[c.probe];
  if (!d || x.empty()) return false;
  const swiglu_q8_layer L = d->view((int)st->manifest.hidden, (int)st->manifest.intermediate);
  k->perm_result = mlp_permutation_test(&L, x.data(), c.tokens, c.perm);
  k->change = mlp_token_change(&L, x.data(), c.tokens, c.token, (float)s.delta);
  k->layer = c.layer;
  k->probe = c.probe;
  k->token = c.token;
  k->perm = c.perm;
  k->delta = s.delta;
  k->valid = true;
  return true;
}

std::string live_percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100.0 * share);
  return buf;
}

std::string live_token_text(const pack_manifest& m, int probe, int token) {
  const pack_probe& p = m.probes[probe];
  if (token < (int)p.pieces.size() && !p.pieces[token].empty()) return p.pieces[token];
  return "#" + std::to_string(p.tokens[token]);
}

static std::string fmt(const char* f, const std::string& a, const std::string& b = "", const std::string& c = "",
                       const std::string& d = "") {
  char buf[1024];
  std::snprintf(buf, sizeof buf, f, a.c_str(), b.c_str(), c.c_str(), d.c_str());
  return buf;
}

std::string live_pack_info(const pack_stream* st) {
  const pack_manifest& m = st->manifest;
  std::string layers;
  for (const pack_layer& l : m.layers) layers += (layers.empty() ? "" : ", ") + std::to_string(l.layer);
  return fmt(tr(STR_LIVE_PACK), m.model_id) + " (" + tr(m.synthetic ? STR_LIVE_SYNTHETIC : STR_LIVE_REAL) + ")" + tr(STR_MIRROR_SEP) +
         fmt(tr(STR_LIVE_DIMS), std::to_string(m.hidden), std::to_string(m.intermediate), layers, std::to_string(m.num_layers));
}

static std::string megabytes(uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", b / 1048576.0);
  return buf;
}

std::vector<std::string> live_status_lines(const pack_stream* st) {
  std::vector<std::string> lines;
  if (st->phase == PACK_STREAM_MANIFEST) lines.push_back(tr(STR_LIVE_LOADING_MANIFEST));
  if (st->phase == PACK_STREAM_READY) {
    const pack_stream_progress p = pack_stream_progress_of(st, -1);
    if (p.loading > 0 || p.loaded < p.total) lines.push_back(fmt(tr(STR_LIVE_PROGRESS), megabytes(p.loaded), megabytes(p.total)));
  }
  for (const std::string& e : pack_stream_errors(st)) lines.push_back(fmt(tr(STR_LIVE_FAILED), e));
  if (!st->storage_notice.empty())
    lines.push_back(tr(st->storage_notice.find("quota") != std::string::npos ? STR_LIVE_STORAGE_FULL : STR_LIVE_STORAGE_NONE));
  return lines;
}

// [SECTION] mirror
static std::string probe_line(const pack_stream* st, const live_choice& c) {
  const pack_probe& p = st->manifest.probes[c.probe];
  std::string tokens;
  for (int t = 0; t < c.tokens; t++) tokens += (t ? " | " : "") + live_token_text(st->manifest, c.probe, t);
  return std::string(tr(STR_LIVE_PROBE)) + tr(STR_MIRROR_COLON) + "\"" + p.label + "\" (" + std::to_string(c.tokens) + ")" +
         tr(STR_MIRROR_COLON) + tokens + "\n";
}

static std::string gates_text(const lab_state& s, const pack_stream* st, const live_choice& c) {
  const std::string thr = fmt_short(s.threshold);
  std::string out = fmt(tr(STR_GATES_OPEN), thr) + "; " + fmt(tr(STR_GATES_NEGATIVE), thr) + "\n";
  if (s.hist_token >= 0 && s.hist_token < c.tokens)
    out += std::string(tr(STR_GATES_TOKEN)) + tr(STR_MIRROR_COLON) + std::to_string(s.hist_token) + " " +
           live_token_text(st->manifest, c.probe, (int)s.hist_token) + "\n";
  for (const live_gate_row& r : live_gate_rows(s, st, c)) {
    out += fmt(tr(STR_LIVE_LAYER_N), std::to_string(r.layer)) + tr(STR_MIRROR_COLON);
    if (!r.available) {
      out += std::string(tr(STR_LIVE_WAITING)) + "\n";
      continue;
    }
    const std::string colon = tr(STR_MIRROR_COLON), sep = tr(STR_MIRROR_SEP);
    out += std::string("(") + tr(r.live ? STR_LIVE_LIVE : STR_LIVE_PRECOMPUTED) + ") > " + thr + colon +
           live_percent(r.counts.open_share()) + sep + "< -" + thr + colon + live_percent(r.counts.negative_share()) + sep +
           tr(STR_GATES_BETWEEN) + colon + live_percent(1 - r.counts.open_share() - r.counts.negative_share()) + "\n";
  }
  return out;
}

static std::string perm_text(const lab_state& s, const pack_stream* st, const live_choice& c, const live_perm_cache* k) {
  std::string order;
  for (int i : c.perm) order += (order.empty() ? "" : ", ") + std::to_string(i);
  std::string out = fmt(tr(STR_LIVE_LAYER_N), std::to_string(c.layer)) + "\n";
  if (!c.perm_from_link) out += fmt(tr(STR_PERM_BAD_LINK), std::to_string(c.tokens)) + "\n";
  out += "perm = [" + order + "]\n";
  if (!k || !k->valid) return out + tr(STR_LIVE_NEEDS_WHOLE) + "\n";
  out += fmt(tr(STR_PERM_RESULT), k->perm_result.max_abs_diff == 0 ? std::string(tr(STR_PERM_EXACT))
                                                                    : fmt6(k->perm_result.max_abs_diff)) + "\n";
  out += std::string(tr(STR_PERM_TOKEN)) + " = " + std::to_string(c.token) + tr(STR_MIRROR_SEP) + tr(STR_PERM_DELTA) + " = " +
         fmt_short(s.delta) + "\n" + tr(STR_PERM_CHANGE_ROW) + ":\n";
  for (int t = 0; t < c.tokens; t++)
    out += "  " + std::to_string(t) + " " + live_token_text(st->manifest, c.probe, t) + tr(STR_MIRROR_COLON) +
           (k->change[t] == 0 ? std::string("0") : fmt6(k->change[t])) + "\n";
  return out;
}

static std::string weights_text(const lab_state& s, const pack_stream* st, const live_choice& c) {
  static const char* const names[LAB_MATRIX_COUNT] = {"W_gate", "W_up", "W_down"};
  const pack_manifest& m = st->manifest;
  std::string out = fmt(tr(STR_LIVE_LAYER_N), std::to_string(c.layer)) + tr(STR_MIRROR_SEP) + names[s.matrix] + " (" +
                    std::to_string(s.matrix == LAB_MATRIX_DOWN ? m.hidden : m.intermediate) + " x " +
                    std::to_string(s.matrix == LAB_MATRIX_DOWN ? m.intermediate : m.hidden) + ")" + tr(STR_MIRROR_SEP) + tr(STR_WEIGHTS_UNIT) +
                    " " + std::to_string(c.unit) + "\n";
  const int li = pack_stream_layer_index(st, c.layer);
  if (li < 0 || !st->layers[li].live) return out + tr(STR_LIVE_NEEDS_WHOLE) + "\n";
  out += std::string(tr(STR_WEIGHTS_SILU)) + tr(STR_MIRROR_COLON);
  const std::vector<float>& v = st->layers[li].silu[c.probe];
  for (int t = 0; t < c.tokens; t++)
    out += live_token_text(m, c.probe, t) + " " + fmt6(v[(size_t)t * m.intermediate + c.unit]) + (t + 1 < c.tokens ? tr(STR_MIRROR_SEP) : "");
  return out + "\n";
}

std::string live_text(const lab_state& s, const pack_stream* st, const live_perm_cache* perm) {
  std::string out = fmt(tr(STR_MIRROR_TITLE), tr(lab_view_get(s.view).label)) + "\n";
  if (!st) return out;
  const live_choice c = live_resolve(s, st);
  if (c.ready) out += live_pack_info(st) + "\n" + probe_line(st, c);
  for (const std::string& line : live_status_lines(st)) out += line + "\n";
  if (!c.ready) return out;
  if (s.view == LAB_VIEW_GATES) out += gates_text(s, st, c);
  if (s.view == LAB_VIEW_PERM) out += perm_text(s, st, c, perm);
  if (s.view == LAB_VIEW_WEIGHTS) out += weights_text(s, st, c);
  return out;
}
