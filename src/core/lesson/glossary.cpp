// The glossary table (see glossary.h).
#include "core/lesson/glossary.h"

#include "core/base/number_format.h"  // strf

const glossary_term GLOSSARY[GLOSSARY_COUNT] = {
    {GLOSSARY_MLP_BLOCK, "mlp-block", STR_TERM_MLP_BLOCK, STR_DEF_MLP_BLOCK},
    {GLOSSARY_SWIGLU, "swiglu", STR_TERM_SWIGLU, STR_DEF_SWIGLU},
    {GLOSSARY_SILU, "silu", STR_TERM_SILU, STR_DEF_SILU},
    {GLOSSARY_INTERMEDIATE_DIM, "intermediate-dim", STR_TERM_INTERMEDIATE_DIM, STR_DEF_INTERMEDIATE_DIM},
    {GLOSSARY_RESIDUAL_STREAM, "residual-stream", STR_TERM_RESIDUAL_STREAM, STR_DEF_RESIDUAL_STREAM},
    {GLOSSARY_RESIDUAL_CONNECTION, "residual-connection", STR_TERM_RESIDUAL_CONNECTION, STR_DEF_RESIDUAL_CONNECTION},
    {GLOSSARY_GATE, "gate", STR_TERM_GATE, STR_DEF_GATE},
    {GLOSSARY_UP, "up", STR_TERM_UP, STR_DEF_UP},
    {GLOSSARY_DOWN, "down", STR_TERM_DOWN, STR_DEF_DOWN},
    {GLOSSARY_INTERMEDIATE_UNIT, "intermediate-unit", STR_TERM_INTERMEDIATE_UNIT, STR_DEF_INTERMEDIATE_UNIT},
    {GLOSSARY_TOKEN, "token", STR_TERM_TOKEN, STR_DEF_TOKEN},
    {GLOSSARY_PROBE, "probe", STR_TERM_PROBE, STR_DEF_PROBE},
    {GLOSSARY_INT8, "int8", STR_TERM_INT8, STR_DEF_INT8},
    {GLOSSARY_L2, "l2", STR_TERM_L2, STR_DEF_L2},
    {GLOSSARY_PROBABILITY, "probability", STR_TERM_PROBABILITY, STR_DEF_PROBABILITY},
    {GLOSSARY_LOGIT, "logit", STR_TERM_LOGIT, STR_DEF_LOGIT},
    {GLOSSARY_TOKEN_ID, "token-id", STR_TERM_TOKEN_ID, STR_DEF_TOKEN_ID},
    {GLOSSARY_WRITES_TOWARD, "writes-toward", STR_TERM_WRITES_TOWARD, STR_DEF_WRITES_TOWARD},
};

const glossary_term* glossary_find(const std::string& name) {
  for (const glossary_term& t : GLOSSARY)
    if (name == t.name) return &t;
  return nullptr;
}

// [SECTION] terms in prose
static bool is_word_byte(unsigned char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static unsigned char lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

// The length of `term` matched at `at` (with a plural "s" when the term ends a word), 0 if none.
static size_t term_match(const std::string& text, size_t at, const std::string& term) {
  if (term.empty() || at + term.size() > text.size()) return 0;
  for (size_t k = 0; k < term.size(); ++k)
    if (lower(text[at + k]) != lower(term[k])) return 0;
  // Whole words only, where the term begins or ends with a Latin letter or digit.
  if (is_word_byte(term.front()) && at > 0 && is_word_byte(text[at - 1])) return 0;
  size_t end = at + term.size();
  if (is_word_byte(term.back()) && end < text.size() && is_word_byte(text[end])) {
    if (text[end] != 's' || (end + 1 < text.size() && is_word_byte(text[end + 1]))) return 0;
    ++end;  // "tokens", "gates"
  }
  return end - at;
}

std::vector<glossary_run> glossary_runs(const std::string& text, lab_lang lang) {
  std::vector<glossary_run> runs;
  bool marked[GLOSSARY_COUNT] = {};
  size_t plain = 0;  // where the current plain run began
  for (size_t at = 0; at < text.size();) {
    size_t best = 0;
    int best_id = -1;
    const bool starts_char = (static_cast<unsigned char>(text[at]) & 0xC0) != 0x80;  // never inside a UTF-8 sequence
    for (const glossary_term& t : GLOSSARY) {
      const size_t n = starts_char ? term_match(text, at, tr_in(lang, t.term)) : 0;
      if (n > best) best = n, best_id = t.id;
    }
    if (best == 0) {
      ++at;
      continue;
    }
    if (!marked[best_id]) {  // a repeat stays plain, and no shorter term inside it is marked
      if (at > plain) runs.push_back(glossary_run{plain, at, -1});
      runs.push_back(glossary_run{at, at + best, best_id});
      marked[best_id] = true;
      plain = at + best;
    }
    at += best;
  }
  if (plain < text.size()) runs.push_back(glossary_run{plain, text.size(), -1});
  return runs;
}

std::vector<glossary_id> glossary_find_in(const std::string& text, lab_lang lang) {
  bool in[GLOSSARY_COUNT] = {};
  for (const glossary_run& r : glossary_runs(text, lang))
    if (r.term >= 0) in[r.term] = true;
  std::vector<glossary_id> found;
  for (const glossary_term& t : GLOSSARY)
    if (in[t.id]) found.push_back(t.id);
  return found;
}

std::string glossary_mirror_text(glossary_id id) {
  return strf(tr(STR_GLOSSARY_MIRROR), tr(GLOSSARY[id].term), tr(GLOSSARY[id].definition));
}
