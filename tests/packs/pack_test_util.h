// Shared by the pack tests: small synthetic checkpoints in memory, and an independent
// double-precision path from a checkpoint's raw bytes to the lessons' gate shares.
#pragma once

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/synthetic_checkpoint.h"
#include "core/io/byte_source.h"
#include "core/pack/pack_build.h"

// Small dims that still cross the kernels' tiles unevenly (hidden % 8 != 0, inter % 4 != 0).
inline synth_spec pack_test_spec(synth_naming naming, st_dtype dtype, int shards) {
  synth_spec s;
  s.naming = naming;
  s.dtype = dtype;
  s.shards = shards;
  s.hidden = 60;
  s.intermediate = 170;
  s.num_layers = 5;
  s.vocab = 97;
  s.layers = {0, 2, 4};
  return s;
}

inline mem_files pack_test_checkpoint(const synth_spec& s) {
  mem_files m;
  m.files = synth_checkpoint_make(s);
  return m;
}

// The lesson's 6-token probe (its pieces as the default pack carries them).
inline pack_probe_spec pack_test_lesson_probe(const std::string& label) {
  return {label, {1, 2, 3, 4, 5, 6}, {"今天", "天气", "不错", "，", "我们", "去公园"}};
}

// A checkpoint in memory converted to a pack of `layers` with `probes`, as `swiglu convert` does.
inline bool pack_test_build(mem_files& checkpoint_files, const std::vector<int>& layers,
                            const std::vector<pack_probe_spec>& probes, mem_files* pack, std::string* err) {
  checkpoint ck;
  if (!ckpt_open(&checkpoint_files, &ck, err)) return false;
  pack_build_options o;
  o.layers = layers;
  o.probes = probes;
  pack_build_result res;
  return pack_build(ck, o, pack, &res, err);
}

// A tensor straight from the file bytes, decoded here without the core's converters.
inline std::vector<double> raw_tensor(mem_files& m, const std::string& name) {
  for (auto& f : m.files) {
    if (f.first.find(".safetensors") == std::string::npos) continue;
    st_file sf;
    std::string err;
    if (!st_read_header(&m, f.first, &sf, &err)) continue;
    const st_tensor* t = sf.find(name);
    if (!t) continue;
    const unsigned char* p = (const unsigned char*)f.second.data() + t->begin;
    const size_t n = (size_t)(t->end - t->begin);
    std::vector<double> out;
    if (t->dtype == ST_DTYPE_F32) {
      for (size_t i = 0; i < n; i += 4) {
        float v;
        std::memcpy(&v, p + i, 4);
        out.push_back(v);
      }
    } else {
      for (size_t i = 0; i < n; i += 2) {
        const unsigned h = p[i] | (p[i + 1] << 8);
        if (t->dtype == ST_DTYPE_BF16) {
          uint32_t u = (uint32_t)h << 16;
          float v;
          std::memcpy(&v, &u, 4);
          out.push_back(v);
        } else {
          const int e = (h >> 10) & 31, mant = h & 1023;
          double v = e == 0 ? std::ldexp(mant, -24) : std::ldexp(1024 + mant, e - 25);
          out.push_back(h & 0x8000 ? -v : v);
        }
      }
    }
    return out;
  }
  return {};
}
