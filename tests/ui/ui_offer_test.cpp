// The live header's download controls, headless: on the synthetic default, the offer of the real
// Qwen3.5-0.8B says what it will download (against the bytes counted here from the pack's dims,
// the layers shown and the probe) and rewrites the link to model= keeping the view's settings;
// the weight cache's Clear button empties the cache and says what it freed, in both languages.
#include "ui_harness.h"

#include "core/views/model_offer.h"
#include "core/views/live_view.h"
#include "core/base/strings.h"
#include "core/base/number_format.h"
#include "platform/native/fetch_native.h"

// What a BF16 checkpoint read by ranges fetches, counted independently: each gate matrix is
// h rows of f values... (h x f) of 2 bytes; up and down as many again each; one embedding row of
// h values per token; one norm of h values.
static uint64_t bf16_bytes(const pack_manifest& m, int gates, int whole, int tokens) {
  const double matrix = 2.0 * (double)m.hidden * (double)m.intermediate;
  return (uint64_t)(gates * matrix + whole * 2 * matrix + 2.0 * tokens * m.hidden + 2.0 * m.hidden);
}

TEST_CASE("live header: the real model's offer shows its download size and rewrites the link") {
  live_page lp;
  headless_page page("#v=1&view=gates&lang=en&thr=0.2&pl=0,4");
  lp.settle(page);
  const pack_manifest& m = lp.manifest(page);
  const uint64_t want = bf16_bytes(m, 2, 0, 6);  // two layers shown, the 6-token probe
  INFO(page.mirror());
  CHECK(contains(page.mirror(), "Opens " + fmt_mib(want) + " MiB of real weights"));
  CHECK(contains(page.mirror(), "from hf:Qwen/Qwen3.5-0.8B"));
  CHECK(model_offer_bytes(page.app.live, page.app.choice) == want);
  // The per-token view needs its layer whole: gate, up and down.
  page.click("view-perm");
  lp.settle(page);
  CHECK(model_offer_bytes(page.app.live, page.app.choice) == bf16_bytes(m, 1, 1, 6));
  CHECK(contains(page.mirror(), "Opens " + fmt_mib(bf16_bytes(m, 1, 1, 6)) + " MiB"));
  page.click("view-gates");
  lp.settle(page);
  page.click("model-offer");
  page.frame();
  const url_decoded u = page.url();
  CHECK(u.state.model == "hf:Qwen/Qwen3.5-0.8B");
  CHECK(u.state.view == LAB_VIEW_GATES);        // the view's other settings stay
  CHECK(u.state.threshold == 0.2);
  CHECK(u.state.pack_layers == std::vector<int64_t>{0, 4});
  page.frame();
  CHECK_FALSE(contains(page.mirror(), "Opens "));  // no offer once a model is named
}

TEST_CASE("live header: the offer in Chinese, and Qwen3.5-0.8B's own figure") {
  // Qwen3.5-0.8B (hidden 1024, intermediate 3584), three layers and the lesson's six tokens:
  // 3 BF16 gate matrices of 7,340,032 bytes, 6 embedding rows and one norm of 2,048 bytes each.
  CHECK(checkpoint_view_bytes(1024, 3584, 3, 0, 6) == 3ull * 7340032 + 7 * 2048);
  CHECK(checkpoint_view_bytes(1024, 3584, 1, 1, 6) == 3ull * 7340032 + 7 * 2048);
  CHECK(checkpoint_view_bytes(4096, 14336, 1, 0, 6, 2) == 2ull * 4096 * 14336 + 7 * 2 * 4096);
  live_page lp;
  headless_page page("#v=1&view=gates&lang=zh");
  lp.settle(page);
  CHECK(contains(page.mirror(), "打开真实权重 " + fmt_mib(bf16_bytes(lp.manifest(page), 3, 0, 6)) + " MiB"));
}

TEST_CASE("live header: Clear empties the weight cache and says what it freed") {
  for (const char* lang : {"en", "zh"}) {
    live_page lp;
    headless_page page(std::string("#v=1&view=gates&lang=") + lang);
    lp.settle(page);
    native_fetch* net = platform_native_fetch();
    const uint64_t held = net->cache_used;
    REQUIRE(held > 0);
    CHECK(net->cache_bytes() == held);  // the budget's bookkeeping counts what is stored
    page.click("cache-clear");
    page.frame();
    CHECK(net->cache.empty());
    CHECK(net->cache_bytes() == 0);
    const std::string freed = fmt_mib(held);
    INFO(page.mirror());
    if (std::string(lang) == "en") CHECK(contains(page.mirror(), "Cleared the weight cache: freed " + freed + " MiB."));
    else CHECK(contains(page.mirror(), "已清除权重缓存：释放了 " + freed + " MiB。"));
  }
}

// A source that failed to open still offers Clear (the cache may be why, and a
// teacher may want it gone), in both languages.
TEST_CASE("live header: Clear is there while a source's opening has failed") {
  for (const char* lang : {"en", "zh"}) {
    live_page lp;
    headless_page page(std::string("#v=1&view=gates&lang=") + lang);
    lp.settle(page);  // the default pack: its files are in the cache now
    const uint64_t held = platform_native_fetch()->cache_used;
    REQUIRE(held > 0);
    lab_app_load_fragment(&page.app, std::string("#v=1&view=gates&pack=missing/folder/&lang=") + lang);  // a URL edit
    lp.settle(page);
    REQUIRE(page.app.live.source->phase() == SOURCE_FAILED);
    REQUIRE(item_probe_get("cache-clear"));
    page.click("cache-clear");
    page.frame();
    CHECK(platform_native_fetch()->cache.empty());
    INFO(page.mirror());
    if (std::string(lang) == "en") CHECK(contains(page.mirror(), "Cleared the weight cache: freed " + fmt_mib(held) + " MiB."));
    else CHECK(contains(page.mirror(), "已清除权重缓存：释放了 " + fmt_mib(held) + " MiB。"));
  }
}

TEST_CASE("verified cache: the page's twin keeps a pack within the byte budget, least recently used out") {
  // First with room for everything: what is stored, and which blob was used least recently.
  std::map<std::string, std::string> all;
  std::string oldest;
  {
    live_page lp;
    headless_page page("#v=1&view=gates&lang=en");
    lp.settle(page);
    native_fetch* net = platform_native_fetch();
    all = net->cache;
    REQUIRE(all.size() >= 4);
    uint64_t stamp = UINT64_MAX;
    for (const auto& kv : all)
      if (net->lru.used_stamp(kv.first) < stamp) stamp = net->lru.used_stamp(kv.first), oldest = kv.first;
  }
  // Then one byte short: the same visit keeps everything but the least recently used blob.
  uint64_t total = 0;
  for (const auto& kv : all) total += kv.second.size();
  live_page lp;
  native_fetch* net = platform_native_fetch();
  net->lru.set_budget(total - 1);
  headless_page page("#v=1&view=gates&lang=en");
  lp.settle(page);
  INFO("oldest " << oldest);
  CHECK(net->cache.size() == all.size() - 1);
  CHECK(net->cache.count(oldest) == 0);
  CHECK(net->cache_used == total - all[oldest].size());
  CHECK(net->cache_bytes() == net->cache_used);
  CHECK(contains(page.mirror(), "Layer 4: (live)"));  // the page itself is unaffected
}

// [SECTION] ui=present: a projector's live header shows what a class reads
static bool drawn_text(const std::string& part) {
  for (const item_record& r : item_probe_all())
    if (r.name.empty() && contains(r.text, part)) return true;
  return false;
}

TEST_CASE("live header on a projector (ui=present): the model and its status to read, the controls under Explore freely") {
  for (const char* lang : {"en", "zh"}) {
    INFO(lang);
    const std::string link = std::string("#v=1&view=gates&pl=0,4&ui=present&lang=") + lang;
    {
      live_page lp;
      headless_page page(link);
      lp.settle(page);
      REQUIRE(lab_app_presenting(&page.app));
      const source_model& m = page.app.live.source->model();
      std::vector<std::string> controls = {"model-offer", "layer-0", "layer-4", "cache-clear"};
      for (size_t p = 0; m.probes.size() > 1 && p < m.probes.size(); p++) controls.push_back("probe-" + std::to_string(p));
      for (const std::string& c : controls) CHECK_FALSE(item_probe_get(c));
      CHECK(drawn_text(live_source_info(page.app.live.source.get())));  // the model, its dims, the bytes
      // The weights' kind as an aside, in the page's own punctuation: （合成权重…） in Chinese.
      CHECK(contains(live_source_info(page.app.live.source.get()), strf(tr(STR_READ_ASIDE), tr(STR_LIVE_SYNTHETIC))));
      if (std::string(lang) == "zh") CHECK(contains(live_source_info(page.app.live.source.get()), "（合成权重"));
      CHECK(drawn_text(std::string(tr(STR_LIVE_PROBE)) + tr(STR_MIRROR_COLON) + m.probes[0].label));
      CHECK(drawn_text(std::string(tr(STR_LIVE_LAYERS)) + tr(STR_MIRROR_COLON) + "0, 4"));
      REQUIRE(item_probe_get("path-explore"));  // no path: the button alone brings them back
      CHECK(item_probe_get("view-hand"));       // no path: the view buttons stay
      page.click("path-explore");
      page.frame();
      CHECK(lab_app_presenting(&page.app));
      for (const std::string& c : controls) {
        INFO(c);
        CHECK(item_probe_get(c));
      }
      CHECK_FALSE(item_probe_get("path-explore"));
      CHECK(page.url().state.pack_layers == std::vector<int64_t>{0, 4});  // nothing in the link changed
      CHECK(page.url().state.ui == LAB_UI_PRESENT);
    }
    {  // A phone opening the same link: the normal layout, every control there.
      live_page lp;
      headless_page page(link, 390, 844);
      lp.settle(page);
      CHECK_FALSE(lab_app_presenting(&page.app));
      for (const char* c : {"model-offer", "layer-0", "layer-4", "cache-clear"}) {
        INFO(c);
        CHECK(item_probe_get(c));
      }
      CHECK_FALSE(item_probe_get("path-explore"));
    }
  }
}
