// The QR code of the link (ui/qr_panel.cpp): the top bar's button shows the page's own address as a
// code over the page, the mirror says what is shown, Close / Escape / a tap outside the card close
// it, a projector gets it nearly as tall as the screen, and a link too long for a code says so.
// (tests/core/qr_code_test.cpp reads the codes back with zbarimg; tests/browser/qr_tests.mjs the
// page's own drawing.)
#include "ui_harness.h"

#include "core/link/qr_code.h"
#include "core/link/qr_text.h"
#include "core/base/number_format.h"

static const int KEY_ESCAPE = 27;  // DOM keyCode, as the browser backend maps it

// A link of `length` bytes, as the page writes it: the view's link with a sentence and its pieces
// in Chinese (9 bytes of link a character, percent-encoded), then a pack path padded to the byte
// (a hand view opens no pack).
static std::string fragment_of_length(const std::string& base, size_t length) {
  const size_t head = std::string("http://127.0.0.1:8080/#").size();  // the native twin's address (platform_native.cpp)
  std::string text, pieces, pad = "p";
  const auto fragment = [&] { return base + "&text=" + text + "&pieces=" + pieces + "&pack=packs/" + pad + "/"; };
  const auto size = [&] { return head + url_encode(url_decode(fragment()).state).size(); };
  while (size() + 9 <= length && text.size() + 3 <= LAB_TEXT_MAX) text += "中";
  while (size() + 9 <= length && pieces.size() + 3 <= LAB_TEXT_MAX) pieces += "文";
  if (size() < length) pad += std::string(length - size(), 'a');
  REQUIRE(size() == length);
  return fragment();
}

static bool qr_shown(const headless_page&) {  // in the last frame the page drew
  item_rect r;
  return item_probe_find("qr-image", &r);
}

TEST_CASE("qr ui: the button shows the page's own link, and the mirror says what is shown") {
  headless_page page("#v=1&view=budget&h=2048&f=5504&layers=32");
  CHECK_FALSE(contains(page.mirror(), "QR code"));
  page.click("qr-code");
  REQUIRE(qr_shown(page));
  const qr_code want = qr_encode_text(platform_page_url());
  REQUIRE(want.status == QR_OK);
  CHECK(page.app.qr.code.dark == want.dark);  // the address, module for module
  const std::string size = fmt_count(want.size);
  CHECK(contains(page.mirror(), "Scan to open this view\n"));
  CHECK(contains(page.mirror(), strf("QR code of this link: version %d, %s × %s modules, error correction M, ",
                                     want.version, size.c_str(), size.c_str())));
  // Black on white, quiet zone included, a whole number of device pixels a module, on screen.
  const item_rect r = page.rect("qr-image");
  const float module = page.app.qr.px_per_module;
  CHECK(module >= 4);
  CHECK(r.x1 - r.x0 == Approx(module * float(want.size + 2 * QR_QUIET_ZONE)));
  CHECK(r.y1 - r.y0 == Approx(r.x1 - r.x0));
  CHECK((r.x0 >= 0 && r.y0 >= 0 && r.x1 <= 1280 && r.y1 <= 800));
  CHECK(contains(page.mirror(), strf("error correction M, %s px a module", fmt_sig3(module).c_str())));
  // Every number beside the code is in the mirror, on one line, in order.
  scroll_through(page, "qr open");
  check_mirror_has_every_number(page.mirror(), "qr open", 4);

  page.click("qr-close");
  CHECK_FALSE(qr_shown(page));
  CHECK_FALSE(contains(page.mirror(), "QR code"));
}

TEST_CASE("qr ui: Escape and a tap outside the card close it; a tap on the code does not") {
  headless_page page("#v=1&view=hand&step=3");
  ImGui::GetIO().KeyMap[ImGuiKey_Escape] = KEY_ESCAPE;
  page.click("qr-code");
  REQUIRE(qr_shown(page));
  // The keys belong to the code while it shows: the arrows do not step the lesson under it.
  page.press(KEY_LEFT);
  CHECK(page.app.state.step == 3);
  page.press(KEY_ESCAPE);
  CHECK_FALSE(qr_shown(page));
  page.press(KEY_LEFT);
  CHECK(page.app.state.step == 2);

  page.click("qr-code");
  const item_rect code = page.rect("qr-image"), card = page.rect("qr-card");
  page.click_at((code.x0 + code.x1) / 2, (code.y0 + code.y1) / 2);
  page.frame();
  CHECK(qr_shown(page));
  REQUIRE(card.x0 > 10);
  page.click_at(card.x0 / 2, (card.y0 + card.y1) / 2);
  page.frame();
  CHECK_FALSE(qr_shown(page));
  CHECK(page.app.state.step == 2);  // the tap closed the code and did nothing under it
}

TEST_CASE("qr ui: on a projector (ui=present, 1920 x 1080) the lesson's link takes nearly the whole height") {
  headless_page page(fragment_of_length("#v=1&view=hand&ui=present", 1500), 1920, 1080);
  REQUIRE(platform_page_url().size() == 1500);
  item_rect copy;
  CHECK_FALSE(item_probe_find("copy-link", &copy));  // a projector shows no link to copy, but its code
  page.click("qr-code");
  REQUIRE(qr_shown(page));
  const item_rect r = page.rect("qr-image");
  // As large as fits: a whole number of pixels a module, and one more would not fit the height.
  const float modules = float(page.app.qr.code.size + 2 * QR_QUIET_ZONE), px = page.app.qr.px_per_module;
  CHECK(px == float(int(px)));
  CHECK((r.y1 - r.y0 >= 0.85f * 1080 && (px + 1) * modules > 1080));
  CHECK(page.app.qr.code.version == 28);
  CHECK(page.app.qr.px_per_module >= 6);  // the aim for the back of a classroom
  const item_rect close = page.rect("qr-close");
  CHECK((close.x1 <= 1920 && close.y1 <= 1080 && close.x0 >= r.x1));  // beside the code, on screen
}

TEST_CASE("qr ui: a phone gets the code across its width and says it is small; Chinese words") {
  headless_page page(fragment_of_length("#v=1&view=hand&lang=zh", 1500), 390, 844);
  page.click("qr-code");
  REQUIRE(qr_shown(page));
  const item_rect r = page.rect("qr-image");
  const float modules = float(page.app.qr.code.size + 2 * QR_QUIET_ZONE), px = page.app.qr.px_per_module;
  CHECK((r.x0 >= 0 && r.x1 <= 390 && (px + 1) * modules > 390));  // as wide as fits
  CHECK(contains(page.mirror(), "扫码打开这个视图"));
  CHECK(contains(page.mirror(), "这个链接的二维码：版本 28，"));
  CHECK(contains(page.mirror(), "离得远时很难扫出来"));  // under QR_SMALL_PX a module on a 390 px screen
  const item_rect close = page.rect("qr-close");
  CHECK((close.y0 >= r.y1 && close.y1 <= 844));  // under the code, on screen
}

TEST_CASE("qr ui: a link too long for any QR code says so, and draws none") {
  headless_page page(fragment_of_length("#v=1&view=hand", QR_MAX_BYTES + 47), 1280, 800);
  page.click("qr-code");
  CHECK_FALSE(qr_shown(page));
  CHECK(contains(page.mirror(), strf("This link is too long for a QR code: %s bytes, and a QR code holds at most 2,953.",
                                     fmt_count(QR_MAX_BYTES + 47).c_str())));
  page.click("qr-close");
  CHECK_FALSE(contains(page.mirror(), "too long for a QR code"));
}
