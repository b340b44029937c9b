// A tokenizer.json for the synthetic checkpoints (tools/make_checkpoint writes it beside them), so
// the page's tokenizer path (a model= link without ids=, a typed sentence) can be tested against a
// Hub-like host: a byte-level BPE in the Qwen / GPT-2 family whose 256 byte tokens take ids 0..255
// and whose merges spell the lesson's sentence into the words Qwen3 splits it into
// (今天 | 天气 | 不错 | ， | 我们 | 去 | 公园), every id below 300, so it fits the small test vocabularies.
// Any other text still tokenizes (into bytes and the lesson's characters).
#pragma once

#include <map>
#include <string>
#include <vector>

std::string synth_tokenizer_json();

// The same kind of tokenizer for a list of tokens: each token's characters are built from their
// bytes by merges, then the token from its characters, left to right, in list order (a merge
// already made is not made twice). synth_tokenizer_json() is this with the lesson's list.
// "Ġ"-style spaces: a token may start with ' ' (" Paris"), as the pre-tokenizer splits words.
// *ids (when given) receives each listed token's id.
std::string synth_tokenizer_json_for(const std::vector<std::string>& tokens, std::map<std::string, int>* ids = nullptr);
