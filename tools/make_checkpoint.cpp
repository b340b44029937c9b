// make_checkpoint: writes a synthetic Hugging Face checkpoint from a fixed seed
// (src/core/checkpoint/synthetic_checkpoint.h). With no options it writes the embedded default:
// shaped exactly like Qwen3.5-0.8B's language model (text_config, 1024 / 3584, 24 layers, BF16,
// model.language_model.* names, the visual and mtp decoys, one shard plus index), holding layers
// 0, 11 and 23 and a 4096-token vocabulary. The set-up builds the default pack from it.
//
//   make_checkpoint --out DIR [--naming qwen35|llama] [--hidden H] [--intermediate F]
//                   [--num-layers N] [--vocab V] [--layers 0,11,23|all] [--dtype bf16|f16|f32]
//                   [--shards K] [--no-index] [--seed S] [--no-tokenizer] [--unmarked]
//   make_checkpoint --out DIR --whole planted|0.8b|random [--naming ...] [--hidden ...] ...
//                   [--fill TENSOR=BITS]
//
// --whole writes a whole language model for the forward pass (synthetic_model.h): `planted` is the
// page's default whole model (the lessons' rules planted, its own tokenizer.json), `0.8b` the
// full-size Qwen3.5-0.8B-shaped BF16 checkpoint of the benchmarks (1.5 GB), `random` a random one of
// the dims given (--naming, --hidden, --intermediate, --num-layers, --vocab, --dtype, --shards, --seed).
// --fill sets every element of one BF16 tensor to BITS (0x7F7F: 3.39e38, finite, so a loader takes
// it and a pass overflows f32 on it; 0x7FC0: NaN): the hostile-weights tests' checkpoints.
//
// Beside the weights goes a tokenizer.json (core/checkpoint/synthetic_tokenizer.h: the lesson's
// sentence in Qwen3's words, ids below 300) unless --no-tokenizer. --unmarked leaves out config.json's
// "swiglu_lab_synthetic" mark, so the page treats the checkpoint as a real model: without ids= in
// the link it tokenizes the lesson's sentence with that tokenizer.json (the browser tests do).
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_args.h"
#include "core/checkpoint/synthetic_checkpoint.h"
#include "core/checkpoint/synthetic_model.h"
#include "core/checkpoint/synthetic_tokenizer.h"
#include "core/pack/pack_build.h"
#include "platform/native/dir_files.h"

static bool int_arg(const cli_args& a, const char* k, long lo, long hi, int* out) {
  if (!a.has(k)) return true;
  char* end = nullptr;
  long v = std::strtol(a.get(k).c_str(), &end, 10);
  if (a.get(k).empty() || *end || v < lo || v > hi) {
    std::fprintf(stderr, "make_checkpoint: --%s '%s' is not a number in [%ld, %ld]\n", k, a.get(k).c_str(), lo, hi);
    return false;
  }
  *out = (int)v;
  return true;
}

// --fill TENSOR=BITS on the whole model's files.
static bool fill_tensor(const std::string& arg, std::map<std::string, std::string>* files) {
  const size_t eq = arg.rfind('=');
  char* end = nullptr;
  const unsigned long bits = eq == std::string::npos ? 0 : std::strtoul(arg.c_str() + eq + 1, &end, 0);
  if (eq == std::string::npos || eq == 0 || !end || *end || end == arg.c_str() + eq + 1 || bits > 0xFFFF) {
    std::fprintf(stderr, "make_checkpoint: --fill TENSOR=BITS (BITS a 16-bit BF16 pattern, e.g. 0x7F7F), not '%s'\n", arg.c_str());
    return false;
  }
  if (!synth_model_fill_bf16(files, arg.substr(0, eq), (uint16_t)bits)) {
    std::fprintf(stderr, "make_checkpoint: --fill: no BF16 tensor '%s' in the checkpoint\n", arg.substr(0, eq).c_str());
    return false;
  }
  return true;
}

int main(int argc, char** argv) {
  cli_args a;
  if (!cli_parse_args("make_checkpoint", argc - 1, argv + 1,
                      {"out", "naming", "hidden", "intermediate", "num-layers", "vocab", "layers", "dtype", "shards", "seed", "whole", "fill"},
                      {"no-index", "no-tokenizer", "unmarked"}, &a))
    return 2;
  if (!a.has("out")) {
    std::fprintf(stderr, "usage: make_checkpoint --out DIR [--naming qwen35|llama] [--hidden H] [--intermediate F] "
                         "[--num-layers N] [--vocab V] [--layers 0,11,23|all] [--dtype bf16|f16|f32] [--shards K] "
                         "[--no-index] [--seed S] [--no-tokenizer] [--unmarked] [--whole planted|0.8b|random [--fill TENSOR=BITS]]\n");
    return 2;
  }
  if (a.has("fill") && !a.has("whole")) return std::fprintf(stderr, "make_checkpoint: --fill needs --whole\n"), 2;
  synth_spec s;
  const std::string naming = a.get_or("naming", "qwen35"), dtype = a.get_or("dtype", "bf16");
  if (naming != "qwen35" && naming != "llama") return std::fprintf(stderr, "make_checkpoint: --naming qwen35 or llama\n"), 2;
  s.naming = naming == "llama" ? SYNTH_NAMING_LLAMA : SYNTH_NAMING_QWEN35;
  if (dtype != "bf16" && dtype != "f16" && dtype != "f32") return std::fprintf(stderr, "make_checkpoint: --dtype bf16, f16 or f32\n"), 2;
  s.dtype = dtype == "bf16" ? ST_DTYPE_BF16 : dtype == "f16" ? ST_DTYPE_F16 : ST_DTYPE_F32;
  int seed = (int)s.seed;
  if (!int_arg(a, "hidden", 8, 8192, &s.hidden) || !int_arg(a, "intermediate", 8, 32768, &s.intermediate) ||
      !int_arg(a, "num-layers", 1, 1024, &s.num_layers) || !int_arg(a, "vocab", 1, 1 << 20, &s.vocab) ||
      !int_arg(a, "shards", 1, 64, &s.shards) || !int_arg(a, "seed", 0, 1 << 30, &seed))
    return 2;
  s.seed = (uint64_t)seed;
  s.index = !a.flag("no-index");
  std::string err;
  if (a.has("whole")) {
    const std::string kind = a.get("whole");
    std::map<std::string, std::string> files;
    if (kind == "planted") {
      files = synth_model_planted_make();
    } else if (kind == "0.8b" || kind == "random") {
      synth_model_spec m = kind == "0.8b" ? synth_model_qwen35_0p8b() : synth_model_spec();
      if (kind == "random") {
        m.naming = s.naming, m.dtype = s.dtype, m.shards = s.shards, m.seed = s.seed;
        if (m.naming == SYNTH_NAMING_LLAMA) m.partial_rotary_factor = 1.0;
        if (!int_arg(a, "hidden", 8, 8192, &m.hidden) || !int_arg(a, "intermediate", 8, 32768, &m.intermediate) ||
            !int_arg(a, "num-layers", 1, 1024, &m.num_layers) || !int_arg(a, "vocab", 1, 1 << 20, &m.vocab))
          return 2;
      }
      files = synth_model_make(m);
    } else {
      return std::fprintf(stderr, "make_checkpoint: --whole planted, 0.8b or random\n"), 2;
    }
    if (a.has("fill") && !fill_tensor(a.get("fill"), &files)) return 2;
    if (!dir_write_all(a.get("out"), files, &err)) return std::fprintf(stderr, "make_checkpoint: %s\n", err.c_str()), 1;
    std::fprintf(stderr, "make_checkpoint: wrote a synthetic whole model (%s) to %s\n", kind.c_str(), a.get("out").c_str());
    return 0;
  }
  if (!a.has("layers") && s.num_layers != 24) s.layers.clear();  // the default's 0, 11, 23 fit 24 layers only
  if (a.has("layers") && !pack_parse_layers(a.get("layers"), s.num_layers, &s.layers, &err)) {
    std::fprintf(stderr, "make_checkpoint: %s\n", err.c_str());
    return 2;
  }
  if (s.layers.empty())
    for (int i = 0; i < s.num_layers; i++) s.layers.push_back(i);
  std::map<std::string, std::string> files = synth_checkpoint_make(s);
  if (!a.flag("no-tokenizer")) files["tokenizer.json"] = synth_tokenizer_json();
  if (a.flag("unmarked")) {
    nlohmann::json cfg = nlohmann::json::parse(files["config.json"], nullptr, false);
    cfg.erase("swiglu_lab_synthetic");
    files["config.json"] = cfg.dump(2);
  }
  if (!dir_write_all(a.get("out"), files, &err)) {
    std::fprintf(stderr, "make_checkpoint: %s\n", err.c_str());
    return 1;
  }
  std::fprintf(stderr, "make_checkpoint: wrote a synthetic %s-named checkpoint to %s\n", naming.c_str(), a.get("out").c_str());
  return 0;
}
