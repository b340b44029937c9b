// Number printing (see number_format.h).
#include "core/base/number_format.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

std::string strf(const char* fmt, ...) {
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

// "-0.000000", "-0.00": a tiny negative value rounded to zero reads as a different number to a learner.
static std::string drop_negative_zero(const char* text) {
  const char* p = text;
  if (*p != '-') return text;
  for (++p; *p; ++p)
    if (*p != '0' && *p != '.' && *p != ' ' && *p != '%') return text;
  return text + 1;
}

std::string fmt6(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return drop_negative_zero(buf);
}

std::string fmt_vec6(const double* v, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + fmt6(v[i]);
  return s + "]";
}

// Whole numbers under `whole_below` as integers ("20", not "2e+01"); the rest in the fewest
// significant digits that read back exactly.
static std::string shortest_exact(double value, double whole_below) {
  if (value == 0) return "0";  // also -0
  char buf[32];
  if (value == std::floor(value) && std::fabs(value) < whole_below) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

std::string fmt_short(double value) { return shortest_exact(value, 1e15); }

std::string fmt_config_value(double value) { return shortest_exact(value, 1e9); }  // 1e12 as "1e+12"

std::string fmt_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) return buf + 1;
  return buf;
}

std::string fmt_percent(double share) { return fmt_fixed(100.0 * share, 2) + " %"; }
std::string fmt_percent1(double share) { return fmt_share(share, 1); }
std::string fmt_percent_sig(double share) { return fmt_ratio(100.0 * share) + "%"; }

std::string fmt_ratio(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 0.995 ? "%.2f" : "%.3g", v);
  return drop_negative_zero(buf);
}

std::string fmt_sig3(double v) {
  if (v == 0) return "0";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return drop_negative_zero(buf);
}

std::string fmt_share(double share, int decimals) {
  const double percent = 100.0 * share, unit = std::pow(10.0, -decimals);
  if (percent == 0 || std::fabs(percent) >= unit / 2) return fmt_fixed(percent, decimals) + " %";
  // Below half the last decimal: as many decimals as two significant digits need.
  const int digits = 1 - (int)std::floor(std::log10(std::fabs(percent)));
  return fmt_fixed(percent, digits) + " %";
}

std::string fmt_count(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string fmt_count_short(int64_t n) {
  // Millions as the lessons print them ("11.01M"), billions once a count reaches them (not
  // "51539.61M"), thousands below a million ("8.19K", not "0.01M").
  const double v = double(n < 0 ? -n : n);
  if (v < 1e3) return std::to_string(n);
  const double scale = v >= 1e9 ? 1e9 : v >= 1e6 ? 1e6 : 1e3;
  const char* unit = v >= 1e9 ? "B" : v >= 1e6 ? "M" : "K";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%.2f%s", n < 0 ? "-" : "", v / scale, unit);
  return buf;
}

std::string fmt_mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", (double)bytes / 1048576.0);
  return buf;
}

std::string fmt_mb(int64_t bytes) { return fmt_fixed((double)bytes / 1e6, 2); }

std::string fmt_seconds(double s) { return fmt_short(std::round(s * 10) / 10); }

std::string fmt_zoom(double zoom) { return "×" + fmt_short(zoom); }

std::string fmt_token_id(int64_t id) { return "id " + std::to_string(id); }

std::string fmt_before_after(const std::string& before, const std::string& after) { return before + " → " + after; }
