// Byte-level BPE tokenizer over a Hugging Face `tokenizer.json` (Qwen2/2.5/3/3.5, Llama 3,
// SmolLM, GPT-2 style), so a pack's probe sentence is tokenized exactly as the model does.
//
//   std::string error;
//   bpe_tokenizer tok;
//   if (!bpe_tokenizer_load(json_text, &tok, &error)) { print(error); return; }
//   bpe_encoding e = bpe_encode(&tok, "今天天气不错，我们去公园");   // e.ids, e.pieces
//   std::string back = bpe_decode(tok, e.ids);  // == text, NFC'd between the added tokens
//
// Pipeline (as the `tokenizers` library runs it): invalid UTF-8 -> U+FFFD, added/special tokens
// split out (leftmost-longest), normalizer on the rest (NFC/NFD/NFKC/NFKD, Sequence, null),
// pre-tokenizers (Split regex, ByteLevel, Digits, Sequence), byte-level mapping, merges by rank.
// Post-processor templates (a BOS the file may add) are not applied: ids are the text's own.
// Anything outside the byte-level BPE family is refused at load time with a message naming it.
//
// The core does no file I/O: the caller reads the file (tools/cli/cli_file.h does that natively).
#pragma once

#include <memory>
#include <string>
#include <vector>

struct bpe_model;  // bpe_model.h: vocab, merges, compiled regexes, the encode cache

struct bpe_tokenizer {
  std::shared_ptr<bpe_model> model;  // null until bpe_tokenizer_load succeeds
};

struct bpe_encoding {
  std::vector<int> ids;
  std::vector<std::string> pieces;  // per id, its own text (bpe_decode_piece: a split character's bytes read "<e5 85>")
  std::string error;                // empty on success (only a runaway regex can fail here)
};

// What a tokenizer.json may be, counted on its text before it is parsed: real files nest 5 deep
// and hold about 0.6 M values of which 0.15 M object members (Qwen3's: 151,643 vocab entries,
// 151,387 merges of two strings; Qwen3.5's vocabulary of 248,320: about 1 M and 0.25 M). Twice
// that and more is refused: past it the parse tree alone (16 bytes a value, about 100 more a
// member natively) would take more memory than the page's workers can spare.
enum { BPE_JSON_MAX_DEPTH = 64, BPE_JSON_MAX_VALUES = 2 << 20, BPE_JSON_MAX_MEMBERS = 1 << 19 };

// Parses `tokenizer.json` text. On failure returns false, leaves *out untouched and sets *error to
// one line naming the problem ("model type 'Unigram' is not supported: ...", "tokenizer.json
// nests deeper than 64 levels"). Never throws.
bool bpe_tokenizer_load(const std::string& json_text, bpe_tokenizer* out, std::string* error);
// The same from bytes the caller holds (a fetch's buffer: no copy of a 64 MiB file).
bool bpe_tokenizer_load(const char* json_text, size_t json_bytes, bpe_tokenizer* out, std::string* error);

// Text (UTF-8; invalid bytes become U+FFFD first, as a decoding with errors="replace" would) ->
// token ids. Not thread-safe: it fills the tokenizer's cache of pre-token -> ids.
bpe_encoding bpe_encode(bpe_tokenizer* tok, const std::string& text);

// Ids -> text. Added tokens read as their content; byte-level tokens are joined as bytes and read
// as UTF-8, any invalid sequence becoming U+FFFD. Unknown ids are skipped.
std::string bpe_decode(const bpe_tokenizer& tok, const std::vector<int>& ids);

// One id's own text, as the token chips show it: its bytes read as UTF-8, and the bytes of a
// character split across tokens written in hex ("<e5 85>"), not as U+FFFD.
std::string bpe_decode_piece(const bpe_tokenizer& tok, int id);

// Vocabulary size including added tokens (largest id + 1), for reports.
int bpe_vocab_size(const bpe_tokenizer& tok);
