// The whole model's messages (core/model/model_messages.inc) as JSON both ways. Every field of the
// question, the reply and the status, nested rows included, is set to a value other than its
// default and compared field by field after a round trip; the test then shows it would notice a
// field the writer or the reader dropped (each member of the written JSON taken out in turn) and
// one equality left out (each field changed in turn). Another version is refused as such, an
// unknown enum name as unreadable, odd fields read as their defaults, and web/model_worker.js and
// model_web.cpp post and take exactly the envelope's declared types and fields.
#include <catch2/catch.hpp>

#include <cJSON.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "core/experiments/model_session.h"
#include "core/base/json_read.h"
#include "core/model/model_fields.h"
#include "core/views/model_view.h"

namespace {

// [SECTION] visitors over the rows (model_fields.h), the test's own

// Sets every field to an in-bound value other than its row's default, each field another value
// (two fields swapped on the way would show), every list two items long.
struct fill_fields {
  int n = 0;
  int64_t pick(int64_t dflt, int64_t lo, int64_t hi) {
    const int64_t start = lo <= 0 && 0 <= hi ? 0 : lo;
    int64_t v = std::min(hi, start + ++n);
    if (v == dflt) v = v > lo ? v - 1 : v + 1;
    return v;
  }
  double pick_real(double dflt, double lo, double hi) {
    // Sixteenths and halves: exact in a float, a double and in JSON.
    double v = hi - lo < 1e6 ? lo + (hi - lo) * (double)(++n % 15 + 1) / 16.0 : (lo <= 0 ? 0.5 : lo) + ++n;
    if (v == dflt) v = lo + (hi - lo) / 32.0;
    return v;
  }
  void id(const char*, uint32_t& f) { f = 7000 + (uint32_t)++n; }
  template <class T>
  void integer(const char*, int64_t dflt, int64_t lo, int64_t hi, T& f) { f = (T)pick(dflt, lo, hi); }
  template <class T>
  void real(const char*, double dflt, double lo, double hi, T& f) { f = (T)pick_real(dflt, lo, hi); }
  void flag(const char*, bool dflt, bool& f) { f = !dflt; }
  void text(const char* k, size_t, std::string& f) { f = std::string(k) + " 文" + std::to_string(++n); }
  template <class T>
  void named(const char*, int dflt, const model_name_table& t, T& f) {
    f = (T)((dflt + 1 + ++n % (t.count - 1)) % t.count);
  }
  template <class T>
  void integers(const char*, size_t, int64_t lo, int64_t hi, std::vector<T>& f) { f = {(T)pick(lo, lo, hi), (T)pick(lo, lo, hi)}; }
  template <class T, size_t N>
  void integers(const char*, size_t, int64_t lo, int64_t hi, T (&f)[N]) {
    for (T& x : f) x = (T)pick(0, lo, hi);
  }
  template <class T>
  void reals(const char*, size_t, double lo, double hi, std::vector<T>& f) { f = {(T)pick_real(0, lo, hi), (T)pick_real(0, lo, hi)}; }
  void texts(const char* k, size_t, size_t, std::vector<std::string>& f) { f = {k + std::to_string(++n), "二" + std::to_string(++n)}; }
  template <class T>
  void list(const char*, size_t, std::vector<T>& f) {
    f.resize(2);
    for (T& x : f) model_fields<T>::each(*this, x);
  }
  template <class T>
  void record(const char*, T& f) { model_fields<T>::each(*this, f); }
};

template <class T>
T filled() {
  T x{};
  fill_fields f;
  model_fields<T>::each(f, x);
  return x;
}

// The fields of two records that differ, by path ("top[1].token.piece"), and the fields compared.
struct diff_fields {
  std::vector<std::string> differ;
  std::string path;
  int compared = 0;
  template <class T>
  void leaf(const char* k, const T& a, const T& b) {
    compared++;
    if (!(a == b)) differ.push_back(path + k);
  }
  void id(const char* k, uint32_t a, uint32_t b) { leaf(k, a, b); }
  template <class T>
  void integer(const char* k, int64_t, int64_t, int64_t, const T& a, const T& b) { leaf(k, a, b); }
  template <class T>
  void real(const char* k, double, double, double, const T& a, const T& b) { leaf(k, a, b); }
  void flag(const char* k, bool, bool a, bool b) { leaf(k, a, b); }
  void text(const char* k, size_t, const std::string& a, const std::string& b) { leaf(k, a, b); }
  template <class T>
  void named(const char* k, int, const model_name_table&, const T& a, const T& b) { leaf(k, a, b); }
  template <class T>
  void integers(const char* k, size_t, int64_t, int64_t, const std::vector<T>& a, const std::vector<T>& b) { leaf(k, a, b); }
  template <class T, size_t N>
  void integers(const char* k, size_t, int64_t, int64_t, const T (&a)[N], const T (&b)[N]) {
    leaf(k, std::vector<T>(a, a + N), std::vector<T>(b, b + N));
  }
  template <class T>
  void reals(const char* k, size_t, double, double, const std::vector<T>& a, const std::vector<T>& b) { leaf(k, a, b); }
  void texts(const char* k, size_t, size_t, const std::vector<std::string>& a, const std::vector<std::string>& b) { leaf(k, a, b); }
  template <class T>
  void list(const char* k, size_t, const std::vector<T>& a, const std::vector<T>& b) {
    leaf((std::string(k) + ".size").c_str(), a.size(), b.size());
    const std::string outer = path;
    for (size_t i = 0; i < std::min(a.size(), b.size()); i++) {
      path = outer + k + "[" + std::to_string(i) + "].";
      model_fields<T>::each(*this, a[i], b[i]);
    }
    path = outer;
  }
  template <class T>
  void record(const char* k, const T& a, const T& b) {
    const std::string outer = path;
    path = outer + k + ".";
    model_fields<T>::each(*this, a, b);
    path = outer;
  }
};

template <class T>
diff_fields diff(const T& a, const T& b) {
  diff_fields d;
  model_fields<T>::each(d, a, b);
  return d;
}

// The fields still at their row's default (a list counts when empty; its items are walked).
struct at_default {
  std::vector<std::string> found;
  std::string path;
  int fields = 0;
  void note(const char* k, bool is_default) {
    fields++;
    if (is_default) found.push_back(path + k);
  }
  void id(const char* k, uint32_t f) { note(k, f == 0); }
  template <class T>
  void integer(const char* k, int64_t dflt, int64_t, int64_t, const T& f) { note(k, (int64_t)f == dflt); }
  template <class T>
  void real(const char* k, double dflt, double, double, const T& f) { note(k, (double)f == dflt); }
  void flag(const char* k, bool dflt, bool f) { note(k, f == dflt); }
  void text(const char* k, size_t, const std::string& f) { note(k, f.empty()); }
  template <class T>
  void named(const char* k, int dflt, const model_name_table&, const T& f) { note(k, (int)f == dflt); }
  template <class T>
  void integers(const char* k, size_t, int64_t, int64_t, const std::vector<T>& f) { note(k, f.empty()); }
  template <class T, size_t N>
  void integers(const char* k, size_t, int64_t, int64_t, const T (&f)[N]) { note(k, std::all_of(f, f + N, [](T x) { return x == 0; })); }
  template <class T>
  void reals(const char* k, size_t, double, double, const std::vector<T>& f) { note(k, f.empty()); }
  void texts(const char* k, size_t, size_t, const std::vector<std::string>& f) { note(k, f.empty()); }
  template <class T>
  void list(const char* k, size_t, const std::vector<T>& f) {
    note(k, f.empty());
    const std::string outer = path;
    for (size_t i = 0; i < f.size(); i++) {
      path = outer + k + "[" + std::to_string(i) + "].";
      model_fields<T>::each(*this, f[i]);
    }
    path = outer;
  }
  template <class T>
  void record(const char* k, const T& f) {
    const std::string outer = path;
    path = outer + k + ".";
    model_fields<T>::each(*this, f);
    path = outer;
  }
};

template <class T>
at_default fields_at_default(const T& x) {
  at_default d;
  model_fields<T>::each(d, x);
  return d;
}

// Changes the `target`-th field (lists count once as a whole, then each item's fields) to another
// in-bound value; `changed` names it, `id` says whether it was an id.
struct change_one {
  explicit change_one(int k) : target(k) {}
  int target, seen = 0;
  std::string changed;
  bool is_id = false;
  bool hit(const char* k) {
    if (seen++ != target) return false;
    changed = k;
    return true;
  }
  void id(const char* k, uint32_t& f) {
    if (hit(k)) f++, is_id = true;
  }
  template <class T>
  void integer(const char* k, int64_t, int64_t lo, int64_t, T& f) {
    if (hit(k)) f = (int64_t)f == lo ? (T)(lo + 1) : (T)lo;
  }
  template <class T>
  void real(const char* k, double, double lo, double hi, T& f) {
    if (hit(k)) f = (double)f == lo ? (T)hi : (T)lo;
  }
  void flag(const char* k, bool, bool& f) {
    if (hit(k)) f = !f;
  }
  void text(const char* k, size_t, std::string& f) {
    if (hit(k)) f += "x";
  }
  template <class T>
  void named(const char* k, int, const model_name_table& t, T& f) {
    if (hit(k)) f = (T)(((int)f + 1) % t.count);
  }
  template <class V>
  void shorten(const char* k, V& f) {
    if (hit(k)) f.pop_back();
  }
  template <class T>
  void integers(const char* k, size_t, int64_t, int64_t, std::vector<T>& f) { shorten(k, f); }
  template <class T, size_t N>
  void integers(const char* k, size_t, int64_t lo, int64_t, T (&f)[N]) {
    if (hit(k)) f[N - 1] = f[N - 1] == lo ? (T)(lo + 1) : (T)lo;
  }
  template <class T>
  void reals(const char* k, size_t, double, double, std::vector<T>& f) { shorten(k, f); }
  void texts(const char* k, size_t, size_t, std::vector<std::string>& f) { shorten(k, f); }
  template <class T>
  void list(const char* k, size_t, std::vector<T>& f) {
    shorten(k, f);
    for (T& x : f) model_fields<T>::each(*this, x);
  }
  template <class T>
  void record(const char*, T& f) { model_fields<T>::each(*this, f); }
};

// [SECTION] the three messages, one test body each
template <class T>
struct message_io {
  std::string (*json)(const T&);
  bool (*parse)(const std::string&, T*, model_read_fault*);
};
const message_io<model_question> question_io{model_question_json, model_question_parse};
const message_io<model_reply> reply_io{model_reply_json, model_reply_parse};
const message_io<model_status> status_io{model_status_json, model_status_parse};

std::string printed(cJSON* j) {
  char* s = cJSON_PrintUnformatted(j);
  std::string out = s;
  cJSON_free(s);
  return out;
}

// Takes out the `k`-th object member of the tree (depth first, every list item), naming it in
// *path; false when there are fewer.
bool take_out(cJSON* node, int* k, const std::string& at, std::string* path) {
  for (cJSON* c = node->child; c; c = c->next) {
    const std::string here = cJSON_IsObject(node) ? at + "." + c->string : at + "[]";
    if (cJSON_IsObject(node) && (*k)-- == 0) {
      *path = here;
      cJSON_Delete(cJSON_DetachItemViaPointer(node, c));
      return true;
    }
    if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && take_out(c, k, here, path)) return true;
  }
  return false;
}

template <class T>
void check_round_trip_of_every_field(const char* what, const message_io<T>& io) {
  INFO(what);
  const T x = filled<T>();
  // The filled message leaves no field at its default, or a field dropped on the way could read
  // back as what was sent.
  CHECK(fields_at_default(x).found == std::vector<std::string>{});
  CHECK(diff(x, T{}).differ.size() > 0);

  const std::string json = io.json(x);
  INFO(json);
  T back;
  model_read_fault fault = MODEL_READ_UNREADABLE;
  REQUIRE(io.parse(json, &back, &fault));
  CHECK(fault == MODEL_READ_OK);
  const diff_fields d = diff(x, back);
  CHECK(d.differ == std::vector<std::string>{});
  CHECK(d.compared > 10);
  CHECK(back == x);

  // A writer or reader that drops a field: the JSON without it, member by member, everywhere.
  // Each must read as another message (or, without "v", as another version).
  int taken = 0;
  for (int k = 0;; k++) {
    const json_tree tree(cJSON_Parse(json.c_str()));
    int left = k;
    std::string path;
    if (!take_out(tree.get(), &left, "", &path)) break;
    taken++;
    INFO("without " << path);
    T y;
    const bool ok = io.parse(printed(tree.get()), &y, &fault);
    if (path == ".v") {
      CHECK(!ok);
      CHECK(fault == MODEL_READ_OTHER_VERSION);
    } else {
      REQUIRE(ok);
      CHECK(diff(x, y).differ.size() > 0);
    }
  }
  CHECK(taken > d.compared);

  // An equality that leaves a field out: each field changed alone must make the message another
  // one, but for the ids (they name a message, they say nothing of it).
  int changed = 0;
  for (int k = 0;; k++) {
    T y = x;
    change_one c{k};
    model_fields<T>::each(c, y);
    if (c.changed.empty()) break;
    changed++;
    INFO("changed " << c.changed);
    CHECK(diff(x, y).differ.size() == 1);
    CHECK((y == x) == c.is_id);
  }
  CHECK(changed == d.compared);
}

}  // namespace

// [SECTION] every field, both ways

TEST_CASE("protocol: every field of the question, the reply and the status round-trips, and a dropped one shows", "[model][protocol]") {
  check_round_trip_of_every_field("model_question", question_io);
  check_round_trip_of_every_field("model_reply", reply_io);
  check_round_trip_of_every_field("model_status", status_io);
}

TEST_CASE("protocol: the rows of a struct declared elsewhere hold its defaults", "[model][protocol]") {
  // A reader leaves a missing field as the struct made it: the row must say the same default.
  const at_default u = fields_at_default(unit_ref{}), r = fields_at_default(read_error{}),
                   e = fields_at_default(stream_error{}), c = fields_at_default(mlp_gate_counts{});
  CHECK(u.found.size() == (size_t)u.fields);
  CHECK(r.found.size() == (size_t)r.fields);
  CHECK(e.found.size() == (size_t)e.fields);
  CHECK(c.found.size() == (size_t)c.fields);
  CHECK(e.fields > 8);  // stream_error's own and its reason's
}

TEST_CASE("protocol: model_question's equality is everything but the id", "[model][protocol]") {
  model_question a, b;
  b.id = 9;
  CHECK(a == b);
  b.gate_token = 3;
  CHECK(a != b);
  b = a;
  b.unit = {2, 5};
  CHECK(a != b);
}

TEST_CASE("protocol: numbers cross exactly, however many digits they need", "[model][protocol]") {
  model_reply r;
  r.top = {{{1, "a"}, 0.1 + 0.2, 1.0 / 3.0}};
  r.error.seconds = 8.888888888888889e105;
  r.forward_ms = 2.5e-320;  // subnormal
  r.picked_per_token = {0.1f, -FLT_MAX, FLT_MIN / 3};
  r.gate_layers = {MODEL_MAX_LAYERS};
  r.prompt = {{MODEL_MAX_EXACT, ""}, {-MODEL_MAX_EXACT, ""}};
  model_reply back;
  REQUIRE(model_reply_parse(model_reply_json(r), &back));
  CHECK(diff(r, back).differ == std::vector<std::string>{});
  CHECK(model_reply_json(r).find("\"p\":0.30000000000000004") != std::string::npos);
  CHECK(model_reply_json(r).find("\"gate_layers\":[1024]") != std::string::npos);
}

// [SECTION] versions and names

template <class T>
void check_versions(const char* what, const message_io<T>& io) {
  INFO(what);
  const T x = filled<T>();
  const std::string json = io.json(x);
  REQUIRE(json.rfind("{\"v\":" + std::to_string(MODEL_MESSAGES_VERSION) + ",", 0) == 0);
  // Another build's versions (the one before this and the one after), and values no build writes.
  const std::string before = std::to_string(MODEL_MESSAGES_VERSION - 1), after = std::to_string(MODEL_MESSAGES_VERSION + 1),
                    quoted = "\"" + std::to_string(MODEL_MESSAGES_VERSION) + "\"";
  for (const char* v : {before.c_str(), after.c_str(), "0", quoted.c_str(), "null", "1.5"}) {
    INFO("v " << v);
    const json_tree tree(cJSON_Parse(json.c_str()));
    cJSON_ReplaceItemInObject(tree.get(), "v", cJSON_Parse(v));
    T y = x;
    model_read_fault fault = MODEL_READ_OK;
    CHECK_FALSE(io.parse(printed(tree.get()), &y, &fault));
    CHECK(fault == MODEL_READ_OTHER_VERSION);
    CHECK(diff(x, y).differ.empty());  // untouched
  }
  // No "v" at all: a build from before the messages had versions.
  const json_tree tree(cJSON_Parse(json.c_str()));
  cJSON_DeleteItemFromObject(tree.get(), "v");
  model_read_fault fault = MODEL_READ_OK;
  T y;
  CHECK_FALSE(io.parse(printed(tree.get()), &y, &fault));
  CHECK(fault == MODEL_READ_OTHER_VERSION);
  // Text that is no message at all is unreadable, not another version.
  for (const char* bad : {"", "[]", "{", "1", "\"v\"", "\xff\xfe"}) {
    CHECK_FALSE(io.parse(bad, &y, &fault));
    CHECK(fault == MODEL_READ_UNREADABLE);
  }
}

TEST_CASE("protocol: a message of another version is refused as another version", "[model][protocol]") {
  check_versions("model_question", question_io);
  check_versions("model_reply", reply_io);
  check_versions("model_status", status_io);
}

// `json` with the member at `path` (keys, a number for a list's item) replaced by `value`.
static std::string with(const std::string& json, std::vector<std::string> path, const char* value) {
  const json_tree tree(cJSON_Parse(json.c_str()));
  cJSON* node = tree.get();
  const std::string last = path.back();
  path.pop_back();
  for (const std::string& k : path) node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, std::stoi(k)) : cJSON_GetObjectItemCaseSensitive(node, k.c_str());
  REQUIRE(node);
  cJSON* v = cJSON_Parse(value);
  REQUIRE(v);
  if (cJSON_HasObjectItem(node, last.c_str())) cJSON_ReplaceItemInObjectCaseSensitive(node, last.c_str(), v);
  else cJSON_AddItemToObject(node, last.c_str(), v);
  return printed(tree.get());
}

TEST_CASE("protocol: enums cross by name; an unknown name or an ordinal is unreadable", "[model][protocol]") {
  model_status s;
  s.phase = MODEL_STATUS_READY;
  s.error = stream_error_of(STREAM_NEEDS_IDS, read_error_in(READ_AT_TENSOR, STR_READ_TOKEN_OUTSIDE, {"1", "2"}));
  s.error.cause = STREAM_NOT_FOUND;
  const std::string json = model_status_json(s);
  INFO(json);
  CHECK(json.find("\"phase\":\"MODEL_STATUS_READY\"") != std::string::npos);
  CHECK(json.find("\"fault\":\"STREAM_NEEDS_IDS\"") != std::string::npos);
  CHECK(json.find("\"cause\":\"STREAM_NOT_FOUND\"") != std::string::npos);
  CHECK(json.find("\"what\":\"STR_READ_TOKEN_OUTSIDE\"") != std::string::npos);
  CHECK(json.find("\"place\":\"READ_AT_TENSOR\"") != std::string::npos);
  model_status back;
  REQUIRE(model_status_parse(json, &back));
  CHECK(back == s);

  const std::vector<std::pair<std::vector<std::string>, const char*>> bad = {
      {{"phase"}, "\"MODEL_STATUS_SLEEPING\""}, {{"phase"}, "4"},           {{"phase"}, "\"ready\""},
      {{"error", "fault"}, "\"STREAM_MARTIAN\""}, {{"error", "cause"}, "11"}, {{"error", "reason", "what"}, "\"STR_NO_SUCH_WORDS\""},
      {{"error", "reason", "place"}, "null"},     {{"phase"}, "\"MODEL_STATUS_COUNT\""}};
  for (const auto& b : bad) {
    const std::string text = with(json, b.first, b.second);
    INFO(text);
    model_status y;
    y.location = "kept";
    model_read_fault fault = MODEL_READ_OK;
    CHECK_FALSE(model_status_parse(text, &y, &fault));
    CHECK(fault == MODEL_READ_UNREADABLE);
    CHECK(y.location == "kept");
  }
  // In a reply too, inside its error.
  model_reply r;
  r.error = stream_error_of(STREAM_FORMAT);
  model_reply ry;
  model_read_fault fault = MODEL_READ_OK;
  CHECK_FALSE(model_reply_parse(with(model_reply_json(r), {"error", "fault"}, "\"STREAM_FORMATTED\""), &ry, &fault));
  CHECK(fault == MODEL_READ_UNREADABLE);
  // read_error's -1 (no reason) has no name: it is left out, and reads back as -1.
  CHECK(model_reply_json(r).find("\"what\"") == std::string::npos);
  REQUIRE(model_reply_parse(model_reply_json(r), &ry));
  CHECK(ry.error.reason.what == -1);
}

template <class E>
static void check_names(int count) {
  const model_name_table& t = model_names_of((const E*)nullptr);
  REQUIRE(t.count == count);
  std::set<std::string> seen;
  for (int i = 0; i < t.count; i++) {
    INFO(i);
    REQUIRE(t.name(i));
    CHECK(seen.insert(t.name(i)).second);
    int back = -1;
    CHECK(t.find(t.name(i), &back));
    CHECK(back == i);
  }
  CHECK(t.name(-1) == nullptr);
  CHECK(t.name(count) == nullptr);
}

TEST_CASE("protocol: every enum value has one name, the string table's ids theirs", "[model][protocol]") {
  check_names<model_status_phase>(MODEL_STATUS_FAILED + 1);
  check_names<stream_fault>(STREAM_FAULT_COUNT);
  check_names<read_place>(READ_AT_TENSOR + 1);
  check_names<str_id>(STR_COUNT);
  CHECK(std::string(model_names_of((const str_id*)nullptr).name(STR_MODEL_OTHER_BUILD)) == "STR_MODEL_OTHER_BUILD");
  CHECK(std::string(model_names_of((const stream_fault*)nullptr).name(STREAM_UNSUPPORTED)) == "STREAM_UNSUPPORTED");
}

// [SECTION] hostile text

TEST_CASE("protocol: odd fields read as their defaults, and sizes are bounded", "[model][protocol]") {
  const std::string v = "{\"v\":" + std::to_string(MODEL_MESSAGES_VERSION);
  model_status s;
  REQUIRE(model_status_parse(v + "}", &s));
  CHECK(s == model_status());
  REQUIRE(model_status_parse(v + ",\"layers\":\"24\",\"hidden\":-3,\"vocab\":1e12,\"synthetic\":1,\"name\":7,\"files\":[{\"file\":\"a\"},5],"
                                 "\"error\":[],\"download_bytes\":1.5,\"cached_bytes\":1e300}",
                             &s));
  CHECK(s == model_status());
  REQUIRE(model_status_parse(v + ",\"layers\":" + std::to_string(MODEL_MAX_LAYERS + 1) + ",\"files\":[{\"file\":\"a\",\"loaded\":-1}]}", &s));
  CHECK(s.layers == 0);
  REQUIRE(s.files.size() == 1);
  CHECK(s.files[0].file == "a");
  CHECK(s.files[0].loaded == 0);

  model_question q;
  REQUIRE(model_question_parse(v + ",\"ids\":[1,2.5],\"threshold\":2,\"position\":-2,\"off\":[[1,2]],\"unit\":{\"layer\":\"x\"}}", &q));
  CHECK(q == model_question());
  CHECK(q.unit == MODEL_NO_UNIT);
  const std::string long_text(MODEL_MAX_TEXT_BYTES + 1, 'a');
  REQUIRE(model_question_parse(v + ",\"text\":\"" + long_text + "\"}", &q));
  CHECK(q.text.empty());

  // A histogram of another length is not this one's bins.
  model_reply r;
  REQUIRE(model_reply_parse(v + ",\"gates_stream\":[{\"total\":4,\"histogram\":[1,2]}]}", &r));
  REQUIRE(r.gates_stream.size() == 1);
  CHECK(r.gates_stream[0].total == 4);
  CHECK(r.gates_stream[0].histogram[0] == 0);

  // Too many values for one message: refused before a tree is built.
  std::string many = v + ",\"ids\":[";
  for (int i = 0; i < MODEL_MAX_MESSAGE_VALUES; i++) many += "0,";
  many += "0]}";
  model_read_fault fault = MODEL_READ_OK;
  CHECK_FALSE(model_question_parse(many, &q, &fault));
  CHECK(fault == MODEL_READ_UNREADABLE);
  // Nested past cJSON's limit.
  CHECK_FALSE(model_reply_parse(v + ",\"error\":" + std::string(200, '[') + std::string(200, ']') + "}", &r, &fault));
  CHECK(fault == MODEL_READ_UNREADABLE);
}

// [SECTION] the page's words for a worker of another build

TEST_CASE("protocol: a worker of another version becomes a failed status that says to reload the page", "[model][protocol]") {
  model_session ms;
  ms.status = model_status_other_version("hf:Qwen/Qwen3.5-0.8B");
  CHECK(ms.status.phase == MODEL_STATUS_FAILED);
  CHECK(ms.status.location == "hf:Qwen/Qwen3.5-0.8B");
  const auto said = [&](lab_lang lang) {
    strings_set_lang(lang);
    std::string all;
    for (const std::string& line : model_status_lines(ms)) all += line + "\n";
    strings_set_lang(LAB_LANG_EN);
    return all;
  };
  const std::string en = said(LAB_LANG_EN), zh = said(LAB_LANG_ZH);
  INFO(en << zh);
  CHECK(en.find("another build of this page") != std::string::npos);
  CHECK(en.find("reload the page") != std::string::npos);
  CHECK(zh.find("另一个版本") != std::string::npos);
  CHECK(zh.find("请重新加载页面") != std::string::npos);
}

// [SECTION] the envelope: the worker's script and the page post and take the declared types

using post_fields = std::map<std::string, std::set<std::string>>;  // type -> its fields

static std::string source_text(const char* path) {
  std::ifstream f(std::string(SWIGLU_SOURCE_DIR) + "/" + path);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The text between `from` and the first `to` after it.
static std::string between(const std::string& text, const std::string& from, const std::string& to) {
  const size_t a = text.find(from);
  REQUIRE(a != std::string::npos);
  const size_t b = text.find(to, a + from.size());
  REQUIRE(b != std::string::npos);
  return text.substr(a, b - a);
}

static std::set<std::string> matches(const std::string& text, const std::regex& re) {
  std::set<std::string> out;
  for (std::sregex_iterator m(text.begin(), text.end(), re), end; m != end; ++m) out.insert((*m)[1]);
  return out;
}

// Each type that `type_re` finds (its group 1), with the fields `field_re` finds up to the next.
static post_fields by_type(const std::string& text, const std::regex& type_re, const std::regex& field_re) {
  post_fields out;
  std::vector<std::pair<std::string, size_t>> at;
  for (std::sregex_iterator m(text.begin(), text.end(), type_re), end; m != end; ++m) at.push_back({(*m)[1], (size_t)m->position()});
  for (size_t i = 0; i < at.size(); i++) {
    const size_t end = i + 1 < at.size() ? at[i + 1].second : text.size();
    std::set<std::string> f = matches(text.substr(at[i].second, end - at[i].second), field_re);
    f.erase("type");
    out[at[i].first].insert(f.begin(), f.end());
  }
  return out;
}

static post_fields declared(model_post_to to) {
  post_fields out;
  for (const model_post& p : MODEL_POSTS) {
    if (p.to != to) continue;
    std::set<std::string>& f = out[p.type];
    std::istringstream words(p.fields);
    for (std::string w; words >> w;) f.insert(w);
  }
  return out;
}

TEST_CASE("protocol: web/model_worker.js and model_web.cpp use exactly the envelope's types and fields", "[model][protocol]") {
  const post_fields to_worker = declared(MODEL_TO_WORKER), to_page = declared(MODEL_TO_PAGE);
  REQUIRE(to_worker.size() == 6);
  REQUIRE(to_page.size() == 4);

  const std::string js = source_text("web/model_worker.js");
  // What the worker takes: handle(m)'s cases and the m.FIELD each reads.
  CHECK(by_type(between(js, "function handle(m)", "\n}\n"), std::regex("case \"(\\w+)\":"), std::regex("\\bm\\.(\\w+)")) == to_worker);
  // What it posts: {type: "...", FIELD: ...}.
  post_fields posted;
  const std::regex post("postMessage\\(\\{\\s*type:\\s*\"(\\w+)\"([^}]*)\\}");
  for (std::sregex_iterator m(js.begin(), js.end(), post), end; m != end; ++m)
    for (const std::string& f : matches((*m)[2], std::regex(",\\s*(\\w+)\\s*:"))) posted[(*m)[1]].insert(f);
  for (const auto& t : to_page) posted[t.first];  // a type posted with no field has none to find
  CHECK(posted == to_page);

  const std::string web = source_text("src/platform/web/model_web.cpp");
  // What the page posts: post("TYPE"[, "FIELD", ...]), and the fields js_model_post adds to one
  // type (if (msg.type === "TYPE") msg.FIELD = ...).
  post_fields page_posts;
  const std::regex page_post("\\bpost\\(\"(\\w+)\"(?:,\\s*\"(\\w+)\")?");
  for (std::sregex_iterator m(web.begin(), web.end(), page_post), end; m != end; ++m) {
    std::set<std::string>& f = page_posts[(*m)[1]];
    if ((*m)[2].matched) f.insert((*m)[2]);
  }
  const std::regex added("msg\\.type === \"(\\w+)\"\\) msg\\.(\\w+) =");
  for (std::sregex_iterator m(web.begin(), web.end(), added), end; m != end; ++m) page_posts[(*m)[1]].insert((*m)[2]);
  CHECK(page_posts == to_worker);
  // What it takes: the worker's onmessage, d.type === "TYPE" and the d.FIELD each reads.
  CHECK(by_type(between(web, "m.worker.onmessage", "};"), std::regex("d\\.type === \"(\\w+)\""), std::regex("\\bd\\.(\\w+)")) ==
        to_page);
}

// [SECTION] random messages, as before the rows: a seed's worth of the shapes the host answers

TEST_CASE("protocol: random messages round-trip (seed: --rng-seed)", "[model][protocol]") {
  std::mt19937 rng(Catch::rngSeed());
  std::uniform_int_distribution<int> d(0, 1000);
  for (int i = 0; i < 50; i++) {
    model_question q;
    q.id = (uint32_t)d(rng);
    for (int k = d(rng) % 6; k > 0; k--) q.ids.push_back(d(rng));
    q.text = d(rng) % 2 ? "中国的首都是" : "";
    for (int k = d(rng) % 3; k > 0; k--) q.off.push_back({d(rng) % 24, d(rng)});
    q.position = d(rng) % 5 - 1;
    q.unit = {d(rng) % 24, d(rng)};
    q.threshold = d(rng) / 1000.0;
    q.gate_layers = {d(rng) % 24};
    model_question qb;
    REQUIRE(model_question_parse(model_question_json(q), &qb));
    CHECK(diff(q, qb).differ == std::vector<std::string>{});

    model_reply r;
    r.id = q.id;
    r.error = stream_error_of((stream_fault)(d(rng) % STREAM_FAULT_COUNT), read_error_at("x", (str_id)(d(rng) % STR_COUNT), {"1", "2"}));
    r.prompt = {{(int64_t)d(rng), "北京"}, {3, " Paris"}};
    r.top = {{{9, "哪个"}, d(rng) / 1000.0, d(rng) / 1000.0}};
    r.units = {{{3, 4}, (float)d(rng) / 7.0f, {{1, "a"}}}};
    r.picked = r.units[0];
    r.picked_per_token = {(float)d(rng) / 3.0f, -0.25f};
    r.flow = {{(float)d(rng) / 9.0f, 2.0f}};
    mlp_gate_counts c;
    c.total = d(rng), c.open = 3, c.negative = 2, c.histogram[d(rng) % GATE_HIST_BINS] = 7;
    r.gates_stream = {c};
    r.forward_ms = d(rng) / 8.0, r.switch_off_ms = d(rng) / 16.0;
    model_reply rb;
    REQUIRE(model_reply_parse(model_reply_json(r), &rb));
    CHECK(diff(r, rb).differ == std::vector<std::string>{});
  }
}
