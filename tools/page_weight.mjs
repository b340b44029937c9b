#!/usr/bin/env node
// Prints what the page costs to open over the wire: each file the first load fetches, raw, brotli
// (what a host serving the build's .br files sends) and gzip -9 (what any other host sends), and
// the totals. It fails when a total is over its budget: --max-br-kb for brotli, --max-gzip-kb for
// gzip (--max-kb is the older name of --max-gzip-kb).
//
// A gates link on the default pack fetches swiglu_text_gates_en.wasm (the early text with the
// manifest reader) instead of swiglu_text_en.wasm: its first load is printed after, with its own
// brotli budget (--max-gates-br-kb); a class link (ans=) on a whole-model view fetches
// swiglu_text_class_en.wasm, which also decodes the teacher's answers (--max-class-br-kb).
//
//   node tools/page_weight.mjs [--site build-wasm/site] [--max-br-kb 260] [--max-gzip-kb 300] [--max-gates-br-kb 340] [--max-class-br-kb 380]
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const site = opt("--site", "build-wasm/site");
const maxBr = Number(opt("--max-br-kb", "0"));
const maxGz = Number(opt("--max-gzip-kb", opt("--max-kb", "0")));
const maxGatesBr = Number(opt("--max-gates-br-kb", "0"));
const maxClassBr = Number(opt("--max-class-br-kb", "0"));
// The page, its glue and wasm, the early text of an English page (swiglu_text_zh.wasm is the same
// size for a Chinese one), and the default pack's manifest, which index.html asks for on a live link.
const FIRST_LOAD = ["index.html", "swiglu_lab.js", "swiglu_lab.wasm", "swiglu_text_en.wasm", "packs/default/manifest.json"];
const OPTIONAL = new Set(["packs/default/manifest.json"]);  // absent until the native build copies the pack

const brotli = (bytes) => zlib.brotliCompressSync(bytes, {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
}).length;
// What goes over the wire: the build's own .br file when there is one and it is current.
const served = (file, bytes, suffix, compress) => {
  try {
    if (fs.statSync(file + suffix).mtimeMs >= fs.statSync(file).mtimeMs) return fs.statSync(file + suffix).size;
  } catch { /* none: compress here */ }
  return compress(bytes);
};
const kb = (n) => (n / 1024).toFixed(1);

const weigh = (files) => {
  let raw = 0, br = 0, gz = 0;
  console.log("file                          raw KB  brotli KB   gzip KB");
  for (const f of files) {
    const file = path.join(site, f);
    if (!fs.existsSync(file) && OPTIONAL.has(f)) {
      console.log(`${f.padEnd(28)} (not built)`);
      continue;
    }
    const bytes = fs.readFileSync(file);
    const b = served(file, bytes, ".br", brotli), g = served(file, bytes, ".gz", (x) => zlib.gzipSync(x, { level: 9 }).length);
    raw += bytes.length, br += b, gz += g;
    console.log(`${f.padEnd(28)} ${kb(bytes.length).padStart(7)} ${kb(b).padStart(10)} ${kb(g).padStart(9)}`);
  }
  console.log(`${"total".padEnd(28)} ${kb(raw).padStart(7)} ${kb(br).padStart(10)} ${kb(gz).padStart(9)}`);
  return { br, gz };
};
const { br, gz } = weigh(FIRST_LOAD);
let over = false;
if (maxBr && br / 1024 > maxBr) console.error(`the first load is ${kb(br)} KB brotli, over its ${maxBr} KB budget`), over = true;
if (maxGz && gz / 1024 > maxGz) console.error(`the first load is ${kb(gz)} KB gzip, over its ${maxGz} KB budget`), over = true;
// The links that fetch another early module instead of swiglu_text_en.wasm, each with its budget.
const OTHER_EARLY = [
  { what: "a gates link on the default pack (#view=gates)", who: "a gates link", file: "swiglu_text_gates_en.wasm", max: maxGatesBr,
    files: FIRST_LOAD },
  // No manifest: the whole model's views need none.
  { what: "a class link on a whole-model view (#view=rules&ans=...)", who: "a class link", file: "swiglu_text_class_en.wasm", max: maxClassBr,
    files: FIRST_LOAD.filter((f) => !OPTIONAL.has(f)) },
];
for (const e of OTHER_EARLY) {
  if (!fs.existsSync(path.join(site, e.file))) continue;
  console.log(`\n${e.what}:`);
  const w = weigh(e.files.map((f) => (f === "swiglu_text_en.wasm" ? e.file : f)));
  if (e.max && w.br / 1024 > e.max) console.error(`${e.who}'s first load is ${kb(w.br)} KB brotli, over its ${e.max} KB budget`), over = true;
}
process.exit(over ? 1 : 0);
