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

// The UTF-8 characters of a string.
static std::vector<std::string> utf8_chars(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = (unsigned char)s[i];
    const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string synth_tokenizer_json() {
  return synth_tokenizer_json_for({"今", "天", "气", "不", "错", "，", "我", "们", "去", "公", "园", "今天", "天气", "不错", "我们", "公园"});
}

std::string synth_tokenizer_json_for(const std::vector<std::string>& tokens, std::map<std::string, int>* ids) {
  nlohmann::json vocab = nlohmann::json::object(), merges = nlohmann::json::array();
  for (int b = 0; b < 256; b++) vocab[byte_level(std::string(1, (char)b))] = b;
  int next = 256;
  auto merge = [&](const std::string& a, const std::string& b) {
    const std::string x = byte_level(a), y = byte_level(b);
    if (vocab.contains(x + y)) return;
    merges.push_back({x, y});
    vocab[x + y] = next++;
  };
  for (const std::string& token : tokens) {
    const std::vector<std::string> chars = utf8_chars(token);
    for (const std::string& c : chars)  // a character from its bytes: (b0 b1), then (b0b1 b2), ...
      for (size_t k = 1; k < c.size(); k++) merge(c.substr(0, k), c.substr(k, 1));
    std::string built = chars[0];
    for (size_t k = 1; k < chars.size(); k++) {
      merge(built, chars[k]);
      built += chars[k];
    }
    if (ids) (*ids)[token] = vocab[byte_level(token)].get<int>();
  }
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
