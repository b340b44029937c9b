// The page's model_service (core/model/model_service.h): a Web Worker (site/model_worker.js)
// running the whole model's host as its own wasm module. The worker starts when a view first opens
// a whole model, never at page load, so neither its files nor the model are in the first load.
// Messages are the core's JSON; answers and the newest status wait in JS until the frame polls
// them. A worker that fails to start answers with a failed status (STREAM_NETWORK: its files did
// not load) and the views say so; the rest of the page goes on.
#include <emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/model/model_service.h"
#include "platform/platform.h"

EM_JS(void, js_model_post, (const char* type, const char* field, const char* value, int generation), {
  if (!Module.labModel) {
    const m = { answers: new Map(), status: "", changes: 0, cache: -1, cleared: -1, failed: "" };
    const fail = (words) => {
      if (m.failed) return;
      m.failed = words || "the model worker did not start";
      m.changes++;
      if (Module.labOnModelEvent) Module.labOnModelEvent();
    };
    try {
      m.worker = new Worker("model_worker.js");
      m.worker.onmessage = (ev) => {
        const d = ev.data;
        if (d.type === "status") { if (d.json !== m.status) { m.status = d.json; m.changes++; } m.cache = d.cache; }
        else if (d.type === "answer") { const id = JSON.parse(d.json).id; m.answers.set(id, d.json); }
        else if (d.type === "cleared") { m.cleared = d.bytes; m.cache = 0; }
        else if (d.type === "failed") { fail(d.error); return; }
        if (Module.labOnModelEvent) Module.labOnModelEvent();
      };
      // An uncaught error in the worker (its wasm aborted: out of memory, a trap) leaves its module
      // unusable: the worker counts as stopped, and the next open or Retry starts a new one.
      m.worker.onerror = (ev) => { ev.preventDefault(); fail(ev.message || "model_worker.js did not load"); };
    } catch (e) {
      m.failed = String(e && e.message ? e.message : e);
    }
    Module.labModel = m;
  }
  const msg = { type: UTF8ToString(type) };
  if (msg.type === "open") msg.generation = generation;  // every status of this open carries it
  if (field) msg[UTF8ToString(field)] = UTF8ToString(value);
  if (Module.labModel.worker && !Module.labModel.failed) Module.labModel.worker.postMessage(msg);
});

// A stopped worker is let go: the next js_model_post starts a new one (its cache is the browser's,
// so what the old one verified is read back, not fetched again).
EM_JS(void, js_model_restart, (void), {
  const m = Module.labModel;
  if (!m) return;
  try { if (m.worker) m.worker.terminate(); } catch (e) {}
  Module.labModel = null;
});
EM_JS(int, js_model_stopped, (void), { return Module.labModel && Module.labModel.failed ? 1 : 0; });
EM_JS(double, js_model_changes, (void), { return Module.labModel ? Module.labModel.changes : 0; });

// The newest status JSON ("" when none came yet), or the worker's failure as "!words".
EM_JS(char*, js_model_status, (void), {
  const m = Module.labModel;
  const s = !m ? "" : m.failed ? "!" + m.failed : m.status;
  const n = lengthBytesUTF8(s) + 1, p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

EM_JS(char*, js_model_take, (int id), {
  const m = Module.labModel, a = m && m.answers.get(id);
  if (!a) return 0;
  m.answers.delete(id);
  const n = lengthBytesUTF8(a) + 1, p = _malloc(n);
  stringToUTF8(a, p, n);
  return p;
});

EM_JS(double, js_model_cache_bytes, (void), { return Module.labModel && Module.labModel.cache >= 0 ? Module.labModel.cache : 0; });

// Clear before the worker ever started: its database and its OPFS directory (fetch_web.cpp) are
// deleted unseen.
EM_JS(void, js_model_delete_database, (void), {
  try { indexedDB.deleteDatabase("swiglu-lab-model"); } catch (e) {}
  try {
    navigator.storage.getDirectory().then((root) => root.removeEntry("swiglu-lab-model", { recursive: true })).catch(() => {});
  } catch (e) {}
});
EM_JS(int, js_model_started, (void), { return Module.labModel ? 1 : 0; });

namespace {
std::string take(char* p) {
  std::string s = p ? p : "";
  std::free(p);
  return s;
}

struct web_model final : model_service {
  uint32_t next_id = 1, generation = 0;
  std::string location;
  // Workers started: each one's status changes count on from the last one's, so a new worker's
  // first status is always read.
  uint64_t changes_before = 0;
  void post(const char* type, const char* field = nullptr, const char* value = nullptr) {
    js_model_post(type, field, value, (int)generation);
  }
  void restart() {
    changes_before += (uint64_t)js_model_changes() + 1;
    js_model_restart();
    post("open", "location", location.c_str());
  }
  uint32_t model_open(const std::string& where) override {
    if (where == location && generation > 0) return generation;
    location = where;
    generation++;
    if (js_model_stopped()) restart();  // another model after a worker died: a new worker
    else post("open", "location", where.c_str());
    return generation;
  }
  void model_go() override { post("go"); }
  void model_cancel() override { post("cancel"); }
  void model_retry() override {
    if (!js_model_stopped()) return post("retry");
    generation++;
    restart();
  }
  uint64_t model_clear_cache() override {
    if (!js_model_started()) {
      js_model_delete_database();
      return 0;
    }
    const uint64_t held = (uint64_t)js_model_cache_bytes();
    post("clear");
    return held;
  }
  uint64_t model_cache_bytes() const override { return (uint64_t)js_model_cache_bytes(); }
  uint32_t model_ask(const model_question& q) override {
    model_question asked = q;
    asked.id = next_id++;
    post("ask", "json", model_question_json(asked).c_str());
    return asked.id;
  }
  // Parsed once per change of the worker's status (the frame asks every frame).
  uint64_t model_status_changes() const override { return changes_before + (uint64_t)js_model_changes(); }
  uint64_t parsed_changes = UINT64_MAX;
  model_status parsed;
  model_status model_status_now() override {
    if (parsed_changes == model_status_changes()) return parsed;
    parsed_changes = model_status_changes();
    const std::string s = take(js_model_status());
    model_status st;
    st.location = location;
    model_read_fault fault = MODEL_READ_OK;
    if (!s.empty() && s[0] == '!') {  // the worker stopped, or never started: this open's failure
      st.phase = MODEL_STATUS_FAILED;
      st.generation = generation;
      st.error = stream_error_detail(STREAM_WORKER_STOPPED, s.substr(1));
    } else if (s.empty() || !model_status_parse(s, &st, &fault)) {
      // A worker of another version (its files cached from another build) would never send a
      // status this page reads: say so, rather than wait as if it were opening.
      if (fault == MODEL_READ_OTHER_VERSION) {
        parsed = model_status_other_version(location);
        parsed.generation = generation;
        return parsed;
      }
      st.phase = location.empty() ? MODEL_STATUS_IDLE : MODEL_STATUS_OPENING;
      st.generation = generation;
    }
    parsed = st;
    return st;
  }
  bool model_poll(uint32_t id, model_reply* out) override {
    char* p = js_model_take((int)id);
    if (!p) return false;
    return model_reply_parse(take(p), out);
  }
};
}  // namespace

model_service* platform_model() {
  static web_model m;
  return &m;
}
