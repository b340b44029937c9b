// The page's tokenizer_service (core/checkpoint_remote/sentence_tokenizer.h): a worker
// (site/tokenizer_loader.js) running the core's tokenizer as a second wasm module. The worker is
// created on the first request, never at page load, so neither file is in the first load. Answers
// wait in a JS map until the frame polls them; a worker that fails to start answers every pending
// request with an error marked `module`.
#include <emscripten.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>


#include "core/checkpoint_remote/sentence_tokenizer.h"
#include "core/base/json_read.h"
#include "platform/platform.h"

EM_JS(void, js_tok_start, (int id, const char* key, const char* json, int json_n, const char* text), {
  if (!Module.labTok) {
    const t = { answers: new Map(), pending: new Set(), failed: "" };
    const failAll = (why) => {
      t.failed = why;
      for (const p of t.pending) t.answers.set(p, { id: p, error: why, module: true });
      t.pending.clear();
    };
    try {
      t.worker = new Worker("tokenizer_loader.js");
      t.worker.onmessage = (ev) => { t.pending.delete(ev.data.id); t.answers.set(ev.data.id, ev.data); };
      t.worker.onerror = (ev) => { ev.preventDefault(); failAll(ev.message || "tokenizer_loader.js did not load"); };
    } catch (e) {
      failAll(String(e && e.message ? e.message : e));
    }
    Module.labTok = t;
  }
  const t = Module.labTok;
  if (t.failed) return t.answers.set(id, { id: id, error: t.failed, module: true });
  const bytes = json_n ? HEAPU8.slice(json, json + json_n).buffer : null;
  t.pending.add(id);
  t.worker.postMessage({ id: id, key: UTF8ToString(key), json: bytes, text: UTF8ToString(text) }, bytes ? [bytes] : []);
});

// The answer to `id` as malloc'd JSON text, or null while it is not in.
EM_JS(char*, js_tok_take, (int id), {
  const t = Module.labTok;
  const a = t && t.answers.get(id);
  if (!a) return 0;
  t.answers.delete(id);
  const s = JSON.stringify(a);
  const n = lengthBytesUTF8(s) + 1;
  const p = _malloc(n);
  stringToUTF8(s, p, n);
  return p;
});

namespace {
struct web_tokenizer final : tokenizer_service {
  // Keys whose bytes crossed to the worker: it keeps the parsed tokenizer, or refuses the file
  // (then the key is dropped). The worker answers in order, so a sentence sent after the bytes
  // needs none.
  std::set<std::string> known;
  std::map<uint32_t, std::string> job_key;
  uint32_t next = 1;

  bool tokenizer_known(const std::string& key) override { return known.count(key) > 0; }

  uint32_t tokenize_start(const std::string& key, const char* json, size_t json_bytes, const std::string& text) override {
    const uint32_t id = next++;
    job_key[id] = key;
    // Bytes given are always sent (the worker keeps one tokenizer, and loads them when its own is
    // another's): a sentence fetched again after a "reload" always gets its file there.
    if (json) known.insert(key);
    js_tok_start((int)id, key.c_str(), json, json ? (int)json_bytes : 0, text.c_str());
    return id;
  }

  bool tokenize_poll(uint32_t id, tokenize_answer* out) override {
    char* s = js_tok_take((int)id);
    if (!s) return false;
    const json_tree tree = json_parse(s, std::strlen(s));
    const cJSON* j = tree.get();
    std::free(s);
    *out = tokenize_answer();
    const std::string key = job_key[id];
    job_key.erase(id);
    if (!cJSON_IsObject(j)) {
      out->error = "unreadable answer from the tokenizer worker";
      out->module_failed = true;
      return true;
    }
    if (cJSON_IsString(json_member(j, "error"))) {
      out->error = json_string(json_member(j, "error"));
      out->module_failed = json_member(j, "module") != nullptr;
      // Refused: the bytes must cross again. A module that failed fails every sentence at once
      // (nothing is fetched for it again).
      if (!out->module_failed) known.erase(key);
      if (out->error == "reload") out->file_needed = true, out->error.clear();  // the worker lost it
      return true;
    }
    const cJSON *ids = json_member(j, "ids"), *pieces = json_member(j, "pieces");
    for (const cJSON* v = cJSON_IsArray(ids) ? json_first(ids) : nullptr; v; v = v->next) {
      int64_t id;
      if (json_integer(v, &id)) out->ids.push_back(id);
    }
    for (const cJSON* v = cJSON_IsArray(pieces) ? json_first(pieces) : nullptr; v; v = v->next)
      if (cJSON_IsString(v)) out->pieces.push_back(json_string(v));
    return true;
  }
};
}  // namespace

tokenizer_service* platform_tokenizer() {
  static web_tokenizer t;
  return &t;
}
