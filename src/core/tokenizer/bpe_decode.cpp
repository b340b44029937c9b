// Ids -> text: added tokens read as their content, byte-level tokens map back to bytes, and each
// run of bytes is read as UTF-8 with U+FFFD for what is not (as the ByteLevel decoder does).
#include <string>
#include <vector>

#include "core/tokenizer/bpe_model.h"
#include "core/tokenizer/bpe_tokenizer.h"
#include "core/tokenizer/tok_text.h"

// Appends the bytes a byte-level token stands for. A token with a character outside the byte
// alphabet (never in a real byte-level vocab) stands for its own UTF-8, as in the library.
static void token_append_bytes(const std::string& token, std::string* bytes) {
  size_t start = bytes->size();
  for (size_t i = 0; i < token.size();) {
    int b = tok_cp_to_byte(tok_utf8_decode_at(token, i));
    if (b < 0) { bytes->resize(start); *bytes += token; return; }
    *bytes += char(b);
    i += tok_utf8_char_len(token, i);
  }
}

std::string bpe_decode_piece(const bpe_tokenizer& tok, int id) {
  if (!tok.model) return "";
  const bpe_model& m = *tok.model;
  if (id < 0 || size_t(id) >= m.id_to_token.size()) return "";
  if (m.id_is_added[size_t(id)]) return m.id_to_token[size_t(id)];
  std::string bytes;
  token_append_bytes(m.id_to_token[size_t(id)], &bytes);
  return tok_utf8_show_bytes(bytes);
}

std::string bpe_decode(const bpe_tokenizer& tok, const std::vector<int>& ids) {
  std::string out, bytes;
  if (!tok.model) return out;
  const bpe_model& m = *tok.model;
  for (int id : ids) {
    if (id < 0 || size_t(id) >= m.id_to_token.size() || m.id_to_token[size_t(id)].empty()) continue;
    if (m.id_is_added[size_t(id)]) {
      out += tok_utf8_sanitize(bytes);
      bytes.clear();
      out += m.id_to_token[size_t(id)];
    } else {
      token_append_bytes(m.id_to_token[size_t(id)], &bytes);
    }
  }
  return out + tok_utf8_sanitize(bytes);
}
