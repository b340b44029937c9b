// The address as the page's state: URL edits, malformed keys and their notice, copy link, and the
// bare address bringing back the last view.
#include "ui_harness.h"

TEST_CASE("a URL edit (hashchange) restores exactly that view") {
  headless_page page("");
  lab_app_load_fragment(&page.app, "#v=1&view=hand&x=2,-1&step=1");
  page.frame();
  CHECK(page.app.state.x[0] == 2);
  CHECK(contains(page.mirror(), "u = [2.000000, -1.000000, 1.000000, 3.000000]"));
  CHECK(page.url().state.x[1] == -1);
}

TEST_CASE("a malformed key shows a notice, keeps the rest, and can be dismissed") {
  headless_page page("#v=1&view=hand&x=1,oops&step=2");
  CHECK(contains(platform_native_notice(), "'x'"));
  CHECK(contains(platform_native_notice(), "oops"));
  CHECK(page.app.state.step == 2);
  CHECK(page.app.state.x[1] == 2);
  page.click("dismiss");
  CHECK(platform_native_notice().empty());
}

TEST_CASE("copy link puts the full address with the view on the clipboard") {
  headless_page page("#view=budget&h=2048");
  page.click("copy-link");
  CHECK(contains(platform_native_clipboard(), "view=budget"));
  CHECK(contains(platform_native_clipboard(), "h=2048"));
}

TEST_CASE("the bare address brings back the last view; a link always wins") {
  {
    headless_page page("#view=silu&z=2.5");
  }
  {
    headless_page bare("", 1280, 800, /*keep_storage=*/true);
    CHECK(bare.app.state.view == LAB_VIEW_SILU);
    CHECK(bare.app.state.probe_z == 2.5);
  }
  headless_page linked("#view=budget");
  CHECK(linked.app.state.view == LAB_VIEW_BUDGET);
}
