// The lesson around the views, headless: the quiz and glossary views and the budget
// view's whole model are reachable on a phone and a laptop in both languages and their numbers are
// in the mirror; quiz answers right and wrong (choices, typed numbers, live answers computed from a
// streamed pack); progress in storage and its reset; common questions fold open into the mirror;
// a lesson path with lock=1 and ui=present.
#include "ui_harness.h"

#include <cstdio>
#include <string>

#include "core/lesson/faq.h"
#include "core/lesson/glossary.h"
#include "core/views/live_view.h"
#include "core/lesson/quiz.h"
#include "core/base/strings.h"
#include "imgui_internal.h"
#include "platform/platform.h"
#include "ui/quiz_panel.h"
#include "ui/widgets.h"

namespace {
const char* const STORAGE_QUIZ = "swiglu-lab.quiz";

// Clicks the quiz's answer field, replaces its text and presses Enter.
void answer(headless_page& page, const char* text) {
  page.click("quiz-answer");
  page.type(text, QUIZ_TYPED_MAX);
}
}  // namespace

// [SECTION] the new views, reachable and mirrored

TEST_CASE("lesson views: quiz, glossary and the whole model reachable on a phone and a laptop, in both languages") {
  for (screen sc : SCREENS)
    for (const char* lang : {"en", "zh"}) {
      const lab_lang l = std::string(lang) == "en" ? LAB_LANG_EN : LAB_LANG_ZH;
      const std::string suffix = std::string("&lang=") + lang;
      const std::string at = suffix + " at " + std::to_string(int(sc.w));
      {
        headless_page page("#v=1&view=glossary" + suffix, sc.w, sc.h);
        scroll_through(page, "glossary" + at);
        for (const glossary_term& t : GLOSSARY) {
          CHECK(shows(tr_in(l, t.term)));
          CHECK(shows(tr_in(l, t.definition)));
          CHECK(contains(page.mirror(), tr_in(l, t.definition)));
        }
      }
      for (int q = 0; q < QUIZ_COUNT; ++q) {
        headless_page page(std::string("#v=1&view=quiz&quiz=") + QUIZ_NAMES[q] + suffix, sc.w, sc.h);
        const std::string what = std::string("quiz ") + QUIZ_NAMES[q] + at;
        scroll_through(page, what);
        INFO(what);
        for (int i = 0; i < QUIZ_COUNT; ++i) CHECK(has_widget(std::string("quiz-q-") + QUIZ_NAMES[i]));
        CHECK(has_widget("quiz-reset"));
        CHECK(has_widget("quiz-next"));
        if (QUIZ[q].kind == QUIZ_KIND_CHOICE)
          for (int o = 0; o < QUIZ[q].option_count; ++o) {
            CHECK(has_widget(std::string("quiz-option-") + char('A' + o)));
            CHECK(shows(tr_in(l, QUIZ[q].options[o])));
          }
        else CHECK(has_widget("quiz-check"));
      }
      headless_page budget("#v=1&view=budget" + suffix, sc.w, sc.h);
      budget.click("faq-widen");
      INFO("budget" << at);
      CHECK((budget.app.faq_open & (1u << FAQ_WIDEN)) != 0);
      scroll_through(budget, "budget" + at);
      for (const char* v : {"254,279,680", "264,241,152", "233,822,016", "752,393,024", "35.1 %", "22.02 MB", "528.48 MB",
                            "11.04 MB"})
        CHECK(shows(v));
      CHECK(has_widget("model-bar"));
      CHECK(shows(tr_in(l, STR_FAQ_WIDEN_A)));
      check_mirror_has_every_number(budget.mirror(), "budget" + at, 10);
    }
}

TEST_CASE("lesson views: every number an answered question prints is in the mirror, in both languages") {
  for (const char* lang : {"en", "zh"}) {
    headless_page page(std::string("#v=1&view=quiz&quiz=largest&lang=") + lang);
    page.click("quiz-option-B");
    scroll_through(page, std::string("largest ") + lang);
    CHECK(shows("752,393,024"));
    check_mirror_has_every_number(page.mirror(), std::string("largest ") + lang, 3);
    page.open(std::string("#v=1&view=quiz&quiz=int8&lang=") + lang);
    answer(page, "11");
    scroll_through(page, std::string("int8 ") + lang);
    CHECK(shows("11,042,816"));
    check_mirror_has_every_number(page.mirror(), std::string("int8 ") + lang, 3);
  }
}

// [SECTION] answers, right and wrong

TEST_CASE("quiz: a choice right and wrong, with the explanation either way, in both languages") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    headless_page page(std::string("#v=1&view=quiz&quiz=odot&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_ODOT_Q)));
    CHECK_FALSE(contains(page.mirror(), tr_in(l, STR_QUIZ_ODOT_WHY)));
    page.click("quiz-option-A");  // a matrix product: wrong
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_WRONG)));
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_ODOT_WHY)));
    CHECK(platform_storage_get(STORAGE_QUIZ) == "odot=w");
    page.click("quiz-option-B");  // entry by entry: right
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_RIGHT)));
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_ODOT_WHY)));
    CHECK(platform_storage_get(STORAGE_QUIZ) == "odot=r");
    page.click("quiz-option-C");  // a later slip does not undo what was shown
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_WRONG)));
    CHECK(platform_storage_get(STORAGE_QUIZ) == "odot=r");
    // The link holds which question, never the answer.
    CHECK(contains(platform_url_fragment(), "quiz=odot"));
    CHECK_FALSE(contains(platform_url_fragment(), "odot=r"));
    page.click("quiz-next");
    CHECK(page.url().state.quiz == QUIZ_WRITE_SIZE);
    page.click("quiz-q-layer");
    CHECK(page.app.state.quiz == QUIZ_WHOLE_LAYER);
    page.click("quiz-option-B");
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_LAYER_WHY)));
  }
}

TEST_CASE("quiz: bytes per token typed, checked with a tolerance; unreadable text says how to write it") {
  {
  headless_page page("#v=1&view=quiz&quiz=bf16");
  answer(page, "44");
  CHECK(contains(page.mirror(), "Not this one."));
  CHECK(contains(page.mirror(), "22.02 MB"));
  answer(page, "22");
  CHECK(contains(page.mirror(), "Right."));
  CHECK(contains(page.mirror(), "22,020,096 bytes"));
  answer(page, "lots");
  CHECK(contains(page.mirror(), "Type a number"));
  page.click("quiz-next");
  answer(page, "528");
  CHECK(contains(page.mirror(), "Right."));
  CHECK(contains(page.mirror(), "528.48 MB"));
  CHECK(quiz_progress_decode(platform_storage_get(STORAGE_QUIZ)).verdict[QUIZ_BF16_ALL] == QUIZ_RIGHT);
  }  // one ImGui context at a time
  // Progress survives a reload (this browser's storage) and the reset clears it.
  headless_page again("#v=1&view=quiz&quiz=bf16all&lang=zh", 1280, 800, true);
  CHECK(quiz_progress_right(((const quiz_panel*)again.app.panels[LAB_VIEW_QUIZ])->progress) == 2);
  again.click("quiz-reset");
  CHECK(quiz_progress_right(((const quiz_panel*)again.app.panels[LAB_VIEW_QUIZ])->progress) == 0);
  CHECK(platform_storage_get(STORAGE_QUIZ).empty());
}

TEST_CASE("quiz: the live questions are checked against values computed from the streamed pack") {
  live_page lp;
  headless_page page("#v=1&view=quiz&quiz=open&lang=en");
  answer(page, "30");
  CHECK(contains(page.mirror(), "open the Gate histograms view"));
  page.click("quiz-open-source");
  CHECK(page.app.state.view == LAB_VIEW_GATES);
  lp.settle(page);
  const std::string gates = page.mirror();
  page.open("#v=1&view=quiz&quiz=open&lang=en");
  const quiz_live_answers live = quiz_live_from(page.app.state, &page.app.live);
  REQUIRE(live.open_ready);
  CHECK(live.open_layer == 0);
  // The same share the gate histograms print for that layer (two decimals).
  char two[32];
  std::snprintf(two, sizeof two, "%.2f %%", live.open_percent);
  CHECK(contains(gates, two));
  char typed[32];
  std::snprintf(typed, sizeof typed, "%.1f", live.open_percent + 0.8);
  answer(page, typed);
  CHECK(contains(page.mirror(), "Right."));
  std::snprintf(typed, sizeof typed, "%.1f", live.open_percent + 1.6);
  answer(page, typed);
  CHECK(contains(page.mirror(), "Not this one."));

  page.open("#v=1&view=perm&lang=zh&tok=3");
  lp.settle(page);
  page.open("#v=1&view=quiz&quiz=shuffle&lang=zh&tok=3");
  answer(page, "0");
  CHECK(contains(page.mirror(), tr_in(LAB_LANG_ZH, STR_QUIZ_RIGHT)));
  answer(page, "0.001");
  CHECK(contains(page.mirror(), tr_in(LAB_LANG_ZH, STR_QUIZ_WRONG)));
  page.click("quiz-next");
  CHECK(page.app.state.quiz == QUIZ_CHANGE);
  answer(page, "3");
  CHECK(contains(page.mirror(), tr_in(LAB_LANG_ZH, STR_QUIZ_RIGHT)));
  answer(page, "2, 3");
  CHECK(contains(page.mirror(), tr_in(LAB_LANG_ZH, STR_QUIZ_WRONG)));
}

// The mirror asked the quiz's prompt with no live answers, so with layer=2 in the link
// it named layer 2 while the page named layer 0, the first histogram with its counts.
TEST_CASE("quiz: a live question names the same layer on the page and in the mirror, every number alike") {
  live_page lp;
  for (const char* lang : {"en", "zh"}) {
    headless_page page(std::string("#v=1&view=gates&layer=2&lang=") + lang);
    lp.settle(page);
    page.open(std::string("#v=1&view=quiz&quiz=open&layer=2&lang=") + lang);
    const quiz_live_answers live = quiz_live_from(page.app.state, &page.app.live);
    REQUIRE(live.open_ready);
    CHECK(live.open_layer == 0);  // the gates show 0, 2 and 4: 0 is the first with its counts
    const lab_lang l = std::string(lang) == "en" ? LAB_LANG_EN : LAB_LANG_ZH;
    const std::string prompt = strf(tr_in(l, STR_QUIZ_OPEN_Q), "0", "0.1");
    scroll_through(page, std::string("quiz open after the gates ") + lang);
    CHECK(shows(prompt));
    CHECK(contains(page.mirror(), prompt));
    check_mirror_has_every_number(page.mirror(), std::string("quiz open ") + lang, 4);
    answer(page, "30");  // the explanation's share too
    scroll_through(page, std::string("quiz open answered ") + lang);
    check_mirror_has_every_number(page.mirror(), std::string("quiz open answered ") + lang, 5);
  }
}

// [SECTION] common questions, lesson paths, the projector layout

TEST_CASE("common questions: folded under their views, open into the mirror, fold again") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    const std::string lang = l == LAB_LANG_EN ? "&lang=en" : "&lang=zh";
    headless_page page("#v=1&view=silu" + lang, 390, 844);
    for (const faq_entry& f : FAQ) CHECK(contains(page.mirror(), tr_in(l, f.answer)) == false);
    scroll_through(page, "silu faq");
    CHECK(has_widget("faq-gate-vs-output-gate"));
    CHECK(shows(tr_in(l, STR_FAQ_GATE_Q)));
    CHECK_FALSE(shows(tr_in(l, STR_FAQ_GATE_A)));
    page.click("faq-gate-vs-output-gate");
    CHECK(contains(page.mirror(), tr_in(l, STR_FAQ_GATE_A)));
    scroll_through(page, "silu faq open");
    CHECK(shows(tr_in(l, STR_FAQ_GATE_A)));
    page.click("faq-gate-vs-output-gate");
    CHECK_FALSE(contains(page.mirror(), tr_in(l, STR_FAQ_GATE_A)));
  }
  headless_page page("#v=1&view=hand");
  CHECK_FALSE(item_probe_get("faq-widen"));  // only under its own view
}

TEST_CASE("lesson path: Previous / Next with 'n of m', lock=1 hides the view buttons until 'Explore freely'") {
  headless_page page("#v=1&view=silu&path=hand,silu,budget,quiz,glossary&lock=1&lang=en", 390, 844);
  scroll_through(page, "locked path");
  CHECK(shows("2 of 5"));
  CHECK(has_widget("path-prev"));
  CHECK(has_widget("path-next"));
  CHECK(has_widget("path-explore"));
  CHECK_FALSE(item_probe_get("view-hand"));  // no view buttons while locked
  const lab_view walk[] = {LAB_VIEW_BUDGET, LAB_VIEW_QUIZ, LAB_VIEW_GLOSSARY};
  for (lab_view v : walk) {
    page.click("path-next");
    CHECK(page.app.state.view == v);
    CHECK(page.url().state.view == v);
  }
  scroll_through(page, "last step");
  CHECK(shows("5 of 5"));
  page.click("path-next");  // disabled at the end
  CHECK(page.app.state.view == LAB_VIEW_GLOSSARY);
  for (int i = 0; i < 4; ++i) page.click("path-prev");
  CHECK(page.app.state.view == LAB_VIEW_HAND);
  page.click("path-explore");
  CHECK(page.app.state.lock == 0);
  CHECK(page.url().state.lock == 0);
  CHECK(page.url().state.view == LAB_VIEW_HAND);   // the same view, in place
  CHECK(item_probe_get("view-silu"));               // the view buttons are back
  CHECK(page.app.state.path.size() == 5);           // the path stays
  page.click("view-weights");
  scroll_through(page, "off path");
  CHECK(shows("This view is not on the lesson path: Previous view and Next view return to 1 of 5."));
}

TEST_CASE("ui=present draws larger type; the same link without it is the normal layout") {
  item_rect normal, present;
  {
    headless_page page("#v=1&view=hand&path=hand,quiz");
    REQUIRE(item_probe_find("path-next", &normal));
  }
  {
    headless_page page("#v=1&view=hand&path=hand,quiz&ui=present");
    REQUIRE(item_probe_find("path-next", &present));
    CHECK(page.url().state.ui == LAB_UI_PRESENT);
  }
  CHECK((present.y1 - present.y0) > 1.2f * (normal.y1 - normal.y0));  // type x1.4, paddings as they were
  CHECK((present.x1 - present.x0) > 1.2f * (normal.x1 - normal.x0));
}

// [SECTION] glossary terms marked in the views' prose

namespace {
// A text the page printed this frame (a popup's or tooltip's definition), on screen.
bool printed(const std::string& text) {
  for (const item_record& r : item_probe_all())
    if (r.text == text) return r.reachable;
  return false;
}

// A tap on the page's background: no control, no term under it.
void tap_background(headless_page& page) { page.click_at(2, ImGui::GetIO().DisplaySize.y * 0.5f); }
}  // namespace

TEST_CASE("glossary in prose: a marked term opens its definition by tap, in a popup on screen, and the mirror carries it") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (screen sc : SCREENS) {
      INFO((l == LAB_LANG_EN ? "en" : "zh") << " at " << sc.w);
      headless_page page(std::string("#v=1&view=hand&lang=") + (l == LAB_LANG_EN ? "en" : "zh"), sc.w, sc.h);
      strings_set_lang(l);
      const std::string opened = glossary_mirror_text(GLOSSARY_SWIGLU);
      const std::string def = tr_in(l, STR_DEF_SWIGLU);
      REQUIRE(item_probe_get("gloss-swiglu"));  // the intro's "SwiGLU" is marked
      CHECK(item_probe_get("gloss-swiglu")->reachable);
      CHECK(item_probe_get("gloss-silu"));      // and its "silu(" too
      CHECK_FALSE(contains(page.mirror(), opened));
      CHECK_FALSE(item_probe_get("glossary-popup"));
      page.click("gloss-swiglu");
      page.frame();
      CHECK(page.app.state.view == LAB_VIEW_HAND);  // nothing else happened
      CHECK(contains(page.mirror(), opened));
      item_rect popup;
      REQUIRE(item_probe_find("glossary-popup", &popup));
      CHECK(popup.x0 >= 0);
      CHECK(popup.x1 <= sc.w);  // on a phone too: wrapped to the screen
      CHECK(popup.y1 <= sc.h);
      CHECK(printed(def));
      // A tap on the same term closes it; another term opens its own.
      page.click("gloss-swiglu");
      CHECK_FALSE(contains(page.mirror(), opened));
      CHECK_FALSE(item_probe_get("glossary-popup"));
      page.click("gloss-silu");
      CHECK(contains(page.mirror(), glossary_mirror_text(GLOSSARY_SILU)));
      // A tap elsewhere closes it.
      tap_background(page);
      CHECK_FALSE(contains(page.mirror(), glossary_mirror_text(GLOSSARY_SILU)));
      CHECK_FALSE(item_probe_get("glossary-popup"));
      // A term opened on one view does not follow the student to another.
      page.click("gloss-swiglu");
      CHECK(contains(page.mirror(), opened));
      page.app.state.view = LAB_VIEW_SILU;
      page.settle();
      CHECK_FALSE(contains(page.mirror(), opened));
      strings_set_lang(LAB_LANG_EN);
    }
}

TEST_CASE("glossary in prose: hover shows the definition without opening it; Tab focuses a term and Enter opens it") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    headless_page page(std::string("#v=1&view=budget&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    strings_set_lang(l);
    item_rect r;
    REQUIRE(item_probe_find("gloss-swiglu", &r));
    ImGui::GetIO().MousePos = ImVec2((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
    page.frame();
    page.frame();
    CHECK(printed(tr_in(l, STR_DEF_SWIGLU)));  // the tooltip
    CHECK_FALSE(contains(page.mirror(), glossary_mirror_text(GLOSSARY_SWIGLU)));  // hovering is not opening
    ImGui::GetIO().MousePos = ImVec2(-100, -100);
    page.frame();
    page.frame();
    CHECK_FALSE(printed(tr_in(l, STR_DEF_SWIGLU)));
    REQUIRE(page.tab_to("gloss-swiglu"));
    page.frame();
    CHECK(printed(tr_in(l, STR_DEF_SWIGLU)));  // the focused term shows its definition as hover does
    page.press(KEY_ENTER);
    page.frame();
    CHECK(contains(page.mirror(), glossary_mirror_text(GLOSSARY_SWIGLU)));
    CHECK(item_probe_get("glossary-popup"));
    page.press(KEY_ENTER);  // Enter again closes it
    page.frame();
    CHECK_FALSE(contains(page.mirror(), glossary_mirror_text(GLOSSARY_SWIGLU)));
    strings_set_lang(LAB_LANG_EN);
  }
}

TEST_CASE("glossary in prose: common questions' answers mark their terms, in both languages") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    headless_page page(std::string("#v=1&view=budget&lang=") + (l == LAB_LANG_EN ? "en" : "zh"), 390, 844);
    CHECK_FALSE(item_probe_get("gloss-residual-stream"));  // folded: not drawn
    page.click("faq-widen");
    scroll_through(page, "budget faq open");
    CHECK(has_widget("gloss-residual-stream"));
    CHECK(has_widget("gloss-intermediate-unit"));
    CHECK(shows(tr_in(l, STR_FAQ_WIDEN_A)));  // recorded whole, as written
  }
}

TEST_CASE("glossary in prose: marked lines keep the line rules and never split a term") {
  headless_page page("#v=1&view=hand&lang=zh", 390, 844);
  ImGui::NewFrame();
  const str_id prose[] = {STR_HAND_INTRO, STR_HAND_GATE_NOTE, STR_SILU_INTRO, STR_BUDGET_INTRO, STR_GATES_INTRO,
                          STR_PERM_INTRO, STR_PERM_WHY, STR_WEIGHTS_INTRO, STR_FAQ_GATE_A, STR_FAQ_WIDEN_A, STR_FAQ_MOE_A,
                          STR_QUIZ_WRITE_WHY, STR_QUIZ_ODOT_WHY};
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; };
  int marked = 0;
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (str_id id : prose) {
      const std::string t = tr_in(l, id);
      std::vector<widget_line> terms;
      for (const glossary_run& r : glossary_runs(t, l))
        if (r.term >= 0) terms.push_back(widget_line{r.begin, r.end});
      marked += int(terms.size());
      for (float width = 120; width <= 420; width += 13) {
        INFO("\"" << t << "\" at " << width);
        // Unmarked, the ranges are the wrapped text exactly.
        std::string joined;
        for (const widget_line& line : widget_line_ranges(t, width)) joined += t.substr(line.begin, line.end - line.begin) + "\n";
        CHECK(joined == widget_break_lines(t, width) + "\n");
        const std::vector<widget_line> lines = widget_line_ranges(t, width, &terms);
        for (size_t i = 0; i < lines.size(); ++i) {
          const std::string line = t.substr(lines[i].begin, lines[i].end - lines[i].begin);
          CHECK(ImGui::CalcTextSize(line.c_str()).x <= width);
          if (i == 0) continue;
          for (const char* closing : {"，", "。", "、", "：", "；", "）", ",", ".", ")"}) CHECK(line.rfind(closing, 0) != 0);
          // Not inside a Latin word or a number.
          const size_t end = lines[i - 1].end, begin = lines[i].begin;
          if (end == begin) CHECK_FALSE((is_word(t[end - 1]) && is_word(t[begin])));
          // No term cut in two (unless it alone is wider than a line).
          for (const widget_line& term : terms)
            if (ImGui::CalcTextSize(t.c_str() + term.begin, t.c_str() + term.end).x <= width)
              CHECK_FALSE((term.begin < begin && begin < term.end));
        }
      }
    }
  CHECK(marked >= 20);
  ImGui::EndFrame();
}

// [SECTION] the lesson's start, and the projector's layout

TEST_CASE("start the lesson: the first view opens the lessons' reading order as a path, in both languages") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (screen sc : SCREENS) {
      INFO(l << " at " << sc.w);
      headless_page page(std::string("#v=1&view=hand&lang=") + (l == LAB_LANG_EN ? "en" : "zh"), sc.w, sc.h);
      scroll_through(page, "hand before the lesson");
      CHECK(has_widget("lesson-start"));
      CHECK(shows(tr_in(l, STR_LESSON_START)) == false);  // a button's label, not a printed text
      CHECK(shows(tr_in(l, STR_LESSON_START_NOTE)));
      CHECK_FALSE(item_probe_get("path-next"));
      page.click("lesson-start");
      const url_decoded u = page.url();
      // hand,silu,budget,flow,gates,perm,weights,rules,quiz: lecture 002, lesson 001 (its exercise on
      // the flow), chapter 4, lesson 003's rule book, the questions
      CHECK(u.state.path == std::vector<int64_t>{LAB_VIEW_HAND, LAB_VIEW_SILU, LAB_VIEW_BUDGET, LAB_VIEW_FLOW, LAB_VIEW_GATES,
                                                 LAB_VIEW_PERM, LAB_VIEW_WEIGHTS, LAB_VIEW_RULES, LAB_VIEW_QUIZ});
      CHECK(contains(platform_url_fragment(), "path=hand,silu,budget,flow,gates,perm,weights,rules,quiz"));
      CHECK(u.state.view == LAB_VIEW_HAND);
      CHECK_FALSE(item_probe_get("lesson-start"));  // the lesson bar has taken over
      scroll_through(page, "hand on the lesson path");
      CHECK(shows(strf(tr_in(l, STR_PATH_STEP), "1", "9")));
      page.click("path-next");
      CHECK(page.app.state.view == LAB_VIEW_SILU);
      CHECK(page.url().state.view == LAB_VIEW_SILU);
    }
  // Only on the first view.
  headless_page page("#v=1&view=silu");
  CHECK_FALSE(item_probe_get("lesson-start"));
}

namespace {
// The width of the SiLU curve where it starts (z = -6, nearly flat): the vertical spread of its
// opaque-coloured vertices at the left end of the polyline (the line's width and ImGui's
// anti-aliasing fringe).
float silu_curve_core_width() {
  ImDrawData* dd = ImGui::GetDrawData();
  REQUIRE(dd);
  item_rect plot;  // the curve's vertices, not the legend's swatch below the plot
  REQUIRE(item_probe_find("plot", &plot));
  auto in_plot = [&](const ImDrawVert& v) { return v.pos.x > plot.x0 && v.pos.x < plot.x1 && v.pos.y > plot.y0 && v.pos.y < plot.y1; };
  float left = 1e9f;
  for (int i = 0; i < dd->CmdListsCount; ++i)
    for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer)
      if (v.col == COLOR_SILU && in_plot(v)) left = std::min(left, v.pos.x);
  float lo = 1e9f, hi = -1e9f;
  for (int i = 0; i < dd->CmdListsCount; ++i)
    for (const ImDrawVert& v : dd->CmdLists[i]->VtxBuffer)
      if (v.col == COLOR_SILU && in_plot(v) && v.pos.x < left + 0.5f) lo = std::min(lo, v.pos.y), hi = std::max(hi, v.pos.y);
  return hi - lo;
}
}  // namespace

TEST_CASE("ui=present on a projector: no view buttons or link to copy on a path, no key hints or field frames, thicker lines, the formula big") {
  const std::string link = "#v=1&view=hand&path=hand,silu,quiz&lock=1&step=5&lang=en";
  item_rect normal_formula, present_formula;
  float normal_line, present_line;
  {
    headless_page page(link + "&ui=normal");
    scroll_through(page, "normal");
    CHECK(has_widget("copy-link"));
    CHECK(shows(tr(STR_HAND_KEYS_HINT)));
    REQUIRE(item_probe_find("formula-1", &normal_formula));
    page.open("#v=1&view=hand&path=hand,silu,quiz");
    CHECK(item_probe_get("view-silu"));  // a path alone keeps the view buttons
    page.open("#v=1&view=silu&lang=en");
    normal_line = silu_curve_core_width();
  }
  {
    headless_page page(link + "&ui=present");
    CHECK(page.url().state.ui == LAB_UI_PRESENT);
    CHECK(lab_app_presenting(&page.app));
    scroll_through(page, "present");
    CHECK_FALSE(has_widget("copy-link"));
    CHECK_FALSE(has_widget("view-silu"));
    CHECK(has_widget("path-next"));
    CHECK(has_widget("path-explore"));
    CHECK(has_widget("x1"));  // the numbers stay, without the keyboard hint
    CHECK_FALSE(shows(tr(STR_HAND_KEYS_HINT)));
    CHECK(shows("1.924234"));
    REQUIRE(item_probe_find("formula-1", &present_formula));
    page.click("path-explore");  // the view buttons back, on the projector too
    CHECK(item_probe_get("view-silu"));
    CHECK(page.url().state.lock == 0);
    page.open("#v=1&view=hand&path=hand,silu,quiz&ui=present");  // unlocked, on a path: the bar leads
    CHECK_FALSE(item_probe_get("view-silu"));
    CHECK(item_probe_get("path-explore"));
    page.open("#v=1&view=silu&lang=en&ui=present");
    CHECK(item_probe_get("view-hand"));  // no path: the view buttons are how the teacher moves
    present_line = silu_curve_core_width();
  }
  // The formula: type x1.4, and the formula box x1.5 on top.
  CHECK((present_formula.y1 - present_formula.y0) > 1.9f * (normal_formula.y1 - normal_formula.y0));
  // The SiLU curve is 3 px wide, 6 px on a projector (its vertices span the width plus the
  // anti-aliasing fringe on either side, the same in both).
  CHECK(normal_line >= 3.0f);
  CHECK(present_line - normal_line == Approx(3.0).margin(0.5));
}

TEST_CASE("ui=present on a phone: the class's one link keeps the normal layout there") {
  const std::string link = "#v=1&view=hand&path=hand,silu,quiz&lock=1&step=5&lang=zh";
  std::vector<item_record> normal, present;
  for (const char* ui : {"&ui=normal", "&ui=present"}) {
    headless_page page(link + ui, 390, 844);
    CHECK_FALSE(lab_app_presenting(&page.app));
    CHECK(page.url().state.ui == (std::string(ui) == "&ui=present" ? LAB_UI_PRESENT : LAB_UI_NORMAL));  // kept in the link
    scroll_through(page, ui);
    CHECK(shows(tr_in(LAB_LANG_ZH, STR_HAND_KEYS_HINT)));
    CHECK(has_widget("path-next"));
    (std::string(ui) == "&ui=present" ? present : normal) = seen_records();
  }
  REQUIRE(normal.size() == present.size());
  for (size_t i = 0; i < normal.size(); ++i) {
    INFO(normal[i].name << normal[i].text);
    CHECK(normal[i].name == present[i].name);
    CHECK(normal[i].rect.y1 - normal[i].rect.y0 == Approx(present[i].rect.y1 - present[i].rect.y0));
    CHECK(normal[i].rect.x1 - normal[i].rect.x0 == Approx(present[i].rect.x1 - present[i].rect.x0));
  }
}
