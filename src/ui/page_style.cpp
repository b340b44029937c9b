// The page's style and fonts (see page_style.h).
#include "ui/page_style.h"

#include "core/base/strings.h"

void lab_style_apply() {
  ImGui::StyleColorsLight();
  ImGuiStyle& st = ImGui::GetStyle();
  st.WindowPadding = ImVec2(14, 12);
  st.FramePadding = ImVec2(8, 5);
  st.ItemSpacing = ImVec2(9, 7);
  st.CellPadding = ImVec2(6, 4);
  st.FrameRounding = 4;
  st.GrabRounding = 4;
  st.WindowBorderSize = 0;
  st.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1);
  st.Colors[ImGuiCol_Button] = ImVec4(0.86f, 0.89f, 0.95f, 1);
  // Neutral table headers: in the hand calculation, blue means "read by this step".
  st.Colors[ImGuiCol_TableHeaderBg] = ImVec4(0.90f, 0.90f, 0.88f, 1);
}

void lab_fonts_add(const void* latin_ttf, int latin_size, const void* cjk_ttf, int cjk_size, float ratio,
                   const ImWchar* cjk_ranges) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig latin;
  latin.FontDataOwnedByAtlas = false;
  static const ImWchar latin_ranges[] = {0x0020, 0x00FF, 0x0391, 0x03C9, 0x2010, 0x2027, 0x2070, 0x209F,
                                         0x2190, 0x2193, 0x2211, 0x2265, 0x2299, 0x2299, 0x22C5, 0x22C5, 0};
  io.Fonts->AddFontFromMemoryTTF(const_cast<void*>(latin_ttf), latin_size, UI_FONT_PX * ratio, &latin, latin_ranges);

  // Chinese glyphs merged into the same font. A cut file's every one: the string table's characters
  // and, in the fetched file, the built-in model's token pieces; ImGui adds only the code points a
  // font maps, so the range can be wide.
  static const ImWchar every_cjk[] = {0x2E80, 0xFFEF, 0};
  ImFontConfig cjk;
  cjk.MergeMode = true;
  cjk.FontDataOwnedByAtlas = false;
  io.Fonts->AddFontFromMemoryTTF(const_cast<void*>(cjk_ttf), cjk_size, UI_FONT_PX * ratio, &cjk,
                                 cjk_ranges ? cjk_ranges : every_cjk);
  io.FontGlobalScale = 1.0f / ratio;
}

const ImWchar* lab_string_table_cjk_ranges() {
  static ImVector<ImWchar> ranges;
  if (ranges.empty()) {
    ImFontGlyphRangesBuilder builder;
    for (int i = 0; i < STR_COUNT; ++i)  // both columns: the English page's language button says 中文
      for (int lang = 0; lang < LAB_LANG_COUNT; ++lang) builder.AddText(tr_in(lab_lang(lang), str_id(i)));
    builder.BuildRanges(&ranges);
  }
  return ranges.Data;
}
