// Named widget rectangles for tests (see item_probe.h).
#include "ui/item_probe.h"

#include <map>

#include "imgui.h"

static std::map<std::string, item_rect> g_rects;

void item_probe(const char* name) {
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  g_rects[name] = item_rect{a.x, a.y, b.x, b.y};
}

bool item_probe_find(const std::string& name, item_rect* out) {
  auto it = g_rects.find(name);
  if (it == g_rects.end()) return false;
  *out = it->second;
  return true;
}

void item_probe_clear() { g_rects.clear(); }
