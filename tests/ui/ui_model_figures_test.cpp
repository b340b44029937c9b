// The whole-model views' figures and controls headless, as a teacher uses them: the flow's
// layers as one chart whose bars are controls (a tap, a click, Tab then Enter), the rule book's
// probabilities before and after side by side with their scales said, the keyboard focus kept on
// Switch off / on, a picked unit that is switched off, a phone's long labels, and tokens that are
// control characters or have no text. A projector: ui_model_present_test.cpp.
#include "ui_model_site.h"

#include <algorithm>

#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui_internal.h"  // the keyboard focus's ImGui id, the page window's scroll

namespace {

float page_scroll() { return ImGui::FindWindowByName("SwiGLU Lab")->Scroll.y; }

}  // namespace

// [SECTION] the flow: one chart, its bars the controls that mark a layer
TEST_CASE("flow: every layer's bar is a control: a tap, a click, or Tab then Enter marks its layer (layer=), a second tap unmarks it") {
  model_site site;
  for (screen sc : SCREENS) {
    INFO("screen " << sc.w);
    headless_page page("#v=1&view=flow&lang=en", sc.w, sc.h);
    REQUIRE(model_answered(page));
    CHECK(page.app.state.layer == -1);
    page.click("flow-layer-23");
    CHECK(page.url().state.layer == 23);
    REQUIRE(model_answered(page));
    CHECK(contains(page.mirror(), "Picked: Layer 23: |MLP|"));
    CHECK(contains(page.mirror(), "Layer 23: (picked) |MLP|"));
    page.click("flow-layer-7");  // another bar moves the mark
    CHECK(page.url().state.layer == 7);
    page.click("flow-layer-7");  // the marked one again: no layer marked
    CHECK(page.url().state.layer == -1);
    REQUIRE(model_answered(page));
    CHECK_FALSE(contains(page.mirror(), "Picked:"));
    // By keyboard: Tab reaches each bar in the layers' order, Enter marks, Enter again unmarks.
    REQUIRE(page.tab_to("flow-layer-4"));
    page.press(KEY_TAB);
    CHECK(focused_name() == "flow-layer-5");
    page.press(KEY_ENTER);
    CHECK(page.url().state.layer == 5);
    CHECK(focused_name() == "flow-layer-5");
    page.press(KEY_ENTER);
    CHECK(page.url().state.layer == -1);
  }
}

TEST_CASE("flow on a phone: a swipe that starts on the chart scrolls the page and marks no layer") {
  model_site site;
  headless_page page("#v=1&view=flow&lang=en", 390, 844);
  REQUIRE(model_answered(page));
  ImGuiWindow* root = ImGui::FindWindowByName("SwiGLU Lab");
  ImGui::SetScrollY(root, root->Scroll.y + page.rect("flow-layer-12").y0 - 300);  // the chart on screen, the page above it
  for (int i = 0; i < 4; i++) page.frame();
  const float scrolled = page_scroll();
  REQUIRE(scrolled > 100);
  const item_rect bar = page.rect("flow-layer-12");
  REQUIRE(bar.y1 < 844);
  ImGuiIO& io = ImGui::GetIO();
  const float x = (bar.x0 + bar.x1) / 2;
  float y = (bar.y0 + bar.y1) / 2;
  io.MousePos = ImVec2(x, y);
  page.frame();
  io.MouseDown[0] = true;
  page.frame();
  for (int i = 0; i < 10; i++) {  // the finger moves up: the page follows it down
    y -= 20;
    io.MousePos = ImVec2(x, y);
    page.frame();
  }
  io.MouseDown[0] = false;
  page.frame();
  page.frame();
  CHECK(page_scroll() > scrolled + 100);
  CHECK(page.url().state.layer == -1);
}

TEST_CASE("flow: lesson 001's figure is one chart of a bar per layer on one screen (laptop, projector, phone), its scale said (en, zh)") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace run = direct.forward({1, 2, 3, 4});
  const int largest = direct_largest_flow(run, 3);
  const double ratio = run.mlp_l2[largest][3] / run.out_l2[largest][3];
  struct layout {
    float w, h;
    const char* ui;
  };
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (layout at : {layout{1280, 800, "normal"}, layout{1920, 1080, "present"}, layout{390, 844, "normal"}}) {
      INFO(lang_name(l) << " at " << at.w << " ui=" << at.ui);
      headless_page page(std::string("#v=1&view=flow&ids=1,2,3,4&lang=") + lang_name(l) + "&ui=" + at.ui, at.w, at.h);
      REQUIRE(model_answered(page));
      // The caption: what the heights are, the largest named with its ratio, in the mirror too.
      const std::string caption = strf(tr_in(l, STR_FLOW_SCALE), std::to_string(largest).c_str(), fmt_percent1(ratio).c_str());
      CHECK(contains(page.mirror(), caption));
      scroll_through(page, "flow chart");
      CHECK(shows(caption));
      // One chart, the whole of it on one screen, each bar in it side by side in the layers' order.
      const item_rect chart = page.rect("flow-chart");
      CHECK(chart.y1 - chart.y0 <= at.h * 0.45f);
      CHECK(chart.x1 - chart.x0 >= std::min(at.w * 0.85f, 600.0f));
      float x = chart.x0;
      for (int layer = 0; layer < 24; layer++) {
        INFO("layer " << layer);
        const std::string name = "flow-layer-" + std::to_string(layer);
        REQUIRE(has_widget(name));
        const item_rect bar = page.rect(name.c_str());
        CHECK(bar.x0 >= x - 0.5f);
        CHECK(bar.x1 <= chart.x1 + 0.5f);
        CHECK(bar.y0 >= chart.y0 - 0.5f);
        CHECK(bar.y1 <= chart.y1 + 0.5f);
        CHECK(bar.x1 - bar.x0 >= 12);  // a finger's target on a phone, at least
        x = bar.x1;
      }
      // The scale's top is the largest ratio; the per-layer numbers stay listed (and in the mirror).
      CHECK(shows_label(fmt_percent1(ratio)));
      check_mirror_has_every_number(page.mirror(), "flow chart", 24 * 3);
      CHECK(lab_app_presenting(&page.app) == (std::string(at.ui) == "present"));
    }
}

// [SECTION] the rule book: before and after side by side, on an absolute scale
TEST_CASE("rule book: each next token's probability before and after the switch-off as two bars side by side, absolute, said in words (en, zh)") {
  model_site site;
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(lang_name(l));
    headless_page page(std::string("#v=1&view=rules&lang=") + lang_name(l));
    REQUIRE(model_answered(page));
    CHECK(contains(page.mirror(), tr_in(l, STR_RULES_SCALE)));
    CHECK(page.shows(tr_in(l, STR_RULES_SCALE)));
    for (const view_row& row : rules_next_rows(page.app.live.model.reply, false)) CHECK(row.bar_before < 0);
    page.open(std::string("#v=1&view=rules&off=23:75&lang=") + lang_name(l));
    REQUIRE(model_answered(page));
    CHECK(contains(page.mirror(), tr_in(l, STR_RULES_SCALE_OFF)));
    CHECK(page.shows(tr_in(l, STR_RULES_SCALE_OFF)));
    const std::string colon = tr_in(l, STR_MIRROR_COLON);
    CHECK(contains(page.mirror(), "'北京'" + colon + "id 333" + tr_in(l, STR_MIRROR_SEP) + "P" + colon + "20.9 % → 3.5 %"));  // lesson 003's figure
    const model_reply& r = page.app.live.model.reply;
    const std::vector<view_row> rows = rules_next_rows(r, true);
    REQUIRE(rows.size() == r.before_top.size());
    for (size_t i = 0; i < rows.size(); i++) {  // the probabilities themselves: 1 is the whole track
      CHECK(rows[i].bar_before == Approx(r.before_top[i].p_before));
      CHECK(rows[i].bar == Approx(r.before_top[i].p));
    }
    CHECK(rows[0].bar_before == Approx(0.209).margin(0.0005));
    CHECK(rows[0].bar == Approx(0.035).margin(0.0005));
  }
}

// [SECTION] the keyboard on Switch off / Switch on
TEST_CASE("rule book by keyboard: Enter on Switch off switches the unit off and the focus stays on it (now Switch on)") {
  model_site site;
  headless_page page("#v=1&view=rules&layer=23&unit=75&lang=en");
  REQUIRE(model_answered(page));
  for (const char* button : {"rules-off-23-75", "rules-picked-off"}) {
    INFO(button);
    REQUIRE(page.tab_to(button));
    page.press(KEY_ENTER);
    CHECK(page.url().state.off == std::vector<int64_t>{23, 75});
    REQUIRE(model_site::settle_until(page, "20.9 % → 3.5 %"));  // the numbers changed
    CHECK(focused_name() == button);
    const item_record* on = item_probe_get(button);
    REQUIRE(on);
    CHECK(ImGui::GetFocusID() == on->id);
    page.press(KEY_ENTER);  // and back on, from the same place
    CHECK(page.url().state.off.empty());
    REQUIRE(model_answered(page));
    CHECK(focused_name() == button);
  }
}

// [SECTION] a picked unit that is switched off
TEST_CASE("rule book: a picked unit switched off shows what it computes, silu(gate) × up, and says the model uses 0 in its place (en, zh)") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace base = direct.forward({1, 2, 3, 4});
  const size_t F = (size_t)direct.w.spec.base.intermediate;
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(lang_name(l));
    headless_page page(std::string("#v=1&view=rules&ids=1,2,3,4&layer=23&unit=75&off=23:75&lang=") + lang_name(l));
    REQUIRE(model_answered(page));
    const model_reply& r = page.app.live.model.reply;
    REQUIRE(r.picked_gate.size() == 4);
    const std::string colon = tr_in(l, STR_MIRROR_COLON), sep = tr_in(l, STR_MIRROR_SEP);
    for (size_t t = 0; t < 4; t++) {
      INFO("token " << t);
      const float product = r.picked_gate[t] * r.picked_up[t];
      CHECK(product == Approx(base.act[23][t * F + 75]).epsilon(1e-4));  // what the unit computes with nothing off
      CHECK(r.picked_per_token[t] == product);  // what it computes; the model uses 0 in its place
      const std::string line = std::string("silu(gate) × up") + colon + fmt6(product) + sep + tr_in(l, STR_RULES_IN_MODEL) + colon + "0";
      CHECK(contains(page.mirror(), line));
    }
    CHECK_FALSE(contains(page.mirror(), std::string("silu(gate) × up") + colon + "0.000000"));
    CHECK(contains(page.mirror(), tr_in(l, STR_RULES_PICKED_OFF)));
    scroll_through(page, "picked off");
    CHECK(shows(tr_in(l, STR_RULES_PICKED_OFF)));
    check_mirror_has_every_number(page.mirror(), "picked off", 20);
    page.open(std::string("#v=1&view=rules&ids=1,2,3,4&layer=23&unit=75&lang=") + lang_name(l));  // on: the model's own values
    REQUIRE(model_answered(page));
    CHECK(page.app.live.model.reply.picked_per_token == std::vector<float>{base.act[23][75], base.act[23][F + 75], base.act[23][2 * F + 75], base.act[23][3 * F + 75]});
    CHECK_FALSE(contains(page.mirror(), tr_in(l, STR_RULES_PICKED_OFF)));
    CHECK_FALSE(contains(page.mirror(), tr_in(l, STR_RULES_IN_MODEL)));
  }
}

// [SECTION] a phone
TEST_CASE("rule book on a phone: a unit's row switched off and picked wraps at the screen's edge, every word reachable (en, zh)") {
  model_site site;
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(lang_name(l));
    headless_page page(std::string("#v=1&view=rules&layer=23&tok=3&unit=75&off=18:65,23:75&lang=") + lang_name(l), 390, 844);
    REQUIRE(model_answered(page));
    scroll_through(page, "phone, off and picked");  // fails for any record cut at the edge
    const std::string title = strf(tr_in(l, STR_RULES_UNIT), "23", "75");
    CHECK(shows(title));
    check_mirror_has_every_number(page.mirror(), "phone, off and picked", 20);
  }
}

// [SECTION] tokens as text
TEST_CASE("tokens: control characters written as their bytes, on one row; a token without text printed once") {
  strings_set_lang(LAB_LANG_EN);  // (the rows' words are the page's language)
  CHECK(model_token_text({7, "\a"}) == "'<07>'");
  CHECK(model_token_text({198, "\n"}) == "'<0a>'");
  CHECK(model_token_text({1, "a\r\nb"}) == "'a<0d 0a>b'");
  CHECK(model_token_text({2, "\xc2\x85"}) == "'<c2 85>'");  // NEL, a C1 control
  CHECK(model_token_text({3, "\x7f"}) == "'<7f>'");
  CHECK(model_token_text({4, "é 北京 <e5 85>"}) == "'é 北京 <e5 85>'");
  CHECK(model_token_text({464, ""}) == "id 464");
  model_reply r;
  r.top = {{{464, ""}, 0.25, 0.25}, {{5, "x"}, 0.125, 0.125}};
  const std::vector<view_row> rows = rules_next_rows(r, false);
  CHECK(view_row_line(rows[0]) == "id 464: P: 25.0 %");
  CHECK(view_row_line(rows[1]) == "'x': id 5, P: 12.5 %");

  // On the page: the synthetic model's units write toward '\a' and '\n'; each row stays one line.
  model_site site;
  headless_page page("#v=1&view=rules&lang=en");
  REQUIRE(model_answered(page));
  for (char c : page.mirror()) CHECK((c == '\n' || (unsigned char)c >= 0x20));
  CHECK(contains(page.mirror(), "'<07>'"));
  CHECK(contains(page.mirror(), "'<0a>'"));
  for (const item_record& rec : item_probe_all()) CHECK(rec.text.find('\n') == std::string::npos);
  page.open("#v=1&view=rules&off=18:65,23:75&lang=en");
  REQUIRE(model_answered(page));
  CHECK(contains(page.mirror(), "\nid 464: P: "));
  CHECK_FALSE(contains(page.mirror(), "id 464: id 464"));
}
