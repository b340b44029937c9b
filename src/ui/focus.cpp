// Keyboard focus for the whole page (see focus.h).
#include "ui/focus.h"

#include <string>
#include <vector>

#define IMGUI_DEFINE_MATH_OPERATORS  // ImVec2 arithmetic from imgui_internal.h

#include "imgui.h"
#include "imgui_internal.h"
#include "ui/item_probe.h"

static const ImU32 FOCUS_COLOR = IM_COL32(200, 70, 0, 255);  // the focus mark: strong, not the palette's blue or orange fill
static const float FOCUS_THICKNESS = 3.0f;

struct focus_item {
  ImGuiID id;
  ImGuiWindow* window;
  ImRect rect;        // screen coordinates when drawn
  ImVec2 in_window;   // top-left in its window's content coordinates (scroll included)
  float page_y;       // top in the page's content coordinates, for ordering kept items
  bool inputable;     // a number or text field: Enter/Space starts typing
};

struct focus_state {
  std::vector<focus_item> frame, last;  // this frame's widgets, and the last complete list
  ImGuiID pending;                      // focus to apply after NewFrame
  bool keyboard;                        // the mark is shown (the user tabbed, no click since)
  int tab_pressed, activate_pressed;    // -1/+1 for Shift-Tab/Tab; 1 press Enter/Space
  std::string move_to;                  // focus_move_to's control, until it is drawn
  int move_frames;                      // frames left to find it
};
static focus_state g_focus;

// [SECTION] the item hook (ImGui calls it for every widget with an id)
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, const ImRect& bb, ImGuiID id) {
  // ImGui also reports scrollbars and resize grips (from ButtonBehavior, not ItemAdd): not controls.
  if (ctx->LastItemData.ID != id) return;
  const ImGuiItemFlags flags = ctx->LastItemData.InFlags;
  if (flags & (ImGuiItemFlags_Disabled | ImGuiItemFlags_NoNav | ImGuiItemFlags_NoTabStop)) return;
  if (ctx->CurrentTable && (ctx->CurrentTable->RowFlags & ImGuiTableRowFlags_Headers)) return;  // column headers
  ImGuiWindow* w = ctx->CurrentWindow;
  ImGuiWindow* root = w->RootWindow;
  // Boxes inside the page scroll sideways only, so the page's scroll places every item vertically.
  float page_y = bb.Min.y - root->Pos.y + root->Scroll.y;
  g_focus.frame.push_back(focus_item{id, w, bb, bb.Min - w->Pos + w->Scroll, page_y, (flags & ImGuiItemFlags_Inputable) != 0});
}
void ImGuiTestEngineHook_ItemInfo(ImGuiContext*, ImGuiID, const char*, ImGuiItemStatusFlags) {}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }

// [SECTION] keys
static bool take_key(ImGuiIO& io, ImGuiKey key) {
  int k = io.KeyMap[key];
  if (k < 0 || !io.KeysDown[k]) return false;
  io.KeysDown[k] = false;  // ImGui never sees it: its own tabbing stays out of the way
  return true;
}

static int find(const std::vector<focus_item>& list, ImGuiID id) {
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].id == id) return int(i);
  return -1;
}

static void scroll_into_view(const focus_item& it) {
  ImGuiWindow* w = it.window;
  ImVec2 size = it.rect.GetSize();
  if (w->ParentWindow) {  // a sideways strip or a box: bring the item in horizontally
    float view = w->InnerRect.GetWidth() - w->WindowPadding.x * 2;
    float left = it.in_window.x - w->WindowPadding.x;
    if (left < w->Scroll.x || left + size.x > w->Scroll.x + view) ImGui::SetScrollX(w, ImMax(0.0f, left - view * 0.3f));
  }
  ImGuiWindow* root = w->RootWindow;
  float view = root->InnerRect.GetHeight();
  if (it.page_y < root->Scroll.y + size.y || it.page_y + size.y > root->Scroll.y + view - size.y)
    ImGui::SetScrollY(root, ImMax(0.0f, it.page_y - view * 0.35f));
}

static void on_new_frame_pre(ImGuiContext* ctx, ImGuiContextHook*) {
  ImGuiIO& io = ctx->IO;
  if (io.MouseClicked[0] || io.MouseDown[0]) g_focus.keyboard = false;  // a click or tap takes over
  bool typing = io.WantTextInput;
  if (take_key(io, ImGuiKey_Tab) && !io.KeyCtrl && !io.KeyAlt) g_focus.tab_pressed = io.KeyShift ? -1 : 1;
  if (!typing && g_focus.keyboard && ctx->NavId && ctx->ActiveId == 0) {
    bool space = take_key(io, ImGuiKey_Space), enter = take_key(io, ImGuiKey_Enter);
    if (space || enter) {
      int i = find(g_focus.last, ctx->NavId);
      bool field = i >= 0 && g_focus.last[i].inputable;
      // ImGui's activation: "Activate" presses, "Input" starts typing into a field.
      io.NavInputs[field ? ImGuiNavInput_Input : ImGuiNavInput_Activate] = 1.0f;
    }
  }
}

static void focus_set(const focus_item& it) {
  if (GImGui->ActiveId) ImGui::ClearActiveID();  // leaving a field being typed into keeps its value
  ImGui::SetFocusID(it.id, it.window);
  ImGui::FocusWindow(it.window);
  scroll_into_view(it);
  g_focus.keyboard = true;
}

void focus_move_to(const char* name) {
  if (!g_focus.keyboard) return;  // a click or tap: no mark to keep
  g_focus.move_to = name;
  g_focus.move_frames = 4;
}

// The last frame's records (item_probe) name the control; its id finds it in the last list.
static void apply_move_to() {
  if (g_focus.move_to.empty()) return;
  const item_record* r = item_probe_get(g_focus.move_to);
  const int i = r ? find(g_focus.last, r->id) : -1;
  if (i >= 0) focus_set(g_focus.last[size_t(i)]);
  if (i >= 0 || --g_focus.move_frames <= 0) g_focus.move_to.clear();
}

static void on_new_frame_post(ImGuiContext* ctx, ImGuiContextHook*) {
  apply_move_to();
  int dir = g_focus.tab_pressed;
  g_focus.tab_pressed = 0;
  const std::vector<focus_item>& list = g_focus.last;
  if (dir && !list.empty()) {
    int i = g_focus.keyboard ? find(list, ctx->NavId) : -1;
    int n = int(list.size());
    int next = i < 0 ? (dir > 0 ? 0 : n - 1) : (i + dir + n) % n;
    focus_set(list[size_t(next)]);
  }
  // ImGui's navigation is off (the arrows are the lesson's), which hides its highlight each
  // frame; while the keyboard leads, show it (and let Enter/Space act on it).
  if (g_focus.keyboard && ctx->NavId) ctx->NavDisableHighlight = false;
  g_focus.frame.clear();
}

static void on_end_frame_pre(ImGuiContext* ctx, ImGuiContextHook*) {
  std::vector<focus_item>& now = g_focus.frame;
  // A child window's own nav entry is not a control.
  for (ImGuiWindow* w : ctx->Windows)
    for (size_t i = 0; i < now.size(); ++i)
      if (w->ChildId == now[i].id && (w->Flags & ImGuiWindowFlags_ChildWindow)) now.erase(now.begin() + long(i--));
  // A box scrolled out of view draws nothing this frame: keep its controls from the last list,
  // in page order, so Tab still reaches them (and scrolls them into view).
  for (const focus_item& old : g_focus.last) {
    bool skipped = old.window->Active && old.window->SkipItems;  // drawn this frame, but hidden
    if (!skipped || find(now, old.id) >= 0) continue;
    size_t at = 0;
    while (at < now.size() && now[at].page_y <= old.page_y) ++at;
    now.insert(now.begin() + long(at), old);
  }
  // The focus mark, above everything, clipped to the control's window.
  if (g_focus.keyboard && ctx->NavId) {
    int i = find(now, ctx->NavId);
    if (i >= 0 && !now[size_t(i)].window->SkipItems) {
      const focus_item& it = now[size_t(i)];
      ImDrawList* dl = ImGui::GetForegroundDrawList();
      dl->PushClipRect(it.window->InnerClipRect.Min, it.window->InnerClipRect.Max, false);
      dl->AddRect(it.rect.Min - ImVec2(3, 3), it.rect.Max + ImVec2(3, 3), FOCUS_COLOR, 5.0f, 0, FOCUS_THICKNESS);
      dl->PopClipRect();
    }
  }
  g_focus.last = now;
}

static void add_hook(ImGuiContext* ctx, ImGuiContextHookType type, ImGuiContextHookCallback fn) {
  ImGuiContextHook hook;
  hook.Type = type;
  hook.Callback = fn;
  ImGui::AddContextHook(ctx, &hook);
}

void focus_install() {
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  for (const ImGuiContextHook& h : ctx->Hooks)
    if (h.Callback == on_new_frame_pre) return;
  g_focus = focus_state{};
  ctx->TestEngineHookItems = true;
  add_hook(ctx, ImGuiContextHookType_NewFramePre, on_new_frame_pre);
  add_hook(ctx, ImGuiContextHookType_NewFramePost, on_new_frame_post);
  add_hook(ctx, ImGuiContextHookType_EndFramePre, on_end_frame_pre);
}

unsigned focus_current_id() {
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  return g_focus.keyboard && ctx ? ctx->NavId : 0;
}

std::string focus_current_name() {
  unsigned id = focus_current_id();
  int i = find(g_focus.last, id);
  if (!id || i < 0) return "";
  const ImRect r = g_focus.last[size_t(i)].rect;
  std::string inside;
  for (const item_record& rec : item_probe_all()) {
    if (rec.name.empty()) continue;
    if (rec.id == id) return rec.name;
    if (r.Min.x >= rec.rect.x0 - 1 && r.Min.y >= rec.rect.y0 - 1 && r.Max.x <= rec.rect.x1 + 1 && r.Max.y <= rec.rect.y1 + 1)
      inside = rec.name;
  }
  return inside;
}
