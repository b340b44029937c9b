// The live views as a student meets them, headless: numbers typed into sliders, no
// negative zero on screen, "precomputed" explained in view, scales on every plot, the SiLU
// minimum's label clear of the curves, Chinese line breaking, a phone's page that never pans.
#include "ui_harness.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "core/lesson/activations.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui_internal.h"  // the page window's sideways scroll range
#include "platform/native/fetch_native.h"
#include "ui/widgets.h"


// [SECTION] numbers a student sets can be typed (items 1 and 11)
TEST_CASE("liveux: a double click types into the threshold, token k and delta; a typed 0.125 is kept") {
  for (const char* lang : {"en", "zh"})
    for (float width : {1280.f, 390.f}) {
      INFO(lang << " at " << width);
      live_page tp;
      headless_page p(std::string("#v=1&view=gates&lang=") + lang, width, 844);  // a phone's 390 x 844: delta is on screen
      tp.settle(p);
      p.double_click("gates-threshold");
      p.type("0.125");
      CHECK(p.app.state.threshold == 0.125);
      CHECK(p.url().state.threshold == 0.125);
      CHECK(contains(platform_url_fragment(), "thr=0.125"));
      CHECK(p.shows(std::string("> 0.125") + tr_in(p.app.state.lang, STR_MIRROR_COLON)));  // "> 0.125: ", "> 0.125："

      lab_app_load_fragment(&p.app, std::string("#v=1&view=perm&layer=2&lang=") + lang);
      tp.settle(p);
      p.double_click("perm-token");
      p.type("4");
      CHECK(p.app.state.token == 4);
      p.double_click("perm-delta");
      p.type("-2.375");
      CHECK(p.app.state.delta == -2.375);
      CHECK(contains(platform_url_fragment(), "tok=4"));
      CHECK(contains(platform_url_fragment(), "delta=-2.375"));
    }
}

TEST_CASE("liveux: a double click starts typing from the value before its first click") {
  live_page tp;
  headless_page p("#v=1&view=gates&thr=0.2");
  tp.settle(p);
  item_rect r = p.rect("gates-threshold");
  // Near the slider's left end: a single click there would set about 0.
  p.click_at(r.x0 + 4, (r.y0 + r.y1) / 2);
  p.click_at(r.x0 + 4, (r.y0 + r.y1) / 2);
  REQUIRE(ImGui::GetIO().WantTextInput);
  p.press(KEY_ENTER);  // nothing typed: the value stays as it was
  p.frame();
  CHECK(p.app.state.threshold == 0.2);
}

// [SECTION] never a negative zero (item 10)
TEST_CASE("liveux: number formats never print a negative zero") {
  CHECK(fmt_fixed(-0.001, 2) == "0.00");
  CHECK(fmt_fixed(-0.0, 3) == "0.000");
  CHECK(fmt_fixed(-0.005001, 2) == "-0.01");
  CHECK(fmt_fixed(-1e-300, 6) == "0.000000");
  CHECK(fmt_fixed(-12.5, 1) == "-12.5");
  CHECK(fmt_percent(-1e-17) == "0.00 %");
  CHECK(fmt_percent(0.507312) == "50.73 %");
  CHECK(fmt_percent(-0.0001) == "-0.01 %");
  CHECK(fmt_short(-0.0) == "0");
}

TEST_CASE("liveux: thr=-1 (and a threshold of 0) prints no negative zero on screen") {
  static const std::regex negative_zero("-0(\\.0+)?(?![0-9.])");
  for (const char* link : {"#v=1&view=gates&thr=-1", "#v=1&view=gates&thr=0", "#v=1&view=gates&thr=0&lang=zh"}) {
    live_page tp;
    headless_page p(link);
    tp.settle(p);
    CHECK(p.app.state.threshold == 0);
    CHECK(p.shows(std::string("< 0") + tr_in(p.app.state.lang, STR_MIRROR_COLON)));
    for (const std::string& t : p.texts()) {
      INFO(link << ": \"" << t << "\"");
      CHECK_FALSE(std::regex_search(t, negative_zero));
    }
  }
}

// [SECTION] "precomputed" explained in view (item 14)
TEST_CASE("liveux: whenever a layer shows 'precomputed', what it means is printed on the page") {
  for (const char* lang : {"en", "zh"}) {
    live_page tp;
    headless_page p(std::string("#v=1&view=gates&lang=") + lang, 390, 844);
    const std::string label = tr(STR_LIVE_PRECOMPUTED), note = tr(STR_LIVE_PRECOMPUTED_NOTE);
    int frames_precomputed = 0;
    for (int i = 0; i < 200; i++) {
      p.frame();
      const bool shown = p.shows(label);
      if (shown) {
        ++frames_precomputed;
        INFO(lang << " frame " << i);
        CHECK(p.shows(note));
      }
      if (platform_native_fetch()->deliver(p.now) == 0 && i > 3 && !shown) break;
    }
    CHECK(frames_precomputed > 0);
  }
}

// [SECTION] scales on every plot (item 15)
static bool parses_as_number(const std::string& s, double* out) {
  std::string plain;
  for (char ch : s)
    if (ch != ',') plain += ch;
  char* end = nullptr;
  *out = std::strtod(plain.c_str(), &end);
  return !plain.empty() && end && *end == 0;
}

TEST_CASE("liveux: each histogram has a count axis and a labelled bar for 1.2 and above") {
  live_page tp;
  headless_page p("#v=1&view=gates");
  tp.settle(p);
  for (int layer : {0, 2, 4}) {
    INFO("layer " << layer);
    const item_record* bar = item_probe_get("gates-overflow-" + std::to_string(layer));
    REQUIRE(bar);
    const std::vector<std::string> labels = p.labels_near(bar->rect, 30);
    CHECK(std::count(labels.begin(), labels.end(), std::string("≥1.2")) == 1);
  }
  CHECK(p.shows(tr(STR_LIVEUX_COUNT)));
  // The count axis: 0 and evenly spaced round counts, for every layer.
  std::vector<double> counts;
  for (const item_record& r : item_probe_all()) {
    double v;
    if (r.name.rfind("label:", 0) == 0 && contains(r.name, ",") == false && parses_as_number(r.name.substr(6), &v) && v == std::floor(v) && v >= 0)
      counts.push_back(v);
  }
  CHECK(std::count(counts.begin(), counts.end(), 0.0) >= 3 + 3);  // each layer's count 0 and its x axis 0
  CHECK(std::count_if(counts.begin(), counts.end(), [](double v) { return v >= 10; }) >= 3);
}

TEST_CASE("liveux: the weights view has axes, a colour scale and value scales on its row plots") {
  for (float width : {1280.f, 390.f}) {
    INFO("at " << width);
    live_page tp;
    headless_page p("#v=1&view=weights&layer=2&unit=7", width, 2400);
    tp.settle(p);
    p.frame();
    const item_record* heat = item_probe_get("weights-heatmap");
    REQUIRE(heat);
    // W_gate of this pack is 170 x 60: the rows 0 and 169 and the columns 0 and 59 are marked at x1.
    std::vector<std::string> axes = p.labels_near(heat->rect, 40);
    for (const char* t : {"0", "169", "59"}) CHECK(std::count(axes.begin(), axes.end(), std::string(t)) >= 1);
    // The colour scale: -max, 0 and +max of the matrix's weights, as the shader maps them.
    const q8_matrix_view* gp = p.app.live.source->matrix(2, MLP_GATE);
    REQUIRE(gp);
    const q8_matrix_view& g = *gp;
    double max_abs = 0;
    for (int r = 0; r < g.rows; r++)
      for (int c = 0; c < g.cols; c++) max_abs = std::max(max_abs, std::fabs((double)q8_matrix_at(&g, r, c) * g.scales[r]));
    const item_record* legend = item_probe_get("weights-legend");
    REQUIRE(legend);
    const std::vector<std::string> scale = p.labels_near(legend->rect, 30);
    std::vector<double> values;
    for (const std::string& t : scale) {
      double v;
      if (parses_as_number(t, &v)) values.push_back(v);
    }
    REQUIRE(values.size() >= 3);
    CHECK(*std::max_element(values.begin(), values.end()) == Approx(max_abs).epsilon(0.005));
    CHECK(*std::min_element(values.begin(), values.end()) == Approx(-max_abs).epsilon(0.005));
    // The unit's gate row: its largest and smallest weight on the value axis.
    double hi = 0, lo = 0;
    for (int k = 0; k < g.cols; k++) {
      const double wk = (double)q8_matrix_at(&g, 7, k) * g.scales[7];
      hi = std::max(hi, wk), lo = std::min(lo, wk);
    }
    const item_record* plot = item_probe_get("weights-plot-gate");
    REQUIRE(plot);
    std::vector<double> ticks;
    for (const item_record& it : item_probe_all()) {  // the value axis: labels left of the plot
      double v;
      if (it.name.rfind("label:", 0) == 0 && it.rect.x1 <= plot->rect.x0 + 1 && it.rect.x0 >= plot->rect.x0 - 80 &&
          it.rect.y1 >= plot->rect.y0 - 20 && it.rect.y0 <= plot->rect.y1 + 20 && parses_as_number(it.name.substr(6), &v))
        ticks.push_back(v);
    }
    REQUIRE_FALSE(ticks.empty());
    CHECK(*std::max_element(ticks.begin(), ticks.end()) == Approx(hi).epsilon(0.005));
    CHECK(*std::min_element(ticks.begin(), ticks.end()) == Approx(lo).epsilon(0.005));
    for (const char* name : {"weights-plot-up", "weights-plot-down"}) CHECK(item_probe_get(name));
  }
}

// [SECTION] the SiLU minimum's label (item 16)
TEST_CASE("liveux: the SiLU minimum's label covers no curve, at any width, in both languages") {
  for (const char* lang : {"en", "zh"})
    for (float width : {1280.f, 390.f, 320.f}) {
      headless_page p(std::string("#v=1&view=silu&ov=sigmoid,gelu&lang=") + lang, width, 2000);
      const item_rect label = p.rect("silu-min-label"), plot = p.rect("plot");
      // The plot's frame as silu_panel.cpp lays it out: z in [-6, 6], values in [-1, 6.2].
      const float fs = ImGui::GetFontSize();
      const float x0 = plot.x0 + fs * 2, x1 = plot.x1 - fs * 0.5f, y0 = plot.y0 + fs * 0.5f, y1 = plot.y1 - fs * 1.5f;
      double (*curves[])(double) = {act_silu, act_relu, act_sigmoid, act_gelu};
      for (double (*fn)(double) : curves)
        for (double z = -6; z <= 6; z += 0.01) {
          const float x = x0 + float((z + 6) / 12) * (x1 - x0), y = y1 - float((fn(z) + 1) / 7.2) * (y1 - y0);
          INFO(lang << " at " << width << ": the curve at z = " << z << " runs under the label");
          CHECK_FALSE((x >= label.x0 - 2 && x <= label.x1 + 2 && y >= label.y0 - 2 && y <= label.y1 + 2));
        }
    }
}

// [SECTION] Chinese line breaking (item 17)
static std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  size_t a = 0;
  for (size_t b; (b = s.find('\n', a)) != std::string::npos; a = b + 1) out.push_back(s.substr(a, b - a));
  out.push_back(s.substr(a));
  return out;
}

// The rules, written out again for the test: code points, which are Chinese, which close or open.
static std::vector<std::string> chars_of(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}
static bool cjk_char(const std::string& ch) {
  static const std::string quotes = "‘’“”…";
  return (ch.size() == 3 && static_cast<unsigned char>(ch[0]) >= 0xE3) || contains(quotes, ch);
}
static bool closing_char(const std::string& ch) {
  static const std::vector<std::string> list = {"，", "。", "、", "；", "：", "！", "？", "）", "」", "』", "》", "】", "”", "’", "…",
                                                ",", ".", ";", ":", "!", "?", ")", "]", "}", "%"};
  return std::find(list.begin(), list.end(), ch) != list.end();
}
static bool opening_char(const std::string& ch) {
  static const std::vector<std::string> list = {"（", "「", "『", "《", "【", "“", "‘", "(", "[", "{"};
  return std::find(list.begin(), list.end(), ch) != list.end();
}
// What the next line starts with that no break may split: a word or one Chinese character, with
// the punctuation that clings to it.
static std::string first_piece(const std::string& line) {
  const std::vector<std::string> ch = chars_of(line);
  std::string out;
  size_t i = 0;
  while (i < ch.size() && opening_char(ch[i])) out += ch[i++];
  if (i < ch.size() && cjk_char(ch[i])) out += ch[i++];
  else
    while (i < ch.size() && ch[i] != " " && !cjk_char(ch[i])) out += ch[i++];
  // "100 %": a percentage's sign after its space clings to the number.
  if (i + 1 < ch.size() && ch[i] == " " && ch[i + 1] == "%" && !out.empty() && out.back() >= '0' && out.back() <= '9') out += ch[i++];
  while (i < ch.size() && closing_char(ch[i])) out += ch[i++];
  return out;
}

TEST_CASE("liveux: lines never break inside a number or a word, never start with closing punctuation, and are full") {
  headless_page p("#v=1&view=hand&lang=zh");  // fonts loaded
  ImGui::NewFrame();
  std::vector<std::string> texts = {
      "SiLU 的最小值：SiLU(-1.278465) = -0.278465。SiLU 在 z ≈ -1.278 处最低。",
      "权重包：qwen3.5-0.8b（合成权重，不是训练过的模型），每个 token 打开了多少个中间单元？",
      "A plain English sentence with 0.000000 and 1.924234 in it, broken at spaces only."};
  // Every Chinese string, its printf arguments filled in as the page fills them (numbers).
  for (int i = 0; i < STR_COUNT; i++) {
    std::string t = tr_in(LAB_LANG_ZH, str_id(i));
    for (size_t at; (at = t.find("%s")) != std::string::npos;) t.replace(at, 2, "-0.278465");
    for (size_t at; (at = t.find("%d")) != std::string::npos;) t.replace(at, 2, "3584");
    texts.push_back(t);
  }
  static const std::regex word("[0-9A-Za-z][^\\s\\x80-\\xff]*|-[0-9][^\\s\\x80-\\xff]*");
  for (const std::string& t : texts)
    for (float width = 90; width <= 420; width += 11) {
      const std::string broken = widget_break_lines(t, width);
      const std::vector<std::string> lines = lines_of(broken);
      INFO("\"" << t << "\" at " << width << " px:\n" << broken);
      for (size_t i = 0; i < lines.size(); i++) {
        const std::string& line = lines[i];
        CHECK(ImGui::CalcTextSize(line.c_str()).x <= width);
        if (i > 0 && !line.empty()) CHECK_FALSE(closing_char(chars_of(line)[0]));
        // (Narrower than any phone's line, a bracketed number may leave its opening bracket at a
        // line's end rather than be cut.)
        if (!line.empty() && width >= 200) CHECK_FALSE((i + 1 < lines.size() && opening_char(chars_of(line).back())));
        // Full: the next line's first piece would not have fitted on this one.
        // (Below 150 px a number with its brackets may be wider than a line and be cut: skipped.)
        if (width >= 150 && i + 1 < lines.size() && !lines[i + 1].empty() && !contains(t, line + "\n")) {
          const std::string first = first_piece(lines[i + 1]);
          const std::string joined = line + (contains(t, line + " " + first) ? " " : "") + first;
          CHECK(ImGui::CalcTextSize(joined.c_str()).x > width - 1);
        }
      }
      // Every number and Latin word narrower than a line comes out whole on one line.
      for (std::sregex_iterator m(t.begin(), t.end(), word), end; m != end; ++m) {
        const std::string w = m->str();
        if (ImGui::CalcTextSize(w.c_str()).x + ImGui::GetFontSize() * 2 > width) continue;  // with its brackets too wide
        bool whole = false;
        for (const std::string& line : lines) whole |= contains(line, w);
        CHECK(whole);
      }
    }
  ImGui::EndFrame();
}

// [SECTION] the per-token view never pans sideways on a phone (item 5)
TEST_CASE("liveux: the per-token view fits a phone's width: nothing to pan sideways") {
  for (const char* lang : {"en", "zh"})
    for (float width : {390.f, 1280.f}) {
      live_page tp;
      headless_page p(std::string("#v=1&view=perm&layer=2&lang=") + lang, width, 844);
      tp.settle(p);
      INFO(lang << " at " << width);
      ImGuiWindow* root = nullptr;
      for (ImGuiWindow* w : GImGui->Windows)
        if (!w->ParentWindow && w->Active && !(w->Flags & ImGuiWindowFlags_Tooltip)) root = w;
      REQUIRE(root);
      for (const item_record& it : item_probe_all()) {
        INFO("\"" << it.name << it.text << "\" ends at x " << it.rect.x1);
        CHECK(it.rect.x1 <= root->InnerRect.Max.x + 0.5f);
      }
      CHECK(root->ScrollMax.x == 0);
      CHECK(root->ContentSize.x <= root->InnerRect.GetWidth());
    }
}
