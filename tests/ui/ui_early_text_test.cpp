// The early text (issue 16, src/early/): for any link, what the page shows before the main wasm
// arrives is what the app's text mirror says once it runs: the same string for the views without
// weights, and the mirror's opening line(s) for the live views (their rows need the weights).
// Random links from a seed (Catch's --rng-seed; ctest passes a fresh one, printed on failure).
#include <cmath>
#include <random>

#include "core/quiz.h"
#include "core/view_table.h"
#include "early/early_text.h"
#include "ui_harness.h"

namespace {

// A random link: a random state written by the core's encoder, then sometimes a key spoiled
// (the mirror and the early text must agree on what a bad value falls back to).
std::string random_link(std::mt19937& rng) {
  std::uniform_real_distribution<double> value(-LAB_VALUE_LIMIT, LAB_VALUE_LIMIT), unit(0, 1);
  lab_state s = lab_state_default();
  s.view = lab_view(rng() % LAB_VIEW_COUNT);
  s.lang = lab_lang(rng() % LAB_LANG_COUNT);
  for (double& v : s.x) v = rng() % 2 ? std::round(value(rng)) : value(rng);
  for (double& v : s.w.up) v = value(rng);
  for (double& v : s.w.gate) v = std::round(value(rng));
  for (double& v : s.w.down) v = value(rng) / 1e3;
  s.step = int(rng() % HAND_STEP_COUNT);
  s.probe_z = LAB_PROBE_MIN + unit(rng) * (LAB_PROBE_MAX - LAB_PROBE_MIN);
  s.show_sigmoid = rng() % 2, s.show_gelu = rng() % 2;
  s.hidden = LAB_HIDDEN_MIN + rng() % 8192;
  s.intermediate = LAB_INTERMEDIATE_MIN + rng() % 32768;
  s.layers = LAB_LAYERS_MIN + rng() % 100;
  s.quiz = int(rng() % QUIZ_COUNT);
  s.threshold = unit(rng);
  std::string link = "#" + url_encode(s);
  static const char* const spoilers[] = {"&x=1,oops", "&z=1e309", "&h=0", "&view=nowhere", "&step=9", "&ov=sigmoid,gelu"};
  if (rng() % 3 == 0) link += spoilers[rng() % (sizeof spoilers / sizeof spoilers[0])];
  return link;
}

}  // namespace

TEST_CASE("early text: the view's text for a random link is the mirror the app writes for it", "[early]") {
  std::mt19937 rng(Catch::rngSeed());
  int live = 0, without = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::string link = random_link(rng);
    INFO("link " << link << " (seed " << Catch::rngSeed() << ")");
    const std::string early = early_text_for_link(link.c_str());
    headless_page page(link);
    REQUIRE(!early.empty());
    if (lab_view_get(page.app.state.view).live()) {
      live++;
      CHECK(page.mirror().compare(0, early.size(), early) == 0);  // the title; the weights' rows follow
    } else {
      without++;
      CHECK(page.mirror() == early);
    }
  }
  CHECK(live > 0);
  CHECK(without > 0);
}

TEST_CASE("early text: known links, in both languages", "[early]") {
  const std::string hand = early_text_for_link("#v=1&view=hand&x=1,2&step=5");
  CHECK(contains(hand, "y = [1.924234, -1.761594]"));
  CHECK(contains(early_text_for_link("v=1&view=silu&z=-1&lang=zh"), "SiLU(z) = -0.268941"));
  CHECK(contains(early_text_for_link("#v=1&view=silu&lang=zh"), "SiLU 与 ReLU"));
  CHECK(contains(early_text_for_link("#v=1&view=budget&h=1024&f=3584&layers=24"), "11,010,048"));
  CHECK(early_text_for_link("") == hand);  // no link: the lesson's default, the hand calculation
}
