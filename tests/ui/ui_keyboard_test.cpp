// The page by keyboard alone: Tab order with a visible mark, Enter and Space press, the arrows step.
#include "ui_harness.h"

#include "core/views/view_table.h"

#include "imgui_internal.h"  // GImGui->NavDisableHighlight
#include "ui/focus.h"

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
    // Every view's button from the view table, then the bar and the hand calculation's controls.
    std::vector<std::string> expected;
    for (const lab_view_info& v : LAB_VIEWS) expected.push_back(std::string("view-") + v.name);
    for (const char* n : {"copy-link", "qr-code", "lang", "dismiss", "prev", "next", "play", "reset", "x1", "x2"}) expected.push_back(n);
    size_t at = 0;  // in this order, each once per round
    for (const std::string& n : order)
      if (at < expected.size() && n == expected[at]) ++at;
    CHECK(at == expected.size());

    // Back with Shift-Tab, press Next with Enter: the step advances.
    REQUIRE(page.tab_to("next", true));
    page.press(KEY_ENTER);
    CHECK(page.app.state.step == 5);
    // A button has the focus, no text field is being edited: the arrow keys step the lesson.
    REQUIRE(page.tab_to("prev", true));
    page.press(KEY_LEFT);
    CHECK(page.app.state.step == 4);
    page.press(KEY_SPACE);  // Space presses the focused Previous
    CHECK(page.app.state.step == 3);
    CHECK(contains(page.mirror(), "Step 3 of 5"));
    // Tab onto a number only focuses it: the arrows still step.
    REQUIRE(page.tab_to("x1"));
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
    REQUIRE(page.tab_to("dismiss", true));
    page.press(KEY_ENTER);
    CHECK(page.app.notices.empty());
  }
}

TEST_CASE("keyboard on the other views: view buttons, overlay boxes, the typed probe, the budget presets") {
  headless_page page("#v=1&view=hand&step=5");
  REQUIRE(page.tab_to("view-silu"));
  page.press(KEY_SPACE);
  CHECK(page.app.state.view == LAB_VIEW_SILU);
  REQUIRE(page.tab_to("show-gelu"));
  page.press(KEY_SPACE);
  CHECK(page.app.state.show_gelu);
  CHECK(contains(page.mirror(), "GELU(z) = -0.158655"));
  REQUIRE(page.tab_to("show-sigmoid", true));
  page.press(KEY_ENTER);
  CHECK(page.app.state.show_sigmoid);
  REQUIRE(page.tab_to("plot"));
  page.press(KEY_RIGHT);  // the arrows move the probe by 0.01 on this view
  CHECK(page.app.state.probe_z == Approx(-0.99).margin(1e-12));
  REQUIRE(page.tab_to("probe-typed"));
  page.press(KEY_ENTER);
  page.retype("-1.278465");
  page.press(KEY_ENTER);
  CHECK(contains(page.mirror(), "SiLU(z) = -0.278465"));
  REQUIRE(page.tab_to("view-budget"));
  page.press(KEY_ENTER);
  REQUIRE(page.tab_to("preset-balanced"));
  page.press(KEY_ENTER);
  CHECK(page.app.state.intermediate == 2731);
  REQUIRE(page.tab_to("lang"));
  page.press(KEY_SPACE);
  CHECK(page.app.state.lang == LAB_LANG_ZH);
}
