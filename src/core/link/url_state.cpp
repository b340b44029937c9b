// URL fragment <-> view state (see url_state.h).
#include "core/link/url_state.h"

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/base/number_format.h"
#include "core/base/number_parse.h"
#include "core/lesson/quiz.h"
#include "core/checkpoint_remote/model_location.h"

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

// The units as off= writes them: "23:275,18:65".
static std::string units_link_text(const std::vector<int64_t>& v) {
  std::string out;
  for (size_t i = 0; i + 1 < v.size(); i += 2) out += (out.empty() ? "" : ",") + std::to_string(v[i]) + ":" + std::to_string(v[i + 1]);
  return out;
}

// A plain decimal number: optional sign, digits, optional fraction and exponent. No hex, inf or
// nan, which strtod would also accept. Spaces around it are tolerated. Too large for a double
// reads as +-DBL_MAX (then clamped by the key's range). A fragment is not a form:
// '+' stays '+', so "+1" and "2e+01" read as numbers.
struct decoder {
  url_decoded* result;
  void note(url_problem p, const std::string& key, const std::string& value, const std::string& used = "") {
    result->notices.push_back({p, key, value, used});
  }

  // Reads exactly n comma-separated numbers, each clamped to [lo, hi]; all or nothing.
  void numbers(const std::string& key, const std::string& value, double* dst, int n, double lo,
               double hi) {
    std::vector<std::string> parts = split_on(value, ',');
    double read[16];
    bool ok = (int)parts.size() == n && n <= 16;
    for (int i = 0; ok && i < n; ++i) ok = parse_number(parts[i], &read[i]);
    if (!ok) return note(URL_MALFORMED, key, value);
    bool clamped = false;
    std::string used;
    for (int i = 0; i < n; ++i) {
      double c = read[i] < lo ? lo : read[i] > hi ? hi : read[i];
      clamped |= c != read[i];
      dst[i] = c == 0 ? 0.0 : c;  // a link's "-0" is plain 0
      used += (i ? "," : "") + url_format_number(dst[i]);
    }
    if (clamped) note(URL_CLAMPED, key, value, used);
  }

  // `item`: the value names an item of the weights (a layer, a unit, a token), whose range is the
  // model's. Past the page's own limit it names nothing in any model: the key's default is used,
  // not the limit, which the weights would then refuse by a number the link never had.
  void integer(const std::string& key, const std::string& value, int64_t* dst, int64_t lo,
               int64_t hi, bool item = false) {
    double v;
    if (!parse_number(value, &v) || v != std::floor(v)) return note(URL_MALFORMED, key, value);
    if (item && v > double(hi)) return note(URL_BEYOND, key, value);
    double c = v < double(lo) ? double(lo) : v > double(hi) ? double(hi) : v;
    if (c != v) note(URL_CLAMPED, key, value, std::to_string(int64_t(c)));
    *dst = int64_t(c);
  }
};

// [SECTION] the keys: one row each drives decode, encode and equality

static const char* const LANG_NAMES[LAB_LANG_COUNT] = {"en", "zh"};
static const char* const OVERLAY_NAMES[] = {"sigmoid", "gelu"};
static const char* const UI_NAMES[LAB_UI_COUNT] = {"normal", "present"};
static const char* const GATES_INPUT_NAMES[LAB_GATES_INPUT_COUNT] = {"embed", "stream"};

struct url_key {
  const char* key;
  const char* dflt;  // the value a link without this key means, as a link writes it (the lesson's)
  url_key_kind kind;
  void* (*field)(lab_state* s);  // where the value lives (the type follows from the kind)
  int count;
  double lo, hi;
  const char* const* names;
  void* (*const* flag_fields)(lab_state* s) = nullptr;  // URL_KEY_FLAGS: one bool per name
};

// Keys a link writes only when set: every other key is written always (url_encode), but answers
// are long, and most links have none.
static bool url_key_only_when_set(const url_key& k) { return k.kind == URL_KEY_ANSWERS; }

// Keys whose value is an item of the weights the page opens: their real range is known only then.
static bool url_key_names_item(const url_key& k) {
  for (const char* item : {"layer", "unit", "tok", "htok", "probe"})
    if (std::strcmp(k.key, item) == 0) return true;
  return false;
}

#define URL_FIELD(expr) [](lab_state* s) -> void* { return (void*)&(s->expr); }
static void* (*const OVERLAY_FIELDS[])(lab_state*) = {URL_FIELD(show_sigmoid), URL_FIELD(show_gelu)};

// The public interface of shared links: a key keeps its meaning once shipped (README), and its
// default too (the lesson's values: x = [1, 2] and lesson 002's weights, step 5, z = -1,
// Qwen3.5-0.8B's 1024 / 3584 / 24, the lessons' threshold 0.1, "change token 2" by 1, ...).
// "v" is read before the rest and written first; these follow in this order.
static const url_key URL_KEYS[] = {
    {"view", "hand", URL_KEY_CHOICE, URL_FIELD(view), LAB_VIEW_COUNT, 0, 0, LAB_VIEW_NAMES},
    {"lang", "en", URL_KEY_CHOICE, URL_FIELD(lang), LAB_LANG_COUNT, 0, 0, LANG_NAMES},
    {"x", "1,2", URL_KEY_NUMBERS, URL_FIELD(x), HAND_IN, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT, nullptr},
    {"wu", "1,0,0,1,1,1,1,-1", URL_KEY_NUMBERS, URL_FIELD(w.up), 8, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT, nullptr},
    {"wg", "-1,0,0,0,1,0,0,1", URL_KEY_NUMBERS, URL_FIELD(w.gate), 8, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT, nullptr},
    {"wd", "1,0,1,0,0,1,0,1", URL_KEY_NUMBERS, URL_FIELD(w.down), 8, -LAB_VALUE_LIMIT, LAB_VALUE_LIMIT, nullptr},
    {"step", "5", URL_KEY_INT, URL_FIELD(step), 1, 0, HAND_STEP_COUNT - 1, nullptr},
    {"z", "-1", URL_KEY_NUMBERS, URL_FIELD(probe_z), 1, LAB_PROBE_MIN, LAB_PROBE_MAX, nullptr},
    {"ov", "", URL_KEY_FLAGS, nullptr, 2, 0, 0, OVERLAY_NAMES, OVERLAY_FIELDS},
    {"h", "1024", URL_KEY_INTEGER, URL_FIELD(hidden), 1, LAB_HIDDEN_MIN, LAB_HIDDEN_MAX, nullptr},
    {"f", "3584", URL_KEY_INTEGER, URL_FIELD(intermediate), 1, LAB_INTERMEDIATE_MIN, LAB_INTERMEDIATE_MAX, nullptr},
    {"layers", "24", URL_KEY_INTEGER, URL_FIELD(layers), 1, LAB_LAYERS_MIN, LAB_LAYERS_MAX, nullptr},
    // Real weights. ("layers" above is the budget's layer count, shipped first: the pack's
    // selected layers are "pl".)
    {"pack", "", URL_KEY_PACK, URL_FIELD(pack), 1, 0, 0, nullptr},
    {"pl", "", URL_KEY_INTEGERS, URL_FIELD(pack_layers), 64, 0, LAB_LAYERS_MAX - 1, nullptr},
    {"layer", "-1", URL_KEY_INTEGER, URL_FIELD(layer), 1, -1, LAB_LAYERS_MAX - 1, nullptr},
    {"probe", "0", URL_KEY_INTEGER, URL_FIELD(probe), 1, 0, 63, nullptr},
    {"thr", "0.1", URL_KEY_NUMBERS, URL_FIELD(threshold), 1, 0, 1, nullptr},
    {"htok", "-1", URL_KEY_INTEGER, URL_FIELD(hist_token), 1, -1, LAB_TOKENS_MAX - 1, nullptr},
    {"in", "embed", URL_KEY_CHOICE, URL_FIELD(gates_input), LAB_GATES_INPUT_COUNT, 0, 0, GATES_INPUT_NAMES},
    {"perm", "", URL_KEY_INTEGERS, URL_FIELD(perm), LAB_TOKENS_MAX, 0, LAB_TOKENS_MAX - 1, nullptr},
    // -1: the view's own (per token: 2, the lesson's; flow: the last). Shipped as "2" with v=1: a
    // link without tok meant token 2 in the per-token view and still does.
    {"tok", "-1", URL_KEY_INTEGER, URL_FIELD(token), 1, -1, LAB_TOKENS_MAX - 1, nullptr},
    {"delta", "1", URL_KEY_NUMBERS, URL_FIELD(delta), 1, -LAB_DELTA_LIMIT, LAB_DELTA_LIMIT, nullptr},
    {"unit", "0", URL_KEY_INTEGER, URL_FIELD(unit), 1, 0, LAB_UNIT_MAX - 1, nullptr},
    {"mat", "gate", URL_KEY_CHOICE, URL_FIELD(matrix), MLP_PART_COUNT, 0, 0, MLP_PART_NAMES},
    {"zoom", "1", URL_KEY_NUMBERS, URL_FIELD(heat_zoom), 1, 1, LAB_ZOOM_MAX, nullptr},
    {"cx", "0.5", URL_KEY_NUMBERS, URL_FIELD(heat_cx), 1, 0, 1, nullptr},
    {"cy", "0.5", URL_KEY_NUMBERS, URL_FIELD(heat_cy), 1, 0, 1, nullptr},
    // The lesson around the views. Which question is open, never its answer.
    {"quiz", "odot", URL_KEY_CHOICE, URL_FIELD(quiz), QUIZ_COUNT, 0, 0, QUIZ_NAMES},
    {"path", "", URL_KEY_NAME_LIST, URL_FIELD(path), LAB_PATH_MAX, 0, LAB_VIEW_COUNT, LAB_VIEW_NAMES},
    {"lock", "0", URL_KEY_INT, URL_FIELD(lock), 1, 0, 1, nullptr},
    {"ui", "normal", URL_KEY_CHOICE, URL_FIELD(ui), LAB_UI_COUNT, 0, 0, UI_NAMES},
    // A checkpoint read by byte ranges, and a teacher's own sentence for it (docs/checkpoint.md).
    {"model", "", URL_KEY_MODEL, URL_FIELD(model), 1, 0, 0, nullptr},
    {"ids", "", URL_KEY_INTEGERS, URL_FIELD(ids), 64, 0, LAB_TOKEN_ID_MAX, nullptr},
    {"text", "", URL_KEY_TEXT, URL_FIELD(text), 1, 0, 0, nullptr},
    // The whole model's units switched off (view=rules, view=flow): "23:275,18:65".
    {"off", "", URL_KEY_UNITS, URL_FIELD(off), 16, 0, 0, nullptr},
    // Its tokens' pieces (sentence_pieces_join: comma-separated, "\," and "\\" escaped), so a
    // student's page shows the teacher's tokens without loading the tokenizer.
    {"pieces", "", URL_KEY_TEXT, URL_FIELD(pieces), 1, 0, 0, nullptr},
    // The place on the lesson path (a path may hold a view twice); -1: the view's first place.
    // Off the path it is the place the student left, where Previous / Next return.
    {"at", "-1", URL_KEY_INT, URL_FIELD(path_at), 1, -1, LAB_PATH_MAX - 1, nullptr},
    // The whole model's answers computed on the teacher's page, so that a student's phone shows
    // them without the model (core/views/class_answers.h reads them, and says why when it cannot).
    // Kept here as the raw text: the key only checks its alphabet and length. Written last and only
    // when set: a link without answers stays as it was.
    {"ans", "", URL_KEY_ANSWERS, URL_FIELD(answers), 1, 0, LAB_ANSWERS_MAX_CHARS, nullptr},
};

// Every field of lab_state is a key's: this mirror lists the fields that have a row above, so a
// new field fails to compile here until it gets its row (and its place in the mirror).
struct lab_state_fields_with_keys {
  lab_view view;
  lab_lang lang;
  double x[HAND_IN];
  hand_weights w;
  int step;
  double probe_z;
  bool show_sigmoid, show_gelu;
  int64_t hidden, intermediate, layers;
  std::string pack;
  std::string model;
  std::vector<int64_t> ids;
  std::vector<int64_t> off;
  std::string text;
  std::string pieces;
  std::vector<int64_t> pack_layers;
  int64_t layer, probe;
  double threshold;
  int64_t hist_token;
  int gates_input;
  std::vector<int64_t> perm;
  int64_t token;
  double delta;
  int64_t unit;
  int matrix;
  double heat_zoom, heat_cx, heat_cy;
  int quiz;
  std::vector<int64_t> path;
  int path_at;
  int lock;
  int ui;
  std::string answers;
};
static_assert(sizeof(lab_state) == sizeof(lab_state_fields_with_keys), "a lab_state field without a URL key row");

// [SECTION] decode

// A pack location a link may name: a relative path inside this site (no "..", no scheme) or
// an http(s) URL; nothing that could run script or leave the two.
bool url_pack_location_ok(const std::string& v) { return web_location_ok(v); }

bool url_model_location_ok(const std::string& v) {
  model_location loc;
  std::string why;
  return model_location_parse(v, &loc, &why);
}

// Valid UTF-8 without control characters, at most LAB_TEXT_MAX bytes.
static bool url_text_ok(const std::string& v) {
  if (v.size() > LAB_TEXT_MAX) return false;
  for (size_t i = 0; i < v.size();) {
    const unsigned char c = (unsigned char)v[i];
    const int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > v.size() || (n == 1 && (c < 0x20 || c == 0x7f))) return false;
    for (int k = 1; k < n; k++)
      if (((unsigned char)v[i + k] >> 6) != 2) return false;
    i += n;
  }
  return true;
}

// ans=: base64url's alphabet (A-Z a-z 0-9 - _, no padding), at most `max` characters.
static bool url_answers_ok(const std::string& v, size_t max) {
  if (v.size() > max) return false;
  for (char c : v)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  return true;
}

bool url_strip_userinfo(const std::string& v, std::string* out) {
  *out = v;
  const size_t scheme = v.find("://");
  if (scheme == std::string::npos || (v.compare(0, scheme, "http") != 0 && v.compare(0, scheme, "https") != 0)) return false;
  const size_t host = scheme + 3, end = v.find_first_of("/?#", host);
  const size_t at = v.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
  if (at == std::string::npos || at < host) return false;
  *out = v.substr(0, host) + v.substr(at + 1);
  return true;
}

// A user name or password in a shared link would be handed to every student, shown in the
// header and sent to the host: they go, with a notice that does not repeat them.
static std::string without_credentials(decoder& d, const char* key, const std::string& value) {
  std::string v;
  if (url_strip_userinfo(value, &v)) d.note(URL_CREDENTIALS, key, v);
  return v;
}

static void decode_value(decoder& d, const url_key& k, const std::string& value, lab_state* s) {
  void* f = k.field ? k.field(s) : nullptr;
  switch (k.kind) {
    case URL_KEY_NUMBERS: d.numbers(k.key, value, (double*)f, k.count, k.lo, k.hi); break;
    case URL_KEY_INTEGER: d.integer(k.key, value, (int64_t*)f, (int64_t)k.lo, (int64_t)k.hi, url_key_names_item(k)); break;
    case URL_KEY_INT: {
      int64_t v = *(int*)f;
      d.integer(k.key, value, &v, (int64_t)k.lo, (int64_t)k.hi);
      *(int*)f = (int)v;
      break;
    }
    case URL_KEY_CHOICE: {
      int found = -1;
      for (int i = 0; i < k.count; ++i)
        if (value == k.names[i]) found = i;
      if (found < 0) d.note(URL_MALFORMED, k.key, value);
      else *(int*)f = found;
      break;
    }
    case URL_KEY_FLAGS: {
      bool on[8] = {false}, ok = true;
      for (const std::string& name : split_on(value, ',')) {
        bool known = false;
        for (int i = 0; i < k.count; ++i)
          if (name == k.names[i]) on[i] = known = true;
        if (!known && !name.empty()) ok = false;
      }
      if (!ok) d.note(URL_MALFORMED, k.key, value);
      else
        for (int i = 0; i < k.count; ++i) *(bool*)k.flag_fields[i](s) = on[i];
      break;
    }
    case URL_KEY_INTEGERS: {
      std::vector<int64_t> out;
      bool ok = value.empty() || (int)split_on(value, ',').size() <= k.count;
      for (const std::string& part : value.empty() ? std::vector<std::string>() : split_on(value, ',')) {
        int64_t v = 0;
        size_t before = d.result->notices.size();
        if (ok) d.integer(k.key, part, &v, (int64_t)k.lo, (int64_t)k.hi);
        if (d.result->notices.size() != before && d.result->notices.back().problem == URL_MALFORMED) {
          d.result->notices.pop_back();
          ok = false;
        }
        out.push_back(v);
      }
      if (!ok) d.note(URL_MALFORMED, k.key, value);
      else *(std::vector<int64_t>*)f = out;
      break;
    }
    case URL_KEY_PACK: {  // empty: the embedded default
      const std::string v = without_credentials(d, k.key, value);
      if (!v.empty() && !url_pack_location_ok(v)) d.note(URL_MALFORMED, k.key, v);
      else *(std::string*)f = v;
      break;
    }
    case URL_KEY_NAME_LIST: {  // empty: none
      std::vector<int64_t> out;
      const std::vector<std::string> parts = value.empty() ? std::vector<std::string>() : split_on(value, ',');
      bool ok = (int)parts.size() <= k.count;
      for (const std::string& name : parts) {
        int found = -1;
        for (int i = 0; i < int(k.hi); ++i)
          if (name == k.names[i]) found = i;
        ok &= found >= 0;
        out.push_back(found);
      }
      if (!ok) d.note(URL_MALFORMED, k.key, value);
      else *(std::vector<int64_t>*)f = out;
      break;
    }
    case URL_KEY_MODEL: {  // empty: none (the pack)
      const std::string v = without_credentials(d, k.key, value);
      if (!v.empty() && !url_model_location_ok(v)) d.note(URL_MALFORMED, k.key, v), ((std::string*)f)->clear();
      else *(std::string*)f = v;
      break;
    }
    case URL_KEY_TEXT:
      if (!url_text_ok(value)) d.note(URL_MALFORMED, k.key, value), ((std::string*)f)->clear();
      else *(std::string*)f = value;
      break;
    case URL_KEY_ANSWERS:  // empty: none
      if (!url_answers_ok(value, (size_t)k.hi)) d.note(URL_MALFORMED, k.key, value), ((std::string*)f)->clear();
      else *(std::string*)f = value;
      break;
    case URL_KEY_UNITS: {  // "23:275,18:65": unreadable is all or nothing; otherwise each pair as
      // written, except a pair outside the page's range, a repeat, or pairs past `count`: dropped
      // (the rest used) and said.
      std::vector<int64_t> out;
      bool ok = true, outside = false, repeated = false, too_many = false;
      for (const std::string& pair : value.empty() ? std::vector<std::string>() : split_on(value, ',')) {
        const std::vector<std::string> lu = split_on(pair, ':');
        std::vector<int64_t> l, u;
        ok = lu.size() == 2 && parse_index_list(lu[0], &l) && parse_index_list(lu[1], &u);
        if (!ok) break;
        bool seen = false;
        for (size_t i = 0; i + 1 < out.size(); i += 2) seen |= out[i] == l[0] && out[i + 1] == u[0];
        if (l[0] >= LAB_LAYERS_MAX || u[0] >= LAB_UNIT_MAX) outside = true;
        else if (seen) repeated = true;
        else if ((int)out.size() / 2 >= k.count) too_many = true;
        else out.push_back(l[0]), out.push_back(u[0]);
      }
      if (!ok) {
        d.note(URL_MALFORMED, k.key, value);
        break;
      }
      *(std::vector<int64_t>*)f = out;
      if (outside || too_many) d.note(URL_CLAMPED, k.key, value, units_link_text(out));
      else if (repeated) d.note(URL_REPEATED, k.key, value, units_link_text(out));
      break;
    }
  }
}

lab_state url_state_defaults() {
  lab_state s{};
  url_decoded ignored;
  decoder d{&ignored};
  for (const url_key& k : URL_KEYS) decode_value(d, k, k.dflt, &s);
  return s;
}

std::vector<url_key_desc> url_key_table() {
  std::vector<url_key_desc> out;
  for (const url_key& k : URL_KEYS) {
    url_key_desc d;
    d.key = k.key;
    d.dflt = k.dflt;
    d.kind = (int)k.kind;
    d.count = k.count;
    d.lo = k.lo;
    d.hi = k.hi;
    const int names = k.kind == URL_KEY_NAME_LIST ? (int)k.hi : k.count;  // a name list picks among hi names
    for (int i = 0; k.names && i < names; i++) d.names.push_back(k.names[i]);
    d.only_when_set = url_key_only_when_set(k);
    out.push_back(d);
  }
  return out;
}

url_decoded url_decode(const std::string& fragment) {
  url_decoded r{lab_state_default(), {}};
  decoder d{&r};
  std::string body = !fragment.empty() && fragment[0] == '#' ? fragment.substr(1) : fragment;
  if (body.empty()) return r;
  lab_state& s = r.state;

  for (const std::string& pair : split_on(body, '&')) {
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    std::string key = percent_decode(pair.substr(0, eq));
    std::string value = eq == std::string::npos ? "" : percent_decode(pair.substr(eq + 1));
    if (key == "v") {
      int64_t v = URL_STATE_VERSION;
      d.integer(key, value, &v, 1, INT64_MAX / 2);
      if (v > URL_STATE_VERSION) d.note(URL_NEWER_VERSION, key, value);
      continue;
    }
    for (const url_key& k : URL_KEYS)
      if (key == k.key) decode_value(d, k, value, &s);
    // Any other key is ignored: links from newer pages, or trackers appending their own.
  }
  return r;
}

// [SECTION] encode

std::string url_format_number(double value) { return fmt_short(value); }

static std::string join(const double* v, int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? "," : "") + url_format_number(v[i]);
  return s;
}

// Characters a value may hold that would break the fragment's syntax.
static std::string percent_encode(const std::string& v) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : v) {
    if (c == '%' || c == '&' || c == '#' || c == '=' || c == '+' || c <= ' ' || c >= 0x7f) {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += (char)c;
    }
  }
  return out;
}

static std::string encode_value(const url_key& k, lab_state* s) {
  void* f = k.field ? k.field(s) : nullptr;
  std::string out;
  switch (k.kind) {
    case URL_KEY_NUMBERS: return join((double*)f, k.count);
    case URL_KEY_INTEGER: return std::to_string(*(int64_t*)f);
    case URL_KEY_INT: return std::to_string(*(int*)f);
    case URL_KEY_CHOICE: return k.names[*(int*)f];
    case URL_KEY_FLAGS:
      for (int i = 0; i < k.count; ++i)
        if (*(bool*)k.flag_fields[i](s)) out += (out.empty() ? "" : ",") + std::string(k.names[i]);
      return out;
    case URL_KEY_INTEGERS:
      for (int64_t v : *(std::vector<int64_t>*)f) out += (out.empty() ? "" : ",") + std::to_string(v);
      return out;
    case URL_KEY_NAME_LIST:
      for (int64_t v : *(std::vector<int64_t>*)f)
        if (v >= 0 && v < int64_t(k.hi)) out += (out.empty() ? "" : ",") + std::string(k.names[v]);
      return out;
    case URL_KEY_PACK:
    case URL_KEY_MODEL:
    case URL_KEY_TEXT: return percent_encode(*(std::string*)f);
    case URL_KEY_ANSWERS: return *(std::string*)f;  // its alphabet needs no escape
    case URL_KEY_UNITS: return units_link_text(*(std::vector<int64_t>*)f);
  }
  return out;
}

std::string url_encode(const lab_state& state) {
  lab_state s = state;  // the table's accessors take a mutable state
  std::string out = "v=" + std::to_string(URL_STATE_VERSION);
  for (const url_key& k : URL_KEYS) {
    const std::string v = encode_value(k, &s);
    if (v.empty() && url_key_only_when_set(k)) continue;
    out += std::string("&") + k.key + "=" + v;
  }
  return out;
}

// One source of the defaults: each URL key's row carries its own.
lab_state lab_state_default() { return url_state_defaults(); }

// Two states are equal when their links are: one definition of what a view is (the key table).
bool lab_state_equal(const lab_state& a, const lab_state& b) { return url_encode(a) == url_encode(b); }
