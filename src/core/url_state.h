// The view state as a URL fragment, the page's public sharing format:
//   #v=1&view=hand&lang=en&x=1,2&wu=...&wg=...&wd=...&step=5&z=-1&ov=sigmoid,gelu&h=1024&f=3584&layers=24
// Once a key ships it keeps its meaning; a change of meaning bumps v and old links keep decoding.
// Decoding never fails: unknown keys are ignored, out-of-range values are clamped, and a malformed
// value falls back to the lesson default. Every clamp and fallback is reported as a notice.
#pragma once

#include <string>
#include <vector>

#include "core/lab_state.h"

#define URL_STATE_VERSION 1

enum url_problem {
  URL_MALFORMED,    // could not be read: the lesson default is used instead
  URL_CLAMPED,      // read, but outside its range: the nearest allowed value is used
  URL_NEWER_VERSION // v is newer than this page knows: keys are read as version 1
};

struct url_notice {
  url_problem problem;
  std::string key;
  std::string value;  // as it stood in the link (percent-decoded); display as text only
};

struct url_decoded {
  lab_state state;
  std::vector<url_notice> notices;
};

// Accepts the fragment with or without its leading '#'. An empty fragment gives the defaults.
url_decoded url_decode(const std::string& fragment);

// Writes every key (not only the changed ones), so a link means the same even if defaults change.
std::string url_encode(const lab_state& state);

// A plain decimal number as links write it ("-1.5", "+2", "1e-3", "\u2212""1"); no hex, inf or nan.
bool url_parse_number(std::string text, double* out);

// A pack location a link may name: a relative path inside the site or an http(s) URL.
bool url_pack_location_ok(const std::string& location);

// The shortest decimal text that reads back as exactly the same double ("1", "-0.25", "0.1").
std::string url_format_number(double value);
