// The tiny module's entry (see early_text.h).
#include "early/early_text.h"

#include <string>

#include "core/lab_text_open.h"
#include "core/url_state.h"

extern "C" const char* early_text_for_link(const char* fragment) {
  static std::string text;
  const lab_state s = url_decode(fragment ? fragment : "").state;
#ifdef SWIGLU_STRINGS_ONE_LANG  // a one-language build has no other language's words
  if (s.lang != SWIGLU_STRINGS_ONE_LANG) return "";
#endif
  text = lab_text_at_open(s);
  return text.c_str();
}
