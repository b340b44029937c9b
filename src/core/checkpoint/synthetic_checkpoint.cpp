// Synthetic checkpoints (see synthetic_checkpoint.h; the RNG and the file writing: synthetic_common.h).
#include "core/checkpoint/synthetic_checkpoint.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/synthetic_common.h"

using json = nlohmann::json;

const char* const SYNTH_QWEN35_SINGLE_SHARD = "model.safetensors-00001-of-00001.safetensors";


synth_gate_shape synth_gate_shape_for(int layer, int num_layers) {
  // Early layers: symmetric and narrow (about 33 %/28 %); the middle narrower and shifted
  // slightly open (33 %/24 %); the last wider and shifted open (42 %/33 %). Interpolated between.
  const double t = num_layers > 1 ? (double)layer / (num_layers - 1) : 0.0;
  if (t <= 0.5) return {0.40 - 0.08 * t, 0.04 * t};
  return {0.36 + 0.58 * (t - 0.5), 0.02 + 0.06 * (t - 0.5)};
}

std::map<std::string, std::string> synth_checkpoint_make(const synth_spec& sp) {
  const int H = sp.hidden, F = sp.intermediate;
  const bool qwen = sp.naming == SYNTH_NAMING_QWEN35;
  const std::string pre = qwen ? "model.language_model." : "model.";
  std::vector<st_write_tensor> tensors;
  auto add = [&](const std::string& name, std::vector<int64_t> shape, const std::vector<float>& v) {
    tensors.push_back({name, sp.dtype, std::move(shape), synth_bytes(v, sp.dtype)});
  };

  // The common direction m (unit RMS) every embedding shares, and the embeddings: m + noise.
  synth_rng rm = synth_stream(sp.seed, "common-direction");
  std::vector<float> m((size_t)H);
  for (float& v : m) v = (float)rm.normal();
  {
    synth_rng r = synth_stream(sp.seed, pre + "embed_tokens.weight");
    std::vector<float> e((size_t)sp.vocab * H);
    for (size_t i = 0; i < e.size(); i++) e[i] = (float)(0.02 * (m[i % H] + r.normal()));
    add(pre + "embed_tokens.weight", {sp.vocab, H}, e);
  }

  // One MLP: gate rows = spread * N(0, 1/H) noise + shift along m, so that W_gate x has about
  // that spread and shift for x = rmsnorm(m + noise) (whose projection on m/H is ~1/sqrt(2)).
  auto add_mlp = [&](const std::string& p, synth_gate_shape g) {
    synth_rng r = synth_stream(sp.seed, p);
    std::vector<float> gate((size_t)F * H), up((size_t)F * H), down((size_t)H * F);
    const double s = g.spread / std::sqrt((double)H), b = g.shift * std::sqrt(2.0) / H;
    for (int n = 0; n < F; n++) {
      const double unit_bias = 0.5 * r.normal();  // units differ in how often they open
      for (int k = 0; k < H; k++)
        gate[(size_t)n * H + k] = (float)(s * r.normal() + (b + unit_bias * s / std::sqrt((double)H)) * m[k]);
    }
    for (float& v : up) v = (float)(r.normal() / std::sqrt((double)H));
    for (float& v : down) v = (float)(r.normal() / std::sqrt((double)F));
    add(p + "gate_proj.weight", {F, H}, gate);
    add(p + "up_proj.weight", {F, H}, up);
    add(p + "down_proj.weight", {H, F}, down);
  };

  for (int L : sp.layers) {
    const std::string lp = pre + "layers." + std::to_string(L) + ".";
    synth_rng r = synth_stream(sp.seed, lp + "post_attention_layernorm.weight");
    std::vector<float> norm((size_t)H);
    // Qwen3.5 stores w near 0 and multiplies by (1 + w); Llama stores w near 1.
    for (float& v : norm) v = (float)((qwen ? 0.0 : 1.0) + 0.05 * r.normal());
    add(lp + "post_attention_layernorm.weight", {H}, norm);
    add_mlp(lp + "mlp.", synth_gate_shape_for(L, sp.num_layers));
  }
  if (qwen) {
    // Decoys: the vision tower and the multi-token-prediction head, whose MLP has layer 0's
    // names under "mtp." and gates that are almost all open, so that a mix-up shows at once.
    add_mlp("mtp.layers.0.mlp.", {0.3, 2.0});
    synth_rng r = synth_stream(sp.seed, "visual");
    std::vector<float> v1(64 * 48), v2(48);
    for (float& v : v1) v = (float)r.normal();
    for (float& v : v2) v = (float)r.normal();
    add("model.visual.blocks.0.mlp.linear_fc1.weight", {64, 48}, v1);
    add("model.visual.blocks.0.norm1.weight", {48}, v2);
  }

  // config.json: Qwen3.5 nests the language model's dims under text_config.
  json dims = {{"hidden_size", H},         {"intermediate_size", F}, {"num_hidden_layers", sp.num_layers},
               {"vocab_size", sp.vocab},   {"rms_norm_eps", sp.rms_norm_eps}, {"hidden_act", "silu"}};
  json cfg;
  if (qwen) {
    dims["model_type"] = "qwen3_5_text";
    cfg = {{"model_type", "qwen3_5"},
           {"architectures", {"Qwen3_5ForConditionalGeneration"}},
           {"text_config", dims},
           {"vision_config", {{"hidden_size", 48}, {"depth", 1}}}};
  } else {
    cfg = dims;
    cfg["model_type"] = "llama";
    cfg["architectures"] = {"LlamaForCausalLM"};
  }
  cfg["_name_or_path"] = qwen ? "swiglu-lab/synthetic-qwen3.5-0.8b-shaped" : "swiglu-lab/synthetic-llama-shaped";
  cfg["swiglu_lab_synthetic"] = true;

  return synth_files(cfg.dump(2) + "\n", tensors, sp.shards, qwen ? SYNTH_QWEN35_SINGLE_SHARD : "model.safetensors", sp.index);
}
