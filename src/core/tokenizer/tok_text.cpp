// UTF-8 repair, normalization and GPT-2's byte alphabet for the tokenizer (see tok_text.h).
#include "core/tokenizer/tok_text.h"

#include <cstdlib>

#include <utf8proc.h>

// Length of the valid UTF-8 prefix starting at s[i] that a decoder may still extend, following
// Unicode's table 3-7 (which is what makes the replacement "one U+FFFD per maximal subpart").
// Returns the full length for a valid character, or -(bytes consumed) for an invalid one.
static int utf8_scan(const unsigned char* s, size_t n, size_t i) {
  unsigned char b = s[i];
  if (b < 0x80) return 1;
  int need;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b >= 0xC2 && b <= 0xDF) need = 1;
  else if (b >= 0xE0 && b <= 0xEF) { need = 2; if (b == 0xE0) lo = 0xA0; if (b == 0xED) hi = 0x9F; }
  else if (b >= 0xF0 && b <= 0xF4) { need = 3; if (b == 0xF0) lo = 0x90; if (b == 0xF4) hi = 0x8F; }
  else return -1;
  size_t j = i + 1;
  for (int k = 0; k < need; ++k, ++j) {
    if (j >= n) return -int(j - i);
    unsigned char c = s[j];
    bool ok = k == 0 ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xBF);
    if (!ok) return -int(j - i);
  }
  return need + 1;
}

std::string tok_utf8_sanitize(const std::string& text) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size(), i = 0;
  while (i < n) {  // fast path: most input is valid
    int len = utf8_scan(s, n, i);
    if (len < 0) break;
    i += size_t(len);
  }
  if (i == n) return text;
  std::string out(text, 0, i);
  while (i < n) {
    int len = utf8_scan(s, n, i);
    if (len > 0) { out.append(text, i, size_t(len)); i += size_t(len); }
    else { out += "\xEF\xBF\xBD"; i += size_t(-len); }
  }
  return out;
}

std::string tok_utf8_show_bytes(const std::string& text) {
  const unsigned char* s = reinterpret_cast<const unsigned char*>(text.data());
  static const char HEX[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0, n = text.size(); i < n;) {
    const int len = utf8_scan(s, n, i);
    if (len > 0) {
      out.append(text, i, size_t(len));
      i += size_t(len);
      continue;
    }
    out += '<';
    for (int k = 0; k < -len; ++k, ++i) out += std::string(k ? " " : "") + HEX[s[i] >> 4] + HEX[s[i] & 15];
    out += '>';
  }
  return out;
}

size_t tok_utf8_char_len(const std::string& s, size_t i) {
  if (i >= s.size()) return 1;
  int len = utf8_scan(reinterpret_cast<const unsigned char*>(s.data()), s.size(), i);
  return len > 0 ? size_t(len) : 1;
}

unsigned tok_utf8_decode_at(const std::string& s, size_t i) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  size_t len = tok_utf8_char_len(s, i);
  if (len == 1) return p[0];
  unsigned cp = p[0] & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (p[k] & 0x3F);
  return cp;
}

void tok_utf8_append(std::string* out, unsigned cp) {
  if (cp < 0x80) { *out += char(cp); return; }
  if (cp < 0x800) { *out += char(0xC0 | (cp >> 6)); }
  else if (cp < 0x10000) { *out += char(0xE0 | (cp >> 12)); *out += char(0x80 | ((cp >> 6) & 0x3F)); }
  else {
    *out += char(0xF0 | (cp >> 18));
    *out += char(0x80 | ((cp >> 12) & 0x3F));
    *out += char(0x80 | ((cp >> 6) & 0x3F));
  }
  *out += char(0x80 | (cp & 0x3F));
}

std::string tok_normalize(const std::string& text, char form) {
  bool ascii = true;  // ASCII is fixed under every normalization form: skip the library
  for (char c : text) if (static_cast<unsigned char>(c) >= 0x80) { ascii = false; break; }
  if (ascii) return text;
  int options = UTF8PROC_STABLE;
  if (form == 'C' || form == 'K') options |= UTF8PROC_COMPOSE;
  else options |= UTF8PROC_DECOMPOSE;
  if (form == 'K' || form == 'k') options |= UTF8PROC_COMPAT;
  utf8proc_uint8_t* dst = nullptr;
  utf8proc_ssize_t len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                      utf8proc_ssize_t(text.size()), &dst, utf8proc_option_t(options));
  if (len < 0) return text;  // only on invalid UTF-8, which tok_utf8_sanitize already removed
  std::string out(reinterpret_cast<const char*>(dst), size_t(len));
  std::free(dst);
  return out;
}

bool tok_is_whitespace(unsigned cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

bool tok_is_word_char(unsigned cp) {
  if (cp == 0x200C || cp == 0x200D) return true;  // Join_Control
  // Alphabetic's symbols: the circled and squared Latin letters.
  if ((cp >= 0x24B6 && cp <= 0x24E9) || (cp >= 0x1F130 && cp <= 0x1F149) || (cp >= 0x1F150 && cp <= 0x1F169) ||
      (cp >= 0x1F170 && cp <= 0x1F189))
    return true;
  switch (utf8proc_category(utf8proc_int32_t(cp))) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_PC: return true;
    default: return false;
  }
}

// Printable Latin-1 bytes stand for themselves; the other 68 take 256, 257, ... in byte order.
static bool byte_is_printable(unsigned b) {
  return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

unsigned tok_byte_to_cp(unsigned char b) {
  if (byte_is_printable(b)) return b;
  unsigned n = 0;
  for (unsigned k = 0; k < b; ++k) n += !byte_is_printable(k);
  return 256 + n;
}

int tok_cp_to_byte(unsigned cp) {
  struct table { int byte_of[256 + 68]; };  // every code point of the alphabet is below 256 + 68
  static const table t = [] {
    table x;
    for (int& b : x.byte_of) b = -1;
    for (unsigned b = 0; b < 256; ++b) x.byte_of[tok_byte_to_cp(static_cast<unsigned char>(b))] = int(b);
    return x;
  }();
  return cp < 256 + 68 ? t.byte_of[cp] : -1;
}

std::string tok_escape_controls(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += char(c);
    }
  }
  return out;
}
