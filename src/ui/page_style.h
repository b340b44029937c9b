// The page's look, shared by the browser and the headless UI tests so both lay out the same
// pixels: style (paddings, colours) and fonts (Latin + the Chinese characters of strings.inc).
#pragma once

static const float UI_FONT_PX = 17.0f;  // CSS pixels

void lab_style_apply();
// Rasterises the two fonts at px * ratio and shows them at 1/ratio (sharp on high-DPI screens).
// The bytes must outlive the atlas (they are not copied).
void lab_fonts_add(const void* latin_ttf, int latin_size, const void* cjk_ttf, int cjk_size, float ratio);
