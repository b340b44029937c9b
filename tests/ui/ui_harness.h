// The one page driver of the ui_tests: the page's panels, driven headless through Dear ImGui with
// no renderer: clicks, taps and double clicks on named widgets (item_probe), keys, typing, URL
// edits, the live views on a pack streamed through the fetch twin, and what lands in the URL, the
// text mirror, the notice and on screen. Shared by the ui_tests files, one per job: interaction,
// links, reachability and the mirror, keyboard, live views, the lesson, the early text.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/io/byte_source.h"
#include "core/pack/pack_stats.h"
#include "core/link/url_state.h"
#include "imgui.h"
#include "platform/native/platform_native.h"
#include "ui/app.h"
#include "ui/item_probe.h"

// DOM keyCodes, as the browser backend maps them
enum { KEY_BACKSPACE = 8, KEY_TAB = 9, KEY_ENTER = 13, KEY_SHIFT = 16, KEY_SPACE = 32, KEY_PAGEUP = 33, KEY_PAGEDOWN = 34,
       KEY_END = 35, KEY_HOME = 36, KEY_LEFT = 37, KEY_UP = 38, KEY_RIGHT = 39, KEY_DOWN = 40 };
static const double FRAME_SECONDS = 1.0 / 60;

struct headless_page {
  lab_app app;
  double now = 100.0;

  // Each page starts with empty storage (a browser that never saw the lab: no last view, no quiz
  // progress) unless asked to keep it, as a reload does.
  explicit headless_page(const std::string& fragment, float width = 1280, float height = 800,
                         bool keep_storage = false);
  ~headless_page();
  headless_page(const headless_page&) = delete;
  headless_page& operator=(const headless_page&) = delete;

  void frame(double seconds = FRAME_SECONDS);
  // The frames a page draws until its boxes know their sizes (after opening or a new link).
  void settle();
  // A new link in the same page (hashchange), then settle().
  void open(const std::string& fragment);
  // The fonts built anew, as the web platform does when a font the page lacked arrives (the whole
  // model's tokens): a new atlas, and io.FontGlobalScale the fonts' own again.
  void rebuild_fonts();

  // Where the named widget was drawn in the last frame (REQUIREs it).
  item_rect rect(const char* name) const;
  // The mouse at (x, y): down, up.
  void click_at(float x, float y);
  // Scrolls the page until the named widget is on screen, as a student would, and clicks its centre.
  void click(const char* name);
  void double_click(const char* name);
  void press(int key, bool alt = false);
  // Presses Tab (Shift+Tab if `back`) until `name` has the focus; false after `limit` presses.
  bool tab_to(const char* name, bool back = false, int limit = 80);
  // In a field being typed into: deletes up to `clear` characters and types `text` (no Enter).
  void retype(const char* text, int clear = 12);
  // The same, then Enter.
  void type(const char* text, int clear = 12);

  url_decoded url() const { return url_decode(platform_url_fragment()); }
  const std::string& mirror() const { return platform_native_mirror(); }
  // Every text drawn in the last frame, and the labels drawn onto plots.
  std::vector<std::string> texts() const;
  bool shows(const std::string& part) const;
  // Labels drawn within `pad` of a rectangle (an axis belongs to its plot).
  std::vector<std::string> labels_near(const item_rect& r, float pad) const;
};

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
// A string of the table in `l`, up to its first %s: what a page says before the values it fills in.
std::string before_args(str_id id, lab_lang l);
// The control with the keyboard focus mark ("" if none).
std::string focused_name();

// [SECTION] the live views on a pack streamed through the fetch twin
struct live_page {
  mem_files pack;
  live_page();
  // The manifest of the pack the page opened.
  const pack_manifest& manifest(const headless_page& page) const;
  // Frames and network answers until nothing is left in flight.
  void settle(headless_page& page);
  // The manifest answered, the first blobs asked for, then Cancel and a view that needs more.
  void cancel_then_open(headless_page& page, const char* view_button);
};

// [SECTION] every number and control reachable, on a phone and on a laptop
// What a student cannot bring into view, by scrolling the page or a sideways strip that says it
// scrolls, does not exist for them: each printed text and named widget must be reachable.
// ImGui skips what is scrolled out of view, so the page is scrolled from top to bottom, as a
// student would, and every frame's records are checked and kept.
void scroll_through(headless_page& page, const std::string& what);
// True if a reachable printed text seen by the last scroll_through contains `part`.
bool shows(const std::string& part);
// True if the last scroll_through saw the named widget, reachable.
bool has_widget(const std::string& name);
// Every record the last scroll_through saw, in order.
const std::vector<item_record>& seen_records();
// The same as shows() for a label drawn onto a figure (widget_text_at: a record named "label:TEXT").
bool shows_label(const std::string& part);

struct screen { float w, h; };
static const screen SCREENS[] = {{390, 844}, {1280, 800}};

// [SECTION] the text mirror holds every number on screen
// Every number a view prints, integers included (a layer, a token position, "Step 3 of 5"), must
// be in #lab-text as printed, and the numbers of one printed text together on one line of it in
// the same order: "layer 0" on screen and "layer 2" in the mirror is a failure even though the
// mirror holds a 0 elsewhere. Static hints of the string table are not data.
void check_mirror_has_every_number(const std::string& mirror, const std::string& what, int at_least = 6);
// The numbers of a text in the order printed: "-0.268941", "264,241,152", "50.73", "2"; digits
// inside a word ("int8", "Qwen3.5-0.8B", "x2") are not numbers.
std::vector<std::string> printed_numbers(const std::string& text);
