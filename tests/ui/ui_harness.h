// The page's panels, driven headless through Dear ImGui with no renderer: clicks on named widgets
// (item_probe), keys, URL edits, and what lands in the URL, the text mirror and the notice.
// Shared by the ui_tests files, one per job: interaction, links, reachability and the mirror,
// keyboard, live views.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/url_state.h"
#include "imgui.h"
#include "platform/native/platform_native.h"
#include "ui/app.h"
#include "ui/item_probe.h"
#include "core/pack/pack_stats.h"
#include "core/io/byte_source.h"

// DOM keyCodes, as the browser backend maps them
enum { KEY_BACKSPACE = 8, KEY_TAB = 9, KEY_ENTER = 13, KEY_SHIFT = 16, KEY_SPACE = 32, KEY_LEFT = 37, KEY_RIGHT = 39 };
static const double FRAME_SECONDS = 1.0 / 60;

struct headless_page {
  lab_app app;
  double now = 100.0;

  // Each page starts with empty storage (a browser that never saw the lab) unless asked not to.
  explicit headless_page(const std::string& fragment, float width = 1280, float height = 800,
                         bool keep_storage = false);
  ~headless_page();

  void frame(double seconds = FRAME_SECONDS);
  void click(const char* name);
  void press(int key);
  // In a field being typed into: clears it and types `text` (Enter still to come).
  void retype(const char* text);
  url_decoded url() const { return url_decode(platform_url_fragment()); }
  const std::string& mirror() const { return platform_native_mirror(); }
};

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

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
// The same for a label drawn onto a figure (widget_text_at: a record named "label:TEXT").
bool shows_label(const std::string& part);

struct screen { float w, h; };
static const screen SCREENS[] = {{390, 844}, {1280, 800}};

// [SECTION] the text mirror holds every number on screen
// Every number a view prints, integers included (a layer, a token position, "Step 3 of 5"), must
// be in #lab-text as printed, and the numbers of one printed text together on one line of it in
// the same order: "layer 0" on screen and "layer 2" in the mirror is a failure even though the
// mirror holds a 0 elsewhere. Static hints of the string table are not data.
void check_mirror_has_every_number(const std::string& mirror, const std::string& what, int at_least = 6);
// The same over records a test kept itself (a page driver of its own).
void check_mirror_has_every_number(const std::vector<item_record>& seen, const std::string& mirror,
                                   const std::string& what, int at_least);
// The numbers of a text in the order printed: "-0.268941", "264,241,152", "50.73", "2"; digits
// inside a word ("int8", "Qwen3.5-0.8B", "x2") are not numbers.
std::vector<std::string> printed_numbers(const std::string& text);
