// The synthetic checkpoints' tokenizer.json (see synthetic_tokenizer.h).
#include "core/checkpoint/synthetic_tokenizer.h"

#include <vector>

#include <nlohmann/json.hpp>

// GPT-2's byte-level alphabet: printable bytes stand for themselves, the rest move to U+0100 on.
static std::string byte_level(const std::string& raw) {
  std::string out;
  for (unsigned char b : raw) {
    unsigned cp = b;
    if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174)) {
      unsigned n = 0;
      for (unsigned k = 0; k < b; k++)
        if (!((k >= 33 && k <= 126) || (k >= 161 && k <= 172) || k >= 174)) n++;
      cp = 256 + n;
    }
    if (cp < 0x80) out += (char)cp;
    else out += (char)(0xC0 | (cp >> 6)), out += (char)(0x80 | (cp & 0x3F));
  }
  return out;
}

std::string synth_tokenizer_json() {
  const std::vector<std::string> chars = {"今", "天", "气", "不", "错", "，", "我", "们", "去", "公", "园"};
  const std::vector<std::pair<std::string, std::string>> words = {{"今", "天"}, {"天", "气"}, {"不", "错"}, {"我", "们"}, {"公", "园"}};
  nlohmann::json vocab = nlohmann::json::object(), merges = nlohmann::json::array();
  for (int b = 0; b < 256; b++) vocab[byte_level(std::string(1, (char)b))] = b;
  int next = 256;
  auto merge = [&](const std::string& a, const std::string& b) {
    const std::string x = byte_level(a), y = byte_level(b);
    merges.push_back({x, y});
    vocab[x + y] = next++;
  };
  for (const std::string& c : chars) {  // three UTF-8 bytes: (b0 b1), then (b0b1 b2)
    merge(c.substr(0, 1), c.substr(1, 1));
    merge(c.substr(0, 2), c.substr(2, 1));
  }
  for (const auto& w : words) merge(w.first, w.second);
  const nlohmann::json split = {
      {"type", "Split"},
      {"pattern", {{"Regex", "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"}}},
      {"behavior", "Isolated"},
      {"invert", false}};
  const nlohmann::json j = {
      {"version", "1.0"},
      {"added_tokens", nlohmann::json::array()},
      {"normalizer", {{"type", "NFC"}}},
      {"pre_tokenizer", {{"type", "Sequence"}, {"pretokenizers", {split, {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", false}, {"use_regex", false}}}}}},
      {"decoder", {{"type", "ByteLevel"}}},
      {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}, {"ignore_merges", false}}}};
  return j.dump(1);
}
