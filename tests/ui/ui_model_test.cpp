// The whole model's views headless (issue 23): the rule book and the flow on the built-in
// synthetic model served by the fetch twin, in both languages, on a phone and a laptop: every
// number on screen on one line of the mirror, a tap that switches a unit off writes off= and every
// probability then reads before → after, each value equal to the forward pass run directly.
#include "ui_harness.h"

#include <algorithm>

#include "core/checkpoint/synthetic_model.h"
#include "core/experiments/model_session.h"
#include "core/gates_text.h"
#include "core/model/forward.h"
#include "core/model_offer.h"
#include "core/model/model_weights.h"
#include "core/number_format.h"
#include "core/strings.h"
#include "packs/pack_test_util.h"
#include "platform/native/fetch_native.h"
#include "platform/native/platform_native.h"

namespace {

struct model_site {
  mem_files files;
  model_site() {
    for (const auto& f : synth_model_planted_make()) files.files[f.first] = f.second;
    native_fetch* net = platform_native_fetch();
    *net = native_fetch();
    net->files = &files;
    net->base = MODEL_DEFAULT_LOCATION;
    platform_native_model_reset();  // nothing an earlier test's page opened on other files
  }
  // Frames and answers until the mirror holds `part` (the model loads, then answers, a frame later).
  static bool settle_until(headless_page& page, const std::string& part) {
    for (int i = 0; i < 3000; i++) {
      if (i == 2999) UNSCOPED_INFO("the mirror never showed \"" << part << "\":\n" << page.mirror());
      page.frame();
      platform_native_fetch()->deliver(page.now);
      if (contains(page.mirror(), part)) {
        for (int k = 0; k < 3; k++) page.frame();
        return true;
      }
    }
    return false;
  }
};

// The same model run directly, for the values the page must print.
struct direct_run {
  model_weights w;
  direct_run(const mem_files& files) {
    std::string err;
    mem_files copy = files;
    REQUIRE(model_load(&copy, model_formats(), &w, &err));
  }
};

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
  const std::vector<int64_t> ids = {1, 2, 3, 4};
  forward_trace run;
  model_forward(direct.w, ids, {}, &run);
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
  const std::string failed = tr_in(LAB_LANG_ZH, STR_MODEL_FAILED);
  REQUIRE(model_site::settle_until(page, failed.substr(0, failed.find("%s"))));
  INFO(page.mirror());
  CHECK(contains(page.mirror(), "config.json"));
  scroll_through(page, "failed model");
  CHECK(has_widget("model-retry"));
}

TEST_CASE("gates in=stream: each layer's shares on the stream it reads, as run directly; the input said; a tap switches") {
  model_site site;
  direct_run direct(site.files);
  const std::vector<int64_t> ids = {1, 2, 3, 4};
  forward_trace run;
  model_forward(direct.w, ids, {}, &run);
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
