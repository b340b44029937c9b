// Shared by the tests of checkpoints read by byte ranges: a checkpoint source over the fetch seam's
// twin with the browser's event loop compressed (settle), small synthetic checkpoints, what the
// converter makes of a tensor, and files whose size a host claims without holding the bytes.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/quant/q8_format.h"
#include "core/source/checkpoint_source.h"
#include "packs/pack_test_util.h"
#include "platform/native/fetch_native.h"

static const char* kBase = "https://hub.example/o/m/resolve/main/";

// Big enough that 0.2 points is many values (16 tokens x 1024 units), small enough to be quick.
inline synth_spec ckpt_test_spec(synth_naming naming, st_dtype dtype, int shards) {
  synth_spec s = pack_test_spec(naming, dtype, shards);
  s.hidden = 252;        // not a multiple of the panel width
  s.intermediate = 1022; // not a multiple of the panel height
  s.vocab = 300;
  return s;
}

inline source_probe test_probe() {
  source_probe p;
  p.label = "sixteen tokens";
  p.tokens = {1, 2, 3, 4, 5, 6, 7, 9, 11, 42, 77, 100, 150, 200, 250, 299};
  return p;
}

// Files a host serves at the size it claims: the given bytes first, then zeros (finite weights)
// up to the claim, read without ever holding them (a 4 GiB tensor costs nothing here).
struct claimed_files : byte_source {
  struct file { std::string head; uint64_t size = 0; };
  std::map<std::string, file> files;
  bool list(std::vector<std::string>* names, std::string*) override {
    for (const auto& f : files) names->push_back(f.first);
    return true;
  }
  bool exists(const std::string& name) override { return files.count(name) > 0; }
  bool size(const std::string& name, uint64_t* bytes, std::string*) override {
    *bytes = files.at(name).size;
    return true;
  }
  bool read(const std::string& name, uint64_t offset, size_t length, void* dst, std::string*) override {
    const file& f = files.at(name);
    if (offset > f.size || length > f.size - offset) return false;
    unsigned char* d = (unsigned char*)dst;
    for (size_t i = 0; i < length; i++) d[i] = offset + i < f.head.size() ? (unsigned char)f.head[offset + i] : 0;
    return true;
  }
};

struct ckpt_fixture {
  mem_files files;
  claimed_files claimed;  // a host's claims, when the test gives them instead of files
  native_fetch net;
  checkpoint_source_options opt;
  std::unique_ptr<checkpoint_source> src;
  double now = 0;
  explicit ckpt_fixture(mem_files f) : files(std::move(f)) {
    net.files = &files;
    net.base = kBase;
    opt.probes = {test_probe()};
    opt.stall_seconds = 5;
    opt.clock = nullptr;  // one conversion slice per pump: the same steps on every machine
  }
  explicit ckpt_fixture(claimed_files c) : ckpt_fixture(mem_files()) {
    claimed = std::move(c);
    net.files = &claimed;
  }
  void open() {
    model_location loc;
    std::string err;
    REQUIRE(model_location_parse(kBase, &loc, &err));
    src.reset();
    src.reset(new checkpoint_source(&net, loc, now, opt));
  }
  // The browser's event loop, compressed: pump and deliver until nothing moves (no answer comes
  // and no chunk waits for conversion).
  void settle() {
    for (int i = 0; i < 100000; i++) {
      src->pump(now);
      if (net.deliver(now) == 0) {
        src->pump(now);
        if (net.deliver(now) == 0 && src->chunks_converting() == 0) return;
      }
    }
    FAIL("the source never settled");
  }
  source_failure only_failure() {
    std::vector<source_failure> f = src->failures();
    REQUIRE(f.size() == 1);
    return f[0];
  }
};

// What the converter makes of a tensor: q8 of its f32 values, as pack_build does.
inline std::string converter_q8(const checkpoint& ck, const std::string& name, int rows, int cols) {
  std::vector<float> w;
  std::string err;
  REQUIRE(ckpt_read_f32(ck, name, {rows, cols}, &w, &err));
  q8_matrix_owned q{};
  REQUIRE(q8_matrix_owned_init(&q, w.data(), rows, cols) == Q8_OK);
  std::string b((const char*)q.blob, q.bytes);
  q8_matrix_owned_free(&q);
  return b;
}

inline std::string view_bytes(const q8_matrix_view* v) {
  const char* base = (const char*)v->scales - 64;  // the blob starts with its 64-byte header
  return std::string(base, q8_matrix_blob_bytes(v->rows, v->cols));
}

// One shard whose header lists `tensors` (name, BF16, shape) back to back; its claimed size is
// exactly what they need. The data bytes are claimed, not held.
inline claimed_files::file claimed_shard(const std::vector<std::pair<std::string, std::vector<int64_t>>>& tensors) {
  std::string json = "{";
  uint64_t at = 0;
  for (size_t i = 0; i < tensors.size(); i++) {
    uint64_t n = 2;
    std::string shape;
    for (int64_t d : tensors[i].second) n *= (uint64_t)d, shape += (shape.empty() ? "" : ",") + std::to_string(d);
    json += (i ? "," : "") + std::string("\"") + tensors[i].first + "\":{\"dtype\":\"BF16\",\"shape\":[" + shape +
            "],\"data_offsets\":[" + std::to_string(at) + "," + std::to_string(at + n) + "]}";
    at += n;
  }
  json += "}";
  while (json.size() % 8) json += ' ';
  claimed_files::file f;
  for (int i = 0; i < 8; i++) f.head.push_back((char)((uint64_t)json.size() >> (8 * i)));
  f.head += json;
  f.size = f.head.size() + at;
  return f;
}

// A Llama-named one-file checkpoint of `layers` layers with these dims, claimed: a config that
// agrees with its header, and a file of the size both imply.
inline claimed_files claimed_checkpoint(int64_t hidden, int64_t inter, int layers, int64_t vocab = 97) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> t = {{"model.embed_tokens.weight", {vocab, hidden}},
                                                                  {"model.layers.0.post_attention_layernorm.weight", {hidden}}};
  for (int l = 0; l < layers; l++) {
    const std::string p = "model.layers." + std::to_string(l) + ".mlp.";
    t.push_back({p + "gate_proj.weight", {inter, hidden}});
    t.push_back({p + "up_proj.weight", {inter, hidden}});
    t.push_back({p + "down_proj.weight", {hidden, inter}});
  }
  claimed_files c;
  c.files["model.safetensors"] = claimed_shard(t);
  const std::string cfg = "{\"model_type\":\"llama\",\"hidden_size\":" + std::to_string(hidden) + ",\"intermediate_size\":" +
                          std::to_string(inter) + ",\"num_hidden_layers\":" + std::to_string(layers) + ",\"vocab_size\":" +
                          std::to_string(vocab) + ",\"hidden_act\":\"silu\",\"swiglu_lab_synthetic\":true}";
  c.files["config.json"] = {cfg, cfg.size()};
  return c;
}
