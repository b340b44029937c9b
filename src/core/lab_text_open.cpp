// The mirror at opening (see lab_text_open.h).
#include "core/lab_text_open.h"

#include "core/faq.h"
#include "core/lab_text.h"
#include "core/strings.h"

std::string lab_text_at_open(const lab_state& s) {
  const lab_lang saved = strings_lang();
  strings_set_lang(s.lang);
  std::string out = lab_text(s) + faq_text(s.view, 0);  // no weights yet; every question folded
  strings_set_lang(saved);
  return out;
}
