// The lessons' terms, each with a definition in both languages (strings.inc, [SECTION] lesson):
// lesson 001's glossary (MLP block, SwiGLU, SiLU, intermediate_dim, residual stream, residual
// connection) and the words the live views use (gate, up, down, intermediate unit, token, probe,
// int8 weights). The glossary view lists them all; a panel can mark where a term appears in its
// prose with glossary_find_in.
#pragma once

#include <string>
#include <vector>

#include "core/strings.h"

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

// The terms whose printed form (in `lang`) occurs in `text`, in table order, each once. Longer
// terms win over the shorter ones they contain ("residual stream" does not also mark a term
// "residual"; "intermediate unit" is not also "intermediate_dim").
std::vector<glossary_id> glossary_find_in(const std::string& text, lab_lang lang);
