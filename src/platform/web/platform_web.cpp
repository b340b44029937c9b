// The browser side of platform.h: location, history, clipboard and the DOM text mirror.
// Text from the URL only ever reaches the DOM through textContent, never innerHTML.
#include <emscripten.h>

#include <cstdlib>
#include <string>

#include "platform/platform.h"

// Returns a malloc'd UTF-8 copy of a JS string; the caller frees it.
EM_JS(char*, js_location_hash, (void), {
  const s = window.location.hash || "";
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

EM_JS(char*, js_page_url, (void), {
  const s = window.location.href;
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

// replaceState for what changes many times a second (a drag): Back should not undo one drag step.
// pushState for a change of view, so that Back returns to the view before (ui/app.cpp decides).
EM_JS(void, js_set_hash, (const char* fragment, int push), {
  const f = UTF8ToString(fragment), url = window.location.pathname + window.location.search + f;
  if (push) history.pushState(null, "", url); else history.replaceState(history.state, "", url);
});

EM_JS(void, js_copy_text, (const char* text), {
  const t = UTF8ToString(text);
  Module.labCopyStatus = 0;
  const fallback = () => {
    // Older browsers and http:// pages without the async clipboard: a hidden textarea.
    const ta = document.createElement("textarea");
    ta.value = t;
    ta.setAttribute("readonly", "");
    ta.style.position = "fixed";
    ta.style.opacity = "0";
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(ta);
    Module.labCopyStatus = ok ? 1 : -1;
  };
  window.labLastCopiedText = t;
  if (navigator.clipboard && navigator.clipboard.writeText) {
    navigator.clipboard.writeText(t).then(() => { Module.labCopyStatus = 1; }, fallback);
  } else {
    fallback();
  }
});

EM_JS(int, js_copy_status, (void), { return Module.labCopyStatus || 0; });

EM_JS(void, js_set_text, (const char* id, const char* text), {
  const el = document.getElementById(UTF8ToString(id));
  if (!el) return;
  const t = UTF8ToString(text);
  el.textContent = t;
  if (el.dataset.hideWhenEmpty !== undefined) el.hidden = t.length === 0;
});

EM_JS(void, js_set_lang, (const char* lang), { document.documentElement.lang = UTF8ToString(lang); });

// Storage can be absent or throw (private windows, blocked cookies): the lab then simply forgets.
EM_JS(char*, js_storage_get, (const char* key), {
  let v = "";
  try { v = window.localStorage.getItem(UTF8ToString(key)) || ""; } catch (e) { v = ""; }
  const n = lengthBytesUTF8(v) + 1;
  const p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});

EM_JS(void, js_storage_set, (const char* key, const char* value), {
  try { window.localStorage.setItem(UTF8ToString(key), UTF8ToString(value)); } catch (e) {}
});

static std::string take(char* p) {
  std::string s(p);
  std::free(p);
  return s;
}

std::string platform_url_fragment() { return take(js_location_hash()); }
void platform_replace_url_fragment(const std::string& fragment) { js_set_hash(fragment.c_str(), 0); }
void platform_push_url_fragment(const std::string& fragment) { js_set_hash(fragment.c_str(), 1); }
std::string platform_page_url() { return take(js_page_url()); }
void platform_copy_text(const std::string& text) { js_copy_text(text.c_str()); }
int platform_copy_status() { return js_copy_status(); }
void platform_set_text_mirror(const std::string& text) { js_set_text("lab-text", text.c_str()); }
void platform_set_notice(const std::string& text) { js_set_text("lab-notice", text.c_str()); }
void platform_set_document_lang(const char* bcp47) { js_set_lang(bcp47); }
double platform_now_seconds() { return emscripten_get_now() / 1000.0; }
std::string platform_storage_get(const char* key) { return take(js_storage_get(key)); }
void platform_storage_set(const char* key, const std::string& value) { js_storage_set(key, value.c_str()); }
