// A model= that fails offers the built-in weights
// and is never what the bare address reopens; a locked link keeps the teacher's source; ids= the
// model cannot read fall back to the lesson's sentence with words about the id, not config.json;
// a change of view is a history entry (Back); a cancelled load never says "loading it"; link
// values are said in words. The page's site is one set of files: the built-in pack under
// packs/default/ and a checkpoint under ckpt/, served by the fetch twin.
#include "ui_harness.h"

#include "core/source/checkpoint_source.h"
#include "core/views/lab_text.h"
#include "core/views/live_view.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "packs/pack_test_util.h"
#include "platform/native/fetch_native.h"
#include "ui/sentence_box.h"

namespace {

struct site_files {
  mem_files files;
  site_files() {
    mem_files checkpoint = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
    mem_files pack;
    std::string err;
    REQUIRE(pack_test_build(checkpoint, {0, 2, 4}, {pack_test_lesson_probe("lesson")}, &pack, &err));
    for (const auto& f : pack.files) files.files["packs/default/" + f.first] = f.second;
    for (const auto& f : checkpoint.files) files.files["ckpt/" + f.first] = f.second;
    native_fetch* net = platform_native_fetch();
    *net = native_fetch();
    net->files = &files;
    net->base = "";
  }
  static void settle(headless_page& page) {
    for (int i = 0; i < 200; i++) {
      page.frame();
      if (platform_native_fetch()->deliver(page.now) == 0 && i > 3) break;
    }
    for (int i = 0; i < 3; i++) page.frame();
  }
  static int requests_of(const std::string& file) {
    int n = 0;
    for (const std::string& f : platform_native_fetch()->requested) n += f == file;
    return n;
  }
};

const char* in(lab_lang l, str_id id) { return tr_in(l, id); }

}  // namespace

TEST_CASE("failed model: the built-in weights are offered, every other setting kept, in both languages") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    site_files site;
    platform_native_fetch()->faults["ckpt/config.json"].status = 404;
    const std::string lang = l == LAB_LANG_EN ? "en" : "zh";
    headless_page page("#v=1&view=gates&thr=0.2&pl=0,4&model=ckpt/&lang=" + lang);
    site.settle(page);
    REQUIRE(page.app.live.source->phase() == SOURCE_FAILED);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), strf(in(l, STR_LIVE_SOURCE_FAILED), "ckpt/")));
    REQUIRE(item_probe_get("stream-use-default"));
    CHECK(item_probe_get("stream-retry"));  // Retry stays beside it
    // The bare address does not reopen the failing model: the same view on the built-in weights.
    const url_decoded stored = url_decode(platform_storage_get("swiglu-lab.last-view"));
    CHECK(stored.state.model.empty());
    CHECK(stored.state.view == LAB_VIEW_GATES);
    CHECK(stored.state.threshold == 0.2);
    CHECK(page.url().state.model == "ckpt/");  // the link still says what failed (Retry)
    page.click("stream-use-default");
    site.settle(page);
    const lab_state s = page.url().state;
    CHECK(s.model.empty());
    CHECK(s.view == LAB_VIEW_GATES);
    CHECK(s.threshold == 0.2);
    CHECK(s.pack_layers == std::vector<int64_t>{0, 4});
    CHECK(page.app.live.source->phase() == SOURCE_READY);
    CHECK(contains(page.mirror(), l == LAB_LANG_EN ? "Layer 4: (live)" : "第 4 层：(实时)"));
  }
}

TEST_CASE("failed model: a fresh page at the bare address opens the last view on the built-in weights") {
  site_files site;
  platform_native_fetch()->faults["ckpt/config.json"].status = 404;
  {
    headless_page page("#v=1&view=perm&tok=3&model=ckpt/");
    site.settle(page);
    REQUIRE(page.app.live.source->phase() == SOURCE_FAILED);
  }
  headless_page bare("", 1280, 800, true);  // this browser's storage, no fragment
  site.settle(bare);
  CHECK(bare.url().state.view == LAB_VIEW_PERM);
  CHECK(bare.url().state.token == 3);
  CHECK(bare.url().state.model.empty());
  CHECK(bare.app.live.source->phase() == SOURCE_READY);
}

TEST_CASE("lock=1: no real-model offer and no Clear cache; unlocked they are there") {
  for (const char* lock : {"0", "1"}) {
    INFO("lock=" << lock);
    site_files site;
    headless_page page(std::string("#v=1&view=gates&path=gates,quiz&lock=") + lock);
    site.settle(page);
    REQUIRE(page.app.live.source->phase() == SOURCE_READY);
    REQUIRE(platform_native_fetch()->cache_bytes() > 0);
    const bool locked = std::string(lock) == "1";
    CHECK(bool(item_probe_get("model-offer")) == !locked);
    CHECK(bool(item_probe_get("cache-clear")) == !locked);
    CHECK(contains(page.mirror(), "Opens ") == !locked);  // the offer's words in the mirror
  }
}

TEST_CASE("ids= outside the model's vocabulary: the lesson's sentence, and words about the id, in both languages") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    site_files site;
    headless_page page(std::string("#v=1&view=gates&model=ckpt/&ids=5,99999,7&text=abc&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    site.settle(page);
    const std::string notice = platform_native_notice();
    INFO(notice << "\n" << page.mirror());
    REQUIRE(page.app.live.source->phase() == SOURCE_READY);
    const int64_t last = page.app.live.source->model().vocab - 1;
    CHECK(notice == strf(in(l, STR_LIVE_IDS_REFUSED), "99999", std::to_string(last).c_str()));
    for (const std::string& text : {notice, page.mirror()}) {
      CHECK_FALSE(contains(text, "config.json"));
      CHECK_FALSE(contains(text, "swiglu tokenize"));
    }
    const lab_state s = page.url().state;
    CHECK(s.ids.empty());  // the link says what is shown: the lesson's sentence
    CHECK(s.text.empty());
    CHECK(site.requests_of("ckpt/config.json") == 1);  // shown by the source already open, not reopened
    const source_probe& shown = page.app.live.source->model().probes.at(0);
    CHECK(shown.tokens == checkpoint_default_synthetic_probe().tokens);  // the lesson's sentence
    CHECK(std::string(sentence_box_typed()) == in(l, STR_LESSON_SENTENCE));  // and the box says so
  }
}

TEST_CASE("a change of view is a history entry: Back returns to the view before; a drag is not") {
  {  // (one page at a time: each has its own ImGui context)
  headless_page page("#v=1&view=hand&step=5");
  CHECK(platform_native_history_length() == 1);
  page.click("view-silu");
  CHECK(platform_native_history_length() == 2);
  page.click("view-budget");
  CHECK(platform_native_history_length() == 3);
  page.click("preset-balanced");  // a change within the view rewrites its entry
  CHECK(platform_native_history_length() == 3);
  CHECK(page.url().state.intermediate == 2731);
  REQUIRE(platform_native_back());
  lab_app_load_fragment(&page.app, platform_url_fragment());  // the page's popstate
  page.frame();
  CHECK(page.app.state.view == LAB_VIEW_SILU);
  CHECK(contains(page.mirror(), "SiLU(z)"));
  REQUIRE(platform_native_back());
  lab_app_load_fragment(&page.app, platform_url_fragment());
  page.frame();
  CHECK(page.app.state.view == LAB_VIEW_HAND);
  CHECK_FALSE(platform_native_back());  // the next Back leaves the page, as it should
  }
  // Previous / Next view on a lesson path are changes of view too.
  headless_page path("#v=1&view=hand&path=hand,silu,hand,quiz&lock=1");
  path.click("path-next");
  path.click("path-next");
  CHECK(platform_native_history_length() == 3);
  CHECK(path.url().state.path_at == 2);
}

TEST_CASE("a cancelled per-token view says so, never 'loading it', and shows no progress bar") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    INFO(l);
    live_page lp;
    headless_page page(std::string("#v=1&view=gates&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    lp.cancel_then_open(page, "view-perm");
    INFO(page.mirror());
    CHECK(contains(page.mirror(), in(l, STR_LIVE_NEEDS_WHOLE_PAUSED)));
    CHECK_FALSE(contains(page.mirror(), in(l, STR_LIVE_NEEDS_WHOLE)));
    scroll_through(page, "perm after cancel");
    CHECK(shows(in(l, STR_LIVE_NEEDS_WHOLE_PAUSED)));
    CHECK_FALSE(shows(in(l, STR_LIVE_NEEDS_WHOLE)));
    page.click("stream-retry");  // "Load it"
    lp.settle(page);
    CHECK_FALSE(contains(page.mirror(), in(l, STR_LIVE_NEEDS_WHOLE_PAUSED)));
  }
}

TEST_CASE("link values said in words: htok=99 shows all tokens, not -1") {
  for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
    live_page lp;
    headless_page page(std::string("#v=1&view=gates&htok=99&thr=-1&lang=") + (l == LAB_LANG_EN ? "en" : "zh"));
    lp.settle(page);
    const std::string notice = platform_native_notice();
    INFO(notice);
    CHECK(contains(notice, strf(in(l, STR_LIVE_FALLBACK), "htok", "99", in(l, STR_VALUE_ALL_TOKENS))));
    CHECK(contains(notice, strf(in(l, STR_NOTICE_CLAMPED), "thr", "-1", "0")));
    CHECK_FALSE(contains(notice, "-1."));
    CHECK_FALSE(contains(notice, "显示 -1"));
  }
}

TEST_CASE("model= with ids= and no text=: the probe and the sentence box show what is computed") {
  site_files site;
  {
    headless_page page("#v=1&view=perm&model=ckpt/&ids=5,3,7&lang=en");
    site.settle(page);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), "Probe sentence: \"#5 #3 #7\" (3)"));
    CHECK_FALSE(contains(page.mirror(), "\"\" (3)"));
    CHECK(std::string(sentence_box_typed()).empty());  // not the lesson's sentence, which is not computed
  }
  headless_page pieces("#v=1&view=perm&model=ckpt/&ids=5,3,7&pieces=We,%20go,!&lang=en");
  site.settle(pieces);
  CHECK(contains(pieces.mirror(), "Probe sentence: \"We go!\" (3): We |  go | !"));
  CHECK(std::string(sentence_box_typed()) == "We go!");
}
