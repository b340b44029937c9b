#!/usr/bin/env node
// Prints what the page costs to open: each file the first load fetches, raw and gzip -9, and
// the total. With --max-kb N it fails when the gzip total exceeds N KB (the page's budget).
//
//   node tools/page_weight.mjs [--site build-wasm/site] [--max-kb 600]
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const site = opt("--site", "build-wasm/site");
const maxKb = Number(opt("--max-kb", "0"));
const FIRST_LOAD = ["index.html", "swiglu_lab.js", "swiglu_lab.wasm"];

let raw = 0, gz = 0;
console.log("file               raw KB   gzip KB");
for (const f of FIRST_LOAD) {
  const bytes = fs.readFileSync(path.join(site, f));
  const g = zlib.gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += g;
  console.log(`${f.padEnd(17)} ${(bytes.length / 1024).toFixed(1).padStart(7)} ${(g / 1024).toFixed(1).padStart(9)}`);
}
console.log(`${"total".padEnd(17)} ${(raw / 1024).toFixed(1).padStart(7)} ${(gz / 1024).toFixed(1).padStart(9)}`);
if (maxKb && gz / 1024 > maxKb) {
  console.error(`the page is ${(gz / 1024).toFixed(1)} KB gzip, over its ${maxKb} KB budget`);
  process.exit(1);
}
