// The loaded form of a tokenizer.json, shared by bpe_load.cpp (which fills it), bpe_encode.cpp
// and bpe_decode.cpp. Internal to src/core/tokenizer/: callers see bpe_tokenizer.h only.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/tokenizer/tok_regex.h"

enum bpe_norm_kind { BPE_NORM_NFC, BPE_NORM_NFD, BPE_NORM_NFKC, BPE_NORM_NFKD };

// How a Split keeps what its pattern matched (the `tokenizers` SplitDelimiterBehavior).
enum bpe_split_behavior {
  BPE_SPLIT_ISOLATED, BPE_SPLIT_REMOVED, BPE_SPLIT_MERGED_WITH_PREVIOUS,
  BPE_SPLIT_MERGED_WITH_NEXT, BPE_SPLIT_CONTIGUOUS
};

struct bpe_pretok_step {
  tok_regex regex;             // Split's pattern, ByteLevel's GPT-2 pattern, Digits' [0-9]
  bool use_regex = true;       // ByteLevel with use_regex false: no split
  bool add_prefix_space = false;
  bool invert = false;
  bpe_split_behavior behavior = BPE_SPLIT_ISOLATED;
};

struct bpe_added_token {
  int id = 0;
  std::string content;
  bool special = false, lstrip = false, rstrip = false, normalized = false, single_word = false;
};

struct bpe_merge {
  int rank;
  int new_id;
};

struct bpe_model {
  std::vector<bpe_norm_kind> normalizers;  // applied in order; empty = none
  std::vector<bpe_pretok_step> pretok;     // applied in order to every piece
  std::unordered_map<std::string, int> vocab;  // byte-level token text -> id
  std::vector<std::string> id_to_token;        // id -> token text ("" for a gap)
  std::vector<signed char> id_is_added;        // 1 for an added token's id
  std::unordered_map<uint64_t, bpe_merge> merges;  // key (left id << 32 | right id)
  std::vector<bpe_added_token> added;      // sorted longest content first (leftmost-longest)
  int byte_id[256];                        // vocab id of each byte's mapped character, -1 if absent
  int unk_id = -1;
  bool ignore_merges = false;              // Llama 3: a whole pre-token found in vocab wins

  // Pre-token (raw bytes) -> ids. Bounded: cleared when it grows past BPE_CACHE_MAX entries.
  std::unordered_map<std::string, std::vector<int>> cache;
};

#define BPE_CACHE_MAX 65536
#define BPE_CACHE_MAX_PIECE 256  // longer pre-tokens are rare and not worth keeping

inline uint64_t bpe_pair_key(int left, int right) {
  return (uint64_t(uint32_t(left)) << 32) | uint32_t(right);
}
