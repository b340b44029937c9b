// The page's panels, driven headless through Dear ImGui with no renderer: clicks on named widgets
// (item_probe), keys, URL edits, and what lands in the URL, the text mirror and the notice.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/activations.h"
#include "core/strings.h"
#include "core/url_state.h"
#include "imgui.h"
#include "imgui_internal.h"  // the page window's scroll, as a student's swipe would set it
#include "platform/native/platform_native.h"
#include "ui/app.h"
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/page_style.h"

void lab_imgui_assert_failed(const char* expr, const char* file, int line) {
  throw std::runtime_error(std::string("ImGui assertion failed: ") + expr + " at " + file + ":" + std::to_string(line));
}

// DOM keyCodes, as the browser backend maps them
enum { KEY_BACKSPACE = 8, KEY_TAB = 9, KEY_ENTER = 13, KEY_SHIFT = 16, KEY_SPACE = 32, KEY_LEFT = 37, KEY_RIGHT = 39 };
static const double FRAME_SECONDS = 1.0 / 60;

// The page's own fonts (Debian's files that the web build cuts down), so text here is as wide as
// in the browser and "is every number on screen" means the same thing.
static std::vector<char> font_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("missing font ") + path + " (tools/setup.sh installs it)");
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
static const std::vector<char> LATIN_FONT = font_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
static const std::vector<char> CJK_FONT = font_file("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc");

struct headless_page {
  lab_app app;
  double now = 100.0;

  // Each page starts with empty storage (a browser that never saw the lab) unless asked not to.
  explicit headless_page(const std::string& fragment, float width = 1280, float height = 800,
                         bool keep_storage = false) {
    if (!keep_storage) platform_storage_set("swiglu-lab.last-view", "");
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.KeyMap[ImGuiKey_LeftArrow] = KEY_LEFT;
    io.KeyMap[ImGuiKey_RightArrow] = KEY_RIGHT;
    io.KeyMap[ImGuiKey_Backspace] = KEY_BACKSPACE;
    io.KeyMap[ImGuiKey_Tab] = KEY_TAB;
    io.KeyMap[ImGuiKey_Enter] = KEY_ENTER;
    io.KeyMap[ImGuiKey_Space] = KEY_SPACE;
    lab_style_apply();
    lab_fonts_add(LATIN_FONT.data(), int(LATIN_FONT.size()), CJK_FONT.data(), int(CJK_FONT.size()), 1.0f);
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    platform_native_set_fragment(fragment);
    lab_app_init(&app);
    frame();
    for (int i = 0; i < 10 && app.layout_settling; ++i) frame();  // boxes learn their sizes
    frame();
  }
  ~headless_page() {
    lab_app_free(&app);
    ImGui::DestroyContext();
  }

  void frame(double seconds = FRAME_SECONDS) {
    ImGui::GetIO().DeltaTime = float(seconds);
    now += seconds;
    ImGui::NewFrame();
    lab_app_frame(&app, now);
    ImGui::Render();
  }
  void click(const char* name) {
    item_rect r;
    INFO("widget " << name);
    REQUIRE(item_probe_find(name, &r));
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
  void press(int key) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeysDown[key] = true;
    frame();
    io.KeysDown[key] = false;
    frame();
  }
  // In a field being typed into: clears it and types `text` (Enter still to come).
  void retype(const char* text) {
    REQUIRE(ImGui::GetIO().WantTextInput);
    for (int i = 0; i < 12; ++i) press(KEY_BACKSPACE);
    ImGui::GetIO().AddInputCharactersUTF8(text);
    frame();
  }
  url_decoded url() const { return url_decode(platform_url_fragment()); }
  const std::string& mirror() const { return platform_native_mirror(); }
};

static bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST_CASE("the default page shows y at the last step and writes its whole state to the URL") {
  headless_page page("");
  CHECK(contains(page.mirror(), "y = [1.924234, -1.761594]"));
  CHECK(platform_url_fragment() == "#" + url_encode(lab_state_default()));
}

TEST_CASE("Previous / Next buttons and the arrow keys step, and the URL follows") {
  headless_page page("#v=1&view=hand&step=5");
  page.click("prev");
  CHECK(page.app.state.step == 4);
  CHECK(page.url().state.step == 4);
  CHECK_FALSE(contains(page.mirror(), "y = ["));
  CHECK(contains(page.mirror(), "z = [-0.268941, 0.000000, 2.193176, -1.761594]"));
  page.press(KEY_LEFT);
  page.press(KEY_LEFT);
  CHECK(page.url().state.step == 2);
  page.press(KEY_RIGHT);
  CHECK(page.app.state.step == 3);
  page.click("next");
  page.click("next");
  CHECK(page.app.state.step == 5);
  page.press(KEY_RIGHT);  // already at the last step
  CHECK(page.app.state.step == 5);
}

TEST_CASE("Play walks from the start to y, then stops") {
  headless_page page("#step=5");
  page.click("play");
  CHECK(page.app.state.step == 0);
  for (int i = 0; i < 5 * 100 && lab_app_animating(&page.app, page.now); ++i) page.frame(0.1);
  CHECK(page.app.state.step == 5);
  CHECK_FALSE(lab_app_panel_animating(&page.app, LAB_VIEW_HAND, page.now));
}

TEST_CASE("a URL edit (hashchange) restores exactly that view") {
  headless_page page("");
  lab_app_load_fragment(&page.app, "#v=1&view=hand&x=2,-1&step=1");
  page.frame();
  CHECK(page.app.state.x[0] == 2);
  CHECK(contains(page.mirror(), "u = [2.000000, -1.000000, 1.000000, 3.000000]"));
  CHECK(page.url().state.x[1] == -1);
}

TEST_CASE("a malformed key shows a notice, keeps the rest, and can be dismissed") {
  headless_page page("#v=1&view=hand&x=1,oops&step=2");
  CHECK(contains(platform_native_notice(), "'x'"));
  CHECK(contains(platform_native_notice(), "oops"));
  CHECK(page.app.state.step == 2);
  CHECK(page.app.state.x[1] == 2);
  page.click("dismiss");
  CHECK(platform_native_notice().empty());
}

TEST_CASE("reset brings back the lesson after edits") {
  headless_page page("#x=5,5&wu=0,0,0,0,0,0,0,0&step=1");
  page.click("reset");
  CHECK(lab_state_equal(page.app.state, lab_state_default()));
}

TEST_CASE("view buttons switch views; each view draws at several widths") {
  for (float width : {1280.f, 390.f}) {
    headless_page page("", width, 800);
    page.click("view-silu");
    CHECK(page.url().state.view == LAB_VIEW_SILU);
    CHECK(contains(page.mirror(), "SiLU(z) = -0.268941"));
    page.click("show-gelu");
    CHECK(page.url().state.show_gelu);
    CHECK(contains(page.mirror(), "GELU(z) = -0.158655"));
    page.click("view-budget");
    CHECK(contains(page.mirror(), "264,241,152"));
    page.click("preset-balanced");
    CHECK(page.app.state.intermediate == 2731);
    page.click("preset-qwen");
    CHECK(page.app.state.intermediate == 3584);
    page.click("view-hand");
    for (int step = 0; step <= 5; ++step) {
      lab_app_load_fragment(&page.app, "#step=" + std::to_string(step));
      page.frame();
      CHECK(page.app.state.step == step);
    }
  }
}

TEST_CASE("dragging on the SiLU plot moves the probe") {
  headless_page page("#view=silu&z=0");
  item_rect r;
  REQUIRE(item_probe_find("plot", &r));
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(r.x0 + (r.x1 - r.x0) * 0.6f, (r.y0 + r.y1) / 2);
  page.frame();
  io.MouseDown[0] = true;
  page.frame();
  io.MousePos.x = r.x0 + 1;  // drag to the far left
  page.frame();
  page.frame();
  io.MouseDown[0] = false;
  page.frame();
  CHECK(page.app.state.probe_z < -5.5);
  CHECK(page.url().state.probe_z == page.app.state.probe_z);
}

TEST_CASE("on a small screen a drag on empty page scrolls it (phones have no wheel)") {
  headless_page page("#view=hand&step=5", 390, 400);
  item_rect before, after;
  REQUIRE(item_probe_find("prev", &before));
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(5, 350);  // the window's left padding: no widget there
  page.frame();
  io.MouseDown[0] = true;
  page.frame();
  for (float y = 340; y >= 150; y -= 20) {
    io.MousePos.y = y;
    page.frame();
  }
  io.MouseDown[0] = false;
  page.frame();
  REQUIRE(item_probe_find("prev", &after));
  CHECK(after.y0 < before.y0 - 100);
  CHECK(page.app.state.step == 5);  // scrolling edited nothing
}

TEST_CASE("copy link puts the full address with the view on the clipboard") {
  headless_page page("#view=budget&h=2048");
  page.click("copy-link");
  CHECK(contains(platform_native_clipboard(), "view=budget"));
  CHECK(contains(platform_native_clipboard(), "h=2048"));
}

TEST_CASE("the bare address brings back the last view; a link always wins") {
  {
    headless_page page("#view=silu&z=2.5");
  }
  {
    headless_page bare("", 1280, 800, /*keep_storage=*/true);
    CHECK(bare.app.state.view == LAB_VIEW_SILU);
    CHECK(bare.app.state.probe_z == 2.5);
  }
  headless_page linked("#view=budget");
  CHECK(linked.app.state.view == LAB_VIEW_BUDGET);
}

TEST_CASE("the language button switches the page and its mirror to Chinese") {
  headless_page page("");
  page.click("lang");
  CHECK(page.url().state.lang == LAB_LANG_ZH);
  CHECK(contains(page.mirror(), "手算"));
  CHECK(platform_native_lang() == "zh-CN");
}

// [SECTION] the live views on a pack streamed through the fetch twin
#include "core/pack/pack_build.h"
#include "core/pack/pack_stats.h"
#include "packs/pack_test_util.h"
#include "core/number_format.h"
#include "core/source/pack_source.h"
#include "platform/native/fetch_native.h"
#include "ui/renderer.h"

struct live_page {
  mem_files pack;
  live_page() {
    mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
    checkpoint ck;
    std::string err;
    REQUIRE(ckpt_open(&ckf, &ck, &err));
    pack_build_options o;
    o.layers = {0, 2, 4};
    o.probes = {{"lesson", {1, 2, 3, 4, 5, 6}, {"今天", "天气", "不错", "，", "我们", "去公园"}}};
    pack_build_result res;
    REQUIRE(pack_build(ck, o, &pack, &res, &err));
    native_fetch* net = platform_native_fetch();
    *net = native_fetch();
    net->files = &pack;
    net->base = "packs/default/";
  }
  const pack_manifest& manifest(const headless_page& page) const {
    return static_cast<const pack_source*>(page.app.live.source.get())->manifest();
  }
  // Frames and network answers until nothing is left in flight.
  void settle(headless_page& page) {
    for (int i = 0; i < 100; i++) {
      page.frame();
      if (platform_native_fetch()->deliver(page.now) == 0 && i > 3) break;
    }
    page.frame();
  }
};

TEST_CASE("live views: gate shares in the mirror equal stats; per token says exactly 0; weights upload a heatmap") {
  live_page lp;
  headless_page page("#v=1&view=gates&lang=en");
  lp.settle(page);
  const std::string& m = page.mirror();
  INFO(m);
  CHECK(contains(m, "synthetic weights"));
  for (int layer : {0, 2, 4}) {
    mlp_gate_counts c;
    std::string err;
    REQUIRE(pack_gate_stats(&lp.pack, lp.manifest(page), layer, 0.1, &c, &err));
    CHECK(contains(m, "Layer " + std::to_string(layer) + ": (live) > 0.1: " + fmt_percent(c.open_share()) +
                          ", < -0.1: " + fmt_percent(c.negative_share())));
  }
  // Only gates were fetched for this view.
  for (const std::string& f : platform_native_fetch()->requested) CHECK_FALSE(contains(f, "-up.q8"));

  page.click("view-perm");
  lp.settle(page);
  CHECK(page.url().state.view == LAB_VIEW_PERM);
  CHECK(contains(page.mirror(), "max |MLP(x[perm]) - MLP(x)[perm]| = exactly 0"));
  CHECK(contains(page.mirror(), "perm = [5, 3, 1, 0, 2, 4]"));
  CHECK(contains(page.mirror(), "  1 天气: 0\n"));
  CHECK_FALSE(contains(page.mirror(), "  2 不错: 0\n"));  // token 2 moved
  page.click("perm-shuffle");
  CHECK_FALSE(page.url().state.perm.empty());
  lp.settle(page);
  CHECK(contains(page.mirror(), "exactly 0"));

  const int uploads = renderer_null_get_log()->uploads;
  page.click("view-weights");
  lp.settle(page);
  CHECK(renderer_null_get_log()->uploads == uploads + 1);
  CHECK(renderer_null_get_log()->last_rows == 170);
  CHECK(contains(page.mirror(), "W_gate (170 x 60)"));
  page.click("weights-zoom-in");
  CHECK(page.url().state.heat_zoom == 2.0);  // the link keeps the zoom
  page.frame();                              // the heatmap, above the button, draws it next frame
  CHECK(renderer_null_get_log()->last_uv1.x - renderer_null_get_log()->last_uv0.x == Approx(0.5));
  page.click("weights-W_down");
  lp.settle(page);
  CHECK(renderer_null_get_log()->last_rows == 60);
  CHECK(page.url().state.matrix == MLP_DOWN);
}

TEST_CASE("live views: a failing file shows its message and Retry recovers") {
  live_page lp;
  platform_native_fetch()->faults["layer-002-gate.q8"].status = 503;
  platform_native_fetch()->faults["layer-002-gate.q8"].times = 1;
  headless_page page("#v=1&view=gates&lang=zh");
  lp.settle(page);
  CHECK(contains(page.mirror(), "无法加载 layer-002-gate.q8：HTTP 503：服务器错误"));
  CHECK(contains(page.mirror(), "第 0 层：(实时)"));  // the other layers are live meanwhile
  page.click("stream-retry");
  lp.settle(page);
  CHECK_FALSE(contains(page.mirror(), "无法加载"));
}

// [SECTION] every number and control reachable, on a phone and on a laptop
// What a student cannot bring into view, by scrolling the page or a sideways strip that says it
// scrolls, does not exist for them: each printed text and named widget must be reachable.
// ImGui skips what is scrolled out of view, so the page is scrolled from top to bottom, as a
// student would, and every frame's records are checked and kept.
static std::vector<item_record> g_seen;

static void scroll_through(headless_page& page, const std::string& what) {
  g_seen.clear();
  ImGuiWindow* root = ImGui::FindWindowByName("SwiGLU Lab");
  REQUIRE(root);
  for (int i = 0; i < 3; ++i) page.frame();  // boxes learn their heights
  for (float y = 0;; y += ImGui::GetIO().DisplaySize.y * 0.5f) {
    ImGui::SetScrollY(root, y);
    page.frame();
    page.frame();
    for (int i = 0; i < 10 && page.app.layout_settling; ++i) page.frame();  // as the browser draws on
    page.frame();  // the page window learns its new content height one frame late
    for (const item_record& r : item_probe_all()) {
      INFO(what << " scrolled to " << y << ": '" << r.name << r.text << "' at x " << r.rect.x0 << ".." << r.rect.x1
                << ", y " << r.rect.y0 << ".." << r.rect.y1);
      if (!r.reachable) CHECK(r.reachable);  // one line per failure, not one per record
      g_seen.push_back(r);
    }
    if (y >= root->ScrollMax.y) break;
  }
  ImGui::SetScrollY(root, 0);
  page.frame();
}

// True if a reachable printed text contains `part`.
static bool shows(const std::string& part) {
  for (const item_record& r : g_seen)
    if (r.reachable && contains(r.text, part)) return true;
  return false;
}

struct screen { float w, h; };
static const screen SCREENS[] = {{390, 844}, {1280, 800}};

TEST_CASE("hand view: every step's formula ends with its result, and every table value is reachable") {
  for (screen sc : SCREENS)
    for (const char* lang : {"en", "zh"}) {
      std::string base = std::string("#v=1&view=hand&lang=") + lang + "&step=";
      headless_page page(base + "0", sc.w, sc.h);
      for (int step = 0; step <= 5; ++step) {
        lab_app_load_fragment(&page.app, base + std::to_string(step));
        std::string what = "hand step " + std::to_string(step) + " " + lang + " at " + std::to_string(int(sc.w));
        scroll_through(page, what);
        INFO(what);
        if (step == 1) CHECK(shows("u₁ = 1×1 + 0×2 = 1.000000"));
        if (step == 3) {
          CHECK(shows("g₁ = (-1.000000)×sigmoid(-1.000000) = (-1.000000)×0.268941 = -0.268941"));
          CHECK(shows("g₄ = 2.000000×sigmoid(2.000000) = 2.000000×0.880797 = 1.761594"));
        }
        if (step == 5) {
          CHECK(shows("y₁ = 1×(-0.268941) + 0×0.000000 + 1×2.193176 + 0×(-1.761594) = 1.924234"));
          CHECK(shows("y₂ = 0×(-0.268941) + 1×0.000000 + 0×2.193176 + 1×(-1.761594) = -1.761594"));
          for (const char* v : {"0.880797", "0.731059", "2.193176", "-1.761594", "1.924234"}) CHECK(shows(v));
        }
      }
    }
}

TEST_CASE("a long notice grows its box: Dismiss is reachable and works by a tap on a phone") {
  const char* hostile = "#v=1&view=hand&x=a&wu=b&wg=c&wd=d&step=e&z=f&ov=g&h=h&f=i&layers=j&lang=k";
  for (screen sc : SCREENS) {
    headless_page page(hostile, sc.w, sc.h);
    scroll_through(page, "notices");
    CHECK(page.app.notices.size() == 11);
    CHECK(shows("Link key 'lang' has an unreadable value 'k'"));
    page.click("dismiss");
    CHECK(page.app.notices.empty());
  }
}

TEST_CASE("SiLU and budget views: every number reachable, overlays and legend, in both languages") {
  for (screen sc : SCREENS)
    for (const char* lang : {"en", "zh"}) {
      std::string what = std::string(lang) + " at " + std::to_string(int(sc.w));
      INFO(what);
      {
        headless_page page(std::string("#v=1&view=silu&z=-1&ov=sigmoid,gelu&lang=") + lang, sc.w, sc.h);
        scroll_through(page, "silu " + what);
        for (const char* v : {"-0.268941", "0.268941", "-0.158655", "-1.278465", "-0.278465"}) CHECK(shows(v));
        CHECK(shows("GELU(z) = z·Φ(z)"));  // the overlays have legend entries
        CHECK(shows("sigmoid(z) = 1 / (1 + e^(−z))"));
        REQUIRE(item_probe_get("silu-min-label"));
        CHECK(item_probe_get("silu-min-label")->reachable);
      }
      headless_page budget(std::string("#v=1&view=budget&lang=") + lang, sc.w, sc.h);
      scroll_through(budget, "budget " + what);
      for (const char* v : {"11,010,048", "264,241,152", "8,388,608", "201,326,592"}) CHECK(shows(v));
    }
}

TEST_CASE("SiLU probe: a drag lands exactly on z = -1 and on the minimum; typing sets any z") {
  for (screen sc : SCREENS) {
    headless_page page("#view=silu&z=0", sc.w, sc.h);
    item_rect r;
    REQUIRE(item_probe_find("plot", &r));
    // The plot's z axis: find the pixel of z = -1 by dragging across and reading the probe.
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
    page.frame();
    io.MouseDown[0] = true;
    page.frame();
    bool hit_minus_one = false, hit_minimum = false;
    for (float x = r.x0; x <= r.x1; x += 0.5f) {
      io.MousePos.x = x;
      page.frame();
      hit_minus_one |= page.app.state.probe_z == -1.0;
      hit_minimum |= page.app.state.probe_z == act_silu_minimum().z;
    }
    io.MouseDown[0] = false;
    page.frame();
    CHECK(hit_minus_one);
    CHECK(hit_minimum);
  }
  headless_page page("#view=silu&z=3");
  item_rect r;
  REQUIRE(item_probe_find("probe-typed", &r));
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(r.x0 + 20, (r.y0 + r.y1) / 2);
  page.frame();
  io.MouseDown[0] = true;
  page.frame();
  io.MouseDown[0] = false;
  page.frame();
  REQUIRE(io.WantTextInput);
  page.retype("-1");
  page.press(KEY_ENTER);
  CHECK(page.app.state.probe_z == -1.0);
  CHECK(contains(page.mirror(), "SiLU(z) = -0.268941"));
  CHECK(contains(platform_url_fragment(), "z=-1&"));
}

// [SECTION] keyboard alone
static std::string focused_name() { return focus_current_id() ? focus_current_name() : ""; }

// Presses Tab (Shift-Tab if back) until `name` has the focus; false after `limit` presses.
static bool tab_to(headless_page& page, const std::string& name, bool back = false, int limit = 80) {
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < limit; ++i) {
    io.KeyShift = back;
    page.press(KEY_TAB);
    io.KeyShift = false;
    if (focused_name() == name) return true;
  }
  return false;
}

TEST_CASE("Tab reaches every control in order with a visible mark; Enter and Space press; arrows step") {
  for (screen sc : SCREENS) {
    INFO("screen " << sc.w);
    headless_page page("#v=1&view=hand&x=1,oops&step=4", sc.w, sc.h);
    CHECK(focused_name().empty());
    page.press(KEY_TAB);
    CHECK(focused_name() == "view-hand");  // the first control of the page
    CHECK_FALSE(GImGui->NavDisableHighlight);  // ImGui draws its highlight, the focus module its mark
    std::vector<std::string> order;
    for (int i = 0; i < 60; ++i) {
      std::string n = focused_name();
      if (!n.empty() && (order.empty() || order.back() != n)) order.push_back(n);
      page.press(KEY_TAB);
    }
    std::string seen;
    for (const std::string& n : order) seen += n + " ";
    INFO("tab order: " << seen);
    const char* expected[] = {"view-hand", "view-silu", "view-budget", "copy-link", "lang", "dismiss",
                              "prev", "next", "play", "reset", "x1", "x2"};
    size_t at = 0;  // in this order, each once per round
    for (const std::string& n : order)
      if (at < 12 && n == expected[at]) ++at;
    CHECK(at == 12);

    // Back with Shift-Tab, press Next with Enter: the step advances.
    REQUIRE(tab_to(page, "next", true));
    page.press(KEY_ENTER);
    CHECK(page.app.state.step == 5);
    // A button has the focus, no text field is being edited: the arrow keys step the lesson.
    REQUIRE(tab_to(page, "prev", true));
    page.press(KEY_LEFT);
    CHECK(page.app.state.step == 4);
    page.press(KEY_SPACE);  // Space presses the focused Previous
    CHECK(page.app.state.step == 3);
    CHECK(contains(page.mirror(), "Step 3 of 5"));
    // Tab onto a number only focuses it: the arrows still step.
    REQUIRE(tab_to(page, "x1"));
    CHECK_FALSE(ImGui::GetIO().WantTextInput);
    page.press(KEY_RIGHT);
    CHECK(page.app.state.step == 4);
    page.press(KEY_LEFT);
    CHECK(page.app.state.step == 3);
    // Enter on it starts typing into it; arrows then move the text cursor, not the step.
    page.press(KEY_ENTER);
    page.retype("3");
    page.press(KEY_LEFT);
    CHECK(page.app.state.step == 3);
    page.press(KEY_ENTER);
    page.frame();
    CHECK_FALSE(ImGui::GetIO().WantTextInput);
    CHECK(page.app.state.x[0] == 3);
    CHECK(contains(page.mirror(), "u = [3.000000, 2.000000, 5.000000, 1.000000]"));
    // Dismiss by keyboard.
    REQUIRE(tab_to(page, "dismiss", true));
    page.press(KEY_ENTER);
    CHECK(page.app.notices.empty());
  }
}

TEST_CASE("keyboard on the other views: view buttons, overlay boxes, the typed probe, the budget presets") {
  headless_page page("#v=1&view=hand&step=5");
  REQUIRE(tab_to(page, "view-silu"));
  page.press(KEY_SPACE);
  CHECK(page.app.state.view == LAB_VIEW_SILU);
  REQUIRE(tab_to(page, "show-gelu"));
  page.press(KEY_SPACE);
  CHECK(page.app.state.show_gelu);
  CHECK(contains(page.mirror(), "GELU(z) = -0.158655"));
  REQUIRE(tab_to(page, "show-sigmoid", true));
  page.press(KEY_ENTER);
  CHECK(page.app.state.show_sigmoid);
  REQUIRE(tab_to(page, "plot"));
  page.press(KEY_RIGHT);  // the arrows move the probe by 0.01 on this view
  CHECK(page.app.state.probe_z == Approx(-0.99).margin(1e-12));
  REQUIRE(tab_to(page, "probe-typed"));
  page.press(KEY_ENTER);
  page.retype("-1.278465");
  page.press(KEY_ENTER);
  CHECK(contains(page.mirror(), "SiLU(z) = -0.278465"));
  REQUIRE(tab_to(page, "view-budget"));
  page.press(KEY_ENTER);
  REQUIRE(tab_to(page, "preset-balanced"));
  page.press(KEY_ENTER);
  CHECK(page.app.state.intermediate == 2731);
  REQUIRE(tab_to(page, "lang"));
  page.press(KEY_SPACE);
  CHECK(page.app.state.lang == LAB_LANG_ZH);
}

// [SECTION] the text mirror holds every number on screen
// Every decimal number and every thousands-grouped count that a view prints (tables, formulas,
// follow-ups opened) must also be in #lab-text; static hints of the string table are not data.
static bool is_table_string(const std::string& text) {
  for (int i = 0; i < STR_COUNT; ++i)
    if (text == tr(str_id(i))) return true;
  return false;
}

static void check_mirror_has_every_number(const std::string& mirror, const std::string& what, int at_least = 6) {
  static const std::regex number("-?[0-9]+(,[0-9]{3})+|-?[0-9]+\\.[0-9]+");
  int checked = 0;
  for (const item_record& r : g_seen) {
    if (r.text.empty() || is_table_string(r.text)) continue;
    for (std::sregex_iterator m(r.text.begin(), r.text.end(), number), end; m != end; ++m) {
      INFO(what << ": \"" << m->str() << "\" from \"" << r.text << "\" is not in the mirror:\n" << mirror);
      CHECK(contains(mirror, m->str()));
      ++checked;
    }
  }
  CHECK(checked >= at_least);
}

TEST_CASE("the mirror holds every number on screen, follow-ups included, in both languages") {
  for (const char* lang : {"en", "zh"}) {
    std::string l = std::string("&lang=") + lang;
    for (int step = 0; step <= 5; ++step) {
      headless_page page("#v=1&view=hand&step=" + std::to_string(step) + l, 1280, 3000);  // headers in view
      page.click("and-header");
      page.click("fixed-header");
      scroll_through(page, "hand");
      CHECK(shows("0.731059"));  // the AND table's silu(1), open
      check_mirror_has_every_number(page.mirror(), "hand step " + std::to_string(step) + " " + lang);
    }
    for (const char* view : {"#v=1&view=silu&z=-1&ov=sigmoid,gelu", "#v=1&view=silu&z=2.5", "#v=1&view=budget",
                             "#v=1&view=budget&h=4096&f=14336&layers=1", "#v=1&view=budget&h=65536&f=262144&layers=1024"}) {
      headless_page page(view + l);
      scroll_through(page, view);
      check_mirror_has_every_number(page.mirror(), view + l);
    }
  }
}

TEST_CASE("live views: every number and control reachable on a phone and a laptop, and in the mirror") {
  for (screen sc : SCREENS)
    for (const char* lang : {"en", "zh"})
      for (const char* view : {"gates", "perm", "weights"}) {
        live_page lp;
        const std::string link = std::string("#v=1&view=") + view + "&lang=" + lang + "&layer=2&unit=7";
        headless_page page(link, sc.w, sc.h);
        lp.settle(page);
        const std::string what = link + " at " + std::to_string(int(sc.w));
        scroll_through(page, what);
        INFO(what);
        if (std::string(view) == "perm") CHECK(shows(lang == std::string("en") ? "exactly 0" : "恰好为 0"));
        if (std::string(view) == "gates") CHECK(shows(" %"));
        // The per-token view prints few decimals: one changed token, the rest exactly 0.
        check_mirror_has_every_number(page.mirror(), what, std::string(view) == "perm" ? 1 : 6);
      }
}
