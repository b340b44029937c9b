// Synthetic whole models (see synthetic_model.h). Weights are random with a trained model's
// scales where it matters for a readable run: matrices ~ N(0, 1/fan_in), outputs of the mixers
// and the MLP a little smaller so the residual stream grows slowly, norms near their identity,
// DeltaNet decays spread over (0, 1).
#include "core/checkpoint/synthetic_model.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/checkpoint/synthetic_common.h"

using json = nlohmann::json;

synth_model_spec synth_model_qwen35_0p8b() {
  synth_model_spec s;
  s.hidden = 1024, s.intermediate = 3584, s.num_layers = 24, s.vocab = 248320;
  s.heads = 8, s.kv_heads = 2, s.head_dim = 256, s.partial_rotary_factor = 0.25;
  s.lin_k_heads = 16, s.lin_v_heads = 16, s.lin_k_dim = 128, s.lin_v_dim = 128, s.conv_kernel = 4;
  return s;
}

std::map<std::string, std::string> synth_model_make(const synth_model_spec& sp) {
  const bool qwen = sp.naming == SYNTH_NAMING_QWEN35;
  const std::string pre = qwen ? "model.language_model." : "model.";
  const int H = sp.hidden, F = sp.intermediate;
  std::vector<st_write_tensor> tensors;
  auto add = [&](const std::string& name, std::vector<int64_t> shape, const std::vector<float>& v) {
    tensors.push_back({name, sp.dtype, std::move(shape), synth_bytes(v, sp.dtype)});
  };
  // A (rows, cols) matrix ~ gain * N(0, 1/cols); zero when gain is 0.
  auto matrix = [&](const std::string& name, int rows, int cols, double gain) {
    synth_rng r = synth_stream(sp.seed, name);
    std::vector<float> v((size_t)rows * cols);
    const double s = gain / std::sqrt((double)cols);
    for (float& x : v) x = gain == 0 ? 0.0f : (float)(s * r.normal());
    add(name, {rows, cols}, v);
  };
  // A norm's stored weight: near 0 for Qwen3.5's (1 + w), near 1 for w.
  auto norm = [&](const std::string& name, int n, bool one_plus_w) {
    synth_rng r = synth_stream(sp.seed, name);
    std::vector<float> v((size_t)n);
    for (float& x : v) x = (float)((one_plus_w ? 0.0 : 1.0) + 0.1 * r.normal());
    add(name, {n}, v);
  };
  auto vec = [&](const std::string& name, std::vector<int64_t> shape, double mean, double spread) {
    synth_rng r = synth_stream(sp.seed, name);
    size_t n = 1;
    for (int64_t d : shape) n *= (size_t)d;
    std::vector<float> v(n);
    for (float& x : v) x = (float)(mean + spread * r.normal());
    add(name, shape, v);
  };
  const double out_gain = sp.zero_mixers ? 0.0 : 0.5;
  {
    synth_rng r = synth_stream(sp.seed, pre + "embed_tokens.weight");
    std::vector<float> e((size_t)sp.vocab * H);
    for (float& x : e) x = (float)(0.5 * r.normal());
    add(pre + "embed_tokens.weight", {sp.vocab, H}, e);
  }
  const int hd = sp.head_dim;
  for (int l = 0; l < sp.num_layers; l++) {
    const std::string lp = pre + "layers." + std::to_string(l) + ".";
    const bool full = !qwen || (l + 1) % sp.full_attention_interval == 0;
    norm(lp + "input_layernorm.weight", H, qwen);
    if (full) {
      matrix(lp + "self_attn.q_proj.weight", sp.heads * hd * (qwen ? 2 : 1), H, 1.0);
      matrix(lp + "self_attn.k_proj.weight", sp.kv_heads * hd, H, 1.0);
      matrix(lp + "self_attn.v_proj.weight", sp.kv_heads * hd, H, 1.0);
      if (sp.qkv_bias) {
        vec(lp + "self_attn.q_proj.bias", {sp.heads * hd}, 0, 0.1);
        vec(lp + "self_attn.k_proj.bias", {sp.kv_heads * hd}, 0, 0.1);
        vec(lp + "self_attn.v_proj.bias", {sp.kv_heads * hd}, 0, 0.1);
      }
      if (qwen) {
        norm(lp + "self_attn.q_norm.weight", hd, true);
        norm(lp + "self_attn.k_norm.weight", hd, true);
      }
      matrix(lp + "self_attn.o_proj.weight", H, sp.heads * hd, out_gain);
    } else {
      const int kd = sp.lin_k_heads * sp.lin_k_dim, vd = sp.lin_v_heads * sp.lin_v_dim, cd = 2 * kd + vd;
      matrix(lp + "linear_attn.in_proj_qkv.weight", cd, H, 1.0);
      matrix(lp + "linear_attn.in_proj_z.weight", vd, H, 1.0);
      matrix(lp + "linear_attn.in_proj_b.weight", sp.lin_v_heads, H, 1.0);
      matrix(lp + "linear_attn.in_proj_a.weight", sp.lin_v_heads, H, 1.0);
      vec(lp + "linear_attn.conv1d.weight", {cd, 1, sp.conv_kernel}, 0, 1.0 / std::sqrt((double)sp.conv_kernel));
      vec(lp + "linear_attn.dt_bias", {sp.lin_v_heads}, 0, 0.5);
      {  // A_log = log(A), A uniform in (1, 16) as transformers initialises it
        synth_rng r = synth_stream(sp.seed, lp + "linear_attn.A_log");
        std::vector<float> v((size_t)sp.lin_v_heads);
        for (float& x : v) x = (float)std::log(1.0 + 15.0 * r.uniform());
        add(lp + "linear_attn.A_log", {sp.lin_v_heads}, v);
      }
      norm(lp + "linear_attn.norm.weight", sp.lin_v_dim, false);  // the gated norm scales by w
      matrix(lp + "linear_attn.out_proj.weight", H, vd, out_gain);
    }
    norm(lp + "post_attention_layernorm.weight", H, qwen);
    matrix(lp + "mlp.gate_proj.weight", F, H, 1.0);
    matrix(lp + "mlp.up_proj.weight", F, H, 1.0);
    matrix(lp + "mlp.down_proj.weight", H, F, 0.5);
  }
  norm(pre + "norm.weight", H, qwen);
  if (!sp.tied) matrix("lm_head.weight", sp.vocab, H, 1.0);
  if (qwen) {  // decoys the forward pass must never read
    vec("mtp.layers.0.mlp.gate_proj.weight", {F, H}, 0, 1.0);
    vec("model.visual.blocks.0.norm1.weight", {48}, 0, 1.0);
  }

  json dims = {{"hidden_size", H},
               {"intermediate_size", F},
               {"num_hidden_layers", sp.num_layers},
               {"vocab_size", sp.vocab},
               {"rms_norm_eps", sp.rms_norm_eps},
               {"hidden_act", "silu"},
               {"num_attention_heads", sp.heads},
               {"num_key_value_heads", sp.kv_heads},
               {"head_dim", hd}};
  json cfg;
  if (qwen) {
    json types = json::array();
    for (int l = 0; l < sp.num_layers; l++)
      types.push_back((l + 1) % sp.full_attention_interval ? "linear_attention" : "full_attention");
    dims["model_type"] = "qwen3_5_text";
    dims["layer_types"] = types;
    dims["linear_num_key_heads"] = sp.lin_k_heads;
    dims["linear_num_value_heads"] = sp.lin_v_heads;
    dims["linear_key_head_dim"] = sp.lin_k_dim;
    dims["linear_value_head_dim"] = sp.lin_v_dim;
    dims["linear_conv_kernel_dim"] = sp.conv_kernel;
    dims["rope_parameters"] = {{"rope_type", "default"},
                               {"rope_theta", sp.rope_theta},
                               {"partial_rotary_factor", sp.partial_rotary_factor},
                               {"mrope_section", {11, 11, 10}},
                               {"mrope_interleaved", true}};
    cfg = {{"model_type", "qwen3_5"},
           {"architectures", {"Qwen3_5ForConditionalGeneration"}},
           {"text_config", dims},
           {"tie_word_embeddings", sp.tied},
           {"vision_config", {{"hidden_size", 48}, {"depth", 1}}}};
  } else {
    cfg = dims;
    cfg["model_type"] = sp.qkv_bias ? "qwen2" : "llama";
    cfg["architectures"] = {sp.qkv_bias ? "Qwen2ForCausalLM" : "LlamaForCausalLM"};
    cfg["rope_theta"] = sp.rope_theta;
    if (sp.partial_rotary_factor < 1) cfg["partial_rotary_factor"] = sp.partial_rotary_factor;
    cfg["tie_word_embeddings"] = sp.tied;
  }
  cfg["_name_or_path"] = qwen ? "swiglu-lab/synthetic-qwen3.5-whole" : "swiglu-lab/synthetic-llama-whole";
  cfg["swiglu_lab_synthetic"] = true;
  return synth_files(cfg.dump(2) + "\n", tensors, sp.shards, qwen ? SYNTH_QWEN35_SINGLE_SHARD : "model.safetensors", false);
}
