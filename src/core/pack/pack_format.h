// The weight pack: a directory a static server can host and the page can stream layer by layer.
// Public, versioned format; docs/pack.md is its reference.
//
//   manifest.json           what is where: model dims, layers, probes, every blob's checksum
//   layer-000-gate.q8 ...   one file per MLP matrix, each a q8 blob (src/core/quant/q8_format.h):
//                           a layer's gate fetches alone, before its up and down
//   probes.bin              per probe: its input x (T, hidden) f32, then per layer silu(gate)
//                           (T, inter) f32 (f16 in version 1), precomputed so the page can draw
//                           before weights arrive
//
// A blob is a byte range [offset, offset + bytes) of a file, with its shape, its encoding and
// the XXH3-64 of its bytes; readers verify the hash before use. The manifest parser is a pure
// function over hostile bytes, like the q8 and safetensors parsers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/gate_counts.h"
#include "core/base/hash.h"
#include "core/link/mlp_part.h"

enum {
  // 2: silu_gate is stored as f32, the values the live path counts, so that a precomputed share
  // equals the live one at every threshold (version 1 stored f16; still read).
  PACK_FORMAT_VERSION = 2,
  PACK_MANIFEST_MAX_BYTES = 16 << 20,
  PACK_MAX_PROBES = 64,
  PACK_MAX_TOKENS = 4096,  // per probe
};
#define PACK_FORMAT_NAME "swiglu-lab-pack"
#define PACK_MANIFEST_FILE "manifest.json"
#define PACK_PROBES_FILE "probes.bin"
#define PACK_ENC_Q8 "q8-row-v1"  // q8_format.h, version 1: int8, one f32 scale per row
#define PACK_ENC_F32 "f32"
#define PACK_ENC_F16 "f16"
// The encoding of silu_gate in a pack of this version.
const char* pack_silu_gate_encoding(int version);
#define PACK_THRESHOLD 0.1   // the lessons' "clearly open" / "clearly negative" line

struct pack_blob {
  std::string file;
  uint64_t offset = 0, bytes = 0;
  std::vector<int64_t> shape;
  std::string encoding;  // PACK_ENC_*
  uint64_t xxh3 = 0;
  // q8 only: quantization error against the checkpoint's weights
  double max_abs_error = 0, rel_rms_error = 0;
};


struct pack_layer {
  int layer = 0;
  pack_blob part[MLP_PART_COUNT];
};

// Precomputed for one probe on one layer, from the pack's own int8 weights (what `stats` prints).
struct pack_probe_layer {
  int layer = 0;
  double open = 0, negative = 0;  // shares of silu(gate) > +0.1 and < -0.1
  std::vector<int64_t> histogram;  // GATE_HIST_BINS counts over [GATE_HIST_LO, GATE_HIST_HI)
  pack_blob silu_gate;            // (T, inter): f32 (version 2), f16 (version 1)
};

struct pack_probe {
  std::string label;                // the sentence, as the teacher gave it
  std::vector<int64_t> tokens;      // T token ids
  std::vector<std::string> pieces;  // T token texts, or empty when unknown
  pack_blob input;                  // f32 (T, hidden): the MLP's input for every pack layer
  std::vector<pack_probe_layer> layers;  // one per pack layer, same order
};

struct pack_manifest {
  int version = PACK_FORMAT_VERSION;
  std::string model_id, model_type, norm;  // norm: "w" or "1+w"
  bool synthetic = false;
  int64_t hidden = 0, intermediate = 0, num_layers = 0, vocab = 0;
  double rms_norm_eps = 0;
  std::string probe_recipe;  // how the inputs were made, in words
  std::vector<pack_layer> layers;
  std::vector<pack_probe> probes;
  int find_layer(int layer) const;  // index into layers, or -1
};


std::string pack_manifest_to_json(const pack_manifest& m);
// Checks everything a reader relies on: version, dims, shapes and sizes of every blob against
// the dims, file names that stay inside the pack, probes consistent with the layers.
// The reason as data (core/base/read_error.h, for the page's words); the string form is the CLI's
// English, "manifest.json: <where>: <reason>".
bool pack_manifest_parse(const std::string& text, pack_manifest* out, std::string* error);
struct read_error;
bool pack_manifest_parse(const std::string& text, pack_manifest* out, read_error* error);

