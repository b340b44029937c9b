// The page's entry point: a WebGL2 context on #canvas, Dear ImGui with the html5 backend and the
// page's own WebGL2 renderer (imgui_render_gl.h), and a frame loop that draws only when something
// changed (input, resize, animation), so an open tab costs a phone nothing while the class listens.
#include <emscripten.h>
#include <emscripten/heap.h>
#include <emscripten/html5.h>
#include <emscripten/html5_webgl.h>
#include <GLES3/gl3.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base/font_slices.h"
#include "core/base/hash.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8: the pack text's code points
#include "platform/platform.h"
#include "platform/web/fetch_web.h"
#include "platform/web/imgui_impl_html5.h"
#include "platform/web/imgui_render_gl.h"
#include "platform/web/renderer_gl.h"
#include "ui/app.h"
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/page_style.h"

// Embedded: the Latin font and the few Chinese characters an English page shows (cmake/web.cmake).
extern const unsigned char font_latin_ttf[], font_cjk_min_ttf[];
extern const unsigned font_latin_ttf_size, font_cjk_min_ttf_size;

static const int FRAMES_AFTER_EVENT = 6;  // ImGui settles hover state and scrollbars over a few frames

static lab_app g_app;
static float g_font_ratio = 0;
static int g_frames_left = FRAMES_AFTER_EVENT;
static bool g_first_frame_done = false;
static bool g_context_lost = false;
static uint64_t g_picture = 0;  // the key of the picture on the canvas (0: none, draw the next one)
// The app's own work in a frame, GL excluded (stream_bench.mjs). The first frame is kept apart: it
// pays once for the page's start (V8 compiles each wasm function on its first call), while the
// longest later frame is what loading and using the page cost.
static double g_first_app_frame_ms = -1;
static double g_max_app_frame_ms = 0;

extern "C" EMSCRIPTEN_KEEPALIVE double lab_bench_max_app_frame_ms(int first) {
  return first ? g_first_app_frame_ms : g_max_app_frame_ms;
}
// A checkpoint's conversion, done in frames a slice at a time: in all, and the longest in one frame.
extern "C" EMSCRIPTEN_KEEPALIVE double lab_bench_convert_ms(int longest) {
  const layer_source* src = g_app.live.source.get();
  return src ? 1000 * src->convert_seconds(longest != 0) : 0;
}

// The wasm heap's size now: a refused file must not have grown it (tests/browser/hostile_tests.mjs).
extern "C" EMSCRIPTEN_KEEPALIVE double lab_heap_bytes() { return (double)emscripten_get_heap_size(); }

// [SECTION] the string table's Chinese characters (fonts/ui-cjk.ttf, 64 KB): out of the first
// load, fetched once when the page is Chinese (index.html preloads it for a lang=zh link) or a
// pack's text needs a character the embedded fonts lack. A Chinese page waits for it before its
// first frame, so it never shows missing glyphs; if it fails, the page draws without it.
enum cjk_font_state { CJK_NOT_ASKED, CJK_FETCHING, CJK_HERE, CJK_FAILED };
static cjk_font_state g_cjk_state = CJK_NOT_ASKED;
static std::string g_cjk_font;
static std::string g_text_after_fonts;  // text to look at again once the fonts on their way are in
static bool g_fonts_dirty = false;
void platform_fonts_need(const std::string& text);

static void on_cjk_font(const fetch_response& r) {
  if (r.status == 200 && r.n > 0) g_cjk_font.assign((const char*)r.body, r.n);
  g_cjk_state = g_cjk_font.empty() ? CJK_FAILED : CJK_HERE;
  g_fonts_dirty = true, g_frames_left = FRAMES_AFTER_EVENT;
}
static void on_slice(uint32_t id, const fetch_response& r);

// The fonts come through the same fetch client as the weights (core/stream/fetch_seam.h), to this sink.
struct font_sink final : fetch_sink {
  uint32_t cjk = 0;
  void on_fetch_progress(uint32_t, uint64_t, double) override {}
  void on_fetch_response(uint32_t id, const fetch_response& r, double) override {
    if (id == cjk) return on_cjk_font(r);
    on_slice(id, r);
  }
  void on_store_failed(const std::string&) override {}  // fonts are not kept in the verified cache
};
static font_sink g_font_sink;

static uint32_t font_fetch(const char* file) {
  fetch_request q;
  q.url = file;
  return platform_fetch_client()->fetch_start(&g_font_sink, q);
}

static void cjk_font_need() {
  if (g_cjk_state != CJK_NOT_ASKED) return;
  g_cjk_state = CJK_FETCHING;
  g_font_sink.cjk = font_fetch("fonts/ui-cjk.ttf");
}

// [SECTION] fonts for a pack's or a model's own text. The embedded fonts hold only what the string
// table prints; a pack's sentences and a model's token pieces may be in any script. Their missing
// characters are collected, and the slices of the full fonts (DejaVu Sans, WenQuanYi Micro Hei:
// Latin, Greek, Cyrillic, Hebrew, Arabic, CJK, kana, Hangul) that hold them are fetched beside the
// page, each once (core/base/font_slices.h: 128 code points a slice, some tens of KB, where the
// whole files are 5.9 MB); only those glyphs are added to the atlas.
static std::map<int, std::string> g_slices;      // font_slice::key() → its bytes ("" if it failed)
static std::map<uint32_t, int> g_slice_fetches;  // a fetch on its way → its slice's key
static std::set<int> g_slices_built;             // the keys of the slices the atlas was last built with
static std::set<unsigned> g_pack_chars;          // the text's characters the embedded fonts lack
static ImVector<ImWchar> g_pack_ranges;          // the same, as the atlas takes them

static void add_pack_fonts(float ratio) {
  g_slices_built.clear();  // arrived (or failed) by now; not those still on their way
  for (const auto& slice : g_slices) g_slices_built.insert(slice.first);
  for (const auto& fetch : g_slice_fetches) g_slices_built.erase(fetch.second);
  if (g_pack_ranges.empty()) return;
  for (const auto& slice : g_slices) {  // by key: the first font's slices first, so its glyphs win
    if (slice.second.empty()) continue;
    ImFontConfig c;
    c.MergeMode = true;
    c.FontDataOwnedByAtlas = false;
    ImGui::GetIO().Fonts->AddFontFromMemoryTTF((void*)slice.second.data(), (int)slice.second.size(), UI_FONT_PX * ratio, &c,
                                               g_pack_ranges.Data);
  }
}

static void on_slice(uint32_t id, const fetch_response& r) {
  const auto it = g_slice_fetches.find(id);
  if (it == g_slice_fetches.end()) return;
  // A TrueType font or nothing: a host that answers a missing file with its own page (200, HTML)
  // must not reach the atlas, which asserts on what is not a font.
  static const unsigned char sfnt[4] = {0, 1, 0, 0};
  if (r.status == 200 && r.n > 4 && std::memcmp(r.body, sfnt, 4) == 0) g_slices[it->second].assign((const char*)r.body, r.n);
  g_slice_fetches.erase(it);
  if (g_slice_fetches.empty()) g_fonts_dirty = true, g_frames_left = FRAMES_AFTER_EVENT;
}

void platform_fonts_need(const std::string& text) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  if (atlas->Fonts.empty()) return;
  if (!atlas->IsBuilt()) atlas->Build();  // a font just added has no glyphs until built: all would look missing
  ImFont* font = atlas->Fonts[0];
  std::vector<unsigned> chars;
  for (const char* p = text.c_str(); *p;) {
    unsigned int c = 0;
    p += ImTextCharFromUtf8(&c, p, nullptr);
    if (c >= 0x20 && c <= 0xFFFF && !font->FindGlyphNoFallback((ImWchar)c)) chars.push_back(c);
  }
  if (chars.empty()) return;
  if (g_cjk_state == CJK_NOT_ASKED || g_cjk_state == CJK_FETCHING) {  // 64 KB may have them: try it first
    g_text_after_fonts += text;
    cjk_font_need();
    return;
  }
  bool new_chars = false;
  for (unsigned c : chars) new_chars |= g_pack_chars.insert(c).second;
  if (new_chars) {
    ImFontGlyphRangesBuilder ranges;
    for (unsigned c : g_pack_chars) ranges.AddChar((ImWchar)c);
    g_pack_ranges.clear();
    ranges.BuildRanges(&g_pack_ranges);
  }
  std::set<int> asked, coming;  // coming: on its way, or here and not yet in the atlas
  for (const auto& slice : g_slices) {
    asked.insert(slice.first);
    if (!g_slices_built.count(slice.first)) coming.insert(slice.first);
  }
  for (const font_slice& slice : font_slices_for(chars, font_slice_present, asked, coming)) {
    g_slices[slice.key()];  // asked once, whatever comes back
    g_slice_fetches[font_fetch(font_slice_file(slice).c_str())] = slice.key();
  }
  // Looked at again once they are in: what the first font's slice lacks goes on to the next font.
  if (!g_slice_fetches.empty() || !coming.empty()) g_text_after_fonts += text;
  else if (new_chars) g_fonts_dirty = true, g_frames_left = FRAMES_AFTER_EVENT;  // their slices are here already
}

// [SECTION] fonts: rasterised at the device's pixel ratio, shown at 1/ratio, so text is sharp.
static void build_fonts(float ratio) {
  if (g_cjk_font.empty())
    lab_fonts_add(font_latin_ttf, int(font_latin_ttf_size), font_cjk_min_ttf, int(font_cjk_min_ttf_size), ratio);
  else
    lab_fonts_add(font_latin_ttf, int(font_latin_ttf_size), g_cjk_font.data(), int(g_cjk_font.size()), ratio);
  add_pack_fonts(ratio);
  g_font_ratio = ratio;
}

// [SECTION] the network: pack bytes arriving ask for frames (the loop sleeps otherwise)
static void on_fetch_event() { g_frames_left = FRAMES_AFTER_EVENT; }
fetch_client* platform_fetch_client() { return fetch_web_client(on_fetch_event); }

// [SECTION] the model worker: its messages (a status, an answer) ask for frames, so an answer the
// frames poll for (the view's, or one a class link's check asked) is taken even when the page had
// gone idle (model_web.cpp calls Module.labOnModelEvent on each message)
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_model_event() { g_frames_left = FRAMES_AFTER_EVENT; }

// [SECTION] JS entry points
// The fragment was edited, or Back / Forward reached another history entry (ui/app.cpp pushes one
// per change of view). An entry the page itself just wrote is no change.
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_hash_change() {
  const std::string fragment = platform_url_fragment();
  if (fragment == g_app.written_fragment) return;
  lab_app_load_fragment(&g_app, fragment);
  g_frames_left = FRAMES_AFTER_EVENT;
}

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_paste(const char* text) { ImGui_ImplHtml5_AddPastedText(text); }
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_text(const char* text) { ImGui_ImplHtml5_AddText(text); }
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_key_press(int key_code, int ctrl) { ImGui_ImplHtml5_AddKeyPress(key_code, ctrl != 0); }

// For tests that click like a person: where the named widget was drawn (CSS pixels).
extern "C" EMSCRIPTEN_KEEPALIVE int lab_item_rect(const char* name, float* out4) {
  item_rect r;
  if (!item_probe_find(name, &r)) return 0;
  out4[0] = r.x0, out4[1] = r.y0, out4[2] = r.x1, out4[3] = r.y1;
  return 1;
}

// For tests that check nothing is cut off: every named widget and printed number of the last
// frame, with whether it can be brought into view (item_probe.h), as JSON.
extern "C" EMSCRIPTEN_KEEPALIVE const char* lab_items_json() {
  static std::string json;
  json = item_probe_json();
  return json.c_str();
}

// The name of the control with the keyboard focus mark ("" if none), for the keyboard tests.
extern "C" EMSCRIPTEN_KEEPALIVE const char* lab_focused_name() {
  static std::string name;
  name = focus_current_name();
  return name.c_str();
}

// For tests that wait on the page, not on a clock: the frames drawn so far, and whether the page
// has drawn all that its input, the network and its animations asked for (nothing left to draw;
// a font on its way will be drawn with once it is in).
static unsigned g_frames_drawn = 0;
extern "C" EMSCRIPTEN_KEEPALIVE unsigned lab_frames_drawn() { return g_frames_drawn; }
// For tests: ImGui is typing into a field (a double tap or click hit a number, not beside it).
extern "C" EMSCRIPTEN_KEEPALIVE int lab_typing() { return ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput; }
extern "C" EMSCRIPTEN_KEEPALIVE int lab_idle() {
  const bool fonts_coming = g_cjk_state == CJK_FETCHING || !g_slice_fetches.empty() || g_fonts_dirty;
  return g_frames_left <= 0 && !fonts_coming && !ImGui_ImplHtml5_InputPending() && !lab_app_animating(&g_app, platform_now_seconds());
}

EM_JS(void, js_install_listeners, (void), {
  window.labItems = () => JSON.parse(UTF8ToString(Module._lab_items_json()));
  window.labFrames = () => Module._lab_frames_drawn();
  window.labIdle = () => Module._lab_idle() !== 0;
  Module.labOnModelEvent = () => Module._lab_on_model_event();
  window.labFocused = () => UTF8ToString(Module._lab_focused_name());
  window.labTyping = () => Module._lab_typing() !== 0;
  window.addEventListener("hashchange", () => Module._lab_on_hash_change());
  window.addEventListener("popstate", () => Module._lab_on_hash_change());
  window.labItemRect = (name) => {
    const n = lengthBytesUTF8(name) + 1, p = _malloc(n + 16), out = p + ((n + 3) & ~3);
    stringToUTF8(name, p, n);
    const found = Module._lab_item_rect(p, out);
    const f = HEAPF32.subarray(out >> 2, (out >> 2) + 4);
    const r = found ? { x: f[0], y: f[1], w: f[2] - f[0], h: f[3] - f[1] } : null;
    _free(p);
    return r;
  };
  window.addEventListener("paste", (e) => {
    const t = (e.clipboardData && e.clipboardData.getData("text")) || "";
    if (!t) return;
    e.preventDefault();  // pasted once: not also into #lab-keyboard, whose input would send it again
    const n = lengthBytesUTF8(t) + 1, p = _malloc(n);
    stringToUTF8(t, p, n);
    Module._lab_on_paste(p);
    _free(p);
  });
});

// The test-only stall limit (tests/browser: `self.labTestStallSeconds` set before the page starts),
// so the test of a stalled download waits seconds, not the real limit. 0: the real one.
EM_JS(double, js_test_stall_seconds, (void), {
  return self.labTestStallSeconds > 0 ? Number(self.labTestStallSeconds) : 0;
});

EM_JS(void, js_first_frame, (void), {
  window.labFirstFrameMs = performance.now();
  document.body.dataset.labReady = "1";
  const loading = document.getElementById("loading");
  if (loading) loading.remove();
  console.log("SwiGLU Lab: first frame at " + window.labFirstFrameMs.toFixed(0) + " ms");
});

// [SECTION] WebGL context loss
// Phones drop the GL context of background tabs and under memory pressure. The page then waits
// (no drawing, state kept), and when the browser gives the context back, ImGui's GL objects and
// font texture are rebuilt: the student comes back to the same view, not a blank canvas.
EM_JS(void, js_context_event, (int restored), {
  window.labContextRestores = (window.labContextRestores || 0) + restored;
  console.log("SwiGLU Lab: WebGL context " + (restored ? "restored" : "lost"));
});

static EM_BOOL on_context_lost(int, const void*, void*) {
  g_context_lost = true;
  js_context_event(0);
  return EM_TRUE;  // preventDefault: tells the browser we can restore
}

static EM_BOOL on_context_restored(int, const void*, void*) {
  imgui_gl_context_lost();  // forgets the lost objects: they are made again on the next frame
  renderer_gl_context_lost();
  g_context_lost = false;
  g_frames_left = FRAMES_AFTER_EVENT;
  g_picture = 0;
  js_context_event(1);
  return EM_TRUE;
}

// What the canvas would show: every vertex, index and command of the draw data, its size and
// scale, and what the heatmap draws beyond it. Equal keys, equal pictures.
static uint64_t picture_key(const ImDrawData* dd) {
  std::vector<uint64_t> parts = {hash64(&dd->DisplaySize, sizeof dd->DisplaySize),
                                 hash64(&dd->FramebufferScale, sizeof dd->FramebufferScale), renderer_gl_frame_key()};
  for (int i = 0; i < dd->CmdListsCount; i++) {
    const ImDrawList* l = dd->CmdLists[i];
    parts.push_back(hash64(l->VtxBuffer.Data, l->VtxBuffer.size_in_bytes()));
    parts.push_back(hash64(l->IdxBuffer.Data, l->IdxBuffer.size_in_bytes()));
    parts.push_back(hash64(l->CmdBuffer.Data, l->CmdBuffer.size_in_bytes()));
  }
  return hash64(parts.data(), parts.size() * sizeof(uint64_t)) | 1;  // never 0: 0 means "draw"
}

// [SECTION] frame loop: html5.h's requestAnimationFrame loop calls frame() once per display frame
// (Emscripten's main loop would do the same and bring its Browser library into the glue).
static void frame() {
  if (g_context_lost) return;
  bool input = ImGui_ImplHtml5_NewFrame();
  double now = platform_now_seconds();
  if (input) g_frames_left = FRAMES_AFTER_EVENT;
  if (lab_app_animating(&g_app, now)) g_frames_left = FRAMES_AFTER_EVENT;
  if (g_app.state.lang == LAB_LANG_ZH) cjk_font_need();
  if (g_frames_left <= 0) return;
  if (!g_first_frame_done && g_cjk_state == CJK_FETCHING) return;  // its answer asks for frames again
  --g_frames_left;
  ++g_frames_drawn;

  float ratio = ImGui_ImplHtml5_PixelRatio();
  if (ratio != g_font_ratio || g_fonts_dirty) {
    g_fonts_dirty = false;
    build_fonts(ratio);
    imgui_gl_fonts_changed();
    g_picture = 0;  // a new atlas (its texture is made again before the frame)
    if (g_cjk_state >= CJK_HERE && g_slice_fetches.empty() && !g_text_after_fonts.empty()) {  // what they lacked goes on
      std::string text;
      text.swap(g_text_after_fonts);
      platform_fonts_need(text);
    }
  }
  imgui_gl_new_frame();
  ImGui::NewFrame();
  ImGui_ImplHtml5_AfterNewFrame();
  const double t0 = emscripten_get_now();
  lab_app_frame(&g_app, now);
  ImGui::Render();
  const double app_ms = emscripten_get_now() - t0;
  if (g_first_app_frame_ms < 0) g_first_app_frame_ms = app_ms;
  else g_max_app_frame_ms = std::max(g_max_app_frame_ms, app_ms);

  // The canvas is drawn only when its picture changed (it keeps showing the last one): the frames
  // ImGui settles over after an input mostly repeat the picture, and each redraw costs a phone's
  // GPU (and a CPU renderer) the whole canvas.
  const uint64_t picture = picture_key(ImGui::GetDrawData());
  if (picture == g_picture) return;
  g_picture = picture;

  ImGuiIO& io = ImGui::GetIO();
  glViewport(0, 0, int(io.DisplaySize.x * io.DisplayFramebufferScale.x), int(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  glClearColor(0.97f, 0.97f, 0.96f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  imgui_gl_render(ImGui::GetDrawData());
  if (!g_first_frame_done) g_first_frame_done = true, js_first_frame();
}

int main() {
  EmscriptenWebGLContextAttributes attrs;
  emscripten_webgl_init_context_attributes(&attrs);
  attrs.majorVersion = 2;
  attrs.alpha = EM_FALSE;
  attrs.antialias = EM_FALSE;  // ImGui anti-aliases its own shapes
  EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = emscripten_webgl_create_context("#canvas", &attrs);
  if (gl <= 0) {
    EM_ASM({ window.labShowFatal && window.labShowFatal(window.labWords("STR_PAGE_NO_WEBGL2")); });
    return 1;
  }
  emscripten_webgl_make_context_current(gl);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the view lives in the URL, not in imgui.ini
  lab_style_apply();
  ImGui_ImplHtml5_Init("#canvas");
  build_fonts(ImGui_ImplHtml5_PixelRatio());

  emscripten_set_webglcontextlost_callback("#canvas", nullptr, true, on_context_lost);
  emscripten_set_webglcontextrestored_callback("#canvas", nullptr, true, on_context_restored);
  lab_app_init(&g_app);
  if (js_test_stall_seconds() > 0) g_app.stall_seconds = js_test_stall_seconds();
  lab_app_open_sources(&g_app, platform_now_seconds());
  js_install_listeners();
  emscripten_request_animation_frame_loop([](double, void*) -> EM_BOOL { frame(); return EM_TRUE; }, nullptr);
  return 0;
}
