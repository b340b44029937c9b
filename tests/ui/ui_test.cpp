// The page's panels, driven headless through Dear ImGui with no renderer: clicks on named widgets
// (item_probe), keys, URL edits, and what lands in the URL, the text mirror and the notice.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "core/url_state.h"
#include "imgui.h"
#include "platform/native/platform_native.h"
#include "ui/app.h"
#include "ui/item_probe.h"

void lab_imgui_assert_failed(const char* expr, const char* file, int line) {
  throw std::runtime_error(std::string("ImGui assertion failed: ") + expr + " at " + file + ":" + std::to_string(line));
}

enum { KEY_LEFT = 37, KEY_RIGHT = 39 };  // DOM keyCodes, as the browser backend maps them
static const double FRAME_SECONDS = 1.0 / 60;

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
    unsigned char* pixels;
    int w, h;
    io.Fonts->AddFontDefault();
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    platform_native_set_fragment(fragment);
    lab_app_init(&app);
    frame();
  }
  ~headless_page() { ImGui::DestroyContext(); }

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
  CHECK_FALSE(page.app.hand.playing);
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
  // Frames and network answers until nothing is left in flight.
  void settle(headless_page& page) {
    for (int i = 0; i < 100; i++) {
      page.frame();
      if (platform_native_fetch()->deliver(&page.app.stream, page.now) == 0 && i > 3) break;
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
    REQUIRE(pack_gate_stats(&lp.pack, page.app.stream.manifest, layer, 0.1, &c, &err));
    CHECK(contains(m, "Layer " + std::to_string(layer) + ": (live) > 0.1: " + live_percent(c.open_share()) +
                          ", < -0.1: " + live_percent(c.negative_share())));
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
  page.click("weights-W_down");
  lp.settle(page);
  CHECK(renderer_null_get_log()->last_rows == 60);
  CHECK(page.url().state.matrix == LAB_MATRIX_DOWN);
}

TEST_CASE("live views: a failing file shows its message and Retry recovers") {
  live_page lp;
  platform_native_fetch()->faults["layer-002-gate.q8"].status = 503;
  platform_native_fetch()->faults["layer-002-gate.q8"].times = 1;
  headless_page page("#v=1&view=gates&lang=zh");
  lp.settle(page);
  CHECK(contains(page.mirror(), "无法加载 layer-002-gate.q8: HTTP 503"));
  CHECK(contains(page.mirror(), "第 0 层: (实时)"));  // the other layers are live meanwhile
  page.click("stream-retry");
  lp.settle(page);
  CHECK_FALSE(contains(page.mirror(), "无法加载"));
}
