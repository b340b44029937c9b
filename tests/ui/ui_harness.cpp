// The shared driver of the ui_tests: a headless page (ImGui with no renderer, the native platform
// twin), the pack for the live views, the scroll-through reachability check and the mirror check.
#include "ui_harness.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

#include "core/pack/pack_build.h"
#include "core/base/strings.h"
#include "imgui_internal.h"  // the page window's scroll, as a student's swipe would set it
#include "packs/pack_test_util.h"
#include "core/source/pack_source.h"
#include "platform/native/fetch_native.h"
#include "ui/focus.h"
#include "ui/page_style.h"

void lab_imgui_assert_failed(const char* expr, const char* file, int line) {
  throw std::runtime_error(std::string("ImGui assertion failed: ") + expr + " at " + file + ":" + std::to_string(line));
}

// The page's own fonts (Debian's files that the web build cuts down), so text here is as wide as
// in the browser and "is every number on screen" means the same thing.
static std::vector<char> font_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(std::string("missing font ") + path + " (tools/setup.sh installs it)");
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
static const std::vector<char> LATIN_FONT = font_file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
static const std::vector<char> CJK_FONT = font_file("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc");

headless_page::headless_page(const std::string& fragment, float width, float height, bool keep_storage) {
  if (!keep_storage)
    for (const char* key : {"swiglu-lab.last-view", "swiglu-lab.quiz"}) platform_storage_set(key, "");
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(width, height);
  const int keys[][2] = {{ImGuiKey_LeftArrow, KEY_LEFT}, {ImGuiKey_RightArrow, KEY_RIGHT}, {ImGuiKey_UpArrow, KEY_UP},
                         {ImGuiKey_DownArrow, KEY_DOWN}, {ImGuiKey_PageUp, KEY_PAGEUP},   {ImGuiKey_PageDown, KEY_PAGEDOWN},
                         {ImGuiKey_Home, KEY_HOME},      {ImGuiKey_End, KEY_END},         {ImGuiKey_Backspace, KEY_BACKSPACE},
                         {ImGuiKey_Tab, KEY_TAB},        {ImGuiKey_Enter, KEY_ENTER},     {ImGuiKey_Space, KEY_SPACE}};
  for (const auto& k : keys) io.KeyMap[k[0]] = k[1];
  lab_style_apply();
  rebuild_fonts();
  platform_native_set_fragment(fragment);
  lab_app_init(&app);
  settle();
}
headless_page::~headless_page() {
  lab_app_free(&app);
  ImGui::DestroyContext();
}

void headless_page::rebuild_fonts() {
  lab_fonts_add(LATIN_FONT.data(), int(LATIN_FONT.size()), CJK_FONT.data(), int(CJK_FONT.size()), 1.0f,
                lab_string_table_cjk_ranges());  // the whole font: the characters the page is cut to
  unsigned char* pixels;
  int w, h;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
}

void headless_page::frame(double seconds) {
  ImGui::GetIO().DeltaTime = float(seconds);
  now += seconds;
  ImGui::NewFrame();
  lab_app_frame(&app, now);
  ImGui::Render();
}

void headless_page::settle() {
  frame();
  for (int i = 0; i < 10 && app.layout_settling; ++i) frame();  // boxes learn their sizes
  frame();
}

void headless_page::open(const std::string& fragment) {
  lab_app_load_fragment(&app, fragment);
  settle();
}

item_rect headless_page::rect(const char* name) const {
  item_rect r;
  INFO("widget " << name);
  REQUIRE(item_probe_find(name, &r));
  return r;
}

void headless_page::click_at(float x, float y) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(x, y);
  frame();
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
}

void headless_page::click(const char* name) {
  item_rect r = rect(name);
  const ImGuiIO& io = ImGui::GetIO();
  if (r.y0 < 0 || r.y1 > io.DisplaySize.y) {
    ImGuiWindow* root = ImGui::FindWindowByName("SwiGLU Lab");
    REQUIRE(root);
    ImGui::SetScrollY(root, root->Scroll.y + r.y0 - io.DisplaySize.y * 0.4f);
    for (int i = 0; i < 4; ++i) frame();  // the page learns its height a frame late
    r = rect(name);
  }
  click_at((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
  frame();  // what the click changed, drawn and mirrored
}

// As a person does before tapping it: the page scrolled until the widget is on screen (on a phone
// the gates view's figure comes before its threshold).
void headless_page::double_click(const char* name) {
  ImGuiWindow* root = ImGui::FindWindowByName("SwiGLU Lab");
  const float h = ImGui::GetIO().DisplaySize.y;
  for (int i = 0; i < 8 && root; i++) {
    const item_rect on = rect(name);
    if (on.y0 >= 0 && on.y1 <= h) break;
    ImGui::SetScrollY(root, std::max(0.0f, root->Scroll.y + (on.y0 + on.y1) / 2 - h / 2));
    frame();
    frame();
  }
  const item_rect r = rect(name);
  click_at((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
  click_at((r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2);
}

void headless_page::press(int key, bool alt) {
  ImGuiIO& io = ImGui::GetIO();
  io.KeyAlt = alt;
  io.KeysDown[key] = true;
  frame();
  io.KeysDown[key] = false;
  frame();
  io.KeyAlt = false;
}

std::string focused_name() { return focus_current_id() ? focus_current_name() : ""; }

bool headless_page::tab_to(const char* name, bool back, int limit) {
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < limit; ++i) {
    if (focused_name() == name) return true;
    io.KeyShift = back;
    press(KEY_TAB);
    io.KeyShift = false;
  }
  return focused_name() == name;
}

void headless_page::retype(const char* text, int clear) {
  REQUIRE(ImGui::GetIO().WantTextInput);
  for (int i = 0; i < clear; ++i) press(KEY_BACKSPACE);
  ImGui::GetIO().AddInputCharactersUTF8(text);
  frame();
}

void headless_page::type(const char* text, int clear) {
  retype(text, clear);
  press(KEY_ENTER);
  frame();
}

std::vector<std::string> headless_page::texts() const {
  std::vector<std::string> out;
  for (const item_record& r : item_probe_all()) {
    if (!r.text.empty()) out.push_back(r.text);
    if (r.name.rfind("label:", 0) == 0) out.push_back(r.name.substr(6));
  }
  return out;
}

bool headless_page::shows(const std::string& part) const {
  for (const std::string& t : texts())
    if (contains(t, part)) return true;
  return false;
}

std::vector<std::string> headless_page::labels_near(const item_rect& r, float pad) const {
  std::vector<std::string> out;
  for (const item_record& it : item_probe_all())
    if (it.name.rfind("label:", 0) == 0 && it.rect.x1 >= r.x0 - pad && it.rect.x0 <= r.x1 + pad &&
        it.rect.y1 >= r.y0 - pad && it.rect.y0 <= r.y1 + pad)
      out.push_back(it.name.substr(6));
  return out;
}

// [SECTION] the live views on a pack streamed through the fetch twin
live_page::live_page() {
  mem_files ckf = pack_test_checkpoint(pack_test_spec(SYNTH_NAMING_QWEN35, ST_DTYPE_BF16, 1));
  std::string err;
  REQUIRE(pack_test_build(ckf, {0, 2, 4}, {pack_test_lesson_probe("lesson")}, &pack, &err));
  native_fetch* net = platform_native_fetch();
  *net = native_fetch();
  net->files = &pack;
  net->base = "packs/default/";
}

const pack_manifest& live_page::manifest(const headless_page& page) const {
  return static_cast<const pack_source*>(page.app.live.source.get())->manifest();
}

void live_page::cancel_then_open(headless_page& page, const char* view_button) {
  page.frame();  // the manifest is asked for
  platform_native_fetch()->deliver(page.now);
  page.frame();  // inputs and precomputed results start
  page.click("stream-cancel");
  page.click(view_button);
  settle(page);
}

void live_page::settle(headless_page& page) {
  for (int i = 0; i < 200; i++) {
    page.frame();
    if (platform_native_fetch()->deliver(page.now) == 0 && i > 3) break;
  }
  page.frame();
}

// [SECTION] every number and control reachable, on a phone and on a laptop
static std::vector<item_record> g_seen;

void scroll_through(headless_page& page, const std::string& what) {
  g_seen.clear();
  ImGuiWindow* root = ImGui::FindWindowByName("SwiGLU Lab");
  REQUIRE(root);
  for (int i = 0; i < 3; ++i) page.frame();  // boxes learn their heights
  for (float y = 0;; y += ImGui::GetIO().DisplaySize.y * 0.5f) {
    ImGui::SetScrollY(root, y);
    page.frame();
    page.frame();
    for (int i = 0; i < 10 && page.app.layout_settling; ++i) page.frame();  // as the browser draws on
    page.frame();  // the page window learns its new content height one frame late
    for (const item_record& r : item_probe_all()) {
      INFO(what << " scrolled to " << y << ": '" << r.name << r.text << "' at x " << r.rect.x0 << ".." << r.rect.x1
                << ", y " << r.rect.y0 << ".." << r.rect.y1);
      if (!r.reachable) CHECK(r.reachable);  // one line per failure, not one per record
      // A named control's label is the one on screen last (a label that counts a filling cache moves
      // while the test scrolls; the mirror is read after).
      if (!r.name.empty() && !r.text.empty())
        g_seen.erase(std::remove_if(g_seen.begin(), g_seen.end(), [&](const item_record& o) { return o.name == r.name; }),
                     g_seen.end());
      g_seen.push_back(r);
    }
    if (y >= root->ScrollMax.y) break;
  }
  ImGui::SetScrollY(root, 0);
  page.frame();
}

bool shows(const std::string& part) {
  for (const item_record& r : g_seen)
    if (r.reachable && contains(r.text, part)) return true;
  return false;
}

const std::vector<item_record>& seen_records() { return g_seen; }

bool shows_label(const std::string& part) {
  for (const item_record& r : g_seen)
    if (r.reachable && r.name.rfind("label:", 0) == 0 && contains(r.name, part)) return true;
  return false;
}

std::string before_args(str_id id, lab_lang l) {
  const std::string s = tr_in(l, id);
  return s.substr(0, s.find("%s"));
}

bool has_widget(const std::string& name) {
  for (const item_record& r : g_seen)
    if (r.name == name) return r.reachable;
  return false;
}

// [SECTION] the text mirror holds every number on screen
static bool is_table_string(const std::string& text) {
  for (int i = 0; i < STR_COUNT; ++i)
    if (text == tr(str_id(i))) return true;
  return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_word(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.'; }

std::vector<std::string> printed_numbers(const std::string& t) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.size();) {
    if (!is_digit(t[i]) && !(t[i] == '-' && i + 1 < t.size() && is_digit(t[i + 1]))) {
      i++;
      continue;
    }
    const size_t start = i;
    i += t[i] == '-';
    while (i < t.size() && is_digit(t[i])) i++;
    while (i + 3 < t.size() && t[i] == ',' && is_digit(t[i + 1]) && is_digit(t[i + 2]) && is_digit(t[i + 3]) &&
           (i + 4 == t.size() || !is_digit(t[i + 4])))
      i += 4;  // thousands: "264,241,152"
    if (i + 1 < t.size() && t[i] == '.' && is_digit(t[i + 1]))
      for (i++; i < t.size() && is_digit(t[i]);) i++;
    // Part of a word is not a number: "int8", "bf16", "Qwen3.5-0.8B", "layer-011-gate.q8".
    if (start == 0 || !is_word(t[start - 1])) out.push_back(t.substr(start, i - start));
  }
  return out;
}

// True when `numbers` occur in this order among the numbers of one line of `mirror`.
static bool on_one_line_in_order(const std::vector<std::string>& numbers, const std::string& mirror) {
  size_t start = 0;
  while (start <= mirror.size()) {
    size_t end = mirror.find('\n', start);
    if (end == std::string::npos) end = mirror.size();
    const std::vector<std::string> line = printed_numbers(mirror.substr(start, end - start));
    size_t k = 0;
    for (size_t i = 0; i < line.size() && k < numbers.size(); ++i) k += line[i] == numbers[k];
    if (k == numbers.size()) return true;
    start = end + 1;
  }
  return false;
}

void check_mirror_has_every_number(const std::string& mirror, const std::string& what, int at_least) {
  int checked = 0;
  for (const item_record& r : g_seen) {
    if (r.text.empty() || is_table_string(r.text)) continue;
    const std::vector<std::string> numbers = printed_numbers(r.text);
    if (numbers.empty()) continue;
    INFO(what << ": the numbers of \"" << r.text << "\" are not on one line of the mirror in this order:\n" << mirror);
    CHECK(on_one_line_in_order(numbers, mirror));
    checked += (int)numbers.size();
  }
  CHECK(checked >= at_least);
}
