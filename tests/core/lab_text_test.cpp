// The text mirror: what a screen reader (and the browser test) reads for each view.
#include <catch2/catch.hpp>

#include "core/views/lab_text.h"
#include "core/base/strings.h"

static bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Each of `lines` is a whole line of the mirror.
static void check_lines(const std::string& t, std::initializer_list<const char*> lines) {
  for (const char* line : lines) {
    INFO(line);
    CHECK(contains("\n" + t, std::string("\n") + line + "\n"));
  }
}

TEST_CASE("hand view, last step: u, a, g, z and y to 6 decimals") {
  std::string t = lab_text(lab_state_default());
  INFO(t);
  CHECK(contains(t, "u = [1.000000, 2.000000, 3.000000, -1.000000]"));
  CHECK(contains(t, "a = [-1.000000, 0.000000, 1.000000, 2.000000]"));
  CHECK(contains(t, "g = [-0.268941, 0.000000, 0.731059, 1.761594]"));
  CHECK(contains(t, "z = [-0.268941, 0.000000, 2.193176, -1.761594]"));
  CHECK(contains(t, "y = [1.924234, -1.761594]"));
  CHECK(contains(t, "y₁ = 1×(-0.268941) + 0×0.000000 + 1×2.193176 + 0×(-1.761594) = 1.924234"));
}

TEST_CASE("hand view shows only the steps computed so far") {
  lab_state s = lab_state_default();
  s.step = 2;
  std::string t = lab_text(s);
  INFO(t);
  CHECK(contains(t, "a₄ = 0×1 + 1×2 = 2.000000"));
  CHECK(contains(t, "u = ["));
  CHECK_FALSE(contains(t, "g = [-0.268941"));
  CHECK_FALSE(contains(t, "y = ["));
  s.step = 0;
  CHECK_FALSE(contains(lab_text(s), "u = ["));
}

TEST_CASE("silu view: the probe and the minimum") {
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_SILU;
  s.probe_z = -1;
  std::string t = lab_text(s);
  INFO(t);
  CHECK(contains(t, "SiLU(z) = -0.268941"));
  CHECK(contains(t, "ReLU(z) = 0.000000"));
  CHECK(contains(t, "SiLU(-1.278465) = -0.278465"));
  // The sentences under the readout, as on the page.
  check_lines(t, {"At z = -1 (negative), ReLU gives exactly 0 while SiLU still lets -0.268941 through.",
                  "SiLU's minimum: SiLU(-1.278465) = -0.278465. At the minimum, silu(z) = z + 1."});
  s.probe_z = 2.5;
  s.show_gelu = true;
  check_lines(lab_text(s), {"z = 2.500000", "GELU(z) = 2.484476", "At z = 2.5, SiLU is close to z itself, a little below ReLU."});
}

TEST_CASE("a view's row as the mirror prints it: label, note, cells in the language's punctuation") {
  view_row r{"Layer 0", "live", {{"> 0.1", "50.73 %"}, {"< -0.1", "3.20 %"}, {"", "7"}}};
  CHECK(view_row_line(r) == "Layer 0: (live) > 0.1: 50.73 %, < -0.1: 3.20 %, 7");
  CHECK(view_row_line(view_row{"Layer 2", "waiting for data", {}}) == "Layer 2: waiting for data");
  CHECK(view_row_line(view_row{"", "", {{"P", "18.6 %"}}}) == "P: 18.6 %");
  strings_set_lang(LAB_LANG_ZH);
  CHECK(view_row_line(r) == "Layer 0：(live) > 0.1：50.73 %，< -0.1：3.20 %，7");
  strings_set_lang(LAB_LANG_EN);
}

TEST_CASE("budget view: every row per layer and for all layers; one layer; billions") {
  lab_state s = lab_state_default();
  s.view = LAB_VIEW_BUDGET;
  std::string t = lab_text(s);
  INFO(t);
  // Every row of the page's table, per layer and for all layers.
  check_lines(t, {"classic FFN, 4h (f = 4096): 8,388,608 (8.39M) per layer (8 h²), all 24 layers: 201,326,592",
                  "SwiGLU, 8/3 h (f = 2731): 8,389,632 (8.39M) per layer, all 24 layers: 201,351,168",
                  "SwiGLU, f (f = 3584): 11,010,048 (11.01M) per layer, all 24 layers: 264,241,152",
                  "10.50 h², 131.25% of the classic budget"});
  s.hidden = 4096;
  s.intermediate = 1;
  CHECK(contains(lab_text(s), "0.000732 h², 0.00916% of the classic budget"));
  s.hidden = 65536, s.intermediate = 262144, s.layers = 1;  // one layer; billions, not 51539.61M
  t = lab_text(s);
  CHECK(contains(t, "51,539,607,552 (51.54B) per layer, the 1 layer: 51,539,607,552"));
  CHECK_FALSE(contains(t, "all 1 layers"));
}

TEST_CASE("every string has both languages, and the mirror follows the state's language") {
  for (int i = 0; i < STR_COUNT; ++i) {
    INFO(i);
    CHECK(std::string(tr_in(LAB_LANG_EN, str_id(i))).size() > 0);
    CHECK(std::string(tr_in(LAB_LANG_ZH, str_id(i))).size() > 0);
  }
  lab_state s = lab_state_default();
  s.lang = LAB_LANG_ZH;
  CHECK(contains(lab_text(s), "手算"));
  CHECK(contains(lab_text(s), "y = [1.924234, -1.761594]"));
}

TEST_CASE("a notice names the key and quotes the value as text") {
  url_notice n{URL_MALFORMED, "x", "<b>abc</b>", ""};
  std::string t = lab_notice_text(n);
  CHECK(contains(t, "'x'"));
  CHECK(contains(t, "<b>abc</b>"));
}

TEST_CASE("a notice quotes at most 60 bytes of a long value, cut between characters") {
  std::string value(59, 'a');
  value += "\xE4\xB8\xAD" + std::string(1000, 'b');  // a 3-byte character straddles the cut
  std::string t = lab_notice_text(url_notice{URL_MALFORMED, "x", value, ""});
  CHECK(contains(t, std::string(59, 'a') + "…'"));
  CHECK(t.size() < 200);
}

TEST_CASE("hand mirror: the weights and both follow-ups, whatever the step") {
  lab_state s = lab_state_default();
  s.step = 0;
  std::string t = lab_text(s);
  INFO(t);
  check_lines(t, {"W_up = [1, 0; 0, 1; 1, 1; 1, -1]", "W_gate = [-1, 0; 0, 0; 1, 0; 0, 1]",
                  "W_down = [1, 0, 1, 0; 0, 1, 0, 1]",
                  "x₁ = 1, x₂ = 1: u = 1.000000, silu(a) = 0.731059, u·silu(a) / silu(1) = 1.000000",
                  "x₁ = 1, x₂ = 0: u = 1.000000, silu(a) = 0.000000, u·silu(a) / silu(1) = 0.000000",
                  "g = [1, 1, 1, 1]:  y(x) = [4.000000, 1.000000]   y(2x) = [8.000000, 2.000000]",
                  "g = silu(a):  y(x) = [1.924234, -1.761594]   y(2x) = [10.092753, -7.856110]"});
}

TEST_CASE("the Chinese mirror reads as Chinese: Chinese punctuation and step titles") {
  lab_state s = lab_state_default();
  s.lang = LAB_LANG_ZH;
  std::string t = lab_text(s);
  INFO(t);
  CHECK(contains(t, "手算。第 5 步，共 5 步：下投影（down）：y = W_down z"));
  CHECK(contains(t, "数值：\n"));
  CHECK_FALSE(contains(t, "手算. "));
  CHECK_FALSE(contains(t, "down 投影"));
  s.view = LAB_VIEW_SILU;
  CHECK(contains(lab_text(s), "SiLU 与 ReLU。\n"));
  s.view = LAB_VIEW_BUDGET;
  s.layers = 1;
  CHECK(contains(lab_text(s), "仅 1 层：11,010,048"));
}
