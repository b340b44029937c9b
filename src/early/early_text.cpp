// The tiny module's entry (see early_text.h).
#include "early/early_text.h"

#include <string>

#include "core/views/lab_text_open.h"
#include "core/pack/pack_format.h"
#include "core/base/read_error.h"
#include "core/link/url_state.h"

static std::string g_text, g_svg;

extern "C" const char* early_text_with_manifest(const char* fragment, const char* manifest, size_t bytes) {
  const lab_state s = url_decode(fragment ? fragment : "").state;
  g_svg.clear();
#ifdef SWIGLU_STRINGS_ONE_LANG  // a one-language build has no other language's words
  if (s.lang != SWIGLU_STRINGS_ONE_LANG) return "";
#endif
#if defined(SWIGLU_EARLY_MANIFEST) || !defined(SWIGLU_STRINGS_ONE_LANG)  // the gates modules, and the tests
  pack_manifest m;
  read_error why;
  if (manifest && bytes && s.view == LAB_VIEW_GATES && pack_manifest_parse(std::string(manifest, bytes), &m, &why)) {
    g_text = lab_text_at_open(s, m, &g_svg);
    return g_text.c_str();
  }
#else
  (void)manifest, (void)bytes;  // swiglu_text_LANG.wasm: no json reader (cmake/web.cmake)
#endif
#if defined(SWIGLU_EARLY_CLASS) || !defined(SWIGLU_STRINGS_ONE_LANG)  // the class links' modules, and the tests
  g_text = lab_text_at_open_carried(s);
#else
  g_text = lab_text_at_open(s);  // swiglu_text_LANG.wasm: no answers' decoder (cmake/web.cmake)
#endif
  return g_text.c_str();
}

extern "C" const char* early_text_for_link(const char* fragment) { return early_text_with_manifest(fragment, nullptr, 0); }

extern "C" const char* early_svg() { return g_svg.c_str(); }

extern "C" void early_set_quiz_record(const char* stored) { lab_text_open_set_quiz_record(stored ? stored : ""); }

#if defined(SWIGLU_EARLY_CLASS) || !defined(SWIGLU_STRINGS_ONE_LANG)
extern "C" const char* early_text_with_answers(const char* fragment, const char* answers, size_t bytes) {
  const lab_state s = url_decode(fragment ? fragment : "").state;
  g_svg.clear();
#ifdef SWIGLU_STRINGS_ONE_LANG
  if (s.lang != SWIGLU_STRINGS_ONE_LANG) return "";
#endif
  g_text = lab_text_at_open_precomputed(s, answers && bytes ? std::string(answers, bytes) : std::string());
  return g_text.c_str();
}
#endif
