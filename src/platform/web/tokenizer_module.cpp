// The page's second wasm module (tokenizer_wasm.js / .wasm): the core's byte-level BPE tokenizer
// (src/core/tokenizer/) with PCRE2 and utf8proc built for wasm. It is fetched only when someone
// types a sentence, or a model= link has no ids= (web/tokenizer_loader.js drives it), so the first
// load never carries it. The same module runs under Node for tests/tokenizer/wasm_compare.mjs.
//
//   tok_module_file(n)         -> where to write the n bytes of tokenizer.json (the module's own buffer)
//   tok_module_load()          -> parses them, then frees them: 1, or 0 with tok_module_error() set
//                                 (one line, the core's words)
//   tok_module_encode(text, n) -> {"ids":[...],"pieces":[...]} or {"error":"..."} (valid until the next call)
//
// The file is written once, into the buffer the parser reads: a 64 MiB file is one copy in the
// module's heap, not two (a wasm heap never shrinks).
//
// One tokenizer is kept: the loader calls load again only for another checkpoint's tokenizer.json.
#include <string>

#include <nlohmann/json.hpp>

#include "core/tokenizer/bpe_tokenizer.h"

static bpe_tokenizer g_tokenizer;
static std::string g_file, g_error, g_answer;

extern "C" char* tok_module_file(int n) {
  std::string().swap(g_file);
  g_file.resize(n > 0 ? (size_t)n : 0);
  return g_file.data();
}

extern "C" int tok_module_load() {
  bpe_tokenizer t;
  g_error.clear();
  const bool ok = bpe_tokenizer_load(g_file, &t, &g_error);
  std::string().swap(g_file);
  if (!ok) return 0;
  g_tokenizer = t;
  return 1;
}

extern "C" const char* tok_module_error() { return g_error.c_str(); }

extern "C" const char* tok_module_encode(const char* text, int n) {
  nlohmann::json j;
  if (!g_tokenizer.model) {
    j["error"] = "no tokenizer loaded";
  } else {
    bpe_encoding e = bpe_encode(&g_tokenizer, std::string(text, (size_t)n));
    if (!e.error.empty()) j["error"] = e.error;
    else j = {{"ids", e.ids}, {"pieces", e.pieces}};
  }
  // Pieces are valid UTF-8 by construction (decoding replaces bad bytes); replace is a backstop.
  g_answer = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return g_answer.c_str();
}
