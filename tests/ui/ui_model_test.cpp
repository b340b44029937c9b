// The whole model's views headless: the rule book and the flow on the built-in
// synthetic model served by the fetch twin, in both languages, on a phone and a laptop: every
// number on screen on one line of the mirror, a tap that switches a unit off writes off= and every
// probability then reads before → after, each value equal to the forward pass run directly.
#include "ui_model_site.h"

#include "core/views/gates_text.h"
#include "core/views/model_offer.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "ui/quiz_panel.h"

namespace {

void answer_typed(headless_page& page, const char* text) {
  page.click("quiz-answer");
  page.type(text, QUIZ_TYPED_MAX);
}

}  // namespace

TEST_CASE("rule book: the top tokens, the units, a unit switched off by a tap, every number in the mirror") {
  model_site site;
  direct_run direct(site.files);
  const std::vector<int64_t> ids = {1, 2, 3};
  forward_trace base, off;
  model_forward(direct.w, ids, {}, &base);
  const std::vector<token_prob> top = forward_top_tokens(base, 1);
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (screen sc : SCREENS) {
      const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
      INFO(lang << " at " << sc.w);
      headless_page page("#v=1&view=rules&ids=1,2,3&lang=" + lang, sc.w, sc.h);
      const std::string p_top = fmt_token_id(top[0].id) + tr_in(l, STR_MIRROR_SEP) + "P" + tr_in(l, STR_MIRROR_COLON) +
                                fmt_percent1(top[0].p);
      REQUIRE(model_site::settle_until(page, p_top));
      scroll_through(page, "rules " + lang);
      check_mirror_has_every_number(page.mirror(), "rules " + lang, 20);
      CHECK(contains(page.mirror(), tr_in(l, STR_MODEL_SYNTHETIC)));  // labelled synthetic
      // The real model's offer says its download on the button, on screen and in the mirror:
      // 0.75 billion BF16 values, 1.5 GB.
      const char* size = l == LAB_LANG_EN ? "(about 1.5 GB)" : "（约 1.5 GB）";
      const item_record* offer = item_probe_get("model-offer-whole");
      REQUIRE(offer);
      CHECK(contains(offer->text, size));
      CHECK(contains(page.mirror(), size));
    }
  // A tap on the most active unit's Switch off: off= in the link, and before → after as run directly.
  headless_page page("#v=1&view=rules&ids=1,2,3&lang=en");
  REQUIRE(model_site::settle_until(page, "Layer "));
  const std::vector<unit_activation> units = forward_top_units(base, 2, 1);
  const std::string button = "rules-off-" + std::to_string(units[0].unit.layer) + "-" + std::to_string(units[0].unit.unit);
  REQUIRE(model_site::settle_until(page, "writes toward"));
  page.click(button.c_str());
  CHECK(page.url().state.off == std::vector<int64_t>{units[0].unit.layer, units[0].unit.unit});
  model_forward(direct.w, ids, {units[0].unit}, &off);
  const std::string changed = fmt_before_after(fmt_percent1(top[0].p), fmt_percent1(forward_token_prob(off, top[0].id)));
  REQUIRE(model_site::settle_until(page, changed));
  scroll_through(page, "rules off");
  check_mirror_has_every_number(page.mirror(), "rules off", 20);
}

TEST_CASE("flow: a row a layer with both L2s and their ratio, every number in the mirror") {
  model_site site;
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (screen sc : SCREENS) {
      const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
      INFO(lang << " at " << sc.w);
      headless_page page("#v=1&view=flow&lang=" + lang, sc.w, sc.h);
      const std::string last = strf(tr_in(l, STR_LIVE_LAYER_N), "23") + tr_in(l, STR_MIRROR_COLON) + tr_in(l, STR_FLOW_MLP);
      REQUIRE(model_site::settle_until(page, last));
      scroll_through(page, "flow " + lang);
      check_mirror_has_every_number(page.mirror(), "flow " + lang, 24 * 3);
    }
}

TEST_CASE("flow: a tap on a prompt token reads the bars there (tok=), each layer's |MLP| as run directly") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace run = direct.forward({1, 2, 3, 4});
  headless_page page("#v=1&view=flow&ids=1,2,3,4&lang=en");
  REQUIRE(model_site::settle_until(page, "Layer 23: |MLP|"));
  CHECK(page.app.state.token == -1);  // none picked: the last
  page.click("flow-token-1");
  CHECK(page.url().state.token == 1);
  for (int l : {0, 11, 23}) {
    const std::string row = strf(tr(STR_LIVE_LAYER_N), std::to_string(l).c_str()) + ": |MLP|: " + fmt6(run.mlp_l2[(size_t)l][1]);
    REQUIRE(model_site::settle_until(page, row));
  }
  scroll_through(page, "flow at token 1");
  check_mirror_has_every_number(page.mirror(), "flow at token 1", 24 * 3);
}

TEST_CASE("whole model: the built-in model offers the real one (model= set, nothing else changed); a locked link does not") {
  model_site site;
  {  // (one page at a time: each has its own ImGui context)
    headless_page page("#v=1&view=rules&off=23:75&lang=en");
    REQUIRE(model_site::settle_until(page, "writes toward"));
    page.click("model-offer-whole");
    CHECK(page.url().state.model == MODEL_OFFER_LOCATION);
    CHECK(page.url().state.off == std::vector<int64_t>{23, 75});
  }
  // Back on the built-in model (the real one is not on this host): its tokenizer is read again.
  headless_page locked("#v=1&view=rules&lock=1&lang=en");
  REQUIRE(model_site::settle_until(locked, "writes toward"));
  scroll_through(locked, "locked");
  CHECK_FALSE(has_widget("model-offer-whole"));
}

TEST_CASE("whole model: a model= that is not there says so in both languages, and Retry is offered") {
  model_site site;
  headless_page page("#v=1&view=rules&model=elsewhere/&lang=zh");
  const std::string failed = tr_in(LAB_LANG_ZH, STR_MODEL_FAILED_AT);
  REQUIRE(model_site::settle_until(page, failed.substr(0, failed.find("%s"))));
  INFO(page.mirror());
  CHECK(contains(page.mirror(), "config.json"));
  scroll_through(page, "failed model");
  CHECK(has_widget("model-retry"));
}

TEST_CASE("gates in=stream: each layer's shares on the stream it reads, as run directly; the input said; a tap switches") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace run = direct.forward({1, 2, 3, 4});
  // Layer l's row as the page must print it, its shares counted here from the forward pass.
  auto row = [&](int l) {
    gate_row g;
    g.layer = l, g.available = g.live = true;
    for (float v : run.silu_gate[(size_t)l]) g.counts.total++, g.counts.open += v > 0.1f, g.counts.negative += v < -0.1f;
    return view_row_line(gates_layer_row(g, 0.1));
  };
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (screen sc : SCREENS) {
      const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
      INFO(lang << " at " << sc.w);
      headless_page page("#v=1&view=gates&in=stream&ids=1,2,3,4&lang=" + lang, sc.w, sc.h);
      strings_set_lang(l);
      const std::string layer23 = row(23), layer0 = row(0), layer11 = row(11);
      strings_set_lang(LAB_LANG_EN);
      REQUIRE(model_site::settle_until(page, layer23));
      CHECK(contains(page.mirror(), tr_in(l, STR_GATES_IN_STREAM)));
      CHECK(contains(page.mirror(), tr_in(l, STR_GATES_SHORTCUT)));
      CHECK(contains(page.mirror(), layer0));
      CHECK(contains(page.mirror(), layer11));
      scroll_through(page, "gates stream " + lang);
      check_mirror_has_every_number(page.mirror(), "gates stream " + lang, 6 * 3);
    }
  // The lessons' recipe is one tap away, and back: in= follows in the link.
  headless_page page("#v=1&view=gates&in=stream&ids=1,2,3,4&lang=en");
  REQUIRE(model_site::settle_until(page, row(23)));
  page.click("gates-in-embed");
  CHECK(page.url().state.gates_input == LAB_GATES_EMBED);
  for (int i = 0; i < 20; i++) page.frame();
  CHECK_FALSE(contains(page.mirror(), tr(STR_GATES_IN_STREAM)));  // (this host has no pack: the MLP source fails)
  page.click("gates-in-stream");
  CHECK(page.url().state.gates_input == LAB_GATES_STREAM);
  REQUIRE(model_site::settle_until(page, row(23)));
}

TEST_CASE("rule book: units for a picked token (tok=), a picked unit's condition and conclusion, its weights one tap away") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace run = direct.forward({1, 2, 3, 4});
  headless_page page("#v=1&view=rules&ids=1,2,3,4&lang=en");
  REQUIRE(model_site::settle_until(page, "writes toward"));
  // Find units for token 1: the list is the forward pass's top units there.
  page.click("rules-token-1");
  CHECK(page.url().state.token == 1);
  const std::vector<unit_activation> at1 = forward_top_units(run, 1, 10);
  const std::string first = strf(tr(STR_RULES_UNIT), std::to_string(at1[0].unit.layer).c_str(), std::to_string(at1[0].unit.unit).c_str()) +
                            ": " + fmt6(at1[0].value);
  REQUIRE(model_site::settle_until(page, first));
  // Pick it: layer= and unit= in the link, its activation at every token with its two factors.
  const std::string id = std::to_string(at1[0].unit.layer) + "-" + std::to_string(at1[0].unit.unit);
  page.click(("rules-pick-" + id).c_str());
  CHECK(page.url().state.layer == at1[0].unit.layer);
  CHECK(page.url().state.unit == at1[0].unit.unit);
  const size_t F = (size_t)direct.w.spec.base.intermediate;
  for (int t = 0; t < 4; t++) {
    const float a = run.act[(size_t)at1[0].unit.layer][(size_t)t * F + (size_t)at1[0].unit.unit];
    const float g = run.silu_gate[(size_t)at1[0].unit.layer][(size_t)t * F + (size_t)at1[0].unit.unit];
    REQUIRE(model_site::settle_until(page, "silu(gate): " + fmt6(g)));
    CHECK(contains(page.mirror(), tr(STR_RULES_PRODUCT) + std::string(": ") + fmt6(a)));
  }
  CHECK(contains(page.mirror(), tr(STR_RULES_CONCLUSION)));
  scroll_through(page, "rules picked");
  check_mirror_has_every_number(page.mirror(), "rules picked", 20);
  // Switched off from its own panel, then its weights: the same model's checkpoint, its layer and unit, W_gate.
  page.click("rules-picked-off");
  CHECK(page.url().state.off == std::vector<int64_t>{at1[0].unit.layer, at1[0].unit.unit});
  REQUIRE(model_site::settle_until(page, tr(STR_RULES_IS_OFF)));
  page.click("rules-weights");
  const lab_state s = page.url().state;
  CHECK(s.view == LAB_VIEW_WEIGHTS);
  CHECK(s.model == MODEL_DEFAULT_LOCATION);
  CHECK(s.layer == at1[0].unit.layer);
  CHECK(s.unit == at1[0].unit.unit);
  CHECK(s.matrix == MLP_GATE);
  // The weights view reads the unit on its own input, and says so: not the rule book's stream.
  REQUIRE(model_site::settle_until(page, tr(STR_WEIGHTS_SILU)));
  CHECK(contains(page.mirror(), tr(STR_WEIGHTS_SILU_INPUT)));
  // The header calls a checkpoint a checkpoint (a converted pack's "Pack:": ui_liveux_test.cpp).
  CHECK(contains(page.mirror(), strf(tr(STR_LIVE_CHECKPOINT), "swiglu-lab/synthetic-whole-model")));
  CHECK_FALSE(contains(page.mirror(), strf(tr(STR_LIVE_PACK), "")));
}

TEST_CASE("flow: the largest and smallest ratio named, a picked layer marked; the quiz's flow question checked against them") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace run = direct.forward({1, 2, 3, 4});
  const int largest = direct_largest_flow(run, 3);
  headless_page page("#v=1&view=flow&ids=1,2,3,4&layer=5&lang=en");
  REQUIRE(model_site::settle_until(page, "Layer 23: |MLP|"));
  CHECK(contains(page.mirror(), "adds the most in layer " + std::to_string(largest) + " "));
  CHECK(contains(page.mirror(), "Picked: Layer 5: |MLP|: " + fmt6(run.mlp_l2[5][3])));
  // The quiz names this prompt and token, and takes the largest layer as right.
  page.open("#v=1&view=quiz&quiz=flow&ids=1,2,3,4&lang=en");
  for (int i = 0; i < 5; i++) page.frame();
  CHECK(contains(page.mirror(), "at the token"));
  answer_typed(page, std::to_string(largest == 0 ? 1 : largest - 1).c_str());
  CHECK(contains(page.mirror(), "Not this one."));
  answer_typed(page, std::to_string(largest).c_str());
  CHECK(contains(page.mirror(), "Right."));
  CHECK(contains(page.mirror(), "layer " + std::to_string(largest) + ", ratio"));
}

TEST_CASE("quiz: the flow question answered from its link alone, the switched-off units and the token named") {
  model_site site;
  direct_run direct(site.files);
  const forward_trace run = direct.forward({1, 2, 3, 4}, {unit_ref{23, 75}});
  const int largest = direct_largest_flow(run, 2);  // tok=2: the third token
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
    INFO(lang);
    // A fresh page on the quiz: no view opened the flow before; the quiz asks the model itself.
    headless_page page("#v=1&view=quiz&quiz=flow&ids=1,2,3,4&tok=2&off=23:75&lang=" + lang);
    const std::string off_q = tr_in(l, STR_QUIZ_FLOW_Q_OFF);
    const std::string asked = off_q.substr(0, off_q.find("%s"));
    REQUIRE(model_site::settle_until(page, asked));
    const std::string mirror = page.mirror();
    // The words before the switched-off units (", with " / " 上，关闭 "), which the plain question lacks.
    const size_t second = off_q.find("%s", off_q.find("%s") + 2) + 2;
    CHECK(contains(mirror, off_q.substr(second, off_q.find("%s", second) - second)));
    CHECK(contains(mirror, strf(tr_in(l, STR_LIVE_LAYER_N), "23")));  // the switched-off unit named
    CHECK_FALSE(contains(mirror, tr_in(l, STR_QUIZ_FLOW_Q_FIRST)));
    answer_typed(page, std::to_string(largest == 0 ? 1 : largest - 1).c_str());
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_WRONG)));
    answer_typed(page, std::to_string(largest).c_str());
    CHECK(contains(page.mirror(), tr_in(l, STR_QUIZ_RIGHT)));
    CHECK(page.url().state.off == std::vector<int64_t>{23, 75});  // the link kept as it came
  }
  // Without off=, the question reads as before: the prompt and the token, no switch-off.
  headless_page page("#v=1&view=quiz&quiz=flow&ids=1,2,3,4&lang=en");
  REQUIRE(model_site::settle_until(page, "at the token"));
  CHECK_FALSE(contains(page.mirror(), "switched off"));
}

TEST_CASE("gates in=stream on a phone: an answer that comes after the first frame goes under the intro and the input's choice") {
  model_site site;
  {  // ids= the precomputed answers do not hold: the model's answer comes frames later.
    headless_page page("#v=1&view=gates&in=stream&ids=1,2,3,4&lang=en", 390, 844);
    for (int i = 0; i < 3; i++) page.frame();
    REQUIRE_FALSE(contains(page.mirror(), tr(STR_GATES_SHORTCUT)));
    const item_record* choice = item_probe_get("gates-in-stream");
    REQUIRE(choice);
    const float before = choice->rect.y0;
    CHECK(choice->reachable);
    REQUIRE(model_site::settle_until(page, tr(STR_GATES_SHORTCUT)));
    choice = item_probe_get("gates-in-stream");
    REQUIRE(choice);
    CHECK(choice->rect.y0 == before);  // nothing was put above what the student was reading
    const item_record* figure = item_probe_get("gates-layer-0");
    REQUIRE(figure);
    CHECK(figure->rect.y0 > choice->rect.y0);
  }
  // A visit whose answer is there as the page opens (the precomputed default) draws the figure first.
  headless_page fresh("#v=1&view=gates&in=stream&lang=en", 390, 844);
  REQUIRE(model_site::settle_until(fresh, tr(STR_GATES_SHORTCUT)));
  const item_record* top = item_probe_get("gates-layer-0");
  const item_record* below = item_probe_get("gates-in-stream");
  REQUIRE(top);
  REQUIRE(below);
  CHECK(top->rect.y0 < below->rect.y0);
}
