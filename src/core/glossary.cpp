// The glossary table (see glossary.h).
#include "core/glossary.h"

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
};

const glossary_term* glossary_find(const std::string& name) {
  for (const glossary_term& t : GLOSSARY)
    if (name == t.name) return &t;
  return nullptr;
}

std::vector<glossary_id> glossary_find_in(const std::string& text, lab_lang lang) {
  std::vector<glossary_id> found;
  for (const glossary_term& t : GLOSSARY) {
    const std::string term = tr_in(lang, t.term);
    bool any = false;  // an occurrence that is not part of a longer term
    for (size_t at = text.find(term); at != std::string::npos; at = text.find(term, at + 1)) {
      bool covered = false;
      for (const glossary_term& other : GLOSSARY) {
        const std::string longer = tr_in(lang, other.term);
        if (&other == &t || longer.size() <= term.size()) continue;
        for (size_t off = longer.find(term); off != std::string::npos && !covered; off = longer.find(term, off + 1))
          covered = at >= off && text.compare(at - off, longer.size(), longer) == 0;
      }
      any |= !covered;
    }
    if (any) found.push_back(t.id);
  }
  return found;
}
