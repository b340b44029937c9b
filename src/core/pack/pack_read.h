// Reading a pack through a byte source: the manifest, then blobs on demand, each verified
// against its XXH3-64 before anything uses it. Used by the CLI (`stats`, `permute`) and the
// tests natively, and by the page through its fetch seam.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/io/byte_source.h"
#include "core/kernels/kernels.h"
#include "core/pack/pack_format.h"

bool pack_open(byte_source* src, pack_manifest* out, std::string* error);

// The largest blob a reader allocates (1 GiB; the real model's largest matrix is ~4 MB as q8).
// Every loader checks a blob against this and against its file's size before allocating.
#define PACK_BLOB_MAX_BYTES (uint64_t(1) << 30)

// The blob's bytes, verified: a short file or a wrong checksum is an error naming the file.
bool pack_read_blob(byte_source* src, const pack_blob& b, void* dst, std::string* error);
// Verifies bytes already in memory (the page's fetched bodies) against a blob's checksum.
bool pack_verify_blob(const pack_blob& b, const void* data, size_t n, std::string* error);

// An owned q8 matrix (64-byte aligned, parsed) read from a verified blob.
struct pack_matrix {
  std::shared_ptr<void> blob;
  q8_matrix_view view{};
};
bool pack_load_matrix(byte_source* src, const pack_blob& b, pack_matrix* out, std::string* error);
// Verifies q8 bytes already in memory (a fetched body) against the blob, then parses them.
bool pack_matrix_from_bytes(const pack_blob& b, const void* data, size_t n, pack_matrix* out, std::string* error);

// One layer's three matrices; `parts` says which to load (the histograms need only the gate).
struct pack_layer_data {
  int layer = -1;
  bool has[MLP_PART_COUNT] = {false, false, false};
  pack_matrix part[MLP_PART_COUNT];
  bool complete() const { return has[MLP_GATE] && has[MLP_UP] && has[MLP_DOWN]; }
  swiglu_q8_layer view(int hidden, int inter) const;
};
bool pack_load_layer(byte_source* src, const pack_manifest& m, int layer, bool gate_only, pack_layer_data* out,
                     std::string* error);

// A probe's input x (T, hidden), and its precomputed silu(gate) (T, inter) on one pack layer.
bool pack_load_probe_input(byte_source* src, const pack_probe& p, std::vector<float>* x, std::string* error);
bool pack_load_precomputed(byte_source* src, const pack_probe_layer& pl, std::vector<float>* silu_gate,
                           std::string* error);
// Verified bytes of an f32 or f16 blob (the manifest parser checked its encoding and size) as f32.
void pack_values_to_f32(const pack_blob& b, const void* bytes, std::vector<float>* out);
