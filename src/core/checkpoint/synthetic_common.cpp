// What the synthetic checkpoints share (see synthetic_common.h).
#include "core/checkpoint/synthetic_common.h"

#include <cstdio>
#include <nlohmann/json.hpp>

std::string synth_bytes(const std::vector<float>& v, st_dtype t) {
  std::string b(v.size() * st_dtype_bytes(t), '\0');
  dtype_from_f32(t, v.data(), v.size(), &b[0]);
  return b;
}

synth_rng synth_stream(uint64_t seed, const std::string& name) {
  uint64_t h = seed ^ 0xcbf29ce484222325ull;
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ull;
  return synth_rng{h};
}

std::map<std::string, std::string> synth_files(const std::string& config_json, const std::vector<st_write_tensor>& tensors,
                                               int shards, const std::string& single_name, bool index) {
  std::map<std::string, std::string> files;
  files["config.json"] = config_json;
  shards = shards < 1 ? 1 : shards;
  nlohmann::json weight_map = nlohmann::json::object();
  for (int s = 0; s < shards; s++) {
    std::vector<st_write_tensor> part;
    for (size_t i = 0; i < tensors.size(); i++)
      if ((int)(i % (size_t)shards) == s) part.push_back(tensors[i]);
    char name[96];
    if (shards == 1) std::snprintf(name, sizeof name, "%s", single_name.c_str());
    else std::snprintf(name, sizeof name, "model-%05d-of-%05d.safetensors", s + 1, shards);
    for (const st_write_tensor& t : part) weight_map[t.name] = name;
    files[name] = st_write(part, {{"format", "pt"}});
  }
  if (index || shards > 1)
    files["model.safetensors.index.json"] =
        nlohmann::json({{"metadata", {{"total_size", 0}}}, {"weight_map", weight_map}}).dump(2) + "\n";
  return files;
}
