#include "core/base/font_slices.h"

#include <cstdio>
#include <set>

std::vector<font_slice> font_slices_for(const std::vector<unsigned>& chars, const font_slice_table& present) {
  std::set<int> keys;
  for (unsigned c : chars) {
    if (c >= 0x10000) continue;
    const int block = int(c / FONT_SLICE_BLOCK);
    for (int f = 0; f < FONT_SLICE_FONTS; f++)
      if (present[f][block >> 3] & (1 << (block & 7))) keys.insert(f * FONT_SLICE_BLOCKS + block);
  }
  std::vector<font_slice> out;
  for (int k : keys) out.push_back({k / FONT_SLICE_BLOCKS, k % FONT_SLICE_BLOCKS});
  return out;
}

std::string font_slice_file(const font_slice& s) {
  char name[40];
  std::snprintf(name, sizeof name, "fonts/slices/%d-%03x.ttf", s.font, s.block);
  return name;
}
