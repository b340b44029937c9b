// The page's full fonts (DejaVu Sans, then WenQuanYi Micro Hei) cut into slices of 128 code points
// (tools/font_slices.mjs). A page that needs characters its embedded fonts lack (a pack's sentence
// in Korean, the real model's Chinese pieces) fetches the slices that hold them, some tens of KB
// each, not the 5.9 MB of the whole files.
#pragma once

#include <set>
#include <string>
#include <vector>

#define FONT_SLICE_FONTS 2
#define FONT_SLICE_BLOCK 128
#define FONT_SLICE_BLOCKS (0x10000 / FONT_SLICE_BLOCK)

// Which slices the site holds: bit b of row f is font f's block b. The web build defines it from
// what tools/font_slices.mjs wrote.
using font_slice_table = unsigned char[FONT_SLICE_FONTS][FONT_SLICE_BLOCKS / 8];
extern const font_slice_table font_slice_present;

struct font_slice {
  int font = 0, block = 0;
  int key() const { return font * FONT_SLICE_BLOCKS + block; }  // orders the fonts first
};

// The slices to ask for now for `chars`, the code points still missing (those past the 16-bit range
// have none), each once, ordered by key(). A character's block is asked of the first font that has
// it; of the next one only once the first's slice came (`asked`, not `coming`) without it. So a
// block both fonts cover (Latin, Greek, Cyrillic) costs one slice, not two. `asked`: every key
// asked before, arrived, failed or still `coming`. Merged in key order, the first font's glyphs win.
std::vector<font_slice> font_slices_for(const std::vector<unsigned>& chars, const font_slice_table& present,
                                        const std::set<int>& asked = {}, const std::set<int>& coming = {});

// Its file beside the page: "fonts/slices/F-BBB.ttf" (BBB: the block in three hex digits).
std::string font_slice_file(const font_slice& s);
