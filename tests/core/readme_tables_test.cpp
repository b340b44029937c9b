// The README's view table and docs/links.md's key table are the public description of the page:
// they must say what the code's tables say (core/link/views.inc, url_state.cpp's keys). Native
// only: it reads them from the source tree.
#include <catch2/catch.hpp>

#ifndef __EMSCRIPTEN__
#include <fstream>
#include <set>
#include <sstream>

#include "core/link/url_state.h"
#include "core/views/view_table.h"

static std::string source_text(const char* path) {
  std::ifstream in(std::string(SWIGLU_SOURCE_DIR "/") + path);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The table that follows a heading line containing `heading`: its rows' first cells.
static std::vector<std::string> table_rows(const std::string& text, const std::string& header_row) {
  std::vector<std::string> rows;
  size_t at = text.find(header_row);
  REQUIRE(at != std::string::npos);
  std::istringstream in(text.substr(at));
  std::string line;
  std::getline(in, line);  // header
  std::getline(in, line);  // | --- |
  while (std::getline(in, line) && line.rfind("|", 0) == 0) rows.push_back(line);
  return rows;
}

static std::string cell(const std::string& row, int n) {
  size_t a = 0;
  for (int i = 0; i <= n; i++) a = row.find('|', a) + 1;
  const size_t b = row.find('|', a);
  std::string c = row.substr(a, b - a);
  c.erase(0, c.find_first_not_of(' '));
  c.erase(c.find_last_not_of(' ') + 1);
  return c;
}

TEST_CASE("README: the view table lists exactly the views of core/link/views.inc") {
  const std::vector<std::string> rows = table_rows(source_text("README.md"), "| view | what it teaches |");
  REQUIRE(rows.size() == LAB_VIEW_COUNT);
  strings_set_lang(LAB_LANG_EN);
  for (int v = 0; v < LAB_VIEW_COUNT; v++) {
    INFO(rows[v]);
    CHECK(cell(rows[v], 0).find(std::string("**") + tr(LAB_VIEWS[v].label) + "**") == 0);
  }
}

TEST_CASE("docs/links.md: the key table lists exactly the link keys, and view= every view's name") {
  const std::vector<std::string> rows = table_rows(source_text("docs/links.md"), "| key | meaning | values |");
  std::set<std::string> readme, code = {"v"};
  std::string view_values;
  for (const std::string& r : rows) {
    std::string keys = cell(r, 0);  // "`h`, `f`, `layers`"
    for (size_t a = keys.find('`'); a != std::string::npos; a = keys.find('`', keys.find('`', a + 1) + 1)) {
      const std::string k = keys.substr(a + 1, keys.find('`', a + 1) - a - 1);
      readme.insert(k);
      if (k == "view") view_values = cell(r, 2);
    }
  }
  for (const url_key_desc& k : url_key_table()) code.insert(k.key);
  CHECK(readme == code);
  for (const lab_view_info& v : LAB_VIEWS) CHECK(view_values.find(std::string("`") + v.name + "`") != std::string::npos);
}
#endif
