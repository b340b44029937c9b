// The page's model worker: loads swiglu_model.js / .wasm (the whole model's host,
// src/platform/web/model_worker.cpp) and keeps it busy: loading between messages, a question's
// forward passes when one comes. The page starts it only when a view needs the whole model
// (src/platform/web/model_web.cpp), so neither file is in the first load.
// Messages in:  {type: "open", location, generation (statuses carry it)} | {type: "go" | "cancel" | "retry" | "clear"} | {type: "ask", json}
// Messages out: {type: "status", json, cache} (while it changes) | {type: "answer", json} | {type: "cleared", bytes}
//               | {type: "failed", error} (the module did not load)
// These types and fields are declared in C++ (MODEL_POST rows of src/core/model/model_messages.inc),
// the JSON inside them too; tests/model/model_protocol_test.cpp checks this file against them.
/* global importScripts, createModelModule */
let M = null, lastStatus = "";
const queue = [];

function str(p) { return M.UTF8ToString(p); }
function call(fn, text, ...rest) {
  const n = M.lengthBytesUTF8(text) + 1, p = M._malloc(n);
  M.stringToUTF8(text, p, n);
  try { return str(fn(p, ...rest)); } finally { M._free(p); }
}
function postStatus() {
  const s = str(M._model_worker_status());
  if (s === lastStatus) return;
  lastStatus = s;
  self.postMessage({ type: "status", json: s, cache: M._model_worker_cache_bytes() });
}
// Loads in slices of 40 ms with a turn of the event loop between them (fetch answers and the
// page's messages come in there); the status goes out when it changed. While it only waits for
// the network it looks again every 250 ms (the stall clock); an answer wakes it at once.
let timer = 0;
function schedule(ms) {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => { timer = 0; pump(); }, ms);
}
function pump() {
  const more = M._model_worker_pump(40);
  postStatus();
  if (more) schedule(more === 2 ? 0 : 250);
}
function wake() { if (M) schedule(0); }

// A question's answer in two steps when the units' "writes toward" lists are not known yet and
// long to compute (one pass over the unembedding: about 0.45 s on Qwen3.5-0.8B): the next tokens
// and the rest at once, then the whole answer under the same id (the pass itself is kept, not run
// again). A question that came meanwhile waits for it: the page asks one at a time.
function ask(json) {
  const first = call(M._model_worker_ask, json, 1);
  self.postMessage({ type: "answer", json: first });
  if (JSON.parse(first).toward_pending) self.postMessage({ type: "answer", json: call(M._model_worker_ask, json, 0) });
}

function handle(m) {
  switch (m.type) {
    case "open": call(M._model_worker_open, m.location, m.generation | 0); break;
    case "go": M._model_worker_go(); break;
    case "cancel": M._model_worker_cancel(); break;
    case "retry": M._model_worker_retry(); break;
    case "clear": self.postMessage({ type: "cleared", bytes: M._model_worker_clear() }); break;
    case "ask": ask(m.json); break;
  }
  wake();
}

self.onmessage = (ev) => { if (M) handle(ev.data); else queue.push(ev.data); };
// Threads beside this one: where the page is cross-origin isolated (shared memory), the cores
// less this one, at most 7 (swiglu_model_mt starts them with the module); elsewhere none.
const threads = self.crossOriginIsolated && typeof SharedArrayBuffer === "function"
  ? Math.max(0, Math.min(8, navigator.hardwareConcurrency || 1) - 1) : 0;
// The threaded module where it may run, the single-threaded one otherwise or if it fails to start.
function start(n) {
  const file = n > 0 ? "swiglu_model_mt.js" : "swiglu_model.js";
  importScripts(file);
  return createModelModule({ labOnEvent: wake, labThreads: n, mainScriptUrlOrBlob: file });
}
const failed = (e) => self.postMessage({ type: "failed", error: String(e && e.message ? e.message : e) });
function startOrFallBack(n) {
  try {
    return start(n).catch((e) => { if (n > 0) return startOrFallBack(0); throw e; });
  } catch (e) {
    return n > 0 ? startOrFallBack(0) : Promise.reject(e);
  }
}
startOrFallBack(threads).then((mod) => {
  M = mod;
  while (queue.length) handle(queue.shift());
}, failed);
