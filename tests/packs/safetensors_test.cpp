// safetensors: round trip through the writer, and a catalogue of broken headers, each with its
// own error naming the file and, where there is one, the tensor.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "core/checkpoint/safetensors.h"

static std::string f32_bytes(std::initializer_list<float> v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(&s[0], v.begin(), s.size());
  return s;
}

// A file from a raw header text (length prefix computed) and `data_bytes` zero bytes of data.
static std::string raw_file(const std::string& header, size_t data_bytes) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; i++) out[i] = (char)((uint64_t)header.size() >> (8 * i));
  return out + header + std::string(data_bytes, '\0');
}

static std::string parse_error(const std::string& file_bytes) {
  mem_files m;
  m.files["x.safetensors"] = file_bytes;
  st_file f;
  std::string err;
  REQUIRE_FALSE(st_read_header(&m, "x.safetensors", &f, &err));
  REQUIRE(err.find("x.safetensors") != std::string::npos);
  return err;
}

TEST_CASE("safetensors: the writer's files parse back with absolute offsets", "[packs][safetensors]") {
  std::vector<st_write_tensor> t = {{"a.weight", ST_DTYPE_F32, {2, 2}, f32_bytes({1, 2, 3, 4})},
                                    {"b", ST_DTYPE_F32, {3}, f32_bytes({5, 6, 7})}};
  mem_files m;
  m.files["w.safetensors"] = st_write(t, {{"format", "pt"}});
  st_file f;
  std::string err;
  REQUIRE(st_read_header(&m, "w.safetensors", &f, &err));
  REQUIRE(f.data_start % 8 == 0);
  REQUIRE(f.metadata.at("format") == "pt");
  REQUIRE(f.tensors.size() == 2);
  const st_tensor* b = f.find("b");
  REQUIRE(b);
  REQUIRE(b->shape == std::vector<int64_t>{3});
  REQUIRE(b->end - b->begin == 12);
  float v[3];
  REQUIRE(m.read("w.safetensors", b->begin, 12, v, &err));
  REQUIRE(v[0] == 5.0f);
  REQUIRE(v[2] == 7.0f);
}

TEST_CASE("safetensors: broken headers, each with its own error", "[packs][safetensors]") {
  const std::string ok = R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  SECTION("shorter than the length prefix") { REQUIRE(parse_error("abc").find("too short") != std::string::npos); }
  SECTION("header length past the file") {
    std::string f = raw_file(ok, 8);
    f[0] = (char)200;  // claims 200+ bytes of header
    REQUIRE(parse_error(f).find("runs past the end") != std::string::npos);
  }
  SECTION("huge header") {
    std::string f = raw_file(ok, 8);
    f[4] = 1;  // 2^32 + ...
    REQUIRE(parse_error(f).find("more than") != std::string::npos);
  }
  SECTION("not JSON") { REQUIRE(parse_error(raw_file("{\"t\":", 0)).find("not valid JSON") != std::string::npos); }
  SECTION("not an object") { REQUIRE(parse_error(raw_file("[1,2]", 0)).find("not a JSON object") != std::string::npos); }
  SECTION("offsets past the end") {
    REQUIRE(parse_error(raw_file(ok, 4)).find("past the data section") != std::string::npos);
  }
  SECTION("overlapping tensors") {
    const std::string h = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})";
    const std::string e = parse_error(raw_file(h, 12));
    REQUIRE(e.find("overlap") != std::string::npos);
    REQUIRE(e.find("'a'") != std::string::npos);
  }
  SECTION("dtype and shape disagree with the byte count") {
    const std::string h = R"({"w":{"dtype":"BF16","shape":[3],"data_offsets":[0,8]}})";
    const std::string e = parse_error(raw_file(h, 8));
    REQUIRE(e.find("tensor 'w'") != std::string::npos);
    REQUIRE(e.find("do not fit dtype BF16") != std::string::npos);
  }
  SECTION("unknown dtype") {
    REQUIRE(parse_error(raw_file(R"({"w":{"dtype":"Q4","shape":[1],"data_offsets":[0,1]}})", 1)).find("unknown dtype 'Q4'") !=
            std::string::npos);
  }
  SECTION("negative shape") {
    REQUIRE(parse_error(raw_file(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", 4)).find("shape") !=
            std::string::npos);
  }
  SECTION("shape whose element count overflows") {
    const std::string h = R"({"w":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,4]}})";
    REQUIRE(parse_error(raw_file(h, 4)).find("overflows") != std::string::npos);
  }
  SECTION("begin after end") {
    REQUIRE(parse_error(raw_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[8,4]}})", 8)).find("begin 8 > end 4") !=
            std::string::npos);
  }
  SECTION("missing fields") {
    REQUIRE(parse_error(raw_file(R"({"w":{"shape":[1],"data_offsets":[0,4]}})", 4)).find("'dtype'") != std::string::npos);
    REQUIRE(parse_error(raw_file(R"({"w":{"dtype":"F32","data_offsets":[0,4]}})", 4)).find("'shape'") != std::string::npos);
    REQUIRE(parse_error(raw_file(R"({"w":{"dtype":"F32","shape":[1]}})", 4)).find("data_offsets") != std::string::npos);
  }
  SECTION("metadata that is not strings") {
    REQUIRE(parse_error(raw_file(R"({"__metadata__":{"a":1}})", 0)).find("__metadata__") != std::string::npos);
  }
}
