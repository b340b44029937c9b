// The whole model's messages as JSON (see model_protocol.h). Written with cJSON's builder, read
// through json_read.h: every field optional, every size bounded, so a broken message reads as
// "no answer", never as a crash.
#include "core/model/model_protocol.h"

#include <algorithm>
#include <cmath>

#include "core/json_read.h"

bool model_question::operator==(const model_question& o) const {
  return ids == o.ids && text == o.text && off == o.off && position == o.position && unit == o.unit &&
         gate_layers == o.gate_layers && threshold == o.threshold && gate_token == o.gate_token;
}

namespace {
enum { kMaxList = 1 << 20 };  // no message carries more items than this in one list

// [SECTION] writing
struct jw {
  cJSON* o;
  jw() : o(cJSON_CreateObject()) {}
  explicit jw(cJSON* node) : o(node) {}
  void num(const char* k, double v) { cJSON_AddNumberToObject(o, k, std::isfinite(v) ? v : 0); }
  void str(const char* k, const std::string& v) { cJSON_AddStringToObject(o, k, v.c_str()); }
  void flag(const char* k, bool v) { cJSON_AddBoolToObject(o, k, v); }
  cJSON* arr(const char* k) { return cJSON_AddArrayToObject(o, k); }
  cJSON* obj(const char* k) { return cJSON_AddObjectToObject(o, k); }
};

void put_numbers(cJSON* a, const std::vector<float>& v) {
  for (float x : v) cJSON_AddItemToArray(a, cJSON_CreateNumber(std::isfinite(x) ? x : 0));
}

void put_error(cJSON* node, const stream_error& e) {
  jw w(node);
  w.num("fault", e.fault);
  w.num("status", e.status);
  w.num("got", (double)e.got);
  w.num("want", (double)e.want);
  w.num("seconds", e.seconds);
  w.str("detail", e.detail);
  w.num("cause", e.cause);
  if (e.reason.set()) {
    jw r(w.obj("reason"));
    r.num("what", e.reason.what);
    r.num("place", e.reason.place);
    r.str("where", e.reason.where);
    cJSON* args = r.arr("args");
    for (const std::string& a : e.reason.args) cJSON_AddItemToArray(args, cJSON_CreateString(a.c_str()));
  }
}

void put_token(cJSON* node, const token_text& t) {
  jw w(node);
  w.num("id", (double)t.id);
  w.str("piece", t.piece);
}

void put_tokens(cJSON* a, const std::vector<token_text>& v) {
  for (const token_text& t : v) {
    cJSON* o = cJSON_CreateObject();
    put_token(o, t);
    cJSON_AddItemToArray(a, o);
  }
}

void put_next(cJSON* a, const std::vector<model_next_token>& v) {
  for (const model_next_token& n : v) {
    cJSON* o = cJSON_CreateObject();
    put_token(o, n.token);
    jw w(o);
    w.num("p", n.p);
    w.num("p_before", n.p_before);
    cJSON_AddItemToArray(a, o);
  }
}

void put_unit(cJSON* o, const model_unit_row& u) {
  jw w(o);
  w.num("layer", u.unit.layer);
  w.num("unit", u.unit.unit);
  w.num("value", u.value);
  put_tokens(w.arr("toward"), u.toward);
}

void put_counts(cJSON* a, const std::vector<mlp_gate_counts>& v) {
  for (const mlp_gate_counts& c : v) {
    cJSON* o = cJSON_CreateObject();
    jw w(o);
    w.num("total", (double)c.total);
    w.num("open", (double)c.open);
    w.num("negative", (double)c.negative);
    cJSON* h = w.arr("hist");
    for (int b = 0; b < PACK_HIST_BINS; b++) cJSON_AddItemToArray(h, cJSON_CreateNumber((double)c.histogram[b]));
    cJSON_AddItemToArray(a, o);
  }
}

std::string printed(cJSON* root) {
  char* s = cJSON_PrintUnformatted(root);
  std::string out = s ? s : "";
  cJSON_free(s);
  cJSON_Delete(root);
  return out;
}

// [SECTION] reading
double get_num(const cJSON* o, const char* k, double dflt = 0) {
  const cJSON* n = json_member(o, k);
  return cJSON_IsNumber(n) && std::isfinite(n->valuedouble) ? n->valuedouble : dflt;
}
int64_t get_int(const cJSON* o, const char* k, int64_t dflt = 0) {
  int64_t v;
  return json_integer(json_member(o, k), &v) ? v : dflt;
}
int get_small(const cJSON* o, const char* k, int dflt, int lo, int hi) {
  const int64_t v = get_int(o, k, dflt);
  return v < lo || v > hi ? dflt : (int)v;
}
bool list_ok(const cJSON* a) { return cJSON_IsArray(a) && json_size(a) <= kMaxList; }

stream_error get_error(const cJSON* o) {
  stream_error e;
  if (!cJSON_IsObject(o)) return e;
  e.fault = (stream_fault)get_small(o, "fault", 0, 0, STREAM_FAULT_COUNT - 1);
  e.status = get_small(o, "status", 0, 0, 999);
  e.got = (uint64_t)std::max<int64_t>(0, get_int(o, "got"));
  e.want = (uint64_t)std::max<int64_t>(0, get_int(o, "want"));
  e.seconds = get_num(o, "seconds");
  e.detail = json_string(json_member(o, "detail"));
  e.cause = (stream_fault)get_small(o, "cause", 0, 0, STREAM_FAULT_COUNT - 1);
  const cJSON* r = json_member(o, "reason");
  if (cJSON_IsObject(r)) {
    e.reason.what = get_small(r, "what", -1, -1, STR_COUNT - 1);
    e.reason.place = (read_place)get_small(r, "place", 0, 0, READ_AT_TENSOR);
    e.reason.where = json_string(json_member(r, "where"));
    const cJSON* args = json_member(r, "args");
    if (list_ok(args))
      for (const cJSON* a = json_first(args); a; a = a->next) e.reason.args.push_back(json_string(a));
  }
  return e;
}

token_text get_token(const cJSON* o) { return {get_int(o, "id"), json_string(json_member(o, "piece"))}; }

std::vector<token_text> get_tokens(const cJSON* a) {
  std::vector<token_text> v;
  if (list_ok(a))
    for (const cJSON* e = json_first(a); e; e = e->next) v.push_back(get_token(e));
  return v;
}

std::vector<model_next_token> get_next(const cJSON* a) {
  std::vector<model_next_token> v;
  if (list_ok(a))
    for (const cJSON* e = json_first(a); e; e = e->next) v.push_back({get_token(e), get_num(e, "p"), get_num(e, "p_before")});
  return v;
}

model_unit_row get_unit(const cJSON* o) {
  model_unit_row u;
  u.unit = {(int)get_int(o, "layer", -1), (int)get_int(o, "unit", -1)};
  u.value = (float)get_num(o, "value");
  u.toward = get_tokens(json_member(o, "toward"));
  return u;
}

std::vector<float> get_numbers(const cJSON* a) {
  std::vector<float> v;
  if (list_ok(a))
    for (const cJSON* e = json_first(a); e; e = e->next) v.push_back(cJSON_IsNumber(e) ? (float)e->valuedouble : 0.0f);
  return v;
}

std::vector<mlp_gate_counts> get_counts(const cJSON* a) {
  std::vector<mlp_gate_counts> v;
  if (!list_ok(a)) return v;
  for (const cJSON* e = json_first(a); e; e = e->next) {
    mlp_gate_counts c;
    c.total = get_int(e, "total"), c.open = get_int(e, "open"), c.negative = get_int(e, "negative");
    const cJSON* h = json_member(e, "hist");
    int b = 0;
    if (list_ok(h))
      for (const cJSON* x = json_first(h); x && b < PACK_HIST_BINS; x = x->next, b++) {
        int64_t n;
        c.histogram[b] = json_integer(x, &n) && n >= 0 ? n : 0;
      }
    v.push_back(c);
  }
  return v;
}

std::vector<int64_t> get_ints(const cJSON* a) {
  std::vector<int64_t> v;
  if (list_ok(a))
    for (const cJSON* e = json_first(a); e; e = e->next) {
      int64_t x;
      if (json_integer(e, &x)) v.push_back(x);
    }
  return v;
}
}  // namespace

// [SECTION] the question

std::string model_question_json(const model_question& q) {
  jw w;
  w.num("id", q.id);
  cJSON* ids = w.arr("ids");
  for (int64_t i : q.ids) cJSON_AddItemToArray(ids, cJSON_CreateNumber((double)i));
  w.str("text", q.text);
  cJSON* off = w.arr("off");
  for (const unit_ref& u : q.off) {
    cJSON* pair = cJSON_CreateArray();
    cJSON_AddItemToArray(pair, cJSON_CreateNumber(u.layer));
    cJSON_AddItemToArray(pair, cJSON_CreateNumber(u.unit));
    cJSON_AddItemToArray(off, pair);
  }
  w.num("position", q.position);
  w.num("unit_layer", q.unit.layer);
  w.num("unit", q.unit.unit);
  cJSON* gl = w.arr("gate_layers");
  for (int l : q.gate_layers) cJSON_AddItemToArray(gl, cJSON_CreateNumber(l));
  w.num("threshold", q.threshold);
  w.num("gate_token", q.gate_token);
  return printed(w.o);
}

bool model_question_parse(const std::string& json, model_question* out) {
  const json_tree t = json_parse(json);
  const cJSON* o = t.get();
  if (!cJSON_IsObject(o)) return false;
  model_question q;
  q.id = (uint32_t)get_int(o, "id");
  q.ids = get_ints(json_member(o, "ids"));
  q.text = json_string(json_member(o, "text"));
  const cJSON* off = json_member(o, "off");
  if (list_ok(off))
    for (const cJSON* p = json_first(off); p; p = p->next) {
      const std::vector<int64_t> lu = get_ints(p);
      if (lu.size() == 2 && lu[0] >= 0 && lu[0] < (1 << 20) && lu[1] >= 0 && lu[1] < (1 << 24)) q.off.push_back({(int)lu[0], (int)lu[1]});
    }
  q.position = get_small(o, "position", -1, -1, 1 << 20);
  q.unit = {get_small(o, "unit_layer", -1, -1, 1 << 20), get_small(o, "unit", -1, -1, 1 << 24)};
  for (int64_t l : get_ints(json_member(o, "gate_layers")))
    if (l >= 0 && l < (1 << 20)) q.gate_layers.push_back((int)l);
  q.threshold = get_num(o, "threshold", 0.1);
  q.gate_token = get_small(o, "gate_token", -1, -1, 1 << 20);
  *out = q;
  return true;
}

// [SECTION] the reply

std::string model_reply_json(const model_reply& r) {
  jw w;
  w.num("id", r.id);
  put_error(w.obj("error"), r.error);
  put_tokens(w.arr("prompt"), r.prompt);
  w.num("position", r.position);
  put_next(w.arr("top"), r.top);
  put_next(w.arr("before_top"), r.before_top);
  put_next(w.arr("rising"), r.rising);
  cJSON* units = w.arr("units");
  for (const model_unit_row& u : r.units) {
    cJSON* o = cJSON_CreateObject();
    put_unit(o, u);
    cJSON_AddItemToArray(units, o);
  }
  put_unit(w.obj("picked"), r.picked);
  put_numbers(w.arr("picked_per_token"), r.picked_per_token);
  cJSON* flow = w.arr("flow");
  for (const model_layer_flow& f : r.flow) {
    cJSON* o = cJSON_CreateObject();
    jw fw(o);
    fw.num("mlp_l2", f.mlp_l2);
    fw.num("out_l2", f.out_l2);
    cJSON_AddItemToArray(flow, o);
  }
  cJSON* gl = w.arr("gate_layers");
  for (int l : r.gate_layers) cJSON_AddItemToArray(gl, cJSON_CreateNumber(l));
  put_counts(w.arr("gates_stream"), r.gates_stream);
  put_counts(w.arr("gates_shortcut"), r.gates_shortcut);
  w.num("forward_ms", r.forward_ms);
  w.num("switch_off_ms", r.switch_off_ms);
  return printed(w.o);
}

bool model_reply_parse(const std::string& json, model_reply* out) {
  const json_tree t = json_parse(json);
  const cJSON* o = t.get();
  if (!cJSON_IsObject(o)) return false;
  model_reply r;
  r.id = (uint32_t)get_int(o, "id");
  r.error = get_error(json_member(o, "error"));
  r.prompt = get_tokens(json_member(o, "prompt"));
  r.position = get_small(o, "position", 0, 0, 1 << 20);
  r.top = get_next(json_member(o, "top"));
  r.before_top = get_next(json_member(o, "before_top"));
  r.rising = get_next(json_member(o, "rising"));
  const cJSON* units = json_member(o, "units");
  if (list_ok(units))
    for (const cJSON* u = json_first(units); u; u = u->next) r.units.push_back(get_unit(u));
  r.picked = get_unit(json_member(o, "picked"));
  r.picked_per_token = get_numbers(json_member(o, "picked_per_token"));
  const cJSON* flow = json_member(o, "flow");
  if (list_ok(flow))
    for (const cJSON* f = json_first(flow); f; f = f->next) r.flow.push_back({(float)get_num(f, "mlp_l2"), (float)get_num(f, "out_l2")});
  for (int64_t l : get_ints(json_member(o, "gate_layers"))) r.gate_layers.push_back((int)l);
  r.gates_stream = get_counts(json_member(o, "gates_stream"));
  r.gates_shortcut = get_counts(json_member(o, "gates_shortcut"));
  r.forward_ms = std::max(0.0, get_num(o, "forward_ms", 0));
  r.switch_off_ms = std::max(0.0, get_num(o, "switch_off_ms", 0));
  *out = r;
  return true;
}

// [SECTION] the status

std::string model_status_json(const model_status& s) {
  jw w;
  w.str("location", s.location);
  w.num("phase", s.phase);
  w.str("name", s.name);
  w.flag("synthetic", s.synthetic);
  w.num("layers", s.layers);
  w.num("linear_layers", s.linear_layers);
  w.num("hidden", s.hidden);
  w.num("intermediate", s.intermediate);
  w.num("vocab", s.vocab);
  w.flag("tokenizer", s.tokenizer);
  w.num("download_bytes", (double)s.download_bytes);
  w.num("cached_bytes", (double)s.cached_bytes);
  w.num("memory_bytes", (double)s.memory_bytes);
  w.num("bytes_network", (double)s.bytes_network);
  cJSON* files = w.arr("files");
  for (const model_status_file& f : s.files) {
    cJSON* o = cJSON_CreateObject();
    jw fw(o);
    fw.str("file", f.file);
    fw.num("loaded", (double)f.loaded);
    fw.num("total", (double)f.total);
    fw.flag("failed", f.failed);
    cJSON_AddItemToArray(files, o);
  }
  w.flag("paused", s.paused);
  w.str("failed_file", s.failed_file);
  put_error(w.obj("error"), s.error);
  w.str("storage_notice", s.storage_notice);
  return printed(w.o);
}

bool model_status_parse(const std::string& json, model_status* out) {
  const json_tree t = json_parse(json);
  const cJSON* o = t.get();
  if (!cJSON_IsObject(o)) return false;
  model_status s;
  s.location = json_string(json_member(o, "location"));
  s.phase = (model_status_phase)get_small(o, "phase", 0, 0, MODEL_STATUS_FAILED);
  s.name = json_string(json_member(o, "name"));
  s.synthetic = cJSON_IsTrue(json_member(o, "synthetic"));
  s.layers = get_small(o, "layers", 0, 0, 1 << 20);
  s.linear_layers = get_small(o, "linear_layers", 0, 0, 1 << 20);
  s.hidden = get_small(o, "hidden", 0, 0, 1 << 24);
  s.intermediate = get_small(o, "intermediate", 0, 0, 1 << 24);
  s.vocab = get_small(o, "vocab", 0, 0, 1 << 25);
  s.tokenizer = cJSON_IsTrue(json_member(o, "tokenizer"));
  s.download_bytes = (uint64_t)std::max<int64_t>(0, get_int(o, "download_bytes"));
  s.cached_bytes = (uint64_t)std::max<int64_t>(0, get_int(o, "cached_bytes"));
  s.memory_bytes = (uint64_t)std::max<int64_t>(0, get_int(o, "memory_bytes"));
  s.bytes_network = (uint64_t)std::max<int64_t>(0, get_int(o, "bytes_network"));
  const cJSON* files = json_member(o, "files");
  if (list_ok(files))
    for (const cJSON* f = json_first(files); f; f = f->next)
      s.files.push_back({json_string(json_member(f, "file")), (uint64_t)std::max<int64_t>(0, get_int(f, "loaded")),
                         (uint64_t)std::max<int64_t>(0, get_int(f, "total")), cJSON_IsTrue(json_member(f, "failed")) != 0});
  s.paused = cJSON_IsTrue(json_member(o, "paused"));
  s.failed_file = json_string(json_member(o, "failed_file"));
  s.error = get_error(json_member(o, "error"));
  s.storage_notice = json_string(json_member(o, "storage_notice"));
  *out = s;
  return true;
}
