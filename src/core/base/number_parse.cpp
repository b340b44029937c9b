// Reading the numbers people type and links carry (see number_parse.h).
#include "core/base/number_parse.h"

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>

bool parse_number(std::string text, double* out) {
  size_t b = text.find_first_not_of(' '), e = text.find_last_not_of(' ');
  if (b == std::string::npos) return false;
  text = text.substr(b, e - b + 1);
  if (text.size() > 64) return false;
  // U+2212 MINUS SIGN, as the lessons print negative numbers, reads as '-'.
  const std::string unicode_minus = "\xE2\x88\x92";
  if (text.compare(0, unicode_minus.size(), unicode_minus) == 0)
    text = "-" + text.substr(unicode_minus.size());
  for (char c : text)
    if (!(std::strchr("0123456789+-.eE", c))) return false;
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || std::isnan(v)) return false;
  // A well-formed decimal too large for a double (1e400) is a number out of range, not an
  // unreadable one: it reads as the largest double of its sign, which every key then clamps.
  if (std::isinf(v)) v = std::copysign(DBL_MAX, v);
  *out = v;
  return true;
}

std::vector<std::string> split_on(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

bool parse_index_list(const std::string& text, std::vector<int64_t>* out) {
  std::vector<int64_t> v;
  for (const std::string& item : split_on(text, ',')) {
    if (item.empty() || item.size() > 12 || item.find_first_not_of("0123456789") != std::string::npos) return false;
    v.push_back(std::strtoll(item.c_str(), nullptr, 10));
  }
  *out = v;
  return true;
}
