// URL fragment <-> view state (see url_state.h).
#include "core/url_state.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// [SECTION] reading values

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static std::string percent_decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out += char(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// A plain decimal number: optional sign, digits, optional fraction and exponent. No hex, inf or
// nan, which strtod would also accept. Spaces around it are tolerated. Too large for a double
// reads as +-DBL_MAX (then clamped by the key's range). A fragment is not a form:
// '+' stays '+', so "+1" and "2e+01" read as numbers.
bool url_parse_number(std::string text, double* out) {
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

static std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t at = s.find(sep, start);
    parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

struct decoder {
  url_decoded* result;
  void note(url_problem p, const std::string& key, const std::string& value) {
    result->notices.push_back({p, key, value});
  }

  // Reads exactly n comma-separated numbers, each clamped to [lo, hi]; all or nothing.
  void numbers(const std::string& key, const std::string& value, double* dst, int n, double lo,
               double hi) {
    std::vector<std::string> parts = split(value, ',');
    double read[16];
    bool ok = (int)parts.size() == n && n <= 16;
    for (int i = 0; ok && i < n; ++i) ok = url_parse_number(parts[i], &read[i]);
    if (!ok) return note(URL_MALFORMED, key, value);
    bool clamped = false;
    for (int i = 0; i < n; ++i) {
      double c = read[i] < lo ? lo : read[i] > hi ? hi : read[i];
      clamped |= c != read[i];
      dst[i] = c == 0 ? 0.0 : c;  // a link's "-0" is plain 0
    }
    if (clamped) note(URL_CLAMPED, key, value);
  }

  void integer(const std::string& key, const std::string& value, int64_t* dst, int64_t lo,
               int64_t hi) {
    double v;
    if (!url_parse_number(value, &v) || v != std::floor(v)) return note(URL_MALFORMED, key, value);
    double c = v < double(lo) ? double(lo) : v > double(hi) ? double(hi) : v;
    if (c != v) note(URL_CLAMPED, key, value);
    *dst = int64_t(c);
  }
};

// [SECTION] decode

static const char* const VIEW_NAMES[LAB_VIEW_COUNT] = {"hand", "silu", "budget"};
static const char* const LANG_NAMES[LAB_LANG_COUNT] = {"en", "zh"};

url_decoded url_decode(const std::string& fragment) {
  url_decoded r{lab_state_default(), {}};
  decoder d{&r};
  std::string body = !fragment.empty() && fragment[0] == '#' ? fragment.substr(1) : fragment;
  if (body.empty()) return r;

  for (const std::string& pair : split(body, '&')) {
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string key = percent_decode(pair.substr(0, eq));
    std::string value = eq == std::string::npos ? "" : percent_decode(pair.substr(eq + 1));
    lab_state& s = r.state;

    if (key == "v") {
      int64_t v = URL_STATE_VERSION;
      d.integer(key, value, &v, 1, INT64_MAX / 2);
      if (v > URL_STATE_VERSION) d.note(URL_NEWER_VERSION, key, value);
    } else if (key == "view" || key == "lang") {
      bool is_view = key == "view";
      const char* const* names = is_view ? VIEW_NAMES : LANG_NAMES;
      int count = is_view ? int(LAB_VIEW_COUNT) : int(LAB_LANG_COUNT), found = -1;
      for (int i = 0; i < count; ++i)
        if (value == names[i]) found = i;
      if (found < 0) d.note(URL_MALFORMED, key, value);
      else if (is_view) s.view = lab_view(found);
      else s.lang = lab_lang(found);
    } else if (key == "x") {
      d.numbers(key, value, s.x, HAND_IN, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT);
    } else if (key == "wu") {
      d.numbers(key, value, s.w.up, 8, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT);
    } else if (key == "wg") {
      d.numbers(key, value, s.w.gate, 8, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT);
    } else if (key == "wd") {
      d.numbers(key, value, s.w.down, 8, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT);
    } else if (key == "step") {
      int64_t step = s.step;
      d.integer(key, value, &step, 0, HAND_STEP_COUNT - 1);
      s.step = int(step);
    } else if (key == "z") {
      d.numbers(key, value, &s.probe_z, 1, LAB_PROBE_MIN, LAB_PROBE_MAX);
    } else if (key == "ov") {
      bool sig = false, gelu = false, ok = true;
      for (const std::string& name : split(value, ',')) {
        if (name == "sigmoid") sig = true;
        else if (name == "gelu") gelu = true;
        else if (!name.empty()) ok = false;
      }
      if (!ok) d.note(URL_MALFORMED, key, value);
      else s.show_sigmoid = sig, s.show_gelu = gelu;
    } else if (key == "h") {
      d.integer(key, value, &s.hidden, LAB_HIDDEN_MIN, LAB_HIDDEN_MAX);
    } else if (key == "f") {
      d.integer(key, value, &s.intermediate, LAB_INTERMEDIATE_MIN, LAB_INTERMEDIATE_MAX);
    } else if (key == "layers") {
      d.integer(key, value, &s.layers, LAB_LAYERS_MIN, LAB_LAYERS_MAX);
    }
    // Any other key is ignored: links from newer pages, or trackers appending their own.
  }
  return r;
}

// [SECTION] encode

std::string url_format_number(double value) {
  if (value == 0) return "0";
  char buf[32];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {  // "20", not "2e+01"
    std::snprintf(buf, sizeof buf, "%.0f", value);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

static std::string join(const double* v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + url_format_number(v[i]);
  return s;
}

std::string url_encode(const lab_state& s) {
  std::string ov;
  if (s.show_sigmoid) ov += "sigmoid";
  if (s.show_gelu) ov += ov.empty() ? "gelu" : ",gelu";
  std::string out = "v=" + std::to_string(URL_STATE_VERSION);
  out += std::string("&view=") + VIEW_NAMES[s.view];
  out += std::string("&lang=") + LANG_NAMES[s.lang];
  out += "&x=" + join(s.x, HAND_IN);
  out += "&wu=" + join(s.w.up, 8);
  out += "&wg=" + join(s.w.gate, 8);
  out += "&wd=" + join(s.w.down, 8);
  out += "&step=" + std::to_string(s.step);
  out += "&z=" + url_format_number(s.probe_z);
  out += "&ov=" + ov;
  out += "&h=" + std::to_string(s.hidden);
  out += "&f=" + std::to_string(s.intermediate);
  out += "&layers=" + std::to_string(s.layers);
  return out;
}
