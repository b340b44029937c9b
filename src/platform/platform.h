// What the app needs from its host. The browser implementation (web/platform_web.cpp) holds every
// Emscripten call of the project; its native twin (native/platform_native.cpp) keeps the same
// things in memory so the panels can run and be tested headless.
#pragma once

#include <string>

struct fetch_client;

std::string platform_url_fragment();                           // location.hash, '#' included
void platform_replace_url_fragment(const std::string& fragment);  // history.replaceState: no new entry
void platform_push_url_fragment(const std::string& fragment);     // history.pushState: Back returns to the entry before
std::string platform_page_url();                               // the full address, to share
void platform_copy_text(const std::string& text);              // clipboard; result via platform_copy_status
// 0 nothing pending or known, 1 copied, -1 refused by the browser (then the address bar still has it).
int platform_copy_status();
void platform_set_text_mirror(const std::string& text);        // #lab-text, as text, never HTML
void platform_set_notice(const std::string& text);             // #lab-notice ("" hides it)
void platform_set_document_lang(const char* bcp47);            // <html lang>: "en" or "zh-CN"
double platform_now_seconds();
// Small persistent strings (localStorage): "" when absent or when storage is unavailable.
std::string platform_storage_get(const char* key);
void platform_storage_set(const char* key, const std::string& value);
// The network for weights (core/stream/fetch_seam.h): each request names the sink its answers go to.
fetch_client* platform_fetch_client();
// The tokenizer for a checkpoint's tokenizer.json (core/checkpoint_remote/sentence_tokenizer.h):
// the page's runs in a worker loaded on first use; null where the build has none.
struct tokenizer_service* platform_tokenizer();
// The whole model (core/model/model_service.h): the page's runs in a worker started on first use;
// the native twin runs it in-process over the platform's fetch client.
struct model_service* platform_model();
// Text the page will print that the string table does not hold (a pack's sentences and token
// pieces, in any script): the platform makes sure its font has those characters.
void platform_fonts_need(const std::string& text);
