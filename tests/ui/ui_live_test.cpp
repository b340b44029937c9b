// The live views (gates, per token, weights) on a pack streamed through the fetch twin: numbers
// equal to `swiglu stats`, only the needed files fetched, failures and Retry, reachability.
#include "ui_harness.h"

#include "core/views/view_table.h"

#include "core/base/number_format.h"
#include "core/pack/pack_stats.h"
#include "platform/native/fetch_native.h"
#include "ui/renderer.h"

TEST_CASE("live views: gate shares in the mirror equal stats; per token says exactly 0; weights upload a heatmap") {
  live_page lp;
  headless_page page("#v=1&view=gates&lang=en");
  lp.settle(page);
  const std::string& m = page.mirror();
  INFO(m);
  CHECK(contains(m, "synthetic weights"));
  for (int layer : {0, 2, 4}) {
    mlp_gate_counts c;
    std::string err;
    REQUIRE(pack_gate_stats(&lp.pack, lp.manifest(page), layer, 0.1, &c, &err));
    CHECK(contains(m, "Layer " + std::to_string(layer) + ": (live) > 0.1: " + fmt_percent(c.open_share()) +
                          ", < -0.1: " + fmt_percent(c.negative_share())));
  }
  // Only gates were fetched for this view.
  for (const std::string& f : platform_native_fetch()->requested) CHECK_FALSE(contains(f, "-up.q8"));

  page.click("view-perm");
  lp.settle(page);
  CHECK(page.url().state.view == LAB_VIEW_PERM);
  CHECK(contains(page.mirror(), "max |MLP(x[perm]) - MLP(x)[perm]| = exactly 0"));
  CHECK(contains(page.mirror(), "perm = [5, 3, 1, 0, 2, 4]"));
  CHECK(contains(page.mirror(), "  1 天气: 0\n"));
  CHECK_FALSE(contains(page.mirror(), "  2 不错: 0\n"));  // token 2 moved
  page.click("perm-shuffle");
  CHECK_FALSE(page.url().state.perm.empty());
  lp.settle(page);
  CHECK(contains(page.mirror(), "exactly 0"));

  const int uploads = renderer_null_get_log()->uploads;
  page.click("view-weights");
  lp.settle(page);
  CHECK(renderer_null_get_log()->uploads == uploads + 1);
  CHECK(renderer_null_get_log()->last_rows == 170);
  CHECK(contains(page.mirror(), "W_gate (170 x 60)"));
  page.click("weights-zoom-in");
  CHECK(page.url().state.heat_zoom == 2.0);  // the link keeps the zoom
  page.frame();                              // the heatmap, above the button, draws it next frame
  CHECK(renderer_null_get_log()->last_uv1.x - renderer_null_get_log()->last_uv0.x == Approx(0.5));
  page.click("weights-W_down");
  lp.settle(page);
  CHECK(renderer_null_get_log()->last_rows == 60);
  CHECK(page.url().state.matrix == MLP_DOWN);
}

TEST_CASE("live views: a failing file shows its message and Retry recovers") {
  live_page lp;
  platform_native_fetch()->faults["layer-002-gate.q8"].status = 503;
  platform_native_fetch()->faults["layer-002-gate.q8"].times = 1;
  headless_page page("#v=1&view=gates&lang=zh");
  lp.settle(page);
  CHECK(contains(page.mirror(), "无法加载 layer-002-gate.q8：HTTP 503：服务器错误"));
  CHECK(contains(page.mirror(), "第 0 层：(实时)"));  // the other layers are live meanwhile
  page.click("stream-retry");
  lp.settle(page);
  CHECK_FALSE(contains(page.mirror(), "无法加载"));
}

TEST_CASE("live views: every number and control reachable on a phone and a laptop, and in the mirror") {
  for (screen sc : SCREENS)
    for (const char* lang : {"en", "zh"})
      for (const lab_view_info& v : LAB_VIEWS) {
        if (!v.live()) continue;  // the views without weights: ui_reach_test.cpp
        if (v.needs & LIVE_WHOLE_MODEL) continue;  // the whole model's: ui_model_test.cpp
        const char* view = v.name;
        live_page lp;
        const std::string link = std::string("#v=1&view=") + view + "&lang=" + lang + "&layer=2&unit=7";
        headless_page page(link, sc.w, sc.h);
        lp.settle(page);
        const std::string what = link + " at " + std::to_string(int(sc.w));
        scroll_through(page, what);
        INFO(what);
        if (std::string(view) == "perm") CHECK(shows(lang == std::string("en") ? "exactly 0" : "恰好为 0"));
        if (std::string(view) == "gates") CHECK(shows(" %"));
        // The per-token view prints few decimals: one changed token, the rest exactly 0.
        check_mirror_has_every_number(page.mirror(), what, std::string(view) == "perm" ? 1 : 6);
      }
}

// Nothing waits silently, a failing pack names its URL and offers the
// built-in one, and a link value that does not fit says so and is rewritten to what is shown.
TEST_CASE("live views: Cancel, then a view that needs more, says what is missing and loads it on request") {
  live_page lp;
  headless_page page("#v=1&view=gates&lang=en");
  lp.cancel_then_open(page, "view-perm");
  INFO(page.mirror());
  CHECK(contains(page.mirror(), "Loading was cancelled: this view still needs"));
  CHECK_FALSE(contains(page.mirror(), "exactly 0"));
  page.click("stream-retry");  // "Load it"
  lp.settle(page);
  CHECK_FALSE(contains(page.mirror(), "cancelled"));
  CHECK(contains(page.mirror(), "= exactly 0"));
}

TEST_CASE("live views: a pack that cannot be opened names its URL and offers the built-in pack") {
  for (const char* lang : {"en", "zh"}) {
    INFO(lang);
    live_page lp;
    headless_page page(std::string("#v=1&view=gates&pack=missing/folder/&lang=") + lang);
    lp.settle(page);
    INFO(page.mirror());
    CHECK(contains(page.mirror(), "missing/folder/"));
    CHECK(contains(page.mirror(), std::string(lang) == "en" ? "HTTP 404: not on the server" : "HTTP 404：服务器上没有这个文件"));
    page.click("stream-use-default");
    lp.settle(page);
    CHECK(page.url().state.pack.empty());
    CHECK(contains(page.mirror(), std::string(lang) == "en" ? "Layer 4: (live)" : "第 4 层：(实时)"));
  }
}

TEST_CASE("live views: link values that do not fit the pack become notices, and the link says what is shown") {
  live_page lp;
  headless_page page("#v=1&view=perm&layer=5&tok=99&htok=99&probe=5&perm=1,0&unit=999999&pl=999,0");
  lp.settle(page);
  const std::string notice = platform_native_notice();
  INFO(notice);
  for (const char* key : {"'layer'", "'tok'", "'htok'", "'probe'", "'perm'", "'unit'", "'pl'"}) CHECK(contains(notice, key));
  const lab_state s = page.url().state;
  CHECK(s.layer == 0);      // the pack's first layer
  CHECK(s.token == 5);      // the probe's last token
  CHECK(s.hist_token == -1);
  CHECK(s.probe == 0);
  CHECK(s.perm.empty());    // the lesson's order, as shown
  CHECK(s.unit == 169);     // the last unit of this pack's 170
  CHECK(s.pack_layers == std::vector<int64_t>{0});
  CHECK(contains(page.mirror(), "perm = [5, 3, 1, 0, 2, 4]"));
}

TEST_CASE("live views: the header's bytes move at most every LAB_PROGRESS_EVERY_S while a slow host trickles") {
  live_page lp;
  platform_native_fetch()->faults["layer-002-gate.q8"].trickle = 256;  // never finishes
  headless_page page("#v=1&view=gates&lang=en");
  uint64_t loaded = 0, shown = 0;
  int moves = 0, shown_moves = 0;
  for (int i = 0; i < 60; i++) {  // one second of frames, an answer of the host after each
    page.frame();
    platform_native_fetch()->deliver(page.now);
    const live_session& ls = page.app.live;
    REQUIRE(ls.source);
    const uint64_t now_loaded = ls.source->progress(-1).loaded;
    if (now_loaded != loaded) ++moves, loaded = now_loaded;
    if (ls.shown_loaded.shown != shown) ++shown_moves, shown = ls.shown_loaded.shown;
  }
  CHECK(moves >= 30);  // the bytes moved nearly every frame...
  CHECK(shown_moves >= 3);  // ...what the header and the mirror show, four times a second
  CHECK(shown_moves <= 5);
  CHECK(loaded - shown <= 256 * uint64_t(LAB_PROGRESS_EVERY_S * 60 + 2));  // and never far behind
}
