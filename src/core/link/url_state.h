// The view state as a URL fragment, the page's public sharing format:
//   #v=1&view=hand&lang=en&x=1,2&wu=...&wg=...&wd=...&step=5&z=-1&ov=sigmoid,gelu&h=1024&f=3584&layers=24
// Once a key ships it keeps its meaning; a change of meaning bumps v and old links keep decoding.
// Decoding never fails: unknown keys are ignored, out-of-range values are clamped, and a malformed
// value falls back to the lesson default. Every clamp and fallback is reported as a notice.
#pragma once

#include <string>
#include <vector>

#include "core/link/lab_state.h"

#define URL_STATE_VERSION 1

enum url_problem {
  URL_MALFORMED,    // could not be read: the lesson default is used instead
  URL_CLAMPED,      // read, but outside its range: the nearest allowed value is used
  URL_BEYOND,       // a layer, unit or token past what any model here has: the lesson default is used
  URL_NEWER_VERSION, // v is newer than this page knows: keys are read as version 1
  URL_CREDENTIALS,   // pack= or model= carried a user name or password: removed, the rest is used
  URL_REPEATED,      // a list named the same item twice: once is used
};

struct url_notice {
  url_problem problem;
  std::string key;
  std::string value;  // as it stood in the link (percent-decoded; without credentials); display as text only
  std::string used;   // URL_CLAMPED, URL_REPEATED: the value used instead, as a link writes it ("0", "100,1", "23:75")
};

struct url_decoded {
  lab_state state;
  std::vector<url_notice> notices;
};

// Accepts the fragment with or without its leading '#'. An empty fragment gives the defaults.
url_decoded url_decode(const std::string& fragment);

// Writes every key (not only the changed ones), so a link means the same even if defaults change;
// ans= only when the state carries answers (its default, none, cannot change meaning).
std::string url_encode(const lab_state& state);

// An http(s) address without its user name and password ("http://u:p@host/x" -> "http://host/x");
// true when there were some. Relative paths and hf: names are returned as they are.
bool url_strip_userinfo(const std::string& location, std::string* stripped);

// A pack location a link may name: a relative path inside the site or an http(s) URL.
bool url_pack_location_ok(const std::string& location);
// A checkpoint a link may name (model=): hf:OWNER/NAME[@REV] or a pack-like location
// (core/checkpoint_remote/model_location.h has the rules).
bool url_model_location_ok(const std::string& location);

enum url_key_kind {
  URL_KEY_NUMBERS,   // `count` comma-separated numbers into double[count], clamped to [lo, hi]
  URL_KEY_INTEGER,   // one whole number into int64_t, clamped
  URL_KEY_INT,       // the same into an int
  URL_KEY_CHOICE,    // one of `names` into an int-sized enum
  URL_KEY_FLAGS,     // a comma list of `names` into bools, one per name
  URL_KEY_INTEGERS,  // up to `count` comma-separated whole numbers into std::vector<int64_t>, clamped
  URL_KEY_PACK,      // a pack location: a relative path or an http(s) URL
  URL_KEY_NAME_LIST, // up to `count` comma-separated `names` (hi of them) into std::vector<int64_t>, repeats allowed
  URL_KEY_MODEL,     // a checkpoint location: hf:OWNER/NAME[@REV], or a pack-like location
  URL_KEY_TEXT,      // free text up to LAB_TEXT_MAX bytes of UTF-8 (shown as text, never parsed)
  URL_KEY_UNITS,     // up to `count` "LAYER:UNIT" pairs, comma-separated, into std::vector<int64_t> (l, u, l, u, ...)
  URL_KEY_ANSWERS,   // base64url text up to LAB_ANSWERS_MAX_CHARS, kept raw; written only when not empty
};

// A key's row, for the tests that walk the table (round trips, the key table of docs/links.md).
struct url_key_desc {
  std::string key, dflt;
  int kind;  // url_key_kind
  int count;
  double lo, hi;
  std::vector<std::string> names;  // choices and flags
  bool only_when_set = false;      // written only when its value is not empty (the link stays short)
};
std::vector<url_key_desc> url_key_table();
// The state a link with no keys means: every key's default (lab_state_default() is this).
lab_state url_state_defaults();

// The shortest decimal text that reads back as exactly the same double ("1", "-0.25", "0.1").
std::string url_format_number(double value);
