// Number printing (see number_format.h).
#include "core/number_format.h"

#include <cstdio>
#include <cstring>

#include "core/url_state.h"

std::string fmt6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  // A tiny negative value rounds to "-0.000000"; a learner would read that as a different number.
  if (std::strcmp(buf, "-0.000000") == 0) return "0.000000";
  return buf;
}

std::string fmt_vec6(const double* v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + fmt6(v[i]);
  return s + "]";
}

std::string fmt_short(double v) { return url_format_number(v); }

std::string fmt_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) return buf + 1;
  return buf;
}

std::string fmt_percent(double share) { return fmt_fixed(100.0 * share, 2) + " %"; }

std::string fmt_count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string fmt_count_short(int64_t n) {
  // Millions as the lessons print them ("11.01M"); billions once a count reaches them, so 51.5
  // billion does not read "51539.61M".
  double v = double(n < 0 ? -n : n);
  const char* unit = v >= 1e9 ? "B" : "M";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%.2f%s", n < 0 ? "-" : "", v / (v >= 1e9 ? 1e9 : 1e6), unit);
  return buf;
}
