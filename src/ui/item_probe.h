// Where named widgets and numbers were drawn last frame, and whether a person can bring each one
// fully into view, so tests can click them as a person would and check that nothing is cut off
// (the browser tests through window.labItemRect / window.labItems, the native tests directly).
// Positions are in CSS pixels, the coordinates a mouse event carries.
#pragma once

#include <string>
#include <vector>

struct item_rect { float x0, y0, x1, y1; };

struct item_record {
  std::string name;  // a widget's test name, or "" for a text the page printed
  std::string text;  // the printed text (numbers), or "" for a widget
  item_rect rect;
  // True when scrolling that shows it is one (the page up and down, a sideways strip with its
  // scrollbar and hint) brings the whole rectangle into view: not cut by a table cell, a box or
  // the screen's edge. The page itself never pans sideways.
  bool reachable;
  unsigned id;       // ImGui item id (0 for texts and shapes)
};

// Records the item just submitted under `name`.
void item_probe(const char* name);
// The same for a control whose label holds numbers ("Clear cache (2.4 MiB)"): recorded with its
// label, so the tests' "every number on screen is in the mirror" covers it.
void item_probe(const char* name, const std::string& label);
// Records a text the page printed (called by widget_text for every printed text).
void item_probe_text(const std::string& text);
// Records a shape or label drawn straight onto the draw list, in screen coordinates.
void item_probe_shape(const char* name, float x0, float y0, float x1, float y1);

// False if no item of that name was drawn in the last frame.
bool item_probe_find(const std::string& name, item_rect* out);
const item_record* item_probe_get(const std::string& name);
// Every record of the last frame, in drawing order.
const std::vector<item_record>& item_probe_all();
// The same as JSON, for the browser tests: [{"name":..,"text":..,"x0":..,"reachable":true}, ...]
std::string item_probe_json();
// Starts a frame's records; the previous frame's stay readable until item_probe_end_frame().
void item_probe_clear();
void item_probe_end_frame();
