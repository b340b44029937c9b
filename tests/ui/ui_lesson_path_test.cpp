// A quiz's view button off a locked path and the way
// back to where the student left it; "Start the lesson" at step 0 with the keyboard's focus kept;
// the quiz's record in the mirror; the glossary's definition beside its term, never over it; the
// whole model's bar labelled, its thinnest block with its share.
#include "ui_harness.h"

#include "core/views/lab_text.h"
#include "core/lesson/model_budget.h"
#include "core/base/number_format.h"
#include "core/lesson/quiz.h"
#include "core/base/strings.h"
#include "imgui_internal.h"
#include "ui/focus.h"


static bool tab_to(headless_page& page, const std::string& name, int limit = 80) {
  for (int i = 0; i < limit; ++i) {
    page.press(KEY_TAB);
    if (focused_name() == name) return true;
  }
  return false;
}

static bool overlap(const item_rect& a, const item_rect& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

TEST_CASE("a locked path: a quiz's view button leads off it, and Previous / Next return to the quiz, in both languages") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    live_page lp;
    headless_page page(std::string("#v=1&view=hand&path=hand,silu,quiz&lock=1&quiz=open&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    page.click("path-next");
    page.click("path-next");
    REQUIRE(page.app.state.view == LAB_VIEW_QUIZ);
    page.click("quiz-answer");
    page.retype("30");
    page.press(KEY_ENTER);  // not computed yet: the quiz offers the gates view's button
    page.click("quiz-open-source");
    REQUIRE(page.app.state.view == LAB_VIEW_GATES);
    lp.settle(page);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), std::string(tr_in(l, STR_PATH_LESSON)) + tr_in(l, STR_MIRROR_COLON) +
                                      strf(tr_in(l, STR_PATH_RETURN), "3", "3")));
    scroll_through(page, "off the path");
    CHECK(shows(strf(tr_in(l, STR_PATH_RETURN), "3", "3")));
    CHECK(item_probe_get("path-prev"));
    page.click("path-next");  // before: the path's first view (hand)
    CHECK(page.app.state.view == LAB_VIEW_QUIZ);
    CHECK(page.url().state.path_at == 2);
    for (int i = 0; i < 6; i++) page.frame();  // the quiz's layout settles before the next click
    page.click("quiz-q-shuffle");  // computed by the per-token view, not shown yet
    CHECK(page.app.state.quiz == QUIZ_SHUFFLE);
    CHECK(page.app.state.view == LAB_VIEW_QUIZ);
    page.click("quiz-answer");
    page.retype("0");
    page.press(KEY_ENTER);
    CHECK(page.app.state.view == LAB_VIEW_QUIZ);
    page.click("quiz-open-source");
    REQUIRE(page.app.state.view == LAB_VIEW_PERM);
    page.click("path-prev");  // Previous returns there too (before, it was disabled)
    CHECK(page.app.state.view == LAB_VIEW_QUIZ);
  }
}

TEST_CASE("Start the lesson: step 0, nothing computed, and the keyboard's focus on the step's Next") {
  {  // (one page at a time: each has its own ImGui context)
  headless_page page("#v=1&view=hand&step=5&lang=en");
  REQUIRE(tab_to(page, "lesson-start"));
  page.press(KEY_ENTER);
  for (int i = 0; i < 4; i++) page.frame();
  CHECK(page.app.state.step == 0);
  CHECK(page.url().state.step == 0);
  CHECK(contains(page.mirror(), "Step 0 of 5"));
  CHECK_FALSE(contains(page.mirror(), "y = ["));  // the answer is not shown at the start
  CHECK(focused_name() == "next");  // kept at the place of the button that went, not lost
  page.press(KEY_ENTER);
  CHECK(page.app.state.step == 1);
  }
  // A click (no keyboard) leaves no mark to move.
  headless_page mouse("#v=1&view=hand&lang=en");
  mouse.click("lesson-start");
  for (int i = 0; i < 4; i++) mouse.frame();
  CHECK(mouse.app.state.step == 0);
  CHECK(focused_name().empty());
}

TEST_CASE("the quiz's score and which questions are done are in the mirror, in both languages") {
  platform_storage_set("swiglu-lab.quiz", "");
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    platform_storage_set("swiglu-lab.quiz", "");
    headless_page page(std::string("#v=1&view=quiz&quiz=odot&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    CHECK(contains(page.mirror(), strf(tr_in(l, STR_QUIZ_PROGRESS), "0", std::to_string(QUIZ_COUNT).c_str())));
    page.click("quiz-option-A");  // wrong or right: either way it is recorded
    page.click("quiz-option-B");
    page.click("quiz-option-C");
    page.frame();
    INFO(page.mirror());
    CHECK(contains(page.mirror(), strf(tr_in(l, STR_QUIZ_PROGRESS), "1", std::to_string(QUIZ_COUNT).c_str())));
    CHECK(contains(page.mirror(), std::string(tr_in(l, STR_QUIZ_STATUS_RIGHT)) + tr_in(l, STR_MIRROR_COLON) + "1\n"));
    page.click("quiz-q-write");
    page.click("quiz-option-A");
    page.frame();
    const std::string m = page.mirror();
    CHECK((contains(m, std::string(tr_in(l, STR_QUIZ_STATUS_RIGHT)) + tr_in(l, STR_MIRROR_COLON) + "1, 2\n") ||
           contains(m, std::string(tr_in(l, STR_QUIZ_STATUS_WRONG)) + tr_in(l, STR_MIRROR_COLON) + "2\n")));
  }
  platform_storage_set("swiglu-lab.quiz", "");
}

TEST_CASE("a glossary term's definition, shown by the keyboard's focus, covers neither the term nor the view buttons") {
  for (screen sc : SCREENS)
    for (const char* lang : {"en", "zh"}) {
      INFO(sc.w << " " << lang);
      headless_page page(std::string("#v=1&view=hand&lang=") + lang, sc.w, sc.h);
      ImGui::GetIO().MousePos = ImVec2(sc.w * 0.3f, 40);  // the pointer resting over the view buttons
      REQUIRE(tab_to(page, "gloss-swiglu"));
      page.frame();
      item_rect tip, term;
      REQUIRE(item_probe_find("glossary-tooltip", &tip));
      REQUIRE(item_probe_find("gloss-swiglu", &term));
      CHECK_FALSE(overlap(tip, term));
      for (const item_record& r : item_probe_all())
        if (r.name.rfind("view-", 0) == 0) {
          INFO(r.name);
          CHECK_FALSE(overlap(tip, r.rect));
        }
      CHECK(tip.x0 >= 0);
      CHECK(tip.x1 <= sc.w);
    }
}

TEST_CASE("the whole model's bar: each block labelled with its share, the norms' 0.0067 % too") {
  const model_budget b = model_budget_count(budget_shape_qwen35_08b());
  for (screen sc : SCREENS)
    for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
      INFO(sc.w << " " << l);
      headless_page page(std::string("#v=1&view=budget&lang=") + (l == LAB_LANG_EN ? "en" : "zh"), sc.w, sc.h);
      scroll_through(page, "budget");
      CHECK(shows_label(std::string(tr_in(l, STR_MODEL_NORMS)) + " 0.0067 %"));
      CHECK(shows_label(lab_model_percent(b.mlp)));
      CHECK(shows_label(lab_model_percent(b.embedding)));
      CHECK_FALSE(shows(" 0.0 %"));  // ("100.0 %" is the total)
      check_mirror_has_every_number(page.mirror(), "budget");
    }
}
