// model= values -> checkpoint URLs: the hf: mapping (no network here: the real Hub cannot be
// reached from these machines, so the mapping itself is what is tested) and strict refusals.
#include <catch2/catch.hpp>

#include "core/checkpoint_remote/model_location.h"

static model_location parse_ok(const std::string& text) {
  model_location loc;
  std::string err;
  INFO(text);
  REQUIRE(model_location_parse(text, &loc, &err));
  return loc;
}

TEST_CASE("model location: hf:OWNER/NAME maps to the Hub's resolve URLs", "[checkpoint_remote]") {
  model_location a = parse_ok("hf:Qwen/Qwen3.5-0.8B");
  CHECK(a.hub);
  CHECK(a.owner == "Qwen");
  CHECK(a.name == "Qwen3.5-0.8B");
  CHECK(a.revision == "main");
  CHECK(a.id() == "Qwen/Qwen3.5-0.8B");
  CHECK(model_location_file_url(a, "config.json") == "https://huggingface.co/Qwen/Qwen3.5-0.8B/resolve/main/config.json");
  CHECK(model_location_file_url(a, "model.safetensors.index.json") ==
        "https://huggingface.co/Qwen/Qwen3.5-0.8B/resolve/main/model.safetensors.index.json");

  model_location b = parse_ok("hf:HuggingFaceTB/SmolLM2-135M@v1.0_x");
  CHECK(b.revision == "v1.0_x");
  CHECK(model_location_file_url(b, "model.safetensors") ==
        "https://huggingface.co/HuggingFaceTB/SmolLM2-135M/resolve/v1.0_x/model.safetensors");
  model_location c = parse_ok("hf:meta-llama/Llama-3.2-1B@0123456789abcdef0123456789abcdef01234567");
  CHECK(c.base == "https://huggingface.co/meta-llama/Llama-3.2-1B/resolve/0123456789abcdef0123456789abcdef01234567/");
  // A pull request's ref carries slashes, which the resolve URL encodes.
  model_location d = parse_ok("hf:org/m@refs/pr/12");
  CHECK(d.revision == "refs/pr/12");
  CHECK(d.base == "https://huggingface.co/org/m/resolve/refs%2Fpr%2F12/");
}

TEST_CASE("model location: directories on any host or beside the page", "[checkpoint_remote]") {
  model_location a = parse_ok("https://host.example/ckpt/qwen");
  CHECK_FALSE(a.hub);
  CHECK(a.base == "https://host.example/ckpt/qwen/");
  CHECK(a.id() == "https://host.example/ckpt/qwen");
  CHECK(parse_ok("http://127.0.0.1:9000/Qwen/X/resolve/main/").base == "http://127.0.0.1:9000/Qwen/X/resolve/main/");
  CHECK(parse_ok("ckpt/default").base == "ckpt/default/");
}

TEST_CASE("model location: malformed values are refused with a reason", "[checkpoint_remote]") {
  const char* bad[] = {
      "", "hf:", "hf:Qwen", "hf:/Qwen3", "hf:Qwen/", "hf:Qwen/Qwen3.5-0.8B/extra", "hf:Qw en/x", "hf:Qwen/x y",
      "hf:-Qwen/x", "hf:Qwen/x-", "hf:Qwen/.x", "hf:Qwen/x.", "hf:Qw--en/x", "hf:Qwen/x..y", "hf:Qwen/x@", "hf:Qwen/x@a..b",
      "hf:Qwen/x@/main", "hf:Qwen/x@main/", "hf:Qwen/x@a b", "hf:Qwen/x@a#b", "hf:Qwen/x@a?b", "hf:Qwen/x@a//b",
      "hf:Qwen/x<y", "hf:Qwen/ü", "ftp://host/dir", "file:///etc", "javascript:alert(1)", "/abs/path", "../up",
      "a/../../b", "dir with space", "HF:Qwen/x",
  };
  for (const char* v : bad) {
    model_location loc;
    std::string err;
    INFO(v);
    CHECK_FALSE(model_location_parse(v, &loc, &err));
    CHECK_FALSE(err.empty());
  }
  // 96 characters is the Hub's limit for OWNER/NAME.
  const std::string owner(40, 'a'), name95(95 - 41, 'b');
  CHECK(model_repo_id_ok(owner + "/" + name95 + "c"));
  CHECK_FALSE(model_repo_id_ok(owner + "/" + name95 + "cd"));
  model_location loc;
  std::string err;
  CHECK_FALSE(model_location_parse(std::string("https://h/") + std::string(600, 'x'), &loc, &err));
}
