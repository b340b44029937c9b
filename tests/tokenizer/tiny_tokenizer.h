// Hand-made byte-level tokenizer.json files for the tokenizer tests: the 256 byte tokens take
// ids 0..255 (id = byte value), merged tokens and added tokens are listed by the test.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tokenizer/tok_text.h"

// Byte-level spelling of raw text: "a b" -> "aĠb".
inline std::string tiny_bl(const std::string& raw) {
  std::string out;
  for (unsigned char b : raw) tok_utf8_append(&out, tok_byte_to_cp(b));
  return out;
}

struct tiny_spec {
  std::vector<std::pair<std::string, std::string>> merges;  // raw text of each side, in rank order
  std::vector<std::string> extra_vocab;                     // raw text, ids 256 + merges.size() + k
  nlohmann::json added = nlohmann::json::array();
  nlohmann::json normalizer = nullptr;
  nlohmann::json pre_tokenizer = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
  bool merges_as_strings = false;  // the older "a b" form
  bool ignore_merges = false;
};

// The id of a merged token is 256 + its merge's rank.
inline int tiny_merge_id(int rank) { return 256 + rank; }

inline nlohmann::json tiny_json(const tiny_spec& s) {
  nlohmann::json vocab = nlohmann::json::object();
  for (int b = 0; b < 256; ++b) vocab[tiny_bl(std::string(1, char(b)))] = b;
  nlohmann::json merges = nlohmann::json::array();
  int next = 256;
  for (const auto& m : s.merges) {
    std::string a = tiny_bl(m.first), b = tiny_bl(m.second);
    if (s.merges_as_strings) merges.push_back(a + " " + b);
    else merges.push_back({a, b});
    if (!vocab.contains(a + b)) vocab[a + b] = next;
    ++next;
  }
  for (const std::string& v : s.extra_vocab) vocab[tiny_bl(v)] = next++;
  return {{"version", "1.0"},
          {"added_tokens", s.added},
          {"normalizer", s.normalizer},
          {"pre_tokenizer", s.pre_tokenizer},
          {"decoder", {{"type", "ByteLevel"}}},
          {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}, {"ignore_merges", s.ignore_merges}}}};
}

inline nlohmann::json tiny_added(int id, const std::string& content, bool special = true) {
  return {{"id", id}, {"content", content}, {"special", special}, {"lstrip", false},
          {"rstrip", false}, {"normalized", false}, {"single_word", false}};
}
