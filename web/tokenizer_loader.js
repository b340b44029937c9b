// The tokenizer's worker: the page starts it only when a sentence
// must be tokenized (src/platform/web/tokenize_web.cpp), so neither this file nor the module it
// loads (tokenizer_wasm.js / .wasm, the core's tokenizer built for wasm) is in the first load.
// Messages in: {id, key, json (ArrayBuffer, or null when this key was sent before), text}.
// Messages out: {id, ids, pieces, ms} or {id, error}. The parsed tokenizer is kept for the session;
// another key (another checkpoint's tokenizer.json) replaces it.
/* global importScripts, createTokenizerModule */
importScripts("tokenizer_wasm.js");
const ready = createTokenizerModule();
let loadedKey = null;

function call(M, fn, bytes) {
  const p = M._malloc(bytes.length + 1);
  M.HEAPU8.set(bytes, p);
  try { return fn(p, bytes.length); } finally { M._free(p); }
}

// tokenizer.json written once, into the buffer the module parses (and frees).
function load(M, bytes) {
  const at = M._tok_module_file(bytes.length);  // first: it may grow the heap (a new HEAPU8)
  M.HEAPU8.set(bytes, at);
  return M._tok_module_load();
}

self.onmessage = async (ev) => {
  const { id, key, json, text } = ev.data;
  try {
    const M = await ready;
    const t0 = performance.now();
    if (key !== loadedKey) {
      if (!json) return self.postMessage({ id, error: "reload" });  // the page resends with the bytes
      loadedKey = null;
      if (!load(M, new Uint8Array(json))) return self.postMessage({ id, error: M.UTF8ToString(M._tok_module_error()) });
      loadedKey = key;
    }
    const answer = JSON.parse(M.UTF8ToString(call(M, M._tok_module_encode, new TextEncoder().encode(text))));
    answer.id = id;
    answer.ms = performance.now() - t0;
    self.postMessage(answer);
  } catch (e) {
    self.postMessage({ id, error: String(e && e.message ? e.message : e) });
  }
};
