// What the synthetic checkpoints share (synthetic_checkpoint.h: the MLP layers the packs are made
// from; synthetic_model.h: whole models for the forward pass): their own RNG (splitmix64 +
// Box-Muller, so the bytes are the same natively and in wasm whatever the C++ library's
// distributions do), a stream per tensor name, and writing the files of a checkpoint directory.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/checkpoint/dtype.h"
#include "core/checkpoint/safetensors.h"

struct synth_rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return ((next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }  // (0, 1)
  double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }
  // Close to N(0, 1) at a tenth of the cost (four 16-bit uniforms summed, Irwin-Hall, scaled to
  // variance 1): the whole models' hundreds of millions of weights.
  double quick_normal() {
    const uint64_t z = next();
    const double sum = (double)(z & 0xffff) + (double)((z >> 16) & 0xffff) + (double)((z >> 32) & 0xffff) + (double)(z >> 48);
    return (sum / 65536.0 - 2.0) * 1.7320508075688772;
  }
};

// A tensor-specific stream: the same tensor gets the same values whichever others are written.
synth_rng synth_stream(uint64_t seed, const std::string& name);

// f32 values -> little-endian bytes of dtype t.
std::string synth_bytes(const std::vector<float>& v, st_dtype t);

// config.json, the shard(s) (tensors dealt round-robin over `shards` files; one file is named
// `single_name`) and, when asked or sharded, model.safetensors.index.json.
std::map<std::string, std::string> synth_files(const std::string& config_json, const std::vector<st_write_tensor>& tensors,
                                               int shards, const std::string& single_name, bool index);
