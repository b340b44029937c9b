// The whole model's answers in a link (see class_answers.h; the byte-level table: docs/links.md).
//
// The format's layout is written once, as templates over the direction (the [SECTION] layout
// below): the writer and the reader walk the same fields in the same order, so they cannot drift,
// and every check of a field (a count, a range, the carried shape) is made by the same line in both
// directions: an answer the reader would refuse is one the writer leaves out.
#include "core/views/class_answers.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "core/views/gates_figure.h"
#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "core/base/number_parse.h"
#include "core/views/class_answers_io.h"

namespace {
using namespace answers_wire;

// [SECTION] layout (docs/links.md's table, field by field)
// The model's location as a 32-bit FNV-1a digest: the link holds it in full as model=, and the
// answers need only say they are that model's (a link edited to another model= has another digest).
uint32_t location_digest(const std::string& location) {
  uint32_t h = 2166136261u;
  for (unsigned char c : location) h = (h ^ c) * 16777619u;
  return h;
}

// The reader comes with a.model set to the link's model=: the digests must agree. `version`: the
// link's (a version-1 link has no ETags' digest).
template <class IO>
void layout_header(IO& io, class_answers& a, uint64_t version) {
  const uint32_t expected = location_digest(a.model);
  uint32_t carried = expected;
  io.fixed32(carried);
  io.need(carried == expected, ANSWERS_OTHER_MODEL);
  io.hex_or_str(a.revision, kMaxRevision);
  if (version >= 2) io.hex_or_str(a.revision_files, kMaxRevision);
  io.str(a.format, kMaxFormat);
  io.str(a.name, kMaxName);
  io.u(a.layers, 1, LAB_LAYERS_MAX);
  io.u(a.hidden, 1, LAB_HIDDEN_MAX);
  io.u(a.intermediate, 1, LAB_UNIT_MAX);
  io.u(a.vocab, 1, int64_t(LAB_TOKEN_ID_MAX) + 1);
  int flags = a.synthetic ? 1 : 0;
  io.u(flags, 0, 1);
  a.synthetic = flags & 1;
}

template <class IO>
void layout_tokens(IO& io, std::vector<token_text>& list) {
  size_t n = list.size();
  io.count(n, kMaxTokens);
  list.resize(n);
  int64_t prev = 0;
  // Sorted by id, each as the step from the one before (18 bits or less for Qwen's 248,320 ids
  // among a hundred tokens) times 8 plus its coded piece's length in bytes when below 7 (7: the
  // length follows), then the coded piece: most tokens take a byte less than step and length apart.
  for (token_text& t : list) {
    if (!IO::reading) io.need(t.piece.size() <= kMaxPiece && utf8_ok(t.piece), ANSWERS_TEXT);
    std::string coded = IO::reading || !io.ok() ? std::string() : piece_pack(t.piece);
    const int64_t short_len = int64_t(std::min<size_t>(coded.size(), 7));
    int64_t head = (t.id - prev) * 8 + short_len;
    io.u(head, 0, (int64_t(io.shape->vocab) - 1 - prev) * 8 + 7);
    t.id = prev + head / 8;
    prev = t.id;
    int64_t len = head % 8, more = int64_t(coded.size()) - 7;
    if (len == 7) io.u(more, 0, kMaxPiece - 7, ANSWERS_TEXT), len = 7 + more;
    io.raw_bytes(coded, size_t(len));
    if (IO::reading && io.ok()) io.need(piece_unpack(coded, &t.piece), ANSWERS_TEXT);
  }
}

template <class IO>
void layout_token_list(IO& io, std::vector<token_text>& list) {
  size_t n = list.size();
  io.count(n, kMaxList);
  list.resize(n);
  for (token_text& t : list) io.token(t);
}

std::string joined_pieces(const std::vector<token_text>& prompt) {
  std::string out;
  for (const token_text& t : prompt) out += t.piece;
  return out;
}

std::vector<int64_t> prompt_ids(const std::vector<token_text>& prompt) {
  std::vector<int64_t> out;
  for (const token_text& t : prompt) out.push_back(t.id);
  return out;
}

// The question, after the reply's prompt: a prompt given as the reply's own ids, or as text the
// reply's pieces join back to, is a flag, not written again.
enum {
  Q_IDS = 1, Q_IDS_ARE_PROMPT = 2, Q_TEXT = 4, Q_TEXT_IS_PROMPT = 8, Q_UNIT = 16, Q_GATES = 32, Q_THRESHOLD = 64,
  Q_FLAGS = 127
};

template <class IO>
void layout_question(IO& io, model_question& q, const std::vector<token_text>& prompt) {
  int flags = 0;
  if (!IO::reading) {
    const model_question plain;
    flags |= q.ids.empty() ? 0 : q.ids == prompt_ids(prompt) ? Q_IDS | Q_IDS_ARE_PROMPT : Q_IDS;
    flags |= q.text.empty() ? 0 : q.text == joined_pieces(prompt) ? Q_TEXT | Q_TEXT_IS_PROMPT : Q_TEXT;
    flags |= q.unit == plain.unit ? 0 : Q_UNIT;
    flags |= q.gate_layers.empty() ? 0 : Q_GATES;
    flags |= q.threshold == plain.threshold && q.gate_token == plain.gate_token ? 0 : Q_THRESHOLD;
  }
  io.u(flags, 0, Q_FLAGS);
  io.need(!(flags & Q_IDS_ARE_PROMPT) || (flags & Q_IDS), ANSWERS_RANGE);
  io.need(!(flags & Q_TEXT_IS_PROMPT) || (flags & Q_TEXT), ANSWERS_RANGE);
  if (flags & Q_IDS_ARE_PROMPT) {
    if (IO::reading) q.ids = prompt_ids(prompt);
  } else if (flags & Q_IDS) {
    size_t n = q.ids.size();
    io.count(n, MODEL_MAX_TOKENS);
    q.ids.resize(n);
    for (int64_t& id : q.ids) io.u(id, 0, LAB_TOKEN_ID_MAX);
  }
  if (flags & Q_TEXT_IS_PROMPT) {
    if (IO::reading) q.text = joined_pieces(prompt);
    io.need(q.text.size() <= LAB_TEXT_MAX, ANSWERS_RANGE);
  } else if (flags & Q_TEXT) {
    io.str(q.text, LAB_TEXT_MAX);
  }
  io.need(!(flags & Q_IDS) || !q.ids.empty(), ANSWERS_COUNT);
  io.need(!(flags & Q_TEXT) || !q.text.empty(), ANSWERS_COUNT);
  size_t n_off = q.off.size();
  io.count(n_off, 16);  // off= holds at most 16 units (url_state.cpp)
  q.off.resize(n_off);
  for (unit_ref& u : q.off) io.u(u.layer, 0, LAB_LAYERS_MAX - 1), io.u(u.unit, 0, LAB_UNIT_MAX - 1);
  io.u(q.position, -1, LAB_TOKENS_MAX - 1);
  if (flags & Q_UNIT) io.u(q.unit.layer, -1, LAB_LAYERS_MAX - 1), io.u(q.unit.unit, -1, LAB_UNIT_MAX - 1);
  if (flags & Q_GATES) {
    size_t n = q.gate_layers.size();
    io.count(n, kMaxList);
    q.gate_layers.resize(n);
    for (int& l : q.gate_layers) io.u(l, 0, LAB_LAYERS_MAX - 1);
  }
  if (flags & Q_THRESHOLD) {
    // The threshold as the shortest text that reads back as the same double (thr= writes it so).
    std::string thr = IO::reading ? std::string() : fmt_short(q.threshold);
    io.need(q.threshold >= 0 && q.threshold <= 1, ANSWERS_RANGE);
    io.str(thr, kMaxThresholdText);
    if (IO::reading) io.need(parse_number(thr, &q.threshold) && q.threshold >= 0 && q.threshold <= 1, ANSWERS_RANGE);
    io.u(q.gate_token, -1, LAB_TOKENS_MAX - 1);
  }
}

// The next-token rows as the rule book prints them: with units off, each probability before and
// after (rules_next_rows); without, the one.
template <class IO>
void layout_next(IO& io, std::vector<model_next_token>& list, bool off) {
  size_t n = list.size();
  io.count(n, kMaxList);
  list.resize(n);
  for (model_next_token& t : list) {
    io.token(t.token);
    if (off) io.before_after(t.p_before, t.p);
    else io.percent(t.p), t.p_before = t.p;
  }
}

template <class IO>
void layout_unit(IO& io, unit_ref& u) {
  io.u(u.layer, 0, io.shape->layers - 1);
  io.u(u.unit, 0, io.shape->intermediate - 1);
}

template <class IO>
void layout_rules(IO& io, const model_question& q, model_reply& r) {
  const bool off = !q.off.empty();
  // With units off the rule book lists the run before them (before_top) with both probabilities,
  // and the tokens that rose; without, the top. What it does not print is not carried.
  if (!IO::reading && off && !r.before_top.empty()) r.top.clear();
  if (!IO::reading && !off) r.before_top.clear(), r.rising.clear();
  layout_next(io, r.top, off);
  layout_next(io, r.before_top, off);
  layout_next(io, r.rising, off);
  size_t n = r.units.size();
  io.count(n, kMaxList);
  r.units.resize(n);
  for (model_unit_row& u : r.units) {
    layout_unit(io, u.unit);
    io.six(u.value);
    layout_token_list(io, u.toward);
  }
  // The picked unit: its layer + 1 (0: none), its unit, what it writes toward, and at each token of
  // the prompt its activation and, as far as the reply has them, its two factors.
  int picked = r.picked.unit.layer < 0 ? 0 : r.picked.unit.layer + 1;
  io.u(picked, 0, io.shape->layers);
  if (picked == 0) {
    r.picked = model_unit_row();
    r.picked.unit = {-1, -1};
    r.picked_per_token.clear(), r.picked_gate.clear(), r.picked_up.clear();
    return;
  }
  r.picked.unit.layer = picked - 1;
  io.u(r.picked.unit.unit, 0, io.shape->intermediate - 1);
  layout_token_list(io, r.picked.toward);
  if (!IO::reading) {
    r.picked_per_token.resize(std::min(r.picked_per_token.size(), r.prompt.size()));
    const size_t factors = std::min(r.picked_per_token.size(), std::min(r.picked_gate.size(), r.picked_up.size()));
    r.picked_gate.resize(factors), r.picked_up.resize(factors);
  }
  size_t per_token = r.picked_per_token.size(), factors = r.picked_gate.size();
  io.count(per_token, r.prompt.size());
  io.count(factors, per_token);
  r.picked_per_token.resize(per_token), r.picked_gate.resize(factors), r.picked_up.resize(factors);
  for (size_t t = 0; t < per_token; t++) {
    io.six(r.picked_per_token[t]);
    if (t < factors) io.six(r.picked_gate[t]), io.six(r.picked_up[t]);
  }
  if (IO::reading) r.picked.value = size_t(r.position) < per_token ? r.picked_per_token[size_t(r.position)] : 0.0f;
}

// The flow's printed rows and extremes from these L2s: what the carried values must reproduce.
std::string flow_printed(const std::vector<model_layer_flow>& flow) {
  model_reply r;
  r.flow = flow;
  lab_state s = lab_state_default();
  s.layer = -1;
  std::string out = flow_extremes_text(r) + "\n";
  for (const view_row& row : flow_rows(r, s)) out += view_row_line(row) + "\n";
  return out;
}

// The flow: one row a layer. Each L2 as its six decimals (mode 0), unless a ratio computed from
// those would print otherwise, or another layer would read as the largest or smallest (a tie
// broken by the seventh digit): then every L2 as its float's 4 bytes (mode 1), exactly the
// teacher's.
template <class IO>
void layout_flow(IO& io, model_reply& r) {
  size_t n = r.flow.size();
  io.count(n, LAB_LAYERS_MAX);
  io.need(n == size_t(io.shape->layers), ANSWERS_COUNT);
  r.flow.resize(n);
  int mode = 0;
  if (!IO::reading) {
    std::vector<model_layer_flow> rounded = r.flow;
    for (model_layer_flow& f : rounded) {
      uint64_t a = 0, b = 0;
      if (!six_code(f.mlp_l2, &a) || !six_code(f.out_l2, &b) || !six_value(a, &f.mlp_l2) || !six_value(b, &f.out_l2)) mode = 1;
    }
    if (mode == 0 && flow_printed(rounded) != flow_printed(r.flow)) mode = 1;
  }
  io.u(mode, 0, 1);
  for (model_layer_flow& f : r.flow) {
    if (mode == 0) io.six(f.mlp_l2, true), io.six(f.out_l2, true);
    else io.raw(f.mlp_l2, true), io.raw(f.out_l2, true);
  }
}

// The gates view on the stream: each layer's counts on the stream (with the histogram as drawn:
// 30 bins and the overflow bar, whose sum is the total) and on the shortcut (its shares only).
template <class IO>
void layout_gates(IO& io, model_reply& r) {
  size_t n = r.gate_layers.size();
  io.count(n, kMaxList);
  r.gate_layers.resize(n);
  for (int& l : r.gate_layers) io.u(l, 0, io.shape->layers - 1);
  size_t n_stream = r.gates_stream.size(), n_shortcut = r.gates_shortcut.size();
  io.count(n_stream, n);
  io.count(n_shortcut, n);
  r.gates_stream.resize(n_stream), r.gates_shortcut.resize(n_shortcut);
  for (mlp_gate_counts& c : r.gates_stream) {
    int64_t bars[kShownBins] = {0};
    if (!IO::reading) {
      int64_t sum = 0;
      for (int b = 0; b < GATE_HIST_BINS; b++) bars[std::min(b, kShownBins - 1)] += c.histogram[b], sum += c.histogram[b];
      io.need(sum == c.total, ANSWERS_COUNT);
    }
    int64_t open = c.open, negative = c.negative, total = 0;
    io.u(open, 0, kMaxCount);
    io.u(negative, 0, kMaxCount);
    for (int64_t& b : bars) io.u(b, 0, kMaxCount), total += b;
    if (IO::reading) {
      c = mlp_gate_counts();
      c.total = total, c.open = open, c.negative = negative;
      for (int b = 0; b < kShownBins; b++) c.histogram[b] = bars[b];
    }
    io.need(c.open + c.negative <= c.total, ANSWERS_COUNT);
  }
  for (mlp_gate_counts& c : r.gates_shortcut) {
    io.u(c.total, 0, kMaxCount);
    io.u(c.open, 0, kMaxCount);
    io.u(c.negative, 0, kMaxCount);
    io.need(c.open + c.negative <= c.total, ANSWERS_COUNT);
  }
}

template <class IO>
void layout_answer(IO& io, carried_answer& a) {
  model_reply& r = a.reply;
  io.need(!r.error.failed(), ANSWERS_RANGE);
  io.u(a.parts, 1, CLASS_PART_RULES | CLASS_PART_FLOW | CLASS_PART_GATES);
  layout_token_list(io, r.prompt);
  io.need(!r.prompt.empty() && r.prompt.size() <= MODEL_MAX_TOKENS, ANSWERS_COUNT);
  io.u(r.position, 0, int64_t(r.prompt.size()) - 1);
  layout_question(io, a.question, r.prompt);
  if (a.parts & CLASS_PART_RULES) layout_rules(io, a.question, r);
  if (a.parts & CLASS_PART_FLOW) layout_flow(io, r);
  if (a.parts & CLASS_PART_GATES) layout_gates(io, r);
}

// [SECTION] the whole text
// One link's bytes: the version, the header, the table of every token the answers name, the answers.
std::string write_link(const class_answers& a, const std::vector<carried_answer>& answers, bool* ok) {
  std::set<token_key> tokens;
  for (carried_answer c : answers) {
    answers_writer w;
    w.shape = &a;
    w.collect = &tokens;
    layout_answer(w, c);
  }
  std::map<token_key, int64_t> index;
  std::vector<token_text> table;
  for (const token_key& k : tokens) index[k] = int64_t(table.size()), table.push_back({k.first, k.second});
  answers_writer w;
  w.shape = &a;
  w.index = &index;
  w.varint(CLASS_ANSWERS_VERSION);
  class_answers header = a;
  if (header.revision_files == header.revision) header.revision_files.clear();  // the digest once
  layout_header(w, header, CLASS_ANSWERS_VERSION);
  layout_tokens(w, table);
  size_t n = answers.size();
  w.count(n, CLASS_ANSWERS_MAX);
  for (carried_answer c : answers) layout_answer(w, c);
  *ok = w.ok();
  return w.out;
}

}  // namespace

model_status class_answers_status(const class_answers& a) {
  model_status s;
  s.location = a.model;
  s.phase = MODEL_STATUS_READY;
  s.name = a.name;
  s.synthetic = a.synthetic;
  s.layers = a.layers, s.hidden = a.hidden, s.intermediate = a.intermediate, s.vocab = a.vocab;
  return s;
}

unsigned class_answers_question_parts(const model_question& q) {
  if (!q.gate_layers.empty()) return CLASS_PART_GATES;
  return q.unit.layer >= 0 ? CLASS_PART_RULES : CLASS_PART_RULES | CLASS_PART_FLOW;
}

unsigned class_answers_view_part(lab_view view) {
  return view == LAB_VIEW_RULES ? CLASS_PART_RULES : view == LAB_VIEW_FLOW ? CLASS_PART_FLOW
                                                   : view == LAB_VIEW_GATES ? CLASS_PART_GATES : 0;
}

class_answers class_answers_for(const model_status& st, const std::string& model) {
  class_answers a;
  a.model = model;
  a.name = st.name;
  a.revision = st.revision;
  a.revision_files = st.revision_files;
  a.layers = st.layers, a.hidden = st.hidden, a.intermediate = st.intermediate, a.vocab = st.vocab;
  a.synthetic = st.synthetic;
  return a;
}

std::string class_answers_encode(const class_answers& a, size_t* carried) {
  if (carried) *carried = 0;
  // The header alone must be carriable (its shape within the format's bounds).
  class_answers header = a;
  answers_writer hw;
  hw.shape = &a;
  layout_header(hw, header, CLASS_ANSWERS_VERSION);
  if (!hw.ok()) return "";
  // Each answer alone: left out when any of its fields cannot be carried.
  std::vector<carried_answer> kept;
  for (const carried_answer& given : a.answers) {
    if (kept.size() == CLASS_ANSWERS_MAX) break;
    carried_answer c = given;
    if (c.parts == 0) c.parts = class_answers_question_parts(c.question) & ~(c.reply.flow.empty() ? unsigned(CLASS_PART_FLOW) : 0u);
    std::set<token_key> tokens;
    answers_writer w;
    w.shape = &a;
    w.collect = &tokens;
    carried_answer probe = c;
    layout_answer(w, probe);
    if (w.ok()) kept.push_back(c);
  }
  // The last ones out until the text fits the link's bound.
  for (; !kept.empty(); kept.pop_back()) {
    bool ok = false;
    const std::string text = b64_encode(write_link(a, kept, &ok));
    if (ok && text.size() <= CLASS_ANSWERS_MAX_CHARS) {
      if (carried) *carried = kept.size();
      return text;
    }
  }
  return "";
}

// A commit as the status names it: its first 12 hex digits (a branch or a tag is a name).
static bool commit_like(const std::string& r) {
  if (r.size() != 12) return false;
  for (char c : r)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool class_answers_other_revision(const class_answers& a, const model_status& now) {
  if (a.revision.empty() || now.revision.empty()) return false;  // a host that names none: unknown
  if (!a.revision_files.empty() && !now.revision_files.empty()) {
    if (a.revision_files == now.revision_files) return false;
    // Other files: still the same weights only where both pages read one commit (a commit does not
    // change; a branch or a tag by name may have moved, and a revision equal to its page's digest
    // is that digest, not a commit).
    const bool commits = commit_like(a.revision) && a.revision != a.revision_files && now.revision != now.revision_files;
    return !(commits && a.revision == now.revision);
  }
  // A link without the digest (version 1, or one whose revision is the digest itself): any
  // identity both pages know.
  const std::string then[] = {a.revision, a.revision_files}, here[] = {now.revision, now.revision_files};
  for (const std::string& t : then)
    for (const std::string& h : here)
      if (!t.empty() && t == h) return false;
  return true;
}

bool class_answers_decode(const std::string& text, const class_answers_context& ctx, class_answers* out, answers_refusal* why) {
  answers_refusal no;
  answers_refusal& r = why ? *why : no;
  r = answers_refusal();
  if (text.size() > CLASS_ANSWERS_MAX_CHARS) return r.code = ANSWERS_TOO_LONG, false;
  std::string bytes;
  if ((r.code = b64_decode(text, &bytes)) != ANSWERS_OK) return false;
  class_answers a;
  a.model = ctx.model;
  std::vector<token_text> table;
  answers_reader rd;
  rd.in = &bytes;
  rd.shape = &a;
  rd.table = &table;
  const uint64_t version = rd.varint();
  if (!rd.ok()) return r.code = rd.refused, r.at = rd.at, false;
  if (version < 1 || version > CLASS_ANSWERS_VERSION) {
    r.code = ANSWERS_VERSION;
    r.value = version > 1000000 ? 1000000 : unsigned(version);
    return false;
  }
  layout_header(rd, a, version);
  layout_tokens(rd, table);
  const uint64_t n = rd.ok() ? rd.varint() : 0;
  rd.need(n <= CLASS_ANSWERS_MAX, ANSWERS_TOO_MANY);
  rd.need(n <= rd.left(), ANSWERS_TRUNCATED);
  for (uint64_t i = 0; rd.ok() && i < n; i++) {
    carried_answer c;
    layout_answer(rd, c);
    a.answers.push_back(c);
  }
  rd.need(rd.left() == 0, ANSWERS_TRAILING);
  if (!rd.ok()) return r.code = rd.refused, r.at = rd.at, false;
  *out = a;
  return true;
}

const carried_answer* class_answers_find(const class_answers& a, const model_question& q, unsigned parts) {
  for (const carried_answer& c : a.answers)
    if (c.question == q && (c.parts & parts) == parts) return &c;
  return nullptr;
}

std::string class_answers_refusal_text(const answers_refusal& why) {
  std::string reason;
  switch (why.code) {
    case ANSWERS_OK: return "";
    case ANSWERS_TOO_LONG: reason = strf(tr(STR_ANS_TOO_LONG), fmt_count(CLASS_ANSWERS_MAX_CHARS).c_str()); break;
    case ANSWERS_ALPHABET: reason = tr(STR_ANS_ALPHABET); break;
    case ANSWERS_TRUNCATED: reason = tr(STR_ANS_TRUNCATED); break;
    case ANSWERS_VERSION: reason = strf(tr(STR_ANS_VERSION), std::to_string(why.value).c_str()); break;
    case ANSWERS_OTHER_MODEL: reason = tr(STR_ANS_OTHER_MODEL); break;
    case ANSWERS_TOO_MANY: reason = strf(tr(STR_ANS_TOO_MANY), std::to_string(CLASS_ANSWERS_MAX).c_str()); break;
    case ANSWERS_COUNT: reason = tr(STR_ANS_COUNT); break;
    case ANSWERS_RANGE: reason = tr(STR_ANS_RANGE); break;
    case ANSWERS_TOKEN: reason = tr(STR_ANS_TOKEN); break;
    case ANSWERS_TEXT: reason = tr(STR_ANS_TEXT); break;
    case ANSWERS_TRAILING: reason = tr(STR_ANS_TRAILING); break;
  }
  return strf(tr(STR_ANS_REFUSED), "ans", reason.c_str());
}
