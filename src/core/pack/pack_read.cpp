// Pack reader (see pack_read.h).
#include "core/pack/pack_read.h"

#include <cstring>
#include <new>

#include "core/checkpoint/dtype.h"

bool pack_open(byte_source* src, pack_manifest* out, std::string* error) {
  std::string text;
  if (!byte_source_read_all(src, PACK_MANIFEST_FILE, PACK_MANIFEST_MAX_BYTES, &text, error)) return false;
  return pack_manifest_parse(text, out, error);
}

bool pack_verify_blob(const pack_blob& b, const void* data, size_t n, std::string* error) {
  if (n != b.bytes) {
    *error = b.file + ": " + std::to_string(n) + " bytes where the manifest says " + std::to_string(b.bytes) +
             " (truncated or wrong file)";
    return false;
  }
  const uint64_t h = hash64(data, n);
  if (h != b.xxh3) {
    *error = b.file + ": checksum mismatch (xxh3 " + hash64_hex(h) + ", manifest says " + hash64_hex(b.xxh3) +
             "): the file is corrupt or from another pack";
    return false;
  }
  return true;
}

// Whether the blob's range lies inside its file and under PACK_BLOB_MAX_BYTES. Every loader asks
// before it allocates: a manifest's sizes are claims, and a hostile one can claim terabytes.
static bool pack_blob_fits(byte_source* src, const pack_blob& b, std::string* error) {
  uint64_t size = 0;
  if (!src->size(b.file, &size, error)) return false;
  if (b.offset > size || b.bytes > size - b.offset) {
    *error = b.file + ": " + std::to_string(size) + " bytes, too short for the " + std::to_string(b.bytes) +
             " bytes at offset " + std::to_string(b.offset) + " the manifest lists (truncated?)";
    return false;
  }
  if (b.bytes > PACK_BLOB_MAX_BYTES) {
    *error = b.file + ": the manifest lists " + std::to_string(b.bytes) + " bytes, over this reader's limit of " +
             std::to_string((uint64_t)PACK_BLOB_MAX_BYTES) + " bytes for one blob";
    return false;
  }
  return true;
}

bool pack_read_blob(byte_source* src, const pack_blob& b, void* dst, std::string* error) {
  if (!pack_blob_fits(src, b, error)) return false;
  if (b.bytes && !src->read(b.file, b.offset, (size_t)b.bytes, dst, error)) return false;
  return pack_verify_blob(b, dst, (size_t)b.bytes, error);
}

static std::shared_ptr<void> pack_aligned_alloc(size_t n) {
  return std::shared_ptr<void>(::operator new(n ? n : 1, std::align_val_t(Q8_ALIGN)),
                               [](void* p) { ::operator delete(p, std::align_val_t(Q8_ALIGN)); });
}

// Parses a verified q8 blob already in 64-byte aligned memory and checks it against the manifest.
static bool pack_matrix_adopt(const pack_blob& b, std::shared_ptr<void> blob, pack_matrix* out, std::string* error) {
  pack_matrix m;
  m.blob = std::move(blob);
  q8_status st = q8_matrix_parse(m.blob.get(), (size_t)b.bytes, &m.view);
  if (st != Q8_OK) return *error = b.file + ": " + q8_status_str(st), false;
  if (m.view.rows != b.shape[0] || m.view.cols != b.shape[1]) return *error = b.file + ": q8 dims differ from the manifest's shape", false;
  *out = std::move(m);
  return true;
}

bool pack_matrix_from_bytes(const pack_blob& b, const void* data, size_t n, pack_matrix* out, std::string* error) {
  if (!pack_verify_blob(b, data, n, error)) return false;
  std::shared_ptr<void> blob = pack_aligned_alloc(n);
  std::memcpy(blob.get(), data, n);
  return pack_matrix_adopt(b, std::move(blob), out, error);
}

bool pack_load_matrix(byte_source* src, const pack_blob& b, pack_matrix* out, std::string* error) {
  if (!pack_blob_fits(src, b, error)) return false;
  std::shared_ptr<void> blob = pack_aligned_alloc((size_t)b.bytes);
  return pack_read_blob(src, b, blob.get(), error) && pack_matrix_adopt(b, std::move(blob), out, error);
}

swiglu_q8_layer pack_layer_data::view(int hidden, int inter) const {
  return {hidden, inter, part[MLP_GATE].view, part[MLP_UP].view, part[MLP_DOWN].view};
}

bool pack_load_layer(byte_source* src, const pack_manifest& m, int layer, bool gate_only, pack_layer_data* out,
                     std::string* error) {
  const int li = m.find_layer(layer);
  if (li < 0) return *error = "layer " + std::to_string(layer) + " is not in this pack", false;
  pack_layer_data d;
  d.layer = layer;
  for (int p = 0; p < (gate_only ? 1 : (int)MLP_PART_COUNT); p++) {
    if (!pack_load_matrix(src, m.layers[li].part[p], &d.part[p], error)) return false;
    d.has[p] = true;
  }
  *out = std::move(d);
  return true;
}

bool pack_load_probe_input(byte_source* src, const pack_probe& p, std::vector<float>* x, std::string* error) {
  if (!pack_blob_fits(src, p.input, error)) return false;
  std::vector<float> v((size_t)(p.input.bytes / 4));
  if (!pack_read_blob(src, p.input, v.data(), error)) return false;
  *x = std::move(v);
  return true;
}

bool pack_load_precomputed(byte_source* src, const pack_probe_layer& pl, std::vector<float>* silu_gate,
                           std::string* error) {
  if (!pack_blob_fits(src, pl.silu_gate, error)) return false;
  std::vector<unsigned char> raw((size_t)pl.silu_gate.bytes);
  if (!pack_read_blob(src, pl.silu_gate, raw.data(), error)) return false;
  pack_values_to_f32(pl.silu_gate, raw.data(), silu_gate);
  return true;
}

void pack_values_to_f32(const pack_blob& b, const void* bytes, std::vector<float>* out) {
  const bool f16 = b.encoding == PACK_ENC_F16;
  out->resize((size_t)(b.bytes / (f16 ? 2 : 4)));
  if (f16) dtype_to_f32(ST_DTYPE_F16, bytes, out->size(), out->data());
  else std::memcpy(out->data(), bytes, out->size() * 4);
}
