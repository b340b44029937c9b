// The lessons' terms, each with a definition in both languages (strings.inc, [SECTION] lesson):
// lesson 001's glossary (MLP block, SwiGLU, SiLU, intermediate_dim, residual stream, residual
// connection) and the words the live views use (gate, up, down, intermediate unit, token, probe,
// int8 weights), and the whole model's (L2, probability, logit, token id, writes toward). The glossary view lists them all; a view's prose marks where a term appears
// (glossary_runs: the page draws the marked runs, a tap or Enter opens a definition, and the
// mirror carries the open one: glossary_mirror_text).
#pragma once

#include <string>
#include <vector>

#include "core/base/strings.h"

enum glossary_id {
  GLOSSARY_MLP_BLOCK,
  GLOSSARY_SWIGLU,
  GLOSSARY_SILU,
  GLOSSARY_INTERMEDIATE_DIM,
  GLOSSARY_RESIDUAL_STREAM,
  GLOSSARY_RESIDUAL_CONNECTION,
  GLOSSARY_GATE,
  GLOSSARY_UP,
  GLOSSARY_DOWN,
  GLOSSARY_INTERMEDIATE_UNIT,
  GLOSSARY_TOKEN,
  GLOSSARY_PROBE,
  GLOSSARY_INT8,
  GLOSSARY_L2,  // the whole model's views' words
  GLOSSARY_PROBABILITY,
  GLOSSARY_LOGIT,
  GLOSSARY_TOKEN_ID,
  GLOSSARY_WRITES_TOWARD,
  GLOSSARY_COUNT
};

struct glossary_term {
  glossary_id id;
  const char* name;   // stable key (tests, the page's item names): never renamed
  str_id term;        // the term as the page prints it, in each language
  str_id definition;
};

extern const glossary_term GLOSSARY[GLOSSARY_COUNT];

// nullptr when no term has that name.
const glossary_term* glossary_find(const std::string& name);

// A paragraph of prose cut into runs of plain text and term references, in order and covering
// every byte: [begin, end) of `text`, term = a glossary_id or -1 for plain text. At each place the
// longest term (in `lang`, ASCII letters in any case) wins ("residual stream" over a shorter term
// inside it); a Latin term only as a whole word ("up" in "W_up" or "group" is not the term; a
// plural "s" goes with it: "tokens"). Each term is marked once, where it first appears, so a
// paragraph is not a sea of marks.
struct glossary_run {
  size_t begin, end;
  int term;
};
std::vector<glossary_run> glossary_runs(const std::string& text, lab_lang lang);

// The terms that occur in `text` (as glossary_runs marks them), in table order, each once.
std::vector<glossary_id> glossary_find_in(const std::string& text, lab_lang lang);

// "Glossary: SiLU — The activation ..." (in the current language): an opened definition, as the
// text mirror carries it.
std::string glossary_mirror_text(glossary_id id);
