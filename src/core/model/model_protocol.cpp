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

// Every list of numbers: ids, layers, activations (a non-finite value is written as 0).
template <class N>
void put_numbers(cJSON* a, const std::vector<N>& v) {
  for (N x : v) cJSON_AddItemToArray(a, cJSON_CreateNumber(std::isfinite((double)x) ? (double)x : 0));
}

// Every list of objects: one object an item, written by `put`.
template <class T>
void put_list(cJSON* a, const std::vector<T>& v, void (*put)(cJSON*, const T&)) {
  for (const T& x : v) {
    cJSON* o = cJSON_CreateObject();
    put(o, x);
    cJSON_AddItemToArray(a, o);
  }
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

void put_next(cJSON* o, const model_next_token& n) {
  put_token(o, n.token);
  jw w(o);
  w.num("p", n.p);
  w.num("p_before", n.p_before);
}

void put_unit(cJSON* o, const model_unit_row& u) {
  jw w(o);
  w.num("layer", u.unit.layer);
  w.num("unit", u.unit.unit);
  w.num("value", u.value);
  put_list(w.arr("toward"), u.toward, put_token);
}

void put_flow(cJSON* o, const model_layer_flow& f) {
  jw w(o);
  w.num("mlp_l2", f.mlp_l2);
  w.num("out_l2", f.out_l2);
}

void put_counts(cJSON* o, const mlp_gate_counts& c) {
  jw w(o);
  w.num("total", (double)c.total);
  w.num("open", (double)c.open);
  w.num("negative", (double)c.negative);
  cJSON* h = w.arr("hist");
  for (int b = 0; b < PACK_HIST_BINS; b++) cJSON_AddItemToArray(h, cJSON_CreateNumber((double)c.histogram[b]));
}

void put_file(cJSON* o, const model_status_file& f) {
  jw w(o);
  w.str("file", f.file);
  w.num("loaded", (double)f.loaded);
  w.num("total", (double)f.total);
  w.flag("failed", f.failed);
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
uint64_t get_size(const cJSON* o, const char* k) { return (uint64_t)std::max<int64_t>(0, get_int(o, k)); }
bool list_ok(const cJSON* a) { return cJSON_IsArray(a) && json_size(a) <= kMaxList; }

// Every list: an item each, read by `get` (nothing when it is no list or too long).
template <class T>
std::vector<T> get_list(const cJSON* a, T (*get)(const cJSON*)) {
  std::vector<T> v;
  if (list_ok(a))
    for (const cJSON* e = json_first(a); e; e = e->next) v.push_back(get(e));
  return v;
}

stream_error get_error(const cJSON* o) {
  stream_error e;
  if (!cJSON_IsObject(o)) return e;
  e.fault = (stream_fault)get_small(o, "fault", 0, 0, STREAM_FAULT_COUNT - 1);
  e.status = get_small(o, "status", 0, 0, 999);
  e.got = get_size(o, "got");
  e.want = get_size(o, "want");
  e.seconds = get_num(o, "seconds");
  e.detail = json_string(json_member(o, "detail"));
  e.cause = (stream_fault)get_small(o, "cause", 0, 0, STREAM_FAULT_COUNT - 1);
  const cJSON* r = json_member(o, "reason");
  if (cJSON_IsObject(r)) {
    e.reason.what = get_small(r, "what", -1, -1, STR_COUNT - 1);
    e.reason.place = (read_place)get_small(r, "place", 0, 0, READ_AT_TENSOR);
    e.reason.where = json_string(json_member(r, "where"));
    e.reason.args = get_list(json_member(r, "args"), json_string);
  }
  return e;
}

token_text get_token(const cJSON* o) { return {get_int(o, "id"), json_string(json_member(o, "piece"))}; }

model_next_token get_next(const cJSON* o) { return {get_token(o), get_num(o, "p"), get_num(o, "p_before")}; }

model_unit_row get_unit(const cJSON* o) {
  model_unit_row u;
  u.unit = {(int)get_int(o, "layer", -1), (int)get_int(o, "unit", -1)};
  u.value = (float)get_num(o, "value");
  u.toward = get_list(json_member(o, "toward"), get_token);
  return u;
}

model_layer_flow get_flow(const cJSON* o) { return {(float)get_num(o, "mlp_l2"), (float)get_num(o, "out_l2")}; }

float get_float(const cJSON* n) { return cJSON_IsNumber(n) ? (float)n->valuedouble : 0.0f; }

mlp_gate_counts get_counts(const cJSON* o) {
  mlp_gate_counts c;
  c.total = get_int(o, "total"), c.open = get_int(o, "open"), c.negative = get_int(o, "negative");
  const cJSON* h = json_member(o, "hist");
  int b = 0;
  if (list_ok(h))
    for (const cJSON* x = json_first(h); x && b < PACK_HIST_BINS; x = x->next, b++) {
      int64_t n;
      c.histogram[b] = json_integer(x, &n) && n >= 0 ? n : 0;
    }
  return c;
}

model_status_file get_file(const cJSON* o) {
  return {json_string(json_member(o, "file")), get_size(o, "loaded"), get_size(o, "total"), cJSON_IsTrue(json_member(o, "failed")) != 0};
}

// A message: its JSON object read by `read`; false (*out untouched) when the text is no object.
template <class T>
bool message_parse(const std::string& json, T* out, T (*read)(const cJSON*)) {
  const json_tree t = json_parse(json);
  if (!cJSON_IsObject(t.get())) return false;
  *out = read(t.get());
  return true;
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
  put_numbers(w.arr("ids"), q.ids);
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
  put_numbers(w.arr("gate_layers"), q.gate_layers);
  w.num("threshold", q.threshold);
  w.num("gate_token", q.gate_token);
  return printed(w.o);
}

static model_question question_read(const cJSON* o) {
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
  return q;
}

bool model_question_parse(const std::string& json, model_question* out) {
  return message_parse(json, out, question_read);
}

// [SECTION] the reply

std::string model_reply_json(const model_reply& r) {
  jw w;
  w.num("id", r.id);
  put_error(w.obj("error"), r.error);
  put_list(w.arr("prompt"), r.prompt, put_token);
  w.num("position", r.position);
  put_list(w.arr("top"), r.top, put_next);
  put_list(w.arr("before_top"), r.before_top, put_next);
  put_list(w.arr("rising"), r.rising, put_next);
  put_list(w.arr("units"), r.units, put_unit);
  put_unit(w.obj("picked"), r.picked);
  put_numbers(w.arr("picked_per_token"), r.picked_per_token);
  put_numbers(w.arr("picked_gate"), r.picked_gate);
  put_numbers(w.arr("picked_up"), r.picked_up);
  put_list(w.arr("flow"), r.flow, put_flow);
  put_numbers(w.arr("gate_layers"), r.gate_layers);
  put_list(w.arr("gates_stream"), r.gates_stream, put_counts);
  put_list(w.arr("gates_shortcut"), r.gates_shortcut, put_counts);
  w.num("forward_ms", r.forward_ms);
  w.num("switch_off_ms", r.switch_off_ms);
  return printed(w.o);
}

static model_reply reply_read(const cJSON* o) {
  model_reply r;
  r.id = (uint32_t)get_int(o, "id");
  r.error = get_error(json_member(o, "error"));
  r.prompt = get_list(json_member(o, "prompt"), get_token);
  r.position = get_small(o, "position", 0, 0, 1 << 20);
  r.top = get_list(json_member(o, "top"), get_next);
  r.before_top = get_list(json_member(o, "before_top"), get_next);
  r.rising = get_list(json_member(o, "rising"), get_next);
  r.units = get_list(json_member(o, "units"), get_unit);
  r.picked = get_unit(json_member(o, "picked"));
  r.picked_per_token = get_list(json_member(o, "picked_per_token"), get_float);
  r.picked_gate = get_list(json_member(o, "picked_gate"), get_float);
  r.picked_up = get_list(json_member(o, "picked_up"), get_float);
  r.flow = get_list(json_member(o, "flow"), get_flow);
  for (int64_t l : get_ints(json_member(o, "gate_layers"))) r.gate_layers.push_back((int)l);
  r.gates_stream = get_list(json_member(o, "gates_stream"), get_counts);
  r.gates_shortcut = get_list(json_member(o, "gates_shortcut"), get_counts);
  r.forward_ms = std::max(0.0, get_num(o, "forward_ms", 0));
  r.switch_off_ms = std::max(0.0, get_num(o, "switch_off_ms", 0));
  return r;
}

bool model_reply_parse(const std::string& json, model_reply* out) {
  return message_parse(json, out, reply_read);
}

// [SECTION] the status

std::string model_status_json(const model_status& s) {
  jw w;
  w.str("location", s.location);
  w.num("generation", s.generation);
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
  put_list(w.arr("files"), s.files, put_file);
  w.flag("paused", s.paused);
  w.str("failed_file", s.failed_file);
  put_error(w.obj("error"), s.error);
  w.str("storage_notice", s.storage_notice);
  return printed(w.o);
}

static model_status status_read(const cJSON* o) {
  model_status s;
  s.location = json_string(json_member(o, "location"));
  s.generation = (uint32_t)get_size(o, "generation");
  s.phase = (model_status_phase)get_small(o, "phase", 0, 0, MODEL_STATUS_FAILED);
  s.name = json_string(json_member(o, "name"));
  s.synthetic = cJSON_IsTrue(json_member(o, "synthetic"));
  s.layers = get_small(o, "layers", 0, 0, 1 << 20);
  s.linear_layers = get_small(o, "linear_layers", 0, 0, 1 << 20);
  s.hidden = get_small(o, "hidden", 0, 0, 1 << 24);
  s.intermediate = get_small(o, "intermediate", 0, 0, 1 << 24);
  s.vocab = get_small(o, "vocab", 0, 0, 1 << 25);
  s.tokenizer = cJSON_IsTrue(json_member(o, "tokenizer"));
  s.download_bytes = get_size(o, "download_bytes");
  s.cached_bytes = get_size(o, "cached_bytes");
  s.memory_bytes = get_size(o, "memory_bytes");
  s.bytes_network = get_size(o, "bytes_network");
  s.files = get_list(json_member(o, "files"), get_file);
  s.paused = cJSON_IsTrue(json_member(o, "paused"));
  s.failed_file = json_string(json_member(o, "failed_file"));
  s.error = get_error(json_member(o, "error"));
  s.storage_notice = json_string(json_member(o, "storage_notice"));
  return s;
}

bool model_status_parse(const std::string& json, model_status* out) {
  return message_parse(json, out, status_read);
}
