// Native twin of the browser platform: the URL, the clipboard and the text mirror live in memory,
// where tests (and platform_native.h) can read and set them.
#include "platform/native/platform_native.h"

#include <chrono>
#include <map>
#include <memory>
#include <vector>

#include "core/model/model_service.h"
#include "platform/native/fetch_native.h"

static std::string g_fragment, g_mirror, g_notice, g_clipboard, g_lang = "en";
static int g_copy_status = 0;
static std::map<std::string, std::string> g_storage;

static std::vector<std::string> g_history;  // the entries before the current one (pushState)

std::string platform_url_fragment() { return g_fragment; }
void platform_replace_url_fragment(const std::string& fragment) { g_fragment = fragment; }
void platform_push_url_fragment(const std::string& fragment) {
  g_history.push_back(g_fragment);
  g_fragment = fragment;
}
bool platform_native_back() {
  if (g_history.empty()) return false;
  g_fragment = g_history.back();
  g_history.pop_back();
  return true;
}
size_t platform_native_history_length() { return g_history.size() + 1; }
std::string platform_page_url() { return "http://127.0.0.1:8080/" + g_fragment; }
void platform_copy_text(const std::string& text) { g_clipboard = text, g_copy_status = 1; }
int platform_copy_status() { return g_copy_status; }
void platform_set_text_mirror(const std::string& text) { g_mirror = text; }
void platform_set_notice(const std::string& text) { g_notice = text; }
void platform_set_document_lang(const char* bcp47) { g_lang = bcp47; }
double platform_now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

std::string platform_storage_get(const char* key) {
  auto it = g_storage.find(key);
  return it == g_storage.end() ? "" : it->second;
}
void platform_storage_set(const char* key, const std::string& value) { g_storage[key] = value; }

void platform_native_set_fragment(const std::string& fragment) {
  g_fragment = fragment;
  g_history.clear();  // a link opened afresh
}
const std::string& platform_native_mirror() { return g_mirror; }
const std::string& platform_native_notice() { return g_notice; }
const std::string& platform_native_clipboard() { return g_clipboard; }
const std::string& platform_native_lang() { return g_lang; }

// Weight packs come from the fetch twin; tests give it files and deliver its answers.
static native_fetch g_fetch;
fetch_client* platform_fetch_client() { return &g_fetch; }

// The whole model in-process over the same fetch twin (the page runs it in a worker instead).
static std::unique_ptr<model_service> g_model;

model_service* platform_model() {
  if (!g_model) g_model.reset(model_service_local(&g_fetch));
  return g_model.get();
}

void platform_native_model_reset() {
  std::unique_ptr<model_service> fresh(model_service_local(&g_fetch));  // made first: a new address
  g_model.swap(fresh);
}
tokenizer_service* platform_tokenizer() { return nullptr; }  // the UI tests link no tokenizer
native_fetch* platform_native_fetch() { return &g_fetch; }
void platform_fonts_need(const std::string&) {}  // headless: ImGui's default font, nothing to fetch
