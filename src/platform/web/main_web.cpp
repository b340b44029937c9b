// The page's entry point: a WebGL2 context on #canvas, Dear ImGui with the html5 + OpenGL3
// backends, and a frame loop that draws only when something changed (input, resize, animation),
// so an open tab costs a phone nothing while the class listens.
#include <emscripten.h>
#include <emscripten/html5.h>
#include <emscripten/html5_webgl.h>
#include <GLES3/gl3.h>

#include "core/strings.h"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "platform/platform.h"
#include "platform/web/fetch_web.h"
#include "platform/web/imgui_impl_html5.h"
#include "platform/web/renderer_gl.h"
#include "ui/app.h"
#include "ui/item_probe.h"

extern const unsigned char font_latin_ttf[], font_cjk_ttf[];
extern const unsigned font_latin_ttf_size, font_cjk_ttf_size;

static const float UI_FONT_PX = 17.0f;  // CSS pixels
static const int FRAMES_AFTER_EVENT = 6;  // ImGui settles hover state and scrollbars over a few frames

static lab_app g_app;
static float g_font_ratio = 0;
static int g_frames_left = FRAMES_AFTER_EVENT;
static bool g_first_frame_done = false;
static bool g_context_lost = false;

// [SECTION] fonts: rasterised at the device's pixel ratio, shown at 1/ratio, so text is sharp.
static void build_fonts(float ratio) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig latin;
  latin.FontDataOwnedByAtlas = false;  // the bytes are static
  static const ImWchar latin_ranges[] = {0x0020, 0x00FF, 0x0391, 0x03C9, 0x2010, 0x2027, 0x2070, 0x209F,
                                         0x2190, 0x2193, 0x2211, 0x2265, 0x2299, 0x2299, 0x22C5, 0x22C5, 0};
  io.Fonts->AddFontFromMemoryTTF((void*)font_latin_ttf, int(font_latin_ttf_size), UI_FONT_PX * ratio, &latin, latin_ranges);

  // Chinese glyphs merged into the same font: exactly the characters of the string table.
  static ImVector<ImWchar> cjk_ranges;
  if (cjk_ranges.empty()) {
    ImFontGlyphRangesBuilder builder;
    for (int i = 0; i < STR_COUNT; ++i)  // both columns: the English page's language button says 中文
      for (int lang = 0; lang < LAB_LANG_COUNT; ++lang) builder.AddText(tr_in(lab_lang(lang), str_id(i)));
    builder.BuildRanges(&cjk_ranges);
  }
  ImFontConfig cjk;
  cjk.MergeMode = true;
  cjk.FontDataOwnedByAtlas = false;
  io.Fonts->AddFontFromMemoryTTF((void*)font_cjk_ttf, int(font_cjk_ttf_size), UI_FONT_PX * ratio, &cjk, cjk_ranges.Data);
  io.FontGlobalScale = 1.0f / ratio;
  g_font_ratio = ratio;
}

static void style_page() {
  ImGui::StyleColorsLight();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowPadding = ImVec2(14, 12);
  st.FramePadding = ImVec2(8, 5);
  st.ItemSpacing = ImVec2(9, 7);
  st.CellPadding = ImVec2(6, 4);
  st.FrameRounding = 4;
  st.GrabRounding = 4;
  st.WindowBorderSize = 0;
  st.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1);
  st.Colors[ImGuiCol_Button] = ImVec4(0.86f, 0.89f, 0.95f, 1);
  // Neutral table headers: in the hand calculation, blue means "read by this step".
  st.Colors[ImGuiCol_TableHeaderBg] = ImVec4(0.90f, 0.90f, 0.88f, 1);
}

// [SECTION] the network: pack bytes arriving ask for frames (the loop sleeps otherwise)
static void on_fetch_event() { g_frames_left = FRAMES_AFTER_EVENT; }
fetch_client* platform_fetch_client(pack_stream* target) { return fetch_web_client(target, on_fetch_event); }

// [SECTION] JS entry points
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_hash_change() {
  lab_app_load_fragment(&g_app, platform_url_fragment());
  g_frames_left = FRAMES_AFTER_EVENT;
}

extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_paste(const char* text) { ImGui_ImplHtml5_AddPastedText(text); }
extern "C" EMSCRIPTEN_KEEPALIVE void lab_on_text(const char* text) { ImGui_ImplHtml5_AddText(text); }

// For tests that click like a person: where the named widget was drawn (CSS pixels).
extern "C" EMSCRIPTEN_KEEPALIVE int lab_item_rect(const char* name, float* out4) {
  item_rect r;
  if (!item_probe_find(name, &r)) return 0;
  out4[0] = r.x0, out4[1] = r.y0, out4[2] = r.x1, out4[3] = r.y1;
  return 1;
}

EM_JS(void, js_install_listeners, (void), {
  window.addEventListener("hashchange", () => Module._lab_on_hash_change());
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
    const n = lengthBytesUTF8(t) + 1, p = _malloc(n);
    stringToUTF8(t, p, n);
    Module._lab_on_paste(p);
    _free(p);
  });
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
  ImGui_ImplOpenGL3_Shutdown();  // forgets the lost objects
  renderer_gl_context_lost();
  ImGui_ImplOpenGL3_Init("#version 300 es");  // device objects are made again on the next frame
  g_context_lost = false;
  g_frames_left = FRAMES_AFTER_EVENT;
  js_context_event(1);
  return EM_TRUE;
}

// [SECTION] frame loop
static void frame() {
  if (g_context_lost) return;
  bool input = ImGui_ImplHtml5_NewFrame();
  double now = platform_now_seconds();
  if (input) g_frames_left = FRAMES_AFTER_EVENT;
  if (lab_app_animating(&g_app, now)) g_frames_left = FRAMES_AFTER_EVENT;
  if (g_frames_left <= 0) return;
  --g_frames_left;

  float ratio = ImGui_ImplHtml5_PixelRatio();
  if (ratio != g_font_ratio) {
    build_fonts(ratio);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  ImGui_ImplHtml5_AfterNewFrame();
  lab_app_frame(&g_app, now);
  ImGui::Render();

  ImGuiIO& io = ImGui::GetIO();
  glViewport(0, 0, int(io.DisplaySize.x * io.DisplayFramebufferScale.x), int(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  glClearColor(0.97f, 0.97f, 0.96f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
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
    EM_ASM({ window.labShowFatal && window.labShowFatal("This browser could not start WebGL2, which the lab needs to draw."); });
    return 1;
  }
  emscripten_webgl_make_context_current(gl);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the view lives in the URL, not in imgui.ini
  style_page();
  ImGui_ImplHtml5_Init("#canvas");
  build_fonts(ImGui_ImplHtml5_PixelRatio());
  ImGui_ImplOpenGL3_Init("#version 300 es");

  emscripten_set_webglcontextlost_callback("#canvas", nullptr, true, on_context_lost);
  emscripten_set_webglcontextrestored_callback("#canvas", nullptr, true, on_context_restored);
  lab_app_init(&g_app);
  js_install_listeners();
  emscripten_set_main_loop(frame, 0, false);
  return 0;
}
