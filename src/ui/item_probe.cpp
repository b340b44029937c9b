// Named widget rectangles and their reachability, for tests (see item_probe.h).
#include "ui/item_probe.h"

#include <cstdio>

#include "imgui.h"
#include "imgui_internal.h"  // windows' scroll ranges and inner rectangles, the table column

static std::vector<item_record> g_frame, g_last;

// Moves [a, b] into [lo, hi] by a scroll change d in [-scroll, scroll_max - scroll] (the content
// moves by -d). Returns false if no scroll shows all of it; otherwise shifts a and b.
static bool fit_axis(float* a, float* b, float lo, float hi, float scroll, float scroll_max) {
  const float slack = 1.0f;  // rounding of pixel positions
  float need_lo = *b - hi, need_hi = *a - lo;  // d must lie in [need_lo, need_hi]
  float d_lo = ImMax(need_lo, -scroll), d_hi = ImMin(need_hi, scroll_max - scroll);
  if (d_lo > d_hi + slack) return false;
  float d = ImClamp(0.0f, d_lo, ImMax(d_lo, d_hi));
  *a -= d, *b -= d;
  return true;
}

static bool is_reachable(ImRect r) {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* window = g.CurrentWindow;
  // A table cell clips its text to the column: a number wider than its column is cut.
  if (ImGuiTable* table = g.CurrentTable) {
    if (table->InnerWindow == window && table->IsInsideRow && table->CurrentColumn >= 0) {
      const ImGuiTableColumn& col = table->Columns[table->CurrentColumn];
      if (r.Min.x < col.MinX - 1 || r.Max.x > col.MaxX + 1) return false;
    }
  }
  for (ImGuiWindow* w = window; w; w = w->ParentWindow) {
    bool root = w->ParentWindow == nullptr;
    // The page never pans sideways (nothing would show that it can): at the root, x must fit as is.
    // Elsewhere only a scroll with a visible scrollbar counts: a hidden one shows nobody anything.
    bool pans = !root && w->ScrollbarX, scrolls = w->ScrollbarY;
    if (root && w->Scroll.x != 0) return false;
    if (!fit_axis(&r.Min.x, &r.Max.x, w->InnerRect.Min.x, w->InnerRect.Max.x, pans ? w->Scroll.x : 0, pans ? w->ScrollMax.x : 0)) return false;
    if (!fit_axis(&r.Min.y, &r.Max.y, w->InnerRect.Min.y, w->InnerRect.Max.y, scrolls ? w->Scroll.y : 0, scrolls ? w->ScrollMax.y : 0)) return false;
  }
  return true;
}

static void record(const char* name, const std::string& text, ImVec2 a, ImVec2 b, ImGuiID id) {
  if (GImGui->CurrentWindow->SkipItems) return;  // a box out of view draws nothing: no rectangle to judge
  bool reachable = is_reachable(ImRect(a, b));
  g_frame.push_back(item_record{name, text, item_rect{a.x, a.y, b.x, b.y}, reachable, id});
}

void item_probe(const char* name) {
  record(name, "", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetItemID());
}

void item_probe(const char* name, const std::string& label) {
  record(name, label, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ImGui::GetItemID());
}

void item_probe_text(const std::string& text) {
  record("", text, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), 0);
}

void item_probe_shape(const char* name, float x0, float y0, float x1, float y1) {
  record(name, "", ImVec2(x0, y0), ImVec2(x1, y1), 0);
}

const item_record* item_probe_get(const std::string& name) {
  const std::vector<item_record>& all = g_last.empty() ? g_frame : g_last;
  for (size_t i = all.size(); i-- > 0;)
    if (all[i].name == name) return &all[i];
  return nullptr;
}

bool item_probe_find(const std::string& name, item_rect* out) {
  const item_record* r = item_probe_get(name);
  if (r) *out = r->rect;
  return r != nullptr;
}

const std::vector<item_record>& item_probe_all() { return g_last; }

static std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += char(c);
  }
  return out + "\"";
}

std::string item_probe_json() {
  std::string out = "[";
  char buf[160];
  for (const item_record& r : g_last) {
    std::snprintf(buf, sizeof buf, ",\"x0\":%.1f,\"y0\":%.1f,\"x1\":%.1f,\"y1\":%.1f,\"reachable\":%s}",
                  r.rect.x0, r.rect.y0, r.rect.x1, r.rect.y1, r.reachable ? "true" : "false");
    out += (out.size() > 1 ? ",{" : "{") + std::string("\"name\":") + json_string(r.name) +
           ",\"text\":" + json_string(r.text) + buf;
  }
  return out + "]";
}

void item_probe_clear() { g_frame.clear(); }
void item_probe_end_frame() { g_last.swap(g_frame); }
