// The page's model_service (core/model/model_service.h): a Web Worker (site/model_worker.js)
// running the whole model's host as its own wasm module. The worker starts when a view first opens
// a whole model, never at page load, so neither its files nor the model are in the first load.
// Messages are the core's JSON; answers and the newest status wait in JS until the frame polls
// them. A worker that fails to start answers with a failed status (STREAM_NETWORK: its files did
// not load) and the views say so; the rest of the page goes on.
#include <emscripten.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/model/model_service.h"
#include "platform/platform.h"

EM_JS(void, js_model_post, (const char* type, const char* field, const char* value), {
  if (!Module.labModel) {
    const m = { answers: new Map(), status: "", cache: -1, cleared: -1, failed: "" };
    try {
      m.worker = new Worker("model_worker.js");
      m.worker.onmessage = (ev) => {
        const d = ev.data;
        if (d.type === "status") { m.status = d.json; m.cache = d.cache; }
        else if (d.type === "answer") { const id = JSON.parse(d.json).id; m.answers.set(id, d.json); }
        else if (d.type === "cleared") { m.cleared = d.bytes; m.cache = 0; }
        else if (d.type === "failed") m.failed = d.error || "the model worker did not start";
        if (Module.labOnModelEvent) Module.labOnModelEvent();
      };
      m.worker.onerror = (ev) => { ev.preventDefault(); m.failed = ev.message || "model_worker.js did not load"; };
    } catch (e) {
      m.failed = String(e && e.message ? e.message : e);
    }
    Module.labModel = m;
  }
  const msg = { type: UTF8ToString(type) };
  if (field) msg[UTF8ToString(field)] = UTF8ToString(value);
  if (Module.labModel.worker) Module.labModel.worker.postMessage(msg);
});

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

// Clear before the worker ever started: its database is deleted unseen.
EM_JS(void, js_model_delete_database, (void), {
  try { indexedDB.deleteDatabase("swiglu-lab-model"); } catch (e) {}
});
EM_JS(int, js_model_started, (void), { return Module.labModel ? 1 : 0; });

namespace {
std::string take(char* p) {
  std::string s = p ? p : "";
  std::free(p);
  return s;
}

struct web_model final : model_service {
  uint32_t next_id = 1;
  std::string location;
  void model_open(const std::string& where) override {
    if (where == location) return;
    location = where;
    js_model_post("open", "location", where.c_str());
  }
  void model_go() override { js_model_post("go", nullptr, nullptr); }
  void model_cancel() override { js_model_post("cancel", nullptr, nullptr); }
  void model_retry() override { js_model_post("retry", nullptr, nullptr); }
  uint64_t model_clear_cache() override {
    if (!js_model_started()) {
      js_model_delete_database();
      return 0;
    }
    const uint64_t held = (uint64_t)js_model_cache_bytes();
    js_model_post("clear", nullptr, nullptr);
    return held;
  }
  uint64_t model_cache_bytes() const override { return (uint64_t)js_model_cache_bytes(); }
  uint32_t model_ask(const model_question& q) override {
    model_question asked = q;
    asked.id = next_id++;
    js_model_post("ask", "json", model_question_json(asked).c_str());
    return asked.id;
  }
  model_status model_status_now() override {
    const std::string s = take(js_model_status());
    model_status st;
    st.location = location;
    model_read_fault fault = MODEL_READ_OK;
    if (!s.empty() && s[0] == '!') {
      st.phase = MODEL_STATUS_FAILED;
      st.failed_file = "model_worker.js";
      st.error = stream_error_detail(STREAM_NETWORK, s.substr(1));
    } else if (s.empty() || !model_status_parse(s, &st, &fault)) {
      // A worker of another version (its files cached from another build) would never send a
      // status this page reads: say so, rather than wait as if it were opening.
      if (fault == MODEL_READ_OTHER_VERSION) return model_status_other_version(location);
      st.phase = location.empty() ? MODEL_STATUS_IDLE : MODEL_STATUS_OPENING;
    }
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
