// The page's look, shared by the browser and the headless UI tests so both lay out the same
// pixels: style (paddings, colours) and fonts (Latin + the Chinese characters the page prints).
#pragma once

#include "imgui.h"

static const float UI_FONT_PX = 17.0f;  // CSS pixels

void lab_style_apply();
// Rasterises the two fonts at px * ratio and shows them at 1/ratio (sharp on high-DPI screens).
// The bytes must outlive the atlas (they are not copied). `cjk_ranges`: the Chinese characters to
// take; nullptr takes every one the file has (the page's fonts are cut at build time to what it
// prints; a whole font has some 30,000, which would take seconds to rasterise).
void lab_fonts_add(const void* latin_ttf, int latin_size, const void* cjk_ttf, int cjk_size, float ratio,
                   const ImWchar* cjk_ranges = nullptr);
// The Chinese characters of the string table, as glyph ranges (for a whole font: the headless tests).
const ImWchar* lab_string_table_cjk_ranges();
