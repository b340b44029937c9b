// The whole-model views' controls and words headless, as a teacher uses them: the keyboard focus
// kept on Switch off / on, a picked unit that is switched off, a phone's long labels, and tokens
// that are control characters or have no text. A projector: ui_model_present_test.cpp.
#include "ui_model_site.h"

#include "core/model_view.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "imgui_internal.h"  // the keyboard focus's ImGui id

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
      CHECK(r.picked_per_token[t] == 0);  // the run as asked: the model read 0
      const std::string line = std::string("silu(gate) × up") + colon + fmt6(product) + sep + tr_in(l, STR_RULES_IN_MODEL) + colon + "0";
      CHECK(contains(page.mirror(), line));
    }
    CHECK_FALSE(contains(page.mirror(), std::string("silu(gate) × up") + colon + "0.000000"));
    CHECK(contains(page.mirror(), tr_in(l, STR_RULES_PICKED_OFF)));
    scroll_through(page, "picked off");
    CHECK(shows(tr_in(l, STR_RULES_PICKED_OFF)));
    check_mirror_has_every_number(page.mirror(), "picked off", 20);
    // Where it fires: the colours of what it computes (as the same unit on, where the model reads it).
    CHECK(rules_picked_values(r, page.app.state) == std::vector<float>{r.picked_gate[0] * r.picked_up[0], r.picked_gate[1] * r.picked_up[1],
                                                                      r.picked_gate[2] * r.picked_up[2], r.picked_gate[3] * r.picked_up[3]});
    page.open(std::string("#v=1&view=rules&ids=1,2,3,4&layer=23&unit=75&lang=") + lang_name(l));  // on: the model's own values
    REQUIRE(model_answered(page));
    CHECK(rules_picked_values(page.app.live.model.reply, page.app.state) == page.app.live.model.reply.picked_per_token);
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
