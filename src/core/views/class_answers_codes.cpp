// The class link's wire pieces (see class_answers_codes.h; the byte-level table: docs/links.md).
#include "core/views/class_answers_codes.h"

#include <algorithm>
#include <cmath>

#include "core/base/number_format.h"

namespace answers_wire {

// [SECTION] numbers as the page printed them
// A probability is printed by fmt_percent1: one decimal ("20.9 %"), or, below 0.05 %, two
// significant digits ("0.0067 %", fmt_share). Its code is what those digits say: the tenths
// (0 … 1000), or after them 1001 + (decimals - 3) * 91 + (digits - 10).
bool percent_code(double p, uint64_t* code) {
  if (!(p >= 0 && p <= 1)) return false;
  const std::string text = fmt_percent1(p);  // "20.9 %"
  const size_t dot = text.find('.'), end = text.find(' ');
  if (dot == std::string::npos || end == std::string::npos || end <= dot + 1) return false;
  uint64_t n = 0;
  for (size_t i = 0; i < end; i++) {
    if (i == dot) continue;
    if (text[i] < '0' || text[i] > '9' || n > 100000) return false;
    n = n * 10 + uint64_t(text[i] - '0');
  }
  const int decimals = int(end - dot - 1);
  if (decimals == 1) {
    if (n > 1000) return false;
    *code = n;
    return true;
  }
  if (decimals < 3 || decimals > kMaxPercentDecimals || n < 10 || n > 100) return false;
  *code = 1001 + uint64_t(decimals - 3) * kPercentMantissas + (n - 10);
  return true;
}

// The code's value: the middle of the values that print its digits, so that it prints them again
// whatever the last bit of a floating-point product (at an edge, "0.0100 %" comes from [0.00995,
// 0.01) and "0.050 %" from [0.0495, 0.05): their middles, not 0.01 and 0.05, which would print
// otherwise).
bool percent_value(uint64_t code, double* p) {
  if (code <= 1000) {
    *p = double(code) / 1000.0;
    return true;
  }
  const uint64_t k = code - 1001;
  const uint64_t decimals = 3 + k / kPercentMantissas, n = 10 + k % kPercentMantissas;
  if (decimals > kMaxPercentDecimals || (decimals == 3 && n > 50)) return false;
  const double lo = std::max(double(n) - 0.5, 10.0), hi = std::min(double(n) + 0.5, decimals == 3 ? 50.0 : 100.0);
  *p = (lo + hi) / 2 / std::pow(10.0, double(decimals) + 2);  // in units of 10^-decimals %, as a share
  return true;
}

// A value printed by fmt6 ("-12.345678"): its six-decimal integer N, as 2 + zigzag(N). A value
// that printed "0.000000" keeps its sign in codes 1 (above 0) and 2 (below), so that its tone
// (open, negative) stays; 0 is exactly 0.
bool six_code(float v, uint64_t* code) {
  if (!std::isfinite(v) || std::fabs(double(v)) * 1e6 >= double(kMaxSix)) return false;
  const std::string text = fmt6(double(v));
  int64_t n = 0;
  for (char c : text)
    if (c >= '0' && c <= '9') n = n * 10 + (c - '0');
  if (n == 0) {
    *code = v > 0 ? 1 : v < 0 ? 2 : 0;
    return true;
  }
  if (text[0] == '-') n = -n;
  *code = 2 + (n < 0 ? (uint64_t(-n) << 1) - 1 : uint64_t(n) << 1);
  return true;
}

// N / 1e6 rounded to the nearest float prints N again at six decimals: below 16 the floats are
// closer than 1e-6, so the nearest is within half a millionth; from 16 up they are farther apart
// than 1e-6, so the one float that printed N is the nearest.
bool six_value(uint64_t code, float* v) {
  if (code <= 2) {
    *v = code == 0 ? 0.0f : code == 1 ? 1e-9f : -1e-9f;  // print "0.000000", keep the sign
    return true;
  }
  const uint64_t z = code - 2;
  if (z / 2 >= uint64_t(kMaxSix)) return false;
  const int64_t n = z & 1 ? -int64_t((z + 1) >> 1) : int64_t(z >> 1);
  *v = float(double(n) / 1e6);
  return true;
}

// [SECTION] base64url (RFC 4648 §5, no padding): the link's own characters, no escaping
static const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string b64_encode(const std::string& bytes) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    acc = (acc << 8) | c, bits += 8;
    while (bits >= 6) out += kB64[(acc >> (bits - 6)) & 63], bits -= 6;
  }
  if (bits > 0) out += kB64[(acc << (6 - bits)) & 63];
  return out;
}

static int b64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  return c == '-' ? 62 : c == '_' ? 63 : -1;
}

answers_refusal_code b64_decode(const std::string& text, std::string* bytes) {
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int d = b64_digit(c);
    if (d < 0) return ANSWERS_ALPHABET;
    acc = (acc << 6) | uint32_t(d), bits += 6;
    if (bits >= 8) *bytes += char((acc >> (bits - 8)) & 0xff), bits -= 8;
  }
  // One character over a whole number of bytes holds 6 bits of a byte whose rest is missing.
  return text.size() % 4 == 1 ? ANSWERS_TRUNCATED : ANSWERS_OK;
}

// [SECTION] the two directions
bool utf8_ok(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = (unsigned char)s[i];
    const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (int k = 1; k < n; k++)
      if (((unsigned char)s[i + k] >> 6) != 2) return false;
    i += n;
  }
  return true;
}

// A token's piece, coded: the pieces are most of a link's bytes, and a Chinese model's are mostly
// Chinese, three bytes a character in UTF-8. Here ASCII stays one byte, a character of U+3000 …
// U+AEFF (CJK punctuation, kana, CJK Unified Ideographs and Extension A: 中 is U+4E2D) takes two
// (0x80 + its offset's high byte, then its low byte), and any other character is 0xFF followed by
// its own UTF-8.
enum : uint32_t { kPieceWindow = 0x3000, kPieceWindowEnd = 0x3000 + 0x7F00 };  // [U+3000, U+AF00)

// The length and code point of the UTF-8 character at s[i] (s valid as utf8_ok sees it).
static int utf8_char(const std::string& s, size_t i, uint32_t* cp) {
  const unsigned char c = (unsigned char)s[i];
  const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
  *cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
  for (int k = 1; k < n; k++) *cp = (*cp << 6) | ((unsigned char)s[i + size_t(k)] & 0x3f);
  return n;
}

std::string piece_pack(const std::string& utf8) {
  std::string out;
  for (size_t i = 0; i < utf8.size();) {
    uint32_t cp = 0;
    const int n = utf8_char(utf8, i, &cp);
    if (n == 1) out += char(cp);
    else if (n == 3 && cp >= kPieceWindow && cp < kPieceWindowEnd)
      out += char(0x80 + ((cp - kPieceWindow) >> 8)), out += char((cp - kPieceWindow) & 0xff);
    else out += char(0xff), out += utf8.substr(i, size_t(n));
    i += size_t(n);
  }
  return out;
}

bool piece_unpack(const std::string& packed, std::string* utf8) {
  std::string out;
  for (size_t i = 0; i < packed.size();) {
    const unsigned char c = (unsigned char)packed[i];
    if (c < 0x80) {
      out += char(c), i++;
    } else if (c < 0xff) {
      if (i + 1 >= packed.size()) return false;
      const uint32_t cp = kPieceWindow + (uint32_t(c - 0x80) << 8) + (unsigned char)packed[i + 1];
      out += char(0xe0 | (cp >> 12)), out += char(0x80 | ((cp >> 6) & 0x3f)), out += char(0x80 | (cp & 0x3f));
      i += 2;
    } else {  // one UTF-8 character
      if (i + 1 >= packed.size()) return false;
      const unsigned char lead = (unsigned char)packed[i + 1];
      const size_t n = lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 0;
      if (n == 0 || i + 1 + n > packed.size() || !utf8_ok(packed.substr(i + 1, n))) return false;
      out += packed.substr(i + 1, n);
      i += 1 + n;
    }
  }
  *utf8 = out;
  return true;
}

}  // namespace answers_wire
