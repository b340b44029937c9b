// Pack manifest writer (see pack_format.h, docs/pack.md): nlohmann-json, for the native tools that
// make packs (swiglu convert); the page and the CLI read manifests with cJSON (pack_format.cpp).
#include <nlohmann/json.hpp>

#include "core/pack/pack_format.h"

using json = nlohmann::json;

static json blob_json(const pack_blob& b) {
  json j = {{"file", b.file},         {"offset", b.offset}, {"bytes", b.bytes},
            {"shape", b.shape},       {"encoding", b.encoding}, {"xxh3", hash64_hex(b.xxh3)}};
  if (b.encoding == PACK_ENC_Q8) j["quant_error"] = {{"max_abs", b.max_abs_error}, {"rel_rms", b.rel_rms_error}};
  return j;
}

std::string pack_manifest_to_json(const pack_manifest& m) {
  json j;
  j["format"] = PACK_FORMAT_NAME;
  j["version"] = m.version;
  j["model"] = {{"id", m.model_id},
                {"model_type", m.model_type},
                {"synthetic", m.synthetic},
                {"hidden_size", m.hidden},
                {"intermediate_size", m.intermediate},
                {"num_hidden_layers", m.num_layers},
                {"vocab_size", m.vocab},
                {"rms_norm_eps", m.rms_norm_eps},
                {"norm", m.norm}};
  j["hash"] = "xxh3-64";
  j["probe_recipe"] = m.probe_recipe;
  j["layers"] = json::array();
  for (const pack_layer& l : m.layers) {
    json t = json::object();
    for (int p = 0; p < MLP_PART_COUNT; p++) t[mlp_part_name((mlp_part)p)] = blob_json(l.part[p]);
    j["layers"].push_back({{"layer", l.layer}, {"tensors", t}});
  }
  j["probes"] = json::array();
  for (const pack_probe& p : m.probes) {
    json pl = json::array();
    for (const pack_probe_layer& r : p.layers)
      pl.push_back({{"layer", r.layer},
                    {"open", r.open},
                    {"negative", r.negative},
                    {"threshold", PACK_THRESHOLD},
                    {"histogram", {{"lo", GATE_HIST_LO}, {"hi", GATE_HIST_HI}, {"counts", r.histogram}}},
                    {"silu_gate", blob_json(r.silu_gate)}});
    j["probes"].push_back({{"label", p.label},
                           {"tokens", p.tokens},
                           {"pieces", p.pieces},
                           {"input", blob_json(p.input)},
                           {"layers", pl}});
  }
  return j.dump(1) + "\n";
}

