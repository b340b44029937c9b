// The whole-model views on a projector (ui=present, 1920×1080), headless: the type grows as on
// the other views and stays grown when the page's fonts are rebuilt for the model's tokens; the
// real model's offer and Clear wait under "Explore freely", which is there only when they do.
#include "ui_model_site.h"

#include "core/base/strings.h"
#include "ui/app.h"

namespace {

// A text drawn in the last frame, and its rectangle.
const item_record* drawn(const std::string& part) {
  for (const item_record& r : item_probe_all())
    if (r.name.empty() && contains(r.text, part)) return &r;
  return nullptr;
}

}  // namespace

TEST_CASE("ui=present on the rule book and the flow: the type grows (also once a font arrives), no offer or Clear until Explore freely") {
  model_site site;
  for (const char* view : {"rules", "flow"})
    for (lab_lang l : {LAB_LANG_EN, LAB_LANG_ZH}) {
      INFO(view << " " << lang_name(l));
      const std::string link = std::string("#v=1&view=") + view + "&lang=" + lang_name(l);
      const std::string intro = tr_in(l, std::string(view) == "rules" ? STR_RULES_INTRO : STR_FLOW_INTRO);
      float normal_line = 0;
      {
        headless_page page(link, 1920, 1080);
        REQUIRE(model_answered(page));
        REQUIRE(drawn(intro));
        normal_line = ImGui::GetFontSize();
        CHECK(page.rect("model-offer-whole").x0 >= 0);
      }
      headless_page page(link + "&ui=present", 1920, 1080);
      REQUIRE(model_answered(page));
      REQUIRE(lab_app_presenting(&page.app));
      CHECK(ImGui::GetFontSize() == Approx(normal_line * LAB_PRESENT_TYPE_SCALE));
      // The web page rebuilds its fonts when the model's tokens need glyphs it lacked: the
      // projector's type stays large.
      page.rebuild_fonts();
      for (int i = 0; i < 3; i++) page.frame();
      CHECK(ImGui::GetFontSize() == Approx(normal_line * LAB_PRESENT_TYPE_SCALE));
      REQUIRE(drawn(intro));
      // The downloads and the cache are not the class's business: under Explore freely.
      scroll_through(page, "present");
      CHECK_FALSE(has_widget("model-offer-whole"));
      CHECK_FALSE(has_widget("cache-clear"));
      CHECK_FALSE(shows(tr_in(l, STR_MODEL_OFFER_NOTE)));
      CHECK(shows(tr_in(l, STR_MODEL_SYNTHETIC)));  // what the model is stays said
      REQUIRE(has_widget("path-explore"));
      page.click("path-explore");
      page.frame();
      CHECK(item_probe_get("model-offer-whole"));
      CHECK_FALSE(item_probe_get("path-explore"));
      CHECK(page.url().state.ui == LAB_UI_PRESENT);
    }
}

TEST_CASE("ui=present: no Explore freely where nothing waits under it (a checkpoint of its own, no cache)") {
  mem_files files;
  for (const auto& f : synth_model_planted_make()) files.files["copy/" + f.first] = f.second;
  native_fetch* net = platform_native_fetch();
  *net = native_fetch();
  net->files = &files;
  net->base = "";
  platform_native_model_reset();
  for (const char* view : {"rules", "flow"}) {
    INFO(view);
    headless_page page(std::string("#v=1&view=") + view + "&model=copy/&ui=present&lang=en", 1920, 1080);
    REQUIRE(model_answered(page));
    REQUIRE(lab_app_presenting(&page.app));
    net->cache_clear("");  // (the checkpoint's bytes were kept: Clear would wait there)
    for (int i = 0; i < 3; i++) page.frame();
    scroll_through(page, "present, own checkpoint");
    CHECK_FALSE(has_widget("model-offer-whole"));
    CHECK_FALSE(has_widget("cache-clear"));
    CHECK_FALSE(has_widget("path-explore"));
    CHECK(has_widget("view-hand"));  // no path: the view buttons are how the teacher moves
  }
}
