// swiglu tokenize: a sentence -> the model's token ids, with the tokenizer.json a checkpoint
// ships (byte-level BPE: Qwen, Llama 3, GPT-2 style; see src/core/tokenizer/bpe_tokenizer.h).
//
//   swiglu tokenize --tokenizer tokenizer.json "今天天气不错，我们去公园"
//   swiglu tokenize --tokenizer tokenizer.json --json "text"   -> {"ids":[...],"pieces":[...]}
//   swiglu tokenize --tokenizer tokenizer.json --batch         (for tests/tokenizer/compare.mjs)
//
// --batch reads one text per stdin line, hex-encoded so any bytes (newlines, invalid UTF-8) pass,
// and writes one line {"ids":[...],"pieces":[...],"decoded":"..."} per text: one process for a
// whole corpus. Exit status: 0 ok, 1 unreadable or unsupported tokenizer file, 2 bad arguments.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_commands.h"
#include "cli_file.h"
#include "core/tokenizer/bpe_tokenizer.h"

static int tokenize_usage() {
  std::fprintf(stderr, "usage: swiglu tokenize --tokenizer FILE [--json] TEXT\n"
                       "       swiglu tokenize --tokenizer FILE --batch   (hex-encoded texts on stdin)\n");
  return 2;
}

static std::string json_text(const nlohmann::json& j) {
  // Pieces are valid UTF-8 by construction (decoding replaces bad bytes); replace is a backstop.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

static nlohmann::json tokenize_result(const bpe_encoding& e) {
  return nlohmann::json{{"ids", e.ids}, {"pieces", e.pieces}};
}

static bool hex_decode(const std::string& hex, std::string* out) {
  if (hex.size() % 2) return false;
  out->clear();
  for (size_t i = 0; i < hex.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      char c = hex[i + size_t(k)];
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) return false;
      v = v * 16 + d;
    }
    *out += char(v);
  }
  return true;
}

static int tokenize_batch(bpe_tokenizer* tok) {
  std::string line, text;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!hex_decode(line, &text)) {
      std::fprintf(stderr, "swiglu tokenize --batch: a line is not hex: '%.40s'\n", line.c_str());
      return 2;
    }
    bpe_encoding e = bpe_encode(tok, text);
    nlohmann::json j = tokenize_result(e);
    j["decoded"] = bpe_decode(*tok, e.ids);
    if (!e.error.empty()) j["error"] = e.error;
    std::printf("%s\n", json_text(j).c_str());
    std::fflush(stdout);  // the driver waits for each answer line
  }
  return 0;
}

int cli_tokenize(int argc, char** argv) {
  const char* path = nullptr;
  const char* text = nullptr;
  bool as_json = false, batch = false, options_done = false;
  for (int i = 0; i < argc; ++i) {
    if (!options_done && std::strcmp(argv[i], "--") == 0) { options_done = true; continue; }
    if (!options_done && std::strcmp(argv[i], "--json") == 0) { as_json = true; continue; }
    if (!options_done && std::strcmp(argv[i], "--batch") == 0) { batch = true; continue; }
    if (!options_done && std::strcmp(argv[i], "--tokenizer") == 0) {
      if (i + 1 >= argc) { std::fprintf(stderr, "swiglu tokenize: --tokenizer needs a file\n"); return 2; }
      path = argv[++i];
      continue;
    }
    if (!options_done && std::strncmp(argv[i], "--", 2) == 0) {
      std::fprintf(stderr, "swiglu tokenize: unknown option '%s'\n", argv[i]);
      return tokenize_usage();
    }
    if (text) { std::fprintf(stderr, "swiglu tokenize: one TEXT only (quote it)\n"); return tokenize_usage(); }
    text = argv[i];
  }
  if (!path) { std::fprintf(stderr, "swiglu tokenize: --tokenizer FILE is required\n"); return tokenize_usage(); }
  if (batch == (text != nullptr)) return tokenize_usage();

  std::string json_src, error;
  if (!cli_read_file(path, &json_src)) {
    std::fprintf(stderr, "swiglu tokenize: cannot read '%s'\n", path);
    return 1;
  }
  bpe_tokenizer tok;
  if (!bpe_tokenizer_load(json_src, &tok, &error)) {
    std::fprintf(stderr, "swiglu tokenize: %s: %s\n", path, error.c_str());
    return 1;
  }
  if (batch) return tokenize_batch(&tok);

  bpe_encoding e = bpe_encode(&tok, text);
  if (!e.error.empty()) { std::fprintf(stderr, "swiglu tokenize: %s\n", e.error.c_str()); return 1; }
  if (as_json) { std::printf("%s\n", json_text(tokenize_result(e)).c_str()); return 0; }
  std::printf("%zu tokens\n%8s  %s\n", e.ids.size(), "id", "piece");
  for (size_t i = 0; i < e.ids.size(); ++i)
    std::printf("%8d  %s\n", e.ids[i], json_text(nlohmann::json(e.pieces[i])).c_str());
  return 0;
}
