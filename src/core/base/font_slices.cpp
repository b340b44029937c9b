#include "core/base/font_slices.h"

#include <cstdio>

std::vector<font_slice> font_slices_for(const std::vector<unsigned>& chars, const font_slice_table& present,
                                        const std::set<int>& asked, const std::set<int>& coming) {
  std::set<int> keys;
  for (unsigned c : chars) {
    if (c >= 0x10000) continue;
    const int block = int(c / FONT_SLICE_BLOCK);
    for (int f = 0; f < FONT_SLICE_FONTS; f++) {
      const int key = f * FONT_SLICE_BLOCKS + block;
      if (!(present[f][block >> 3] & (1 << (block & 7)))) continue;
      if (coming.count(key)) break;  // this font may have it: wait for its slice
      if (!asked.count(key)) {
        keys.insert(key);
        break;
      }
    }
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
