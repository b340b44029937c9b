// Every number the page prints goes through number_format: its forms, and that none prints "-0".
#include <catch2/catch.hpp>

#include <cmath>

#include "core/number_format.h"

TEST_CASE("counts: grouped, and short forms in K, M and B with two decimals") {
  CHECK(fmt_count(264241152) == "264,241,152");
  CHECK(fmt_count(-1234) == "-1,234");
  CHECK(fmt_count_short(11010048) == "11.01M");  // one Qwen3.5-0.8B MLP layer
  CHECK(fmt_count_short(51539607552) == "51.54B");
  CHECK(fmt_count_short(8192) == "8.19K");  // was "0.01M"
  CHECK(fmt_count_short(512) == "512");
  CHECK(fmt_count_short(-8192) == "-8.19K");
}

TEST_CASE("no negative zero, in any form") {
  CHECK(fmt6(-1e-9) == "0.000000");
  CHECK(fmt6(-0.0) == "0.000000");
  CHECK(fmt_short(-0.0) == "0");
  CHECK(fmt_percent(-1e-9) == "0.00 %");
  CHECK(fmt_fixed(-0.001, 2) == "0.00");
  CHECK(fmt6(-1.761594) == "-1.761594");
  CHECK(fmt_percent(0.5073) == "50.73 %");
}

TEST_CASE("short numbers read back exactly; sizes and seconds") {
  for (double v : {0.1, -0.5, 1.0 / 3, 1e-5, 0.125, -2.375, 123456789.0})
    CHECK(std::strtod(fmt_short(v).c_str(), nullptr) == v);
  CHECK(fmt_short(20) == "20");
  CHECK(fmt_mib(11010048) == "10.5");
  CHECK(fmt_seconds(20) == "20");
  CHECK(fmt_seconds(2.5) == "2.5");
  CHECK(strf("%s=%d", "x", 3) == "x=3");
}
