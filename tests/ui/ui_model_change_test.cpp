// The whole-model views as a class meets them, headless: a model changed in an open page is asked
// again (never left on the previous model's "cancelled"); a model that cannot be opened, or a part
// of it that fails while loading, names where and why, offers Retry and the way back to the
// built-in weights (a history entry; never what the bare address reopens). The in-process model
// service keeps the worker's timing (a frame late), so these frames are the page's.
#include "ui_harness.h"

#include <algorithm>
#include <functional>

#include "core/checkpoint/synthetic_model.h"
#include "core/experiments/model_session.h"
#include "core/views/model_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"
#include "platform/native/fetch_native.h"
#include "platform/native/platform_native.h"

namespace {

// The built-in model beside the page, and the same files at two more places (checkpoints named by
// model=), served by the fetch twin.
struct two_models {
  mem_files files;
  std::string weights;  // the safetensors file's name
  two_models() {
    for (const auto& f : synth_model_planted_make())
      for (const char* at : {MODEL_DEFAULT_LOCATION, "copy/", "other/"}) {
        files.files[std::string(at) + f.first] = f.second;
        if (f.first.size() > 12 && f.first.compare(f.first.size() - 12, 12, ".safetensors") == 0) weights = f.first;
      }
    native_fetch* net = platform_native_fetch();
    *net = native_fetch();
    net->files = &files;
    net->base = "";
    platform_native_model_reset();
  }
  // Frames and answers until `done`, at most `frames`.
  template <class F>
  static bool settle_until(headless_page& page, F done, int frames = 3000) {
    for (int i = 0; i < frames; i++) {
      page.frame();
      platform_native_fetch()->deliver(page.now);
      if (done()) {
        for (int k = 0; k < 3; k++) page.frame();
        return true;
      }
    }
    return false;
  }
  static bool answered(headless_page& page) {
    return model_view_ready(page.app.live.model, page.app.state) &&
           page.app.live.model.location == model_session_location(page.app.state);
  }
};

}  // namespace

TEST_CASE("model change: model= edited in an open page is asked again on rules, flow and gates in=stream, both ways") {
  two_models site;
  for (const char* view : {"view=rules&off=23:75", "view=flow&tok=2", "view=gates&in=stream"}) {
    INFO(view);
    const std::string base = std::string("#v=1&") + view;
    headless_page page(base);
    REQUIRE(site.settle_until(page, [&] { return two_models::answered(page); }));
    // built-in -> checkpoint -> another checkpoint -> built-in, each in the open page
    for (const char* model : {"&model=copy/", "&model=other/", ""}) {
      INFO(model);
      page.open(base + model);
      INFO(page.mirror());
      REQUIRE(site.settle_until(page, [&] { return two_models::answered(page); }));
      CHECK_FALSE(contains(page.mirror(), tr(STR_FAULT_CANCELLED)));
      CHECK(page.app.live.model.reply.error.fault == STREAM_OK);
      // It stays answered over more frames: nothing of the previous model comes back.
      for (int i = 0; i < 30; i++) page.frame(), platform_native_fetch()->deliver(page.now);
      CHECK(two_models::answered(page));
    }
  }
}

TEST_CASE("model failed: the source named, Retry and the way back (a history entry), never what the bare address reopens") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    two_models site;
    const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
    {
      headless_page page("#v=1&view=rules&off=23:75&layer=23&unit=75&model=elsewhere/&lang=" + lang);
      REQUIRE(site.settle_until(page, [&] { return page.app.live.model.status.phase == MODEL_STATUS_FAILED; }));
      INFO(page.mirror());
      CHECK(contains(page.mirror(), before_args(STR_MODEL_FAILED_AT, l)));
      CHECK(contains(page.mirror(), "elsewhere/"));
      CHECK(contains(page.mirror(), "config.json"));
      scroll_through(page, "failed model");
      CHECK(has_widget("model-retry"));
      REQUIRE(has_widget("model-use-builtin"));
      const url_decoded stored = url_decode(platform_storage_get("swiglu-lab.last-view"));
      CHECK(stored.state.model.empty());  // the bare address: the same view on the built-in model
      CHECK(stored.state.view == LAB_VIEW_RULES);
      const size_t entries = (size_t)platform_native_history_length();
      page.click("model-use-builtin");
      REQUIRE(site.settle_until(page, [&] { return two_models::answered(page); }));
      const lab_state s = page.url().state;
      CHECK(s.model.empty());
      CHECK(s.view == LAB_VIEW_RULES);
      CHECK(s.layer == 23);
      CHECK(s.unit == 75);
      CHECK(s.off == std::vector<int64_t>{23, 75});
      CHECK((size_t)platform_native_history_length() == entries + 1);  // Back returns to what failed
    }
    headless_page bare("", 1280, 800, true);
    REQUIRE(site.settle_until(bare, [&] { return two_models::answered(bare); }));
    CHECK(bare.url().state.view == LAB_VIEW_RULES);
    CHECK(bare.url().state.model.empty());
  }
}

TEST_CASE("model chunk failed: a part that fails while loading is named with Retry and the way back; Retry loads the rest") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    two_models site;
    const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
    headless_page page("#v=1&view=flow&model=copy/&lang=" + lang);
    const model_session& ms = page.app.live.model;
    // The header is read whole; every range of the weights after it fails.
    fetch_fault& fault = platform_native_fetch()->faults["copy/" + site.weights];
    fault.status = 500;
    fault.from_byte = 1;
    const bool shown = site.settle_until(page, [&] { return contains(page.mirror(), before_args(STR_MODEL_CHUNK_FAILED, l)); });
    INFO(model_status_json(ms.status));
    INFO(page.mirror());
    REQUIRE(shown);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), site.weights));
    // Where it stopped, not a "Loading…" that no longer moves.
    CHECK(contains(page.mirror(), before_args(STR_MODEL_STOPPED_AT, l)));
    CHECK_FALSE(contains(page.mirror(), before_args(STR_MODEL_LOADING, l)));
    scroll_through(page, "failed chunk");
    CHECK(has_widget("model-retry"));
    CHECK(has_widget("model-use-builtin"));
    CHECK_FALSE(has_widget("model-cancel"));  // the load stopped: nothing left to cancel
    CHECK(url_decode(platform_storage_get("swiglu-lab.last-view")).state.model.empty());
    // The host is fixed: Retry fetches what is missing, and the numbers come.
    fault.status = 0;
    page.click("model-retry");
    REQUIRE(site.settle_until(page, [&] { return two_models::answered(page); }));
    CHECK(page.url().state.model == "copy/");
  }
}

// A model that opens and loads but whose pass overflows f32 (BF16 0x7F7F weights, finite, so the
// load takes them): the views say so, and offer the way back as a model that failed to open does.
TEST_CASE("model overflow: a model that cannot answer offers the built-in weights, every other setting kept") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    two_models site;
    std::map<std::string, std::string> shard = {{site.weights, site.files.files["copy/" + site.weights]}};
    REQUIRE(synth_model_fill_bf16(&shard, "model.language_model.layers.0.mlp.down_proj.weight", 0x7F7F));
    site.files.files["copy/" + site.weights] = shard[site.weights];
    headless_page page(std::string("#v=1&view=rules&model=copy/&off=23:75&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    const std::string said = before_args(STR_MODEL_NOT_FINITE, l);
    const bool shown = site.settle_until(page, [&] { return contains(page.mirror(), said); });
    INFO(page.mirror());
    REQUIRE(shown);
    scroll_through(page, "overflow");
    REQUIRE(has_widget("model-use-builtin"));
    CHECK_FALSE(has_widget("model-retry"));  // nothing to fetch again: the file is what it is
    page.click("model-use-builtin");
    REQUIRE(site.settle_until(page, [&] { return two_models::answered(page); }));
    CHECK(page.url().state.model.empty());
    CHECK(page.url().state.off == std::vector<int64_t>{23, 75});
    CHECK_FALSE(contains(page.mirror(), said));
  }
}

TEST_CASE("model fallbacks: ids, off, layer, unit and tok the model does not have are named in the notice and the link shows what is used") {
  struct case_t {
    const char* fragment;
    const char* key;  // named in the notice
    std::function<bool(const lab_state&)> shown;
  };
  const std::vector<case_t> cases = {
      {"view=rules&ids=600,700,5", "'ids'", [](const lab_state& s) { return s.ids.empty(); }},
      {"view=gates&in=stream&ids=5,600", "'ids'", [](const lab_state& s) { return s.ids.empty(); }},
      {"view=rules&off=23:192,24:5,23:75,23:75", "'off'", [](const lab_state& s) { return s.off == std::vector<int64_t>{23, 75}; }},
      {"view=rules&layer=23&unit=99999", "'unit'", [](const lab_state& s) { return s.layer == -1; }},
      {"view=rules&layer=99&unit=5", "'layer'", [](const lab_state& s) { return s.layer == -1; }},
      {"view=flow&tok=99", "'tok'", [](const lab_state& s) { return s.token == -1; }},
      // Past the page's own limit: the default, said once by the link, never the limit (1023).
      {"view=flow&layer=1e309", "'layer' = '1e309'", [](const lab_state& s) { return s.layer == -1; }},
  };
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH})
    for (const case_t& c : cases) {
      INFO(c.fragment << " " << l);
      two_models site;
      headless_page page(std::string("#v=1&") + c.fragment + (l == LAB_LANG_ZH ? "&lang=zh" : ""));
      REQUIRE(site.settle_until(page, [&] { return two_models::answered(page) && c.shown(page.app.state); }));
      std::string notices;
      for (const std::string& n : page.app.notices) notices += n + "\n";
      INFO(notices);
      CHECK(contains(notices, c.key));
      CHECK_FALSE(contains(notices, "1023"));  // no layer a model here has
      CHECK(c.shown(page.url().state));  // the link says what is shown
      CHECK(contains(page.mirror(), l == LAB_LANG_EN ? "Prompt" : "提示"));
    }
}

// A weight file replaced on the host while it loads (its ETag changes after its header was read):
// the page reads the new one and says so on the whole model's views, naming the file, in both
// languages; the numbers come, and the line stays with them.
TEST_CASE("model file replaced mid-load: the views say which file was read again, and its numbers come") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    two_models site;
    native_fetch* net = platform_native_fetch();
    const std::string shard = "copy/" + site.weights;
    net->etags[shard] = "\"v1\"";
    headless_page page(std::string("#v=1&view=rules&model=copy/&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    bool replaced = false;
    const bool shown = site.settle_until(page, [&] {
      // Once the header came (the shard's first answer), every later answer is another version.
      if (!replaced && std::count(net->requested.begin(), net->requested.end(), shard) > 0 && net->pending() == 0)
        net->etags[shard] = "\"v2\"", replaced = true;
      return two_models::answered(page);
    });
    REQUIRE(replaced);
    INFO(page.mirror());
    REQUIRE(shown);
    const std::string said = strf(tr_in(l, STR_MODEL_FILE_CHANGED), site.weights.c_str());
    CHECK(contains(page.mirror(), said));
    CHECK(page.app.live.model.status.changed_files == std::vector<std::string>{site.weights});
    CHECK(std::count(net->requested.begin(), net->requested.end(), shard) >= 3);  // the header twice, the weights
    page.click("view-flow");  // the other whole-model view says it too
    REQUIRE(site.settle_until(page, [&] { return two_models::answered(page); }));
    CHECK(contains(page.mirror(), said));
  }
}
