// Pack manifest: validating parser, checksums (see pack_format.h, docs/pack.md); the writer is
// pack_write.cpp.
#include "core/pack/pack_format.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "core/base/json_read.h"
#include "core/quant/q8_format.h"
#include "core/base/read_error.h"


int pack_manifest::find_layer(int layer) const {
  for (size_t i = 0; i < layers.size(); i++)
    if (layers[i].layer == layer) return (int)i;
  return -1;
}



const char* pack_silu_gate_encoding(int version) { return version >= 2 ? PACK_ENC_F32 : PACK_ENC_F16; }

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
  const cJSON* field(const cJSON* obj, const char* key, const std::string& where) {
    if (!cJSON_IsObject(obj)) return fail(where, STR_READ_NOT_OBJECT), nullptr;
    const cJSON* v = json_member(obj, key);
    if (!v) return fail(where, STR_READ_MISSING, {key}), nullptr;
    return v;
  }
  bool integer(const cJSON* obj, const char* key, int64_t lo, int64_t hi, int64_t* out, const std::string& where) {
    const cJSON* v = field(obj, key, where);
    if (!v) return false;
    int64_t x;
    if (!cJSON_IsNumber(v)) return fail(where, STR_READ_NOT_INTEGER, {key});
    if (!json_integer(v, &x))  // a whole number beyond 2^53 is out of every range here
      return fail(where, v->valuedouble == std::trunc(v->valuedouble) ? STR_READ_OUT_OF_RANGE : STR_READ_NOT_INTEGER, {key});
    if (x < lo || x > hi) return fail(where, STR_READ_OUT_OF_RANGE, {key});
    *out = x;
    return true;
  }
  bool number(const cJSON* obj, const char* key, double lo, double hi, double* out, const std::string& where) {
    const cJSON* v = field(obj, key, where);
    if (!v) return false;
    if (!cJSON_IsNumber(v)) return fail(where, STR_READ_NOT_NUMBER, {key});
    double x = v->valuedouble;
    if (!(x >= lo && x <= hi)) return fail(where, STR_READ_OUT_OF_RANGE, {key});
    *out = x;
    return true;
  }
  bool string(const cJSON* obj, const char* key, size_t max_len, std::string* out, const std::string& where) {
    const cJSON* v = field(obj, key, where);
    if (!v) return false;
    if (!cJSON_IsString(v)) return fail(where, STR_READ_NOT_STRING, {key});
    *out = json_string(v);
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

bool parse_blob(reader& r, const cJSON* j, const std::string& where, const char* encoding, std::vector<int64_t> shape,
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
  const cJSON* sh = r.field(j, "shape", where);
  if (!sh) return false;
  b->shape.clear();
  if (cJSON_IsArray(sh))
    for (const cJSON* d = json_first(sh); d; d = d->next) {
      int64_t v;
      b->shape.push_back(json_integer(d, &v) ? v : -1);
    }
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
    const cJSON* qe = r.field(j, "quant_error", where);
    if (!qe || !r.number(qe, "max_abs", 0, 1e30, &b->max_abs_error, where + ".quant_error") ||
        !r.number(qe, "rel_rms", 0, 1e30, &b->rel_rms_error, where + ".quant_error"))
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
  const json_tree tree = json_parse(text);
  const cJSON* j = tree.get();
  if (!cJSON_IsObject(j)) return r.fail("file", STR_READ_NOT_JSON_OBJECT);
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
  const cJSON* model = r.field(j, "model", "top level");
  if (!model || !r.string(model, "id", 1024, &m.model_id, "model") ||
      !r.string(model, "model_type", 128, &m.model_type, "model") || !r.string(model, "norm", 8, &m.norm, "model") ||
      !r.integer(model, "hidden_size", 1, 1 << 16, &m.hidden, "model") ||
      !r.integer(model, "intermediate_size", 1, 1 << 18, &m.intermediate, "model") ||
      !r.integer(model, "num_hidden_layers", 1, 1024, &m.num_layers, "model") ||
      !r.integer(model, "vocab_size", 1, 1 << 24, &m.vocab, "model") ||
      !r.number(model, "rms_norm_eps", 0, 1, &m.rms_norm_eps, "model"))
    return false;
  const cJSON* syn = r.field(model, "synthetic", "model");
  if (!syn) return false;
  if (!cJSON_IsBool(syn)) return r.fail("model", STR_READ_MANIFEST_SYNTHETIC);
  m.synthetic = cJSON_IsTrue(syn);
  if (m.norm != "w" && m.norm != "1+w") return r.fail("model", STR_READ_MANIFEST_NORM);
  if (!r.string(j, "probe_recipe", 4096, &m.probe_recipe, "top level")) return false;

  const std::vector<int64_t> in_shape = {m.intermediate, m.hidden}, down_shape = {m.hidden, m.intermediate};
  const cJSON* layers = r.field(j, "layers", "top level");
  if (!layers) return false;
  if (!cJSON_IsArray(layers) || json_size(layers) == 0 || json_size(layers) > 1024)
    return r.fail("layers", STR_READ_MANIFEST_LAYERS);
  std::set<int64_t> seen;
  size_t i = 0;
  for (const cJSON* lj = json_first(layers); lj; lj = lj->next, i++) {
    const std::string where = "layers[" + std::to_string(i) + "]";
    pack_layer l;
    int64_t idx;
    if (!r.integer(lj, "layer", 0, m.num_layers - 1, &idx, where)) return false;
    if (!seen.insert(idx).second) return r.fail(where, STR_READ_MANIFEST_LAYER_TWICE, {std::to_string(idx)});
    l.layer = (int)idx;
    const cJSON* t = r.field(lj, "tensors", where);
    if (!t) return false;
    for (int p = 0; p < MLP_PART_COUNT; p++) {
      const char* name = mlp_part_name((mlp_part)p);
      const cJSON* b = r.field(t, name, where + ".tensors");
      if (!b || !parse_blob(r, b, where + "." + name, PACK_ENC_Q8, p == MLP_DOWN ? down_shape : in_shape, &l.part[p]))
        return false;
    }
    m.layers.push_back(l);
  }

  const cJSON* probes = r.field(j, "probes", "top level");
  if (!probes) return false;
  if (!cJSON_IsArray(probes) || json_size(probes) == 0 || json_size(probes) > PACK_MAX_PROBES)
    return r.fail("probes", STR_READ_MANIFEST_PROBES, {std::to_string((int)PACK_MAX_PROBES)});
  i = 0;
  for (const cJSON* pj = json_first(probes); pj; pj = pj->next, i++) {
    const std::string where = "probes[" + std::to_string(i) + "]";
    pack_probe p;
    if (!r.string(pj, "label", 4096, &p.label, where)) return false;
    const cJSON* toks = r.field(pj, "tokens", where);
    if (!toks) return false;
    if (!cJSON_IsArray(toks) || json_size(toks) == 0 || json_size(toks) > PACK_MAX_TOKENS)
      return r.fail(where, STR_READ_MANIFEST_TOKENS, {std::to_string((int)PACK_MAX_TOKENS)});
    for (const cJSON* t = json_first(toks); t; t = t->next) {
      int64_t id;
      if (!json_integer(t, &id) || id < 0 || id >= m.vocab) return r.fail(where, STR_READ_MANIFEST_TOKEN_ID);
      p.tokens.push_back(id);
    }
    const int64_t T = (int64_t)p.tokens.size();
    const cJSON* pieces = r.field(pj, "pieces", where);
    if (!pieces) return false;
    if (!cJSON_IsArray(pieces) || (json_size(pieces) != 0 && (int64_t)json_size(pieces) != T))
      return r.fail(where, STR_READ_MANIFEST_PIECES);
    for (const cJSON* s = json_first(pieces); s; s = s->next) {
      if (!cJSON_IsString(s) || json_string(s).size() > 256) return r.fail(where, STR_READ_MANIFEST_PIECE);
      p.pieces.push_back(json_string(s));
    }
    const cJSON* in = r.field(pj, "input", where);
    if (!in || !parse_blob(r, in, where + ".input", PACK_ENC_F32, {T, m.hidden}, &p.input)) return false;
    const cJSON* pl = r.field(pj, "layers", where);
    if (!pl) return false;
    if (!cJSON_IsArray(pl) || json_size(pl) != m.layers.size()) return r.fail(where, STR_READ_MANIFEST_PROBE_LAYERS);
    size_t k = 0;
    for (const cJSON* lk = json_first(pl); lk; lk = lk->next, k++) {
      const std::string w = where + ".layers[" + std::to_string(k) + "]";
      pack_probe_layer e;
      int64_t layer;
      if (!r.integer(lk, "layer", 0, m.num_layers - 1, &layer, w)) return false;
      if (layer != m.layers[k].layer) return r.fail(w, STR_READ_MANIFEST_LAYER_ORDER, {std::to_string(layer)});
      e.layer = (int)layer;
      if (!r.number(lk, "open", 0, 1, &e.open, w) || !r.number(lk, "negative", 0, 1, &e.negative, w)) return false;
      const cJSON* h = r.field(lk, "histogram", w);
      const cJSON* counts = h ? r.field(h, "counts", w + ".histogram") : nullptr;
      if (!counts) return false;
      if (!cJSON_IsArray(counts) || json_size(counts) != GATE_HIST_BINS)
        return r.fail(w, STR_READ_MANIFEST_HIST_BINS, {std::to_string((int)GATE_HIST_BINS)});
      for (const cJSON* c = json_first(counts); c; c = c->next) {
        int64_t n;
        if (!json_integer(c, &n) || n < 0 || n > T * m.intermediate) return r.fail(w, STR_READ_MANIFEST_HIST_COUNT);
        e.histogram.push_back(n);
      }
      const cJSON* sg = r.field(lk, "silu_gate", w);
      if (!sg || !parse_blob(r, sg, w + ".silu_gate", pack_silu_gate_encoding(m.version), {T, m.intermediate}, &e.silu_gate)) return false;
      p.layers.push_back(std::move(e));
    }
    m.probes.push_back(std::move(p));
  }
  *out = std::move(m);
  return true;
}
