// Driving the hand, SiLU and budget views with the mouse: steps, Play, reset, view buttons,
// drags on the SiLU plot, scrolling a phone's page by dragging, the language button.
#include "ui_harness.h"

#include "core/lesson/activations.h"

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

TEST_CASE("the language button switches the page and its mirror to Chinese") {
  headless_page page("");
  page.click("lang");
  CHECK(page.url().state.lang == LAB_LANG_ZH);
  CHECK(contains(page.mirror(), "手算"));
  CHECK(platform_native_lang() == "zh-CN");
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
