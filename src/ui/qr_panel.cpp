// The QR code of the page's link (see qr_panel.h).
#include "ui/qr_panel.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/link/qr_text.h"
#include "core/base/strings.h"
#include "imgui.h"
#include "platform/platform.h"
#include "ui/focus.h"
#include "ui/item_probe.h"
#include "ui/widgets.h"

// Readers want dark modules on light, at full contrast; the page behind is dimmed so the card reads
// as what is in front.
#define QR_DARK IM_COL32(0, 0, 0, 255)
#define QR_LIGHT IM_COL32(255, 255, 255, 255)
#define QR_DIM IM_COL32(20, 24, 32, 150)

// Encodes the page's address when it changed (a Back, a fallback that rewrote the link).
static bool qr_refresh(qr_panel* p) {
  const std::string url = platform_page_url();
  if (url == p->url && p->code.status != QR_EMPTY) return false;
  p->url = url;
  p->code = qr_encode_text(url);
  p->lighter = lighter_link(), p->lighter_code = qr_code(), p->lighter_side = -1, p->light = false, p->offered = false;
  return true;
}

// The lighter link is offered, and chosen: its code is the one on the card.
static bool light_shown(const qr_panel* p) { return p->light && !p->lighter.link.empty(); }
static const qr_code& shown_code(const qr_panel* p) { return light_shown(p) ? p->lighter_code : p->code; }
static const std::string& shown_url(const qr_panel* p) { return light_shown(p) ? p->lighter.link : p->url; }

// The offer of a lighter class link for a code drawn in a square of `side` CSS pixels: worked out
// again when the link or the square changed (a few encodes). Offered only when the link's own code
// is finer than QR_FAR_PX a module (or too long for any code) and the lighter one is coarser.
static void lighter_refresh(qr_panel* p, float side, float scale) {
  if (side == p->lighter_side && scale == p->lighter_scale) return;
  p->lighter_side = side, p->lighter_scale = scale, p->needs_frame = true;
  p->lighter = lighter_link(), p->lighter_code = qr_code();
  const float whole = qr_px_per_module(p->code, side, scale);
  if ((p->code.status != QR_OK && p->code.status != QR_TOO_LONG) || whole >= QR_FAR_PX) return;
  lighter_link l = class_link_lighter(p->url, [side, scale](const std::string& link) {
    return qr_px_per_module(qr_encode_text(link), side, scale) >= QR_FAR_PX;
  });
  if (l.link.empty()) return;
  qr_code c = qr_encode_text(l.link);
  if (qr_px_per_module(c, side, scale) <= whole) return;
  p->lighter = std::move(l), p->lighter_code = std::move(c);
  p->offered = true;
}

// The card's words: the code's, then the lighter link's (offered, or what it leaves out).
static std::vector<std::string> card_lines(const qr_panel* p, float px) {
  std::vector<std::string> lines = qr_text_lines(shown_code(p), shown_url(p).size(), px);
  const float light_px = light_shown(p) ? px : qr_px_per_module(p->lighter_code, p->lighter_side, p->lighter_scale);
  for (std::string& line : class_link_lighter_lines(p->lighter, p->light, light_px)) lines.push_back(std::move(line));
  return lines;
}

void qr_panel_button(qr_panel* p) {
  widget_same_line_if_fits(widget_button_width(tr(STR_QR_BUTTON)));
  if (ImGui::Button(tr(STR_QR_BUTTON))) {
    p->open = p->just_opened = true;
    focus_move_to("qr-close");  // from the keyboard, Enter again closes it
  }
  item_probe("qr-code");
}

bool qr_panel_animating(const qr_panel* p) { return p->open && p->needs_frame; }

std::string qr_panel_text(qr_panel* p) {
  if (!p->open) return "";
  if (qr_refresh(p)) p->needs_frame = true;  // its modules are drawn next frame
  std::string out;
  for (const std::string& line : card_lines(p, p->px_per_module)) out += line + "\n";
  if (!p->lighter.link.empty()) out += class_link_lighter_button(p->lighter, p->light) + "\n";
  return out;
}

// The height of the lines wrapped at `width`, with the buttons under them (Close, and the
// lighter code's toggle when offered).
static float text_height(const std::vector<std::string>& lines, float width, int buttons) {
  const ImGuiStyle& st = ImGui::GetStyle();
  float h = 0;
  for (const std::string& line : lines) {
    const std::string shown = widget_break_lines(line, width - 1);
    h += ImGui::CalcTextSize(shown.c_str()).y + st.ItemSpacing.y;
  }
  return h + float(buttons) * (ImGui::GetFrameHeight() + st.ItemSpacing.y) - st.ItemSpacing.y;
}

// The code's dark modules as one rectangle per run along a row (a version 40 code has 31,329
// modules: runs keep the draw list a few thousand rectangles).
static void draw_modules(ImDrawList* dl, const qr_code& code, ImVec2 origin, float module) {
  for (int y = 0; y < code.size; ++y)
    for (int x = 0; x < code.size;) {
      if (!code.at(x, y)) { ++x; continue; }
      int end = x;
      while (end < code.size && code.at(end, y)) ++end;
      dl->AddRectFilled(ImVec2(origin.x + float(x) * module, origin.y + float(y) * module),
                        ImVec2(origin.x + float(end) * module, origin.y + float(y + 1) * module), QR_DARK);
      x = end;
    }
}

void qr_panel_draw(qr_panel* p) {
  if (!p->open) return;
  ImGuiIO& io = ImGui::GetIO();
  const int escape = io.KeyMap[ImGuiKey_Escape];
  if (escape >= 0 && ImGui::IsKeyPressed(escape, false)) {
    p->open = false;
    return;
  }
  qr_refresh(p);
  p->needs_frame = false;

  // [SECTION] layout: the code as large as the screen allows, its words beside it on a wide screen
  // (a projector: the code takes the whole height) or under it (a phone). The quiet zone is part
  // of the code's square; module edges fall on device pixels, so every module is equally wide.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float fs = ImGui::GetFontSize(), margin = std::floor(fs * 0.5f), gap = fs;
  const float scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const ImVec2 area(vp->WorkSize.x - 2 * margin, vp->WorkSize.y - 2 * margin);
  const int buttons = p->offered ? 2 : 1;
  std::vector<std::string> widest = card_lines(p, 0.0f);  // with the warning: the most lines
  if (p->offered && p->lighter.link.empty()) widest.push_back(tr(STR_QR_LIGHTER_OFFER));  // its room kept
  float text_w = std::min(area.x - 2 * gap, std::max(16 * fs, std::min(area.x * 0.25f, 26 * fs)));
  const bool wide = area.x - area.y >= text_w + 2 * gap;
  if (!wide) text_w = area.x - 2 * gap;
  // The square a code gets: beside the words on a wide screen, above them otherwise.
  const float code_side = wide ? std::min(area.y, area.x - text_w - 2 * gap)
                               : std::min(area.x, area.y - text_height(widest, text_w, buttons) - 2 * gap);
  lighter_refresh(p, code_side, scale);
  const qr_code& code = shown_code(p);
  const bool ok = code.status == QR_OK, beside = ok && wide;
  const float side = ok ? code_side : 0;
  if (!ok) text_w = std::min(area.x - 2 * gap, 30 * fs);
  const int modules = ok ? code.size + 2 * QR_QUIET_ZONE : 0;
  const float module = qr_px_per_module(code, side, scale), code_w = module * float(modules);
  p->px_per_module = module;
  const std::vector<std::string> lines = card_lines(p, module);
  const float text_h = text_height(lines, text_w, p->lighter.link.empty() ? 1 : 2);

  ImVec2 card(0, 0), code_at(0, 0), text_at(0, 0);
  if (beside) card = ImVec2(code_w + text_w + 2 * gap, std::max(code_w, text_h + 2 * gap));
  else card = ImVec2(std::max(code_w, text_w + 2 * gap), code_w + text_h + 2 * gap);
  const auto snap = [scale](float v) { return std::round(v * scale) / scale; };
  const ImVec2 card_min(snap(vp->WorkPos.x + (vp->WorkSize.x - card.x) * 0.5f), snap(vp->WorkPos.y + std::max(margin, (vp->WorkSize.y - card.y) * 0.5f)));
  const ImVec2 card_max(card_min.x + card.x, card_min.y + card.y);
  code_at = ImVec2(card_min.x + (beside ? 0 : snap((card.x - code_w) * 0.5f)), card_min.y);
  text_at = beside ? ImVec2(code_at.x + code_w + gap, card_min.y + std::max(gap, (card.y - text_h) * 0.5f))
                   : ImVec2(card_min.x + gap, card_min.y + code_w + gap);

  // [SECTION] drawing: a window over the whole page, so a tap anywhere lands here, not on the page
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  if (p->just_opened) ImGui::SetNextWindowFocus();
  ImGui::PushStyleColor(ImGuiCol_WindowBg, QR_DIM);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  ImGui::Begin("##qr-overlay", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoNav);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(card_min, card_max, QR_LIGHT);
  if (ok) {
    draw_modules(dl, code, ImVec2(code_at.x + QR_QUIET_ZONE * module, code_at.y + QR_QUIET_ZONE * module), module);
    item_probe_shape("qr-image", code_at.x, code_at.y, code_at.x + code_w, code_at.y + code_w);
  }
  item_probe_shape("qr-card", card_min.x, card_min.y, card_max.x, card_max.y);

  ImGui::SetCursorScreenPos(text_at);
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(0, 0, 0, 0));
  ImGui::BeginChild("##qr-words", ImVec2(text_w, text_h + 1), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PushStyleColor(ImGuiCol_Text, QR_DARK);
  for (const std::string& line : lines) widget_text_wrapped(line);
  ImGui::PopStyleColor();
  if (!p->lighter.link.empty()) {
    // One id whatever its label says, so the keyboard's focus stays on it after a press.
    const std::string label = class_link_lighter_button(p->lighter, p->light);
    if (ImGui::Button((label + "###qr-lighter").c_str())) p->light = !p->light, p->needs_frame = true;
    item_probe("qr-lighter", label);
  }
  if (ImGui::Button(tr(STR_QR_CLOSE))) p->open = false;
  item_probe("qr-close");
  ImGui::EndChild();
  ImGui::PopStyleColor();

  // A tap or click outside the card closes it (not the one that opened it).
  const ImVec2 m = io.MousePos;
  const bool in_card = m.x >= card_min.x && m.x < card_max.x && m.y >= card_min.y && m.y < card_max.y;
  if (!p->just_opened && io.MouseClicked[0] && !in_card && ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) p->open = false;
  p->just_opened = false;
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}
