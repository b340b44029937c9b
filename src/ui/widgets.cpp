// Panel drawing helpers (see widgets.h).
#include "ui/widgets.h"

#include <cstdarg>
#include <cstdio>

#include "core/link/lab_state.h"
#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "imgui_internal.h"  // the current window's rectangles, scroll and move handle
#include "ui/item_probe.h"

bool widget_edit_cell(const char* id, double* value, ImU32 background) {
  if (background) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, background);
  ImGui::SetNextItemWidth(-FLT_MIN);
  const double lo = -LAB_VALUE_LIMIT, hi = LAB_VALUE_LIMIT;
  // On a projector the numbers are shown, not edited: no field frame (it still takes a drag).
  if (widget_present()) ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
  bool changed = ImGui::DragScalar(id, ImGuiDataType_Double, value, 0.01f, &lo, &hi, "%g",
                                   ImGuiSliderFlags_AlwaysClamp);
  if (widget_present()) ImGui::PopStyleColor();
  if (changed && *value == 0) *value = 0;  // no "-0" in links
  return changed;
}

void widget_value_cell(const double* value, ImU32 background) {
  if (background) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, background);
  if (value) widget_text(fmt6(*value));
  else ImGui::TextDisabled("·");
}

ImU32 widget_tone_color(view_tone tone) {
  switch (tone) {
    case TONE_PLAIN: break;
    case TONE_MUTED: return ImGui::GetColorU32(ImGuiCol_TextDisabled);
    case TONE_MARKED: return COLOR_WRITE;
    case TONE_SILU: return COLOR_SILU;
    case TONE_RELU: return COLOR_RELU;
    case TONE_SIGMOID: return COLOR_SIGMOID;
    case TONE_GELU: return COLOR_GELU;
    case TONE_OPEN: return COLOR_GATE;
    case TONE_LIVE: return COLOR_LIVE;
    case TONE_PRECOMPUTED: return COLOR_PRECOMPUTED;
  }
  return ImGui::GetColorU32(ImGuiCol_Text);
}

void widget_same_line_if_fits(float next_width) {
  float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  float spacing = ImGui::GetStyle().ItemSpacing.x;
  if (ImGui::GetItemRectMax().x + spacing + next_width <= right_edge) ImGui::SameLine();
}

float widget_button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

float widget_checkbox_width(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

void widget_text(const std::string& text) {
  ImGui::TextUnformatted(text.c_str(), text.c_str() + text.size());
  item_probe_text(text);
}

void widget_text_colored(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  widget_text(text);
  ImGui::PopStyleColor();
}

void widget_text_disabled(const std::string& text) {
  widget_text_colored(ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
}

void widget_text_wrapped_disabled(const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetColorU32(ImGuiCol_TextDisabled));
  widget_text_wrapped(text);
  ImGui::PopStyleColor();
}

// The right edge of what a person sees, in screen coordinates: the window's visible inner edge
// (its scrollbar's room kept free so the layout does not jump), or a table cell's edge.
static float visible_right_abs() {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  float right = w->Pos.x + w->Size.x - w->WindowPadding.x - ImGui::GetStyle().ScrollbarSize;
  if (w->ParentWindow) right = w->Pos.x + w->Size.x - w->WindowPadding.x;  // boxes: their scrollbar, if any, is below
  return ImMin(right, ImGui::GetContentRegionMaxAbs().x);
}

float widget_visible_width() { return visible_right_abs() - ImGui::GetCursorScreenPos().x; }

// [SECTION] line breaking
// A code point and its length in bytes (invalid bytes count as one character of their own).
static unsigned utf8_at(const std::string& s, size_t i, size_t* len) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (i + size_t(n) > s.size()) n = 1;
  unsigned cp = n == 1 ? c : c & (0x7F >> n);
  for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + size_t(k)]) & 0x3F);
  *len = size_t(n);
  return cp;
}

// Chinese (and other East Asian) characters and full-width punctuation: a line may break
// between any two of them, and between one of them and a Latin word.
static bool is_cjk(unsigned c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) || c == 0x2018 || c == 0x2019 ||
         c == 0x201C || c == 0x201D || c == 0x2026;
}

// No line starts with these (closing punctuation), and none ends with the openers below.
static bool is_closing(unsigned c) {
  switch (c) {
    case 0x3001: case 0x3002: case 0xFF0C: case 0xFF0E: case 0xFF1A: case 0xFF1B: case 0xFF01: case 0xFF1F:
    case 0xFF09: case 0x3009: case 0x300B: case 0x300D: case 0x300F: case 0x3011: case 0x3015: case 0xFF3D:
    case 0xFF5D: case 0x201D: case 0x2019: case 0x2026: case 0x30FC: case 0xFF05:
    case ',': case '.': case ';': case ':': case '!': case '?': case ')': case ']': case '}': case '%':
      return true;
    default:
      return false;
  }
}
static bool is_opening(unsigned c) {
  switch (c) {
    case 0xFF08: case 0x3008: case 0x300A: case 0x300C: case 0x300E: case 0x3010: case 0x3014: case 0xFF3B:
    case 0xFF5B: case 0x201C: case 0x2018: case '(': case '[': case '{':
      return true;
    default:
      return false;
  }
}

// The pieces a line never breaks inside: a Latin word or number (a run without spaces), one
// Chinese character, each with the punctuation that must stay with it. `sep` is where the
// spaces before it begin (sep == begin: no space, the break is between two characters).
struct line_atom { size_t sep, begin, end; };

static std::vector<line_atom> line_atoms(const std::string& s, size_t from, size_t to, bool keep_openers = true,
                                         const std::vector<widget_line>* glued = nullptr) {
  std::vector<line_atom> atoms;
  bool space_before = true;  // the paragraph's start acts as a space: a new atom
  size_t sep = from;
  unsigned prev = 0, last = 0;  // the character before, and the last one that was not a space
  size_t g = 0;  // the next glued range that may hold i
  for (size_t i = from, len = 0; i < to; i += len) {
    unsigned c = utf8_at(s, i, &len);
    // Inside a glued range (a marked term), nothing breaks: not at a space, not between characters.
    while (glued && g < glued->size() && (*glued)[g].end <= i) ++g;
    if (glued && g < glued->size() && (*glued)[g].begin < i && !atoms.empty()) {
      atoms.back().end = i + len;
      space_before = false;
      prev = c;
      if (c != ' ') last = c;
      continue;
    }
    if (c == ' ') {
      if (!space_before) sep = i;
      space_before = true;
      prev = c;
      continue;
    }
    // The page writes a percentage with a space, "20.9 %": its sign never starts a line.
    if (c == '%' && space_before && !atoms.empty() && last >= '0' && last <= '9') {
      atoms.back().end = i + len;
      space_before = false;
      prev = last = c;
      continue;
    }
    bool cjk = is_cjk(c), prev_cjk = is_cjk(prev);
    // Joins the atom before it: a Latin run goes on; nothing breaks before closing or after
    // opening punctuation.
    bool join = !space_before && !atoms.empty() && ((!cjk && !prev_cjk) || is_closing(c) || (keep_openers && is_opening(prev)));
    if (join) {
      atoms.back().end = i + len;
    } else {
      atoms.push_back(line_atom{space_before ? sep : i, i, i + len});
    }
    space_before = false;
    prev = last = c;
  }
  return atoms;
}

static float text_width(const std::string& s, size_t a, size_t b) { return ImGui::CalcTextSize(s.c_str() + a, s.c_str() + b).x; }

std::vector<widget_line> widget_line_ranges(const std::string& text, float width, const std::vector<widget_line>* glued) {
  std::vector<widget_line> lines;
  for (size_t para = 0; para <= text.size();) {
    size_t stop = text.find('\n', para);
    if (stop == std::string::npos) stop = text.size();
    // The line being filled is always one piece of the text: [lb, le).
    size_t lb = para, le = para;
    bool first = true;
    std::vector<line_atom> atoms = line_atoms(text, para, stop, true, glued);
    for (size_t ai = 0; ai < atoms.size(); ai++) {
      const line_atom a = atoms[ai];
      // A bracketed number wider than a line ("（v=-0.278465）："): its opening bracket may end a
      // line rather than the number be cut.
      if (text_width(text, a.begin, a.end) > width) {
        std::vector<line_atom> parts = line_atoms(text, a.begin, a.end, false);
        if (parts.size() > 1) {
          parts[0].sep = a.sep;
          atoms.erase(atoms.begin() + long(ai));
          atoms.insert(atoms.begin() + long(ai), parts.begin(), parts.end());
          ai--;
          continue;
        }
      }
      // The first atom of a paragraph keeps its indent; later ones their spaces (atoms follow
      // each other, so the line grows to the atom's end), unless they start a line.
      const bool empty = first;
      first = false;
      if (empty || text_width(text, lb, a.end) <= width) {
        le = a.end;
      } else {
        lines.push_back(widget_line{lb, le});
        lb = a.begin, le = a.end;
      }
      // A word wider than a whole line: broken between characters, as a last resort.
      while (text_width(text, lb, le) > width) {
        size_t cut = lb, len = 0;
        std::vector<size_t> cuts;  // character boundaries that fit
        for (size_t i = lb; i < le; i += len) {
          utf8_at(text, i, &len);
          if (i > lb && text_width(text, lb, i + len) > width) break;
          cuts.push_back(cut = i + len);
        }
        // Not before closing punctuation, not after opening punctuation, if another cut fits.
        for (size_t k = cuts.size(); k-- > 0;) {
          size_t n = 0;
          const unsigned next = cuts[k] < le ? utf8_at(text, cuts[k], &n) : 0;
          const unsigned last = utf8_at(text, k ? cuts[k - 1] : lb, &n);
          if (!is_closing(next) && !is_opening(last)) {
            cut = cuts[k];
            break;
          }
        }
        if (cut >= le) break;
        lines.push_back(widget_line{lb, cut});
        lb = cut;
      }
    }
    lines.push_back(widget_line{lb, le});
    para = stop + 1;
  }
  return lines;
}

std::string widget_break_lines(const std::string& text, float width) {
  std::string out;
  for (const widget_line& l : widget_line_ranges(text, width)) out += text.substr(l.begin, l.end - l.begin) + '\n';
  if (!out.empty()) out.pop_back();
  return out;
}

void widget_text_wrapped(const std::string& text) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  float right_local = visible_right_abs() - w->Pos.x + w->Scroll.x;
  float width = right_local - ImGui::GetCursorPosX();
  if (width < 50) return widget_text(text);
  ImGui::PushTextWrapPos(right_local);
  std::string shown = widget_break_lines(text, width - 1);
  ImGui::TextUnformatted(shown.c_str(), shown.c_str() + shown.size());
  item_probe_text(text);  // recorded as written, whatever the line breaks
  ImGui::PopTextWrapPos();
}

// [SECTION] numbers a student sets: drag or type
static double scalar_get(ImGuiDataType type, const void* v) {
  return type == ImGuiDataType_S32 ? double(*static_cast<const int*>(v))
         : type == ImGuiDataType_Float ? double(*static_cast<const float*>(v)) : *static_cast<const double*>(v);
}
static void scalar_set(ImGuiDataType type, void* v, double x) {
  if (type == ImGuiDataType_S32) *static_cast<int*>(v) = int(x);
  else if (type == ImGuiDataType_Float) *static_cast<float*>(v) = float(x);
  else *static_cast<double*>(v) = x;
}

widget_slider_change widget_slider_typable(const char* label, ImGuiDataType type, void* value, const void* lo,
                                           const void* hi, const char* format) {
  ImGuiContext& g = *GImGui;
  const ImGuiID id = ImGui::GetID(label);
  const ImGuiID before_key = ImHashStr("value-before-press", 0, id);
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const bool was_typing = ImGui::TempInputIsActive(id);
  const double before = scalar_get(type, value);
  bool undone = false;
  // ImGui 1.86 sliders type only on Ctrl+click: a double click (or tap) types too, from the
  // value before its first click moved it.
  if (!was_typing && g.IO.MouseDoubleClicked[0] && g.HoveredIdPreviousFrame == id) {
    scalar_set(type, value, ImClamp(double(storage->GetFloat(before_key, float(before))), scalar_get(type, lo), scalar_get(type, hi)));
    g.NavActivateInputId = id;
    undone = true;
  }
  bool changed = ImGui::SliderScalar(label, type, value, lo, hi, format, ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::IsItemActivated() && !undone) storage->SetFloat(before_key, float(before));
  if (undone) return WIDGET_SLIDER_TYPED;
  if (!changed) return WIDGET_SLIDER_NONE;
  return was_typing || ImGui::TempInputIsActive(id) ? WIDGET_SLIDER_TYPED : WIDGET_SLIDER_DRAGGED;
}

// [SECTION] boxes and wide content
void widget_drag_to_scroll() {
  ImGuiContext& g = *GImGui;
  ImGuiWindow* w = g.CurrentWindow;
  // A press on a window's background makes its move handle the active item, even for a window
  // that cannot move: that is the "empty page" case.
  if (!ImGui::IsMouseDragging(ImGuiMouseButton_Left) || g.ActiveId != w->MoveId || g.ActiveIdWindow != w) return;
  widget_scroll_by_drag(g.IO.MouseDelta);
}

void widget_scroll_by_drag(ImVec2 delta) {
  for (ImGuiWindow* target = GImGui->CurrentWindow; target && (delta.x != 0 || delta.y != 0); target = target->ParentWindow) {
    float x = ImClamp(target->Scroll.x - delta.x, 0.0f, target->ScrollMax.x);
    float y = ImClamp(target->Scroll.y - delta.y, 0.0f, target->ScrollMax.y);
    delta.x -= target->Scroll.x - x;  // what this window could not take goes to its parent
    delta.y -= target->Scroll.y - y;
    if (x != target->Scroll.x) ImGui::SetScrollX(target, x);
    if (y != target->Scroll.y) ImGui::SetScrollY(target, y);
  }
}

// Each box remembers the size its content took (height under its id, width under id + 1), in
// the state storage of the window around it.
static float remembered(ImGuiID key, float fallback) { return ImGui::GetStateStorage()->GetFloat(key, fallback); }

static bool g_resized;  // a box's size changed this frame: the next frame lays out differently

bool widget_layout_changed() {
  bool changed = g_resized;
  g_resized = false;
  return changed;
}

struct box_frame {
  ImGuiID key;
  float extra;
  bool child;
  int colors;
  const char* strip;  // a sideways strip's id (widget_wide_begin), else null
};
static ImVector<box_frame> g_boxes;

void widget_fit_box_begin(const char* id, ImU32 background, bool border) {
  ImGuiID key = ImGui::GetID(id);
  int colors = 0;
  if (background) ImGui::PushStyleColor(ImGuiCol_ChildBg, background), colors = 1;
  float h = remembered(key, ImGui::GetTextLineHeightWithSpacing() * 4);
  ImGui::BeginChild(id, ImVec2(0, h), border, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  g_boxes.push_back(box_frame{key, 0, true, colors, nullptr});
}

// A swipe that starts on a sideways strip's scrollbar or on its table's header row drives those
// (sideways) and would leave the page where it is; its up-and-down part scrolls the page, as a
// swipe anywhere does (README "Phones"; from the per-layer table it once did not).
static void strip_drag_scrolls_page(ImGuiWindow* strip) {
  ImGuiContext& g = *GImGui;
  if (!ImGui::IsMouseDragging(ImGuiMouseButton_Left) || g.ActiveIdWindow != strip || g.ActiveId == 0 ||
      g.ActiveId == strip->MoveId)  // (its background: widget_drag_to_scroll)
    return;
  const bool scrollbar = g.ActiveId == ImGui::GetWindowScrollbarID(strip, ImGuiAxis_X);
  widget_scroll_by_drag(ImVec2(scrollbar ? 0 : g.IO.MouseDelta.x, g.IO.MouseDelta.y));
}

void widget_fit_box_end() {
  box_frame b = g_boxes.back();
  g_boxes.pop_back();
  ImGuiWindow* child = ImGui::GetCurrentWindow();
  float content_w = child->DC.CursorMaxPos.x - child->DC.CursorStartPos.x;
  float content_h = child->DC.CursorMaxPos.y - child->DC.CursorStartPos.y;
  if (!child->SkipItems) {  // a box scrolled out of view draws nothing: keep what it measured
    ImGuiStorage* storage = &child->ParentWindow->StateStorage;
    float h = content_h + child->WindowPadding.y * 2 + b.extra;
    g_resized |= ImFabs(storage->GetFloat(b.key, -1) - h) > 0.5f || ImFabs(storage->GetFloat(b.key + 1, -1) - content_w) > 0.5f;
    storage->SetFloat(b.key, h);
    storage->SetFloat(b.key + 1, content_w);
  }
  widget_drag_to_scroll();
  if (b.strip) strip_drag_scrolls_page(child);
  ImGui::EndChild();
  ImGui::PopStyleColor(b.colors);
  if (b.strip) {  // where the strip is, for the tests' swipes (recorded in the page, around it)
    const ImVec2 p0 = ImGui::GetItemRectMin(), p1 = ImGui::GetItemRectMax();
    item_probe_shape((std::string("strip-") + b.strip).c_str(), p0.x, p0.y, p1.x, p1.y);
  }
}

void widget_wide_begin(const char* id, float content_width) {
  ImGuiID key = ImGui::GetID(id);
  // What the content took last frame, for content whose width is only known once drawn.
  float width = ImMax(content_width, remembered(key + 1, 0));
  float avail = widget_visible_width();
  if (width <= avail) {
    ImGui::BeginGroup();
    g_boxes.push_back(box_frame{key, 0, false, 0, nullptr});
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  widget_text_wrapped(tr(STR_WIDE_HINT));
  ImGui::PopStyleColor();
  float h = remembered(key, ImGui::GetFrameHeightWithSpacing() * 6);
  ImGui::BeginChild(id, ImVec2(avail, h), false,
                    ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_AlwaysHorizontalScrollbar);
  g_boxes.push_back(box_frame{key, ImGui::GetStyle().ScrollbarSize, true, 0, id});
}

void widget_wide_end() {
  box_frame b = g_boxes.back();
  if (b.child) return widget_fit_box_end();
  g_boxes.pop_back();
  ImGui::EndGroup();
  float w = ImGui::GetItemRectSize().x;
  g_resized |= ImFabs(ImGui::GetStateStorage()->GetFloat(b.key + 1, -1) - w) > 0.5f;
  ImGui::GetStateStorage()->SetFloat(b.key + 1, w);
}

void widget_text_table(const char* id, const std::vector<std::string>& headers, const std::vector<widget_cell>& cells) {
  const int columns = int(headers.size());
  const float pad = ImGui::GetStyle().CellPadding.x * 2 + 1;  // padding and a border
  std::vector<float> widths(columns);
  float total = 1;
  for (int c = 0; c < columns; ++c) {
    widths[c] = ImGui::CalcTextSize(headers[c].c_str()).x;
    for (size_t i = c; i < cells.size(); i += columns) widths[c] = ImMax(widths[c], ImGui::CalcTextSize(cells[i].text.c_str()).x);
    total += widths[c] + pad;
  }
  widget_wide_begin(id, total);
  if (ImGui::BeginTable(id, columns, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX,
                        ImVec2(total, 0))) {
    for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn(headers[c].c_str(), ImGuiTableColumnFlags_WidthFixed, widths[c]);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i % columns == 0) ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (cells[i].background) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, cells[i].background);
      widget_text(cells[i].text);
    }
    ImGui::EndTable();
  }
  widget_wide_end();
}

ImVec2 widget_text_at_size(const std::string& text, float scale) {
  return ImGui::GetFont()->CalcTextSizeA(ImGui::GetFontSize() * scale, FLT_MAX, 0, text.c_str(), text.c_str() + text.size());
}

void widget_text_at(ImVec2 pos, ImU32 color, const std::string& text, float scale) {
  ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize() * scale, pos, color, text.c_str(), text.c_str() + text.size());
  const ImVec2 size = widget_text_at_size(text, scale);
  item_probe_shape(("label:" + text).c_str(), pos.x, pos.y, pos.x + size.x, pos.y + size.y);
}

