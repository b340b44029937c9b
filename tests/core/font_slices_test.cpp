// The full fonts' slices (tools/font_slices.mjs) read back by the reader the page draws with
// (stb_truetype, as ImGui builds its atlas): every character each font maps is in the slice of its
// block and nowhere else, with the same outline and metrics; the generated table names exactly the
// slices written; and the page asks for the slices that hold its missing characters, each once.
// ctest writes the slices first (the font_slices_make entry) and gives their folder and the fonts
// in FONT_SLICES_DIR and FONT_SLICES_FONTS ("FILE[#FACE],…", the list the web build slices).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/font_slices.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC  // this file's own copy: the test links no ImGui
#include "imstb_truetype.h"
#pragma GCC diagnostic pop

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

struct font_file {
  std::string bytes;
  stbtt_fontinfo info{};
  bool open(const std::string& path, int face) {
    bytes = read_file(path);
    if (bytes.empty()) return false;
    const int at = stbtt_GetFontOffsetForIndex((const unsigned char*)bytes.data(), face);
    return at >= 0 && stbtt_InitFont(&info, (const unsigned char*)bytes.data(), at) != 0;
  }
};

// A glyph's outline as stb_truetype flattens it (a composite's parts placed), and its metrics.
std::vector<int> outline(const stbtt_fontinfo* f, int glyph) {
  stbtt_vertex* v = nullptr;
  const int n = stbtt_GetGlyphShape(f, glyph, &v);
  std::vector<int> out;
  for (int i = 0; i < n; i++) out.insert(out.end(), {v[i].type, v[i].x, v[i].y, v[i].cx, v[i].cy});
  stbtt_FreeShape(f, v);
  int advance = 0, lsb = 0;
  stbtt_GetGlyphHMetrics(f, glyph, &advance, &lsb);
  out.insert(out.end(), {advance, lsb});
  return out;
}

std::vector<std::pair<std::string, int>> fonts_given() {
  std::vector<std::pair<std::string, int>> out;
  std::stringstream list(env("FONT_SLICES_FONTS"));
  for (std::string item; std::getline(list, item, ',');) {
    const size_t hash = item.find('#');
    out.push_back({item.substr(0, hash), hash == std::string::npos ? 0 : std::atoi(item.c_str() + hash + 1)});
  }
  return out;
}

}  // namespace

TEST_CASE("font slices: every character of each font is in its block's slice, drawn the same") {
  const std::string dir = env("FONT_SLICES_DIR");
  const auto fonts = fonts_given();
  REQUIRE(!dir.empty());
  REQUIRE(fonts.size() == FONT_SLICE_FONTS);
  for (int f = 0; f < FONT_SLICE_FONTS; f++) {
    INFO(fonts[f].first);
    font_file whole;
    REQUIRE(whole.open(fonts[f].first, fonts[f].second));
    int a0, d0, g0, a1, d1, g1;
    stbtt_GetFontVMetrics(&whole.info, &a0, &d0, &g0);
    int chars = 0, slices = 0;
    for (int block = 0; block < FONT_SLICE_BLOCKS; block++) {
      std::vector<int> mapped;
      for (int c = block * FONT_SLICE_BLOCK; c < (block + 1) * FONT_SLICE_BLOCK; c++)
        if (c >= 0x20 && stbtt_FindGlyphIndex(&whole.info, c)) mapped.push_back(c);
      const std::string file = dir + "/" + font_slice_file({f, block}).substr(std::string("fonts/slices/").size());
      font_file part;
      const bool there = part.open(file, 0);
      INFO(file);
      CHECK(there == !mapped.empty());
      if (!there) continue;
      slices++;
      stbtt_GetFontVMetrics(&part.info, &a1, &d1, &g1);
      CHECK((a1 == a0 && d1 == d0 && g1 == g0));
      CHECK(stbtt_ScaleForPixelHeight(&part.info, 16) == stbtt_ScaleForPixelHeight(&whole.info, 16));
      for (int c = block * FONT_SLICE_BLOCK; c < (block + 1) * FONT_SLICE_BLOCK; c++) {
        const int in_part = stbtt_FindGlyphIndex(&part.info, c), in_whole = c >= 0x20 ? stbtt_FindGlyphIndex(&whole.info, c) : 0;
        if ((in_part != 0) != (in_whole != 0)) FAIL_CHECK("U+" << std::hex << c << ": in the slice " << in_part << ", in the font " << in_whole);
        if (in_part && in_whole && outline(&part.info, in_part) != outline(&whole.info, in_whole))
          FAIL_CHECK("U+" << std::hex << c << ": another outline or metrics in the slice");
        chars += in_part != 0;
      }
      // A character of another block is not in this slice.
      CHECK(stbtt_FindGlyphIndex(&part.info, (block + 1) * FONT_SLICE_BLOCK % 0x10000) == 0);
    }
    INFO(chars << " characters in " << slices << " slices");
    CHECK(chars > (f == 0 ? 5000 : 30000));
  }
}

TEST_CASE("font slices: the generated table names exactly the slices written") {
  const std::string dir = env("FONT_SLICES_DIR");
  const std::string table = read_file(dir + "/table.cpp");
  REQUIRE(!table.empty());
  std::vector<std::vector<unsigned>> rows;
  const std::regex row("\\{(0x[0-9a-f]{2}(, 0x[0-9a-f]{2})*)\\}");
  for (std::sregex_iterator m(table.begin(), table.end(), row), end; m != end; ++m) {
    std::vector<unsigned> bytes;
    std::stringstream s((*m)[1].str());
    for (std::string b; std::getline(s, b, ',');) bytes.push_back(unsigned(std::stoul(b, nullptr, 16)));
    rows.push_back(bytes);
  }
  REQUIRE(rows.size() == FONT_SLICE_FONTS);
  for (int f = 0; f < FONT_SLICE_FONTS; f++) {
    REQUIRE(rows[f].size() == FONT_SLICE_BLOCKS / 8);
    for (int b = 0; b < FONT_SLICE_BLOCKS; b++) {
      const bool said = rows[f][b >> 3] & (1u << (b & 7));
      const std::string file = dir + "/" + font_slice_file({f, b}).substr(std::string("fonts/slices/").size());
      INFO(file);
      CHECK(said == std::ifstream(file).good());
    }
  }
}

TEST_CASE("font slices: the page asks for the slices that hold its characters, each once, the first font first") {
  font_slice_table present = {};
  auto set = [&](int f, int b) { present[f][b >> 3] |= (unsigned char)(1 << (b & 7)); };
  set(0, 0), set(1, 0), set(1, 0x4E2D / FONT_SLICE_BLOCK), set(0, 0x0410 / FONT_SLICE_BLOCK);
  // 'A', 中 and 丮 (one block), А (Cyrillic: the first font only), 가 (no slice), past 16 bits.
  const std::vector<unsigned> chars = {0x4E2D, 'A', 0x4E2E, 0x0410, 0xAC00, 0x1F600};
  const int cjk = 0x4E2D / FONT_SLICE_BLOCK, cyrillic = 0x0410 / FONT_SLICE_BLOCK;
  // First asked: a block both fonts have, of the first font only.
  const std::vector<font_slice> s = font_slices_for(chars, present);
  REQUIRE(s.size() == 3);
  CHECK((s[0].font == 0 && s[0].block == 0));
  CHECK((s[1].font == 0 && s[1].block == cyrillic));
  CHECK((s[2].font == 1 && s[2].block == cjk));
  CHECK(font_slice_file(s[2]) == "fonts/slices/1-09c.ttf");
  auto key = [](int f, int b) { return font_slice{f, b}.key(); };
  // While the first font's slice is coming, nothing more for its characters.
  CHECK(font_slices_for({'A'}, present, {key(0, 0)}, {key(0, 0)}).empty());
  // It came and 'A' is still missing: the second font's slice of that block, once.
  const std::vector<font_slice> next = font_slices_for({'A'}, present, {key(0, 0)});
  REQUIRE(next.size() == 1);
  CHECK((next[0].font == 1 && next[0].block == 0));
  CHECK(font_slices_for({'A'}, present, {key(0, 0), key(1, 0)}).empty());  // every font tried: none left
  // Asked slices are not asked again; the others still are.
  const std::vector<font_slice> rest = font_slices_for(chars, present, {key(0, 0), key(0, cyrillic), key(1, cjk)});
  REQUIRE(rest.size() == 1);
  CHECK((rest[0].font == 1 && rest[0].block == 0));
  CHECK(font_slices_for({}, present).empty());
  CHECK(font_slices_for({0xAC00}, present).empty());
}
