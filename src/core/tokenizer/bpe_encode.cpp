// Text -> ids, in the order the `tokenizers` library runs: repair UTF-8, split out added tokens,
// normalize, pre-tokenize, then BPE on each pre-token's bytes with merges applied by rank.
#include <queue>
#include <string>
#include <vector>

#include "core/tokenizer/bpe_model.h"
#include "core/tokenizer/bpe_tokenizer.h"
#include "core/tokenizer/tok_text.h"

struct bpe_segment {
  std::string text;
  int added_id;  // -1: ordinary text still to tokenize
};

// [SECTION] added tokens: leftmost-longest, before the model sees anything

static size_t utf8_char_start_before(const std::string& s, size_t at) {
  size_t p = at - 1;
  while (p > 0 && (static_cast<unsigned char>(s[p]) & 0xC0) == 0x80) --p;
  return p;
}

static bool added_word_edge_ok(const std::string& s, size_t begin, size_t end) {
  if (begin > 0 && tok_is_word_char(tok_utf8_decode_at(s, utf8_char_start_before(s, begin)))) return false;
  return end >= s.size() || !tok_is_word_char(tok_utf8_decode_at(s, end));
}

// Splits s around the added tokens whose `normalized` flag equals `normalized` (the library
// matches the others on the raw text and these on the normalized text). lstrip / rstrip take the
// whitespace beside a match into the match, so the model never sees it.
static void added_split(const bpe_model& m, const std::string& s, bool normalized, std::vector<bpe_segment>* out) {
  bool first_byte[256] = {false};
  bool any = false;
  for (const bpe_added_token& a : m.added)
    if (a.normalized == normalized) first_byte[static_cast<unsigned char>(a.content[0])] = any = true;
  if (!any) { out->push_back({s, -1}); return; }
  size_t done = 0, i = 0;
  while (i < s.size()) {
    const bpe_added_token* hit = nullptr;
    if (first_byte[static_cast<unsigned char>(s[i])])
      for (const bpe_added_token& a : m.added)  // longest first
        if (a.normalized == normalized && s.compare(i, a.content.size(), a.content) == 0 &&
            (!a.single_word || added_word_edge_ok(s, i, i + a.content.size()))) { hit = &a; break; }
    if (!hit) { ++i; continue; }
    size_t begin = i, end = i + hit->content.size();
    if (hit->lstrip)
      while (begin > done) {
        size_t p = utf8_char_start_before(s, begin);
        if (!tok_is_whitespace(tok_utf8_decode_at(s, p))) break;
        begin = p;
      }
    if (hit->rstrip)
      while (end < s.size()) {
        size_t len = tok_utf8_char_len(s, end);
        if (!tok_is_whitespace(tok_utf8_decode_at(s, end))) break;
        end += len;
      }
    if (begin > done) out->push_back({s.substr(done, begin - done), -1});
    out->push_back({std::string(), hit->id});
    done = i = end;
  }
  if (done < s.size()) out->push_back({s.substr(done), -1});
}

// [SECTION] pre-tokenizers

static void split_apply(const bpe_pretok_step& step, const std::string& piece, std::vector<std::string>* out,
                        bool* ok) {
  std::vector<std::pair<size_t, size_t>> found;
  if (!tok_regex_find_all(step.regex, piece, &found)) *ok = false;
  struct span { size_t b, e; bool match; };
  std::vector<span> spans;
  size_t at = 0;
  for (const auto& f : found) {
    if (f.first > at) spans.push_back({at, f.first, step.invert});
    spans.push_back({f.first, f.second, !step.invert});
    at = f.second;
  }
  if (at < piece.size()) spans.push_back({at, piece.size(), step.invert});

  // The library's SplitDelimiterBehavior, span by span.
  std::vector<span> kept;
  bool previous_match = false;
  if (step.behavior == BPE_SPLIT_MERGED_WITH_NEXT) {
    for (size_t k = spans.size(); k-- > 0;) {
      const span& s = spans[k];
      if (s.match && !previous_match && !kept.empty()) kept.back().b = s.b;
      else kept.push_back(s);
      previous_match = s.match;
    }
    for (size_t k = kept.size(); k-- > 0;) out->push_back(piece.substr(kept[k].b, kept[k].e - kept[k].b));
    return;
  }
  for (const span& s : spans) {
    if (step.behavior == BPE_SPLIT_REMOVED && s.match) continue;
    bool merge = (step.behavior == BPE_SPLIT_MERGED_WITH_PREVIOUS && s.match && !previous_match) ||
                 (step.behavior == BPE_SPLIT_CONTIGUOUS && s.match == previous_match);
    if (merge && !kept.empty()) kept.back().e = s.e;
    else kept.push_back(s);
    previous_match = s.match;
  }
  for (const span& s : kept) out->push_back(piece.substr(s.b, s.e - s.b));
}

static bool pretokenize(const bpe_model& m, const std::string& text, std::vector<std::string>* pieces) {
  pieces->assign(1, text);
  std::vector<std::string> next;
  bool ok = true;
  for (const bpe_pretok_step& step : m.pretok) {
    next.clear();
    for (std::string& p : *pieces) {
      if (step.add_prefix_space && (p.empty() || p[0] != ' ')) p.insert(0, 1, ' ');
      if (step.regex.code) split_apply(step, p, &next, &ok);
      else next.push_back(std::move(p));
    }
    pieces->swap(next);
  }
  return ok;
}

// [SECTION] BPE over one pre-token

struct bpe_candidate {
  int rank, pos, left_id, right_id, new_id;
  bool operator<(const bpe_candidate& o) const {  // priority_queue pops the largest: invert
    return rank != o.rank ? rank > o.rank : pos > o.pos;
  }
};

// The lowest-ranked adjacent pair merges first, the leftmost on a tie (as the library's
// word.merge_all does), in O(n log n) so a long run of spaces stays fast.
static void bpe_merge_word(const bpe_model& m, const std::string& piece, std::vector<int>* ids) {
  if (m.ignore_merges) {
    std::string mapped;
    for (unsigned char b : piece) tok_utf8_append(&mapped, tok_byte_to_cp(b));
    auto it = m.vocab.find(mapped);
    if (it != m.vocab.end()) { ids->push_back(it->second); return; }
  }
  struct symbol { int id, prev, next; };
  std::vector<symbol> sym;
  sym.reserve(piece.size());
  for (unsigned char b : piece) {
    // A byte missing from the vocab (never in a real byte-level file) becomes unk, or is dropped
    // as the library drops it when there is no unk token.
    int id = m.byte_id[b] >= 0 ? m.byte_id[b] : m.unk_id;
    if (id < 0) continue;
    int n = int(sym.size());
    sym.push_back({id, n - 1, -1});
    if (n > 0) sym[size_t(n - 1)].next = n;
  }
  std::priority_queue<bpe_candidate> queue;
  auto consider = [&](int left) {
    if (left < 0 || sym[size_t(left)].next < 0) return;
    int right = sym[size_t(left)].next;
    auto it = m.merges.find(bpe_pair_key(sym[size_t(left)].id, sym[size_t(right)].id));
    if (it != m.merges.end())
      queue.push({it->second.rank, left, sym[size_t(left)].id, sym[size_t(right)].id, it->second.new_id});
  };
  for (int i = 0; i + 1 < int(sym.size()); ++i) consider(i);
  while (!queue.empty()) {
    bpe_candidate c = queue.top();
    queue.pop();
    symbol& left = sym[size_t(c.pos)];
    // Stale entries: a symbol's id only ever grows into a longer token, so matching ids mean the
    // pair is still exactly the one queued.
    if (left.id != c.left_id || left.next < 0 || sym[size_t(left.next)].id != c.right_id) continue;
    symbol& right = sym[size_t(left.next)];
    left.id = c.new_id;
    left.next = right.next;
    if (right.next >= 0) sym[size_t(right.next)].prev = c.pos;
    right.id = -1;
    consider(left.prev);
    consider(c.pos);
  }
  for (const symbol& s : sym)
    if (s.id >= 0) ids->push_back(s.id);
}

static void bpe_word_ids(bpe_model& m, const std::string& piece, std::vector<int>* ids) {
  if (piece.size() <= BPE_CACHE_MAX_PIECE) {
    auto it = m.cache.find(piece);
    if (it != m.cache.end()) { ids->insert(ids->end(), it->second.begin(), it->second.end()); return; }
  }
  size_t start = ids->size();
  bpe_merge_word(m, piece, ids);
  if (piece.size() <= BPE_CACHE_MAX_PIECE) {
    if (m.cache.size() >= BPE_CACHE_MAX) m.cache.clear();
    m.cache.emplace(piece, std::vector<int>(ids->begin() + long(start), ids->end()));
  }
}

// [SECTION] the pipeline

static std::string normalize_all(const bpe_model& m, std::string s) {
  static const char forms[] = {'C', 'D', 'K', 'k'};  // indexed by bpe_norm_kind
  for (bpe_norm_kind n : m.normalizers) s = tok_normalize(s, forms[n]);
  return s;
}

bpe_encoding bpe_encode(bpe_tokenizer* tok, const std::string& text) {
  bpe_encoding out;
  if (!tok || !tok->model) { out.error = "no tokenizer loaded"; return out; }
  bpe_model& m = *tok->model;
  std::vector<bpe_segment> raw, segments;
  added_split(m, tok_utf8_sanitize(text), false, &raw);
  for (bpe_segment& r : raw) {
    if (r.added_id >= 0) segments.push_back(std::move(r));
    else if (!r.text.empty()) added_split(m, normalize_all(m, r.text), true, &segments);
  }
  std::vector<std::string> pieces;
  for (const bpe_segment& seg : segments) {
    if (seg.added_id >= 0) { out.ids.push_back(seg.added_id); continue; }
    if (seg.text.empty()) continue;
    if (!pretokenize(m, seg.text, &pieces)) {
      out.error = "the pre-tokenizer's regex gave up on this text (match limit)";
      out.ids.clear();
      return out;
    }
    for (const std::string& p : pieces)
      if (!p.empty()) bpe_word_ids(m, p, &out.ids);
  }
  out.pieces.reserve(out.ids.size());
  for (int id : out.ids) out.pieces.push_back(bpe_decode_piece(*tok, id));
  return out;
}
