// What the whole model's browser groups share (model, model_load, class): the built-in synthetic
// whole model the site serves (site/models/synthetic/), the CLI that computes its numbers natively
// (`swiglu forward --json`, the same core), the page's percent format, and the worker's records.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitIdle, waitUntil } from "./browser.mjs";

export const TIMEOUT = 90000;
export { PHONE } from "./browser.mjs";
// fmt_percent1 (number_format.cpp's fmt_share): one decimal, two significant digits below 0.05 %.
export const pct = (p) => {
  const v = 100 * p;
  return (v <= 0 || v >= 0.05 ? v.toFixed(1) : v.toFixed(1 - Math.floor(Math.log10(v)))) + " %";
};

// The model's own words need the full fonts' slices (the page carries only the string table's glyphs):
// before a screenshot, the page idle (labIdle counts a font on its way as something to draw).
export const fontsSettled = (page) => waitIdle(page, TIMEOUT);

// The worker's files (name, size), and how many blobs IndexedDB holds beside them.
export const stored = (page) => page.evaluate(async () => {
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle("swiglu-lab-model", { create: true });
  const files = [];
  const it = dir.entries();
  for (let e = await it.next(); !e.done; e = await it.next()) {
    try {  // a record the worker replaces between the listing and the read is read on the next poll
      files.push({ name: e.value[0], size: (await e.value[1].getFile()).size });
    } catch (err) {
      if (err.name !== "NotFoundError") throw err;
    }
  }
  const blobs = await new Promise((resolve) => {
    const open = indexedDB.open("swiglu-lab-model");
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains("blobs")) { db.close(); return resolve(0); }
      const r = db.transaction("blobs").objectStore("blobs").count();
      r.onsuccess = () => { db.close(); resolve(r.result); };
    };
    open.onerror = () => resolve(-1);
  });
  return { files: files.sort((a, b) => b.size - a.size), blobs };
});
// Every record stored: the files stop changing (the same over ten reads of the directory; a write
// comes a chunk at a time, so one unchanged read can fall between two chunks on a busy machine).
export const settled = async (page) => {
  let last = "", same = 0, st = null;
  await waitUntil(async () => {
    st = await stored(page);
    const now = JSON.stringify(st);
    same = now === last && st.files.length > 0 ? same + 1 : 0;
    last = now;
    return same >= 10;
  }, "the worker's records to be stored", TIMEOUT);
  return st;
};

// The built-in model's answer computed by the model in this page, not the site's precomputed one
// (models/synthetic/answers.txt), which shows first, marked, while the model loads.
export const ownAnswer = (page) => page.waitForFunction(() => !/Precomputed: |预先算好：/.test(document.getElementById("lab-text").textContent),
                                                 null, { timeout: TIMEOUT });

// The CLI on a checkpoint's directory, and on the site's built-in model.
export function modelCli(cli) {
  const forwardIn = (dir, args) => JSON.parse(execFileSync(cli, ["forward", dir, ...args, "--json"], { encoding: "utf8" }));
  const forward = (site, args) => forwardIn(path.join(site.dir, "models", "synthetic"), args);
  return { forwardIn, forward, llamaCheckpoint: llamaCheckpointMaker(cli) };
}

// The views' words the tests look for, per language.
export const viewWords = {
  en: { colon: ": ", sep: ", ", layer: (n) => `Layer ${n}`, synthetic: "The built-in whole model" },
  zh: { colon: "：", sep: "，", layer: (n) => `第 ${n} 层`, synthetic: "内置的完整模型" },
};

// make_checkpoint's random whole model with Llama's names and layout (model.layers.*, every layer
// full attention, full RoPE, norms by w), made once per run, as swiglu-lab/llama-whole on a
// Hub-like host; `variant` NAME with make_checkpoint's `args` beside it (the same seed: the same
// weights but for what the args change), as swiglu-lab/NAME.
function llamaCheckpointMaker(cli) {
  let llamaRoot = null;
  const make = (name, args) => execFileSync(path.join(path.dirname(cli), "make_checkpoint"), ["--out", path.join(llamaRoot, "swiglu-lab", name),
    "--whole", "random", "--naming", "llama", "--hidden", "64", "--intermediate", "192", "--num-layers", "2", "--vocab", "512", ...args],
  { stdio: "ignore" });
  return (variant = null, args = []) => {
    if (!llamaRoot) {
      llamaRoot = fs.mkdtempSync(path.join(os.tmpdir(), "lab-llama-"));
      make("llama-whole", []);
    }
    if (variant && !fs.existsSync(path.join(llamaRoot, "swiglu-lab", variant))) make(variant, args);
    return llamaRoot;
  };
}
