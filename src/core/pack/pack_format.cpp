// Pack manifest: JSON writer, validating parser, checksums (see pack_format.h, docs/pack.md).
#include "core/pack/pack_format.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "core/quant/q8_format.h"
#include "core/read_error.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

using json = nlohmann::json;

int pack_manifest::find_layer(int layer) const {
  for (size_t i = 0; i < layers.size(); i++)
    if (layers[i].layer == layer) return (int)i;
  return -1;
}

uint64_t pack_hash(const void* data, size_t n) { return XXH3_64bits(data, n); }

std::string pack_hash_hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
  return buf;
}

const char* pack_silu_gate_encoding(int version) { return version >= 2 ? PACK_ENC_F32 : PACK_ENC_F16; }

int pack_hist_bin(float v) {
  const double step = (PACK_HIST_HI - PACK_HIST_LO) / PACK_HIST_BINS;
  double b = std::floor((v - PACK_HIST_LO) / step + 1e-9);  // 1e-9: keep +-0.1 on their own edge
  if (!(b >= 0)) return 0;  // also NaN
  return b >= PACK_HIST_BINS ? PACK_HIST_BINS - 1 : (int)b;
}

// [SECTION] writer
static json blob_json(const pack_blob& b) {
  json j = {{"file", b.file},         {"offset", b.offset}, {"bytes", b.bytes},
            {"shape", b.shape},       {"encoding", b.encoding}, {"xxh3", pack_hash_hex(b.xxh3)}};
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
                    {"histogram", {{"lo", PACK_HIST_LO}, {"hi", PACK_HIST_HI}, {"counts", r.histogram}}},
                    {"silu_gate", blob_json(r.silu_gate)}});
    j["probes"].push_back({{"label", p.label},
                           {"tokens", p.tokens},
                           {"pieces", p.pieces},
                           {"input", blob_json(p.input)},
                           {"layers", pl}});
  }
  return j.dump(1) + "\n";
}

// [SECTION] parser: every field checked, nothing thrown
namespace {
struct reader {
  read_error* error;
  // "file" and "top level" are said in words; every other place is a field path.
  bool fail(const std::string& where, str_id what, std::vector<std::string> args = {}) {
    *error = where == "file"        ? read_error_in(READ_AT_FILE, what, std::move(args))
             : where == "top level" ? read_error_in(READ_AT_TOP, what, std::move(args))
                                    : read_error_at(where, what, std::move(args));
    return false;
  }
  const json* field(const json& obj, const char* key, const std::string& where) {
    if (!obj.is_object()) return fail(where, STR_READ_NOT_OBJECT), nullptr;
    auto it = obj.find(key);
    if (it == obj.end()) return fail(where, STR_READ_MISSING, {key}), nullptr;
    return &*it;
  }
  bool integer(const json& obj, const char* key, int64_t lo, int64_t hi, int64_t* out, const std::string& where) {
    const json* v = field(obj, key, where);
    if (!v) return false;
    if (!v->is_number_integer()) return fail(where, STR_READ_NOT_INTEGER, {key});
    int64_t x = v->is_number_unsigned() && v->get<uint64_t>() > (uint64_t)INT64_MAX ? hi + 1 : v->get<int64_t>();
    if (x < lo || x > hi) return fail(where, STR_READ_OUT_OF_RANGE, {key});
    *out = x;
    return true;
  }
  bool number(const json& obj, const char* key, double lo, double hi, double* out, const std::string& where) {
    const json* v = field(obj, key, where);
    if (!v) return false;
    if (!v->is_number()) return fail(where, STR_READ_NOT_NUMBER, {key});
    double x = v->get<double>();
    if (!(x >= lo && x <= hi)) return fail(where, STR_READ_OUT_OF_RANGE, {key});
    *out = x;
    return true;
  }
  bool string(const json& obj, const char* key, size_t max_len, std::string* out, const std::string& where) {
    const json* v = field(obj, key, where);
    if (!v) return false;
    if (!v->is_string()) return fail(where, STR_READ_NOT_STRING, {key});
    *out = v->get<std::string>();
    if (out->size() > max_len) return fail(where, STR_READ_TOO_LONG, {key});
    return true;
  }
};

// File names stay inside the pack directory and are safe in a URL path.
bool pack_file_name_ok(const std::string& s) {
  if (s.empty() || s.size() > 128 || s[0] == '.') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

bool parse_blob(reader& r, const json& j, const std::string& where, const char* encoding, std::vector<int64_t> shape,
                pack_blob* b) {
  int64_t off, bytes;
  std::string hex;
  if (!r.string(j, "file", 128, &b->file, where) || !r.integer(j, "offset", 0, (int64_t)1 << 50, &off, where) ||
      !r.integer(j, "bytes", 0, (int64_t)1 << 40, &bytes, where) || !r.string(j, "encoding", 32, &b->encoding, where) ||
      !r.string(j, "xxh3", 16, &hex, where))
    return false;
  if (!pack_file_name_ok(b->file)) return r.fail(where, STR_READ_MANIFEST_FILE_NAME, {b->file});
  if (b->encoding != encoding) return r.fail(where, STR_READ_MANIFEST_ENCODING, {b->encoding, encoding});
  if (hex.size() != 16 || hex.find_first_not_of("0123456789abcdef") != std::string::npos)
    return r.fail(where, STR_READ_MANIFEST_XXH3);
  b->xxh3 = std::strtoull(hex.c_str(), nullptr, 16);
  const json* sh = r.field(j, "shape", where);
  if (!sh) return false;
  b->shape.clear();
  if (sh->is_array())
    for (const json& d : *sh) b->shape.push_back(d.is_number_integer() ? d.get<int64_t>() : -1);
  if (b->shape != shape) return r.fail(where, STR_READ_MANIFEST_SHAPE);
  uint64_t expect = 0;
  if (b->encoding == PACK_ENC_Q8) expect = q8_matrix_blob_bytes((int)shape[0], (int)shape[1]);
  if (b->encoding == PACK_ENC_F32) expect = (uint64_t)shape[0] * (uint64_t)shape[1] * 4;
  if (b->encoding == PACK_ENC_F16) expect = (uint64_t)shape[0] * (uint64_t)shape[1] * 2;
  if ((uint64_t)bytes != expect) return r.fail(where, STR_READ_MANIFEST_BYTES, {std::to_string(bytes), std::to_string(expect)});
  if (b->encoding == PACK_ENC_Q8 && off % Q8_ALIGN) return r.fail(where, STR_READ_MANIFEST_ALIGN);
  b->offset = (uint64_t)off;
  b->bytes = (uint64_t)bytes;
  if (b->encoding == PACK_ENC_Q8) {
    const json* qe = r.field(j, "quant_error", where);
    if (!qe || !r.number(*qe, "max_abs", 0, 1e30, &b->max_abs_error, where + ".quant_error") ||
        !r.number(*qe, "rel_rms", 0, 1e30, &b->rel_rms_error, where + ".quant_error"))
      return false;
  }
  return true;
}
}  // namespace

bool pack_manifest_parse(const std::string& text, pack_manifest* out, std::string* error) {
  read_error why;
  if (pack_manifest_parse(text, out, &why)) return true;
  *error = std::string(PACK_MANIFEST_FILE) + ": " + read_error_text_in(LAB_LANG_EN, why);
  return false;
}

bool pack_manifest_parse(const std::string& text, pack_manifest* out, read_error* error) {
  reader r{error};
  if (text.size() > PACK_MANIFEST_MAX_BYTES) return r.fail("file", STR_READ_LARGER_THAN, {"16 MiB"});
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return r.fail("file", STR_READ_NOT_JSON_OBJECT);
  pack_manifest m;
  std::string format;
  if (!r.string(j, "format", 64, &format, "top level")) return false;
  if (format != PACK_FORMAT_NAME) return r.fail("top level", STR_READ_MANIFEST_FORMAT, {format, PACK_FORMAT_NAME});
  int64_t version;
  if (!r.integer(j, "version", 1, 1 << 20, &version, "top level")) return false;
  if (version > PACK_FORMAT_VERSION)
    return r.fail("top level", STR_READ_MANIFEST_NEWER, {std::to_string(version), std::to_string(PACK_FORMAT_VERSION)});
  m.version = (int)version;
  std::string hash;
  if (!r.string(j, "hash", 32, &hash, "top level")) return false;
  if (hash != "xxh3-64") return r.fail("top level", STR_READ_MANIFEST_HASH, {hash});
  const json* model = r.field(j, "model", "top level");
  if (!model || !r.string(*model, "id", 1024, &m.model_id, "model") ||
      !r.string(*model, "model_type", 128, &m.model_type, "model") || !r.string(*model, "norm", 8, &m.norm, "model") ||
      !r.integer(*model, "hidden_size", 1, 1 << 16, &m.hidden, "model") ||
      !r.integer(*model, "intermediate_size", 1, 1 << 18, &m.intermediate, "model") ||
      !r.integer(*model, "num_hidden_layers", 1, 1024, &m.num_layers, "model") ||
      !r.integer(*model, "vocab_size", 1, 1 << 24, &m.vocab, "model") ||
      !r.number(*model, "rms_norm_eps", 0, 1, &m.rms_norm_eps, "model"))
    return false;
  const json* syn = r.field(*model, "synthetic", "model");
  if (!syn) return false;
  if (!syn->is_boolean()) return r.fail("model", STR_READ_MANIFEST_SYNTHETIC);
  m.synthetic = syn->get<bool>();
  if (m.norm != "w" && m.norm != "1+w") return r.fail("model", STR_READ_MANIFEST_NORM);
  if (!r.string(j, "probe_recipe", 4096, &m.probe_recipe, "top level")) return false;

  const std::vector<int64_t> in_shape = {m.intermediate, m.hidden}, down_shape = {m.hidden, m.intermediate};
  const json* layers = r.field(j, "layers", "top level");
  if (!layers) return false;
  if (!layers->is_array() || layers->empty() || layers->size() > 1024) return r.fail("layers", STR_READ_MANIFEST_LAYERS);
  std::set<int64_t> seen;
  for (size_t i = 0; i < layers->size(); i++) {
    const std::string where = "layers[" + std::to_string(i) + "]";
    pack_layer l;
    int64_t idx;
    if (!r.integer((*layers)[i], "layer", 0, m.num_layers - 1, &idx, where)) return false;
    if (!seen.insert(idx).second) return r.fail(where, STR_READ_MANIFEST_LAYER_TWICE, {std::to_string(idx)});
    l.layer = (int)idx;
    const json* t = r.field((*layers)[i], "tensors", where);
    if (!t) return false;
    for (int p = 0; p < MLP_PART_COUNT; p++) {
      const char* name = mlp_part_name((mlp_part)p);
      const json* b = r.field(*t, name, where + ".tensors");
      if (!b || !parse_blob(r, *b, where + "." + name, PACK_ENC_Q8, p == MLP_DOWN ? down_shape : in_shape, &l.part[p]))
        return false;
    }
    m.layers.push_back(l);
  }

  const json* probes = r.field(j, "probes", "top level");
  if (!probes) return false;
  if (!probes->is_array() || probes->empty() || probes->size() > PACK_MAX_PROBES)
    return r.fail("probes", STR_READ_MANIFEST_PROBES, {std::to_string((int)PACK_MAX_PROBES)});
  for (size_t i = 0; i < probes->size(); i++) {
    const std::string where = "probes[" + std::to_string(i) + "]";
    const json& pj = (*probes)[i];
    pack_probe p;
    if (!r.string(pj, "label", 4096, &p.label, where)) return false;
    const json* toks = r.field(pj, "tokens", where);
    if (!toks) return false;
    if (!toks->is_array() || toks->empty() || toks->size() > PACK_MAX_TOKENS)
      return r.fail(where, STR_READ_MANIFEST_TOKENS, {std::to_string((int)PACK_MAX_TOKENS)});
    for (const json& t : *toks) {
      if (!t.is_number_integer() || t.get<int64_t>() < 0 || t.get<int64_t>() >= m.vocab)
        return r.fail(where, STR_READ_MANIFEST_TOKEN_ID);
      p.tokens.push_back(t.get<int64_t>());
    }
    const int64_t T = (int64_t)p.tokens.size();
    const json* pieces = r.field(pj, "pieces", where);
    if (!pieces) return false;
    if (!pieces->is_array() || (!pieces->empty() && (int64_t)pieces->size() != T))
      return r.fail(where, STR_READ_MANIFEST_PIECES);
    for (const json& s : *pieces) {
      if (!s.is_string() || s.get<std::string>().size() > 256) return r.fail(where, STR_READ_MANIFEST_PIECE);
      p.pieces.push_back(s.get<std::string>());
    }
    const json* in = r.field(pj, "input", where);
    if (!in || !parse_blob(r, *in, where + ".input", PACK_ENC_F32, {T, m.hidden}, &p.input)) return false;
    const json* pl = r.field(pj, "layers", where);
    if (!pl) return false;
    if (!pl->is_array() || pl->size() != m.layers.size()) return r.fail(where, STR_READ_MANIFEST_PROBE_LAYERS);
    for (size_t k = 0; k < pl->size(); k++) {
      const std::string w = where + ".layers[" + std::to_string(k) + "]";
      pack_probe_layer e;
      int64_t layer;
      if (!r.integer((*pl)[k], "layer", 0, m.num_layers - 1, &layer, w)) return false;
      if (layer != m.layers[k].layer) return r.fail(w, STR_READ_MANIFEST_LAYER_ORDER, {std::to_string(layer)});
      e.layer = (int)layer;
      if (!r.number((*pl)[k], "open", 0, 1, &e.open, w) || !r.number((*pl)[k], "negative", 0, 1, &e.negative, w))
        return false;
      const json* h = r.field((*pl)[k], "histogram", w);
      const json* counts = h ? r.field(*h, "counts", w + ".histogram") : nullptr;
      if (!counts) return false;
      if (!counts->is_array() || counts->size() != PACK_HIST_BINS)
        return r.fail(w, STR_READ_MANIFEST_HIST_BINS, {std::to_string((int)PACK_HIST_BINS)});
      for (const json& c : *counts) {
        if (!c.is_number_integer() || c.get<int64_t>() < 0 || c.get<int64_t>() > T * m.intermediate)
          return r.fail(w, STR_READ_MANIFEST_HIST_COUNT);
        e.histogram.push_back(c.get<int64_t>());
      }
      const json* sg = r.field((*pl)[k], "silu_gate", w);
      if (!sg || !parse_blob(r, *sg, w + ".silu_gate", pack_silu_gate_encoding(m.version), {T, m.intermediate}, &e.silu_gate)) return false;
      p.layers.push_back(std::move(e));
    }
    m.probes.push_back(std::move(p));
  }
  *out = std::move(m);
  return true;
}
