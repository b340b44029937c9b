// The QR code of the link (src/core/link/qr_code.h): texts of several lengths, a link's fragment
// characters ('#', '&', '%', '='), Chinese as UTF-8 and percent-encoded, encoded, drawn as an
// image with the quiet zone, and read back by a real decoder (Debian's zbar-tools: zbarimg) that
// must return the text exactly. The version chosen is checked against the standard's own table of
// byte-mode capacities (ISO/IEC 18004:2015, Table 7), at its edges. Too long: the error.
//   build-native/qr_tests [--rng-seed N]   (needs zbarimg on the PATH; tools/setup.sh installs it)
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "core/link/qr_code.h"
#include "core/link/qr_text.h"
#include "core/base/strings.h"

// Bytes each version holds in byte mode: [level][version - 1], levels L and M (ISO/IEC 18004 Table 7).
static const int CAPACITY[2][40] = {
    {17, 32, 53, 78, 106, 134, 154, 192, 230, 271, 321, 367, 425, 458, 520, 586, 644, 718, 792, 858,
     929, 1003, 1091, 1171, 1273, 1367, 1465, 1528, 1628, 1732, 1840, 1952, 2068, 2188, 2303, 2431, 2563, 2699, 2809, 2953},
    {14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
     711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989, 2099, 2213, 2331},
};

// The smallest version holding `bytes` at `level`, from the table (0: none).
static int table_version(qr_level level, size_t bytes) {
  for (int v = 1; v <= 40; ++v)
    if (size_t(CAPACITY[level][v - 1]) >= bytes) return v;
  return 0;
}

// What qr_code.h promises: M while it stays at most QR_M_MAX_VERSION, else L at its smallest version.
static void check_version(const qr_code& c, size_t bytes) {
  const int m = table_version(QR_LEVEL_M, bytes);
  const bool is_m = m > 0 && m <= QR_M_MAX_VERSION;
  CHECK(c.level == (is_m ? QR_LEVEL_M : QR_LEVEL_L));
  CHECK(c.version == (is_m ? m : table_version(QR_LEVEL_L, bytes)));
  CHECK(c.size == 17 + 4 * c.version);
  CHECK(c.dark.size() == size_t(c.size) * size_t(c.size));
}

// Random text as a link's fragment is: ASCII letters and digits, the separators, percent escapes.
static std::string link_like(std::mt19937& rng, size_t n) {
  static const char ALPHABET[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#&%=,:.-_~/";
  std::string s = "http://127.0.0.1:8080/#v=1&view=rules&";
  while (s.size() < n) s += ALPHABET[rng() % (sizeof ALPHABET - 1)];
  s.resize(n);
  return s;
}

// The code as a binary PGM: black modules on white, the quiet zone around, `scale` pixels a module.
static void write_pgm(const qr_code& c, int scale, const std::string& path) {
  const int side = (c.size + 2 * QR_QUIET_ZONE) * scale;
  std::string pixels(size_t(side) * size_t(side), char(255));
  for (int y = 0; y < c.size; ++y)
    for (int x = 0; x < c.size; ++x)
      if (c.at(x, y))
        for (int dy = 0; dy < scale; ++dy)
          for (int dx = 0; dx < scale; ++dx)
            pixels[size_t((y + QR_QUIET_ZONE) * scale + dy) * size_t(side) + size_t((x + QR_QUIET_ZONE) * scale + dx)] = 0;
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << side << " " << side << "\n255\n";
  out.write(pixels.data(), std::streamsize(pixels.size()));
}

// What zbarimg reads in the image: its --raw output without the newline it ends with.
static std::string zbar_decode(const std::string& path) {
  const std::string cmd = "zbarimg --raw -q --nodbus '" + path + "'";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int rc = pclose(pipe);
  INFO("zbarimg exit status " << rc);
  REQUIRE(rc == 0);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

static void check_round_trip(const std::string& text, const char* what) {
  INFO(what << ", " << text.size() << " bytes");
  const qr_code c = qr_encode_text(text);
  REQUIRE(c.status == QR_OK);
  check_version(c, text.size());
  const std::string path = std::string("qr_test_") + what + ".pgm";
  write_pgm(c, 3, path);
  CHECK(zbar_decode(path) == text);
  std::remove(path.c_str());
}

TEST_CASE("qr: links of several lengths read back exactly through zbarimg") {
  std::mt19937 rng(Catch::rngSeed());
  check_round_trip("http://127.0.0.1:8080/#v=1&view=hand&x=1,2&step=5", "short");
  // The sentence box's text and pieces as a link carries them (percent-encoded), and the same
  // characters as raw UTF-8 bytes: byte mode keeps either as it is.
  check_round_trip("http://127.0.0.1:8080/#v=1&view=rules&text=%E4%B8%AD%E5%9B%BD%E7%9A%84%E9%A6%96%E9%83%BD%E6%98%AF"
                   "&off=23:275&z=50%25&pieces=%E4%B8%AD%E5%9B%BD,%E7%9A%84",
                   "percent");
  check_round_trip("http://127.0.0.1:8080/#v=1&view=rules&text=中国的首都是&pieces=中国,的,首都,是&lang=zh", "chinese");
  check_round_trip(link_like(rng, 300), "300");
  check_round_trip(link_like(rng, 997), "m-last");    // M's version 25 full
  check_round_trip(link_like(rng, 998), "l-first");   // one byte more: L, a smaller code (version 22)
  check_round_trip(link_like(rng, 1500), "1500");     // the lesson's rule-book link
  check_round_trip(link_like(rng, 2900), "2900");
  check_round_trip(link_like(rng, QR_MAX_BYTES), "max");
}

TEST_CASE("qr: the version is the smallest that holds the text, at the table's edges") {
  std::mt19937 rng(Catch::rngSeed());
  for (int v : {1, 2, 9, 10, 25, 26, 27, 39, 40})
    for (int level : {QR_LEVEL_L, QR_LEVEL_M}) {
      const size_t cap = size_t(CAPACITY[level][v - 1]);
      for (size_t n : {cap - 1, cap, cap + 1}) {
        if (n > QR_MAX_BYTES) continue;
        INFO("version " << v << " " << (level == QR_LEVEL_L ? "L" : "M") << ", " << n << " bytes");
        check_version(qr_encode_text(link_like(rng, n)), n);
      }
    }
  // The page's figures (docs/performance.md): 300, 1,500 and 2,900 characters of link.
  CHECK((qr_encode_text(link_like(rng, 300)).version == 13 && qr_encode_text(link_like(rng, 300)).level == QR_LEVEL_M));
  const qr_code lesson = qr_encode_text(link_like(rng, 1500));
  CHECK((lesson.version == 28 && lesson.level == QR_LEVEL_L));  // at M it would be version 32
  CHECK(qr_encode_text(link_like(rng, 2900)).version == 40);
}

TEST_CASE("qr: too long for version 40, and empty, are errors with the page's words") {
  std::mt19937 rng(Catch::rngSeed());
  const qr_code max = qr_encode_text(link_like(rng, QR_MAX_BYTES));
  CHECK((max.status == QR_OK && max.version == 40 && max.level == QR_LEVEL_L));
  const qr_code over = qr_encode_text(link_like(rng, QR_MAX_BYTES + 1));
  CHECK(over.status == QR_TOO_LONG);
  CHECK(over.dark.empty());
  CHECK(qr_encode_text(std::string(100000, 'a')).status == QR_TOO_LONG);
  CHECK(qr_encode_text("").status == QR_EMPTY);

  strings_set_lang(LAB_LANG_EN);
  const std::vector<std::string> en = qr_text_lines(over, QR_MAX_BYTES + 1, 0);
  REQUIRE(en.size() == 1);
  CHECK(en[0] == "This link is too long for a QR code: 2,954 bytes, and a QR code holds at most 2,953. Send the link itself instead.");
  strings_set_lang(LAB_LANG_ZH);
  CHECK(qr_text_lines(over, QR_MAX_BYTES + 1, 0)[0] == "这个链接太长，放不进二维码：2,954 字节，而一个二维码最多能装 2,953 字节。请直接发送链接。");
  strings_set_lang(LAB_LANG_EN);
}

TEST_CASE("qr: the words with a code say its version, size, level and module size") {
  strings_set_lang(LAB_LANG_EN);
  const qr_code c = qr_encode_text("http://127.0.0.1:8080/#v=1&view=hand");
  REQUIRE(c.status == QR_OK);
  CHECK(c.version == 3);  // 36 bytes: M's version 3 holds 42
  const std::vector<std::string> big = qr_text_lines(c, 36, 12.0f);
  REQUIRE(big.size() == 2);
  CHECK(big[0] == "Scan to open this view");
  CHECK(big[1] == "QR code of this link: version 3, 29 × 29 modules, error correction M, 12 px a module");
  // Too fine to scan from afar: said, with the size it has.
  const std::vector<std::string> small = qr_text_lines(c, 36, 8.0f / 3.0f);
  REQUIRE(small.size() == 3);
  CHECK(small[1] == "QR code of this link: version 3, 29 × 29 modules, error correction M, 2.67 px a module");
  CHECK(small[2].find("At 2.67 px a module") == 0);
}
