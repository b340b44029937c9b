// The early text: for any link, what the page shows before the main wasm
// arrives is what the app's text mirror says once it runs: the same string for the views without
// weights, and the mirror's opening line(s) for the live views (their rows need the weights).
// Random links from the run's seed (tests/catch_main.cpp: fresh each run, printed; replayable).
#include <cmath>
#include <random>

#include "core/base/number_format.h"
#include "core/pack/pack_format.h"
#include "core/pack/pack_stats.h"
#include "core/lesson/quiz.h"
#include "core/base/strings.h"
#include "core/views/view_table.h"
#include "early/early_text.h"
#include "platform/native/fetch_native.h"
#include "ui/quiz_panel.h"
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
  if (rng() % 3 == 0) {  // a lesson path, the view on it or off it, at a place or the view's first
    for (int i = 0, n = 1 + int(rng() % 4); i < n; ++i) s.path.push_back(int64_t(rng() % LAB_VIEW_COUNT));
    s.path_at = int(rng() % (s.path.size() + 1)) - 1;
  }
  std::string link = "#" + url_encode(s);
  static const char* const spoilers[] = {"&x=1,oops", "&z=1e309", "&h=0", "&view=nowhere", "&step=9", "&ov=sigmoid,gelu"};
  if (rng() % 3 == 0) link += spoilers[rng() % (sizeof spoilers / sizeof spoilers[0])];
  return link;
}

// A random gates link: the lessons' threshold half the time (the manifest's counts answer it),
// sometimes one token, sometimes a `pl` list with layers the pack has, has not, or twice.
std::string random_gates_link(std::mt19937& rng) {
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_GATES;
  s.lang = lab_lang(rng() % LAB_LANG_COUNT);
  s.threshold = rng() % 2 ? PACK_THRESHOLD : double(rng() % 1001) / 1000;
  if (rng() % 4 == 0) s.hist_token = rng() % 8;
  if (rng() % 2)
    for (int n = 1 + rng() % 4; n > 0; n--) s.pack_layers.push_back(rng() % 6);  // the test pack has 0, 2, 4
  return "#" + url_encode(s);
}

int count_of(const std::string& s, const std::string& part) {
  int n = 0;
  for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) n++;
  return n;
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
      without++;  // the quiz's too: the early module is handed this browser's record (early_set_quiz_record)
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

TEST_CASE("early text: a gates link with the default pack's manifest has the rows and shares the app's mirror prints", "[early]") {
  std::mt19937 rng(Catch::rngSeed());
  int with_rows = 0, title_only = 0;
  live_page lp;  // its pack is served as packs/default/
  const std::string manifest = lp.pack.files[PACK_MANIFEST_FILE];
  for (int trial = 0; trial < 30; ++trial) {
    native_fetch* net = platform_native_fetch();  // a fresh network for each page, as live_page sets it
    *net = native_fetch();
    net->files = &lp.pack;
    net->base = "packs/default/";
    const std::string link = random_gates_link(rng);
    INFO("link " << link << " (seed " << Catch::rngSeed() << ")");
    const std::string early = early_text_with_manifest(link.c_str(), manifest.data(), manifest.size());
    const std::string svg = early_svg();
    headless_page page(link);
    page.frame();  // the manifest is asked for
    platform_native_fetch()->deliver(page.now);
    page.frame();  // it is in; probes.bin and the gates are only asked for
    const std::string& mirror = page.mirror();
    INFO("early:\n" << early << "\nmirror:\n" << mirror);
    const size_t title = early.find('\n') + 1;
    REQUIRE(title > 0);
    CHECK(mirror.compare(0, title, early, 0, title) == 0);  // the title, then the app's header
    const lab_state s = url_decode(link).state;  // as the link says (the app may fall back from a `htok`)
    if (s.threshold != PACK_THRESHOLD || s.hist_token >= 0) {
      title_only++;  // the manifest counts the lessons' threshold over every token only
      CHECK(svg.empty());
      CHECK(early == early_text_for_link(link.c_str()));
      continue;
    }
    with_rows++;
    // Below the title: the rows, shares and summary (then the folded questions), as the mirror has them.
    CHECK(contains(mirror, early.substr(title)));
    const std::string pre = std::string("(") + tr_in(s.lang, STR_LIVE_PRECOMPUTED) + ")";
    const int layers = count_of(early, pre);  // a row per layer shown, each from the manifest
    CHECK(layers == (int)page.app.choice.layers.size());
    CHECK(count_of(svg, "<g class=\"gates-layer\"") == layers);
    for (int layer : page.app.choice.layers) CHECK(contains(svg, "data-layer=\"" + std::to_string(layer) + "\""));
    CHECK(count_of(svg, "class=\"bar\"") == 31 * layers);
    // The same shares once the whole gates are in and counted live.
    lp.settle(page);
    const std::string live = std::string("(") + tr_in(s.lang, STR_LIVE_LIVE) + ")";
    for (size_t at = early.find(pre); at != std::string::npos; at = early.find(pre, at + 1)) {
      std::string line = early.substr(at, early.find('\n', at) - at);
      line.replace(0, pre.size(), live);
      CHECK(contains(page.mirror(), line));
    }
  }
  CHECK(with_rows > 0);
  CHECK(title_only > 0);
}

TEST_CASE("early text: the gates view's known shares from the test pack's manifest, and what it cannot answer", "[early]") {
  live_page lp;
  const std::string& manifest = lp.pack.files[PACK_MANIFEST_FILE];
  const std::string early = early_text_with_manifest("#v=1&view=gates", manifest.data(), manifest.size());
  CHECK(contains(early_svg(), "<svg"));
  const std::string zh = early_text_with_manifest("#v=1&view=gates&lang=zh", manifest.data(), manifest.size());
  // The shares counted here from the pack's int8 gates (swiglu stats' way), not from the manifest.
  pack_manifest m;
  std::string err;
  REQUIRE(pack_manifest_parse(manifest, &m, &err));
  for (int layer : {0, 2, 4}) {
    mlp_gate_counts c;
    REQUIRE(pack_gate_stats(&lp.pack, m, layer, 0.1, &c, &err));
    CHECK(contains(early, "Layer " + std::to_string(layer) + ": (precomputed) > 0.1: " + fmt_percent(c.open_share()) +
                              ", < -0.1: " + fmt_percent(c.negative_share())));
    CHECK(contains(zh, "第 " + std::to_string(layer) + " 层：(预先计算) > 0.1：" + fmt_percent(c.open_share())));
  }
  // Another threshold, another pack, a manifest that does not read: the title alone, no SVG.
  for (const char* link : {"#v=1&view=gates&thr=0.2", "#v=1&view=gates&htok=1", "#v=1&view=gates&pack=https://example.org/p/"}) {
    INFO(link);
    const std::string text = early_text_with_manifest(link, manifest.data(), manifest.size());
    CHECK(std::string(early_svg()).empty());
    CHECK(text == std::string(early_text_for_link(link)));
  }
  const std::string spoiled = early_text_with_manifest("#v=1&view=gates", "{", 1);
  CHECK(std::string(early_svg()).empty());
  CHECK(spoiled == std::string(early_text_for_link("#v=1&view=gates")));
}
