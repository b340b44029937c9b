// Every number the page prints goes through number_format: its forms, and that none prints "-0".
#include <catch2/catch.hpp>

#include <cmath>

#include "core/base/number_format.h"

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

TEST_CASE("percent in its three styles, ratios, significant digits") {
  CHECK(fmt_percent1(0.351) == "35.1 %");  // a block of the whole model
  CHECK(fmt_percent1(0.186) == "18.6 %");  // a probability (lesson 003: P(北京))
  CHECK(fmt_percent1(0.0) == "0.0 %");
  CHECK(fmt_percent1(0.0004) == "0.040 %");  // fmt_share: a part that exists never reads "0.0 %"
  CHECK(fmt_percent_sig(1.3125) == "131.25%");  // the budget's SwiGLU against the classic FFN
  CHECK(fmt_percent_sig(0.0000916) == "0.00916%");
  CHECK(fmt_ratio(10.5) == "10.50");
  CHECK(fmt_ratio(0.000732) == "0.000732");
  CHECK(fmt_ratio(0.996) == "1.00");
  CHECK(fmt_ratio(-1e-12) == "-1e-12");  // digits, not "-0"
  CHECK(fmt_sig3(-0.04234) == "-0.0423");
  CHECK(fmt_sig3(0.0) == "0");
  CHECK(fmt_sig3(-0.0) == "0");
  CHECK(fmt_sig3(1234.5) == "1.23e+03");
}

TEST_CASE("megabytes, zoom, token ids, before and after") {
  CHECK(fmt_mb(22020096) == "22.02");    // one Qwen3.5-0.8B MLP layer in bf16, per generated token
  CHECK(fmt_mb(528482304) == "528.48");  // all 24 layers
  CHECK(fmt_mb(0) == "0.00");
  CHECK(fmt_zoom(2) == "×2");
  CHECK(fmt_zoom(1.25) == "×1.25");
  CHECK(fmt_zoom(256) == "×256");
  CHECK(fmt_token_id(68990) == "id 68990");
  CHECK(fmt_before_after(fmt_percent1(0.186), fmt_percent1(0.017)) == "18.6 % → 1.7 %");
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

TEST_CASE("a config value: integers as integers, large and small ones compactly, always reading back") {
  CHECK(fmt_config_value(-10000) == "-10000");
  CHECK(fmt_config_value(10000000) == "10000000");  // Qwen3.5's rope_theta
  CHECK(fmt_config_value(1) == "1");
  CHECK(fmt_config_value(1e12) == "1e+12");
  CHECK(fmt_config_value(1e308) == "1e+308");
  CHECK(fmt_config_value(0.25) == "0.25");
  CHECK(fmt_config_value(1e-7) == "1e-07");
  CHECK(fmt_config_value(-0.0) == "0");
  for (double v : {1e308, -1e-300, 123456.5, 1e9, 4.9e-324, 0.1})
    CHECK(std::strtod(fmt_config_value(v).c_str(), nullptr) == v);
}
